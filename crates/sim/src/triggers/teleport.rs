//! Teleporters (`trigger_teleport`), as Quake 3's `TeleportPlayer`: the
//! player appears at the destination (a unit up, raised further until the
//! box fits), leaves at 400 units/s along the destination's facing with
//! pmove's teleport timer set, and anyone whose box overlaps the arrival
//! box is telefragged by the teleporting player (`G_KillBox`).

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::Contents;

use crate::MapRes;
use crate::clock::MatchClock;
use crate::combat::kill;
use crate::components::{Body, Life, Player};
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::slots::SlotId;

/// Exit speed along the destination's facing (Quake 3: 400).
pub const EXIT_SPEED: f32 = 400.0;
/// How far above the destination the player appears (Quake 3: 1 unit).
pub const ARRIVAL_LIFT: f32 = 1.0;
/// Step and limit for raising the arrival point until the box fits:
/// destinations placed on the floor (Quake 1 adds 27 units) still work.
const FIT_STEP: f32 = 4.0;
const FIT_MAX: f32 = 64.0;

/// Where a box `mins..maxs` arriving at `destination` ends up: a unit
/// above it, raised in small steps until it fits the world (players are
/// not obstacles: they are telefragged). The first candidate if none fits.
pub fn arrival_point(world: &quarry_map::CollisionWorld, destination: Vec3, mins: Vec3, maxs: Vec3) -> Vec3 {
    let first = destination + Vec3::Z * ARRIVAL_LIFT;
    let mut lift = 0.0;
    while lift <= FIT_MAX {
        let p = first + Vec3::Z * lift;
        if !world.trace(p, p, mins, maxs, Contents::MASK_PLAYER_SOLID).start_solid {
            return p;
        }
        lift += FIT_STEP;
    }
    first
}

/// Whether two absolute boxes overlap with positive volume (touching does not count).
pub fn boxes_intersect(a_min: Vec3, a_max: Vec3, b_min: Vec3, b_max: Vec3) -> bool {
    a_min.cmplt(b_max).all() && b_min.cmplt(a_max).all()
}

/// Teleports `slot`'s body to `destination` facing `yaw`, telefragging
/// whoever stands there.
pub(super) fn teleport(
    world: &mut World,
    slot: SlotId,
    entity: Entity,
    destination: Vec3,
    yaw: f32,
    clock: MatchClock,
) {
    let Some(state) = world.get::<Body>(entity).map(|b| b.0) else { return };
    let (mins, maxs) = state.bbox();
    let arrival = arrival_point(world.resource::<MapRes>().0.world(), destination, mins, maxs);
    let (sin, cos) = yaw.to_radians().sin_cos();
    let exit = Vec3::new(cos, sin, 0.0) * EXIT_SPEED;
    let from = state.origin;
    if let Some(mut body) = world.get_mut::<Body>(entity) {
        body.0.teleport(arrival, exit, yaw);
    }
    world.write_message(GameEvent::Sound { kind: SoundKind::Teleport, origin: from, source: Some(slot) });
    world.write_message(GameEvent::Sound { kind: SoundKind::Teleport, origin: arrival, source: Some(slot) });
    let mut victims: Vec<SlotId> = world
        .query::<(&Player, &Body, &Life)>()
        .iter(world)
        .filter(|(p, b, life)| {
            let (omins, omaxs) = b.0.bbox();
            p.slot != slot
                && **life == Life::Alive
                && boxes_intersect(arrival + mins, arrival + maxs, b.0.origin + omins, b.0.origin + omaxs)
        })
        .map(|(p, ..)| p.slot)
        .collect();
    victims.sort();
    for victim in victims {
        kill(world, victim, Some(slot), MeansOfDeath::Telefrag, clock.tick);
    }
}
