//! Loading and checking `config/weapons.toml`.
//!
//! The file is one table per weapon, keyed by name:
//!
//! ```toml
//! [weapon.rocket_launcher]
//! number = 5
//! kind = "projectile"
//! damage = 100
//! interval_ms = 800
//! speed = 900
//! ```
//!
//! Every error names the file, the line when known, the weapon and the
//! field: a TOML syntax error, an unknown field, a wrong type, a value out
//! of its range, a missing value a kind needs (a projectile without speed),
//! or a number or class name used twice. The whole table is refused on the
//! first error: a server must not run with half a weapon table.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::table::{WeaponDef, WeaponKind, WeaponTable};
use crate::components::MAX_WEAPONS;

/// A weapon table file that could not be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}{}: {}{}{message}", line.map(|l| format!(":{l}")).unwrap_or_default(),
    weapon.as_ref().map(|w| format!("weapon '{w}': ")).unwrap_or_default(),
    field.as_ref().map(|f| format!("field '{f}': ")).unwrap_or_default())]
pub struct WeaponTableError {
    /// The file (or the name given to [`WeaponTable::from_toml`]).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The weapon entry (table key), when known.
    pub weapon: Option<String>,
    /// The field, when known.
    pub field: Option<String>,
    /// What is wrong, lower case.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    weapon: BTreeMap<String, WeaponDef>,
}

impl WeaponTable {
    /// Parses weapon table text; `file` names it in errors.
    pub fn from_toml(text: &str, file: &str) -> Result<Self, WeaponTableError> {
        let raw: RawFile = toml::from_str(text).map_err(|e| syntax_error(text, file, &e))?;
        let mut defs: Vec<WeaponDef> = raw.weapon.into_iter().map(|(name, d)| WeaponDef { name, ..d }).collect();
        // File order, so a clash is blamed on the later entry.
        defs.sort_by_key(|d| locate(text, &d.name, None));
        check_table(defs, file).map_err(|mut e| {
            if let (Some(w), None) = (&e.weapon, e.line) {
                e.line = locate(text, w, e.field.as_deref());
            }
            e
        })
    }
}

/// Turns a TOML error into one naming the weapon section and field at its position.
fn syntax_error(text: &str, file: &str, e: &toml::de::Error) -> WeaponTableError {
    let pos = e.span().map(|s| s.start.min(text.len()));
    let line = pos.map(|p| text.get(..p).unwrap_or("").matches('\n').count() + 1);
    let line_text = line.and_then(|l| text.lines().nth(l - 1)).unwrap_or("");
    // A broken header belongs to no weapon yet.
    let weapon = match header_of(line_text) {
        Some(h) => h,
        None if line_text.trim_start().starts_with('[') => None,
        None => line.and_then(|l| section_at(text, l)),
    };
    let message = e.message().trim().to_owned();
    // The field: the unknown or missing one the message quotes, else the key on that line.
    let quoted = ["unknown field `", "missing field `"]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|m| m.split('`').next())
        .map(str::to_owned);
    let on_line = key_of(line_text);
    let field = quoted.or(on_line);
    WeaponTableError { file: file.to_owned(), line, weapon, field, message }
}

/// The weapon whose `[weapon.NAME]` section contains 1-based `line`.
fn section_at(text: &str, line: usize) -> Option<String> {
    text.lines().take(line).filter_map(header_of).last().flatten()
}

/// `Some(Some(name))` for a `[weapon.NAME]` header, `Some(None)` for any other header.
fn header_of(line: &str) -> Option<Option<String>> {
    let l = line.split('#').next().unwrap_or("").trim();
    let inner = l.strip_prefix('[')?.strip_suffix(']')?.trim();
    Some(inner.strip_prefix("weapon.").map(|n| n.trim().trim_matches('"').to_owned()))
}

/// The key of a `key = value` line.
fn key_of(line: &str) -> Option<String> {
    let (k, _) = line.split_once('=')?;
    let k = k.trim().trim_matches('"');
    (!k.is_empty() && !k.starts_with('[') && !k.starts_with('#')).then(|| k.to_owned())
}

/// The line of `field` in weapon `weapon`'s section, else of its header.
fn locate(text: &str, weapon: &str, field: Option<&str>) -> Option<usize> {
    let mut in_section = false;
    let mut header = None;
    for (i, l) in text.lines().enumerate() {
        if let Some(h) = header_of(l) {
            in_section = h.as_deref() == Some(weapon);
            if in_section {
                header = Some(i + 1);
            }
        } else if in_section && field.is_some() && key_of(l).as_deref() == field {
            return Some(i + 1);
        }
    }
    header
}

/// Checks every weapon and the table as a whole; builds it.
pub(super) fn check_table(defs: Vec<WeaponDef>, file: &str) -> Result<WeaponTable, WeaponTableError> {
    let err = |weapon: &str, field: &str, message: String| WeaponTableError {
        file: file.to_owned(),
        line: None,
        weapon: Some(weapon.to_owned()),
        field: Some(field.to_owned()),
        message,
    };
    if defs.is_empty() {
        return Err(WeaponTableError {
            file: file.to_owned(),
            line: None,
            weapon: None,
            field: None,
            message: "no weapons defined (expected [weapon.NAME] tables)".into(),
        });
    }
    let mut numbers: BTreeMap<u8, &str> = BTreeMap::new();
    let mut classes: BTreeMap<String, &str> = BTreeMap::new();
    for d in &defs {
        check_def(d).map_err(|(field, message)| err(&d.name, field, message))?;
        if let Some(other) = numbers.insert(d.number, &d.name) {
            return Err(err(&d.name, "number", format!("number {} is already used by weapon '{other}'", d.number)));
        }
        for (field, list) in [("classes", &d.classes), ("ammo_classes", &d.ammo_classes)] {
            for c in list {
                let key = format!("{field}:{}", c.to_ascii_lowercase());
                if let Some(other) = classes.insert(key, &d.name) {
                    return Err(err(&d.name, field, format!("class '{c}' is already listed by weapon '{other}'")));
                }
            }
        }
    }
    Ok(WeaponTable::from_checked(defs))
}

/// Checks one weapon: `(field, message)` for the first problem.
fn check_def(d: &WeaponDef) -> Result<(), (&'static str, String)> {
    fn range<T: PartialOrd + std::fmt::Display + Copy>(field: &'static str, v: T, lo: T, hi: T) -> Result<(), (&'static str, String)> {
        if v >= lo && v <= hi { Ok(()) } else { Err((field, format!("{v} is out of range {lo}..={hi}"))) }
    }
    let max_number = u8::try_from(MAX_WEAPONS - 1).unwrap_or(u8::MAX);
    range("number", d.number, 1, max_number)?;
    range("damage", d.damage, 0.0, 10_000.0)?;
    range("interval_ms", d.interval_ms, 1, 60_000)?;
    range("spread", d.spread, 0.0, SPREAD_MAX)?;
    range("pellets", d.pellets, 1, 64)?;
    range("range", d.range, 0.0, 131_072.0)?;
    range("pierce", d.pierce, 0, 16)?;
    range("speed", d.speed, 0.0, 100_000.0)?;
    range("bounce", d.bounce, 0.0, 1.0)?;
    range("fuse_ms", d.fuse_ms, 0, 600_000)?;
    range("aim_lift", d.aim_lift, -1.0, 1.0)?;
    range("splash_damage", d.splash_damage, 0.0, 10_000.0)?;
    range("splash_radius", d.splash_radius, 0.0, 4096.0)?;
    range("ammo_use", d.ammo_use, 0, 1000)?;
    range("max_ammo", d.max_ammo, 0, 9999)?;
    range("start_ammo", d.start_ammo, 0, d.max_ammo)?;
    range("pickup_ammo", d.pickup_ammo, 0, 9999)?;
    range("box_ammo", d.box_ammo, 0, 9999)?;
    range("drop_ms", d.drop_ms, 0, 10_000)?;
    range("raise_ms", d.raise_ms, 0, 10_000)?;
    if let Some([near, far]) = d.ideal_range {
        range("ideal_range", near, 0.0, 131_072.0)?;
        range("ideal_range", far, near, 131_072.0)?;
    }
    match d.kind {
        WeaponKind::Melee | WeaponKind::Hitscan if d.range <= 0.0 => {
            return Err(("range", format!("a {} weapon needs a range above 0", kind_name(d.kind))));
        }
        WeaponKind::Projectile if d.speed <= 0.0 => {
            return Err(("speed", "a projectile weapon needs a speed above 0".into()));
        }
        WeaponKind::Projectile if d.fuse_ms == 0 => {
            return Err(("fuse_ms", "a projectile weapon needs a fuse above 0 (its lifetime)".into()));
        }
        _ => {}
    }
    if (d.splash_damage > 0.0) != (d.splash_radius > 0.0) {
        return Err(("splash_radius", "splash_damage and splash_radius must both be set or both be 0".into()));
    }
    for (field, list) in [("classes", &d.classes), ("ammo_classes", &d.ammo_classes)] {
        if let Some(c) = list.iter().find(|c| c.is_empty() || c.chars().any(char::is_whitespace)) {
            return Err((field, format!("'{c}' is not a class name")));
        }
    }
    Ok(())
}

/// The largest spread: 45 degrees off the aim.
const SPREAD_MAX: f32 = super::table::SPREAD_DISTANCE;

fn kind_name(k: WeaponKind) -> &'static str {
    match k {
        WeaponKind::Melee => "melee",
        WeaponKind::Hitscan => "hitscan",
        WeaponKind::Projectile => "projectile",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: &str = "# a table\n[weapon.rail]\nnumber = 7\nkind = \"hitscan\"\ndamage = 100\ninterval_ms = 1500\nrange = 8192\nmax_ammo = 200\n\n[weapon.rocket]\nnumber = 5\nkind = \"projectile\"\ndamage = 100\ninterval_ms = 800\nspeed = 900\nfuse_ms = 15000\n";

    fn load(text: &str) -> Result<WeaponTable, WeaponTableError> {
        WeaponTable::from_toml(text, "weapons.toml")
    }

    #[test]
    fn minimal_table_loads_with_defaults() {
        let t = load(ONE).expect("valid");
        assert_eq!(t.len(), 2);
        let r = t.get(5).expect("rocket");
        assert_eq!((r.name.as_str(), r.pellets, r.ammo_use, r.knockback), ("rocket", 1, 1, true));
    }

    #[test]
    fn unknown_field_names_file_line_weapon_field() {
        let text = ONE.replace("speed = 900", "sped = 900");
        let e = load(&text).expect_err("unknown field");
        assert_eq!(e.weapon.as_deref(), Some("rocket"));
        assert_eq!(e.field.as_deref(), Some("sped"));
        assert!(e.line.is_some_and(|l| (10..=16).contains(&l)), "{e}");
        let s = e.to_string();
        assert!(s.starts_with("weapons.toml:") && s.contains("weapon 'rocket'") && s.contains("field 'sped'"), "{s}");
    }

    #[test]
    fn wrong_type_names_the_field() {
        let e = load(&ONE.replace("damage = 100\ninterval_ms = 1500", "damage = \"lots\"\ninterval_ms = 1500")).expect_err("type");
        assert_eq!((e.weapon.as_deref(), e.field.as_deref(), e.line), (Some("rail"), Some("damage"), Some(5)), "{e}");
    }

    #[test]
    fn out_of_range_names_the_field_and_its_line() {
        let e = load(&ONE.replace("speed = 900", "speed = -5")).expect_err("range");
        assert_eq!((e.weapon.as_deref(), e.field.as_deref(), e.line), (Some("rocket"), Some("speed"), Some(15)), "{e}");
        assert!(e.message.contains("out of range"), "{e}");
        let e = load(&ONE.replace("number = 7", "number = 16")).expect_err("number");
        assert_eq!(e.field.as_deref(), Some("number"));
        let e = load(&ONE.replace("number = 7", "number = 300")).expect_err("u8 overflow");
        assert_eq!((e.weapon.as_deref(), e.field.as_deref()), (Some("rail"), Some("number")), "{e}");
    }

    #[test]
    fn ideal_range_is_a_band_or_follows_from_the_kind() {
        let t = load(&ONE.replace("range = 8192\n", "range = 8192\nideal_range = [500, 4000]\n")).expect("band");
        assert_eq!(t.get(7).map(|d| d.ideal_band()), Some([500.0, 4000.0]));
        assert_eq!(t.get(5).map(|d| d.ideal_band()), Some([64.0, 450.0]), "a plain projectile: mid range");
        let e = load(&ONE.replace("range = 8192\n", "range = 8192\nideal_range = [900, 100]\n")).expect_err("far under near");
        assert_eq!((e.weapon.as_deref(), e.field.as_deref()), (Some("rail"), Some("ideal_range")), "{e}");
        assert!(e.message.contains("out of range 900..="), "{e}");
    }

    #[test]
    fn duplicates_and_missing_values_are_refused() {
        let e = load(&ONE.replace("number = 7", "number = 5")).expect_err("duplicate");
        assert_eq!(e.field.as_deref(), Some("number"));
        assert!(e.message.contains("already used"), "{e}");
        let e = load(&ONE.replace("speed = 900\n", "")).expect_err("no speed");
        assert_eq!((e.weapon.as_deref(), e.field.as_deref()), (Some("rocket"), Some("speed")));
        let e = load(&ONE.replace("damage = 100\ninterval_ms = 800", "interval_ms = 800")).expect_err("missing damage");
        assert_eq!(e.weapon.as_deref(), Some("rocket"), "{e}");
        assert_eq!(e.field.as_deref(), Some("damage"), "{e}");
        let e = load("").expect_err("empty");
        assert!(e.message.contains("no weapons"));
        let e = load("[weapons.x]\n").expect_err("unknown top-level");
        assert!(e.to_string().starts_with("weapons.toml:1:"), "{e}");
    }
}
