//! Items coming back: a hidden map item reappears at its respawn tick with
//! a sound, and when the match goes live every item is reset as at a
//! fresh map start (placed items back, powerups delayed again, dropped
//! weapons gone), as Quake 3's `map_restart` after warmup does.

use bevy_ecs::prelude::*;

use super::drop::Dropped;
use super::{Item, ItemCatalog, ItemSpawn, delay_first_spawn};
use crate::clock::{MatchClock, SimRng};
use crate::components::NetId;
use crate::events::{GameEvent, SoundKind};
use crate::rules::{Phase, RulesState};
use crate::targets::TargetState;

/// Brings back items whose respawn tick has come (by `NetId`), after
/// resetting all items if play went live since the last tick.
///
/// Exclusive (`&mut World`): a reset on going live and each respawn write
/// entities and events in `NetId` order within one pass.
pub fn respawn_items(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    if let Phase::Live { since } = world.resource::<RulesState>().phase
        && world.resource::<ItemCatalog>().reset_for != Some(since)
    {
        world.resource_mut::<ItemCatalog>().reset_for = Some(since);
        reset_items(world, clock);
    }
    remove_killed(world);
    let mut due: Vec<(NetId, Entity)> = world
        .query::<(Entity, &NetId, &ItemSpawn)>()
        .iter(world)
        .filter(|(_, _, s)| !s.available && s.respawn_at <= clock.tick)
        .map(|(e, id, _)| (*id, e))
        .collect();
    due.sort_by_key(|d| d.0);
    for (_, e) in due {
        let Some(origin) = world.get::<Item>(e).map(|i| i.origin) else { continue };
        if let Some(mut s) = world.get_mut::<ItemSpawn>(e) {
            s.available = true;
        }
        world.write_message(GameEvent::Sound { kind: SoundKind::ItemRespawn, origin, source: None });
    }
}

/// Removes the placed items a `killtarget` removed (by `NetId`).
fn remove_killed(world: &mut World) {
    if !world.get_resource::<TargetState>().is_some_and(TargetState::any_removed) {
        return;
    }
    world.resource_scope(|world, targets: Mut<TargetState>| {
        let mut killed: Vec<(NetId, Entity)> = world
            .query::<(Entity, &NetId, &ItemSpawn)>()
            .iter(world)
            .filter(|(_, _, s)| targets.is_removed(s.entity))
            .map(|(e, id, _)| (*id, e))
            .collect();
        killed.sort_by_key(|k| k.0);
        for (_, e) in killed {
            world.despawn(e);
        }
    });
}

/// Puts every item back as at map start: dropped weapons removed, placed
/// items available, first-spawn delays drawn again (by `NetId`).
pub fn reset_items(world: &mut World, clock: MatchClock) {
    let mut dropped: Vec<(NetId, Entity)> =
        world.query_filtered::<(Entity, &NetId), With<Dropped>>().iter(world).map(|(e, id)| (*id, e)).collect();
    dropped.sort_by_key(|d| d.0);
    for (_, e) in dropped {
        world.despawn(e);
    }
    let mut placed: Vec<(NetId, Entity)> =
        world.query_filtered::<(Entity, &NetId), With<ItemSpawn>>().iter(world).map(|(e, id)| (*id, e)).collect();
    placed.sort_by_key(|p| p.0);
    world.resource_scope(|world, mut rng: Mut<SimRng>| {
        for (_, e) in placed {
            if let Some(mut s) = world.get_mut::<ItemSpawn>(e) {
                delay_first_spawn(&mut s, clock, &mut rng);
            }
        }
    });
}
