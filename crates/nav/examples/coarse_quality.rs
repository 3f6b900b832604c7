//! Routes through the region layer against the exact cell routes, per map:
//! region counts, build time, and [`quarry_nav::coarse_quality`] on 1,000
//! seeded node pairs (cost ratio to the optimal cell route, reachability
//! disagreements, walk legs that leave the mesh).
//!
//! ```text
//! cargo run --release -p quarry-nav --example coarse_quality -- maps/*.map ../shared/maps/*/*.map
//! ```

use std::path::PathBuf;

fn main() {
    for arg in std::env::args().skip(1) {
        let path = PathBuf::from(&arg);
        let map = match quarry_map::load(&path, &quarry_map::LoadOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{arg}: {e}");
                continue;
            }
        };
        let world = quarry_nav::match_start_world(&map);
        let mesh = match quarry_nav::NavMesh::build_for_map(&map, &world, &[], &quarry_nav::Agent::default(), &quarry_nav::BuildOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{arg}: {e}");
                continue;
            }
        };
        let info = mesh.info();
        let q = quarry_nav::coarse_quality(&mesh, &world, 7, 1000);
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or(arg);
        println!(
            "{name}: {} nodes, {} regions ({} rectangles), {} crossings, build {:.1} ms (regions {:.1})\n  {q}",
            info.nodes, info.regions, info.rectangles, info.region_edges, info.build_ms, info.build_times.regions_ms
        );
    }
}
