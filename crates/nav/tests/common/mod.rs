//! Helpers shared by the real-map tests: finding the maps, building a mesh
//! and checking one map's reachability and heuristics.
#![allow(dead_code, reason = "each test binary uses a subset of the helpers")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use quarry_map::{LoadOptions, LoadedMap};
use quarry_nav::{
    Agent, BuildOptions, NavMesh, ReachabilityReport, heuristic_comparison, match_start_world,
    reachability_report_in,
};

/// Random node pairs per map on which ALT and Euclid must match Dijkstra's cost.
pub(crate) const QUERIES: usize = 1000;

/// The workspace root.
pub(crate) fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `.map` files directly in `dir`, sorted.
pub(crate) fn maps_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    out.sort();
    out
}

/// `.map` files anywhere below `dir`, sorted.
pub(crate) fn maps_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = maps_in(dir);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.path().is_dir() {
            out.extend(maps_below(&entry.path()));
        }
    }
    out.sort();
    out
}

/// The shared maps directory (`QUARRY_SHARED_MAPS`, default
/// `<workspace>/../shared/maps`), or `None` after printing a skip line
/// (a panic instead when `QUARRY_REQUIRE_SHARED_MAPS=1`).
pub(crate) fn shared_maps_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/maps"));
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("QUARRY_REQUIRE_SHARED_MAPS").is_ok_and(|v| v == "1") {
        panic!(
            "{test}: shared maps required but {} is missing",
            dir.display()
        );
    }
    println!(
        "{test}: skipped, no shared maps at {} (set QUARRY_SHARED_MAPS)",
        dir.display()
    );
    None
}

/// A loaded map and its navmesh on the match-start world.
pub(crate) struct Built {
    pub(crate) name: String,
    pub(crate) map: LoadedMap,
    pub(crate) mesh: NavMesh,
    pub(crate) reach: ReachabilityReport,
}

/// Loads `path`, builds at the default options and reports reachability.
pub(crate) fn build(path: &Path) -> Built {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let map =
        quarry_map::load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let world = match_start_world(&map);
    let mesh = NavMesh::build_for_map(
        &map,
        &world,
        &[],
        &Agent::default(),
        &BuildOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let reach = reachability_report_in(&world, &map, &mesh);
    Built {
        name,
        map,
        mesh,
        reach,
    }
}

/// Checks ALT and Euclid against Dijkstra on [`QUERIES`] random pairs and
/// prints one summary line for the map.
pub(crate) fn check_heuristics_and_print(b: &Built) {
    let h = heuristic_comparison(&b.mesh, 0x5eed, QUERIES);
    assert_eq!(
        h.cost_mismatches, 0,
        "{}: a heuristic changed a path cost: {h:?}",
        b.name
    );
    assert!(
        h.alt_expansions < h.dijkstra_expansions,
        "{}: ALT expands no fewer nodes than Dijkstra: {h:?}",
        b.name
    );
    let info = b.mesh.info();
    let r = &b.reach;
    println!(
        "{}: {} nodes, {} links, {} areas, {} off-mesh, built in {:.0} ms; spawn to spawn {}/{} ({:.1} %), spawn to item {}/{} ({:.1} %); expansions alt {:.0}, euclid {:.0}, dijkstra {:.0} (alt {:.1}x fewer than dijkstra)",
        b.name,
        info.nodes,
        info.links,
        info.areas,
        info.off_mesh_links,
        info.build_ms,
        r.spawn_pairs_routed,
        r.spawn_pairs,
        100.0 * r.spawn_ratio(),
        r.item_pairs_routed,
        r.item_pairs,
        100.0 * r.item_ratio(),
        h.alt_expansions,
        h.euclid_expansions,
        h.dijkstra_expansions,
        h.alt_vs_dijkstra()
    );
}

/// The unreachable `(from, to)` entity pairs of a report.
pub(crate) fn unreachable_pairs(r: &ReachabilityReport) -> BTreeSet<(u32, u32)> {
    r.unreachable.iter().map(|u| (u.from.0, u.to.0)).collect()
}
