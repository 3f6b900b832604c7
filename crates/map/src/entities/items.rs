//! Pickup kinds, covering Quake 1 and Quake 3 names.
//!
//! These say *what* an item is; how much it gives, and how a Quake 1 weapon
//! maps onto Quarry's arsenal, is game balance and belongs to the sim's
//! items table, not to the map loader.

use serde::Serialize;

/// A health pickup size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HealthKind {
    /// Quake 3 `item_health_small` (+5, may exceed the maximum).
    Small,
    /// Quake 1 `item_health` with spawnflag 1 (rotten, +15).
    Rotten,
    /// Quake 3 `item_health` (+25), Quake 1 `item_health` (+25).
    Medium,
    /// Quake 3 `item_health_large` (+50).
    Large,
    /// Quake 3 `item_health_mega`, Quake 1 `item_health` with spawnflag 2 (+100).
    Mega,
}

/// An armor pickup, in Quake 1 colour terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmorKind {
    /// Quake 3 `item_armor_shard`.
    Shard,
    /// Quake 1 `item_armor1`, Quake 3 `item_armor_jacket`.
    Green,
    /// Quake 1 `item_armor2`, Quake 3 `item_armor_combat`.
    Yellow,
    /// Quake 1 `item_armorInv`, Quake 3 `item_armor_body`.
    Red,
}

/// A weapon from either game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// Quake 3 gauntlet (Quake 1 axe has no map entity).
    Gauntlet,
    /// Quake 3 machinegun.
    Machinegun,
    /// Quake 3 shotgun.
    Shotgun,
    /// Quake 1 double-barrelled shotgun.
    SuperShotgun,
    /// Quake 1 nailgun, Team Arena nailgun.
    Nailgun,
    /// Quake 1 super nailgun.
    SuperNailgun,
    /// Grenade launcher (both games).
    GrenadeLauncher,
    /// Rocket launcher (both games).
    RocketLauncher,
    /// Lightning gun (both games).
    Lightning,
    /// Quake 3 railgun.
    Railgun,
    /// Quake 3 plasma gun.
    PlasmaGun,
    /// Quake 3 BFG10K.
    Bfg,
    /// Team Arena proximity mine launcher.
    ProxLauncher,
    /// Team Arena chaingun.
    Chaingun,
}

/// An ammo box kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AmmoKind {
    /// Shotgun shells (both games).
    Shells,
    /// Machinegun bullets (Quake 3).
    Bullets,
    /// Quake 1 nails (`item_spikes`), Team Arena nails.
    Nails,
    /// Grenades (Quake 3).
    Grenades,
    /// Rockets (both games).
    Rockets,
    /// Quake 1 cells (lightning gun), Quake 3 cells (plasma gun).
    Cells,
    /// Quake 3 lightning ammo.
    Lightning,
    /// Quake 3 railgun slugs.
    Slugs,
    /// Quake 3 BFG ammo.
    Bfg,
    /// Team Arena proximity mines.
    Mines,
    /// Team Arena chaingun belt.
    Belt,
}

/// A timed powerup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Powerup {
    /// Quad damage (`item_quad`, Quake 1 `item_artifact_super_damage`).
    Quad,
    /// Haste (`item_haste`).
    Haste,
    /// Regeneration (`item_regen`).
    Regeneration,
    /// Invisibility (`item_invis`, Quake 1 `item_artifact_invisibility`).
    Invisibility,
    /// Battle suit (`item_enviro`).
    BattleSuit,
    /// Flight (`item_flight`).
    Flight,
    /// Quake 1 pentagram (`item_artifact_invulnerability`).
    Invulnerability,
    /// Quake 1 biosuit (`item_artifact_envirosuit`).
    EnviroSuit,
}

/// A Quake 3 holdable item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Holdable {
    /// Personal teleporter.
    Teleporter,
    /// Medkit.
    Medkit,
}

/// A Quake 1 key (doors may need one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyKind {
    /// `item_key1`, doors with spawnflag 16.
    Silver,
    /// `item_key2`, doors with spawnflag 8.
    Gold,
}

impl KeyKind {
    /// Both keys.
    pub const ALL: [KeyKind; 2] = [KeyKind::Silver, KeyKind::Gold];

    /// The key's bit in a [`KeySet`] (and in a player's inventory).
    pub fn bit(self) -> u8 {
        match self {
            KeyKind::Silver => 1,
            KeyKind::Gold => 2,
        }
    }
}

/// The keys a player carries, one bit per [`KeyKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct KeySet(pub u8);

impl KeySet {
    /// No keys.
    pub const NONE: KeySet = KeySet(0);

    /// Whether `k` is in the set.
    pub fn contains(self, k: KeyKind) -> bool {
        self.0 & k.bit() != 0
    }

    /// The set with `k` added.
    pub fn with(self, k: KeyKind) -> KeySet {
        KeySet(self.0 | k.bit())
    }
}

/// What a pickup entity gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "type", content = "kind", rename_all = "snake_case")]
pub enum ItemKind {
    /// Health.
    Health(HealthKind),
    /// Armor.
    Armor(ArmorKind),
    /// A weapon (with its starting ammo).
    Weapon(Weapon),
    /// Ammo; `large` for Quake 1 boxes with the "big" spawnflag.
    Ammo {
        /// Which ammo.
        ammo: AmmoKind,
        /// Quake 1 large box (spawnflag 1).
        large: bool,
    },
    /// A powerup.
    Powerup(Powerup),
    /// A holdable item.
    Holdable(Holdable),
    /// A key.
    Key(KeyKind),
}

/// A pickup placed in the map.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Item {
    /// What it gives.
    pub kind: ItemKind,
    /// Quake 3 "suspended" spawnflag: floats where placed instead of
    /// dropping to the floor.
    pub suspended: bool,
}
