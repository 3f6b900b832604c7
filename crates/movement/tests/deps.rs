//! The movement core's place among the crates, checked on its manifest:
//! clients compile it as the server does, so it depends on no ECS, no
//! console and no sim (the world arrives through `quarry_map::Trace`, the
//! parameters as a plain struct).

use std::path::Path;

/// The names of every dependency a manifest lists (normal, dev and build,
/// also under `[target.*]`), by package name.
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("read the manifest");
    let table: toml::Table = text.parse().expect("a valid manifest");
    let mut tables = vec![&table];
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        tables.extend(targets.values().filter_map(|t| t.as_table()));
    }
    let mut names = Vec::new();
    for t in tables {
        for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let Some(deps) = t.get(kind).and_then(|d| d.as_table()) else { continue };
            for (key, value) in deps {
                let package = value.get("package").and_then(|p| p.as_str()).unwrap_or(key);
                names.push(package.to_owned());
            }
        }
    }
    names
}

#[test]
fn the_movement_core_depends_on_no_ecs_console_or_sim() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let deps = dependencies(&manifest);
    assert!(deps.iter().any(|d| d == "quarry-map"), "the manifest was read: {deps:?}");
    let forbidden = ["bevy_ecs", "quarry-console", "quarry-sim"];
    let found: Vec<&String> = deps.iter().filter(|d| forbidden.contains(&d.as_str())).collect();
    assert!(found.is_empty(), "crates/movement depends on {found:?}");
}
