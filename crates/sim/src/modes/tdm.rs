//! Team deathmatch: two teams, frags score for the team (see
//! [`crate::rules`] for teams and the match phases). The core's defaults are
//! its rules, so it adds nothing.

use super::ModeDef;
use crate::rules::GameType;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::Tdm, rules: |_| {}, install: |_, _| {}, check_map: |_| Ok(()) };
