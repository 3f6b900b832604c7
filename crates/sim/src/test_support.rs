//! Helpers for the sim's own integration tests (feature `test-support`):
//! they reach into the match in ways nothing else may.

use bevy_ecs::prelude::*;

use crate::events::MeansOfDeath;
use crate::slots::SlotId;

/// Kills a living player as the damage system does when health runs out.
pub fn kill(world: &mut World, victim: SlotId, killer: Option<SlotId>, means: MeansOfDeath, tick: u32) {
    crate::combat::kill(world, victim, killer, means, tick);
}
