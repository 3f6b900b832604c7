//! The record crate's place among the crates, checked on the manifests: a
//! recording is a file format over the movement core's command, so the
//! crate reaches no sim, through any workspace crate it depends on.

use std::path::{Path, PathBuf};

/// The names of every dependency a manifest lists (normal and build, and
/// dev with `dev`; also under `[target.*]`), by package name.
fn dependencies(manifest: &Path, dev: bool) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap_or_else(|e| panic!("read {}: {e}", manifest.display()));
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("parse {}: {e}", manifest.display()));
    let mut tables = vec![&table];
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        tables.extend(targets.values().filter_map(|t| t.as_table()));
    }
    let kinds: &[&str] = if dev { &["dependencies", "dev-dependencies", "build-dependencies"] } else { &["dependencies", "build-dependencies"] };
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

/// A workspace crate's manifest (`quarry-NAME` lives in `crates/NAME`).
fn workspace_manifest(package: &str) -> Option<PathBuf> {
    let dir = package.strip_prefix("quarry-")?;
    Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir).join("Cargo.toml"))
}

#[test]
fn the_record_crate_reaches_no_sim() {
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let direct = dependencies(&own, true);
    assert!(direct.iter().any(|d| d == "quarry-movement"), "the manifest was read: {direct:?}");
    // Every workspace crate reachable from the record crate, as `cargo tree` walks it.
    let mut seen: Vec<String> = Vec::new();
    let mut todo: Vec<(String, Vec<String>)> = direct.into_iter().map(|d| (d, vec!["quarry-record".to_owned()])).collect();
    while let Some((package, path)) = todo.pop() {
        assert_ne!(package, "quarry-sim", "the record crate depends on the sim through {}", path.join(" -> "));
        if seen.contains(&package) {
            continue;
        }
        seen.push(package.clone());
        if let Some(manifest) = workspace_manifest(&package) {
            let mut next = path.clone();
            next.push(package.clone());
            todo.extend(dependencies(&manifest, false).into_iter().map(|d| (d, next.clone())));
        }
    }
    assert!(seen.iter().any(|d| d == "quarry-map"), "the walk reached the movement core's dependencies: {seen:?}");
}
