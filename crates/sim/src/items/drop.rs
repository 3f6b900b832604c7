//! Weapons dropped on death: the weapon in hand (unless it is one every
//! player spawns with, i.e. gauntlet and machinegun, or it has no ammo) is
//! tossed with its ammo (Quake 3 `TossClientItems`/`Drop_Item`), bounces to
//! rest (on a mover, it rides it or falls when it goes, as placed items
//! do), can be picked up by anyone, and vanishes after a while.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::Contents;
use rand::RngExt;

use super::pickup::Gift;
use super::{Item, ItemCatalog};
use crate::MapRes;
use crate::clock::{MatchClock, SimRng};
use crate::components::{Body, Inventory, Life, NetId, Player};
use crate::settings::Settings;
use crate::slots::SlotId;
use crate::components::NetIds;
use crate::spawn::SpawnLoadout;

/// Share of speed a bouncing item keeps (Quake 3 `physicsBounce` 0.5).
const BOUNCE: f32 = 0.5;
/// Below this upward speed after a bounce off a floor, an item comes to
/// rest (Quake 3 `G_BounceItem`: 40).
const REST_SPEED: f32 = 40.0;

/// A weapon lying where a dead player dropped it.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Dropped {
    /// Velocity while flying, units/s; zero at rest.
    pub velocity: Vec3,
    /// Whether it has come to rest.
    pub resting: bool,
    /// The tick it vanishes.
    pub expires: u32,
}

/// The deaths already handled, per slot (the tick of the death), so a body
/// drops once per death whichever system killed it.
#[derive(Resource, Debug, Default)]
pub struct HandledDeaths(pub BTreeMap<SlotId, u32>);

/// Drops the weapon of everyone who died since the last tick, in slot order.
///
/// Exclusive (`&mut World`): drops are spawned in slot order with fresh
/// `NetId`s, which must be handed out in that order for the hash.
pub fn drop_weapons(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    let loadout = world.resource::<SpawnLoadout>().0.weapons;
    let mut dead: Vec<(SlotId, u32, Vec3, f32, Inventory)> = world
        .query::<(&Player, &Life, &Body, &Inventory)>()
        .iter(world)
        .filter_map(|(p, life, body, inv)| match life {
            Life::Dead { tick } => Some((p.slot, *tick, body.0.origin, body.0.yaw, *inv)),
            Life::Alive => None,
        })
        .collect();
    dead.sort_by_key(|d| d.0);
    for (slot, died, origin, yaw, inv) in dead {
        if world.resource::<HandledDeaths>().0.get(&slot) == Some(&died) {
            continue;
        }
        world.resource_mut::<HandledDeaths>().0.insert(slot, died);
        let w = inv.current;
        let ammo = inv.ammo_of(w);
        if !inv.has(w) || loadout & (1u32 << w) != 0 || ammo <= 0 {
            continue;
        }
        let Some(&(classname, ammo_cap)) = world.resource::<ItemCatalog>().weapon_items.get(&w) else { continue };
        let rules = world.resource::<ItemCatalog>().rules.clone();
        let jitter = if rules.dropped_up_jitter > 0.0 {
            world.resource_mut::<SimRng>().0.random_range(-rules.dropped_up_jitter..=rules.dropped_up_jitter)
        } else {
            0.0
        };
        let yaw = yaw.to_radians();
        let velocity =
            Vec3::new(yaw.cos(), yaw.sin(), 0.0) * rules.dropped_speed + Vec3::Z * (rules.dropped_up + jitter);
        let item = Item {
            classname,
            gift: Gift::Weapon { weapon: w, ammo, ammo_cap },
            origin,
            half: Vec3::splat(rules.box_half),
        };
        let expires = clock.tick + clock.ticks(rules.dropped_lifetime_s);
        let id = world.resource_mut::<NetIds>().next_id();
        world.spawn((id, item, Dropped { velocity, resting: false, expires }));
    }
}

/// Flies dropped weapons under gravity, bounces them off the world, and
/// removes those whose time is up (by `NetId`).
///
/// Exclusive (`&mut World`): expired drops are despawned at once, in `NetId`
/// order, while the others move.
pub fn move_dropped(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    let gravity = world.resource::<Settings>().movement.gravity;
    let mut rows: Vec<(NetId, Entity)> =
        world.query_filtered::<(Entity, &NetId), With<Dropped>>().iter(world).map(|(e, id)| (*id, e)).collect();
    rows.sort_by_key(|r| r.0);
    for (_, e) in rows {
        let (Some(mut item), Some(mut d)) = (world.get::<Item>(e).copied(), world.get::<Dropped>(e).copied()) else {
            continue;
        };
        if clock.tick >= d.expires {
            world.despawn(e);
            continue;
        }
        if d.resting {
            continue;
        }
        let map = &world.resource::<MapRes>().0;
        fly(map, &mut item, &mut d, gravity, clock.dt());
        // Come to rest on a mover: it rides it, or falls when it goes
        // ([`settle`](super::settle)), as a placed item does.
        let footing = if d.resting { super::settle::Footing::under(map.world(), item.origin, item.half) } else { None };
        let mut entity = world.entity_mut(e);
        entity.insert((item, d));
        if let Some(f) = footing {
            entity.insert(f);
        }
    }
}

/// One tick of flight: gravity, a swept move, a bounce off what it hits.
fn fly(map: &quarry_map::LoadedMap, item: &mut Item, d: &mut Dropped, gravity: f32, dt: f32) {
    d.velocity.z -= gravity * dt;
    let end = item.origin + d.velocity * dt;
    let tr = map.world().trace(item.origin, end, -item.half, item.half, Contents::SOLID);
    if tr.all_solid || tr.start_solid {
        d.resting = true;
        d.velocity = Vec3::ZERO;
        return;
    }
    item.origin = tr.end;
    if !tr.hit() {
        return;
    }
    let n = tr.normal;
    d.velocity = (d.velocity - 2.0 * d.velocity.dot(n) * n) * BOUNCE;
    if n.z > 0.0 && d.velocity.z < REST_SPEED {
        d.resting = true;
        d.velocity = Vec3::ZERO;
    }
}
