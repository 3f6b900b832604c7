//! The movement core's place among the crates, checked on the manifests:
//! clients compile it as the server does, so neither it nor any crate it
//! builds with depends on an ECS, the console or the sim (the world arrives
//! through `quarry_map::Trace`, the parameters as a plain struct).

use std::path::Path;

/// The names of the dependencies a manifest lists of the given kinds
/// (also under `[target.*]`), by package name.
fn dependencies_of(manifest: &Path, kinds: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("read the manifest");
    let table: toml::Table = text.parse().expect("a valid manifest");
    let mut tables = vec![&table];
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        tables.extend(targets.values().filter_map(|t| t.as_table()));
    }
    let mut names = Vec::new();
    for t in tables {
        for kind in kinds {
            let Some(deps) = t.get(*kind).and_then(|d| d.as_table()) else { continue };
            for (key, value) in deps {
                let package = value.get("package").and_then(|p| p.as_str()).unwrap_or(key);
                names.push(package.to_owned());
            }
        }
    }
    names
}

/// Every dependency a manifest lists (normal, dev and build).
fn dependencies(manifest: &Path) -> Vec<String> {
    dependencies_of(manifest, &["dependencies", "dev-dependencies", "build-dependencies"])
}

const FORBIDDEN: [&str; 3] = ["bevy_ecs", "quarry-console", "quarry-sim"];

#[test]
fn the_movement_core_depends_on_no_ecs_console_or_sim() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let deps = dependencies(&manifest);
    assert!(deps.iter().any(|d| d == "quarry-map"), "the manifest was read: {deps:?}");
    let found: Vec<&String> = deps.iter().filter(|d| FORBIDDEN.contains(&d.as_str())).collect();
    assert!(found.is_empty(), "crates/movement depends on {found:?}");
}

#[test]
fn no_crate_the_movement_core_builds_with_brings_an_ecs_the_console_or_the_sim() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seen = vec!["quarry-movement".to_owned()];
    let mut next = vec![crates.join("movement/Cargo.toml")];
    let mut found = Vec::new();
    while let Some(manifest) = next.pop() {
        // What builds with it: normal and build dependencies, not tests'.
        for dep in dependencies_of(&manifest, &["dependencies", "build-dependencies"]) {
            if FORBIDDEN.contains(&dep.as_str()) {
                found.push(format!("{} -> {dep}", manifest.display()));
            }
            if let Some(name) = dep.strip_prefix("quarry-")
                && !seen.contains(&dep)
            {
                seen.push(dep.clone());
                next.push(crates.join(name).join("Cargo.toml"));
            }
        }
    }
    assert!(seen.iter().any(|c| c == "quarry-map"), "the walk reached the map crate: {seen:?}");
    assert!(found.is_empty(), "the movement core builds with {found:?}");
}
