//! Shared helpers for the bot tests: matches on the shipped maps, stepping
//! with the bot manager thinking before each step, as the server does.
#![allow(dead_code, reason = "each test binary uses a subset of the helpers")]

use std::path::PathBuf;

use quarry_bots::{BotManager, BotSettings};
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

/// Path of a shipped map.
pub(crate) fn map_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../maps")
        .join(format!("{name}.map"))
}

/// Match settings for tests: live at once, no limits.
pub(crate) fn test_settings() -> Settings {
    Settings {
        warmup: false,
        fraglimit: 0,
        timelimit_min: 0.0,
        ..Settings::default()
    }
}

/// A match on a shipped map with `slots` client slots.
pub(crate) fn match_on(name: &str, seed: u64, slots: usize) -> Match {
    let map = quarry_map::load(map_path(name), &quarry_map::LoadOptions::default()).expect("shipped map loads");
    Match::new(map, &GameData::default(), test_settings(), seed, Slots::new(slots), 60).expect("match")
}

/// A match on map text.
pub(crate) fn match_on_text(text: &str, seed: u64, slots: usize) -> Match {
    match_on_text_as(text, seed, slots, test_settings().gametype)
}

/// A match of `gametype` on map text, teams never balanced for the test.
pub(crate) fn match_on_text_as(text: &str, seed: u64, slots: usize, gametype: quarry_sim::rules::GameType) -> Match {
    let map = quarry_map::load_str(text, "test.map", &quarry_map::LoadOptions::default()).expect("test map loads");
    // Scenarios set the sides themselves, lopsided ones included.
    let settings = Settings { gametype, team_force_balance: false, team_auto_balance: false, ..test_settings() };
    Match::new(map, &GameData::default(), settings, seed, Slots::new(slots), 60).expect("match")
}

/// A bot manager with default settings and `bot_skill`.
pub(crate) fn manager(skill: f32) -> BotManager {
    BotManager::new(BotSettings {
        skill,
        ..BotSettings::default()
    })
}

/// Runs `ticks` server ticks: bots think, then the match steps.
pub(crate) fn run(game: &mut Match, bots: &mut BotManager, ticks: u32) {
    for _ in 0..ticks {
        bots.think(game);
        game.step();
    }
}

/// A brush entity's text: `classname`, its keys, its brushes.
pub(crate) fn brush_entity(classname: &str, keys: &[(&str, &str)], brushes: &[String]) -> String {
    let mut s = format!("{{\n\"classname\" \"{classname}\"\n");
    for (k, v) in keys {
        s += &format!("\"{k}\" \"{v}\"\n");
    }
    s += &brushes.concat();
    s + "}\n"
}

/// Moves the body of the client in `slot` to `origin`, standing still,
/// looking along `yaw` (tests set a scene up; play never does this).
pub(crate) fn place(game: &mut Match, slot: quarry_sim::SlotId, origin: glam::Vec3, yaw: f32) {
    use quarry_sim::components::{Body, Player};
    let world = game.world_mut();
    let mut q = world.query::<(&Player, &mut Body)>();
    for (p, mut body) in q.iter_mut(world) {
        if p.slot == slot {
            body.0.origin = origin;
            body.0.velocity = glam::Vec3::ZERO;
            body.0.yaw = yaw;
        }
    }
}

/// Arms the player in `slot` with exactly `weapons` (number and ammo),
/// the first in hand.
pub(crate) fn arm(game: &mut Match, slot: quarry_sim::SlotId, weapons: &[(u8, i32)]) {
    use quarry_sim::components::{Inventory, Player};
    let world = game.world_mut();
    let mut q = world.query::<(&Player, &mut Inventory)>();
    for (p, mut inv) in q.iter_mut(world) {
        if p.slot == slot {
            inv.weapons = 0;
            inv.ammo = [0; quarry_sim::components::MAX_WEAPONS];
            for &(n, ammo) in weapons {
                inv.weapons |= 1 << n;
                inv.ammo[usize::from(n)] = ammo;
            }
            inv.current = weapons.first().map_or(0, |w| w.0);
            inv.switching_to = None;
        }
    }
}

/// Lays a weapon on the floor at `at` as if a player had dropped it
/// (it stays `seconds`).
pub(crate) fn drop_weapon(game: &mut Match, weapon: u8, ammo: i32, at: glam::Vec3, seconds: u32) {
    use quarry_sim::components::NetIds;
    use quarry_sim::items::drop::Dropped;
    use quarry_sim::items::{Gift, Item, ItemCatalog};
    let expires = game.tick() + seconds * 60;
    let world = game.world_mut();
    let Some(&(classname, ammo_cap)) = world.resource::<ItemCatalog>().weapon_items.get(&weapon) else {
        panic!("no pickup for weapon {weapon}")
    };
    let half = glam::Vec3::splat(world.resource::<ItemCatalog>().rules.box_half);
    let id = world.resource_mut::<NetIds>().next_id();
    world.spawn((id, Item { classname, gift: Gift::Weapon { weapon, ammo, ammo_cap }, origin: at, half }, Dropped { velocity: glam::Vec3::ZERO, resting: true, expires }));
}

/// The six brushes of a closed room, inside `x`, `y` by 0..256 units high,
/// walls 16 thick outside it (floor, ceiling, four walls).
pub(crate) fn room(x: (f32, f32), y: (f32, f32), texture: &str) -> Vec<String> {
    use glam::Vec3;
    let b = |lo: Vec3, hi: Vec3| quarry_map::source::box_brush(lo, hi, texture);
    let ((x0, x1), (y0, y1)) = (x, y);
    vec![
        b(Vec3::new(x0 - 16.0, y0 - 16.0, -16.0), Vec3::new(x1 + 16.0, y1 + 16.0, 0.0)),
        b(Vec3::new(x0 - 16.0, y0 - 16.0, 256.0), Vec3::new(x1 + 16.0, y1 + 16.0, 272.0)),
        b(Vec3::new(x0 - 16.0, y0 - 16.0, 0.0), Vec3::new(x0, y1 + 16.0, 256.0)),
        b(Vec3::new(x1, y0 - 16.0, 0.0), Vec3::new(x1 + 16.0, y1 + 16.0, 256.0)),
        b(Vec3::new(x0, y0 - 16.0, 0.0), Vec3::new(x1, y0, 256.0)),
        b(Vec3::new(x0, y1, 0.0), Vec3::new(x1, y1 + 16.0, 256.0)),
    ]
}

/// A point entity's text at `at` with `keys`.
pub(crate) fn point(classname: &str, at: glam::Vec3, keys: &[(&str, &str)]) -> String {
    let mut s = format!("{{\n\"classname\" \"{classname}\"\n\"origin\" \"{} {} {}\"\n", at.x, at.y, at.z);
    for (k, v) in keys {
        s += &format!("\"{k}\" \"{v}\"\n");
    }
    s + "}\n"
}

/// One bot named `name` plays alone on map `text` until it picks up
/// `item` or `seconds` pass: whether it did, and the match report.
pub(crate) fn one_bot_until_pickup(text: &str, name: &str, item: &str, seconds: u32) -> (bool, quarry_bots::report::MatchReport) {
    let mut game = match_on_text(text, 5, 4);
    let mut bots = manager(3.0);
    if let Err(e) = bots.add_bot(&mut game, quarry_bots::AddBot { name: Some(name.into()), ..quarry_bots::AddBot::default() }) {
        panic!("add {name}: {e}");
    }
    let mut took = false;
    for _ in 0..seconds * 60 {
        bots.think(&mut game);
        game.step();
        took |= game.events().iter().any(|e| matches!(e, quarry_sim::events::GameEvent::ItemPickup { item: i, .. } if *i == item));
        if took {
            break;
        }
    }
    let report = bots.report(&game);
    eprintln!("{report}");
    (took, report)
}

/// What the log says while `f` runs, and what `f` returned.
pub(crate) fn logged<T>(f: impl FnOnce() -> T) -> (T, String) {
    #[derive(Clone, Default)]
    struct Buf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Buf {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().map_err(|_| std::io::Error::other("log buffer poisoned"))?.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buf = Buf::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt().with_ansi(false).with_writer(move || writer.clone()).finish();
    let out = tracing::subscriber::with_default(subscriber, f);
    let text = String::from_utf8_lossy(&buf.0.lock().expect("log buffer")).into_owned();
    (out, text)
}
