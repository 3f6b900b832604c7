//! Per-tick client life cycle: taking one command per slot from the input
//! queue, and spawning, respawning and removing bodies as the rules say.

use bevy_ecs::prelude::*;
use quarry_movement::Buttons;

use crate::clock::MatchClock;
use crate::components::{CurrentCmd, Life};
use crate::mode_rules::ModeRules;
use crate::rules::RulesState;
use crate::settings::Settings;
use crate::slots::{SlotId, SlotState, Slots, Team};

/// Takes this tick's command for every in-game slot: the one path from a
/// command to its player, whatever kind of client sent it.
pub(crate) fn consume_input(mut slots: ResMut<Slots>, mut cmds: Query<&mut CurrentCmd>) {
    for (_, slot) in slots.iter_mut() {
        if slot.state != SlotState::InGame {
            continue;
        }
        let Some(cmd) = slot.input.take() else { continue };
        if let Some(mut current) = slot.entity.and_then(|e| cmds.get_mut(e).ok()) {
            current.previous_buttons = current.cmd.buttons;
            current.cmd = cmd;
        }
    }
}

/// Spawns players who need a body, respawns the dead who asked (attack
/// after `g_respawnDelay`) or waited out `g_forceRespawn`, removes bodies of
/// spectators, and fills a Duel from its queue.
///
/// Exclusive (`&mut World`): each spawn picks a spot away from the players
/// already placed this tick, may telefrag, and calls the game mode's
/// handlers.
pub(crate) fn respawn_players(world: &mut World) {
    let tick = world.resource::<MatchClock>().tick;
    let clock = *world.resource::<MatchClock>();
    let settings = world.resource::<Settings>().clone();
    let respawn_all = std::mem::take(&mut world.resource_mut::<RulesState>().respawn_all);
    ModeRules::before_respawns(world);
    let delay = clock.ticks(settings.respawn_delay_s);
    let force = clock.ticks(settings.force_respawn_s);
    let plan: Vec<(SlotId, Option<Entity>, Team)> = world
        .resource::<Slots>()
        .iter()
        .filter(|(_, s)| s.state == SlotState::InGame)
        .map(|(id, s)| (id, s.entity, s.team))
        .collect();
    let allows_play = world.resource::<RulesState>().phase.allows_play();
    // E.g. a live round: nobody (re)spawns until the next.
    let hold = ModeRules::respawn_held(world);
    for (slot, entity, team) in plan {
        if team == Team::Spectator {
            if let Some(e) = entity {
                world.despawn(e);
                if let Some(s) = world.resource_mut::<Slots>().get_mut(slot) {
                    s.entity = None;
                }
            }
            continue;
        }
        let Some(e) = entity else {
            if allows_play && (respawn_all || !hold) {
                crate::spawn::spawn_player(world, slot);
            }
            continue;
        };
        if respawn_all {
            crate::spawn::spawn_player(world, slot);
            continue;
        }
        if hold {
            continue;
        }
        let Some(Life::Dead { tick: died }) = world.get::<Life>(e).copied() else { continue };
        let waited = tick.saturating_sub(died);
        let wants = world.get::<CurrentCmd>(e).is_some_and(|c| c.cmd.buttons.contains(Buttons::ATTACK));
        if allows_play && ((wants && waited >= delay) || (force > 0 && waited >= force)) {
            crate::spawn::spawn_player(world, slot);
        }
    }
}
