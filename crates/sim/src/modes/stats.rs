//! [`ModeStats`]: what the objective modes counted this match, per team,
//! for the server's match summary (rounds and how they ended, thaws,
//! captures and returns). Counted only while the match is live.

use bevy_ecs::prelude::*;

use crate::slots::Team;

/// One team's objective counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct TeamModeStats {
    /// Rounds won (Freeze Tag, Clan Arena).
    pub rounds_won: u32,
    /// Its frozen players thawed by a teammate (Freeze Tag).
    pub thaws: u32,
    /// Its players frozen (Freeze Tag).
    pub freezes: u32,
    /// Flags captured (CTF, One Flag).
    pub captures: u32,
    /// Own flags returned by touch (CTF).
    pub returns: u32,
}

/// The objective statistics of a match; read through
/// [`Match::mode_stats`](crate::Match::mode_stats).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ModeStats {
    /// Rounds that ended (won or drawn).
    pub rounds_played: u32,
    /// Rounds that ended because a whole team was down.
    pub rounds_by_elimination: u32,
    /// Rounds that ended on `g_roundTimeLimit`.
    pub rounds_by_timeout: u32,
    /// Rounds nobody won.
    pub rounds_drawn: u32,
    /// Frozen players who thawed by `g_autoThawTime`.
    pub auto_thaws: u32,
    /// Dropped flags that went home by `g_flagReturnTime`.
    pub flag_timeouts: u32,
    /// Red's counts.
    pub red: TeamModeStats,
    /// Blue's counts.
    pub blue: TeamModeStats,
}

impl ModeStats {
    /// The counts of `team` (red or blue).
    pub fn team(&self, team: Team) -> Option<&TeamModeStats> {
        match team {
            Team::Red => Some(&self.red),
            Team::Blue => Some(&self.blue),
            _ => None,
        }
    }

    /// The counts of `team`, mutably.
    pub fn team_mut(&mut self, team: Team) -> Option<&mut TeamModeStats> {
        match team {
            Team::Red => Some(&mut self.red),
            Team::Blue => Some(&mut self.blue),
            _ => None,
        }
    }

    /// Thaws by teammates, both teams.
    pub fn thaws(&self) -> u32 {
        self.red.thaws + self.blue.thaws
    }

    /// Captures, both teams.
    pub fn captures(&self) -> u32 {
        self.red.captures + self.blue.captures
    }

    /// Returns by touch, both teams.
    pub fn returns(&self) -> u32 {
        self.red.returns + self.blue.returns
    }
}

/// Adds one to `team`'s counter chosen by `field`, if the world counts stats.
pub(crate) fn bump(world: &mut World, team: Team, field: fn(&mut TeamModeStats) -> &mut u32) {
    if let Some(mut stats) = world.get_resource_mut::<ModeStats>()
        && let Some(t) = stats.team_mut(team)
    {
        *field(t) += 1;
    }
}
