//! The game modes, one module per game type, and the features they share.
//!
//! Each game type's module (`ffa`, `duel`, `tdm`, `ctf`, `one_flag`,
//! `freeze_tag`, `clan_arena`) defines a `MODE`: the rules it sets for
//! the core ([`ModeRules`]: loadout, spawn health and armor, items, armor
//! decay, damage filters, held respawns, and its handlers for deaths and
//! spawns), what it adds to a match (resources, entities, systems), and
//! what it needs of a map. `MODES` (in this file) is the registry; nothing else in the
//! crate names a mode.
//!
//! Shared features: the rounds of Freeze Tag and Clan Arena ([`rounds`]),
//! freezing and thawing ([`freeze`]), the flags of CTF and One Flag
//! ([`flags`]), the duel queue ([`crate::rules::duel_rotation`]), and
//! the per-team counts the server prints ([`stats`]). What clients and
//! bots may see of a mode's state is built in [`view`].
//!
//! What it must not do: read the clock or any RNG but the seeded one, or
//! look at what kind of client a player is.

mod clan_arena;
mod ctf;
mod duel;
mod ffa;
pub mod flags;
pub mod freeze;
mod freeze_tag;
mod one_flag;
pub mod rounds;
pub mod stats;
mod tdm;
pub mod view;

use bevy_ecs::prelude::*;
use quarry_map::LoadedMap;

pub use freeze::Frozen;
pub use rounds::{RoundEndReason, RoundState};
pub use stats::{ModeStats, TeamModeStats};

use crate::mode_rules::ModeRules;
use crate::rules::GameType;

/// One game mode: what it decides for the core, what it adds to a match,
/// and what it needs of a map. Each mode's module defines one, named `MODE`.
pub(crate) struct ModeDef {
    /// The game type it plays.
    pub(crate) gametype: GameType,
    /// Fills the rules the core follows (starting from free-for-all's).
    pub(crate) rules: fn(&mut ModeRules),
    /// Adds the mode's resources, entities and systems to a new match.
    pub(crate) install: fn(&mut World, &mut Schedule),
    /// Whether a map can host the mode; the error says what is missing.
    pub(crate) check_map: fn(&LoadedMap) -> Result<(), String>,
}

/// Every game mode. Adding one: write its module in this directory with a
/// `MODE`, add the game type to [`GameType`], and list the module here.
const MODES: [ModeDef; 7] = [ffa::MODE, duel::MODE, tdm::MODE, ctf::MODE, one_flag::MODE, freeze_tag::MODE, clan_arena::MODE];

fn mode(gametype: GameType) -> &'static ModeDef {
    MODES.iter().find(|m| m.gametype == gametype).unwrap_or(&MODES[0])
}

/// The rules the core follows in a match of `gametype`.
pub(crate) fn rules_for(gametype: GameType) -> ModeRules {
    let mut rules = ModeRules::default();
    (mode(gametype).rules)(&mut rules);
    rules
}

/// Whether `map` can host `gametype` beyond being playable.
pub(crate) fn check_map(map: &LoadedMap, gametype: GameType) -> Result<(), String> {
    (mode(gametype).check_map)(map)
}

/// Adds the mode statistics (every game type) and the game type's own
/// resources and systems to a new match.
pub(crate) fn install(world: &mut World, schedule: &mut Schedule) {
    let gametype = world.resource::<crate::rules::RulesState>().gametype;
    world.insert_resource(ModeStats::default());
    (mode(gametype).install)(world, schedule);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_type_has_exactly_one_mode() {
        for name in GameType::NAMES {
            let gametype = GameType::parse(name).expect("listed names parse");
            assert_eq!(MODES.iter().filter(|m| m.gametype == gametype).count(), 1, "{name}");
        }
    }
}
