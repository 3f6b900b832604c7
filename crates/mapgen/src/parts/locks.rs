//! Parts about what opens a door: a secret door shot open, a key that
//! lies behind a button door.

use super::Build;
use crate::answer::{Expect, Mechanism};
use crate::shape::Entity;

/// A Quake 1 key, gold or silver: its item class and the spawnflags of
/// the door that wants it (8 gold, 16 silver).
pub(super) fn pick_key(b: &mut Build<'_>) -> (&'static str, &'static str) {
    if b.rng.coin() { ("item_key2", "8") } else { ("item_key1", "16") }
}

/// A key door into the last room whose key lies in room 1, behind a
/// button door from room 0 (Quake 1 dialects).
pub(super) fn key_behind_gate(b: &mut Build<'_>) {
    let name = b.gate_name();
    b.door(0, &[("targetname", name.clone())]);
    b.button(0, 24, &name, None);
    let (key, flags) = pick_key(b);
    b.door(1, &[("spawnflags", flags.to_owned())]);
    let r = b.chain.room(1);
    let y = if b.rng.coin() { r.min[1] + 64 } else { r.max[1] - 64 };
    b.item(key, [r.min[0] + (r.max[0] - r.min[0]) / 2, y, 16], Expect::Reachable, vec![Mechanism::Button]);
    let last = b.chain.rooms() - 1;
    let r = b.chain.room(last);
    b.prize_in(r, Expect::Reachable, vec![Mechanism::Button, Mechanism::Key]);
}

/// A door that is a secret wall in Quake 1 (`func_door_secret`, shot
/// open; sometimes it stays open) and a door with `health` in Quake 3,
/// which has no secret doors.
pub(super) fn secret_door(b: &mut Build<'_>) {
    let Some(d) = b.chain.doorway(0) else { return };
    let (x0, x1) = b.chain.wall_x(0);
    let panel = crate::shape::Cuboid::new([x0, d.y.0, d.z.0], [x1, d.y.1, d.z.1], crate::shape::Surface::Door);
    let door = if b.dialect.is_quake3() {
        Entity::brush("func_door", vec![panel]).with("angle", -1).with("health", 30).with("wait", b.rng.range(3, 6))
    } else {
        // Facing along the chain; the first move slides it sideways.
        let flags = if b.rng.coin() { 1 } else { 0 };
        Entity::brush("func_door_secret", vec![panel]).with("angle", 0).with("spawnflags", flags)
    };
    b.chain.push(door);
    let last = b.chain.rooms() - 1;
    let r = b.chain.room(last);
    b.prize_in(r, Expect::Reachable, vec![Mechanism::ShootDoor]);
}
