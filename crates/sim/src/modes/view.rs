//! [`ModeState`]: the objective state of the running game type, read from
//! outside the simulation: flags and bases (CTF, One Flag), frozen players
//! (Freeze Tag), rounds (Freeze Tag, Clan Arena).
//!
//! One read-only picture serves every observer: the network layer sends it
//! to remote clients, bots plan their objectives from it, the server prints
//! it. It is rebuilt on request from the world and never written back.

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::clock::MatchClock;
use crate::components::Player;
use crate::modes::flags::{Flag, FlagBases, FlagState};
use crate::modes::{Frozen, RoundState};
use crate::settings::Settings;
use crate::rules::{GameType, RulesState};
use crate::slots::{SlotId, Slots, Team};

/// Where a flag is, as observers see it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub enum FlagStatus {
    /// At its base.
    Home,
    /// Carried by a player.
    Carried {
        /// The carrier.
        by: SlotId,
    },
    /// Lying in the field.
    Dropped {
        /// Tick it returns home by itself.
        returns_at: u32,
    },
}

/// One flag of the match.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FlagInfo {
    /// Whose flag: red or blue in CTF; [`Team::Free`] for One Flag's
    /// neutral flag.
    pub team: Team,
    /// Its base (where it returns to).
    pub home: Vec3,
    /// Where it is now (follows its carrier; where it lies when dropped).
    pub origin: Vec3,
    /// Home, carried or dropped.
    pub status: FlagStatus,
}

/// A frozen player (Freeze Tag).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FrozenInfo {
    /// Who.
    pub slot: SlotId,
    /// Their team.
    pub team: Team,
    /// Where the frozen body stands.
    pub origin: Vec3,
    /// Thaw progress, 0 (just frozen) to 1 (free).
    pub thaw: f32,
}

/// Round state (Freeze Tag, Clan Arena).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RoundInfo {
    /// Round number, from 1.
    pub number: u32,
    /// Whether the round is being fought (false between rounds).
    pub live: bool,
    /// Tick the current (or last) round started.
    pub started_at: u32,
    /// Tick the round (or the pause before it) ends by time, if it has a limit.
    pub ends_at: Option<u32>,
    /// Players still standing (alive and not frozen): (red, blue).
    pub standing: (u32, u32),
    /// Rounds won: (red, blue).
    pub wins: (u32, u32),
}

/// The objective state of the running game type.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ModeState {
    /// The game type.
    pub gametype: GameType,
    /// Flags (CTF: red and blue; One Flag: the neutral one); empty otherwise.
    pub flags: Vec<FlagInfo>,
    /// Each team's base, where it scores (CTF: its flag stand; One Flag: the
    /// base it brings the neutral flag to is the *enemy's*); empty otherwise.
    pub bases: Vec<(Team, Vec3)>,
    /// Frozen players (Freeze Tag), by slot; empty otherwise.
    pub frozen: Vec<FrozenInfo>,
    /// Round state of round-based types.
    pub round: Option<RoundInfo>,
}

impl ModeState {
    /// The flag of `team` (CTF), or the neutral flag for [`Team::Free`].
    pub fn flag(&self, team: Team) -> Option<&FlagInfo> {
        self.flags.iter().find(|f| f.team == team)
    }

    /// The base of `team`.
    pub fn base(&self, team: Team) -> Option<Vec3> {
        self.bases.iter().find(|b| b.0 == team).map(|b| b.1)
    }

    /// The flag `slot` carries, if any.
    pub fn carried_by(&self, slot: SlotId) -> Option<&FlagInfo> {
        self.flags.iter().find(|f| f.status == FlagStatus::Carried { by: slot })
    }

    /// Whether `slot` is frozen.
    pub fn is_frozen(&self, slot: SlotId) -> bool {
        self.frozen.iter().any(|f| f.slot == slot)
    }
}

/// Builds the mode state from the world.
pub(crate) fn mode_state(world: &World) -> ModeState {
    let gametype = world.resource::<RulesState>().gametype;
    let mut flags = Vec::new();
    // `None` when no flag was ever spawned (the component is unregistered).
    let flag_query = world.try_query::<&Flag>();
    for f in flag_query.iter().flat_map(|q| q.iter_manual(world)) {
        let status = match f.state {
            FlagState::Home => FlagStatus::Home,
            FlagState::Carried(by) => FlagStatus::Carried { by },
            FlagState::Dropped { return_at } => FlagStatus::Dropped { returns_at: return_at },
        };
        flags.push(FlagInfo { team: f.team, home: f.base, origin: f.origin, status });
    }
    flags.sort_by_key(|f| f.team);
    let bases = world.get_resource::<FlagBases>().map(|b| b.0.clone()).unwrap_or_default();
    let (settings, clock) = (world.resource::<Settings>(), world.resource::<MatchClock>());
    let need = crate::modes::freeze::thaw_ticks(settings, clock);
    let slots = world.resource::<Slots>();
    let mut frozen = Vec::new();
    let frozen_query = world.try_query::<(&Player, &crate::components::Body, &Frozen)>();
    for (p, body, f) in frozen_query.iter().flat_map(|q| q.iter_manual(world)) {
        let team = slots.get(p.slot).map_or(Team::Free, |s| s.team);
        frozen.push(FrozenInfo { slot: p.slot, team, origin: body.0.origin, thaw: f.share(need) });
    }
    frozen.sort_by_key(|f| f.slot);
    let round = world.get_resource::<RoundState>().map(|r| {
        let t = crate::modes::rounds::tally(world);
        RoundInfo {
            number: r.number,
            live: r.live,
            started_at: r.started_at,
            ends_at: crate::modes::rounds::round_ends_at(r, settings, clock),
            standing: t.standing,
            wins: r.wins,
        }
    });
    ModeState { gametype, flags, bases, frozen, round }
}
