//! Builds a map's navmesh, prints what `quarry-server nav-info` prints
//! (figures, reachability, ALT against Euclid), routes between the first
//! two spawn points and writes a top-down SVG with that route on top.
//!
//! ```text
//! cargo run --release -p quarry-nav --example build_navmesh_svg -- maps/q_dm1.map [OUT.svg] [CELL]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use quarry_map::LoadOptions;
use quarry_nav::{Agent, BuildOptions, RouteOptions, SearchScratch, match_start_world, nav_info};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("usage: build_navmesh_svg MAP.map [OUT.svg] [CELL]");
        return ExitCode::FAILURE;
    };
    let out = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| path.with_extension("svg"));
    let cell = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(quarry_nav::DEFAULT_CELL_SIZE);
    let map = match quarry_map::load(&path, &LoadOptions::default()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let options = BuildOptions {
        cell_size: cell,
        ..BuildOptions::default()
    };
    let (mesh, report) = match nav_info(&map, &Agent::default(), &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    print!("{report}");
    let world = match_start_world(&map);
    let mut spawns = map
        .spawn_points()
        .filter(|(_, s)| s.fits)
        .map(|(_, s)| s.spawn_origin);
    let route = match (spawns.next(), spawns.next()) {
        (Some(a), Some(b)) => match mesh.route(
            &world,
            &mut SearchScratch::new(),
            a,
            b,
            &RouteOptions::default(),
        ) {
            Ok(r) => {
                print!("{r}");
                Some(r)
            }
            Err(e) => {
                println!("no route between the first two spawn points: {e}");
                None
            }
        },
        _ => None,
    };
    if let Err(e) = std::fs::write(&out, mesh.export_svg(route.as_ref())) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", out.display());
    ExitCode::SUCCESS
}
