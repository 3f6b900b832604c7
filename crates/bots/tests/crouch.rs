//! Bots crouch through passages too low to stand in: the only way from the
//! bot's room to the item is under a lintel 44 units above the floor.

mod support;

use glam::Vec3;
use quarry_map::source::box_brush;
use support::point;

const WALL: &str = "quarry/wall";

/// Two rooms split by a wall at x -16..16 with a doorway at y -48..48
/// whose lintel comes down to 44 units above the floor; one spawn in the
/// west room, a body armor in the east one.
fn crawl_map() -> String {
    let b = |lo: Vec3, hi: Vec3| box_brush(lo, hi, WALL);
    let mut world = support::room((-1024.0, 1024.0), (-256.0, 256.0), WALL);
    world.extend([
        b(Vec3::new(-16.0, -256.0, 0.0), Vec3::new(16.0, -48.0, 256.0)),
        b(Vec3::new(-16.0, 48.0, 0.0), Vec3::new(16.0, 256.0, 256.0)),
        b(Vec3::new(-16.0, -48.0, 44.0), Vec3::new(16.0, 48.0, 256.0)),
    ]);
    let entities = [
        point("info_player_deathmatch", Vec3::new(-600.0, 0.0, 25.0), &[("angle", "0")]),
        point("item_armor_body", Vec3::new(600.0, 0.0, 16.0), &[]),
    ];
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{}", world.concat(), entities.concat())
}

#[test]
fn a_bot_crouches_under_a_low_lintel_to_take_the_item() {
    let (took, _) = support::one_bot_until_pickup(&crawl_map(), "Crawler", "item_armor_body", 30);
    assert!(took, "the bot crawled through to the armor");
}
