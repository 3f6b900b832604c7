//! Issue 13: `q_dm1` plus two floor slabs far apart, a spawn on each, made
//! `quarry-server nav-info` allocate a dense cell grid over the square
//! between them: 556 MB for slabs at ±100,000, an abort allocating 27.8 GB
//! at ±1,000,000, and a failed 2.7e18-byte allocation at ±1e10.
//!
//! With the loader's world limit the slabs never reach the navmesh; with
//! the limit lifted (a caller's choice) the navmesh must still be sized by
//! its nodes, not by the map's extent.

use quarry_map::source::with_far_slabs;
use quarry_map::{LoadOptions, LoadedMap, load_str};
use quarry_nav::{Agent, BuildOptions, NavMesh, match_start_world};

/// The repository's own `q_dm1.map`.
fn q_dm1() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    std::fs::read_to_string(&path).expect("maps/q_dm1.map in the repository")
}

fn build(map: &LoadedMap) -> NavMesh {
    let world = match_start_world(map);
    NavMesh::build_for_map(
        map,
        &world,
        &[],
        &Agent::default(),
        &BuildOptions::default(),
    )
    .expect("navmesh builds")
}

const SLABS: [(f64, f64); 3] = [(1.0e5, 256.0), (1.0e6, 256.0), (1.0e10, 8192.0)];

#[test]
fn the_world_limit_keeps_far_slabs_out_of_the_navmesh() {
    let options = LoadOptions::default();
    let base = build(&load_str(&q_dm1(), "q_dm1.map", &options).expect("loads")).info();
    for (distance, half) in SLABS {
        let text = with_far_slabs(&q_dm1(), distance, half, "quarry/floor");
        let map = load_str(&text, "slabs.map", &options).expect("loads");
        let info = build(&map).info();
        assert_eq!(
            info.nodes, base.nodes,
            "{distance}: nothing beyond the limit"
        );
        assert_eq!(info.memory_bytes, base.memory_bytes, "{distance}");
    }
}

#[test]
fn without_the_limit_the_navmesh_is_sized_by_its_nodes() {
    let mut options = LoadOptions::default();
    options.world_limit = f32::MAX;
    let base = build(&load_str(&q_dm1(), "q_dm1.map", &options).expect("loads")).info();
    let per_node = base.memory_bytes as f64 / base.nodes as f64;
    for (distance, half) in SLABS {
        let text = with_far_slabs(&q_dm1(), distance, half, "quarry/floor");
        let map = load_str(&text, "slabs.map", &options).expect("loads");
        assert!(
            map.warnings().is_empty(),
            "{distance}: {:?}",
            map.warnings()
        );
        let mesh = build(&map);
        let info = mesh.info();
        assert!(info.nodes > base.nodes, "{distance}: the slabs get nodes");
        // Memory per node stays that of the plain map (the dense grid over
        // the slabs' square was 556 MB at 1e5 and more beyond).
        let ratio = info.memory_bytes as f64 / info.nodes as f64 / per_node;
        assert!(
            ratio < 1.5,
            "{distance}: {} bytes for {} nodes ({ratio:.2}x per node)",
            info.memory_bytes,
            info.nodes
        );
        // Snapping far from everything walks occupied cells only.
        let far = glam::Vec3::new(-3.0e9, 3.0e9, 0.0);
        let world = match_start_world(&map);
        assert_eq!(mesh.nearest_node(&world, far, 1.0e12), None);
    }
}
