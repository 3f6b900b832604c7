//! Freeze Tag: rounds ([`super::rounds`]); while a round is live a killed
//! player freezes instead of dying and teammates thaw them
//! ([`super::freeze`]); the dead are held until the next round and nobody
//! is hurt in the pause between rounds.

use bevy_ecs::prelude::*;

use super::ModeDef;
use crate::mode_rules::ModeRules;
use crate::rules::GameType;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::FreezeTag, rules, install: super::rounds::install, check_map: |_| Ok(()) };

fn rules(rules: &mut ModeRules) {
    super::rounds::rules(rules);
    rules.on_kill.push(super::freeze::on_kill);
    rules.on_spawn.push(unfreeze);
}

/// A (re)spawned player is not frozen.
fn unfreeze(world: &mut World, e: Entity) {
    if let Ok(mut e) = world.get_entity_mut(e) {
        e.remove::<super::Frozen>();
    }
}
