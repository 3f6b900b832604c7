//! [`SoundTable`]: how far each kind of sound carries (`config/sounds.toml`).
//!
//! The sim emits [`GameEvent::Sound`](crate::events::GameEvent::Sound) for
//! what a player would hear; this table says from how far. It changes
//! nothing in the simulation itself: listeners (the bots' hearing) read it
//! from the match as a resource, so every listener uses the same figures a
//! person would get from the game's sound attenuation.
//!
//! A sound heard through a wall carries [`SoundTable::wall_factor`] times
//! as far (one trace from the sound to the listener decides).

use std::collections::BTreeMap;

use bevy_ecs::prelude::Resource;
use serde::Deserialize;

use crate::events::SoundKind;
use crate::weapons::WeaponTable;

/// A sound table that could not be used: file, line when known, and what
/// is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct SoundTableError {
    /// The file (or the name given to [`SoundTable::from_toml`]).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The farthest any sound may carry, units (a larger figure is refused).
pub const MAX_SOUND_RANGE: f32 = 16_384.0;

/// Audible distances, units, per kind of sound.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct SoundTable {
    /// A running player's footstep.
    pub footstep: f32,
    /// A jump.
    pub jump: f32,
    /// A landing hard enough to hear.
    pub land: f32,
    /// A player in pain.
    pub pain: f32,
    /// An item taken.
    pub pickup: f32,
    /// A projectile exploding.
    pub explosion: f32,
    /// A door or platform starting to move.
    pub mover: f32,
    /// A teleporter firing (at both ends).
    pub teleport: f32,
    /// A jump pad firing.
    pub jump_pad: f32,
    /// A weapon firing, when the weapon has no figure of its own.
    pub gunfire: f32,
    /// Per weapon name (as `config/weapons.toml` names it).
    pub weapons: BTreeMap<String, f32>,
    /// The share of its distance a sound carries through a wall (0..=1).
    pub wall_factor: f32,
}

impl Default for SoundTable {
    /// The shipped table (`config/sounds.toml` holds the same figures).
    fn default() -> Self {
        let weapons = [
            ("gauntlet", 500.0),
            ("machinegun", 1600.0),
            ("shotgun", 1800.0),
            ("grenade_launcher", 1200.0),
            ("rocket_launcher", 1600.0),
            ("lightning_gun", 1100.0),
            ("railgun", 2200.0),
            ("plasma_gun", 1300.0),
        ]
        .into_iter()
        .map(|(n, r)| (n.to_owned(), r))
        .collect();
        Self {
            footstep: 700.0,
            jump: 600.0,
            land: 800.0,
            pain: 900.0,
            pickup: 600.0,
            explosion: 2000.0,
            mover: 1000.0,
            teleport: 1000.0,
            jump_pad: 1000.0,
            gunfire: 1500.0,
            weapons,
            wall_factor: 0.5,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    range: RawRange,
    #[serde(default)]
    weapon: BTreeMap<String, f32>,
    #[serde(default)]
    walls: RawWalls,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawRange {
    footstep: Option<f32>,
    jump: Option<f32>,
    land: Option<f32>,
    pain: Option<f32>,
    pickup: Option<f32>,
    explosion: Option<f32>,
    mover: Option<f32>,
    teleport: Option<f32>,
    jump_pad: Option<f32>,
    gunfire: Option<f32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawWalls {
    factor: Option<f32>,
}

impl SoundTable {
    /// Parses sound table text; `file` names it in errors. A figure left
    /// out keeps its built-in value; one outside 0..=[`MAX_SOUND_RANGE`]
    /// (or a wall factor outside 0..=1) is refused with its name.
    pub fn from_toml(text: &str, file: &str) -> Result<Self, SoundTableError> {
        let err = |line: Option<usize>, message: String| SoundTableError { file: file.to_owned(), line, message };
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text.get(..s.start.min(text.len())).unwrap_or("").matches('\n').count() + 1);
            err(line, e.message().trim().to_owned())
        })?;
        let line_of = |key: &str| {
            text.lines()
                .position(|l| l.trim_start().strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('=')))
                .map(|i| i + 1)
        };
        let check = |name: &str, v: f32| {
            if v.is_finite() && (0.0..=MAX_SOUND_RANGE).contains(&v) {
                Ok(v)
            } else {
                Err(err(line_of(name), format!("'{name}' = {v}: an audible distance is 0 to {MAX_SOUND_RANGE} units")))
            }
        };
        let mut t = Self::default();
        let r = &raw.range;
        for (name, value, slot) in [
            ("footstep", r.footstep, &mut t.footstep),
            ("jump", r.jump, &mut t.jump),
            ("land", r.land, &mut t.land),
            ("pain", r.pain, &mut t.pain),
            ("pickup", r.pickup, &mut t.pickup),
            ("explosion", r.explosion, &mut t.explosion),
            ("mover", r.mover, &mut t.mover),
            ("teleport", r.teleport, &mut t.teleport),
            ("jump_pad", r.jump_pad, &mut t.jump_pad),
            ("gunfire", r.gunfire, &mut t.gunfire),
        ] {
            if let Some(v) = value {
                *slot = check(name, v)?;
            }
        }
        for (name, v) in raw.weapon {
            let v = check(&name, v)?;
            t.weapons.insert(name, v);
        }
        if let Some(f) = raw.walls.factor {
            if !(f.is_finite() && (0.0..=1.0).contains(&f)) {
                return Err(err(line_of("factor"), format!("'factor' = {f}: the wall factor is a share from 0 to 1")));
            }
            t.wall_factor = f;
        }
        Ok(t)
    }

    /// Weapon entries that name no weapon of `weapons` (a typo there would
    /// otherwise leave that weapon on the default figure unnoticed).
    pub fn unknown_weapons<'a>(&'a self, weapons: &WeaponTable) -> Vec<&'a str> {
        self.weapons
            .keys()
            .filter(|name| !weapons.iter().any(|d| d.name == **name))
            .map(String::as_str)
            .collect()
    }

    /// How far a sound of `kind` carries in the open, units; `weapons`
    /// names the weapon of a gunfire sound. Item respawns are heard by
    /// nobody (they tell nothing a player acts on): 0.
    pub fn range(&self, kind: SoundKind, weapons: &WeaponTable) -> f32 {
        match kind {
            SoundKind::Footstep => self.footstep,
            SoundKind::Jump => self.jump,
            SoundKind::Land => self.land,
            SoundKind::Pain => self.pain,
            SoundKind::ItemPickup => self.pickup,
            SoundKind::Explosion => self.explosion,
            SoundKind::Mover => self.mover,
            SoundKind::Teleport => self.teleport,
            SoundKind::JumpPad => self.jump_pad,
            SoundKind::ItemRespawn => 0.0,
            SoundKind::Gunfire(n) => weapons
                .get(n)
                .and_then(|d| self.weapons.get(&d.name))
                .copied()
                .unwrap_or(self.gunfire),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_equals_the_built_in_table() {
        let text = include_str!("../../../config/sounds.toml");
        assert_eq!(SoundTable::from_toml(text, "sounds.toml"), Ok(SoundTable::default()));
    }

    #[test]
    fn figures_are_per_kind_and_per_weapon() {
        let w = WeaponTable::default();
        let t = SoundTable::default();
        let rail = w.iter().find(|d| d.name == "railgun").map(|d| d.number).expect("railgun");
        let gauntlet = w.iter().find(|d| d.name == "gauntlet").map(|d| d.number).expect("gauntlet");
        assert!(t.range(SoundKind::Gunfire(rail), &w) > t.range(SoundKind::Gunfire(gauntlet), &w));
        assert_eq!(t.range(SoundKind::Gunfire(99), &w), t.gunfire, "an unknown weapon uses the default");
        assert_eq!(t.range(SoundKind::ItemRespawn, &w), 0.0);
        let partial = SoundTable::from_toml("[range]\nfootstep = 300\n", "s.toml").expect("valid");
        assert_eq!((partial.footstep, partial.jump), (300.0, t.jump), "left-out figures keep their defaults");
    }

    #[test]
    fn bad_entries_name_file_line_and_field() {
        let e = SoundTable::from_toml("[range]\njump = 500\nfootstep = -3\n", "sounds.toml").expect_err("negative");
        assert_eq!(e.line, Some(3));
        assert!(e.to_string().starts_with("sounds.toml:3:") && e.to_string().contains("'footstep'"), "{e}");
        let e = SoundTable::from_toml("[range]\nfootsteps = 300\n", "sounds.toml").expect_err("unknown");
        assert!(e.to_string().contains("footsteps"), "{e}");
        let e = SoundTable::from_toml("[walls]\nfactor = 2\n", "sounds.toml").expect_err("factor");
        assert!(e.to_string().contains("wall factor"), "{e}");
        let typo = SoundTable::from_toml("[weapon]\nrailgn = 900\n", "sounds.toml").expect("parses");
        assert_eq!(typo.unknown_weapons(&WeaponTable::default()), ["railgn"]);
        assert!(SoundTable::default().unknown_weapons(&WeaponTable::default()).is_empty());
    }
}
