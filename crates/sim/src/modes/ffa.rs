//! Free-for-all deathmatch: everyone against everyone, frags score. The
//! core's defaults are its rules, so it adds nothing.

use super::ModeDef;
use crate::rules::GameType;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::Ffa, rules: |_| {}, install: |_, _| {}, check_map: |_| Ok(()) };
