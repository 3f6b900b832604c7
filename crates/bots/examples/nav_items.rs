//! Which items of a map can bots route to from its spawn points? Prints
//! every item with the share of spawn points that reach it.
//!
//! ```text
//! cargo run --release -p quarry-bots --example nav_items -- q_ctf1
//! ```

use quarry_bots::navigate::Navigator;
use quarry_bots::navmesh::NavService;
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "q_ctf1".to_owned());
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../maps")
        .join(format!("{name}.map"));
    let Ok(map) = quarry_map::load(&path, &quarry_map::LoadOptions::default()) else {
        std::process::exit(2)
    };
    let settings = Settings {
        warmup: false,
        ..Settings::default()
    };
    let Ok(game) = Match::new(map, &GameData::default(), settings, 1, Slots::new(4), 60) else {
        std::process::exit(2)
    };
    let mut nav = NavService::default();
    if let Err(e) = nav.ensure(&game, quarry_nav::DEFAULT_CELL_SIZE) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    println!("{}", nav.describe());
    let spawns: Vec<glam::Vec3> = game
        .map()
        .spawn_points()
        .filter(|(_, s)| s.fits)
        .map(|(_, s)| s.spawn_origin)
        .collect();
    let world = game.world();
    let mut items = Vec::new();
    if let Some(mut q) = world.try_query::<&quarry_sim::items::Item>() {
        for i in q.iter(world) {
            items.push((i.classname, i.origin, i.half));
        }
    }
    let Some(mut n) = nav.navigator(game.map().world()) else {
        std::process::exit(2)
    };
    for (class, origin, half) in items {
        let goal = glam::Vec3::new(origin.x, origin.y, origin.z - half.z + 24.0);
        let ok = spawns.iter().filter(|s| n.route(**s, goal, quarry_bots::Traveller::default()).is_some()).count();
        println!(
            "{class:<24} ({:6.0} {:6.0} {:6.0}) reached from {ok}/{} spawns",
            origin.x,
            origin.y,
            origin.z,
            spawns.len()
        );
    }
}
