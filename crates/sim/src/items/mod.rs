//! Items: pickups placed by the map, their rules and respawns, powerups,
//! health and armor decay, and weapons dropped by the dead.
//!
//! At match start [`install`] turns every `EntityKind::Item` of the map
//! into an item entity ([`Item`] + [`ItemSpawn`] + [`NetId`]) dropped to
//! the floor (unless suspended), with what it gives resolved from the
//! [`ItemTable`] into a [`Gift`]. Each tick, in the `Items` set: items due
//! come back ([`respawn`]), dropped weapons fly and expire ([`drop`]), items
//! set down on movers ride them or fall when their floor goes ([`settle`]),
//! and living players pick up what their box overlaps ([`pickup`]), in slot
//! order, items by `NetId`. In `AfterDamage`: the dead drop their weapon,
//! then overstacked health and armor decay and regeneration heals
//! ([`decay`]).
//!
//! Rules follow Quake 3 (`g_items.c`, `bg_misc.c`); the numbers are the
//! table's. What this module must not do: apply damage (that is
//! [`combat`](crate::combat)), move players, or read anything but the map
//! and the table.

pub mod decay;
pub mod drop;
pub mod kinds;
pub mod pickup;
pub mod respawn;
pub mod settle;
pub mod table;

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::entities::items::{ItemKind, KeyKind};
use quarry_map::{EntityId, EntityKind};
use rand::RngExt;

use crate::MapRes;
use crate::clock::{MatchClock, SimRng};
use crate::components::NetId;
use crate::hash::TickHash;
use crate::schedule::SimSystems;
use crate::components::NetIds;
use crate::weapons::WeaponTable;

pub use kinds::{KindName, Section, kind_name};
pub use pickup::{Gift, PowerupKind};
pub use table::{ItemDef, ItemRules, ItemTable, ItemTableError, PickupTiming};

/// A pickup in the world: what it is, what it gives, where its box is.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Item {
    /// Class name published in pickup events (`item_armor_body`).
    pub classname: &'static str,
    /// What picking it up does.
    pub gift: Gift,
    /// Centre of its pickup box.
    pub origin: Vec3,
    /// Half-extents of its pickup box.
    pub half: Vec3,
}

/// A map-placed item's availability: hidden while waiting to respawn.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct ItemSpawn {
    /// Whether it can be picked up (and is drawn).
    pub available: bool,
    /// When hidden: the tick it comes back.
    pub respawn_at: u32,
    /// Ticks from pickup to respawn.
    pub respawn_ticks: u32,
    /// Seconds after going live before it first appears, and its jitter.
    pub first_spawn: (f32, f32),
    /// Its map entity (taking it fires the entity's targets; a
    /// `killtarget` removes it).
    pub entity: EntityId,
}

/// Rules and lookups the item systems share, resolved from the tables.
#[derive(Resource, Debug, Clone)]
pub struct ItemCatalog {
    /// Shared rules.
    pub rules: ItemRules,
    /// Per weapon number: the class name of the pickup it drops as, and its ammo cap.
    pub weapon_items: BTreeMap<u8, (&'static str, i32)>,
    /// The tick play went live that the items were last reset for.
    pub reset_for: Option<u32>,
}

/// A map item resolved against the tables.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResolvedItem {
    /// Class name for events.
    pub classname: &'static str,
    /// What it gives.
    pub gift: Gift,
    /// Seconds from pickup to respawn.
    pub respawn_s: f32,
    /// First appearance delay and jitter, seconds.
    pub first_spawn: (f32, f32),
    /// Half-extent of the pickup box.
    pub half_size: f32,
}

/// What a map item of `kind` (entity class `class`) gives and when it
/// respawns: health, armor and powerups from the item table, weapons and
/// ammo from the weapon table by class name (the entity's own, else the
/// kind's Quake 3 name, so Quake 1 `item_weapon` boxes resolve). `Err` says why it is not
/// spawned (no entry, a class the weapon table lacks, a kind not modelled).
pub fn resolve_item(
    table: &ItemTable,
    weapons: &WeaponTable,
    class: &str,
    kind: ItemKind,
) -> Result<ResolvedItem, String> {
    let box_half = table.rules.box_half;
    if let ItemKind::Key(key) = kind {
        // Quake 1 deathmatch: a key taken is gone for the match.
        let classname = match key {
            KeyKind::Silver => "item_key1",
            KeyKind::Gold => "item_key2",
        };
        let gift = Gift::Key(key);
        return Ok(ResolvedItem { classname, gift, respawn_s: f32::INFINITY, first_spawn: (0.0, 0.0), half_size: box_half });
    }
    let name = kind_name(kind).ok_or_else(|| format!("{class} ({kind:?}) is not modelled"))?;
    let timed = |t: &PickupTiming, gift| ResolvedItem {
        classname: name.classname,
        gift,
        respawn_s: t.respawn_s,
        first_spawn: (0.0, 0.0),
        half_size: t.half_size.unwrap_or(box_half),
    };
    match name.section {
        Section::Weapon => {
            let w = weapons
                .weapon_for_class(class)
                .or_else(|| weapons.weapon_for_class(name.classname))
                .ok_or_else(|| format!("the weapon table has no weapon for {class}"))?;
            Ok(timed(&table.weapon, Gift::Weapon { weapon: w.number, ammo: w.pickup_ammo, ammo_cap: w.max_ammo }))
        }
        Section::Ammo => {
            // Quake 1 `item_weapon` boxes are known by the ammo they hold.
            let w = weapons
                .ammo_for_class(class)
                .or_else(|| weapons.ammo_for_class(name.classname))
                .ok_or_else(|| format!("the weapon table has no ammo for {class}"))?;
            let large = matches!(kind, ItemKind::Ammo { large: true, .. });
            let amount = if large { w.box_ammo * table.rules.large_ammo_factor } else { w.box_ammo };
            Ok(timed(&table.ammo, Gift::Ammo { weapon: w.number, amount, cap: w.max_ammo }))
        }
        section => {
            let def = table
                .get(section, name.key)
                .ok_or_else(|| format!("no [{}.{}] in the item table", section.name(), name.key))?;
            let gift = match section {
                Section::Health => Gift::Health { amount: def.amount, cap: def.max.unwrap_or(100) },
                Section::Armor => Gift::Armor { amount: def.amount, cap: def.max.unwrap_or(200) },
                _ => {
                    let kind = PowerupKind::from_key(name.key)
                        .ok_or_else(|| format!("powerup {} is not modelled", name.key))?;
                    Gift::Powerup { kind, seconds: def.amount as f32 }
                }
            };
            Ok(ResolvedItem {
                classname: name.classname,
                gift,
                respawn_s: def.respawn_s,
                first_spawn: (def.first_spawn_s, def.first_spawn_jitter_s),
                half_size: def.half_size.unwrap_or(box_half),
            })
        }
    }
}

/// Adds the items of the map, their resources and systems to a new match.
pub fn install(world: &mut World, schedule: &mut Schedule, table: &ItemTable, weapons: &WeaponTable) {
    let weapon_items = weapons
        .iter()
        .filter_map(|w| {
            let classname = w.classes.iter().find_map(|c| kinds::weapon_classname(c))?;
            Some((w.number, (classname, w.max_ammo)))
        })
        .collect();
    world.insert_resource(ItemCatalog { rules: table.rules.clone(), weapon_items, reset_for: None });
    world.init_resource::<drop::HandledDeaths>();
    if world.get_resource::<crate::mode_rules::ModeRules>().is_none_or(|r| r.map_items) {
        spawn_map_items(world, table, weapons);
    }
    schedule.add_systems(
        (respawn::respawn_items, drop::move_dropped, settle::settle_items, pickup::touch_items).chain().in_set(SimSystems::Items),
    );
    schedule.add_systems((drop::drop_weapons, decay::decay_and_regen).chain().in_set(SimSystems::AfterDamage));
    schedule.add_systems(
        hash_items.in_set(crate::schedule::HashSystems::Items),
    );
}



fn spawn_map_items(world: &mut World, table: &ItemTable, weapons: &WeaponTable) {
    let mut placed = Vec::new();
    {
        let map = &world.resource::<MapRes>().0;
        let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
        for e in map.entities() {
            let EntityKind::Item(item) = &e.kind else { continue };
            let Some(origin) = e.origin else { continue };
            let r = match resolve_item(table, weapons, &e.classname, item.kind) {
                Ok(r) => r,
                Err(why) => {
                    *skipped.entry(why).or_default() += 1;
                    continue;
                }
            };
            let half = Vec3::splat(r.half_size);
            let origin = if item.suspended { origin } else { crate::scene::drop_to_floor(map.world(), origin, half) };
            let footing = if item.suspended { None } else { settle::Footing::under(map.world(), origin, half) };
            placed.push((Item { classname: r.classname, gift: r.gift, origin, half }, r.respawn_s, r.first_spawn, e.id, footing));
        }
        for (why, n) in skipped {
            tracing::warn!(target: "quarry_sim::items", "{}: {n} item(s) not spawned: {why}", map.name());
        }
    }
    let clock = *world.resource::<MatchClock>();
    for (item, respawn_s, first, entity, footing) in placed {
        let id = world.resource_mut::<NetIds>().next_id();
        let respawn_ticks = clock.ticks(respawn_s);
        let mut spawn = ItemSpawn { available: true, respawn_at: 0, respawn_ticks, first_spawn: first, entity };
        delay_first_spawn(&mut spawn, clock, world.resource_mut::<SimRng>().as_mut());
        let mut placed = world.spawn((id, item, spawn));
        if let Some(f) = footing {
            placed.insert(f);
        }
    }
}

/// Hides an item with a first-spawn delay (powerups) until its first
/// appearance, measured from the current tick.
pub fn delay_first_spawn(spawn: &mut ItemSpawn, clock: MatchClock, rng: &mut SimRng) {
    let (first, jitter) = spawn.first_spawn;
    if first <= 0.0 {
        spawn.available = true;
        return;
    }
    let offset = if jitter > 0.0 { rng.0.random_range(-jitter..=jitter) } else { 0.0 };
    spawn.available = false;
    spawn.respawn_at = clock.tick + clock.ticks(first + offset);
}

/// What the tick hash reads of an item.
type HashedItem = (&'static NetId, &'static Item, Option<&'static ItemSpawn>, Option<&'static drop::Dropped>, Option<&'static settle::Footing>);

/// Feeds every item's state to the tick hash, by `NetId`.
pub fn hash_items(
    items: Query<HashedItem>,
    catalog: Res<ItemCatalog>,
    mut hash: ResMut<TickHash>,
) {
    let mut rows: Vec<_> = items.iter().collect();
    rows.sort_by_key(|(id, ..)| **id);
    hash.mark("items");
    let h = &mut hash.building;
    h.u32(catalog.reset_for.map_or(0, |t| t.wrapping_add(1)));
    for (id, item, spawn, dropped, footing) in rows {
        h.u32(id.0);
        h.vec3(item.origin);
        if let Some(s) = spawn {
            h.u32(u32::from(s.available));
            h.u32(s.respawn_at);
        }
        if let Some(d) = dropped {
            h.vec3(d.velocity);
            h.u32(d.expires);
        }
        if let Some(f) = footing.filter(|f| f.falling) {
            h.vec3(f.velocity);
        }
    }
}
