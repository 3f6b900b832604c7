//! The native brain's side of team play: what it offers to tell its team
//! (only what it knows this tick), what it takes from teammates' calls,
//! and the order it follows.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::modes::view::FlagStatus;

use super::NativeBrain;
use crate::chat::ChatEvent;
use crate::decide::{GoalKind, Objective, URGENT_OBJECTIVE};
use crate::memory::GoalKey;
use crate::perception::hearing::{Danger, Noise};
use crate::team::orders::{ORDER_PRIORITY, order_key};
use crate::team::{Attachment, MAX_ALSO, Order, OrderKind, Spotted, TeamCall, TeamFact};
use crate::tactics::TacticalLevel;
use crate::view::{BotClock, BotView, PlayerSnap};

/// A call for help is made at most this often, ms.
const HELP_EVERY_MS: f32 = 12_000.0;
/// A carrier asks for an escort at most this often, ms.
const ESCORT_EVERY_MS: f32 = 20_000.0;
/// Being hit this recently counts as under fire, ms.
const UNDER_FIRE_MS: f32 = 800.0;
/// Enemies within this of a reported one are counted with it, units.
const COUNT_RADIUS: f32 = 600.0;
/// A dropped flag is reported when seen within this distance, units.
const FLAG_SIGHT: f32 = 1500.0;
/// How fast a reported enemy may have moved since (its uncertainty grows so), units/s.
const REPORT_DRIFT: f32 = 320.0;
/// A report is trusted less as it ages, down to nothing at this age, ms.
const REPORT_TRUST_MS: f32 = 8000.0;
/// A reported fight this close is worth joining, units.
const JOIN_DISTANCE: f32 = 1200.0;
/// How strongly a report of a close fight draws the bot (a sound's is 1).
const JOIN_PULL: f32 = 2.0;
/// A far fight is over before the bot gets there: it draws nobody.
const FAR_PULL: f32 = 0.0;
/// How much more a call for help draws the bot than a report.
const HELP_PULL: f32 = 1.5;
/// A teammate's item call keeps the bot off that item this long, ms.
const LEAVE_ITEM_MS: f32 = 10_000.0;
/// An item timing is offered for this long after the bot learned it, ms
/// (then it is old news).
const TIMING_OFFER_MS: f32 = 3000.0;
/// An item back sooner than this is not worth a line, ms.
const TIMING_LEAST_MS: f32 = 5000.0;

/// What the brain tells its team and the order it follows.
#[derive(Debug, Clone, Default)]
pub(super) struct TeamSide {
    /// The call offered this tick (taken by the manager).
    pub call: Option<TeamCall>,
    /// The order taken, until it expires.
    pub order: Option<Order>,
    /// A teammate asked for the flag this bot carries: let go of it,
    /// facing that teammate.
    pub drop_for: Option<SlotId>,
    /// The investigation follows a teammate's report of this enemy.
    pub lead: Option<SlotId>,
    /// The enemies newly noticed at the last look.
    pub noticed: Vec<SlotId>,
    /// A valuable item's timing learned lately, and when (offered for
    /// [`TIMING_OFFER_MS`]; kept across a death).
    timing: Option<(crate::item_memory::Timing, u32)>,
    next_help: u32,
    next_escort: u32,
    /// The stance last told to the team (level 5), while it lasts.
    called_stance: Option<crate::tactics::Stance>,
    last_goal: Option<GoalKind>,
}

impl TeamSide {
    /// A new life: calls, leads and a drop not yet made go; an order
    /// outlives a death.
    pub(super) fn reset_life(&mut self) {
        self.call = None;
        self.drop_for = None;
        self.lead = None;
        self.noticed.clear();
        self.last_goal = None;
    }

    /// Offers `call` unless one is offered already this tick; whether it was.
    fn offer(&mut self, call: TeamCall) -> bool {
        let free = self.call.is_none();
        if free {
            self.call = Some(call);
        }
        free
    }
}

impl NativeBrain {
    /// Level 5: a stance worth telling the team, once each time it is
    /// taken (under the help call's throttle): falling back, or stealthy
    /// or cautious against more enemies ("N on me at ...").
    fn stance_call(&mut self, me: &PlayerSnap, level: TacticalLevel, clock: &BotClock) {
        use crate::tactics::{ForceRatio, Stance};
        let stance = self.tactics.stance;
        let worth = level.plays_the_odds()
            && self.tactics.forces.enemies > 0
            && (stance == Stance::Retreat || (matches!(stance, Stance::Stealth | Stance::Cautious) && self.tactics.ratio <= ForceRatio::Outnumbered));
        if !worth {
            self.team.called_stance = None;
            return;
        }
        if self.team.called_stance == Some(stance) || clock.tick < self.team.next_help {
            return;
        }
        let count = u8::try_from(self.tactics.forces.enemies).unwrap_or(u8::MAX);
        let (position, tick, from) = (me.origin, clock.tick, me.slot);
        let fact = if stance == Stance::Retreat {
            TeamFact::FallingBack { from, position, tick, count }
        } else {
            TeamFact::Help { from, position, tick, count }
        };
        if self.team.offer(TeamCall::fact(fact)) {
            self.team.called_stance = Some(stance);
            self.team.next_help = clock.after_ms(HELP_EVERY_MS);
            self.profile.stats.stance_calls += 1;
        }
    }

    /// What the bot would tell its team now, from what it knows this tick,
    /// most pressing first: a call for help, the enemy carrying its flag,
    /// an enemy just noticed, its flag lying dropped, an escort for the
    /// flag it carries, an item it goes for.
    pub(super) fn offer_calls(&mut self, view: &BotView<'_>, me: &PlayerSnap, level: TacticalLevel, clock: &BotClock) {
        if !view.team_game {
            return;
        }
        self.stance_call(me, level, clock);
        self.timing_call(view, clock);
        let sightings = &self.senses.sightings;
        // Under fire and in trouble.
        let under_fire = self.senses.memory.last_hit.is_some_and(|h| clock.ms_since(h.tick) <= UNDER_FIRE_MS);
        if under_fire && clock.tick >= self.team.next_help && (me.health < 50 || sightings.len() >= 2) {
            self.team.next_help = clock.after_ms(HELP_EVERY_MS);
            let count = u8::try_from(sightings.len()).unwrap_or(u8::MAX);
            self.team.offer(TeamCall::fact(TeamFact::Help { from: me.slot, position: me.origin, tick: clock.tick, count }));
        }
        // The enemy carrying our flag, seen now.
        for f in view.mode.flags.iter().filter(|f| f.team == me.team) {
            if let FlagStatus::Carried { by } = f.status
                && self.senses.sees(by)
                && let Some(p) = view.player(by)
            {
                let heading = p.origin + Vec3::new(p.velocity.x, p.velocity.y, 0.0) * 1.5;
                self.team.offer(TeamCall::fact(TeamFact::Carrier { enemy: by, position: p.origin, heading, tick: clock.tick }));
            }
        }
        // An enemy noticed at this look, else the nearest in sight (the
        // team layer lets it through only when it is news: not said lately
        // about where it stands now).
        let lead = self
            .team
            .noticed
            .first()
            .copied()
            .filter(|&e| self.senses.sees(e))
            .or_else(|| sightings.iter().min_by(|a, b| a.distance.total_cmp(&b.distance)).map(|s| s.slot));
        if let Some(fact) = lead.and_then(|e| enemy_report(view, e, sightings, clock.tick)) {
            self.team.offer(TeamCall::fact(fact));
        }
        self.team.noticed.clear();
        // Our flag lying in the field, in sight.
        for f in view.mode.flags.iter().filter(|f| f.team == me.team) {
            let lifted = f.origin + Vec3::Z * 16.0;
            if matches!(f.status, FlagStatus::Dropped { .. })
                && f.origin.distance(me.origin) <= FLAG_SIGHT
                && crate::perception::clear_line(view.map.world(), me.eye, lifted)
            {
                self.team.offer(TeamCall::fact(TeamFact::FlagDropped { position: f.origin, tick: clock.tick }));
            }
        }
        // Carrying the enemy flag: ask for an escort.
        let carrying = view
            .mode
            .flags
            .iter()
            .any(|f| f.team != me.team && matches!(f.status, FlagStatus::Carried { by } if by == me.slot));
        if carrying && clock.tick >= self.team.next_escort {
            self.team.next_escort = clock.after_ms(ESCORT_EVERY_MS);
            self.team.offer(TeamCall { event: ChatEvent::OrderEscort, attach: Attachment::Order(OrderKind::Follow) });
        }
        // A new goal for an item worth claiming.
        let goal = self.planner.goal.map(|g| g.kind);
        if goal != self.team.last_goal {
            self.team.last_goal = goal;
            if let Some(GoalKind::Item(id)) = goal
                && let Some(item) = view.items.iter().find(|i| i.id == id && !i.dropped)
                && claimable(item.gift)
            {
                self.team.offer(TeamCall::fact(TeamFact::GoingFor { item: id, position: item.origin, tick: clock.tick }));
            }
        }
    }

    /// A valuable item's pickup it saw, heard or made: when the item comes
    /// back, offered while it is fresh news.
    fn timing_call(&mut self, view: &BotView<'_>, clock: &BotClock) {
        let worth = |id| view.items.iter().any(|i| i.id == id && !i.dropped && claimable(i.gift));
        if let Some(t) = self.senses.memory.items.learned().iter().rev().find(|t| worth(t.item)) {
            self.team.timing = Some((*t, clock.tick));
        }
        let Some((t, learned)) = self.team.timing else { return };
        let back_in = t.back_at.saturating_sub(clock.tick) as f32 * 1000.0 / clock.hz.max(1) as f32;
        if clock.ms_since(learned) > TIMING_OFFER_MS || back_in < TIMING_LEAST_MS {
            self.team.timing = None;
            return;
        }
        if let Some(item) = view.items.iter().find(|i| i.id == t.item) {
            self.team.offer(TeamCall::fact(TeamFact::ItemTimed { item: t.item, position: item.origin, back_at: t.back_at, tick: learned }));
        }
    }

    /// It looked into a lead and found nobody: a place to call clear.
    pub(super) fn found_nobody(&mut self, me: &PlayerSnap, clock: &BotClock) {
        if self.senses.sightings.is_empty() {
            self.team.offer(TeamCall::fact(TeamFact::Clear { position: me.origin, tick: clock.tick }));
        }
    }

    /// A teammate's fact, delivered with its line.
    pub(super) fn take_fact(&mut self, fact: &TeamFact, clock: &BotClock) {
        let me = self.last_origin;
        let reaction = {
            let t = &self.profile.resolved.traits;
            t.reaction_msec * t.reaction_scale()
        };
        let age = clock.ms_since(fact.tick());
        // How far the reported enemy may have moved since the speaker saw it.
        let uncertainty = 64.0 + REPORT_DRIFT * age / 1000.0;
        let lead = |source: Option<SlotId>, danger: Danger, position: Vec3, pull: f32| Noise {
            source,
            danger,
            estimate: position,
            error: uncertainty,
            distance: me.distance(position),
            tick: clock.tick,
            act_at: clock.after_ms(reaction),
            handled: false,
            reported: true,
            pull,
        };
        // A report draws the bot less as it ages, more when the fight is
        // close enough to join while it lasts.
        let near = |p: Vec3| if me.distance(p) <= JOIN_DISTANCE { JOIN_PULL } else { FAR_PULL };
        let trust = (1.0 - age / REPORT_TRUST_MS).clamp(0.0, 1.0);
        self.profile.stats.reports_heard += 1;
        match *fact {
            TeamFact::Enemy { enemy, position, tick, .. } => {
                for e in fact.spotted() {
                    self.senses.memory.report(e.enemy, tick, e.position, uncertainty);
                }
                self.senses.hearing.consider(lead(Some(enemy), Danger::Report, position, trust * near(position)), clock);
            }
            TeamFact::Carrier { enemy, position, tick, .. } => {
                self.senses.memory.report(enemy, tick, position, uncertainty);
                self.senses.hearing.consider(lead(Some(enemy), Danger::Combat, position, 1.5 * trust), clock);
            }
            TeamFact::FlagDropped { position, .. } => {
                self.senses.hearing.consider(lead(None, Danger::Report, position, trust), clock);
            }
            // A teammate in trouble or falling back: the enemies are there.
            TeamFact::Help { position, .. } | TeamFact::FallingBack { position, .. } => {
                self.senses.hearing.consider(lead(None, Danger::Combat, position, HELP_PULL * trust * near(position)), clock);
            }
            TeamFact::Clear { position, .. } => {
                // Nothing there: a lead about that place is dropped.
                if self.senses.hearing.noise.is_some_and(|n| n.estimate.distance(position) < 400.0 && n.danger <= Danger::Report) {
                    self.senses.hearing.noise = None;
                }
                if self.investigation.is_some_and(|(p, _)| p.distance(position) < 400.0) {
                    self.investigation = None;
                    self.team.lead = None;
                }
            }
            TeamFact::GoingFor { item, .. } => {
                self.senses
                    .memory
                    .blacklist
                    .add(GoalKey::Item(item), clock.after_ms(LEAVE_ITEM_MS), clock.tick);
            }
            TeamFact::ItemTimed { item, back_at, .. } => self.senses.memory.items.told(item, back_at, clock),
        }
    }

    /// An order taken.
    pub(super) fn accept_order(&mut self, order: Order) {
        self.profile.stats.orders_taken += 1;
        if order.kind == OrderKind::DropFlag {
            // Not a goal: the flag is let go of at the next tick.
            self.team.drop_for = Some(order.from);
            return;
        }
        self.team.order = Some(order);
        // Decide again now, toward the order.
        self.planner.goal = None;
    }

    /// The objective this decision offers goal selection: the order's goal
    /// (while it holds and the objective layer has nothing urgent), else
    /// the objective layer's. A help order ends on arrival.
    pub(super) fn objective_with_order(&mut self, view: &BotView<'_>, me: &PlayerSnap, nav: &mut dyn crate::navigate::Navigator, objective: Option<Objective>) -> Option<Objective> {
        let clock = view.clock;
        let Some(order) = self.team.order.filter(|o| o.live(&clock)) else {
            return objective;
        };
        let Some(goal) = order.goal(view, me) else {
            return objective;
        };
        if order.kind == OrderKind::Help && goal.point.distance(me.origin) <= goal.radius {
            self.team.order = None;
            return objective;
        }
        if objective.is_some_and(|o| o.priority >= URGENT_OBJECTIVE) {
            return objective;
        }
        // Where a moving leader will be may lie in a wall it runs along:
        // the nearest standing spot to it (a route to a point off the mesh
        // fails, and three failures set the order aside for seconds).
        let point = if goal.moving { nav.nearest(goal.point, goal.radius).unwrap_or(goal.point) } else { goal.point };
        Some(Objective { key: order_key(order.kind), origin: point, priority: ORDER_PRIORITY, hold_radius: Some(goal.radius) })
    }

    /// Expired orders go; a lead followed to its enemy counts as a find.
    pub(super) fn team_upkeep(&mut self, clock: &BotClock) {
        if self.team.order.is_some_and(|o| !o.live(clock)) {
            self.team.order = None;
        }
        if let Some(enemy) = self.team.lead {
            if self.senses.sees(enemy) {
                self.profile.stats.report_finds += 1;
                self.team.lead = None;
            } else if self.investigation.is_none() {
                self.team.lead = None;
            }
        }
    }
}

/// A report of `enemy`, in sight now, with the others in sight around it
/// (where each stands is known: the speaker sees it).
fn enemy_report(view: &BotView<'_>, enemy: SlotId, sightings: &[crate::perception::Sighting], tick: u32) -> Option<TeamFact> {
    let p = view.player(enemy).filter(|p| p.active())?;
    let around = sightings
        .iter()
        .filter_map(|s| view.player(s.slot))
        .filter(|o| o.active() && o.origin.distance(p.origin) <= COUNT_RADIUS);
    let (mut count, mut also) = (0usize, [None; MAX_ALSO]);
    for o in around {
        count += 1;
        if o.slot != enemy
            && let Some(free) = also.iter_mut().find(|a| a.is_none())
        {
            *free = Some(Spotted { enemy: o.slot, position: o.origin });
        }
    }
    Some(TeamFact::Enemy {
        enemy,
        position: p.origin,
        tick,
        count: u8::try_from(count).unwrap_or(u8::MAX),
        weapon: p.inventory.current,
        also,
    })
}

/// Whether an item is worth claiming in team chat: powerups, the red
/// armor, the mega health.
fn claimable(gift: quarry_sim::items::Gift) -> bool {
    use quarry_sim::items::Gift;
    match gift {
        Gift::Powerup { .. } => true,
        Gift::Armor { amount, .. } => amount >= 100,
        Gift::Health { amount, .. } => amount >= 100,
        _ => false,
    }
}
