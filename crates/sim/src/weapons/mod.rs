//! Weapons: the weapon table, switching and firing, hitscan, projectiles,
//! splash damage and lag compensation.
//!
//! | file | what |
//! |---|---|
//! | `table.rs`, `table_load.rs` | [`WeaponTable`] (`config/weapons.toml`, [`WeaponTable::quake3`]) and its loader errors |
//! | `switch.rs` | the selection state machine on `Inventory` |
//! | `fire.rs` | the `Weapons`-set system: switch, fire, ammo, fire rate, shots/hits |
//! | `aim.rs` | eye, muzzle, view basis, spread |
//! | `hitscan.rs` | instant traces, pellets, piercing, melee |
//! | `projectile.rs` | projectile entities, flight, bounce, fuse, explosions |
//! | `splash.rs` | radius damage with falloff, blocked by walls |
//! | `lagcomp.rs` | the box history and rewinding for remote shooters |
//!
//! Weapons never change health themselves: every hit becomes a
//! [`DamageRequest`](crate::combat::DamageRequest) in the `DamageQueue`,
//! applied by `combat` (armor, quad, handicap, self-damage ×0.5,
//! knockback, death). What a weapon may do differently by kind of client
//! is exactly one thing: a remote player's hitscan is lag compensated.
//!
//! For other modules: items give weapons and ammo through
//! [`WeaponTable::give_weapon`] / [`WeaponTable::add_ammo`] and map
//! classes through [`WeaponTable::weapon_for_class`] /
//! [`WeaponTable::ammo_for_class`]; bots read the [`WeaponTable`] resource
//! for ranges, speeds and splash, and [`Projectile`] entities for danger.

mod aim;
mod fire;
mod hitscan;
mod lagcomp;
mod projectile;
mod splash;
mod switch;
mod table;
mod table_load;

use bevy_ecs::prelude::*;

pub use aim::{MUZZLE_OFFSET, ViewBasis, eye_position, muzzle};
pub use fire::{HASTE_FIRE_SCALE, credit_hit, fire_weapons, is_enemy};
pub use hitscan::{Shot, ShotResult, fire_hitscan, trace_melee, trace_ray};
pub use lagcomp::{LagHistory, MAX_REWIND_MS, record_history};
pub use projectile::{Flight, PRESTEP_S, Projectile, REST_SPEED, blast, fly, move_projectiles};
pub use splash::{SPLASH_LIFT, SplashHit, distance_to_box, reaches, splash_hits};
pub use switch::{SlotWeaponState, WeaponCounters, begin_switch, finish_switch, select};
pub use table::{SPREAD_DISTANCE, WeaponDef, WeaponKind, WeaponTable};
pub use table_load::WeaponTableError;

use crate::clock::MatchClock;
use crate::components::{Inventory, NetId};
use crate::hash::TickHash;
use crate::schedule::SimSystems;
use crate::slots::Slots;
use crate::spawn::SpawnLoadout;

/// Adds the weapon resources and systems to a new match: the table, the
/// spawn loadout it implies, the lag history, and the firing, projectile,
/// history and hash systems in their sets.
pub fn install(world: &mut World, schedule: &mut Schedule, table: &WeaponTable) {
    let hz = world.get_resource::<MatchClock>().map_or(60, |c| c.hz);
    let full = world.get_resource::<crate::mode_rules::ModeRules>().is_some_and(|r| r.full_loadout);
    let loadout = if full { table.full_inventory() } else { table.spawn_inventory() };
    world.insert_resource(SpawnLoadout(loadout));
    world.insert_resource(table.clone());
    world.insert_resource(LagHistory::new(hz));
    world.insert_resource(WeaponCounters::default());
    schedule.add_systems(fire_weapons.in_set(SimSystems::Weapons));
    schedule.add_systems(move_projectiles.in_set(SimSystems::Projectiles));
    schedule.add_systems(
        (record_history, hash_weapons)
            .chain()
            .in_set(crate::schedule::HashSystems::Weapons),
    );
}

/// Feeds the weapon state the core hash leaves out into the tick hash:
/// each slot's switch target, ready tick and fire-rate carry, then every
/// projectile by `NetId` (not its accuracy band, which play never reads).
pub fn hash_weapons(
    slots: Res<Slots>,
    inventories: Query<&Inventory>,
    counters: Res<WeaponCounters>,
    projectiles: Query<(&NetId, &Projectile)>,
    mut hash: ResMut<TickHash>,
) {
    hash.mark("weapons");
    let h = &mut hash.building;
    for (id, s) in slots.iter() {
        let Some(inv) = s.entity.and_then(|e| inventories.get(e).ok()) else { continue };
        h.u32(u32::from(id.0));
        h.u32(inv.switching_to.map_or(0, |w| u32::from(w) + 1));
        h.u32(inv.ready_tick);
        h.f32(counters.get(id).carry);
    }
    let mut list: Vec<(&NetId, &Projectile)> = projectiles.iter().collect();
    list.sort_by_key(|(id, _)| **id);
    for (id, p) in list {
        h.u32(id.0);
        h.u32(u32::from(p.owner.0));
        h.u32(u32::from(p.weapon));
        h.vec3(p.origin);
        h.vec3(p.velocity);
        h.u32(p.explode_tick);
        h.u32(u32::from(p.resting) | u32::from(p.fresh) << 1);
    }
}
