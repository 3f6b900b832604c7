//! Duel: two players at a time; the others wait in a queue
//! ([`crate::rules::duel_rotation`]) and the queue fills an empty place
//! before each respawn pass while play is allowed.

use bevy_ecs::prelude::*;

use super::ModeDef;
use crate::clock::MatchClock;
use crate::mode_rules::ModeRules;
use crate::rules::{GameType, RulesState, duel_rotation};
use crate::events::GameEvent;
use crate::slots::{Slots, Team};

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::Duel, rules, install: |_, _| {}, check_map: |_| Ok(()) };

fn rules(rules: &mut ModeRules) {
    rules.before_respawns.push(fill_from_queue);
}

/// Moves the next in the queue into play when a place is free; each one
/// that comes in is a team change the server made (the game log's
/// `team_change`, the players' notice).
fn fill_from_queue(world: &mut World) {
    if world.resource::<RulesState>().phase.allows_play() {
        let tick = world.resource::<MatchClock>().tick;
        let entered = duel_rotation(&mut world.resource_mut::<Slots>(), None, tick);
        for slot in entered {
            world.write_message(GameEvent::TeamChanged { slot, from: Team::Spectator, to: Team::Free, forced: true });
        }
    }
}
