//! Helpers for the item, trigger and mover tests: arenas with spawn points
//! where the test wants its players plus item, trigger and mover entities;
//! walking toward a point (every move goes through the input queue);
//! stepping while collecting each tick's events; and reading a player's
//! state. Setup that changes a player directly says so in its name.
#![allow(dead_code, reason = "each test binary uses a subset of the helpers")]

use glam::Vec3;
use quarry_sim::components::{Armor, Health, Inventory, Powerups};
use quarry_sim::events::{GameEvent, SoundKind};
use quarry_sim::slots::Slots;
use quarry_sim::{ClientKind, GameData, Match, Settings, SlotId, UserCmd};

/// Steps while collecting events (the shared helper under this module's name).
pub(crate) use super::support::step_collect as step;
use super::support::{block, entity, join, map_text, room, test_settings};

/// A remote player on a LAN.
pub(crate) const HUMAN: ClientKind = ClientKind::Remote { latency_ms: 0 };

/// A brush entity: `classname` with key/values and brushes.
pub(crate) fn brush_entity(classname: &str, keys: &[(&str, &str)], brushes: &[String]) -> String {
    let mut s = format!("{{\n\"classname\" \"{classname}\"\n");
    for (k, v) in keys {
        s += &format!("\"{k}\" \"{v}\"\n");
    }
    s += &brushes.concat();
    s += "}\n";
    s
}

/// A trigger brush from `lo` to `hi`.
pub(crate) fn trigger_brush(lo: Vec3, hi: Vec3) -> String {
    block(lo, hi, "common/trigger")
}

/// A solid brush from `lo` to `hi`.
pub(crate) fn solid(lo: Vec3, hi: Vec3) -> String {
    block(lo, hi, "quarry/wall")
}

/// A 2048x2048x512 room (floor top at z=0) with one spawn point per entry
/// of `spots` (x, y on the floor, facing +X), plus `brushes` and
/// `entities`. Players joined in order get the spots in order.
pub(crate) fn arena(spots: &[(f32, f32)], brushes: &[String], entities: &[String]) -> String {
    let mut all = room(1024.0, 512.0);
    all.extend(brushes.iter().cloned());
    let mut ents: Vec<String> = spots
        .iter()
        .map(|&(x, y)| entity("info_player_deathmatch", Vec3::new(x, y, 25.0), &[("angle", "0")]))
        .collect();
    ents.extend(entities.iter().cloned());
    map_text(&all, &ents)
}

/// A point item (or any point entity) on the floor at `(x, y)`.
pub(crate) fn item(classname: &str, x: f32, y: f32) -> String {
    entity(classname, Vec3::new(x, y, 16.0), &[])
}

/// A live match on `text` with `data`, `players` humans joined in order and
/// settled on the floor (30 ticks).
pub(crate) fn start_with(
    text: &str,
    data: &GameData,
    settings: Settings,
    players: usize,
    seed: u64,
) -> (Match, Vec<SlotId>) {
    let map = quarry_map::load_str(text, "test.map", &quarry_map::LoadOptions::default())
        .unwrap_or_else(|e| panic!("map: {e}"));
    let mut m = Match::new(map, data, settings, seed, Slots::new(16), 60).unwrap_or_else(|e| panic!("match: {e}"));
    let slots: Vec<SlotId> = (0..players).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    (m, slots)
}

/// [`start_with`] with the built-in tables and test settings.
pub(crate) fn start(text: &str, players: usize) -> (Match, Vec<SlotId>) {
    start_with(text, &GameData::default(), test_settings(), players, 7)
}


/// Nobody presses anything.
pub(crate) fn idle(_: SlotId, _: u32) -> UserCmd {
    UserCmd::default()
}

/// `slot`'s box origin (panics if it has no living body).
pub(crate) fn origin(m: &Match, slot: SlotId) -> Vec3 {
    m.player_view(slot).expect("body").origin
}

/// A full-speed run toward `target` (yaw from the player's position; `None`
/// once within `stop` units in the horizontal plane).
pub(crate) fn run_toward(m: &Match, slot: SlotId, target: Vec3, stop: f32) -> UserCmd {
    let Some(view) = m.player_view(slot) else { return UserCmd::default() };
    let d = (target - view.origin).truncate();
    if d.length() <= stop {
        return UserCmd::default();
    }
    // A client sends the view it wants minus its delta angles.
    let delta = m.own_view(slot).map_or(0.0, |o| o.delta_angles.1);
    UserCmd { yaw: (d.y.atan2(d.x).to_degrees() - delta).rem_euclid(360.0), forward: 127, ..UserCmd::default() }
}

/// Runs `slot` toward `target` for up to `ticks` ticks (others idle),
/// stopping within `stop` units; returns the events.
pub(crate) fn run_to(
    m: &mut Match,
    slots: &[SlotId],
    slot: SlotId,
    target: Vec3,
    stop: f32,
    ticks: u32,
) -> Vec<(u32, GameEvent)> {
    let mut out = Vec::new();
    for _ in 0..ticks {
        let c = run_toward(m, slot, target, stop);
        out.extend(step(m, slots, 1, &mut |s, _| if s == slot { c } else { UserCmd::default() }));
    }
    out
}

fn body(m: &Match, slot: SlotId) -> bevy_ecs::entity::Entity {
    m.slots().get(slot).and_then(|s| s.entity).expect("body")
}

/// `slot`'s health.
pub(crate) fn health(m: &Match, slot: SlotId) -> Health {
    *m.world().get::<Health>(body(m, slot)).expect("health")
}

/// `slot`'s armor points.
pub(crate) fn armor(m: &Match, slot: SlotId) -> i32 {
    m.world().get::<Armor>(body(m, slot)).expect("armor").points
}

/// `slot`'s inventory.
pub(crate) fn inventory(m: &Match, slot: SlotId) -> Inventory {
    *m.world().get::<Inventory>(body(m, slot)).expect("inventory")
}

/// `slot`'s powerup expiry ticks.
pub(crate) fn powerups(m: &Match, slot: SlotId) -> Powerups {
    *m.world().get::<Powerups>(body(m, slot)).expect("powerups")
}

/// Sets `slot`'s health (setup only).
pub(crate) fn setup_health(m: &mut Match, slot: SlotId, hp: i32) {
    let e = body(m, slot);
    m.world_mut().get_mut::<Health>(e).expect("health").hp = hp;
}

/// Puts `slot`'s body at `origin`, still (setup only: a shipped map's
/// spawn is random).
pub(crate) fn setup_place(m: &mut Match, slot: SlotId, origin: Vec3) {
    let e = body(m, slot);
    let mut b = m.world_mut().get_mut::<quarry_sim::components::Body>(e).expect("body");
    b.0.origin = origin;
    b.0.velocity = Vec3::ZERO;
}

/// A live match on a shipped map (`maps/NAME.map`) with `players` humans.
pub(crate) fn start_shipped(name: &str, players: usize) -> (Match, Vec<SlotId>) {
    let path = format!("{}/../../maps/{name}.map", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    start(&text, players)
}

/// Pickups: `(tick, who, class name)`.
pub(crate) fn pickups(events: &[(u32, GameEvent)]) -> Vec<(u32, SlotId, &'static str)> {
    events
        .iter()
        .filter_map(|(t, e)| match e {
            GameEvent::ItemPickup { slot, item, .. } => Some((*t, *slot, *item)),
            _ => None,
        })
        .collect()
}

/// Sounds of `kind`: `(tick, origin)`.
pub(crate) fn sounds(events: &[(u32, GameEvent)], kind: SoundKind) -> Vec<(u32, Vec3)> {
    events
        .iter()
        .filter_map(|(t, e)| match e {
            GameEvent::Sound { kind: k, origin, .. } if *k == kind => Some((*t, *origin)),
            _ => None,
        })
        .collect()
}

/// The collision of the first mover entity of `classname`.
pub(crate) fn mover_id(m: &Match, classname: &str) -> quarry_map::MoverId {
    let e = m
        .map()
        .entities()
        .iter()
        .find(|e| e.classname == classname && matches!(e.kind, quarry_map::EntityKind::Mover(_)))
        .expect("mover");
    m.map().world().mover_of(e.id).expect("mover collision")
}

/// Mover `id`'s offset from where the map drew it.
pub(crate) fn offset(m: &Match, id: quarry_map::MoverId) -> Vec3 {
    m.map().world().mover_offset(id).expect("offset")
}
