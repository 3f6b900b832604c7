//! The weapon table: what each weapon does, by weapon number.
//!
//! One [`WeaponDef`] per weapon, loaded from `config/weapons.toml`
//! ([`WeaponTable::from_toml`], errors in [`super::table_load`]) or built in
//! ([`WeaponTable::quake3`], which the shipped file must equal). The table
//! also answers the questions other modules ask about weapons: which weapon
//! a map's `weapon_*` or `ammo_*` entity is, what a player spawns with,
//! which weapon to fall back to when out of ammo, and how to add a weapon
//! or ammo to an inventory within the caps.

use bevy_ecs::prelude::*;
use serde::Deserialize;

use crate::components::{Inventory, MAX_WEAPONS};

/// Shot spread is given as the sideways offset, in units, at this distance
/// (Quake 3 offsets `spread * 16` at `8192 * 16` units, the same angle).
pub const SPREAD_DISTANCE: f32 = 8192.0;

/// How a weapon delivers its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// Hits only what is within `range` in front of the muzzle, and only
    /// then uses time and counts as firing (Quake 3 gauntlet).
    Melee,
    /// Instant traces from the muzzle: `pellets` of them with `spread`,
    /// up to `range`, passing through up to `pierce` players.
    Hitscan,
    /// A projectile entity flying at `speed`, with optional gravity and
    /// bounce, exploding on impact or when its fuse runs out.
    Projectile,
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// One weapon's numbers. Units: damage in health points, times in
/// milliseconds, distances in Quake units, speeds in units/s.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    /// The table key (`rocket_launcher`); set by the loader.
    #[serde(skip)]
    pub name: String,
    /// Weapon number, 1..=15: the `UserCmd::weapon` that selects it and
    /// its bit in `Inventory::weapons` (Quake 3 order: 1 gauntlet … 8 plasma gun).
    pub number: u8,
    /// How it hits.
    pub kind: WeaponKind,
    /// Damage per hit (per pellet; a projectile's direct hit).
    pub damage: f32,
    /// Time between shots, ms (haste divides it by 1.3).
    pub interval_ms: u32,
    /// Hitscan spread: sideways offset in units at [`SPREAD_DISTANCE`];
    /// single shots spread in a disc, pellets in a square (as Quake 3).
    #[serde(default)]
    pub spread: f32,
    /// Traces per shot (shotgun pellets).
    #[serde(default = "one")]
    pub pellets: u32,
    /// Reach of a hitscan or melee trace from the muzzle.
    #[serde(default)]
    pub range: f32,
    /// Players a hitscan trace passes through after the first (railgun).
    #[serde(default)]
    pub pierce: u32,
    /// Projectile launch speed.
    #[serde(default)]
    pub speed: f32,
    /// Whether the projectile falls with `g_gravity`.
    #[serde(default)]
    pub gravity: bool,
    /// Share of speed a projectile keeps when it bounces off the map; 0
    /// makes it explode on contact instead.
    #[serde(default)]
    pub bounce: f32,
    /// Projectile life: it explodes where it is when this runs out.
    #[serde(default)]
    pub fuse_ms: u32,
    /// Added to the aim direction's z before launching (grenades are
    /// lobbed: Quake 3 adds 0.2).
    #[serde(default)]
    pub aim_lift: f32,
    /// Splash damage at the explosion point, falling off linearly to 0 at `splash_radius`.
    #[serde(default)]
    pub splash_damage: f32,
    /// Splash reach.
    #[serde(default)]
    pub splash_radius: f32,
    /// Whether hits push the target (by the damage, as combat computes it).
    #[serde(default = "yes")]
    pub knockback: bool,
    /// Ammo per shot; 0 needs no ammo.
    #[serde(default = "one_i")]
    pub ammo_use: i32,
    /// Whether players spawn holding this weapon.
    #[serde(default)]
    pub spawn_with: bool,
    /// Ammo a player spawns with for this weapon.
    #[serde(default)]
    pub start_ammo: i32,
    /// Most ammo a player can carry for it.
    #[serde(default)]
    pub max_ammo: i32,
    /// Ammo a weapon pickup gives (Quake 3 item quantity).
    #[serde(default)]
    pub pickup_ammo: i32,
    /// Ammo an ammo box gives.
    #[serde(default)]
    pub box_ammo: i32,
    /// Time to lower this weapon when switching away from it, ms.
    #[serde(default)]
    pub drop_ms: u32,
    /// Time to raise this weapon when switching to it, ms.
    #[serde(default)]
    pub raise_ms: u32,
    /// The range band where this weapon is at its best, `[near, far]`
    /// units: what a player (or a bot weighing a matchup) knows about it.
    /// Unset, it follows from what the weapon is ([`WeaponDef::ideal_band`]).
    #[serde(default)]
    pub ideal_range: Option<[f32; 2]>,
    /// Map class names of this weapon's pickup (Quake 3 and Quake 1 equivalents).
    #[serde(default)]
    pub classes: Vec<String>,
    /// Map class names of its ammo box.
    #[serde(default)]
    pub ammo_classes: Vec<String>,
}

fn one_i() -> i32 {
    1
}

impl WeaponDef {
    /// The range band where it is at its best, `[near, far]` units: the
    /// table's `ideal_range`, else from what it is: a melee weapon its
    /// reach, a pellet spray up close, a short hitscan most of its reach,
    /// a splash projectile from outside its splash to where it still
    /// arrives in under a second, anything else mid range.
    pub fn ideal_band(&self) -> [f32; 2] {
        if let Some(band) = self.ideal_range {
            return band;
        }
        match self.kind {
            WeaponKind::Melee => [0.0, self.range + 32.0],
            WeaponKind::Hitscan if self.pellets > 1 => [0.0, 300.0],
            WeaponKind::Hitscan if self.range < 2000.0 => [0.0, 0.9 * self.range],
            WeaponKind::Hitscan => [150.0, 1500.0],
            WeaponKind::Projectile if self.has_splash() => [self.splash_radius + 32.0, (self.speed * 0.8).max(self.splash_radius + 96.0)],
            WeaponKind::Projectile => [64.0, (self.speed * 0.5).max(256.0)],
        }
    }

    /// Whether shots from it explode and hurt around the impact.
    pub fn has_splash(&self) -> bool {
        self.splash_damage > 0.0 && self.splash_radius > 0.0
    }

    /// Whether it needs ammo.
    pub fn uses_ammo(&self) -> bool {
        self.ammo_use > 0
    }
}

/// Every weapon of a match, by number. A resource; also a `GameData` field.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct WeaponTable {
    /// Sorted by number.
    defs: Vec<WeaponDef>,
    /// `by_number[n]`: index into `defs`.
    by_number: [Option<u8>; MAX_WEAPONS],
}

impl Default for WeaponTable {
    fn default() -> Self {
        Self::quake3()
    }
}

impl WeaponTable {
    /// A table from checked definitions (see `table_load::check_table`).
    pub(super) fn from_checked(mut defs: Vec<WeaponDef>) -> Self {
        defs.sort_by_key(|d| d.number);
        let mut by_number = [None; MAX_WEAPONS];
        for (i, d) in defs.iter().enumerate() {
            if let Some(slot) = by_number.get_mut(usize::from(d.number)) {
                *slot = u8::try_from(i).ok();
            }
        }
        Self { defs, by_number }
    }

    /// The weapon with number `n`, if the table has one.
    pub fn get(&self, n: u8) -> Option<&WeaponDef> {
        let i = (*self.by_number.get(usize::from(n))?)?;
        self.defs.get(usize::from(i))
    }

    /// The weapon with table key `name` (`railgun`).
    pub fn by_name(&self, name: &str) -> Option<&WeaponDef> {
        self.defs.iter().find(|d| d.name == name)
    }

    /// Every weapon in number order.
    pub fn iter(&self) -> impl Iterator<Item = &WeaponDef> + '_ {
        self.defs.iter()
    }

    /// How many weapons the table has.
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// Whether the table is empty (a loaded table never is).
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// The weapon a map's pickup class gives (`weapon_rocketlauncher`,
    /// Quake 1 `weapon_supershotgun` → shotgun). ASCII case-insensitive.
    pub fn weapon_for_class(&self, class: &str) -> Option<&WeaponDef> {
        self.defs.iter().find(|d| d.classes.iter().any(|c| c.eq_ignore_ascii_case(class)))
    }

    /// The weapon whose ammo a map's ammo class gives (`ammo_rockets`,
    /// Quake 1 `item_cells` → lightning gun). ASCII case-insensitive.
    pub fn ammo_for_class(&self, class: &str) -> Option<&WeaponDef> {
        self.defs.iter().find(|d| d.ammo_classes.iter().any(|c| c.eq_ignore_ascii_case(class)))
    }

    /// Whether `inv` holds weapon `n` with enough ammo for one shot.
    pub fn can_fire(&self, inv: &Inventory, n: u8) -> bool {
        self.get(n).is_some_and(|d| inv.has(n) && (!d.uses_ammo() || inv.ammo_of(n) >= d.ammo_use))
    }

    /// The weapon to fall back to when out of ammo: the highest-numbered
    /// held weapon that can fire (Quake 3's cgame picks the same way).
    pub fn best_available(&self, inv: &Inventory) -> Option<u8> {
        self.defs.iter().rev().map(|d| d.number).find(|&n| self.can_fire(inv, n))
    }

    /// Adds `amount` ammo for weapon `n`, capped at its `max_ammo` (ammo
    /// already above the cap is kept). Returns the ammo actually added.
    /// For item pickups.
    pub fn add_ammo(&self, inv: &mut Inventory, n: u8, amount: i32) -> i32 {
        let Some(def) = self.get(n) else { return 0 };
        let Some(ammo) = inv.ammo.get_mut(usize::from(n)) else { return 0 };
        let before = *ammo;
        if before < def.max_ammo {
            *ammo = before.saturating_add(amount.max(0)).min(def.max_ammo);
        }
        *ammo - before
    }

    /// Gives weapon `n` with `ammo` (usually its `pickup_ammo`), capped.
    /// Returns `false` for a weapon the table does not have. Does not
    /// switch to it; the player's command chooses.
    pub fn give_weapon(&self, inv: &mut Inventory, n: u8, ammo: i32) -> bool {
        if self.get(n).is_none() || usize::from(n) >= MAX_WEAPONS {
            return false;
        }
        inv.weapons |= 1 << n;
        self.add_ammo(inv, n, ammo);
        true
    }

    /// The inventory a player spawns with: every `spawn_with` weapon and its
    /// `start_ammo`, holding the highest-numbered of them that can fire.
    pub fn spawn_inventory(&self) -> Inventory {
        let mut inv = Inventory::default();
        for d in self.defs.iter().filter(|d| d.spawn_with) {
            inv.weapons |= 1 << d.number;
            if let Some(a) = inv.ammo.get_mut(usize::from(d.number)) {
                *a = d.start_ammo;
            }
        }
        inv.current = self.best_available(&inv).unwrap_or(0);
        inv
    }

    /// Every weapon of the table at its `max_ammo`, the best in hand: the
    /// Clan Arena loadout.
    pub fn full_inventory(&self) -> Inventory {
        let mut inv = Inventory::default();
        for d in self.defs.iter() {
            if usize::from(d.number) >= crate::components::MAX_WEAPONS {
                continue;
            }
            inv.weapons |= 1 << d.number;
            if let Some(a) = inv.ammo.get_mut(usize::from(d.number)) {
                *a = d.max_ammo;
            }
        }
        inv.current = self.best_available(&inv).unwrap_or(0);
        inv
    }

    /// The built-in Quake 3 (1.32 `g_weapon.c`, `bg_pmove.c`, `bg_misc.c`)
    /// table; `config/weapons.toml` ships the same numbers.
    pub fn quake3() -> Self {
        let base = |name: &str, number: u8, kind: WeaponKind, damage: f32, interval_ms: u32| WeaponDef {
            name: name.to_owned(),
            number,
            kind,
            damage,
            interval_ms,
            spread: 0.0,
            pellets: 1,
            range: 0.0,
            pierce: 0,
            speed: 0.0,
            gravity: false,
            bounce: 0.0,
            fuse_ms: 0,
            aim_lift: 0.0,
            splash_damage: 0.0,
            splash_radius: 0.0,
            knockback: true,
            ammo_use: 1,
            spawn_with: false,
            start_ammo: 0,
            // Quake 3 Add_Ammo caps every weapon at 200.
            max_ammo: 200,
            pickup_ammo: 0,
            box_ammo: 0,
            // PM_BeginWeaponChange / PM_FinishWeaponChange.
            drop_ms: 200,
            raise_ms: 250,
            ideal_range: None,
            classes: Vec::new(),
            ammo_classes: Vec::new(),
        };
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        use WeaponKind::*;
        let defs = vec![
            WeaponDef {
                range: 32.0,
                ammo_use: 0,
                spawn_with: true,
                max_ammo: 0,
                classes: names(&["weapon_gauntlet"]),
                ideal_range: Some([0.0, 64.0]),
                ..base("gauntlet", 1, Melee, 50.0, 400)
            },
            WeaponDef {
                spread: 200.0,
                range: 131_072.0,
                spawn_with: true,
                start_ammo: 100,
                pickup_ammo: 40,
                box_ammo: 50,
                classes: names(&["weapon_machinegun", "weapon_nailgun", "weapon_chaingun"]),
                ammo_classes: names(&["ammo_bullets", "item_spikes", "ammo_nails", "ammo_belt"]),
                ideal_range: Some([100.0, 800.0]),
                ..base("machinegun", 2, Hitscan, 7.0, 100)
            },
            WeaponDef {
                spread: 700.0,
                pellets: 11,
                range: 131_072.0,
                pickup_ammo: 10,
                box_ammo: 10,
                classes: names(&["weapon_shotgun", "weapon_supershotgun"]),
                ammo_classes: names(&["ammo_shells", "item_shells"]),
                ideal_range: Some([0.0, 250.0]),
                ..base("shotgun", 3, Hitscan, 10.0, 1000)
            },
            WeaponDef {
                speed: 700.0,
                gravity: true,
                bounce: 0.65,
                fuse_ms: 2500,
                aim_lift: 0.2,
                splash_damage: 100.0,
                splash_radius: 150.0,
                pickup_ammo: 10,
                box_ammo: 5,
                classes: names(&["weapon_grenadelauncher"]),
                ammo_classes: names(&["ammo_grenades"]),
                ideal_range: Some([150.0, 500.0]),
                ..base("grenade_launcher", 4, Projectile, 100.0, 800)
            },
            WeaponDef {
                speed: 900.0,
                fuse_ms: 15_000,
                splash_damage: 100.0,
                splash_radius: 120.0,
                pickup_ammo: 10,
                box_ammo: 5,
                classes: names(&["weapon_rocketlauncher"]),
                ammo_classes: names(&["ammo_rockets", "item_rockets"]),
                ideal_range: Some([100.0, 650.0]),
                ..base("rocket_launcher", 5, Projectile, 100.0, 800)
            },
            WeaponDef {
                range: 768.0,
                pickup_ammo: 100,
                box_ammo: 60,
                classes: names(&["weapon_lightning"]),
                ammo_classes: names(&["ammo_lightning", "item_cells"]),
                ideal_range: Some([0.0, 700.0]),
                ..base("lightning_gun", 6, Hitscan, 8.0, 50)
            },
            WeaponDef {
                range: 8192.0,
                pierce: 3,
                pickup_ammo: 10,
                box_ammo: 10,
                classes: names(&["weapon_railgun"]),
                ammo_classes: names(&["ammo_slugs"]),
                ideal_range: Some([500.0, 4000.0]),
                ..base("railgun", 7, Hitscan, 100.0, 1500)
            },
            WeaponDef {
                speed: 2000.0,
                fuse_ms: 10_000,
                splash_damage: 15.0,
                splash_radius: 20.0,
                pickup_ammo: 50,
                box_ammo: 30,
                classes: names(&["weapon_plasmagun", "weapon_supernailgun"]),
                ammo_classes: names(&["ammo_cells"]),
                ideal_range: Some([80.0, 600.0]),
                ..base("plasma_gun", 8, Projectile, 20.0, 100)
            },
        ];
        Self::from_checked(defs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake3_roster_in_order() {
        let t = WeaponTable::quake3();
        let names: Vec<&str> = t.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, [
            "gauntlet",
            "machinegun",
            "shotgun",
            "grenade_launcher",
            "rocket_launcher",
            "lightning_gun",
            "railgun",
            "plasma_gun"
        ]);
        for (i, d) in t.iter().enumerate() {
            assert_eq!(usize::from(d.number), i + 1);
            assert_eq!(t.get(d.number).map(|x| &x.name), Some(&d.name));
        }
        assert!(t.get(0).is_none() && t.get(9).is_none() && t.get(255).is_none());
        super::super::table_load::check_table(t.iter().cloned().collect(), "built-in").expect("built-in table is valid");
    }

    #[test]
    fn classes_map_both_games() {
        let t = WeaponTable::quake3();
        let num = |c: &str| t.weapon_for_class(c).map(|d| d.number);
        let ammo = |c: &str| t.ammo_for_class(c).map(|d| d.number);
        assert_eq!(num("weapon_rocketlauncher"), Some(5));
        assert_eq!(num("WEAPON_SUPERSHOTGUN"), Some(3));
        assert_eq!(num("weapon_bfg"), None);
        assert_eq!(ammo("ammo_cells"), Some(8), "Quake 3 cells feed the plasma gun");
        assert_eq!(ammo("item_cells"), Some(6), "Quake 1 cells feed the lightning gun");
        assert_eq!(ammo("item_rockets"), Some(5));
    }

    #[test]
    fn spawn_inventory_and_ammo_caps() {
        let t = WeaponTable::quake3();
        let mut inv = t.spawn_inventory();
        assert!(inv.has(1) && inv.has(2) && !inv.has(3));
        assert_eq!((inv.current, inv.ammo_of(2)), (2, 100));
        assert_eq!(t.add_ammo(&mut inv, 2, 150), 100);
        assert_eq!(inv.ammo_of(2), 200);
        assert_eq!(t.add_ammo(&mut inv, 2, 5), 0);
        assert!(t.give_weapon(&mut inv, 5, 10));
        assert_eq!(t.best_available(&inv), Some(5));
        assert!(!t.give_weapon(&mut inv, 12, 10));
        assert!(!t.give_weapon(&mut inv, 200, 10));
        inv.ammo[5] = 0;
        inv.ammo[2] = 0;
        assert_eq!(t.best_available(&inv), Some(1), "the gauntlet needs no ammo");
    }
}
