//! Picking items up: the Quake 3 rules for who may take what
//! ([`can_take`], `BG_CanItemBeGrabbed`) and what it gives ([`give`],
//! `Pickup_Health`/`Armor`/`Weapon`/`Ammo`/`Powerup`), and the system that
//! finds which living player's box overlaps which available item.

use bevy_ecs::prelude::*;
use glam::Vec3;

use super::drop::Dropped;
use super::{Item, ItemSpawn};
use crate::clock::MatchClock;
use crate::components::{Armor, Body, Health, Inventory, Life, NetId, Player, Powerups, key_bit};
use quarry_map::entities::items::KeyKind;
use crate::events::{GameEvent, SoundKind};
use crate::rules::RulesState;
use crate::settings::Settings;
use crate::slots::{SlotId, Slots};

/// A timed powerup the sim models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PowerupKind {
    /// Quad damage.
    Quad,
    /// Haste.
    Haste,
    /// Regeneration.
    Regen,
    /// Invisibility.
    Invis,
}

impl PowerupKind {
    /// The powerup of an item-table key (`quad`, `haste`, `regen`, `invis`).
    pub fn from_key(key: &str) -> Option<Self> {
        match key {
            "quad" => Some(Self::Quad),
            "haste" => Some(Self::Haste),
            "regen" => Some(Self::Regen),
            "invis" => Some(Self::Invis),
            _ => None,
        }
    }

    /// The expiry tick field of this powerup.
    pub fn until(self, p: &mut Powerups) -> &mut u32 {
        match self {
            Self::Quad => &mut p.quad,
            Self::Haste => &mut p.haste,
            Self::Regen => &mut p.regen,
            Self::Invis => &mut p.invis,
        }
    }
}

/// What picking an item up does, resolved from the item table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gift {
    /// Adds health up to `cap` (for maximum health 100, scaled by the
    /// player's maximum); refused at or above the cap.
    Health {
        /// Points.
        amount: i32,
        /// Cap for maximum health 100.
        cap: i32,
    },
    /// Adds armor up to `cap` (scaled like health); refused at the cap.
    Armor {
        /// Points.
        amount: i32,
        /// Cap for maximum health 100.
        cap: i32,
    },
    /// Gives a weapon and ammo for it.
    Weapon {
        /// Weapon number.
        weapon: u8,
        /// Ammo: a placed weapon tops ammo up to this (at least one more
        /// shot); a dropped weapon adds it.
        ammo: i32,
        /// Ammo cap.
        ammo_cap: i32,
    },
    /// Adds ammo for a weapon; refused at the cap.
    Ammo {
        /// Weapon number.
        weapon: u8,
        /// Rounds.
        amount: i32,
        /// Cap.
        cap: i32,
    },
    /// Starts or extends a powerup.
    Powerup {
        /// Which.
        kind: PowerupKind,
        /// Seconds added.
        seconds: f32,
    },
    /// A Quake 1 key: carried until used on its door or lost at death;
    /// refused by a player who has one.
    Key(KeyKind),
}

/// The player state a pickup reads and changes.
pub struct Receiver<'a> {
    /// Health.
    pub health: &'a mut Health,
    /// Armor.
    pub armor: &'a mut Armor,
    /// Weapons and ammo.
    pub inventory: &'a mut Inventory,
    /// Powerup expiry ticks.
    pub powerups: &'a mut Powerups,
}

fn scaled(cap: i32, max_health: i32) -> i32 {
    cap * max_health / 100
}

fn ammo_slot(inv: &mut Inventory, weapon: u8) -> Option<&mut i32> {
    inv.ammo.get_mut(usize::from(weapon))
}

/// Whether the player may take `gift` now. `weapon_stay`: a placed weapon
/// stays for others, so a player who holds it already may not take it.
pub fn can_take(gift: &Gift, r: &Receiver<'_>, weapon_stay: bool) -> bool {
    match *gift {
        Gift::Health { cap, .. } => r.health.hp < scaled(cap, r.health.max),
        Gift::Armor { cap, .. } => r.armor.points < scaled(cap, r.health.max),
        Gift::Weapon { weapon, .. } => {
            usize::from(weapon) < r.inventory.ammo.len() && !(weapon_stay && r.inventory.has(weapon))
        }
        Gift::Ammo { weapon, cap, .. } => r.inventory.ammo.get(usize::from(weapon)).is_some_and(|a| *a < cap),
        Gift::Powerup { .. } => true,
        Gift::Key(k) => !r.inventory.has_key(k),
    }
}

/// Applies `gift` at `tick` (`hz` ticks per second). `dropped`: the item
/// was dropped by a dead player (its ammo is added in full).
pub fn give(gift: &Gift, r: &mut Receiver<'_>, dropped: bool, clock: MatchClock) {
    match *gift {
        Gift::Health { amount, cap } => {
            let cap = scaled(cap, r.health.max);
            r.health.hp = (r.health.hp + amount).min(cap).max(r.health.hp);
        }
        Gift::Armor { amount, cap } => {
            let cap = scaled(cap, r.health.max);
            r.armor.points = (r.armor.points + amount).min(cap).max(r.armor.points);
        }
        Gift::Weapon { weapon, ammo, ammo_cap } => {
            r.inventory.weapons |= 1 << weapon;
            if let Some(a) = ammo_slot(r.inventory, weapon) {
                // Quake 3: a placed weapon tops up to its quantity, or gives one shot.
                let new = if dropped { *a + ammo } else { ammo.max(*a + 1) };
                *a = new.min(ammo_cap).max(*a);
            }
        }
        Gift::Ammo { weapon, amount, cap } => {
            if let Some(a) = ammo_slot(r.inventory, weapon) {
                *a = (*a + amount).min(cap).max(*a);
            }
        }
        Gift::Powerup { kind, seconds } => {
            let until = kind.until(r.powerups);
            *until = (*until).max(clock.tick) + clock.ticks(seconds);
        }
        Gift::Key(k) => r.inventory.keys |= key_bit(k),
    }
}

/// Whether two boxes (centre, half-extents) overlap; touching counts.
pub fn boxes_overlap(a_min: Vec3, a_max: Vec3, b_min: Vec3, b_max: Vec3) -> bool {
    a_min.cmple(b_max).all() && b_min.cmple(a_max).all()
}

/// Every living player's box picks up the available items it overlaps:
/// players in slot order, items by `NetId`; the first taker wins.
///
/// Exclusive (`&mut World`): the first taker wins, so each pickup must change
/// the item and the player before the next player touches.
pub fn touch_items(world: &mut World) {
    if !world.resource::<RulesState>().phase.allows_play() {
        return;
    }
    let clock = *world.resource::<MatchClock>();
    let settings = world.resource::<Settings>().clone();
    let mut players: Vec<(SlotId, Entity, Vec3, Vec3)> = world
        .query::<(Entity, &Player, &Body, &Life)>()
        .iter(world)
        .filter(|(.., life)| **life == Life::Alive)
        .map(|(e, p, b, _)| {
            let (mins, maxs) = b.0.bbox();
            (p.slot, e, b.0.origin + mins, b.0.origin + maxs)
        })
        .collect();
    players.sort_by_key(|p| p.0);
    let mut items: Vec<(NetId, Entity, Item, bool)> = world
        .query::<(Entity, &NetId, &Item, Option<&ItemSpawn>, Option<&Dropped>)>()
        .iter(world)
        .filter(|(.., spawn, dropped)| spawn.is_some_and(|s| s.available) || dropped.is_some())
        .map(|(e, id, item, _, dropped)| (*id, e, *item, dropped.is_some()))
        .collect();
    items.sort_by_key(|i| i.0);
    let mut taken = vec![false; items.len()];
    for (slot, pe, lo, hi) in players {
        for (i, (_, ie, item, dropped)) in items.iter().enumerate() {
            if taken[i] || !boxes_overlap(lo, hi, item.origin - item.half, item.origin + item.half) {
                continue;
            }
            let weapon_stay = settings.weapon_stay && !dropped && matches!(item.gift, Gift::Weapon { .. });
            if !try_give(world, pe, &item.gift, *dropped, weapon_stay, clock) {
                continue;
            }
            if let Some(s) = world.resource_mut::<Slots>().get_mut(slot) {
                s.score.pickups += 1;
            }
            world.write_message(GameEvent::ItemPickup { slot, item: item.classname, origin: item.origin });
            world.write_message(GameEvent::Sound {
                kind: SoundKind::ItemPickup,
                origin: item.origin,
                source: Some(slot),
            });
            if weapon_stay {
                continue;
            }
            taken[i] = true;
            if *dropped {
                world.despawn(*ie);
            } else if let Some(mut spawn) = world.get_mut::<ItemSpawn>(*ie) {
                spawn.available = false;
                spawn.respawn_at = clock.tick.saturating_add(spawn.respawn_ticks.max(1));
                // Quake: taking a placed item fires its targets.
                let entity = spawn.entity;
                if let Some(mut targets) = world.get_resource_mut::<crate::targets::TargetState>() {
                    targets.fire(entity, Some(slot));
                }
            }
        }
    }
}

fn try_give(
    world: &mut World,
    player: Entity,
    gift: &Gift,
    dropped: bool,
    weapon_stay: bool,
    clock: MatchClock,
) -> bool {
    let Ok(mut e) = world.get_entity_mut(player) else { return false };
    let Some(mut health) = e.get::<Health>().copied() else { return false };
    let Some(mut armor) = e.get::<Armor>().copied() else { return false };
    let Some(mut inventory) = e.get::<Inventory>().copied() else { return false };
    let Some(mut powerups) = e.get::<Powerups>().copied() else { return false };
    let mut r = Receiver { health: &mut health, armor: &mut armor, inventory: &mut inventory, powerups: &mut powerups };
    if !can_take(gift, &r, weapon_stay) {
        return false;
    }
    give(gift, &mut r, dropped, clock);
    e.insert((health, armor, inventory, powerups));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player() -> (Health, Armor, Inventory, Powerups) {
        (Health { hp: 100, max: 100 }, Armor::default(), Inventory::default(), Powerups::default())
    }

    fn apply(gift: Gift, p: &mut (Health, Armor, Inventory, Powerups), stay: bool) -> bool {
        let mut r = Receiver { health: &mut p.0, armor: &mut p.1, inventory: &mut p.2, powerups: &mut p.3 };
        let ok = can_take(&gift, &r, stay);
        if ok {
            give(&gift, &mut r, false, MatchClock { tick: 100, hz: 60 });
        }
        ok
    }

    #[test]
    fn health_caps() {
        let mut p = player();
        assert!(!apply(Gift::Health { amount: 25, cap: 100 }, &mut p, false), "medium refused at max");
        assert!(apply(Gift::Health { amount: 5, cap: 200 }, &mut p, false));
        assert_eq!(p.0.hp, 105);
        assert!(apply(Gift::Health { amount: 100, cap: 200 }, &mut p, false));
        assert_eq!(p.0.hp, 200);
        assert!(!apply(Gift::Health { amount: 5, cap: 200 }, &mut p, false));
        p.0.hp = 90;
        assert!(apply(Gift::Health { amount: 50, cap: 100 }, &mut p, false));
        assert_eq!(p.0.hp, 100, "large heals only to the maximum");
        p.0 = Health { hp: 40, max: 50 };
        assert!(apply(Gift::Health { amount: 100, cap: 200 }, &mut p, false));
        assert_eq!(p.0.hp, 100, "caps scale with a handicapped maximum");
    }

    #[test]
    fn armor_weapon_ammo_powerup() {
        let mut p = player();
        assert!(apply(Gift::Armor { amount: 100, cap: 200 }, &mut p, false));
        assert!(apply(Gift::Armor { amount: 150, cap: 200 }, &mut p, false));
        assert_eq!(p.1.points, 200);
        assert!(!apply(Gift::Armor { amount: 5, cap: 200 }, &mut p, false));

        let rl = Gift::Weapon { weapon: 5, ammo: 10, ammo_cap: 200 };
        assert!(apply(rl, &mut p, true), "weapon stay lets a player without it take it");
        assert_eq!((p.2.has(5), p.2.ammo_of(5)), (true, 10));
        assert!(!apply(rl, &mut p, true), "weapon stay refuses a player who has it");
        assert!(apply(rl, &mut p, false));
        assert_eq!(p.2.ammo_of(5), 11, "one more shot when above the quantity");
        assert!(apply(Gift::Ammo { weapon: 5, amount: 500, cap: 200 }, &mut p, false));
        assert_eq!(p.2.ammo_of(5), 200);
        assert!(!apply(Gift::Ammo { weapon: 5, amount: 5, cap: 200 }, &mut p, false));
        assert!(!apply(Gift::Ammo { weapon: 200, amount: 5, cap: 200 }, &mut p, false), "unknown weapon");

        assert!(apply(Gift::Powerup { kind: PowerupKind::Quad, seconds: 30.0 }, &mut p, false));
        assert_eq!(p.3.quad, 100 + 30 * 60);
        assert!(apply(Gift::Powerup { kind: PowerupKind::Quad, seconds: 30.0 }, &mut p, false));
        assert_eq!(p.3.quad, 100 + 60 * 60, "a second quad stacks");
    }
}
