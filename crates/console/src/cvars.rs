//! The set of registered cvars, plus values given for cvars nobody has
//! registered yet ("pending" values).
//!
//! Pending values fix a known failure of the reference design: a `+set` on
//! the command line, or a `set` in a config, for a cvar that some crate
//! registers *later* must not be lost. Here such a value waits in `pending`
//! and is applied, through the same validation as any `set`, the moment the
//! cvar is registered.

use std::collections::BTreeMap;

use crate::cvar::{Cvar, CvarDef, CvarFlags, CvarValue};
use crate::error::CvarError;

/// A cheap handle to a registered cvar, for reading it every tick without a
/// name lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CvarId(usize);

/// A value set for a cvar that is not registered (yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingValue {
    /// The value as typed.
    pub value: String,
    /// Whether it was set with `seta` (and so belongs in the archive file).
    pub archive: bool,
    /// Where it came from, e.g. `command line` or `server.cfg:12`.
    pub origin: String,
}

/// What a successful set did.
#[derive(Debug, Clone, PartialEq)]
pub enum SetOutcome {
    /// The value changed.
    Changed,
    /// The value was already that.
    Unchanged,
    /// A latched cvar: the value takes effect at the next map change.
    Latched,
    /// Nobody registered the cvar yet; the value waits for its registration.
    Pending,
}

/// How a set is allowed to behave.
#[derive(Debug, Clone, Copy, Default)]
pub struct SetMode {
    /// Keep values for unregistered cvars as pending instead of refusing them.
    pub allow_pending: bool,
    /// Mark the cvar archived (`seta`).
    pub archive: bool,
}

/// All registered cvars and the pending values.
#[derive(Debug, Default)]
pub struct CvarSet {
    cvars: Vec<Cvar>,
    by_name: BTreeMap<String, usize>,
    pending: BTreeMap<String, PendingValue>,
    cheats_allowed: bool,
    warnings: Vec<String>,
    generation: u64,
    archive_generation: u64,
}

fn key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Whether `name` can be a cvar or command name.
pub(crate) fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

impl CvarSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a cvar. A pending value for it is applied now, with the same
    /// validation as a `set`; a pending value that fails validation is dropped
    /// with a warning (see [`CvarSet::take_warnings`]) and the default stays.
    pub fn register(&mut self, def: CvarDef) -> Result<CvarId, CvarError> {
        if !valid_name(&def.name) {
            return Err(CvarError::InvalidName { name: def.name });
        }
        let k = key(&def.name);
        if self.by_name.contains_key(&k) {
            return Err(CvarError::AlreadyRegistered { name: def.name });
        }
        let default = def
            .parse(&def.default)
            .map_err(|e| CvarError::BadDefinition { name: def.name.clone(), reason: e.to_string() })?;
        let index = self.cvars.len();
        self.cvars.push(Cvar {
            def,
            value: default.clone(),
            default,
            latched: None,
            modified: 0,
            archive_requested: false,
            archive_as: None,
        });
        self.by_name.insert(k.clone(), index);
        self.generation += 1;
        let id = CvarId(index);
        let pending = self.pending.remove(&k);
        if pending.as_ref().is_some_and(|p| p.archive) || self.cvars[index].is_archived() {
            self.archive_generation += 1;
        }
        if let Some(p) = pending {
            let cvar = &mut self.cvars[index];
            match cvar.def.parse(&p.value) {
                Ok(v) => {
                    cvar.value = v;
                    cvar.modified += 1;
                    cvar.archive_requested |= p.archive;
                }
                Err(e) => self.warnings.push(format!("{} (value from {} ignored, default kept)", e, p.origin)),
            }
        }
        Ok(id)
    }

    /// Warnings produced by registrations since the last call.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The handle of a registered cvar (names are case-insensitive).
    pub fn id(&self, name: &str) -> Option<CvarId> {
        self.by_name.get(&key(name)).map(|&i| CvarId(i))
    }

    /// The cvar behind a handle.
    pub fn get(&self, id: CvarId) -> &Cvar {
        // Handles are only made by this set and cvars are never removed.
        &self.cvars[id.0]
    }

    /// A cvar by name.
    pub fn find(&self, name: &str) -> Option<&Cvar> {
        self.id(name).map(|id| self.get(id))
    }

    /// The value as a bool.
    pub fn bool(&self, id: CvarId) -> bool {
        self.get(id).value.as_bool()
    }

    /// The value as an integer.
    pub fn int(&self, id: CvarId) -> i64 {
        self.get(id).value.as_int()
    }

    /// The value as a float.
    pub fn float(&self, id: CvarId) -> f64 {
        self.get(id).value.as_float()
    }

    /// The value as text.
    pub fn string(&self, id: CvarId) -> String {
        self.get(id).value.to_string()
    }

    /// Whether cheat-protected cvars may be set.
    pub fn set_cheats_allowed(&mut self, allowed: bool) {
        self.cheats_allowed = allowed;
    }

    /// Sets a cvar by name, as the console does: read-only and cheat cvars
    /// are refused, latched ones wait for [`CvarSet::apply_latched`].
    pub fn set(&mut self, name: &str, text: &str, mode: SetMode, origin: &str) -> Result<SetOutcome, CvarError> {
        let Some(id) = self.id(name) else {
            if !mode.allow_pending {
                return Err(CvarError::Unknown { name: name.to_owned() });
            }
            if !valid_name(name) {
                return Err(CvarError::InvalidName { name: name.to_owned() });
            }
            if text.chars().any(|c| c == '"' || c.is_control()) {
                return Err(CvarError::BadCharacters { name: name.to_owned() });
            }
            let archive = mode.archive || self.pending.get(&key(name)).is_some_and(|p| p.archive);
            if archive {
                self.archive_generation += 1;
            }
            self.pending
                .insert(key(name), PendingValue { value: text.to_owned(), archive, origin: origin.to_owned() });
            return Ok(SetOutcome::Pending);
        };
        let cheats_allowed = self.cheats_allowed;
        let cvar = &mut self.cvars[id.0];
        let flags = cvar.def.flags;
        // Set again on purpose: the archive follows the value from now on.
        if cvar.archive_as.take().is_some() && cvar.is_archived() {
            self.archive_generation += 1;
        }
        let cvar = &mut self.cvars[id.0];
        if flags.contains(CvarFlags::READ_ONLY) {
            return Err(CvarError::ReadOnly { name: cvar.def.name.clone() });
        }
        if flags.contains(CvarFlags::CHEAT) && !cheats_allowed {
            return Err(CvarError::Cheat { name: cvar.def.name.clone() });
        }
        let value = cvar.def.parse(text)?;
        let newly_archived = mode.archive && !cvar.is_archived();
        cvar.archive_requested |= mode.archive;
        if newly_archived {
            self.archive_generation += 1;
        }
        let cvar = &mut self.cvars[id.0];
        if flags.contains(CvarFlags::LATCHED) {
            if value == cvar.value {
                cvar.latched = None;
                return Ok(SetOutcome::Unchanged);
            }
            cvar.latched = Some(value);
            return Ok(SetOutcome::Latched);
        }
        let outcome = Self::store(cvar, value);
        self.bump(id, &outcome);
        Ok(outcome)
    }

    /// Makes the archive keep `text` for the cvar `name` instead of its
    /// current value, until the cvar is set again: for one-off values (the
    /// command line's `+set`), which apply to this run only. Unknown names
    /// and values the cvar cannot hold are ignored.
    pub fn keep_archived(&mut self, name: &str, text: &str) {
        let Some(id) = self.id(name) else { return };
        let cvar = &mut self.cvars[id.0];
        let Ok(value) = cvar.def.parse(text) else { return };
        if cvar.value != value || cvar.latched.is_some() {
            cvar.archive_as = Some(value);
            self.archive_generation += 1;
        }
    }

    fn bump(&mut self, id: CvarId, outcome: &SetOutcome) {
        if *outcome == SetOutcome::Changed {
            self.generation += 1;
            if self.cvars[id.0].is_archived() {
                self.archive_generation += 1;
            }
        }
    }

    /// Sets a cvar from code, bypassing read-only, cheat and latch rules (but
    /// not type and range): for values the server itself owns, like `version`.
    pub fn force_set(&mut self, id: CvarId, text: &str) -> Result<SetOutcome, CvarError> {
        let cvar = &mut self.cvars[id.0];
        let value = cvar.def.parse(text)?;
        cvar.latched = None;
        let outcome = Self::store(cvar, value);
        self.bump(id, &outcome);
        Ok(outcome)
    }

    fn store(cvar: &mut Cvar, value: CvarValue) -> SetOutcome {
        if value == cvar.value {
            return SetOutcome::Unchanged;
        }
        cvar.value = value;
        cvar.modified += 1;
        SetOutcome::Changed
    }

    /// A counter that changes whenever any registered cvar's value changes
    /// (or a cvar is registered): compare with a remembered value to know
    /// whether settings derived from cvars need re-reading.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// A counter that changes whenever the archive file's text may have
    /// changed: an archived cvar's value, a cvar newly archived by `seta`,
    /// an archived pending value, or a registration that moves one. Reading
    /// it is free, so a host can check it every tick and write the archive
    /// only after it moved (see [`archive_text`](crate::archive_text)).
    pub fn archive_generation(&self) -> u64 {
        self.archive_generation
    }

    /// Puts a cvar back to its default (same rules as [`CvarSet::set`]).
    pub fn reset(&mut self, name: &str) -> Result<SetOutcome, CvarError> {
        let Some(cvar) = self.find(name) else {
            return Err(CvarError::Unknown { name: name.to_owned() });
        };
        let default = cvar.def.default.clone();
        self.set(name, &default, SetMode::default(), "reset")
    }

    /// Applies every latched value; returns the names that changed. Called by
    /// the host at a map change.
    pub fn apply_latched(&mut self) -> Vec<String> {
        let mut changed = Vec::new();
        for cvar in &mut self.cvars {
            if let Some(v) = cvar.latched.take()
                && Self::store(cvar, v) == SetOutcome::Changed
            {
                changed.push(cvar.def.name.clone());
                if cvar.is_archived() {
                    self.archive_generation += 1;
                }
            }
        }
        self.generation += changed.len() as u64;
        changed
    }

    /// Registered cvars sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &Cvar> {
        self.by_name.values().map(|&i| &self.cvars[i])
    }

    /// Pending values sorted by name.
    pub fn pending(&self) -> impl Iterator<Item = (&str, &PendingValue)> {
        self.pending.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Registered names starting with `prefix` (case-insensitive), sorted.
    pub fn names_with_prefix(&self, prefix: &str) -> Vec<String> {
        let p = key(prefix);
        self.by_name
            .range(p.clone()..)
            .take_while(|(k, _)| k.starts_with(&p))
            .map(|(_, &i)| self.cvars[i].def.name.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &mut CvarSet, n: &str, v: &str) -> Result<SetOutcome, CvarError> {
        s.set(n, v, SetMode::default(), "test")
    }

    #[test]
    fn pending_value_applies_on_registration() {
        let mut s = CvarSet::new();
        let mode = SetMode { allow_pending: true, archive: false };
        assert_eq!(s.set("late_cvar", "5", mode, "command line"), Ok(SetOutcome::Pending));
        let id = s.register(CvarDef::int("late_cvar", 1, 0, 10, "")).expect("register");
        assert_eq!(s.int(id), 5);
        assert_eq!(s.pending().count(), 0);
    }

    #[test]
    fn invalid_pending_value_warns_and_keeps_default() {
        let mut s = CvarSet::new();
        let mode = SetMode { allow_pending: true, archive: false };
        s.set("late", "99", mode, "server.cfg:3").expect("pending");
        let id = s.register(CvarDef::int("late", 1, 0, 10, "")).expect("register");
        assert_eq!(s.int(id), 1);
        let w = s.take_warnings();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("server.cfg:3") && w[0].contains("0..=10"), "{w:?}");
    }

    #[test]
    fn unknown_cvar_refused_without_pending_mode() {
        let mut s = CvarSet::new();
        assert_eq!(set(&mut s, "nope", "1"), Err(CvarError::Unknown { name: "nope".into() }));
        assert_eq!(s.pending().count(), 0);
    }

    #[test]
    fn refused_set_changes_nothing() {
        let mut s = CvarSet::new();
        let id = s.register(CvarDef::int("sv_fps", 60, 10, 1000, "")).expect("register");
        assert!(set(&mut s, "sv_fps", "5000").is_err());
        assert!(set(&mut s, "sv_fps", "fast").is_err());
        assert_eq!(s.int(id), 60);
        assert_eq!(s.get(id).modification_count(), 0);
    }

    #[test]
    fn names_are_case_insensitive() {
        let mut s = CvarSet::new();
        let id = s.register(CvarDef::int("sv_FPS", 60, 10, 1000, "")).expect("register");
        set(&mut s, "SV_fps", "30").expect("set");
        assert_eq!(s.int(id), 30);
        assert!(s.register(CvarDef::int("sv_fps", 1, 0, 2, "")).is_err());
    }

    #[test]
    fn read_only_and_cheat_flags() {
        let mut s = CvarSet::new();
        let ro = s.register(CvarDef::string("version", "1", "").flags(CvarFlags::READ_ONLY)).expect("r");
        assert_eq!(set(&mut s, "version", "2"), Err(CvarError::ReadOnly { name: "version".into() }));
        assert_eq!(s.force_set(ro, "2"), Ok(SetOutcome::Changed));
        s.register(CvarDef::bool("god", false, "").flags(CvarFlags::CHEAT)).expect("c");
        assert!(matches!(set(&mut s, "god", "1"), Err(CvarError::Cheat { .. })));
        s.set_cheats_allowed(true);
        assert_eq!(set(&mut s, "god", "1"), Ok(SetOutcome::Changed));
    }

    #[test]
    fn latched_waits_for_map_change() {
        let mut s = CvarSet::new();
        let id = s.register(CvarDef::int("sv_maxclients", 16, 1, 64, "").flags(CvarFlags::LATCHED)).expect("r");
        assert_eq!(set(&mut s, "sv_maxclients", "32"), Ok(SetOutcome::Latched));
        assert_eq!(s.int(id), 16);
        assert_eq!(s.apply_latched(), vec!["sv_maxclients".to_owned()]);
        assert_eq!(s.int(id), 32);
    }

    #[test]
    fn generation_moves_on_every_change_only() {
        let mut s = CvarSet::new();
        s.register(CvarDef::int("a", 1, 0, 10, "")).expect("r");
        let g = s.generation();
        set(&mut s, "a", "1").expect("same");
        assert_eq!(s.generation(), g);
        set(&mut s, "a", "2").expect("set");
        assert!(s.generation() > g);
    }

    #[test]
    fn archive_generation_moves_on_archived_changes_only() {
        let mut s = CvarSet::new();
        s.register(CvarDef::int("plain", 1, 0, 10, "")).expect("r");
        s.register(CvarDef::int("kept", 1, 0, 10, "").flags(CvarFlags::ARCHIVE)).expect("r");
        let g = s.archive_generation();
        set(&mut s, "plain", "2").expect("set");
        assert_eq!(s.archive_generation(), g, "a plain cvar is not in the archive");
        set(&mut s, "kept", "3").expect("set");
        let g2 = s.archive_generation();
        assert!(g2 > g);
        set(&mut s, "kept", "3").expect("same");
        assert_eq!(s.archive_generation(), g2, "an unchanged value changes nothing");
        s.set("plain", "2", SetMode { allow_pending: false, archive: true }, "seta").expect("seta");
        let g3 = s.archive_generation();
        assert!(g3 > g2, "seta of the same value still adds the cvar to the archive");
        s.set("later", "x", SetMode { allow_pending: true, archive: true }, "seta").expect("pending");
        assert!(s.archive_generation() > g3);
    }

    #[test]
    fn reset_restores_default() {
        let mut s = CvarSet::new();
        let id = s.register(CvarDef::float("g_gravity", 800.0, 0.0, 5000.0, "")).expect("r");
        set(&mut s, "g_gravity", "100").expect("set");
        s.reset("g_gravity").expect("reset");
        assert_eq!(s.float(id), 800.0);
    }

    #[test]
    fn bad_definition_and_name_are_errors_not_panics() {
        let mut s = CvarSet::new();
        assert!(matches!(s.register(CvarDef::int("x", 50, 0, 10, "")), Err(CvarError::BadDefinition { .. })));
        assert!(matches!(s.register(CvarDef::int("a b", 1, 0, 10, "")), Err(CvarError::InvalidName { .. })));
    }

    #[test]
    fn prefix_listing_is_sorted() {
        let mut s = CvarSet::new();
        for n in ["sv_b", "g_x", "sv_a", "svz"] {
            s.register(CvarDef::bool(n, false, "")).expect("r");
        }
        assert_eq!(s.names_with_prefix("sv_"), vec!["sv_a", "sv_b"]);
    }
}
