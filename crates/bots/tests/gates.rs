//! Bots open gates to reach what lies behind them: a door a trigger opens
//! (the bot walks into the trigger first) and a door opened by shooting it.
//! The only item worth having is behind the door.

mod support;

use glam::Vec3;
use quarry_bots::AddBot;
use quarry_map::source::box_brush;
use quarry_sim::Match;
use support::{brush_entity, point};

const WALL: &str = "quarry/wall";

/// A 1024x2048 room split at x 300..316 by a wall with a 128-wide doorway
/// holding `door_keys`' door; a body armor behind it at (700, 0); one spawn
/// at (-600, 0); plus `extra` entities.
fn gated_map(door_keys: &[(&str, &str)], extra: &[String]) -> String {
    let b = |lo: Vec3, hi: Vec3| box_brush(lo, hi, WALL);
    let mut world = support::room((-1024.0, 1024.0), (-1024.0, 1024.0), WALL);
    world.extend([
        b(Vec3::new(300.0, -1024.0, 0.0), Vec3::new(316.0, -64.0, 256.0)),
        b(Vec3::new(300.0, 64.0, 0.0), Vec3::new(316.0, 1024.0, 256.0)),
        b(Vec3::new(300.0, -64.0, 128.0), Vec3::new(316.0, 64.0, 256.0)),
    ]);
    let mut keys = vec![("angle", "-1"), ("wait", "-1")];
    keys.extend_from_slice(door_keys);
    let door = brush_entity("func_door", &keys, &[b(Vec3::new(300.0, -64.0, 0.0), Vec3::new(316.0, 64.0, 128.0))]);
    let mut entities = vec![
        point("info_player_deathmatch", Vec3::new(-600.0, 0.0, 25.0), &[("angle", "0")]),
        point("item_armor_body", Vec3::new(700.0, 0.0, 16.0), &[]),
        door,
    ];
    entities.extend_from_slice(extra);
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{}", world.concat(), entities.concat())
}

/// One bot on `text` for up to `seconds`: whether the door opened, and
/// whether the bot took the armor.
fn play(text: &str, seconds: u32) -> (bool, bool, Match) {
    let mut game = support::match_on_text(text, 5, 4);
    let mut bots = support::manager(3.0);
    bots.add_bot(&mut game, AddBot { name: Some("Opener".into()), ..AddBot::default() }).expect("bot");
    let door = game
        .map()
        .entities()
        .iter()
        .find(|e| e.classname == "func_door")
        .and_then(|e| game.map().world().mover_of(e.id))
        .expect("door");
    let (mut opened, mut took) = (false, false);
    for _ in 0..seconds * 60 {
        bots.think(&mut game);
        game.step();
        let events = game.events();
        opened |= game.map().world().mover_offset(door).is_some_and(|o| o != Vec3::ZERO);
        took |= events.iter().any(|e| matches!(e, quarry_sim::events::GameEvent::ItemPickup { item: "item_armor_body", .. }));
        if took {
            break;
        }
    }
    eprintln!("{}", bots.report(&game));
    (opened, took, game)
}

#[test]
fn a_bot_walks_into_the_trigger_that_opens_the_door_then_takes_the_item() {
    // The trigger stands off the way, in a corner of the near side.
    let trigger = brush_entity(
        "trigger_once",
        &[("target", "gate")],
        &[box_brush(Vec3::new(-300.0, 600.0, 0.0), Vec3::new(-200.0, 700.0, 96.0), "common/trigger")],
    );
    let (opened, took, _) = play(&gated_map(&[("targetname", "gate")], &[trigger]), 40);
    assert!(opened, "the bot fired the trigger");
    assert!(took, "and took the armor behind the door");
}

#[test]
fn a_bot_shoots_open_a_door_with_health_then_takes_the_item() {
    let (opened, took, _) = play(&gated_map(&[("health", "25")], &[]), 40);
    assert!(opened, "the bot shot the door open");
    assert!(took, "and took the armor behind it");
}

#[test]
fn a_bot_fetches_the_key_for_a_key_door_then_takes_the_item_behind_it() {
    // Quake 1 (textures without a directory): a silver-key door, its key
    // off the way in a corner of the near side, the armor behind the door.
    let key = point("item_key1", Vec3::new(-300.0, 650.0, 16.0), &[]);
    let text = gated_map(&[("spawnflags", "16")], &[key]).replace("quarry/wall", "city2_6");
    let (opened, took, game) = play(&text, 40);
    assert_eq!(game.map().game(), quarry_map::Game::Quake1);
    assert!(opened, "the bot carried the key to the door");
    assert!(took, "and took the armor behind it");
}
