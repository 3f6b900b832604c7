//! [`ChatSignals`]: the chat events of a tick, derived from the match's
//! [`GameEvent`]s and scoreboard. What fires what:
//!
//! - a kill by a bot: `revenge` (the victim last killed it; the debt is
//!   cleared) before `killGauntlet` (a melee weapon) before `killStreak`
//!   (the 3rd kill of a life, then every 3rd) before `kill`; one line per
//!   death at most; team kills and suicides say nothing;
//! - a bot's death: `death` when another player killed it (that player
//!   becomes its revenge target), else `deathAccident` (falling, lava,
//!   slime, water, the world, suicide);
//! - `itemDenied` ([`item_denied`]): an enemy picked up the item the bot was
//!   heading for while the bot was within [`ITEM_DENIED_RANGE`] of it;
//! - `leadTaken` / `leadLost`: FFA and duel only, checked every
//!   [`LEAD_CHECK_MS`] while the match counts; the leader needs a unique top
//!   score above 0;
//! - `levelstart` when the match goes live; `matchWin` / `matchLose` when it
//!   reaches intermission (team score in team games, else the unique top
//!   score; a tie is silent, spectators say nothing).
//!
//! `entergame` and `farewell` come from the manager (join and removal).

use std::collections::BTreeMap;

use quarry_sim::events::{GameEvent, MeansOfDeath};
use quarry_sim::rules::Phase;
use quarry_sim::{Scoreboard, SlotId, Team};

use super::event::ChatEvent;
use crate::decide::GoalKind;
use crate::view::BotView;

/// How often the leader is checked, ms.
pub const LEAD_CHECK_MS: f32 = 2000.0;
/// How close to its goal item a bot must be for a steal to count, units.
pub const ITEM_DENIED_RANGE: f32 = 700.0;
/// Kills in one life that make a streak line (and every multiple after).
pub const STREAK_KILLS: u32 = 3;

/// One chat event for one bot, with what its tokens refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signal {
    /// The bot.
    pub bot: SlotId,
    /// What happened.
    pub event: ChatEvent,
    /// `$other`.
    pub other: Option<SlotId>,
    /// `$weapon`, by number.
    pub weapon: Option<u8>,
    /// `$item`, as a class name.
    pub item: Option<&'static str>,
}

impl Signal {
    fn new(bot: SlotId, event: ChatEvent) -> Self {
        Self { bot, event, other: None, weapon: None, item: None }
    }
}

/// What one tick's derivation needs from the match.
pub struct SignalInput<'a> {
    /// The time.
    pub tick: u32,
    /// Ticks per second.
    pub hz: u32,
    /// The tick's events.
    pub events: &'a [GameEvent],
    /// Bot slots, sorted.
    pub bots: &'a [SlotId],
    /// The match phase now.
    pub phase: Phase,
    /// Whether this is a team game.
    pub team_game: bool,
    /// Team of a slot.
    pub team_of: &'a dyn Fn(SlotId) -> Team,
    /// Whether a weapon number is a melee weapon.
    pub is_melee: &'a dyn Fn(u8) -> bool,
    /// The scoreboard (built only when needed).
    pub scoreboard: &'a dyn Fn() -> Scoreboard,
}

/// Per-match memory for deriving chat events.
#[derive(Debug, Clone, Default)]
pub struct ChatSignals {
    streak: BTreeMap<SlotId, u32>,
    revenge: BTreeMap<SlotId, SlotId>,
    leader: Option<SlotId>,
    next_lead_check: u32,
    live: bool,
    ended: bool,
}

fn weapon_of(means: MeansOfDeath) -> Option<u8> {
    match means {
        MeansOfDeath::Weapon(w) | MeansOfDeath::Splash(w) => Some(w),
        _ => None,
    }
}

impl ChatSignals {
    /// A new match: everything is forgotten.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// A bot left.
    pub fn forget(&mut self, slot: SlotId) {
        self.streak.remove(&slot);
        self.revenge.remove(&slot);
        self.revenge.retain(|_, k| *k != slot);
    }

    /// The chat events of this tick, bots in event order.
    pub fn observe(&mut self, input: &SignalInput<'_>) -> Vec<Signal> {
        let is_bot = |s: SlotId| input.bots.binary_search(&s).is_ok();
        let mut out = Vec::new();
        let live = matches!(input.phase, Phase::Live { .. });
        if live && !self.live {
            self.leader = None;
            out.extend(input.bots.iter().map(|&b| Signal::new(b, ChatEvent::LevelStart)));
        }
        self.live = live;
        for ev in input.events {
            let GameEvent::Kill { killer, victim, means } = *ev else { continue };
            let killer = killer.filter(|k| *k != victim);
            if is_bot(victim) {
                self.streak.insert(victim, 0);
                out.push(match killer {
                    Some(k) => {
                        self.revenge.insert(victim, k);
                        Signal { other: Some(k), weapon: weapon_of(means), ..Signal::new(victim, ChatEvent::Death) }
                    }
                    None => Signal::new(victim, ChatEvent::DeathAccident),
                });
            }
            let Some(k) = killer.filter(|&k| is_bot(k)) else { continue };
            if input.team_game && (input.team_of)(k) == (input.team_of)(victim) {
                continue;
            }
            let n = self.streak.entry(k).or_default();
            *n += 1;
            let streak = *n >= STREAK_KILLS && n.is_multiple_of(STREAK_KILLS);
            let event = if self.revenge.get(&k) == Some(&victim) {
                self.revenge.remove(&k);
                ChatEvent::Revenge
            } else if matches!(means, MeansOfDeath::Weapon(w) if (input.is_melee)(w)) {
                ChatEvent::KillGauntlet
            } else if streak {
                ChatEvent::KillStreak
            } else {
                ChatEvent::Kill
            };
            out.push(Signal { other: Some(victim), weapon: weapon_of(means), ..Signal::new(k, event) });
        }
        if live && !input.team_game && input.tick >= self.next_lead_check {
            self.next_lead_check = input.tick + (LEAD_CHECK_MS * input.hz as f32 / 1000.0) as u32;
            let board = (input.scoreboard)();
            let top = board.rows.first().filter(|r| r.score.frags > 0);
            let unique = top.filter(|t| board.rows.get(1).is_none_or(|r| r.score.frags < t.score.frags));
            let leader = unique.map(|r| r.slot);
            if leader != self.leader {
                if let Some(old) = self.leader.filter(|&s| is_bot(s)) {
                    out.push(Signal { other: leader, ..Signal::new(old, ChatEvent::LeadLost) });
                }
                if let Some(new) = leader.filter(|&s| is_bot(s)) {
                    out.push(Signal { other: self.leader, ..Signal::new(new, ChatEvent::LeadTaken) });
                }
                self.leader = leader;
            }
        }
        let ended = matches!(input.phase, Phase::Intermission { .. } | Phase::Over);
        if ended && !self.ended {
            out.extend(self.match_end(input, is_bot));
        }
        self.ended = ended;
        out
    }

    fn match_end(&self, input: &SignalInput<'_>, is_bot: impl Fn(SlotId) -> bool) -> Vec<Signal> {
        /// Who won: a team, or one player.
        enum Winner {
            Team(Team),
            Player(SlotId),
        }
        let board = (input.scoreboard)();
        let winner = match board.team_scores {
            Some((r, b)) if input.team_game => match r.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Winner::Team(Team::Red)),
                std::cmp::Ordering::Less => Some(Winner::Team(Team::Blue)),
                std::cmp::Ordering::Equal => None,
            },
            _ => {
                let top = board.rows.first().map(|r| (r.slot, r.score.frags));
                let tie = board.rows.get(1).is_some_and(|r| Some(r.score.frags) == top.map(|t| t.1));
                top.filter(|_| !tie).map(|(slot, _)| Winner::Player(slot))
            }
        };
        let Some(winner) = winner else { return Vec::new() };
        board
            .rows
            .iter()
            .filter(|r| is_bot(r.slot) && r.team != Team::Spectator)
            .map(|r| {
                let won = match winner {
                    Winner::Team(t) => r.team == t,
                    Winner::Player(s) => r.slot == s,
                };
                Signal::new(r.slot, if won { ChatEvent::MatchWin } else { ChatEvent::MatchLose })
            })
            .collect()
    }
}

/// `itemDenied` for `bot` heading for `goal`: an enemy's pickup in this
/// tick's events of that very item, within [`ITEM_DENIED_RANGE`] of the bot.
/// A bot's own pickup is not a denial.
pub fn item_denied(view: &BotView<'_>, bot: SlotId, goal: Option<GoalKind>) -> Option<Signal> {
    let Some(GoalKind::Item(id)) = goal else { return None };
    let me = view.player(bot).filter(|p| p.alive)?;
    let item = view.items.iter().find(|i| i.id == id)?;
    view.events.iter().find_map(|ev| match *ev {
        GameEvent::ItemPickup { slot, item: class, origin }
            if slot != bot
                && origin.distance(item.origin) < 1.0
                && me.origin.distance(item.origin) <= ITEM_DENIED_RANGE
                && view.player(slot).is_some_and(|p| view.is_enemy(me, p)) =>
        {
            Some(Signal { other: Some(slot), item: Some(class), ..Signal::new(bot, ChatEvent::ItemDenied) })
        }
        _ => None,
    })
}
