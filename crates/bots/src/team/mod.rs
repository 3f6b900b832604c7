//! Team knowledge and orders, carried by team chat.
//!
//! - **Calls** ([`TeamCall`]): each bot offers what it would tell its team
//!   (the enemies it sees, the enemy carrying the team's flag, the team's
//!   flag lying dropped, a place it found clear, a call for help, an item
//!   it goes for, a request for an escort). [`TeamHost::calls`] decides
//!   which are said: only in team games, with `bot_teamChatter` on, when
//!   the bot's `teamwork` roll passes (a bot that lets a call pass keeps
//!   quiet for its gap), not when the team was told the same lately (an
//!   enemy is news again once it stands [`SAME_PLACE`] away from where it
//!   was said; a report of several is news while one of them is), within
//!   the team throttles ([`TEAM_GAP_MS`] per team, [`BOT_GAP_MS`] per bot;
//!   halved at `bot_teamChatter 2`). An enemy report places every enemy the
//!   speaker sees around the first ([`Spotted`], up to [`MAX_ALSO`] more).
//!   The line comes from the bot's own chat bank (its character's voice)
//!   with `$place` named by [`Places`]; a character without a line for it
//!   stays silent.
//! - **Delivery**: the fact travels with the line; when the line is said,
//!   every living teammate bot takes it in ([`crate::brain::Brain::receive`]).
//! - **Orders**: a human's team chat is read for order phrases
//!   ([`orders::parse_order`]); a bot's escort request carries its order.
//!   The bot named in the line, else the nearest suitable teammate bot,
//!   answers after 1 s + 2 × its reaction time: it takes the order
//!   (`orderAck`) unless its `teamwork` roll fails (`orderRefuse`, as the
//!   reference's rogue bots do).
//! - **Figures** ([`TeamFigures`]): reports said, how many were true when
//!   sent (checked against the match), orders taken and refused.

pub mod facts;
pub mod orders;
pub mod places;

use std::collections::BTreeMap;

use glam::Vec3;
use quarry_sim::{SlotId, Team};

pub use facts::{Attachment, MAX_ALSO, Spotted, TeamCall, TeamFact};
pub use orders::{Order, OrderKind, parse_order};
pub use places::Places;

use crate::rng::{BotRng, mix64};
use crate::view::{BotClock, BotView};

/// Least time between two calls of one team, ms.
pub const TEAM_GAP_MS: f32 = 4000.0;
/// Least time between two calls of one bot, ms.
pub const BOT_GAP_MS: f32 = 8000.0;
/// A teammate's call about the same enemy or place silences the same call
/// for this long, ms.
pub const SAME_CALL_MS: f32 = 6000.0;
/// Two places this close count as the same place, units.
pub const SAME_PLACE: f32 = 400.0;
/// An order is answered after this plus twice the bot's reaction time, ms.
pub const ORDER_ANSWER_MS: f32 = 1000.0;
/// At most this many orders wait for an answer (a flood of chat is bounded).
const MAX_PENDING_ORDERS: usize = 16;

/// What the team layer did in a match.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct TeamFigures {
    /// Calls queued, per event name.
    pub queued: BTreeMap<String, u32>,
    /// Facts said (delivered to teammates).
    pub reports: u32,
    /// Of the enemy reports queued, how many were checked against the
    /// match, and how many were true (the enemy stood where reported).
    pub checked: u32,
    /// Reports true when sent.
    pub true_reports: u32,
    /// Enemy reports that placed more than one enemy.
    pub grouped: u32,
    /// Enemy reports (and enemy carriers) delivered to teammates.
    pub enemy_delivered: u32,
    /// Their ages when delivered (the sighting to the line), summed, ms.
    pub enemy_age_ms_total: u64,
    /// The oldest of them when delivered, ms.
    pub enemy_age_ms_max: u32,
    /// Orders heard (a human's line, a bot's escort request).
    pub orders_heard: u32,
    /// Orders taken.
    pub orders_taken: u32,
    /// Orders turned down.
    pub orders_refused: u32,
}

/// One bot as the team layer sees it.
#[derive(Debug, Clone, Copy)]
pub struct TeamBot {
    /// Its slot.
    pub slot: SlotId,
    /// Its team.
    pub team: Team,
    /// Alive and not frozen.
    pub active: bool,
    /// Where it is.
    pub origin: Vec3,
    /// Its `teamwork` trait.
    pub teamwork: f32,
    /// Its reaction time, ms.
    pub reaction_ms: f32,
    /// Carrying a flag (never sent on an errand).
    pub carrier: bool,
}

/// A call the team layer let through: who says which event, with what.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Approved {
    /// The speaker.
    pub slot: SlotId,
    /// The call.
    pub call: TeamCall,
    /// The place it names, if any.
    pub place: Vec3,
}

/// What a call said lately was about: an enemy (whatever the call), or an
/// event at a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Said {
    Enemy(SlotId),
    Event(crate::chat::ChatEvent),
}

#[derive(Debug, Clone, Copy)]
struct PendingOrder {
    bot: SlotId,
    order: Order,
    due: u32,
}

/// An order answered now: taken or turned down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    /// The bot answering.
    pub bot: SlotId,
    /// The order.
    pub order: Order,
    /// Taken (else turned down).
    pub taken: bool,
}

/// The team layer of one server; see the module docs.
#[derive(Debug, Clone)]
pub struct TeamHost {
    rng: BotRng,
    places: Option<Places>,
    next_team: BTreeMap<Team, u32>,
    next_bot: BTreeMap<SlotId, u32>,
    /// Calls said lately: team, enemy (an enemy report) or event (any
    /// other call), place, tick.
    recent: Vec<(Team, Said, Vec3, u32)>,
    pending: Vec<PendingOrder>,
    incoming: Vec<(SlotId, OrderKind)>,
    figures: TeamFigures,
}

impl Default for TeamHost {
    fn default() -> Self {
        Self::new(0)
    }
}

impl TeamHost {
    /// The team layer of a match seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: BotRng::from_seed(mix64(seed ^ 0x7465_616d)),
            places: None,
            next_team: BTreeMap::new(),
            next_bot: BTreeMap::new(),
            recent: Vec::new(),
            pending: Vec::new(),
            incoming: Vec::new(),
            figures: TeamFigures::default(),
        }
    }

    /// A new match: everything starts over.
    pub fn new_match(&mut self, seed: u64) {
        *self = Self::new(seed);
    }

    /// A bot's order request was said (an escort): handed to a teammate at
    /// the next tick.
    pub fn said_order(&mut self, from: SlotId, kind: OrderKind) {
        if self.incoming.len() < MAX_PENDING_ORDERS {
            self.incoming.push((from, kind));
        }
    }

    /// The bots' order requests said since the last tick.
    pub fn take_incoming(&mut self) -> Vec<(SlotId, OrderKind)> {
        std::mem::take(&mut self.incoming)
    }

    /// What the team layer did so far.
    pub fn figures(&self) -> &TeamFigures {
        &self.figures
    }

    /// The places of this match (built at first use).
    pub fn places(&mut self, view: &BotView<'_>) -> &Places {
        self.places.get_or_insert_with(|| Places::of(view))
    }

    /// A bot left: its pending orders go.
    pub fn forget(&mut self, slot: SlotId) {
        self.pending.retain(|p| p.bot != slot && p.order.from != slot);
        self.next_bot.remove(&slot);
    }

    /// Which of this tick's offered calls are said (see the module docs),
    /// in slot order. `chatter` is `bot_teamChatter`; with `only`, other
    /// teams' bots stay silent (`bot_teamChatterTeam`).
    pub fn calls(&mut self, view: &BotView<'_>, offers: &[(SlotId, TeamCall)], bots: &[TeamBot], chatter: u8, only: Option<Team>) -> Vec<Approved> {
        let clock = view.clock;
        let mut out = Vec::new();
        if chatter == 0 || !view.team_game {
            return out;
        }
        let halve = |ms: f32| if chatter >= 2 { ms * 0.5 } else { ms };
        let same_ticks = clock.ticks_ms(halve(SAME_CALL_MS));
        self.recent.retain(|r| clock.tick.saturating_sub(r.3) <= same_ticks);
        for &(slot, call) in offers {
            let Some(bot) = bots.iter().find(|b| b.slot == slot) else { continue };
            let team = bot.team;
            if only.is_some_and(|t| t != team) {
                continue;
            }
            let place = match call.attach {
                Attachment::Fact(f) => f.place(),
                Attachment::Order(_) => bot.origin,
            };
            let throttled = self.next_team.get(&team).is_some_and(|&t| clock.tick < t)
                || self.next_bot.get(&slot).is_some_and(|&t| clock.tick < t);
            if throttled {
                continue;
            }
            // The enemies it places (none for an order or a fact about a place).
            let enemies = match call.attach {
                Attachment::Fact(f) if f.spotted().next().is_some() => Some(f),
                _ => None,
            };
            // Enemies are news unless each was said lately about where it
            // is now; anything else unless said lately about that place.
            let said = |what: Said, at: Vec3| self.recent.iter().any(|r| r.0 == team && r.1 == what && r.2.distance(at) < SAME_PLACE);
            let said_lately = match enemies {
                Some(f) => f.spotted().all(|e| said(Said::Enemy(e.enemy), e.position)),
                None => said(Said::Event(call.event), place),
            };
            if said_lately {
                continue;
            }
            // Orders (an escort request) are not weighed by teamwork: the
            // carrier needs them. A bot that lets a call pass keeps quiet
            // for its gap.
            let willing = matches!(call.attach, Attachment::Order(_)) || self.rng.chance(bot.teamwork);
            self.next_bot.insert(slot, clock.after_ms(halve(BOT_GAP_MS)));
            if !willing {
                continue;
            }
            self.next_team.insert(team, clock.after_ms(halve(TEAM_GAP_MS)));
            match enemies {
                Some(f) => self.recent.extend(f.spotted().map(|e| (team, Said::Enemy(e.enemy), e.position, clock.tick))),
                None => self.recent.push((team, Said::Event(call.event), place, clock.tick)),
            }
            out.push(Approved { slot, call, place });
        }
        out
    }

    /// A call was queued as a line: counted, and an enemy report checked
    /// against the match (the enemy must stand where reported, this tick).
    pub fn queued(&mut self, view: &BotView<'_>, a: &Approved) {
        *self.figures.queued.entry(a.call.event.name().to_owned()).or_default() += 1;
        if let Attachment::Fact(f @ (TeamFact::Enemy { .. } | TeamFact::Carrier { .. })) = a.call.attach {
            self.figures.checked += 1;
            let true_now = |e: Spotted| view.player(e.enemy).filter(|p| p.active()).is_some_and(|p| p.origin.distance(e.position) < 1.0);
            if f.tick() == view.clock.tick && f.spotted().all(true_now) {
                self.figures.true_reports += 1;
            }
            if f.spotted().nth(1).is_some() {
                self.figures.grouped += 1;
            }
        }
    }

    /// A fact was said: counted, and an enemy report's age (from the
    /// sighting to its teammates taking it in) added up.
    pub fn delivered(&mut self, fact: &TeamFact, clock: &BotClock) {
        self.figures.reports += 1;
        if let TeamFact::Enemy { tick, .. } | TeamFact::Carrier { tick, .. } = *fact {
            let age = clock.ms_since(tick).round() as u32;
            self.figures.enemy_delivered += 1;
            self.figures.enemy_age_ms_total += u64::from(age);
            self.figures.enemy_age_ms_max = self.figures.enemy_age_ms_max.max(age);
        }
    }

    /// Someone asked for `kind` (a human's team line, a bot's escort
    /// request): the bot named in it, else the nearest active teammate bot
    /// that carries no flag, answers after 1 s + 2 × its reaction time.
    /// Returns the bot that will answer.
    pub fn request(&mut self, view: &BotView<'_>, from: SlotId, kind: OrderKind, named: Option<SlotId>, bots: &[TeamBot]) -> Option<SlotId> {
        let clock = view.clock;
        let Some(speaker) = view.player(from) else {
            tracing::debug!(target: "quarry_bots::team", "order '{}' from slot {} with no body: nobody to follow", kind.name(), from.0);
            return None;
        };
        self.figures.orders_heard += 1;
        // A carrier keeps its flag for every order but the one to drop it.
        let suitable = |b: &&TeamBot| b.slot != from && b.team == speaker.team && b.active && b.carrier == kind.for_carrier();
        let bot = match named.and_then(|n| bots.iter().filter(suitable).find(|b| b.slot == n)) {
            Some(b) => b,
            None => bots
                .iter()
                .filter(suitable)
                .min_by(|a, b| a.origin.distance(speaker.origin).total_cmp(&b.origin.distance(speaker.origin)).then(a.slot.cmp(&b.slot)))?,
        };
        if self.pending.len() >= MAX_PENDING_ORDERS {
            return None;
        }
        self.pending.retain(|p| p.bot != bot.slot);
        let due = clock.after_ms(ORDER_ANSWER_MS + 2.0 * bot.reaction_ms);
        tracing::info!(target: "quarry_bots::team", "order '{}' from slot {} for the bot in slot {}", kind.name(), from.0, bot.slot.0);
        let order = Order { kind, from, at: speaker.origin, until: due.saturating_add(clock.ticks_ms(kind.lasts_ms())) };
        self.pending.push(PendingOrder { bot: bot.slot, order, due });
        Some(bot.slot)
    }

    /// The orders whose answer is due now: each taken, or turned down on a
    /// failed `teamwork` roll.
    pub fn answers(&mut self, clock: &BotClock, bots: &[TeamBot]) -> Vec<Answer> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.pending.len() {
            let Some(p) = self.pending.get(i).copied() else { break };
            if p.due > clock.tick {
                i += 1;
                continue;
            }
            self.pending.remove(i);
            let Some(bot) = bots.iter().find(|b| b.slot == p.bot) else { continue };
            let taken = self.rng.chance(bot.teamwork);
            if taken {
                self.figures.orders_taken += 1;
            } else {
                self.figures.orders_refused += 1;
            }
            out.push(Answer { bot: p.bot, order: p.order, taken });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::testkit::{Kit, player};
    use quarry_sim::rules::GameType;

    fn bot(slot: u8, team: Team, x: f32) -> TeamBot {
        TeamBot { slot: SlotId(slot), team, active: true, origin: Vec3::new(x, 0.0, 24.0), teamwork: 1.0, reaction_ms: 300.0, carrier: false }
    }

    fn enemy_call(enemy: u8, x: f32, tick: u32) -> TeamCall {
        TeamCall::fact(TeamFact::Enemy { enemy: SlotId(enemy), position: Vec3::new(x, 0.0, 24.0), tick, count: 1, weapon: 2, also: [None; MAX_ALSO] })
    }

    #[test]
    fn calls_are_throttled_per_team_and_not_repeated() {
        let kit = Kit::new();
        let view = kit.view(GameType::Tdm, vec![player(0, Team::Red, Vec3::ZERO), player(1, Team::Red, Vec3::X * 500.0), player(2, Team::Blue, Vec3::X * 900.0)]);
        let bots = [bot(0, Team::Red, 0.0), bot(1, Team::Red, 500.0), bot(2, Team::Blue, 900.0)];
        let mut host = TeamHost::new(1);
        // Two reds report the same enemy at once: one call, the team's gap starts.
        let offers = [(SlotId(0), enemy_call(2, 900.0, 100)), (SlotId(1), enemy_call(2, 900.0, 100))];
        let said = host.calls(&view, &offers, &bots, 1, None);
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].slot, SlotId(0));
        // Nothing in a free-for-all, nothing with chatter off, nothing from a team left out.
        let ffa = kit.view(GameType::Ffa, vec![player(0, Team::Free, Vec3::ZERO)]);
        assert!(TeamHost::new(1).calls(&ffa, &offers, &bots, 1, None).is_empty());
        assert!(TeamHost::new(1).calls(&view, &offers, &bots, 0, None).is_empty());
        assert!(TeamHost::new(1).calls(&view, &offers, &bots, 1, Some(Team::Blue)).is_empty());
    }

    #[test]
    fn an_enemy_is_news_again_once_it_moved_and_a_group_while_one_of_it_is() {
        let kit = Kit::new();
        let mut view = kit.view(
            GameType::Tdm,
            vec![player(0, Team::Red, Vec3::ZERO), player(1, Team::Red, Vec3::X * 100.0), player(2, Team::Blue, Vec3::X * 900.0), player(3, Team::Blue, Vec3::X * 1000.0)],
        );
        let bots = [bot(0, Team::Red, 0.0), bot(1, Team::Red, 100.0)];
        let mut host = TeamHost::new(1);
        // Each step waits out the team's gap, within the time a call stays said.
        let step = view.clock.ticks_ms(TEAM_GAP_MS) + 1;
        assert!(view.clock.ticks_ms(SAME_CALL_MS) > step);
        let say = |view: &mut BotView<'_>, host: &mut TeamHost, from: u8, call: &dyn Fn(u32) -> TeamCall| {
            view.clock.tick += step;
            host.calls(view, &[(SlotId(from), call(view.clock.tick))], &bots, 1, None).len()
        };
        assert_eq!(say(&mut view, &mut host, 0, &|t| enemy_call(2, 900.0, t)), 1);
        assert_eq!(say(&mut view, &mut host, 1, &|t| enemy_call(2, 1000.0, t)), 0, "where it was said: not news");
        assert_eq!(say(&mut view, &mut host, 1, &|t| enemy_call(2, 900.0 + SAME_PLACE + 100.0, t)), 1, "gone on from there: news");
        let group = |lead_x: f32| {
            move |tick: u32| {
                let mut also = [None; MAX_ALSO];
                also[0] = Some(Spotted { enemy: SlotId(3), position: Vec3::new(lead_x + 100.0, 0.0, 24.0) });
                TeamCall::fact(TeamFact::Enemy { enemy: SlotId(2), position: Vec3::new(lead_x, 0.0, 24.0), tick, count: 2, weapon: 2, also })
            }
        };
        assert_eq!(say(&mut view, &mut host, 0, &group(1400.0)), 1, "enemy 3 is news, so the group is");
        assert_eq!(say(&mut view, &mut host, 1, &group(1400.0)), 0, "both said there lately");
    }

    #[test]
    fn a_bot_that_lets_a_call_pass_keeps_quiet_for_its_gap() {
        let kit = Kit::new();
        let view = kit.view(GameType::Tdm, vec![player(0, Team::Red, Vec3::ZERO), player(1, Team::Red, Vec3::X * 500.0), player(2, Team::Blue, Vec3::X * 900.0)]);
        let rogue = [TeamBot { teamwork: 0.0, ..bot(0, Team::Red, 0.0) }, bot(1, Team::Red, 500.0)];
        let mut host = TeamHost::new(1);
        let t = view.clock.tick;
        assert!(host.calls(&view, &[(SlotId(0), enemy_call(2, 900.0, t))], &rogue, 1, None).is_empty(), "teamwork 0 never calls");
        // Its turn passed; the team's did not: a teammate may say it now.
        let mut keen = TeamHost { next_bot: host.next_bot.clone(), ..TeamHost::new(1) };
        let said = keen.calls(&view, &[(SlotId(0), enemy_call(2, 900.0, t)), (SlotId(1), enemy_call(2, 900.0, t))], &[TeamBot { teamwork: 1.0, ..rogue[0] }, rogue[1]], 1, None);
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].slot, SlotId(1), "the bot that let its call pass waits out its gap");
    }

    #[test]
    fn an_order_goes_to_the_named_bot_else_the_nearest_and_is_answered_after_the_delay() {
        let kit = Kit::new();
        let view = kit.view(
            GameType::Tdm,
            vec![player(5, Team::Red, Vec3::ZERO), player(1, Team::Red, Vec3::X * 800.0), player(2, Team::Red, Vec3::X * 200.0), player(3, Team::Blue, Vec3::X * 100.0)],
        );
        let bots = [bot(1, Team::Red, 800.0), bot(2, Team::Red, 200.0), bot(3, Team::Blue, 100.0)];
        let mut host = TeamHost::new(2);
        assert_eq!(host.request(&view, SlotId(5), OrderKind::Follow, None, &bots), Some(SlotId(2)), "the nearest teammate");
        assert_eq!(host.request(&view, SlotId(5), OrderKind::Hold, Some(SlotId(1)), &bots), Some(SlotId(1)), "the one named");
        let clock = view.clock;
        // 1 s + 2 x 300 ms = 96 ticks at 60 Hz.
        assert!(host.answers(&BotClock { tick: clock.tick + 95, ..clock }, &bots).is_empty());
        let answers = host.answers(&BotClock { tick: clock.tick + 96, ..clock }, &bots);
        assert_eq!(answers.len(), 2);
        assert!(answers.iter().all(|a| a.taken), "teamwork 1 always takes it");
        let hold = answers.iter().find(|a| a.bot == SlotId(1)).expect("hold");
        assert_eq!(hold.order.at, Vec3::new(0.0, 0.0, 24.0), "held where the speaker stood");
        // A rogue (teamwork 0) turns orders down.
        let rogue = [TeamBot { teamwork: 0.0, ..bots[1] }];
        let mut host = TeamHost::new(3);
        host.request(&view, SlotId(5), OrderKind::Follow, None, &rogue);
        let answers = host.answers(&BotClock { tick: clock.tick + 1000, ..clock }, &rogue);
        assert!(answers.len() == 1 && !answers[0].taken);
        assert_eq!(host.figures().orders_refused, 1);
    }

    #[test]
    fn places_are_named_by_landmarks_within_range() {
        let kit = Kit::new();
        let view = kit.view(GameType::Ctf, Vec::new());
        let mut view = view;
        view.mode.bases = vec![(Team::Red, Vec3::new(-2000.0, 0.0, 0.0)), (Team::Blue, Vec3::new(2000.0, 0.0, 0.0))];
        let places = Places::of(&view);
        assert!(!places.has_locations());
        let world = view.map.world();
        assert_eq!(places.name(world, Vec3::new(-1800.0, 100.0, 0.0)).as_deref(), Some("the red base"));
        assert_eq!(places.name(world, Vec3::new(0.0, 0.0, 0.0)), None, "too far from any landmark");
    }
}
