//! Mutation fuzzing through the navmesh (issue 13): whatever a mutated map
//! loads as, building its navmesh never panics and stays bounded (node
//! cap, memory proportional to nodes). The repro inputs run first
//! as fixed cases.
//!
//! Bounded for CI: `QUARRY_FUZZ_NAV_CASES` (default 24) mutants from seed
//! `QUARRY_FUZZ_SEED` (default 13). `scripts/fuzz.sh maps N` runs the long
//! campaign.

use glam::DVec3;
use quarry_map::fuzz::Mutator;
use quarry_map::source::{box_brush_f64, point_entity, with_far_slabs};
use quarry_map::{LoadOptions, load_str};
use quarry_nav::{Agent, BuildOptions, NavMesh, match_start_world};

/// Node cap for these builds (the flood's cost is bounded by it).
const MAX_NODES: usize = 8192;
/// Heap per node a mesh may use: q_dm1 needs about 450 bytes.
const MAX_BYTES_PER_NODE: usize = 4096;

fn q_dm1() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    std::fs::read_to_string(&path).expect("maps/q_dm1.map in the repository")
}

/// Loads `text` and, if it loads, builds and checks its navmesh. Returns
/// whether a navmesh was built.
fn check(name: &str, text: &str, options: &LoadOptions) -> bool {
    let Ok(map) = load_str(text, name, options) else {
        return false;
    };
    let world = match_start_world(&map);
    let build = BuildOptions {
        max_nodes: MAX_NODES,
        threads: 1,
        ..BuildOptions::default()
    };
    let Ok(mesh) = NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &build) else {
        return false;
    };
    let info = mesh.info();
    assert!(
        info.nodes <= MAX_NODES + info.seeds,
        "{name}: {} nodes",
        info.nodes
    );
    assert!(
        info.memory_bytes <= (info.nodes + 64) * MAX_BYTES_PER_NODE,
        "{name}: {} bytes for {} nodes",
        info.memory_bytes,
        info.nodes
    );
    true
}

/// The inputs of the issue: far slabs, a 200,000-face brush, a far spawn
/// and a patch beyond the world.
fn repro_inputs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (d, half) in [(1.0e5, 256.0), (1.0e6, 256.0), (1.0e10, 8192.0)] {
        out.push((
            format!("slabs-{d:e}.map"),
            with_far_slabs(&q_dm1(), d, half, "quarry/floor"),
        ));
    }
    let mut brush = String::from("{\n");
    for k in 0..200_000 {
        let a = std::f64::consts::TAU * f64::from(k) / 200_000.0;
        let (x, y) = (512.0 * a.cos(), 512.0 * a.sin());
        brush += &format!(
            "( {x} {y} 0 ) ( {x} {y} 64 ) ( {} {} 0 ) wall 0 0 0 1 1\n",
            x - a.sin(),
            y + a.cos()
        );
    }
    brush += "}\n";
    let floor = box_brush_f64(
        DVec3::new(-256.0, -256.0, -16.0),
        DVec3::new(256.0, 256.0, 0.0),
        "floor",
    );
    let spawn = point_entity("info_player_deathmatch", DVec3::new(0.0, 0.0, 40.0));
    let far = point_entity("info_player_deathmatch", DVec3::new(3.0e9, -3.0e9, 40.0));
    out.push((
        "faces.map".into(),
        format!("{{\n\"classname\" \"worldspawn\"\n{floor}{brush}}}\n{spawn}{far}"),
    ));
    out
}

#[test]
fn repro_inputs_build_small_navmeshes() {
    let options = LoadOptions::default();
    for (name, text) in repro_inputs() {
        assert!(check(&name, &text, &options), "{name}: builds");
    }
    // With the world limit lifted the navmesh alone must stay bounded.
    let mut lifted = LoadOptions::default();
    lifted.world_limit = f32::MAX;
    for (name, text) in repro_inputs() {
        check(&name, &text, &lifted);
    }
}

#[test]
fn mutants_build_bounded_navmeshes_or_fail_cleanly() {
    let cases: u64 = std::env::var("QUARRY_FUZZ_NAV_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let seed: u64 = std::env::var("QUARRY_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(13);
    let base = q_dm1();
    let options = LoadOptions::default();
    let mut built = 0;
    for case in 0..cases {
        let case_seed = seed.wrapping_mul(1_000_003).wrapping_add(case);
        let (mutant, mutations) = Mutator::new(case_seed).mutate(base.as_bytes(), 4);
        let text = String::from_utf8_lossy(&mutant);
        let ok = std::panic::catch_unwind(|| check("mutant.map", &text, &options));
        let Ok(ok) = ok else {
            panic!("seed {case_seed} ({mutations:?}) panicked");
        };
        built += usize::from(ok);
    }
    println!("{cases} mutants of q_dm1 from seed {seed}: {built} navmeshes built");
    assert!(cases == 0 || built > 0, "some mutants still build");
}
