//! Parts that test movement rather than mechanisms: a jump pad up to a
//! ledge, a one-way drop, a gap to jump across, a bridge over lava, a pool
//! left by a water jump, ramps either side of the walkable limit, niches
//! either side of the player's width.

use super::Build;
use crate::answer::{Expect, Mechanism};
use crate::layout::Doorway;
use crate::shape::{Cuboid, Entity, Surface};

/// A flight of stairs up to height `h` ending at `end_x` (rising along
/// +x), `width` wide from `y`: steps of 16 up and 32 deep, in a stairwell
/// (a wall up to the ceiling on each side), so it is climbed from its foot
/// and not jumped onto from the side.
pub(super) fn flight(b: &mut Build<'_>, end_x: i32, y: i32, h: i32, width: i32) {
    let steps = h / 16 - 1;
    for k in 0..steps {
        let x0 = end_x - (steps - k) * 32;
        b.chain.solids.push(Cuboid::new([x0, y, 0], [x0 + 32, y + width, (k + 1) * 16], Surface::Floor));
    }
    let (x0, top) = (end_x - flight_length(h), b.chain.height);
    b.chain.solids.push(Cuboid::new([x0, y - 16, 0], [end_x, y, top], Surface::Wall));
    b.chain.solids.push(Cuboid::new([x0, y + width, 0], [end_x, y + width + 16, top], Surface::Wall));
}

/// The length a [`flight`] up to `h` takes, units.
pub(super) fn flight_length(h: i32) -> i32 {
    (h / 16 - 1) * 32
}

/// A ledge too high to jump or ride to at the far end of the last room,
/// with a jump pad on the floor before it aimed at a point above it.
pub(super) fn jump_pad(b: &mut Build<'_>) {
    let last = b.chain.rooms() - 1;
    let h = b.rng.step(128, 192.min(b.chain.height - 96), 32);
    let depth = b.rng.step(128, 192, 32);
    // The pad a little way out from the ledge's face, with room to walk
    // onto it from the doorway.
    let back = b.rng.step(96, 160, 32);
    let length = b.chain.room(last).max[0] - b.chain.room(last).min[0];
    b.chain.set_length(last, length.max(depth + back + 64 + 96));
    let r = b.chain.room(last);
    let ledge_x = r.max[0] - depth;
    b.chain.solids.push(Cuboid::new([ledge_x, r.min[1], 0], [r.max[0], r.max[1], h], Surface::Metal));
    let yc = b.rng.step(r.min[1] + 96, r.max[1] - 96, 16);
    let pad_x = ledge_x - back - 64;
    b.chain.push(Entity::brush("trigger_push", vec![Cuboid::new([pad_x, yc - 32, 0], [pad_x + 64, yc + 32, 16], Surface::Trigger)]).with("target", "padtarget"));
    let mark = if b.dialect.is_quake3() { "target_position" } else { "info_notnull" };
    b.chain.push(Entity::point(mark, [ledge_x + depth / 2, yc, h + 64]).with("targetname", "padtarget"));
    let class = b.prize();
    b.item(class, [ledge_x + depth / 2, yc, h + 16], Expect::Reachable, vec![Mechanism::JumpPad]);
}

/// Stairs in room 1 up to a ledge along its far wall, whose doorway into
/// room 2 opens at the ledge's height: a drop too high to climb back. A
/// teleporter in room 2 leads back to room 0, as real maps give a pit a
/// way out.
pub(super) fn drop(b: &mut Build<'_>) {
    let h = b.rng.step(80, 112, 16);
    let r = b.chain.room(1);
    let ledge = 64;
    let ledge_x = r.max[0] - ledge;
    b.chain.solids.push(Cuboid::new([ledge_x, r.min[1], 0], [r.max[0], r.max[1], h], Surface::Metal));
    let d = b.chain.doorway(1).unwrap_or(Doorway { y: (64, 160), z: (0, 112) });
    let height = d.z.1 - d.z.0;
    b.chain.set_partition(1, 16, Some(Doorway { y: d.y, z: (h, h + height) }));
    let y = b.rng.step(r.min[1] + 16, r.max[1] - 112, 16);
    flight(b, ledge_x, y, h, 96);
    // The way back: a teleporter by room 2's far wall to room 0.
    let r2 = b.chain.room(2);
    let (tx, ty) = (r2.max[0] - 96, b.rng.step(r2.min[1] + 32, r2.max[1] - 96, 16));
    b.chain.push(Entity::brush("trigger_teleport", vec![Cuboid::new([tx, ty, 0], [tx + 64, ty + 64, 64], Surface::Trigger)]).with("target", "home"));
    let dest = if b.dialect.is_quake3() { "misc_teleporter_dest" } else { "info_teleport_destination" };
    let home = b.chain.room(0);
    b.chain.push(Entity::point(dest, [home.min[0] + 160, home.max[1] - 64, 24]).with("targetname", "home").with("angle", 270));
    let c = r2.floor_centre();
    let class = b.prize();
    b.item(class, [c[0] - 32, c[1], 16], Expect::Reachable, vec![Mechanism::Climb, Mechanism::Drop]);
}

/// A walkway raised too high to climb, up a flight of stairs, broken by a
/// gap a running jump clears; the prize on the far part. Whoever falls
/// walks back to the stairs.
pub(super) fn gap(b: &mut Build<'_>) {
    let last = b.chain.rooms() - 1;
    let h = b.rng.step(80, 96, 16);
    let gap = b.rng.step(96, 112, 16);
    let (near, far) = (64, 96);
    let length = 64 + flight_length(h) + near + gap + far;
    b.chain.set_length(last, length);
    let r = b.chain.room(last);
    let width = b.rng.step(96, 128, 32);
    let y = b.rng.step(r.min[1] + 32, r.max[1] - 32 - width, 16);
    let near_x = r.min[0] + 64 + flight_length(h);
    flight(b, near_x, y, h, width);
    b.chain.solids.push(Cuboid::new([near_x, y, 0], [near_x + near, y + width, h], Surface::Metal));
    let far_x = near_x + near + gap;
    b.chain.solids.push(Cuboid::new([far_x, y, 0], [r.max[0], y + width, h], Surface::Metal));
    let class = b.prize();
    b.item(class, [(far_x + r.max[0]) / 2, y + width / 2, h + 16], Expect::Reachable, vec![Mechanism::Climb, Mechanism::Jump]);
}

/// A band of lava across the last room, a bridge a step high over it; the
/// prize beyond.
pub(super) fn lava_bridge(b: &mut Build<'_>) {
    let last = b.chain.rooms() - 1;
    let r = b.chain.room(last);
    let band = b.rng.step(96, 160, 32);
    let x0 = b.rng.step(r.min[0] + 64, (r.max[0] - band - 96).max(r.min[0] + 64), 16);
    let x1 = x0 + band;
    let width = b.rng.step(64, 96, 32);
    let y = b.rng.step(r.min[1] + 32, r.max[1] - 32 - width, 16);
    b.chain.solids.push(Cuboid::new([x0, y, 0], [x1, y + width, 16], Surface::Metal));
    for (ya, yb) in [(r.min[1], y), (y + width, r.max[1])] {
        if yb > ya {
            b.chain.solids.push(Cuboid::new([x0, ya, 0], [x1, yb, 16], Surface::Lava));
        }
    }
    let class = b.prize();
    b.item(class, [(x1 + r.max[0]) / 2, y + width / 2, 16], Expect::Reachable, Vec::new());
}

/// Room 1 a pool deeper than a player is tall; its far doorway's sill is
/// flush with the surface, the floor of room 2 raised to it: the way on is
/// to swim up and climb out (Quake's water jump, which wants the ledge
/// between 4 and 20 units above the player's waist while the eyes are out:
/// a sill at the surface leaves the widest band to do it from). The way
/// back drops into the pool and walks out of it.
pub(super) fn water_jump(b: &mut Build<'_>) {
    let depth = b.rng.step(80, 96.min(b.chain.height - 128), 16);
    let sill = depth;
    let pool = b.chain.room(1);
    b.chain.solids.push(Cuboid::new([pool.min[0], pool.min[1], 0], [pool.max[0], pool.max[1], depth], Surface::Water));
    let d = b.chain.doorway(1).unwrap_or(Doorway { y: (64, 160), z: (0, 112) });
    b.chain.set_partition(1, 16, Some(Doorway { y: d.y, z: (sill, sill + (d.z.1 - d.z.0)) }));
    let r = b.chain.room(2);
    b.chain.solids.push(Cuboid::new([r.min[0], r.min[1], 0], [r.max[0], r.max[1], sill], Surface::Floor));
    let c = r.floor_centre();
    let class = b.prize();
    b.item(class, [c[0], c[1], sill + 16], Expect::Reachable, vec![Mechanism::Swim]);
}

/// A ledge too high to jump at the far end of the last room, a ramp up to
/// it between two walls. The ramp is tilted near the walkable limit (a
/// floor's normal at least 0.7 up, Quake 3's `MIN_WALK_NORMAL`: about
/// 45.6 degrees): 40 to 45 degrees, walked up; with `steep`, 48 to 55
/// degrees, which a player slides down, so nothing leads up.
pub(super) fn ramp(b: &mut Build<'_>, steep: bool) {
    let last = b.chain.rooms() - 1;
    let h = b.rng.step(96, 160.min(b.chain.height - 96), 16);
    // Run over rise, in tenths: 1.0 to 1.2 (45 to 39.8 degrees) or 0.7
    // to 0.9 (55 to 48 degrees).
    let tenths = if steep { b.rng.step(7, 9, 1) } else { b.rng.step(10, 12, 1) };
    let run = h * tenths / 10;
    let depth = b.rng.step(128, 192, 32);
    let length = b.chain.room(last).max[0] - b.chain.room(last).min[0];
    b.chain.set_length(last, length.max(96 + run + depth));
    let r = b.chain.room(last);
    let ledge_x = r.max[0] - depth;
    b.chain.solids.push(Cuboid::new([ledge_x, r.min[1], 0], [r.max[0], r.max[1], h], Surface::Metal));
    let width = b.rng.step(96, 128, 32);
    let y = b.rng.step(r.min[1] + 32, r.max[1] - 32 - width, 16);
    b.chain.solids.push(Cuboid::ramp([ledge_x - run, y, 0], [ledge_x, y + width, h], Surface::Floor));
    // Walls to the ceiling on each side: the ramp is climbed from its foot.
    let top = b.chain.height;
    b.chain.solids.push(Cuboid::new([ledge_x - run, y - 16, 0], [ledge_x, y, top], Surface::Wall));
    b.chain.solids.push(Cuboid::new([ledge_x - run, y + width, 0], [ledge_x, y + width + 16, top], Surface::Wall));
    let class = b.prize();
    let (expect, via) = if steep { (Expect::Unreachable, Vec::new()) } else { (Expect::Reachable, vec![Mechanism::Climb]) };
    b.item(class, [ledge_x + depth / 2, y + width / 2, h + 16], expect, via);
}

/// The prize at the back of a niche in the far end of the last room, 72
/// units high and 96 to 128 deep: 44 to 48 units wide, which the player's
/// box (30 units in Quake 3, 32 in Quake 1) walks into; with `tight`, 20 to 28, which it does not, so
/// nothing reaches the prize. (A 40-unit niche, 4 units to spare on each
/// side, can fall between the navmesh's cell centres and the spots a
/// third of a cell either side it tries; finding it costs the build more
/// than it has to spare.)
pub(super) fn niche(b: &mut Build<'_>, tight: bool) {
    let last = b.chain.rooms() - 1;
    let r = b.chain.room(last);
    let depth = b.rng.step(96, 128, 32);
    let width = if tight { b.rng.step(20, 28, 4) } else { b.rng.step(44, 48, 4) };
    let yc = b.rng.step(r.min[1] + 64, r.max[1] - 64, 16);
    let x0 = r.max[0] - depth;
    let (y0, y1) = (yc - width / 2, yc + width / 2);
    let top = b.chain.height;
    b.chain.solids.push(Cuboid::new([x0, r.min[1], 0], [r.max[0], y0, top], Surface::Wall));
    b.chain.solids.push(Cuboid::new([x0, y1, 0], [r.max[0], r.max[1], top], Surface::Wall));
    b.chain.solids.push(Cuboid::new([x0, y0, 72], [r.max[0], y1, top], Surface::Wall));
    let class = b.prize();
    let (expect, via) = if tight { (Expect::Unreachable, Vec::new()) } else { (Expect::Reachable, Vec::new()) };
    // Far enough in that no box outside the niche touches it.
    b.item(class, [r.max[0] - 40, yc, 16], expect, via);
}
