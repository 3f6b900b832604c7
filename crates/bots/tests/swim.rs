//! Bots swim out of deep water: a bot starts on the floor of a pool whose
//! walls stand higher than a jump; the only item worth having lies on the
//! floor beside it, 8 units above the water's surface.

mod support;

use glam::Vec3;
use quarry_map::source::box_brush;
use support::point;

const WALL: &str = "quarry/wall";

/// A room: floor at z 0 for x < 0 and x > 256, a pool between them 128
/// deep with water to 8 below the floor; one spawn on the pool's floor;
/// a body armor on the floor east of the pool.
fn pool_map() -> String {
    let b = |lo: Vec3, hi: Vec3| box_brush(lo, hi, WALL);
    let world = [
        b(Vec3::new(-1040.0, -272.0, -144.0), Vec3::new(0.0, 272.0, 0.0)),
        b(Vec3::new(256.0, -272.0, -144.0), Vec3::new(1040.0, 272.0, 0.0)),
        b(Vec3::new(0.0, -272.0, -144.0), Vec3::new(256.0, 272.0, -128.0)),
        b(Vec3::new(-1040.0, -272.0, 384.0), Vec3::new(1040.0, 272.0, 400.0)),
        b(Vec3::new(-1040.0, -272.0, -144.0), Vec3::new(-1024.0, 272.0, 384.0)),
        b(Vec3::new(1024.0, -272.0, -144.0), Vec3::new(1040.0, 272.0, 384.0)),
        b(Vec3::new(-1040.0, -272.0, -144.0), Vec3::new(1040.0, -256.0, 384.0)),
        b(Vec3::new(-1040.0, 256.0, -144.0), Vec3::new(1040.0, 272.0, 384.0)),
        box_brush(Vec3::new(0.0, -256.0, -128.0), Vec3::new(256.0, 256.0, -8.0), "liquids/water"),
    ];
    let entities = [point("info_player_deathmatch", Vec3::new(128.0, 0.0, -103.0), &[]), point("item_armor_body", Vec3::new(600.0, 0.0, 16.0), &[])];
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{}", world.concat(), entities.concat())
}

#[test]
fn a_bot_swims_up_and_climbs_out_of_a_pool_to_take_the_item() {
    let (took, report) = support::one_bot_until_pickup(&pool_map(), "Swimmer", "item_armor_body", 40);
    assert!(took, "the bot took the armor beside the pool");
    assert!(report.bots.iter().any(|b| b.swims >= 1), "after swimming");
}
