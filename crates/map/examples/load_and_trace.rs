//! Loads a map, prints its summary, and traces the player box from every
//! spawn point: down to the floor and 256 units along its facing.
//!
//! ```text
//! cargo run --release -p quarry-map --example load_and_trace -- path/to/map.map [more.map …]
//! ```
//!
//! Without arguments it loads every map under the shared maps directory
//! (`QUARRY_SHARED_MAPS`, default `../shared/maps` beside the workspace).

use std::path::PathBuf;
use std::process::ExitCode;

use glam::Vec3;
use quarry_map::{Contents, LoadOptions, Trace};

fn shared_maps() -> Vec<PathBuf> {
    let dir = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps"));
    let mut out = Vec::new();
    for sub in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(sub.path()).into_iter().flatten().flatten() {
            if f.path().extension().is_some_and(|e| e == "map") {
                out.push(f.path());
            }
        }
    }
    out.sort();
    out
}

fn main() -> ExitCode {
    let mut paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        paths = shared_maps();
    }
    if paths.is_empty() {
        eprintln!("usage: load_and_trace FILE.map [...] (no shared maps found either)");
        return ExitCode::FAILURE;
    }
    let options = LoadOptions::default();
    let mut failed = false;
    for path in &paths {
        let map = match quarry_map::load(path, &options) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
                continue;
            }
        };
        println!("{}", map.info());
        if let Err(e) = map.check_playable() {
            println!("not playable: {e}");
        }
        let (mins, maxs) = (options.player_mins, options.player_maxs);
        for (id, spawn) in map.spawn_points() {
            let at = spawn.spawn_origin;
            let floor = map.trace(at, at - Vec3::Z * 256.0, mins, maxs, Contents::MASK_PLAYER_SOLID);
            let yaw = spawn.yaw.to_radians();
            let ahead = at + Vec3::new(yaw.cos(), yaw.sin(), 0.0) * 256.0;
            let run = map.trace(at, ahead, mins, maxs, Contents::MASK_PLAYER_SOLID);
            println!(
                "  spawn {:4}: floor {:6.2} below (normal {:.2}), run {:5.1}% of 256 units{}",
                id.0,
                at.z - floor.end.z,
                floor.normal,
                run.fraction * 100.0,
                if run.hit() { format!(" (hit {:?})", run.contents) } else { String::new() }
            );
        }
        println!();
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
