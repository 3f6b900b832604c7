//! The match life cycle: warmup until enough players, a countdown, live
//! play until a frag or time limit, an intermission showing the scoreboard,
//! then over (the server rotates the map or ends a headless match).

use bevy_ecs::prelude::*;

use crate::accuracy::AccuracyBook;
use crate::clock::MatchClock;
use crate::events::GameEvent;
use crate::settings::Settings;
use crate::slots::{SlotState, Slots, Team};

use super::GameType;

/// Where the match is in its life cycle (serialized in lower case, as the
/// other names in a summary are).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for enough players; play is allowed but does not count.
    Warmup,
    /// Counting down; goes live at `live_at`.
    Countdown {
        /// Tick the match goes live.
        live_at: u32,
    },
    /// The match counts.
    Live {
        /// Tick it went live.
        since: u32,
    },
    /// The scoreboard shows until `until`; nobody moves.
    Intermission {
        /// Tick it ends.
        until: u32,
    },
    /// Finished.
    Over,
}

impl Phase {
    /// Whether players move and fight.
    pub fn allows_play(self) -> bool {
        !matches!(self, Self::Intermission { .. } | Self::Over)
    }

    /// Whether kills count toward the score.
    pub fn counts(self) -> bool {
        matches!(self, Self::Live { .. })
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Warmup => "warmup",
            Self::Countdown { .. } => "countdown",
            Self::Live { .. } => "live",
            Self::Intermission { .. } => "intermission",
            Self::Over => "over",
        }
    }
}

/// The rules' state of one match.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct RulesState {
    /// The game type this match was started with.
    pub gametype: GameType,
    /// Life cycle.
    pub phase: Phase,
    /// Red and blue team scores.
    pub team_scores: (i32, i32),
    /// Why the match ended, once it has.
    pub end_reason: Option<String>,
    /// Set when everyone should be respawned at the next rules pass (going live).
    pub respawn_all: bool,
}

impl RulesState {
    /// A match of `gametype` in warmup.
    pub fn new(gametype: GameType) -> Self {
        Self { gametype, phase: Phase::Warmup, team_scores: (0, 0), end_reason: None, respawn_all: false }
    }
}

fn players_in_play(slots: &Slots) -> usize {
    slots.iter().filter(|(_, s)| s.state == SlotState::InGame && s.team != Team::Spectator).count()
}

/// Advances the life cycle by one tick.
pub fn update_phase(
    clock: Res<MatchClock>,
    settings: Res<Settings>,
    mut rules: ResMut<RulesState>,
    mut slots: ResMut<Slots>,
    mut book: Option<ResMut<AccuracyBook>>,
    mut events: MessageWriter<GameEvent>,
) {
    let tick = clock.tick;
    let players = players_in_play(&slots);
    let enough = players >= rules.gametype.min_players()
        && (!rules.gametype.is_team_game() || {
            let (r, b) = super::team_counts(&slots);
            r > 0 && b > 0
        });
    let before = rules.phase;
    match rules.phase {
        Phase::Warmup => {
            if !settings.warmup {
                // No warmup: live at once, except a match that a missing
                // player forfeits, which waits for its players.
                if enough || !rules.gametype.forfeits() {
                    go_live(&mut rules, &mut slots, book.as_deref_mut(), tick);
                }
            } else if enough {
                let live_at = tick + clock.ticks(settings.countdown_s);
                rules.phase = Phase::Countdown { live_at };
                events.write(GameEvent::Print {
                    to: None,
                    text: format!("The match starts in {} seconds.", settings.countdown_s.ceil()),
                });
            }
        }
        Phase::Countdown { live_at } => {
            if !enough {
                rules.phase = Phase::Warmup;
                events.write(GameEvent::Print { to: None, text: "Waiting for players.".into() });
            } else if tick >= live_at {
                go_live(&mut rules, &mut slots, book.as_deref_mut(), tick);
                events.write(GameEvent::Print { to: None, text: "Fight!".into() });
            }
        }
        Phase::Live { since } => {
            if let Some(reason) = limit_reached(&rules, &slots, &settings, &clock, since, players) {
                events.write(GameEvent::Print { to: None, text: reason.clone() });
                rules.end_reason = Some(reason);
                rules.phase = Phase::Intermission { until: tick + clock.ticks(settings.intermission_s) };
            }
        }
        Phase::Intermission { until } => {
            if tick >= until {
                rules.phase = Phase::Over;
            }
        }
        Phase::Over => {}
    }
    if rules.phase != before {
        events.write(GameEvent::Phase { phase: rules.phase });
    }
}

fn go_live(rules: &mut RulesState, slots: &mut Slots, book: Option<&mut AccuracyBook>, tick: u32) {
    rules.phase = Phase::Live { since: tick };
    rules.team_scores = (0, 0);
    rules.respawn_all = true;
    for (_, s) in slots.iter_mut() {
        s.score = Default::default();
    }
    // Warmup's shots do not count, as its frags do not.
    if let Some(book) = book {
        book.start_over_all();
    }
}

fn limit_reached(
    rules: &RulesState,
    slots: &Slots,
    settings: &Settings,
    clock: &MatchClock,
    since: u32,
    players: usize,
) -> Option<String> {
    if rules.gametype.forfeits() && players < rules.gametype.min_players() {
        return Some("Duel forfeited: the opponent left.".into());
    }
    if rules.gametype.has_flags() {
        let (r, b) = rules.team_scores;
        if settings.capturelimit > 0 && (r >= settings.capturelimit || b >= settings.capturelimit) {
            let winner = if r > b { "Red" } else { "Blue" };
            return Some(format!("Capturelimit hit. {winner} team wins {}-{}.", r.max(b), r.min(b)));
        }
    } else if rules.gametype.is_round_based() {
        let (r, b) = rules.team_scores;
        if settings.roundlimit > 0 && (r >= settings.roundlimit || b >= settings.roundlimit) {
            let winner = if r > b { "Red" } else { "Blue" };
            return Some(format!("Roundlimit hit. {winner} team wins {}-{}.", r.max(b), r.min(b)));
        }
    } else if settings.fraglimit > 0 {
        if rules.gametype.is_team_game() {
            let (r, b) = rules.team_scores;
            if r >= settings.fraglimit || b >= settings.fraglimit {
                let winner = if r > b { "Red" } else { "Blue" };
                return Some(format!("Fraglimit hit. {winner} team wins {}-{}.", r.max(b), r.min(b)));
            }
        } else if let Some((_, s)) = slots.iter().find(|(_, s)| s.score.frags >= settings.fraglimit) {
            return Some(format!("Fraglimit hit by {}.", s.userinfo.name));
        }
    }
    if settings.timelimit_min > 0.0 && tick_since(clock.tick, since) >= clock.ticks(settings.timelimit_min * 60.0) {
        return Some("Timelimit hit.".into());
    }
    None
}

fn tick_since(now: u32, since: u32) -> u32 {
    now.saturating_sub(since)
}
