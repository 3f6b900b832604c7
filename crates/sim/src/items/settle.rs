//! Placed items on movers: an item the map set down on a door or a plat
//! rides it, and falls when it moves out from under the item (Quake 3
//! `G_RunItem` after `G_TryPushingEntity` leaves a rider behind; Quake 1
//! items are `MOVETYPE_TOSS`). A sliding trapdoor that drops an item down a
//! shaft (a key dispenser) works as the mapper meant.
//!
//! Only items resting on a mover carry a [`Footing`] (placed ones from
//! match start, dropped weapons from when they come to rest): the static
//! world never moves, so items on it are never looked at again.

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{CollisionWorld, Contents, MoverId, TraceResult};

use super::Item;
use crate::MapRes;
use crate::clock::MatchClock;
use crate::components::NetId;
use crate::settings::Settings;

/// How far below an item's box its floor is looked for, units.
const FLOOR_PROBE: f32 = 2.0;
/// Below the world's lowest point by this much, a falling item stops
/// (nothing is down there to land on or to reach it).
const VOID_DEPTH: f32 = 1024.0;

/// What a placed item stands on when that can move.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Footing {
    /// The mover under it (none once it has landed on the static world).
    pub mover: Option<MoverId>,
    /// That mover's offset when last looked at.
    pub last_offset: Vec3,
    /// Falling velocity, units/s (zero at rest).
    pub velocity: Vec3,
    /// Whether it is falling.
    pub falling: bool,
}

impl Footing {
    /// The footing of an item whose box rests at `origin`: `None` when its
    /// floor is the static world (or nothing).
    pub fn under(world: &CollisionWorld, origin: Vec3, half: Vec3) -> Option<Footing> {
        let mover = floor_mover(world, origin, half)?;
        let last_offset = world.mover_offset(mover).unwrap_or(Vec3::ZERO);
        Some(Footing { mover: Some(mover), last_offset, velocity: Vec3::ZERO, falling: false })
    }
}

/// The box at `origin` swept down by [`FLOOR_PROBE`]: what it stands on.
fn floor_probe(world: &CollisionWorld, origin: Vec3, half: Vec3) -> TraceResult {
    world.trace(origin, origin - Vec3::Z * FLOOR_PROBE, -half, half, Contents::SOLID)
}

/// The mover the box at `origin` stands on, if its floor is one.
fn floor_mover(world: &CollisionWorld, origin: Vec3, half: Vec3) -> Option<MoverId> {
    let tr = floor_probe(world, origin, half);
    if !tr.hit() || tr.start_solid {
        return None;
    }
    world.mover_of(tr.entity?)
}

/// Whether the box at `origin` has a floor right under it.
fn has_floor(world: &CollisionWorld, origin: Vec3, half: Vec3) -> bool {
    let tr = floor_probe(world, origin, half);
    tr.hit() || tr.start_solid
}

/// Moves items with their movers and lets those whose floor went fall,
/// in `NetId` order.
pub fn settle_items(
    mut items: Query<(&NetId, &mut Item, &mut Footing)>,
    map: Res<MapRes>,
    settings: Res<Settings>,
    clock: Res<MatchClock>,
) {
    let world = map.0.world();
    let floor_z = world.bounds().map_or(f32::NEG_INFINITY, |(lo, _)| lo.z - VOID_DEPTH);
    let mut rows: Vec<_> = items.iter_mut().collect();
    rows.sort_by_key(|(id, ..)| **id);
    for (_, mut item, mut foot) in rows {
        if foot.falling {
            fall(world, &mut item, &mut foot, settings.movement.gravity, clock.dt(), floor_z);
            continue;
        }
        let Some(mover) = foot.mover else { continue };
        let offset = world.mover_offset(mover).unwrap_or(Vec3::ZERO);
        let delta = offset - foot.last_offset;
        if delta == Vec3::ZERO {
            continue;
        }
        foot.last_offset = offset;
        // Ride along where there is room; a mover that slides into a wall
        // leaves the item behind (Quake 3's sliding trapdoor case).
        let to = item.origin + delta;
        let room = world.trace(to, to, -item.half, item.half, Contents::SOLID);
        if !room.start_solid {
            item.origin = to;
        }
        if !has_floor(world, item.origin, item.half) {
            foot.falling = true;
            foot.velocity = Vec3::ZERO;
            foot.mover = None;
        }
    }
}

/// One tick of a fall: gravity and a swept move; on landing, the new
/// floor (a mover or the static world) becomes the footing.
fn fall(world: &CollisionWorld, item: &mut Item, foot: &mut Footing, gravity: f32, dt: f32, floor_z: f32) {
    foot.velocity.z -= gravity * dt;
    let end = item.origin + foot.velocity * dt;
    let tr = world.trace(item.origin, end, -item.half, item.half, Contents::SOLID);
    if tr.start_solid || tr.all_solid {
        foot.falling = false;
        foot.velocity = Vec3::ZERO;
        return;
    }
    item.origin = tr.end;
    if tr.hit() && tr.normal.z > 0.0 {
        foot.falling = false;
        foot.velocity = Vec3::ZERO;
        foot.mover = tr.entity.and_then(|e| world.mover_of(e));
        foot.last_offset = foot.mover.and_then(|m| world.mover_offset(m)).unwrap_or(Vec3::ZERO);
    } else if tr.hit() {
        // A wall or a ceiling: slide along it.
        foot.velocity -= foot.velocity.dot(tr.normal) * tr.normal;
    } else if item.origin.z < floor_z {
        foot.falling = false;
        foot.velocity = Vec3::ZERO;
    }
}
