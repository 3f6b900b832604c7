//! Duel: two players at a time; the others wait in a queue
//! ([`crate::rules::duel_rotation`]) and the queue fills an empty place
//! before each respawn pass while play is allowed.

use bevy_ecs::prelude::*;

use super::ModeDef;
use crate::clock::MatchClock;
use crate::mode_rules::ModeRules;
use crate::rules::{GameType, RulesState, duel_rotation};
use crate::slots::Slots;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::Duel, rules, install: |_, _| {}, check_map: |_| Ok(()) };

fn rules(rules: &mut ModeRules) {
    rules.before_respawns.push(fill_from_queue);
}

/// Moves the next in the queue into play when a place is free.
fn fill_from_queue(world: &mut World) {
    if world.resource::<RulesState>().phase.allows_play() {
        let tick = world.resource::<MatchClock>().tick;
        duel_rotation(&mut world.resource_mut::<Slots>(), None, tick);
    }
}
