//! Helpers for the weapon tests: arenas with spawn points where the test
//! wants its players, aiming, equipping (test setup only: every shot and
//! switch goes through the input queue), and stepping while collecting
//! each tick's events.
#![allow(dead_code, reason = "each test uses a subset of the helpers")]

use glam::Vec3;
use quarry_sim::components::{Armor, Inventory, Powerups};
use quarry_sim::events::GameEvent;
use quarry_sim::weapons::WeaponTable;
use quarry_sim::{Buttons, ClientKind, Match, SlotId, UserCmd};

pub(crate) use super::support::step_collect;
use super::support::{block, entity, join, map_text, match_on, room, test_settings};

/// Weapon numbers (Quake 3 order).
pub(crate) const GAUNTLET: u8 = 1;
/// Machinegun.
pub(crate) const MACHINEGUN: u8 = 2;
/// Shotgun.
pub(crate) const SHOTGUN: u8 = 3;
/// Grenade launcher.
pub(crate) const GRENADE: u8 = 4;
/// Rocket launcher.
pub(crate) const ROCKET: u8 = 5;
/// Lightning gun.
pub(crate) const LIGHTNING: u8 = 6;
/// Railgun.
pub(crate) const RAILGUN: u8 = 7;
/// Plasma gun.
pub(crate) const PLASMA: u8 = 8;

/// A remote player on a LAN.
pub(crate) const HUMAN: ClientKind = ClientKind::Remote { latency_ms: 0 };

/// A 2048x2048x512 room with one spawn point per entry of `spots` (x, y on
/// the floor), plus `extra` brushes. Players joined in order get the spots
/// in order (with exactly as many spots as players, spawn choice has one
/// free spot each time).
pub(crate) fn arena_with(spots: &[(f32, f32)], extra: &[String]) -> String {
    let mut brushes = room(1024.0, 512.0);
    brushes.extend(extra.iter().cloned());
    let ents: Vec<String> =
        spots.iter().map(|&(x, y)| entity("info_player_deathmatch", Vec3::new(x, y, 25.0), &[("angle", "0")])).collect();
    map_text(&brushes, &ents)
}

/// A wall brush from `lo` to `hi`.
pub(crate) fn wall(lo: Vec3, hi: Vec3) -> String {
    block(lo, hi, "quarry/wall")
}

/// A live match on `text` with `kinds` joined in order, settled on the floor.
pub(crate) fn start(text: &str, kinds: &[ClientKind], seed: u64) -> (Match, Vec<SlotId>) {
    start_with(text, kinds, seed, test_settings())
}

/// [`start`] with other settings (a game type).
pub(crate) fn start_with(text: &str, kinds: &[ClientKind], seed: u64, settings: quarry_sim::Settings) -> (Match, Vec<SlotId>) {
    let mut m = match_on(text, settings, seed);
    let slots: Vec<SlotId> = kinds.iter().enumerate().map(|(i, k)| join(&mut m, &format!("p{i}"), *k)).collect();
    let mut idle = |_: SlotId, _: u32| UserCmd::default();
    step_collect(&mut m, &slots, 30, &mut idle);
    (m, slots)
}


/// Puts weapon `w` with `ammo` in `slot`'s hand, ready to fire (setup).
pub(crate) fn equip(m: &mut Match, slot: SlotId, w: u8, ammo: i32) {
    let table = m.world().resource::<WeaponTable>().clone();
    with_inventory(m, slot, |inv| {
        table.give_weapon(inv, w, 0);
        inv.ammo[usize::from(w)] = ammo;
        inv.current = w;
        inv.switching_to = None;
        inv.ready_tick = 0;
    });
}

/// Changes `slot`'s inventory (setup).
pub(crate) fn with_inventory(m: &mut Match, slot: SlotId, f: impl FnOnce(&mut Inventory)) {
    let e = m.slots().get(slot).and_then(|s| s.entity).expect("body");
    let mut inv = m.world_mut().get_mut::<Inventory>(e).expect("inventory");
    f(&mut inv);
}

/// `slot`'s inventory.
pub(crate) fn inventory(m: &Match, slot: SlotId) -> Inventory {
    let e = m.slots().get(slot).and_then(|s| s.entity).expect("body");
    *m.world().get::<Inventory>(e).expect("inventory")
}

/// Gives `slot` armor (setup).
pub(crate) fn set_armor(m: &mut Match, slot: SlotId, points: i32) {
    let e = m.slots().get(slot).and_then(|s| s.entity).expect("body");
    m.world_mut().get_mut::<Armor>(e).expect("armor").points = points;
}

/// Gives `slot` haste until `until` (setup).
pub(crate) fn set_haste(m: &mut Match, slot: SlotId, until: u32) {
    let e = m.slots().get(slot).and_then(|s| s.entity).expect("body");
    m.world_mut().get_mut::<Powerups>(e).expect("powerups").haste = until;
}

/// `slot`'s box origin.
pub(crate) fn origin(m: &Match, slot: SlotId) -> Vec3 {
    m.player_view(slot).expect("alive").origin
}

/// `slot`'s eye.
pub(crate) fn eye(m: &Match, slot: SlotId) -> Vec3 {
    origin(m, slot) + Vec3::Z * m.settings().movement.view_height
}

/// Pitch and yaw (Quake degrees, pitch down positive) looking along `dir`.
pub(crate) fn angles_of(dir: Vec3) -> (f32, f32) {
    let d = dir.normalize();
    (-d.z.asin().to_degrees(), d.y.atan2(d.x).to_degrees())
}

/// Pitch and yaw from `slot`'s eye toward `point`.
pub(crate) fn aim(m: &Match, slot: SlotId, point: Vec3) -> (f32, f32) {
    angles_of(point - eye(m, slot))
}

/// A command firing (attack held) toward `(pitch, yaw)`.
pub(crate) fn fire(angles: (f32, f32)) -> UserCmd {
    UserCmd { pitch: angles.0, yaw: angles.1, buttons: Buttons::ATTACK, ..UserCmd::default() }
}

/// A command looking toward `(pitch, yaw)` without firing.
pub(crate) fn look(angles: (f32, f32)) -> UserCmd {
    UserCmd { pitch: angles.0, yaw: angles.1, ..UserCmd::default() }
}

/// Damage events against `target`: `(tick, health lost + armor lost, means)`.
pub(crate) fn damage_to(events: &[(u32, GameEvent)], target: SlotId) -> Vec<(u32, i32, quarry_sim::events::MeansOfDeath)> {
    events
        .iter()
        .filter_map(|(t, e)| match e {
            GameEvent::Damage { target: tg, amount, armor, means, .. } if *tg == target => Some((*t, amount + armor, *means)),
            _ => None,
        })
        .collect()
}

/// Ticks of `Gunfire(w)` sounds from `slot`.
pub(crate) fn gunfire(events: &[(u32, GameEvent)], slot: SlotId, w: u8) -> Vec<u32> {
    use quarry_sim::events::SoundKind;
    events
        .iter()
        .filter_map(|(t, e)| match e {
            GameEvent::Sound { kind: SoundKind::Gunfire(x), source: Some(s), .. } if *x == w && *s == slot => Some(*t),
            _ => None,
        })
        .collect()
}

/// Explosions: `(tick, origin)`.
pub(crate) fn explosions(events: &[(u32, GameEvent)]) -> Vec<(u32, Vec3)> {
    use quarry_sim::events::SoundKind;
    events
        .iter()
        .filter_map(|(t, e)| match e {
            GameEvent::Sound { kind: SoundKind::Explosion, origin, .. } => Some((*t, *origin)),
            _ => None,
        })
        .collect()
}
