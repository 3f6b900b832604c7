//! Shared helpers for the simulation's end-to-end tests: synthetic maps as
//! .map text, building a match, joining clients through the normal path,
//! and stepping with commands pushed into the input queue.
#![allow(dead_code, reason = "each test binary uses a subset of the helpers")]

use glam::Vec3;
use quarry_sim::slots::Slots;
use quarry_sim::events::GameEvent;
use quarry_sim::{ClientKind, GameData, Match, Settings, SlotId, UserCmd, UserInfo};

/// An axis-aligned brush from `lo` to `hi`.
pub(crate) fn block(lo: Vec3, hi: Vec3, tex: &str) -> String {
    quarry_map::source::box_brush(lo, hi, tex)
}

/// A closed room: floor top at z=0, inner space `-half..half` in x and y,
/// `height` tall, 16-unit walls.
pub(crate) fn room(half: f32, height: f32) -> Vec<String> {
    let t = 16.0;
    let tex = "quarry/wall";
    vec![
        block(Vec3::new(-half - t, -half - t, -t), Vec3::new(half + t, half + t, 0.0), tex),
        block(Vec3::new(-half - t, -half - t, height), Vec3::new(half + t, half + t, height + t), tex),
        block(Vec3::new(-half - t, -half - t, 0.0), Vec3::new(-half, half + t, height), tex),
        block(Vec3::new(half, -half - t, 0.0), Vec3::new(half + t, half + t, height), tex),
        block(Vec3::new(-half, -half - t, 0.0), Vec3::new(half, -half, height), tex),
        block(Vec3::new(-half, half, 0.0), Vec3::new(half, half + t, height), tex),
    ]
}

/// A point entity with extra key/values.
pub(crate) fn entity(classname: &str, origin: Vec3, keys: &[(&str, &str)]) -> String {
    let mut s = format!("{{\n\"classname\" \"{classname}\"\n\"origin\" \"{} {} {}\"\n", origin.x, origin.y, origin.z);
    for (k, v) in keys {
        s += &format!("\"{k}\" \"{v}\"\n");
    }
    s += "}\n";
    s
}

/// A map: worldspawn with `brushes`, then `entities`.
pub(crate) fn map_text(brushes: &[String], entities: &[String]) -> String {
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{}", brushes.concat(), entities.concat())
}

/// A 1024x1024 room with spawn points in a ring, facing +X.
pub(crate) fn arena_text(spawns: usize) -> String {
    let ents: Vec<String> = (0..spawns)
        .map(|i| {
            let a = i as f32 / spawns as f32 * std::f32::consts::TAU;
            entity("info_player_deathmatch", Vec3::new(a.cos() * 380.0, a.sin() * 380.0, 25.0), &[("angle", "0")])
        })
        .collect();
    map_text(&room(512.0, 256.0), &ents)
}

/// Settings for tests: no warmup, no limits unless a test sets them.
pub(crate) fn test_settings() -> Settings {
    Settings { warmup: false, fraglimit: 0, timelimit_min: 0.0, ..Settings::default() }
}

/// A match on map text, or why the map can't host it (16 slots, 60 Hz).
pub(crate) fn try_match_on(text: &str, settings: Settings, seed: u64) -> Result<Match, quarry_sim::MatchError> {
    let map = match quarry_map::load_str(text, "test.map", &quarry_map::LoadOptions::default()) {
        Ok(m) => m,
        Err(e) => panic!("test map failed to load: {e}"),
    };
    Match::new(map, &GameData::default(), settings, seed, Slots::new(16), 60)
}

/// A match on map text.
pub(crate) fn match_on(text: &str, settings: Settings, seed: u64) -> Match {
    match try_match_on(text, settings, seed) {
        Ok(m) => m,
        Err(e) => panic!("match: {e}"),
    }
}

/// The flag events among `events`: (kind, whose flag, who).
pub(crate) fn flag_events(
    events: &[(u32, GameEvent)],
) -> Vec<(quarry_sim::flags::FlagEventKind, quarry_sim::slots::Team, Option<SlotId>)> {
    events
        .iter()
        .filter_map(|(_, e)| match e {
            GameEvent::Flag { kind, team, slot } => Some((*kind, *team, *slot)),
            _ => None,
        })
        .collect()
}

/// Connects and enters a client the way the network layer does.
pub(crate) fn join(m: &mut Match, name: &str, kind: ClientKind) -> SlotId {
    let slot = m.connect(kind, UserInfo { name: name.into(), ..UserInfo::default() }).expect("slot");
    m.enter_game(slot).expect("enter");
    slot
}

/// Steps `ticks` ticks; `cmd(slot, tick)` gives each listed slot's command.
pub(crate) fn run(m: &mut Match, slots: &[SlotId], ticks: u32, mut cmd: impl FnMut(SlotId, u32) -> UserCmd) {
    for _ in 0..ticks {
        let tick = m.tick() + 1;
        for &s in slots {
            let mut c = cmd(s, tick);
            c.tick = tick;
            m.push_cmd(s, c).expect("push");
        }
        m.step();
    }
}

/// Steps `ticks` ticks with `cmd(slot, tick)` per slot; returns every event with its tick.
pub(crate) fn step_collect(
    m: &mut Match,
    slots: &[SlotId],
    ticks: u32,
    cmd: &mut dyn FnMut(SlotId, u32) -> UserCmd,
) -> Vec<(u32, GameEvent)> {
    let mut out = Vec::new();
    for _ in 0..ticks {
        let tick = m.tick() + 1;
        for &s in slots {
            let mut c = cmd(s, tick);
            c.tick = tick;
            m.push_cmd(s, c).expect("push");
        }
        m.step();
        out.extend(m.events().into_iter().map(|e| (tick, e)));
    }
    out
}
