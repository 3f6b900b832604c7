//! Goal selection: which movement goal to want, run at most every
//! [`SELECT_INTERVAL_MS`](super::SELECT_INTERVAL_MS). In order:
//!
//! 1. **Commitment**: inside a commitment with a route, only an urgent
//!    objective or critical health reconsiders; else the route is refreshed.
//! 2. The **rules** ([`GoalRule::ORDER`]): the objective sets the bar, an
//!    item may beat it, then a chase may beat that. Each is one function of
//!    the offers and the desire so far.
//! 3. **Hysteresis**: a different desire replaces the current goal only when
//!    it is urgent, or the commitment ran out and it is clearly better
//!    ([`SWITCH_MARGIN`]); the same desire only refreshes the route.
//! 4. **Pursue** the desire (an unreachable one is blacklisted briefly), or
//!    **roam** when nothing is wanted and nothing is being followed.
//!
//! A restless bot (no enemy news for a long while) sets aside the items it
//! hardly needs and roams far: it goes looking for the enemy.

use glam::Vec3;
use quarry_sim::SlotId;

use super::goal::{BLACKLIST_MS, GoalContext, GoalKind, GoalPlanner, SWITCH_MARGIN};
use super::objective::{Objective, SOFT_OBJECTIVE, URGENT_OBJECTIVE};
use crate::items::{ItemChoice, choose_item, critical_health, wants_health};
use crate::memory::GoalKey;

/// Items closer than this (route length) get a bonus priority, units.
const NEARBY_DISTANCE: f32 = 400.0;
/// The bonus for an item right at hand, fading to 0 at [`NEARBY_DISTANCE`].
const NEARBY_BONUS: f32 = 20.0;
/// The priority of breaking contact: over any item but health for a bot
/// falling back (10 + 5 x utility + 42), over every chase.
pub(crate) const COVER_PRIORITY: f32 = 50.0;
/// The priority of a dropped weapon or ammo that wins the weapon matchup
/// (`bot_tactical` 5): over ordinary items and over cover (a bot outgunned
/// arms itself rather than hide).
pub(crate) const OPPORTUNITY_PRIORITY: f32 = 55.0;
/// Roam destinations are at least this far away, units.
const ROAM_MIN_DISTANCE: f32 = 256.0;
/// A restless bot (no enemy news for a long while) sets aside items below
/// this priority (ammo, small health and armor it hardly needs; a missing
/// weapon, a big armor or health when hurt still count) and hunts.
pub(crate) const HUNT_ITEM_PRIORITY: f32 = 30.0;
/// A restless bot's roams go at least this far, where it has not been
/// looking (a two-base map's other half), units.
const HUNT_MIN_DISTANCE: f32 = 1000.0;

/// A wanted movement goal: what, where, and its priority.
type Desire = (GoalKind, Vec3, f32);

/// The goal-selection rules, in the order a selection applies them: the
/// first sets the desire, each later one replaces it only when it beats
/// the desire's priority and its own condition holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalRule {
    /// The mode objective, at the priority its provider gives it (capturing
    /// 100, defending ~54); not while it is blacklisted.
    Objective,
    /// An item: 10 + 5 x utility, +42 for health when critical (+28 when
    /// merely hurt), + up to 20 when it lies a few steps away. Never over
    /// an absolute objective (priority 100) or a teammate's order unless
    /// the bot is nearly dead.
    Item,
    /// Breaking contact (`bot_tactical` 2 and up): a spot out of the
    /// threat's sight, at priority 50; a health item for a bot
    /// falling back beats it. Only below an urgent objective or an order
    /// (a carrier still runs home).
    Cover,
    /// Looking into a noise or a report the bot chose to investigate:
    /// 26 + 14 x aggression. Only below a firm objective.
    Investigate,
    /// Chasing the enemy (the combat target, else the freshest memory):
    /// 32 + 18 x pursuit + 8 x aggression (+8 seen), less when already in
    /// range, on a cold trail or hurt, +8 against a recent attacker. Only
    /// below a firm objective ([`SOFT_OBJECTIVE`]).
    Chase,
}

impl GoalRule {
    /// The order the rules run in.
    pub const ORDER: [GoalRule; 5] = [GoalRule::Objective, GoalRule::Item, GoalRule::Cover, GoalRule::Investigate, GoalRule::Chase];

    /// The rule's desire, if it replaces `desire` (the rules before it).
    fn propose(self, offers: &Offers<'_>, desire: Option<Desire>) -> Option<Desire> {
        let bar = desire.map_or(0.0, |d| d.2);
        let needs = &offers.needs;
        match self {
            GoalRule::Objective => needs.objective.map(|o| (GoalKind::Objective(o.key), o.origin, o.priority)),
            GoalRule::Item => offers
                .item
                .filter(|_| {
                    let firm = needs.obj_priority >= 100.0 || needs.order;
                    offers.item_priority > bar && (!firm || (needs.critical && offers.health <= 15))
                })
                .map(|c| (GoalKind::Item(c.item.id), c.target, offers.item_priority)),
            GoalRule::Cover => offers
                .cover
                .filter(|_| needs.obj_priority < URGENT_OBJECTIVE && !needs.order && COVER_PRIORITY > bar)
                .map(|p| (GoalKind::Cover, p, COVER_PRIORITY)),
            GoalRule::Investigate => offers
                .investigate
                .filter(|_| needs.obj_priority < SOFT_OBJECTIVE && offers.investigate_priority > bar)
                .map(|p| (GoalKind::Investigate, p, offers.investigate_priority)),
            GoalRule::Chase => offers
                .chase
                .filter(|_| needs.obj_priority < SOFT_OBJECTIVE && offers.chase_priority > bar)
                .map(|(s, p, _)| (GoalKind::Enemy(s), p, offers.chase_priority)),
        }
    }
}

/// What the bot's own state and the objective say before any rule runs.
#[derive(Debug, Clone, Copy)]
struct Needs {
    /// Hurt enough to want health.
    wants: bool,
    /// Hurt badly.
    critical: bool,
    /// The objective offered, unless it is blacklisted.
    objective: Option<Objective>,
    /// Its priority (0 without one).
    obj_priority: f32,
    /// The objective is a teammate's order (firm like a capture: no item
    /// detours short of an emergency).
    order: bool,
    /// The tactics want the bot out of sight.
    cover: bool,
    /// A pickup that wins the weapon matchup is offered.
    opportunity: Option<quarry_sim::components::NetId>,
}

impl Needs {
    fn of(cx: &GoalContext<'_, '_>) -> Self {
        let clock = cx.view.clock;
        let t = cx.traits;
        let wants = wants_health(cx.me, t);
        let critical = critical_health(cx.me, t) || cx.retreat;
        let objective = cx
            .objective
            .filter(|o| !cx.memory.blacklist.contains(GoalKey::Objective(o.key), clock.tick));
        let obj_priority = objective.map_or(0.0, |o| o.priority);
        let order = objective.is_some_and(|o| crate::team::orders::order_of_key(o.key).is_some());
        Self {
            wants,
            critical,
            objective,
            obj_priority,
            order,
            cover: cx.cover.is_some(),
            opportunity: cx.opportunity.map(|i| i.id),
        }
    }
}

/// What the rules choose among, with their priorities.
struct Offers<'c> {
    needs: Needs,
    /// The bot's health.
    health: i32,
    /// The item shortlisted, routed.
    item: Option<&'c ItemChoice>,
    /// Its priority (0 without one).
    item_priority: f32,
    /// The enemy to chase: who, the pursuit point, whether it is seen.
    chase: Option<(SlotId, Vec3, bool)>,
    /// Its priority (0 without one, or blacklisted).
    chase_priority: f32,
    /// Where to break contact, if the tactics want it.
    cover: Option<Vec3>,
    /// Where to look into a noise or report, if the bot chose to.
    investigate: Option<Vec3>,
    /// Its priority.
    investigate_priority: f32,
}

impl GoalPlanner {
    /// One full selection (see the module doc for the steps). Returns
    /// `true` when it set a new route.
    pub(super) fn select(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let needs = Needs::of(cx);
        if self.commitment_holds(cx, &needs) {
            return self.refresh(cx);
        }
        let item = self.item_offer(cx, &needs);
        let item_priority = item.as_ref().map_or(0.0, |c| item_priority(c, &needs));
        // Restless: the items around are not worth more circling.
        let (item, item_priority) = if cx.restless && item_priority < HUNT_ITEM_PRIORITY { (None, 0.0) } else { (item, item_priority) };
        let (item, item_priority) = self.with_opportunity(cx, item, item_priority);
        let chase_priority = chase_priority(cx, &needs);
        let offers = Offers {
            needs,
            health: cx.me.health,
            item: item.as_ref(),
            item_priority,
            chase: cx.chase,
            chase_priority,
            cover: cx
                .cover
                .filter(|p| !cx.memory.blacklist.contains(GoalKey::point(*p), cx.view.clock.tick)),
            investigate: cx
                .investigate
                .filter(|p| !cx.memory.blacklist.contains(GoalKey::point(*p), cx.view.clock.tick)),
            investigate_priority: 26.0 + 14.0 * cx.traits.aggression,
        };
        let desire = GoalRule::ORDER
            .iter()
            .fold(None, |desire, rule| rule.propose(&offers, desire).or(desire));
        if self.keeps_current(cx, desire) {
            return self.refresh(cx);
        }
        self.pursue(desire, item, cx)
    }

    /// Commitment: inside one (with a route), only an urgent objective or
    /// critical health reconsiders; everything else just keeps the route
    /// fresh (and saves the item search's route queries).
    fn commitment_holds(&self, cx: &GoalContext<'_, '_>, needs: &Needs) -> bool {
        let clock = cx.view.clock;
        if let Some(cur) = self.goal
            && clock.tick < cur.committed_until
            && cx.follower.route().is_some()
        {
            let urgent = needs
                .objective
                .is_some_and(|o| GoalKind::Objective(o.key) != cur.kind && o.priority >= URGENT_OBJECTIVE);
            let needs_health_now = needs.critical && !matches!(cur.kind, GoalKind::Item(_));
            let needs_cover_now = needs.cover && !matches!(cur.kind, GoalKind::Item(_) | GoalKind::Cover);
            let needs_arms_now = needs.opportunity.is_some_and(|id| cur.kind != GoalKind::Item(id));
            return !urgent && !needs_health_now && !needs_cover_now && !needs_arms_now;
        }
        false
    }

    /// The item worth fetching: searched only when there is no objective,
    /// the bot is hurt, or the objective is not urgent.
    fn item_offer(&mut self, cx: &mut GoalContext<'_, '_>, needs: &Needs) -> Option<ItemChoice> {
        if needs.objective.is_none() || needs.wants || needs.obj_priority < URGENT_OBJECTIVE {
            let clock = cx.view.clock;
            self.route_requests += crate::items::SHORTLIST as u64;
            choose_item(
                cx.memory.items.believed(),
                cx.me,
                cx.traits,
                cx.view.weapons,
                cx.bias,
                cx.stack,
                &cx.memory.blacklist,
                cx.nav,
                cx.traveller,
                &clock,
            )
        } else {
            None
        }
    }

    /// A pickup that wins the weapon matchup (`bot_tactical` 5), routed,
    /// replaces the item offer when it outranks it.
    fn with_opportunity(&mut self, cx: &mut GoalContext<'_, '_>, item: Option<ItemChoice>, priority: f32) -> (Option<ItemChoice>, f32) {
        let clock = cx.view.clock;
        let Some(snap) = cx.opportunity else { return (item, priority) };
        if item.as_ref().is_some_and(|c| c.item.id == snap.id) {
            // Already the item on offer: at the opportunity's priority.
            return (item, priority.max(OPPORTUNITY_PRIORITY));
        }
        if priority >= OPPORTUNITY_PRIORITY || cx.memory.blacklist.contains(GoalKey::Item(snap.id), clock.tick) {
            return (item, priority);
        }
        self.route_requests += 1;
        let stand = crate::items::item_standing_point(&snap, cx.me);
        match cx.nav.route(cx.me.origin, stand, cx.traveller) {
            Some(route) => {
                let choice = ItemChoice { item: snap, utility: 0.0, score: 0.0, route, target: snap.origin, gate: None };
                (Some(choice), OPPORTUNITY_PRIORITY)
            }
            None => {
                cx.memory.blacklist.add(GoalKey::Item(snap.id), clock.after_ms(BLACKLIST_MS * 0.25), clock.tick);
                (item, priority)
            }
        }
    }

    /// Hysteresis: whether the current goal stays (only its route is
    /// refreshed): the desire is the same goal, or a different one that is
    /// neither urgent nor, after the commitment, clearly better.
    fn keeps_current(&self, cx: &GoalContext<'_, '_>, desire: Option<Desire>) -> bool {
        let clock = cx.view.clock;
        let (Some(cur), Some((kind, _, prio))) = (self.goal, desire) else {
            return false;
        };
        if cur.kind == kind {
            return true;
        }
        let urgent = (matches!(kind, GoalKind::Objective(_)) && (prio >= URGENT_OBJECTIVE || !matches!(cur.kind, GoalKind::Objective(_))))
            || kind == GoalKind::Cover
            || cx.opportunity.is_some_and(|i| kind == GoalKind::Item(i.id));
        let better = clock.tick >= cur.committed_until && prio >= SWITCH_MARGIN * cur.priority;
        !urgent && !better && cx.follower.route().is_some()
    }

    /// Routes to the desire and starts it; an unreachable desire is
    /// blacklisted for a while and the bot roams. With no desire it roams
    /// only when it has no goal or no route.
    fn pursue(&mut self, desire: Option<Desire>, item: Option<ItemChoice>, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
        match desire {
            Some((kind, target, priority)) => {
                let (route, gate) = match (kind, item) {
                    (GoalKind::Item(id), Some(c)) if c.item.id == id => (Some(c.route), c.gate),
                    _ => {
                        self.route_requests += 1;
                        (cx.nav.route(cx.me.origin, target, cx.traveller), None)
                    }
                };
                if let Some(route) = route {
                    self.start(kind, target, priority, route, cx);
                    self.gate = gate;
                    return true;
                }
                cx.memory
                    .blacklist
                    .add(kind.key(target), clock.after_ms(BLACKLIST_MS * 0.25), clock.tick);
                self.roam(cx)
            }
            None if self.goal.is_none() || cx.follower.route().is_none() => self.roam(cx),
            None => false,
        }
    }

    /// Roams to a random item spot, spawn point, or teleporter or jump-pad
    /// destination (places players go), or failing that a random reachable
    /// point of the mesh. A restless bot picks among the far ones (any,
    /// when none is far).
    fn roam(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
        let standing = |p: Vec3| Vec3::new(p.x, p.y, p.z - 15.0 - cx.me.mins.z);
        let spots: Vec<Vec3> = cx
            .view
            .items
            .iter()
            .map(|i| standing(i.origin))
            .chain(
                cx.view
                    .map
                    .spawn_points()
                    .filter(|(_, s)| s.fits)
                    .map(|(_, s)| s.spawn_origin),
            )
            .chain(travel_destinations(cx.view.map))
            .filter(|p| p.distance(cx.me.origin) > ROAM_MIN_DISTANCE)
            .filter(|p| !cx.memory.blacklist.contains(GoalKey::point(*p), clock.tick))
            .collect();
        let far: Vec<Vec3> = if cx.restless { spots.iter().copied().filter(|p| p.distance(cx.me.origin) > HUNT_MIN_DISTANCE).collect() } else { Vec::new() };
        let spots = if far.is_empty() { spots } else { far };
        let pick = u32::try_from(spots.len())
            .ok()
            .filter(|n| *n > 0)
            .map(|n| cx.rng.below(n) as usize);
        self.route_requests += 1;
        let route = match pick.and_then(|i| spots.get(i).copied()) {
            Some(spot) => match cx.nav.route(cx.me.origin, spot, cx.traveller) {
                Some(r) => Some(r),
                None => {
                    cx.memory
                        .blacklist
                        .add(GoalKey::point(spot), clock.after_ms(BLACKLIST_MS), clock.tick);
                    None
                }
            },
            None => cx.nav.random_route(cx.me.origin, cx.traveller, cx.rng),
        };
        let Some(route) = route else {
            self.goal = None;
            return false;
        };
        let target = route.goal().unwrap_or(cx.me.origin);
        self.start(GoalKind::Roam, target, 1.0, route, cx);
        true
    }
}

/// An item's priority: utility, the health need, and a bonus for what lies
/// a few steps away.
fn item_priority(c: &ItemChoice, needs: &Needs) -> f32 {
    let health_item = matches!(c.item.gift, quarry_sim::items::Gift::Health { .. });
    let bonus = if health_item && needs.critical {
        42.0
    } else if health_item && needs.wants {
        28.0
    } else {
        0.0
    };
    // Whatever lies a few steps away is worth the detour.
    let nearby = NEARBY_BONUS * (1.0 - c.route.cost / NEARBY_DISTANCE).max(0.0);
    10.0 + 5.0 * c.utility + bonus + nearby
}

/// The chase's priority (0 without a chase, or with the enemy blacklisted).
fn chase_priority(cx: &GoalContext<'_, '_>, needs: &Needs) -> f32 {
    let clock = cx.view.clock;
    let t = cx.traits;
    let (wants, critical) = (needs.wants, needs.critical);
    cx.chase
        .filter(|(s, ..)| !cx.memory.blacklist.contains(GoalKey::Enemy(*s), clock.tick))
        .map_or(0.0, |(s, _, visible)| {
            let mut p = 32.0 + 18.0 * t.pursuit + 8.0 * t.aggression + if visible { 8.0 } else { 0.0 };
            // Seen and already within fighting range there is nothing to
            // chase: combat movement keeps the range, and the feet are
            // free to fetch something on the way.
            let near = cx
                .chase
                .is_some_and(|(_, p, _)| p.distance(cx.me.origin) < cx.engage_range);
            if visible && near {
                p *= 0.6;
            }
            // A trail going cold is worth less than what lies around.
            if !visible {
                p *= 0.5 + 0.5 * (1.0 - cx.chase_unseen_s / 3.0).clamp(0.0, 1.0);
            }
            if critical {
                p *= 0.35;
            } else if wants {
                p *= 0.65;
            }
            if cx.memory.ms_since_hit_by(s, &clock).is_some_and(|ms| ms < 2500.0) {
                p += 8.0;
            }
            p
        })
}

/// Where teleporters and jump pads lead (roaming there takes them).
fn travel_destinations(map: &quarry_map::LoadedMap) -> impl Iterator<Item = Vec3> + '_ {
    use quarry_map::EntityKind;
    use quarry_map::entities::Push;
    map.entities().iter().filter_map(|e| match &e.kind {
        EntityKind::Teleporter(t) => t.destination.map(|(p, _)| p),
        EntityKind::JumpPad(j) => match j.push {
            Push::Toward { target_origin, .. } => target_origin,
            Push::Velocity(_) => None,
        },
        _ => None,
    })
}
