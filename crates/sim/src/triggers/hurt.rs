//! Hurting volumes: `trigger_hurt` (Quake 3 `hurt_touch`: its damage every
//! frame of 100 ms it is touched, or once a second with the SLOW flag) and
//! liquids (Quake 3 `P_WorldEffects`: lava 30 and slime 10 per water level,
//! the first at once and then once a second while in it).
//!
//! Pacing is per player (Quake 3 paces `trigger_hurt` per trigger, so two
//! players in one volume share its clock; per player is fairer and keeps a
//! player's damage independent of others).

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{Contents, EntityId};

use super::Contact;
use crate::clock::MatchClock;
use crate::combat::{DamageQueue, DamageRequest};
use crate::components::Body;
use crate::events::MeansOfDeath;
use crate::slots::SlotId;

/// Seconds between applications of a `trigger_hurt` to one player (Quake 3
/// applies it once per 100 ms server frame).
pub const HURT_INTERVAL_S: f32 = 0.1;
/// Lava damage per water level per application (Quake 3).
pub const LAVA_DAMAGE: f32 = 30.0;
/// Slime damage per water level per application (Quake 3).
pub const SLIME_DAMAGE: f32 = 10.0;
/// Seconds between liquid damage applications.
pub const LIQUID_INTERVAL_S: f32 = 1.0;

fn world_damage(target: SlotId, amount: f32, means: MeansOfDeath) -> DamageRequest {
    DamageRequest { target, attacker: None, amount, dir: Vec3::ZERO, knockback: false, armor_protects: true, means, band: None }
}

/// A player touches hurt volume `id` this tick.
pub(super) fn touch_hurt(
    world: &mut World,
    slot: SlotId,
    id: EntityId,
    damage: f32,
    interval_s: f32,
    contact: &mut Contact,
    clock: MatchClock,
) {
    let next = contact.hurt_next.get(&id).copied().unwrap_or(0);
    if clock.tick < next {
        return;
    }
    contact.hurt_next.insert(id, clock.tick + clock.ticks(interval_s).max(1));
    world.resource_mut::<DamageQueue>().push(world_damage(slot, damage, MeansOfDeath::World));
}

/// Lava and slime hurt the player by how deep it stands in them.
pub(super) fn liquid_damage(world: &mut World, slot: SlotId, entity: Entity, contact: &mut Contact, clock: MatchClock) {
    let Some((level, liquid)) = world.get::<Body>(entity).map(|b| (b.0.water_level, b.0.liquid)) else { return };
    if level == 0 || !liquid.intersects(Contents::LAVA | Contents::SLIME) || clock.tick < contact.liquid_next {
        return;
    }
    contact.liquid_next = clock.tick + clock.ticks(LIQUID_INTERVAL_S);
    let level = f32::from(level);
    let mut queue = world.resource_mut::<DamageQueue>();
    if liquid.contains(Contents::LAVA) {
        queue.push(world_damage(slot, LAVA_DAMAGE * level, MeansOfDeath::Lava));
    }
    if liquid.contains(Contents::SLIME) {
        queue.push(world_damage(slot, SLIME_DAMAGE * level, MeansOfDeath::Slime));
    }
}
