//! How the map crate's item kinds are named in the item table and in events.
//!
//! One row per kind: the table section, the key inside it, and the Quake 3
//! class name published in [`GameEvent::ItemPickup`](crate::events::GameEvent).
//! Weapons and ammo share one table entry per section; what they give is
//! looked up in the weapon table by the entity's own class name.
//! Holdables and keys have no row: the sim does not model them.

use quarry_map::entities::items::{AmmoKind, ArmorKind, HealthKind, ItemKind, Powerup, Weapon};

/// A section of the item table (`[health.*]`, `[armor.*]`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// Health pickups.
    Health,
    /// Armor pickups.
    Armor,
    /// Weapons.
    Weapon,
    /// Ammo boxes.
    Ammo,
    /// Timed powerups.
    Powerup,
}

impl Section {
    /// Every section, in file order.
    pub const ALL: [Section; 5] = [Section::Health, Section::Armor, Section::Weapon, Section::Ammo, Section::Powerup];

    /// The section's name in the file.
    pub fn name(self) -> &'static str {
        match self {
            Section::Health => "health",
            Section::Armor => "armor",
            Section::Weapon => "weapon",
            Section::Ammo => "ammo",
            Section::Powerup => "powerup",
        }
    }

    /// The keys an entry of this section may have (weapons and ammo have
    /// one shared entry each; these name their kinds).
    pub fn known_keys(self) -> &'static [&'static str] {
        match self {
            Section::Health => &["small", "rotten", "medium", "large", "mega"],
            Section::Armor => &["shard", "green", "yellow", "red"],
            Section::Weapon => &[
                "gauntlet",
                "machinegun",
                "shotgun",
                "super_shotgun",
                "nailgun",
                "super_nailgun",
                "grenade_launcher",
                "rocket_launcher",
                "lightning",
                "railgun",
                "plasma_gun",
                "bfg",
                "prox_launcher",
                "chaingun",
            ],
            Section::Ammo => &[
                "shells",
                "bullets",
                "nails",
                "grenades",
                "rockets",
                "cells",
                "lightning",
                "slugs",
                "bfg",
                "mines",
                "belt",
            ],
            // Only the powerups `Powerups` can hold.
            Section::Powerup => &["quad", "haste", "regen", "invis"],
        }
    }
}

/// Where a map item kind lives in the table and what it is called in events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindName {
    /// The table section.
    pub section: Section,
    /// The key inside the section.
    pub key: &'static str,
    /// The Quake 3 class name (Quake 1 names for Quake 1-only kinds).
    pub classname: &'static str,
}

const fn name(section: Section, key: &'static str, classname: &'static str) -> Option<KindName> {
    Some(KindName { section, key, classname })
}

/// The table entry and event name of a map item kind; `None` for kinds the
/// sim does not model (holdables, keys).
pub fn kind_name(kind: ItemKind) -> Option<KindName> {
    use Section as S;
    match kind {
        ItemKind::Health(h) => match h {
            HealthKind::Small => name(S::Health, "small", "item_health_small"),
            HealthKind::Rotten => name(S::Health, "rotten", "item_health_rotten"),
            HealthKind::Medium => name(S::Health, "medium", "item_health"),
            HealthKind::Large => name(S::Health, "large", "item_health_large"),
            HealthKind::Mega => name(S::Health, "mega", "item_health_mega"),
        },
        ItemKind::Armor(a) => match a {
            ArmorKind::Shard => name(S::Armor, "shard", "item_armor_shard"),
            ArmorKind::Green => name(S::Armor, "green", "item_armor_jacket"),
            ArmorKind::Yellow => name(S::Armor, "yellow", "item_armor_combat"),
            ArmorKind::Red => name(S::Armor, "red", "item_armor_body"),
        },
        ItemKind::Weapon(w) => weapon_name(w),
        ItemKind::Ammo { ammo, .. } => ammo_name(ammo),
        ItemKind::Powerup(p) => match p {
            Powerup::Quad => name(S::Powerup, "quad", "item_quad"),
            Powerup::Haste => name(S::Powerup, "haste", "item_haste"),
            Powerup::Regeneration => name(S::Powerup, "regen", "item_regen"),
            Powerup::Invisibility => name(S::Powerup, "invis", "item_invis"),
            Powerup::BattleSuit | Powerup::Flight | Powerup::Invulnerability | Powerup::EnviroSuit => None,
        },
        ItemKind::Holdable(_) | ItemKind::Key(_) => None,
    }
}

/// The static spelling of a weapon pickup class name (for events), ASCII
/// case-insensitive; `None` for a class the map crate does not know.
pub fn weapon_classname(class: &str) -> Option<&'static str> {
    WEAPONS.iter().find(|(_, _, c)| c.eq_ignore_ascii_case(class)).map(|(_, _, c)| *c)
}

const WEAPONS: [(Weapon, &str, &str); 14] = [
    (Weapon::Gauntlet, "gauntlet", "weapon_gauntlet"),
    (Weapon::Machinegun, "machinegun", "weapon_machinegun"),
    (Weapon::Shotgun, "shotgun", "weapon_shotgun"),
    (Weapon::SuperShotgun, "super_shotgun", "weapon_supershotgun"),
    (Weapon::Nailgun, "nailgun", "weapon_nailgun"),
    (Weapon::SuperNailgun, "super_nailgun", "weapon_supernailgun"),
    (Weapon::GrenadeLauncher, "grenade_launcher", "weapon_grenadelauncher"),
    (Weapon::RocketLauncher, "rocket_launcher", "weapon_rocketlauncher"),
    (Weapon::Lightning, "lightning", "weapon_lightning"),
    (Weapon::Railgun, "railgun", "weapon_railgun"),
    (Weapon::PlasmaGun, "plasma_gun", "weapon_plasmagun"),
    (Weapon::Bfg, "bfg", "weapon_bfg"),
    (Weapon::ProxLauncher, "prox_launcher", "weapon_prox_launcher"),
    (Weapon::Chaingun, "chaingun", "weapon_chaingun"),
];

fn weapon_name(w: Weapon) -> Option<KindName> {
    WEAPONS.iter().find(|(x, _, _)| *x == w).and_then(|(_, key, classname)| name(Section::Weapon, key, classname))
}

fn ammo_name(a: AmmoKind) -> Option<KindName> {
    let (key, classname) = match a {
        AmmoKind::Shells => ("shells", "ammo_shells"),
        AmmoKind::Bullets => ("bullets", "ammo_bullets"),
        AmmoKind::Nails => ("nails", "ammo_nails"),
        AmmoKind::Grenades => ("grenades", "ammo_grenades"),
        AmmoKind::Rockets => ("rockets", "ammo_rockets"),
        AmmoKind::Cells => ("cells", "ammo_cells"),
        AmmoKind::Lightning => ("lightning", "ammo_lightning"),
        AmmoKind::Slugs => ("slugs", "ammo_slugs"),
        AmmoKind::Bfg => ("bfg", "ammo_bfg"),
        AmmoKind::Mines => ("mines", "ammo_mines"),
        AmmoKind::Belt => ("belt", "ammo_belt"),
    };
    name(Section::Ammo, key, classname)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_kind_uses_a_known_key() {
        let kinds = [
            ItemKind::Health(HealthKind::Mega),
            ItemKind::Armor(ArmorKind::Red),
            ItemKind::Weapon(Weapon::Chaingun),
            ItemKind::Ammo { ammo: AmmoKind::Belt, large: true },
            ItemKind::Powerup(Powerup::Invisibility),
        ];
        for k in kinds {
            let n = kind_name(k).expect("named");
            assert!(n.section.known_keys().contains(&n.key), "{n:?}");
        }
        assert_eq!(kind_name(ItemKind::Powerup(Powerup::Flight)), None);
        assert_eq!(kind_name(ItemKind::Armor(ArmorKind::Red)).map(|n| n.classname), Some("item_armor_body"));
        assert_eq!(weapon_classname("WEAPON_RAILGUN"), Some("weapon_railgun"));
    }
}
