//! Teleporters (`trigger_teleport`), as Quake 3's `TeleportPlayer`: the
//! player appears at the destination (a unit up, raised further until the
//! box fits), leaves at 400 units/s along the destination's facing with
//! pmove's teleport timer set, and anyone whose box overlaps the arrival
//! box is telefragged by the teleporting player (`G_KillBox`).

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::MapRes;
use crate::clock::MatchClock;
use crate::combat::kill;
use crate::components::{Body, Life, Player};
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::slots::SlotId;

pub use quarry_movement::triggers::{ARRIVAL_LIFT, EXIT_SPEED, arrival_point};

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
    let Some(mut state) = world.get::<Body>(entity).map(|b| b.0) else { return };
    let (mins, maxs) = state.bbox();
    let from = state.origin;
    let arrival = quarry_movement::triggers::teleport(&mut state, world.resource::<MapRes>().0.world(), destination, yaw);
    if let Some(mut body) = world.get_mut::<Body>(entity) {
        body.0 = state;
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
