//! One Flag CTF's touches (Quake 3 Team Arena `g_team.c`, one-flag rules):
//! the neutral flag belongs to nobody, so any player takes it by touch at
//! its stand or where it lies; no touch returns it (only
//! `g_flagReturnTime` does); its carrier captures by touching the enemy
//! team's base (the enemy team flag's stand).

use bevy_ecs::prelude::*;
use glam::Vec3;

use super::{CarriesFlag, Flag, FlagBases, FlagEventKind, FlagState, capture, other, overlaps, send_home};
use crate::clock::MatchClock;
use crate::components::NetId;
use crate::events::GameEvent;
use crate::rules::Phase;
use crate::slots::{SlotId, Team};

/// A living red or blue player touching things this tick.
pub(super) struct Toucher {
    /// Its slot.
    pub slot: SlotId,
    /// Its body.
    pub body: Entity,
    /// Where it stands.
    pub origin: Vec3,
    /// Its team (red or blue).
    pub team: Team,
}

/// One player's touches of the neutral flag and the enemy base.
pub(super) fn touch(world: &mut World, flags: &[(NetId, Entity)], who: Toucher, phase: Phase, clock: MatchClock) {
    let Toucher { slot, body, origin, team } = who;
    let enemy_base = world.resource::<FlagBases>().base(other(team));
    for (_, e) in flags {
        let Some(flag) = world.get::<Flag>(*e).copied() else { continue };
        let carrying = world.get::<CarriesFlag>(body).copied();
        match flag.state {
            FlagState::Carried(by) if by == slot => {
                if carrying == Some(CarriesFlag(Team::Free)) && enemy_base.is_some_and(|b| overlaps(origin, b)) {
                    send_home(world, *e);
                    capture(world, slot, team, Team::Free, clock.tick, phase.counts(), clock);
                }
            }
            FlagState::Carried(_) => {}
            FlagState::Home | FlagState::Dropped { .. } => {
                if carrying.is_none() && overlaps(origin, flag.origin) && flag.takeable_by(slot, clock.tick) {
                    if let Some(mut f) = world.get_mut::<Flag>(*e) {
                        f.state = FlagState::Carried(slot);
                        f.origin = origin;
                        f.held_off = None;
                    }
                    world.entity_mut(body).insert(CarriesFlag(flag.team));
                    world.write_message(GameEvent::Flag { kind: FlagEventKind::Taken, team: flag.team, slot: Some(slot) });
                }
            }
        }
    }
}
