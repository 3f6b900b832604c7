//! Rounds, for Freeze Tag and Clan Arena.
//!
//! Time contract: the first round starts on the tick the match goes live;
//! everyone respawns at the next tick's spawn step. While a round is live,
//! the dead (Clan Arena) and the frozen (Freeze Tag) do not respawn, and a
//! player who joins or switches team sits out until the next round. A round
//! ends when every player of a team is down (dead or frozen): the other
//! team wins the round (+1 team score). With `g_roundTimeLimit` set, a
//! round that runs out is a timeout: the team with more players standing
//! wins; in Clan Arena a tie goes to the team with more total health; else
//! it is a draw. After `g_roundPause` seconds the next round starts with
//! everyone unfrozen and respawned. A live round in which a team has
//! members but none of them is taking part (all joined or were moved there
//! mid-round, or play went live before anyone joined) is started again at
//! once with everyone, unscored. `roundlimit` ends the match (see
//! [`crate::rules`]).

use bevy_ecs::prelude::*;

use crate::clock::MatchClock;
use crate::components::{Health, Life};
use crate::events::GameEvent;
use crate::hash::TickHash;
use crate::rules::{GameType, Phase, RulesState};
use crate::settings::Settings;
use crate::slots::{SlotState, Slots, Team};

pub use crate::events::RoundEndReason;

/// The line players read when a round ends, e.g. "Red wins round 3 (elimination)."
pub fn round_end_line(number: u32, winner: Option<Team>, reason: RoundEndReason) -> String {
    match winner {
        Some(t) => {
            let name = t.name();
            let mut c = name.chars();
            let cap: String = c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default();
            format!("{cap} wins round {number} ({}).", reason.name())
        }
        None => format!("Round {number} is a draw ({}).", reason.name()),
    }
}

/// The round cycle of the match.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundState {
    /// The current (or last) round, from 1; 0 before the first.
    pub number: u32,
    /// Whether a round is being fought.
    pub live: bool,
    /// Tick the current round started.
    pub started_at: u32,
    /// Between rounds: tick the next one starts.
    pub next_at: Option<u32>,
    /// Rounds won: (red, blue).
    pub wins: (u32, u32),
    /// The tick play went live that the rounds were started for.
    pub started_for: Option<u32>,
}

/// Red and blue players taking part in the round, standing, and their
/// total health: `(members, standing, health)` per team.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Players on each team in the game (red, blue).
    pub members: (u32, u32),
    /// Members taking part in the round: with a body, alive or not (red, blue).
    pub participants: (u32, u32),
    /// Players alive and not frozen (red, blue).
    pub standing: (u32, u32),
    /// Health of the standing players (red, blue).
    pub health: (i32, i32),
}

/// Counts who is standing on each team.
pub fn tally(world: &World) -> Tally {
    let mut t = Tally::default();
    for (_, s) in world.resource::<Slots>().iter() {
        if s.state != SlotState::InGame {
            continue;
        }
        let (members, participants, standing, health) = match s.team {
            Team::Red => (&mut t.members.0, &mut t.participants.0, &mut t.standing.0, &mut t.health.0),
            Team::Blue => (&mut t.members.1, &mut t.participants.1, &mut t.standing.1, &mut t.health.1),
            _ => continue,
        };
        *members += 1;
        let Some(e) = s.entity else { continue };
        *participants += 1;
        if world.get::<Life>(e) == Some(&Life::Alive) && world.get::<super::Frozen>(e).is_none() {
            *standing += 1;
            *health += world.get::<Health>(e).map_or(0, |h| h.hp.max(0));
        }
    }
    t
}

/// The rules every round-based mode shares: the dead are held while a
/// round is live, and nobody is hurt in the pause between rounds.
pub(super) fn rules(rules: &mut crate::mode_rules::ModeRules) {
    rules.respawn_held.push(holds_respawn);
    rules.damage_off.push(between_rounds);
}

/// Adds the round state, the round and thaw systems and their hashes to a
/// new match of a round-based mode.
pub(super) fn install(world: &mut World, schedule: &mut Schedule) {
    world.insert_resource(RoundState::default());
    schedule.add_systems(
        (super::freeze::update_thaw, update_rounds).chain().in_set(crate::schedule::SimSystems::Rules).after(crate::rules::update_phase),
    );
    schedule.add_systems((hash_rounds, super::freeze::hash_frozen).chain().in_set(crate::schedule::HashSystems::Modes));
}

/// Whether the rules hold back respawns now: a round of a round-based game
/// type is live.
pub fn holds_respawn(world: &World) -> bool {
    world.get_resource::<RoundState>().is_some_and(|r| r.live)
}

/// Whether a round-based match is in the pause after a round (rounds have
/// started and none is live): damage is off until the next round.
pub fn between_rounds(world: &World) -> bool {
    world.get_resource::<RoundState>().is_some_and(|r| r.number > 0 && !r.live && r.next_at.is_some())
}

/// The tick the live round runs out, if `g_roundTimeLimit` is set.
pub fn round_ends_at(state: &RoundState, settings: &Settings, clock: &MatchClock) -> Option<u32> {
    if state.live {
        (settings.round_time_limit_s > 0.0).then(|| state.started_at + clock.ticks(settings.round_time_limit_s))
    } else {
        state.next_at
    }
}

fn start_round(world: &mut World, tick: u32) {
    begin_round(world, tick, 1);
}

/// Starts round `number + advance` (0: the current one again).
fn begin_round(world: &mut World, tick: u32, advance: u32) {
    let number = {
        let mut r = world.resource_mut::<RoundState>();
        r.number += advance;
        r.live = true;
        r.started_at = tick;
        r.next_at = None;
        r.number
    };
    world.resource_mut::<RulesState>().respawn_all = true;
    let frozen: Vec<Entity> = world.query_filtered::<Entity, With<super::Frozen>>().iter(world).collect();
    for e in frozen {
        world.entity_mut(e).remove::<super::Frozen>();
    }
    world.write_message(GameEvent::RoundStart { number });
}

fn end_round(world: &mut World, tick: u32, winner: Option<Team>, reason: RoundEndReason, pause: u32) {
    let number = {
        let mut r = world.resource_mut::<RoundState>();
        r.live = false;
        r.next_at = Some(tick + pause);
        match winner {
            Some(Team::Red) => r.wins.0 += 1,
            Some(Team::Blue) => r.wins.1 += 1,
            _ => {}
        }
        r.number
    };
    match winner {
        Some(Team::Red) => world.resource_mut::<RulesState>().team_scores.0 += 1,
        Some(Team::Blue) => world.resource_mut::<RulesState>().team_scores.1 += 1,
        _ => {}
    }
    if let Some(mut s) = world.get_resource_mut::<super::ModeStats>() {
        s.rounds_played += 1;
        match reason {
            RoundEndReason::Elimination => s.rounds_by_elimination += 1,
            RoundEndReason::Timeout => s.rounds_by_timeout += 1,
        }
        if winner.is_none() {
            s.rounds_drawn += 1;
        }
    }
    if let Some(w) = winner {
        super::stats::bump(world, w, |t| &mut t.rounds_won);
    }
    world.write_message(GameEvent::RoundEnd { number, winner, reason });
}

/// The winner of a round that ran out of time: more standing, then (Clan
/// Arena) more total health; `None` for a draw.
pub fn timeout_winner(gametype: GameType, t: &Tally) -> Option<Team> {
    use std::cmp::Ordering;
    let by = |a: i64, b: i64| match a.cmp(&b) {
        Ordering::Greater => Some(Team::Red),
        Ordering::Less => Some(Team::Blue),
        Ordering::Equal => None,
    };
    by(i64::from(t.standing.0), i64::from(t.standing.1))
        .or_else(|| if gametype == GameType::ClanArena { by(i64::from(t.health.0), i64::from(t.health.1)) } else { None })
}

/// One tick of the round cycle (after the phase update): starts the first
/// round when play goes live, ends a round on elimination or timeout, starts
/// the next after the pause.
///
/// Exclusive (`&mut World`): starting or ending a round respawns, unfreezes
/// and scores every player at once.
pub(crate) fn update_rounds(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    let tick = clock.tick;
    let rules = world.resource::<RulesState>();
    let (phase, gametype) = (rules.phase, rules.gametype);
    let settings = world.resource::<Settings>().clone();
    let Phase::Live { since } = phase else {
        world.resource_mut::<RoundState>().live = false;
        return;
    };
    let state = world.resource::<RoundState>().clone();
    if state.started_for != Some(since) {
        *world.resource_mut::<RoundState>() = RoundState { started_for: Some(since), ..RoundState::default() };
        start_round(world, tick);
        return;
    }
    if !state.live {
        if state.next_at.is_some_and(|at| tick >= at) {
            start_round(world, tick);
        }
        return;
    }
    if tick <= state.started_at + 1 {
        // Everyone respawns at the spawn step after the round starts.
        return;
    }
    let t = tally(world);
    // A team whose members all sit out (they joined or were moved there
    // mid-round, or play began before anyone joined) has nobody in the
    // round: start it again with everyone rather than score it.
    let waiting = |members: u32, participants: u32| members > 0 && participants == 0;
    if waiting(t.members.0, t.participants.0) || waiting(t.members.1, t.participants.1) {
        begin_round(world, tick, 0);
        return;
    }
    let pause = clock.ticks(settings.round_pause_s);
    let (red_down, blue_down) = (t.members.0 > 0 && t.standing.0 == 0, t.members.1 > 0 && t.standing.1 == 0);
    if red_down || blue_down {
        let winner = match (red_down, blue_down) {
            (true, false) => Some(Team::Blue),
            (false, true) => Some(Team::Red),
            _ => None,
        };
        end_round(world, tick, winner, RoundEndReason::Elimination, pause);
    } else if round_ends_at(&state, &settings, &clock).is_some_and(|at| tick >= at) {
        end_round(world, tick, timeout_winner(gametype, &t), RoundEndReason::Timeout, pause);
    }
}

/// Feeds the round state to the tick hash.
pub(crate) fn hash_rounds(state: Res<RoundState>, mut hash: ResMut<TickHash>) {
    hash.mark("rounds");
    let h = &mut hash.building;
    h.u32(state.number);
    h.u32(u32::from(state.live));
    h.u32(state.started_at);
    h.u32(state.next_at.map_or(0, |t| t.wrapping_add(1)));
    h.u32(state.wins.0);
    h.u32(state.wins.1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_goes_to_more_standing_then_health_in_clan_arena_only() {
        let t = Tally { members: (2, 2), participants: (2, 2), standing: (1, 1), health: (150, 40) };
        assert_eq!(timeout_winner(GameType::ClanArena, &t), Some(Team::Red));
        assert_eq!(timeout_winner(GameType::FreezeTag, &t), None);
        let t = Tally { members: (2, 2), participants: (2, 2), standing: (1, 2), health: (150, 40) };
        assert_eq!(timeout_winner(GameType::FreezeTag, &t), Some(Team::Blue));
    }

    #[test]
    fn round_lines_read_naturally() {
        assert_eq!(round_end_line(3, Some(Team::Red), RoundEndReason::Elimination), "Red wins round 3 (elimination).");
        assert_eq!(round_end_line(4, None, RoundEndReason::Timeout), "Round 4 is a draw (timeout).");
    }
}
