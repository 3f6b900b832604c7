//! The round-based game types and the statistics of every mode:
//! rounds (Freeze Tag, Clan Arena) in [`rounds`], freezing and thawing in
//! [`freeze`], Clan Arena's loadout and damage rules in [`clan_arena`], and
//! the per-team counts the server prints in [`stats`]. CTF's and One Flag's
//! flags live in [`crate::flags`].
//!
//! What it must not do: read the clock or any RNG but the seeded one, or
//! look at what kind of client a player is.

pub mod clan_arena;
pub mod freeze;
pub mod rounds;
pub mod stats;

use bevy_ecs::prelude::*;

pub use freeze::Frozen;
pub use rounds::{RoundEndReason, RoundState};
pub use stats::{ModeStats, TeamModeStats};

use crate::rules::RulesState;
use crate::schedule::{HashSystems, SimSystems};

/// Adds the mode statistics (every game type) and, for Freeze Tag and Clan
/// Arena, the round and thaw systems to a new match.
pub fn install(world: &mut World, schedule: &mut Schedule) {
    world.insert_resource(ModeStats::default());
    if !world.resource::<RulesState>().gametype.is_round_based() {
        return;
    }
    world.insert_resource(RoundState::default());
    schedule.add_systems(
        (freeze::update_thaw, rounds::update_rounds).chain().in_set(SimSystems::Rules).after(crate::rules::update_phase),
    );
    schedule.add_systems((rounds::hash_rounds, freeze::hash_frozen).chain().in_set(HashSystems::Modes));
}
