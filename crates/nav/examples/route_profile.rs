//! Routes 2,000 seeded queries (500 node pairs, four times) through the
//! default router on one map and prints the mean time per route: a fixed
//! workload for a profiler, e.g. instruction counts with callgrind:
//!
//! ```text
//! cargo build --release -p quarry-nav --example route_profile
//! valgrind --tool=callgrind --toggle-collect='quarry_nav::route::*route' \
//!     target/release/examples/route_profile ../shared/maps/q3/oacmpctf1.map
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use rand::{RngExt, SeedableRng};

fn main() -> ExitCode {
    let Some(arg) = std::env::args().nth(1) else {
        eprintln!("usage: route_profile MAP");
        return ExitCode::FAILURE;
    };
    let map = match quarry_map::load(PathBuf::from(&arg), &quarry_map::LoadOptions::default()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{arg}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let world = quarry_nav::match_start_world(&map);
    let mesh = match quarry_nav::NavMesh::build_for_map(&map, &world, &[], &quarry_nav::Agent::default(), &quarry_nav::BuildOptions::default()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{arg}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Routes are profiled on a full distance table (bots' steady state).
    mesh.fill_region_table();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
    let nodes = mesh.nodes();
    let mut pairs = Vec::new();
    while pairs.len() < 500 && !nodes.is_empty() {
        let a = &nodes[rng.random_range(0..nodes.len())];
        let b = &nodes[rng.random_range(0..nodes.len())];
        if a.area == b.area {
            pairs.push((a.origin, b.origin));
        }
    }
    let mut scratch = quarry_nav::SearchScratch::new();
    let options = quarry_nav::RouteOptions::default();
    let started = std::time::Instant::now();
    let mut routed = 0;
    for _ in 0..4 {
        for &(a, b) in &pairs {
            routed += usize::from(mesh.route(&world, &mut scratch, a, b, &options).is_ok());
        }
    }
    let n = (pairs.len() * 4).max(1);
    println!("{routed} of {n} routed, {:.1} us per route", started.elapsed().as_secs_f64() * 1e6 / n as f64);
    ExitCode::SUCCESS
}
