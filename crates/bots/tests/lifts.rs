//! Bots ride lifts: the only item worth having lies on a ledge 128 units
//! up that no walk, drop or jump reaches; a plat in a pit beside it rests
//! flush with the low floor and rises flush with the ledge.

mod support;

use glam::Vec3;
use quarry_map::source::box_brush;
use support::{brush_entity, point};

const WALL: &str = "quarry/wall";

/// A room 2048 long: the low floor (z 0) for x < 0, a pit at x 0..64
/// holding the plat, the ledge (z 128) from x 64 with a body armor on it;
/// one spawn on the low floor facing the pit.
fn lift_map() -> String {
    let b = |lo: Vec3, hi: Vec3| box_brush(lo, hi, WALL);
    let world = [
        b(Vec3::new(-1040.0, -272.0, -16.0), Vec3::new(0.0, 272.0, 0.0)),
        b(Vec3::new(0.0, -272.0, -176.0), Vec3::new(64.0, 272.0, -160.0)),
        b(Vec3::new(64.0, -272.0, -16.0), Vec3::new(1040.0, 272.0, 128.0)),
        b(Vec3::new(-1040.0, -272.0, 384.0), Vec3::new(1040.0, 272.0, 400.0)),
        b(Vec3::new(-1040.0, -272.0, -176.0), Vec3::new(-1024.0, 272.0, 384.0)),
        b(Vec3::new(1024.0, -272.0, -176.0), Vec3::new(1040.0, 272.0, 384.0)),
        b(Vec3::new(-1040.0, -272.0, -176.0), Vec3::new(1040.0, -256.0, 384.0)),
        b(Vec3::new(-1040.0, 256.0, -176.0), Vec3::new(1040.0, 272.0, 384.0)),
    ];
    let plat = brush_entity("func_plat", &[("height", "128")], &[b(Vec3::new(0.0, -128.0, 0.0), Vec3::new(64.0, 128.0, 128.0))]);
    // The pit beside the plat (y beyond ±128) is closed off at floor level.
    let sides = [
        b(Vec3::new(0.0, -256.0, -160.0), Vec3::new(64.0, -128.0, 0.0)),
        b(Vec3::new(0.0, 128.0, -160.0), Vec3::new(64.0, 256.0, 0.0)),
    ];
    let entities = [point("info_player_deathmatch", Vec3::new(-600.0, 0.0, 25.0), &[]), point("item_armor_body", Vec3::new(600.0, 0.0, 144.0), &[]), plat];
    format!("{{\n\"classname\" \"worldspawn\"\n{}{}}}\n{}", world.concat(), sides.concat(), entities.concat())
}

#[test]
fn a_bot_rides_the_lift_up_to_the_ledge_and_takes_the_item() {
    let (took, report) = support::one_bot_until_pickup(&lift_map(), "Rider", "item_armor_body", 40);
    assert!(took, "the bot took the armor on the ledge");
    assert!(report.bots.iter().any(|b| b.lifts >= 1), "by riding the lift");
}
