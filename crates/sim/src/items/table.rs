//! The item table (`config/items.toml`): what each health, armor and
//! powerup pickup gives, its cap, when every pickup respawns, and the rules
//! shared by all items (pickup box, decay, regeneration, haste, dropped
//! weapons). What weapons and ammo boxes give is the weapon table's
//! (`config/weapons.toml`: `pickup_ammo`, `box_ammo`, `max_ammo`, and the
//! map classes of each weapon), so the numbers live in one place.
//!
//! [`ItemTable::from_toml`] parses the text the server reads once and
//! hands the table to every match through [`GameData`](crate::GameData).
//! [`ItemTable::default`] equals the shipped file (a test checks it), so a
//! match built without a file plays the same.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::kinds::Section;

/// Rules shared by every item; see `config/items.toml` for each field.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRules {
    /// Half-extent of an item's pickup box, units.
    pub box_half: f32,
    /// Points of overstacked health and armor lost per second.
    pub decay_per_second: i32,
    /// Regeneration per second below the maximum health.
    pub regen_below_max: i32,
    /// Regeneration per second above the maximum health, up to twice it.
    pub regen_above_max: i32,
    /// Haste's movement speed factor (its fire-rate factor is the weapons').
    pub haste_speed_factor: f32,
    /// Quake 1 large ammo boxes give this many times the weapon's `box_ammo`.
    pub large_ammo_factor: i32,
    /// Seconds a dropped weapon lies before it vanishes.
    pub dropped_lifetime_s: f32,
    /// Forward speed of a dropped weapon's toss, units/s.
    pub dropped_speed: f32,
    /// Upward speed of the toss, units/s.
    pub dropped_up: f32,
    /// Random jitter of the upward speed, plus or minus, units/s.
    pub dropped_up_jitter: f32,
}

impl Default for ItemRules {
    fn default() -> Self {
        Self {
            box_half: 15.0,
            decay_per_second: 1,
            regen_below_max: 15,
            regen_above_max: 5,
            haste_speed_factor: 1.3,
            large_ammo_factor: 2,
            dropped_lifetime_s: 30.0,
            dropped_speed: 150.0,
            dropped_up: 200.0,
            dropped_up_jitter: 50.0,
        }
    }
}

/// One health, armor or powerup class: what it gives and when it comes back.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDef {
    /// Health or armor points, or powerup seconds.
    pub amount: i32,
    /// The cap for maximum health 100 (health and armor).
    pub max: Option<i32>,
    /// Seconds from pickup to respawn.
    pub respawn_s: f32,
    /// Seconds after the match starts before it first appears.
    pub first_spawn_s: f32,
    /// Random jitter of the first appearance, plus or minus seconds.
    pub first_spawn_jitter_s: f32,
    /// Half-extent of the pickup box, if not the shared one.
    pub half_size: Option<f32>,
}

impl ItemDef {
    fn new(amount: i32, max: Option<i32>, respawn_s: f32) -> Self {
        Self { amount, max, respawn_s, first_spawn_s: 0.0, first_spawn_jitter_s: 0.0, half_size: None }
    }
}

/// Timing of every weapon or every ammo box: what they give is the weapon
/// table's (`pickup_ammo`, `box_ammo`, `max_ammo`).
#[derive(Debug, Clone, PartialEq)]
pub struct PickupTiming {
    /// Seconds from pickup to respawn.
    pub respawn_s: f32,
    /// Half-extent of the pickup box, if not the shared one.
    pub half_size: Option<f32>,
}

/// The item table: shared rules and one entry per item class.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemTable {
    /// Shared rules.
    pub rules: ItemRules,
    /// Health, armor and powerup entries by section and key (`(Section::Health, "mega")`).
    pub entries: BTreeMap<(Section, String), ItemDef>,
    /// Every weapon pickup.
    pub weapon: PickupTiming,
    /// Every ammo box.
    pub ammo: PickupTiming,
}

/// Why the item table could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ItemTableError {
    /// The file is not valid TOML or an entry is wrong.
    #[error("{file}:{line}: {field}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line of the offending entry.
        line: usize,
        /// The entry or field, e.g. `health.mega.max`.
        field: String,
        /// What is wrong.
        message: String,
    },
}

impl Default for ItemTable {
    fn default() -> Self {
        use Section::*;
        let mut entries = BTreeMap::new();
        let mut put = |s: Section, k: &str, d: ItemDef| {
            entries.insert((s, k.to_owned()), d);
        };
        for (k, amount, max) in
            [("small", 5, 200), ("rotten", 15, 100), ("medium", 25, 100), ("large", 50, 100), ("mega", 100, 200)]
        {
            put(Health, k, ItemDef::new(amount, Some(max), 35.0));
        }
        for (k, amount) in [("shard", 5), ("green", 25), ("yellow", 50), ("red", 100)] {
            put(Armor, k, ItemDef::new(amount, Some(200), 25.0));
        }
        for k in ["quad", "haste", "regen", "invis"] {
            put(
                Powerup,
                k,
                ItemDef { first_spawn_s: 45.0, first_spawn_jitter_s: 15.0, ..ItemDef::new(30, None, 120.0) },
            );
        }
        Self {
            rules: ItemRules::default(),
            entries,
            weapon: PickupTiming { respawn_s: 5.0, half_size: None },
            ammo: PickupTiming { respawn_s: 40.0, half_size: None },
        }
    }
}

impl ItemTable {
    /// Parses and checks table text; `file` names it in errors. Sections
    /// left out keep their built-in defaults (`[weapon]`, `[ammo]`,
    /// `[rules]` fields); a health, armor or powerup entry left out means
    /// that item is not spawned.
    pub fn from_toml(text: &str, file: &str) -> Result<Self, ItemTableError> {
        let raw: RawTable = toml::from_str(text).map_err(|e| ItemTableError::Invalid {
            file: file.to_owned(),
            line: line_of(text, e.span().map_or(0, |s| s.start)),
            field: "table".to_owned(),
            message: e.message().to_owned(),
        })?;
        let fail = |span: std::ops::Range<usize>, field: String, message: String| ItemTableError::Invalid {
            file: file.to_owned(),
            line: line_of(text, span.start),
            field,
            message,
        };
        let defaults = ItemTable::default();
        let mut table = ItemTable { entries: BTreeMap::new(), ..defaults };
        if let Some(rules) = raw.rules {
            let span = rules.span();
            table.rules =
                rules.into_inner().apply(ItemRules::default()).map_err(|(f, m)| fail(span, format!("rules.{f}"), m))?;
        }
        for (name, raw, slot) in [("weapon", raw.weapon, &mut table.weapon), ("ammo", raw.ammo, &mut table.ammo)] {
            let Some(raw) = raw else { continue };
            let span = raw.span();
            *slot = raw.into_inner().check().map_err(|(f, m)| fail(span, format!("{name}.{f}"), m))?;
        }
        for (section, map) in
            [(Section::Health, raw.health), (Section::Armor, raw.armor), (Section::Powerup, raw.powerup)]
        {
            for (key, entry) in map.unwrap_or_default() {
                let span = entry.span();
                let field = format!("{}.{key}", section.name());
                if !section.known_keys().contains(&key.as_str()) {
                    let known = section.known_keys().join(", ");
                    return Err(fail(span, field, format!("unknown {} item (known: {known})", section.name())));
                }
                let def = entry
                    .into_inner()
                    .check(section)
                    .map_err(|(f, m)| fail(span.clone(), format!("{field}.{f}"), m))?;
                table.entries.insert((section, key), def);
            }
        }
        Ok(table)
    }

    /// The entry for `section`/`key`, if the table has one.
    pub fn get(&self, section: Section, key: &str) -> Option<&ItemDef> {
        self.entries.get(&(section, key.to_owned()))
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len())).map_or(1, |t| t.bytes().filter(|b| *b == b'\n').count() + 1)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    rules: Option<Spanned<RawRules>>,
    health: Option<BTreeMap<String, Spanned<RawDef>>>,
    armor: Option<BTreeMap<String, Spanned<RawDef>>>,
    weapon: Option<Spanned<RawTiming>>,
    ammo: Option<Spanned<RawTiming>>,
    powerup: Option<BTreeMap<String, Spanned<RawDef>>>,
}

type FieldError = (&'static str, String);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    box_half: Option<f32>,
    decay_per_second: Option<i32>,
    regen_below_max: Option<i32>,
    regen_above_max: Option<i32>,
    haste_speed_factor: Option<f32>,
    large_ammo_factor: Option<i32>,
    dropped_lifetime: Option<f32>,
    dropped_speed: Option<f32>,
    dropped_up: Option<f32>,
    dropped_up_jitter: Option<f32>,
}

fn positive(field: &'static str, v: f32) -> Result<f32, FieldError> {
    if v.is_finite() && v > 0.0 { Ok(v) } else { Err((field, format!("must be a positive number, got {v}"))) }
}

fn non_negative(field: &'static str, v: f32) -> Result<f32, FieldError> {
    if v.is_finite() && v >= 0.0 { Ok(v) } else { Err((field, format!("must be zero or more, got {v}"))) }
}

fn non_negative_int(field: &'static str, v: i32) -> Result<i32, FieldError> {
    if v >= 0 { Ok(v) } else { Err((field, format!("must be zero or more, got {v}"))) }
}

impl RawRules {
    fn apply(self, mut r: ItemRules) -> Result<ItemRules, FieldError> {
        if let Some(v) = self.box_half {
            r.box_half = positive("box_half", v)?;
        }
        if let Some(v) = self.decay_per_second {
            r.decay_per_second = non_negative_int("decay_per_second", v)?;
        }
        if let Some(v) = self.regen_below_max {
            r.regen_below_max = non_negative_int("regen_below_max", v)?;
        }
        if let Some(v) = self.regen_above_max {
            r.regen_above_max = non_negative_int("regen_above_max", v)?;
        }
        if let Some(v) = self.haste_speed_factor {
            r.haste_speed_factor = positive("haste_speed_factor", v)?;
        }
        if let Some(v) = self.large_ammo_factor {
            r.large_ammo_factor = non_negative_int("large_ammo_factor", v)?;
        }
        if let Some(v) = self.dropped_lifetime {
            r.dropped_lifetime_s = non_negative("dropped_lifetime", v)?;
        }
        if let Some(v) = self.dropped_speed {
            r.dropped_speed = non_negative("dropped_speed", v)?;
        }
        if let Some(v) = self.dropped_up {
            r.dropped_up = non_negative("dropped_up", v)?;
        }
        if let Some(v) = self.dropped_up_jitter {
            r.dropped_up_jitter = non_negative("dropped_up_jitter", v)?;
        }
        Ok(r)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTiming {
    respawn: f32,
    half_size: Option<f32>,
}

impl RawTiming {
    fn check(self) -> Result<PickupTiming, FieldError> {
        Ok(PickupTiming {
            respawn_s: non_negative("respawn", self.respawn)?,
            half_size: self.half_size.map(|v| positive("half_size", v)).transpose()?,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDef {
    amount: i32,
    respawn: f32,
    max: Option<i32>,
    first_spawn: Option<f32>,
    first_spawn_jitter: Option<f32>,
    half_size: Option<f32>,
}

impl RawDef {
    fn check(self, section: Section) -> Result<ItemDef, FieldError> {
        let amount = non_negative_int("amount", self.amount)?;
        if amount == 0 {
            return Err(("amount", "must be positive".to_owned()));
        }
        let respawn_s = non_negative("respawn", self.respawn)?;
        let first_spawn_s = non_negative("first_spawn", self.first_spawn.unwrap_or(0.0))?;
        let first_spawn_jitter_s = non_negative("first_spawn_jitter", self.first_spawn_jitter.unwrap_or(0.0))?;
        if first_spawn_jitter_s > first_spawn_s {
            return Err((
                "first_spawn_jitter",
                format!("{first_spawn_jitter_s} is more than first_spawn {first_spawn_s}"),
            ));
        }
        let half_size = self.half_size.map(|v| positive("half_size", v)).transpose()?;
        let max = self.max.map(|v| non_negative_int("max", v)).transpose()?;
        match (section, max) {
            (Section::Health | Section::Armor, None) => {
                return Err(("max", "missing: health and armor items need a cap".to_owned()));
            }
            (Section::Powerup, Some(_)) => return Err(("max", "powerups have no cap".to_owned())),
            _ => {}
        }
        Ok(ItemDef { amount, max, respawn_s, first_spawn_s, first_spawn_jitter_s, half_size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_line_and_field() {
        let text = "[rules]\nbox_half = 15.0\n\n[health.mega]\namount = 100\nmax = -3\nrespawn = 35.0\n";
        let err = ItemTable::from_toml(text, "items.toml").expect_err("bad max");
        let msg = err.to_string();
        assert!(msg.starts_with("items.toml:4: health.mega.max:"), "{msg}");

        let err = ItemTable::from_toml("[health.hudge]\namount = 1\nmax = 2\nrespawn = 1.0\n", "i.toml")
            .expect_err("unknown");
        assert!(err.to_string().contains("i.toml:1: health.hudge: unknown health item"), "{err}");

        let err = ItemTable::from_toml("[armor.red]\namount = 1\nmax = 2\nrespawn = 1.0\nbogus = 3\n", "i.toml")
            .expect_err("field");
        assert!(err.to_string().contains("i.toml:") && err.to_string().contains("bogus"), "{err}");

        let err = ItemTable::from_toml("[weapon]\nrespawn = -5.0\n", "i.toml").expect_err("weapon");
        assert!(err.to_string().contains("i.toml:1: weapon.respawn: must be zero or more"), "{err}");

        let err = ItemTable::from_toml("[rules]\nhaste_speed_factor = 0.0\n", "i.toml").expect_err("rules");
        assert!(err.to_string().contains("i.toml:1: rules.haste_speed_factor"), "{err}");

        let err = ItemTable::from_toml("[powerup.flight]\namount = 1\nrespawn = 1.0\n", "i.toml").expect_err("flight");
        assert!(err.to_string().contains("powerup.flight: unknown powerup item"), "{err}");
    }

    #[test]
    fn missing_entries_are_absent_and_rules_default() {
        let t = ItemTable::from_toml("[health.small]\namount = 5\nmax = 200\nrespawn = 35.0\n", "i.toml").expect("ok");
        assert_eq!(t.rules, ItemRules::default());
        assert_eq!((t.weapon.respawn_s, t.ammo.respawn_s), (5.0, 40.0));
        assert_eq!(t.entries.len(), 1);
        assert!(t.get(Section::Health, "small").is_some());
        assert!(t.get(Section::Health, "mega").is_none());
    }
}
