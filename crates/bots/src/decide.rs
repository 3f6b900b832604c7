//! Decisions: one combat target to aim and fire at, and — separately — one
//! movement goal to walk to. A bot runs to an armor while shooting at the
//! enemy it sees; what it shoots at never decides where it walks.
//!
//! **Target**: among the enemies seen this decision, either the nearest or
//! (with probability `targetSelection`, rolled per engagement) the
//! best-scored: distance² weighted down for weak, attacking, powered-up or
//! firing enemies and for the bot's last killer. A new pick must beat the
//! current target by a margin set by `targetStickiness`. Every acquisition
//! gets a reaction delay (see `perception`); an unseen target is kept for
//! the enemy-memory time.
//!
//! **Goal**: objective (from an [`ObjectiveProvider`]), item, enemy chase
//! or roam, with priorities; a new goal needs to beat the current one by
//! 20% after an 1.8 s commitment (or the current one to be gone). A goal
//! gets a give-up deadline scaled to its travel time that is extended only
//! by real progress along the route; abandoned goals are blacklisted.
//! Full selection runs at most every 250 ms; between selections only a
//! chase refreshes its route (every 750 ms). Nothing is decided during a
//! committed traversal (a jump, a pad flight).

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::components::NetId;

use crate::content::{Traits, WeaponBias};
use crate::items::{ItemChoice, choose_item, critical_health, wants_health};
use crate::memory::{GoalKey, Memory};
use crate::navigate::{Navigator, PathFollower, Route};
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};

/// Minimum time between full goal selections, ms.
pub const SELECT_INTERVAL_MS: f32 = 250.0;
/// A new goal is kept at least this long unless something urgent comes up, ms.
pub const COMMIT_MS: f32 = 1800.0;
/// How much better a new goal must be to replace the current one.
pub const SWITCH_MARGIN: f32 = 1.2;
/// How often a chase re-routes toward the pursuit point, ms.
pub const CHASE_REFRESH_MS: f32 = 750.0;
/// How often a fixed goal re-routes, ms.
pub const FIXED_REFRESH_MS: f32 = 3000.0;
/// How long an abandoned goal stays blacklisted, ms.
pub const BLACKLIST_MS: f32 = 20_000.0;
/// Progress must be this much shorter remaining route to count, units.
const PROGRESS_STEP: f32 = 24.0;
/// Assumed travel speed for give-up deadlines, units/s.
const TRAVEL_SPEED: f32 = 180.0;
/// Items closer than this (route length) get a bonus priority, units.
const NEARBY_DISTANCE: f32 = 400.0;
/// The bonus for an item right at hand, fading to 0 at [`NEARBY_DISTANCE`].
const NEARBY_BONUS: f32 = 20.0;
/// A chase re-routes only when the quarry moved this far from the route's end, units.
const REROUTE_DISTANCE: f32 = 96.0;
/// Roam destinations are at least this far away, units.
const ROAM_MIN_DISTANCE: f32 = 256.0;
/// An objective at or above this priority overrides commitments.
pub const URGENT_OBJECTIVE: f32 = 85.0;
/// An objective below this priority is a suggestion: chasing a seen enemy
/// may beat it (Clan Arena's regrouping); at or above it, a bot chases
/// nobody and fights on the way (the objective overrides the chase).
pub const SOFT_OBJECTIVE: f32 = 45.0;
/// Holding an objective position lasts this long without a decision
/// confirming it (every decision re-checks it), ms.
const HOLD_CHECK_MS: f32 = 1000.0;
/// A hold position counts this far above or below, units.
const HOLD_HEIGHT: f32 = 128.0;

/// A mode objective offered by a game-type layer (issue 9 plugs in here).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Objective {
    /// The provider's key for it (stable while it is the same objective).
    pub key: u32,
    /// Where to go.
    pub origin: Vec3,
    /// Urgency 0..=100 (capturing 100, defending ~54).
    pub priority: f32,
    /// Stay within this radius once there (defend, hold a zone).
    pub hold_radius: Option<f32>,
}

/// Gives a bot its objective for the current game type, if any (see
/// [`crate::objective`] for the game types' providers).
pub trait ObjectiveProvider: Send + Sync {
    /// Once per tick before any bot thinks: plans the teams' roles from the
    /// view. `bots` are the slots bots hold (the role players; humans are
    /// never assigned). Default: nothing to plan.
    fn plan(&mut self, _view: &BotView<'_>, _bots: &[SlotId], _nav: &mut dyn Navigator) {}

    /// The one objective `me` should pursue now.
    fn objective(&self, view: &BotView<'_>, me: &PlayerSnap) -> Option<Objective>;

    /// One line for `botlist`: what objective play is on.
    fn describe(&self) -> String {
        "objective: custom provider".to_owned()
    }

    /// The objective figures of the match so far.
    fn report(&self) -> Option<crate::objective::ObjectiveReport> {
        None
    }
}

/// What a movement goal is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalKind {
    /// Wander to a random reachable point.
    Roam,
    /// Take an item.
    Item(NetId),
    /// Chase an enemy.
    Enemy(SlotId),
    /// A mode objective.
    Objective(u32),
}

impl GoalKind {
    /// Its blacklist key (`target` for roam points).
    pub fn key(self, target: Vec3) -> GoalKey {
        match self {
            GoalKind::Roam => GoalKey::point(target),
            GoalKind::Item(id) => GoalKey::Item(id),
            GoalKind::Enemy(s) => GoalKey::Enemy(s),
            GoalKind::Objective(k) => GoalKey::Objective(k),
        }
    }

    /// Short name for status lines.
    pub fn describe(self) -> String {
        match self {
            GoalKind::Roam => "roam".into(),
            GoalKind::Item(id) => format!("item#{}", id.0),
            GoalKind::Enemy(s) => format!("chase {}", s.0),
            GoalKind::Objective(k) => crate::objective::describe_key(k),
        }
    }
}

/// The movement goal being pursued.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Goal {
    /// What.
    pub kind: GoalKind,
    /// Where.
    pub target: Vec3,
    /// Its priority when chosen.
    pub priority: f32,
    /// Kept at least until then.
    pub committed_until: u32,
    /// Abandoned after this unless progressing.
    pub give_up_at: u32,
    /// Shortest remaining route seen.
    pub best_remaining: f32,
    /// When the route last got shorter.
    pub progress_at: u32,
    /// When the route is next refreshed.
    pub refresh_at: u32,
    /// Route failures in a row while pursuing it.
    pub failures: u32,
}

/// An enemy seen this decision, with what target choice weighs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetCandidate {
    /// Who.
    pub slot: SlotId,
    /// Distance, units.
    pub distance: f32,
    /// Health plus armor as a share of the maximum, 0..=1.
    pub strength: f32,
    /// It hit the bot in the last 2.5 s.
    pub attacker: bool,
    /// It holds a powerup.
    pub powered: bool,
    /// Its attack is held.
    pub firing: bool,
    /// It killed the bot last.
    pub killer: bool,
}

/// Lower is more attractive.
pub fn target_score(c: &TargetCandidate, t: &Traits) -> f32 {
    let mut s = c.distance * c.distance * (1.0 + t.opportunism * (c.strength - 0.5));
    if c.killer {
        s *= 1.0 - 0.35 * t.vengefulness;
    }
    if c.attacker {
        s *= 0.55;
    }
    if c.powered {
        s *= 0.68;
    }
    if c.firing {
        s *= 0.82;
    }
    s
}

/// Picks the target among `candidates`: best-scored when `best` (this
/// engagement's roll), else nearest; the current target is kept unless the
/// pick beats it by the stickiness margin.
pub fn choose_target(
    candidates: &[TargetCandidate],
    current: Option<SlotId>,
    best: bool,
    t: &Traits,
) -> Option<SlotId> {
    let key = |c: &TargetCandidate| if best { target_score(c, t) } else { c.distance };
    let pick = candidates
        .iter()
        .min_by(|a, b| key(a).total_cmp(&key(b)).then(a.slot.cmp(&b.slot)))?;
    let Some(cur) = current.and_then(|s| candidates.iter().find(|c| c.slot == s)) else {
        return Some(pick.slot);
    };
    if pick.slot == cur.slot {
        return Some(cur.slot);
    }
    let margin = 1.0 - 0.5 * t.target_stickiness;
    if target_score(pick, t) <= target_score(cur, t) * margin {
        Some(pick.slot)
    } else {
        Some(cur.slot)
    }
}

/// Where to chase an enemy: its last known position plus a horizontal lead
/// along its last seen velocity, capped at 256 units.
pub fn pursuit_point(position: Vec3, velocity: Vec3, visible: bool, unseen_s: f32, t: &Traits) -> Vec3 {
    let flat = Vec3::new(velocity.x, velocity.y, 0.0);
    let time = if visible {
        0.2 + 0.3 * t.pursuit
    } else {
        let confidence = (1.0 - unseen_s / 3.0).clamp(0.0, 1.0);
        unseen_s.min(0.75) * t.pursuit * confidence
    };
    let lead = flat * time;
    position + lead.clamp_length_max(256.0)
}

/// Everything goal selection reads and may change.
pub struct GoalContext<'v, 'a> {
    /// The world.
    pub view: &'v BotView<'a>,
    /// The bot.
    pub me: &'v PlayerSnap,
    /// Its traits.
    pub traits: &'v Traits,
    /// Its weapon preferences.
    pub bias: &'v WeaponBias,
    /// Its memory (blacklist, enemy tracks).
    pub memory: &'v mut Memory,
    /// Its route follower.
    pub follower: &'v mut PathFollower,
    /// Routes.
    pub nav: &'v mut dyn Navigator,
    /// Its RNG.
    pub rng: &'v mut BotRng,
    /// The objective offered, if any.
    pub objective: Option<Objective>,
    /// The enemy to chase, if any (the combat target or a remembered
    /// enemy): who, the pursuit point, and whether it is seen.
    pub chase: Option<(SlotId, Vec3, bool)>,
    /// Seconds since the chased enemy was last seen or heard.
    pub chase_unseen_s: f32,
    /// Distance within which a seen enemy needs no chasing (1.5 times the
    /// preferred range with the weapon in hand).
    pub engage_range: f32,
}

/// Goal selection state of one bot.
#[derive(Debug, Clone, Default)]
pub struct GoalPlanner {
    /// The goal being pursued.
    pub goal: Option<Goal>,
    next_select: u32,
    /// Standing still on purpose until then (patient end of a roam, holding an objective).
    pub hold_until: u32,
    /// The radius of the objective position being held (with `hold_until`).
    hold_radius: Option<f32>,
    /// Route requests made (for throttling and stats).
    pub route_requests: u64,
}

impl GoalPlanner {
    /// Forgets the goal (a new life, a map change).
    pub fn reset(&mut self) {
        *self = Self {
            route_requests: self.route_requests,
            ..Self::default()
        };
    }

    /// The radius of the objective position held now, if the bot is holding
    /// one (movement stops or shrinks to strafing; aim and fire go on).
    pub fn holding(&self, clock: &BotClock) -> Option<f32> {
        self.hold_radius.filter(|_| clock.tick < self.hold_until)
    }

    /// Called when the follower reports arrival at the end of the route.
    pub fn arrived(&mut self, view: &BotView<'_>, me: &PlayerSnap, t: &Traits, memory: &mut Memory) {
        let clock = &view.clock;
        let Some(goal) = self.goal else { return };
        match goal.kind {
            GoalKind::Item(id) => {
                // Still there after arriving: it cannot be taken (full, or not ours).
                if let Some(item) = view.items.iter().find(|i| i.id == id && i.available) {
                    let d = item.origin - me.origin;
                    if Vec3::new(d.x, d.y, 0.0).length() < 64.0 {
                        memory
                            .blacklist
                            .add(goal.kind.key(goal.target), clock.after_ms(BLACKLIST_MS), clock.tick);
                    }
                }
                self.goal = None;
            }
            GoalKind::Roam => {
                self.goal = None;
                let hold = (t.patience - 0.5).max(0.0) * 2.0 * 4000.0;
                self.hold_until = clock.after_ms(hold);
            }
            GoalKind::Objective(_) => self.hold_until = clock.after_ms(500.0),
            GoalKind::Enemy(_) => self.goal = None,
        }
        self.next_select = clock.tick;
    }

    /// Called when the follower dropped the route (stuck, timed out).
    pub fn route_lost(&mut self, clock: &BotClock) {
        if let Some(g) = self.goal.as_mut() {
            g.failures += 1;
            g.refresh_at = clock.tick;
        }
        self.next_select = clock.tick;
    }

    /// One decision: tracks progress, gives up on hopeless goals, selects
    /// (throttled) and routes. Returns `true` when it set a new route.
    pub fn decide(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
        if cx.follower.in_action() {
            return false;
        }
        // Progress along the route extends the deadline; nothing else does.
        if let Some(g) = self.goal.as_mut()
            && cx.follower.route().is_some()
        {
            let rem = cx.follower.remaining(cx.me.origin);
            if rem + PROGRESS_STEP < g.best_remaining {
                g.best_remaining = rem;
                g.progress_at = clock.tick;
                g.give_up_at = g.give_up_at.max(clock.after_ms(6000.0));
            }
        }
        if let Some(g) = self.goal {
            let hopeless = clock.tick > g.give_up_at && clock.ms_since(g.progress_at) > 2000.0;
            let gone = match g.kind {
                GoalKind::Item(id) => !cx.view.items.iter().any(|i| i.id == id && i.available),
                GoalKind::Enemy(s) => cx.view.player(s).is_none_or(|p| !p.active()),
                // The layer asks for nothing any more (the round ended, the
                // bot's role is to fight): drop it now. A different
                // objective replaces it through the usual hysteresis.
                GoalKind::Objective(_) => cx.objective.is_none(),
                GoalKind::Roam => false,
            };
            if hopeless || g.failures >= 3 {
                // An objective comes back soon: the game needs it done.
                let ms = if matches!(g.kind, GoalKind::Objective(_)) {
                    BLACKLIST_MS * 0.25
                } else {
                    BLACKLIST_MS
                };
                cx.memory.blacklist.add(g.kind.key(g.target), clock.after_ms(ms), clock.tick);
                self.goal = None;
                cx.follower.clear();
            } else if gone {
                self.goal = None;
                cx.follower.clear();
            }
        }
        let objective = cx
            .objective
            .filter(|o| !cx.memory.blacklist.contains(GoalKey::Objective(o.key), clock.tick));
        // At the position of the objective being pursued: hold it.
        if let (Some(g), Some(o)) = (self.goal.as_mut(), objective)
            && g.kind == GoalKind::Objective(o.key)
            && let Some(r) = o.hold_radius
        {
            let d = o.origin - cx.me.origin;
            if Vec3::new(d.x, d.y, 0.0).length() <= r && d.z.abs() <= HOLD_HEIGHT {
                cx.follower.clear();
                g.target = o.origin;
                g.progress_at = clock.tick;
                g.give_up_at = g.give_up_at.max(clock.after_ms(12_000.0));
                self.hold_until = clock.after_ms(HOLD_CHECK_MS);
                self.hold_radius = Some(r);
                return false;
            }
        }
        // Out of position (pushed, or the objective moved): stop holding.
        if self.hold_radius.take().is_some() {
            self.hold_until = 0;
        }
        // A new objective ends any waiting.
        if objective.is_some_and(|o| self.goal.is_none_or(|g| g.kind != GoalKind::Objective(o.key))) {
            self.hold_until = 0;
        }
        if clock.tick < self.hold_until {
            return false;
        }
        if clock.tick < self.next_select {
            return self.refresh(cx);
        }
        self.next_select = clock.after_ms(SELECT_INTERVAL_MS);
        self.select(cx)
    }

    /// Between selections: a chase follows its quarry, others re-route rarely.
    fn refresh(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
        let Some(mut g) = self.goal else { return false };
        if clock.tick < g.refresh_at && cx.follower.route().is_some() {
            return false;
        }
        let target = match (g.kind, cx.chase, cx.objective) {
            (GoalKind::Enemy(s), Some((c, p, _)), _) if s == c => p,
            // Objectives may move (a carrier to escort or intercept, a flag).
            (GoalKind::Objective(k), _, Some(o)) if o.key == k => o.origin,
            _ => g.target,
        };
        let moving = matches!(g.kind, GoalKind::Enemy(_) | GoalKind::Objective(_));
        g.refresh_at = clock.after_ms(if moving { CHASE_REFRESH_MS } else { FIXED_REFRESH_MS });
        // A route that still leads where the goal is needs no new search
        // (items do not move; a quarry that moved little keeps its route).
        let still_good = cx
            .follower
            .route()
            .and_then(|r| r.goal())
            .is_some_and(|end| end.distance(target) < REROUTE_DISTANCE);
        if still_good {
            self.goal = Some(g);
            return false;
        }
        self.route_requests += 1;
        let routed = match cx.nav.route(cx.me.origin, target) {
            Some(route) => {
                g.target = target;
                cx.follower.set_route(route, &clock);
                g.failures = 0;
                true
            }
            None => {
                // Keep the old route if there is one; count the failure.
                g.failures += 1;
                false
            }
        };
        self.goal = Some(g);
        routed
    }

    fn select(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
        let t = cx.traits;
        let wants = wants_health(cx.me, t);
        let critical = critical_health(cx.me, t);
        let objective = cx
            .objective
            .filter(|o| !cx.memory.blacklist.contains(GoalKey::Objective(o.key), clock.tick));
        let obj_priority = objective.map_or(0.0, |o| o.priority);
        // Inside a commitment only an urgent objective or critical health
        // reconsiders; everything else just keeps the route fresh (and
        // saves the item search's route queries).
        if let Some(cur) = self.goal
            && clock.tick < cur.committed_until
            && cx.follower.route().is_some()
        {
            let urgent =
                objective.is_some_and(|o| GoalKind::Objective(o.key) != cur.kind && o.priority >= URGENT_OBJECTIVE);
            let needs_health_now = critical && !matches!(cur.kind, GoalKind::Item(_));
            if !urgent && !needs_health_now {
                return self.refresh(cx);
            }
        }
        // Items: only when there is no objective, the bot is hurt, or the objective is not urgent.
        let item: Option<ItemChoice> = if objective.is_none() || wants || obj_priority < URGENT_OBJECTIVE {
            self.route_requests += crate::items::SHORTLIST as u64;
            choose_item(
                &cx.view.items,
                cx.me,
                t,
                cx.view.weapons,
                cx.bias,
                &cx.memory.blacklist,
                cx.nav,
                &clock,
            )
        } else {
            None
        };
        let item_priority = item.as_ref().map_or(0.0, |c| {
            let health_item = matches!(c.item.gift, quarry_sim::items::Gift::Health { .. });
            let bonus = if health_item && critical {
                42.0
            } else if health_item && wants {
                28.0
            } else {
                0.0
            };
            // Whatever lies a few steps away is worth the detour.
            let nearby = NEARBY_BONUS * (1.0 - c.route.cost / NEARBY_DISTANCE).max(0.0);
            10.0 + 5.0 * c.utility + bonus + nearby
        });
        let enemy_priority = cx
            .chase
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
            });
        // The desire, in order of precedence.
        let mut desire: Option<(GoalKind, Vec3, f32)> = None;
        if let Some(o) = objective {
            desire = Some((GoalKind::Objective(o.key), o.origin, o.priority));
        }
        if let Some(c) = item.as_ref()
            && item_priority > desire.map_or(0.0, |d| d.2)
            && (obj_priority < 100.0 || (critical && cx.me.health <= 15))
        {
            desire = Some((GoalKind::Item(c.item.id), c.item.origin, item_priority));
        }
        if obj_priority < SOFT_OBJECTIVE
            && let Some((s, p, _)) = cx.chase
            && enemy_priority > desire.map_or(0.0, |d| d.2)
        {
            desire = Some((GoalKind::Enemy(s), p, enemy_priority));
        }
        // Hysteresis: keep the current goal unless the new one is urgent, or
        // the commitment ran out and it is clearly better.
        if let (Some(cur), Some((kind, _, prio))) = (self.goal, desire)
            && cur.kind != kind
        {
            let urgent = matches!(kind, GoalKind::Objective(_))
                && (prio >= URGENT_OBJECTIVE || !matches!(cur.kind, GoalKind::Objective(_)));
            let better = clock.tick >= cur.committed_until && prio >= SWITCH_MARGIN * cur.priority;
            if !urgent && !better && cx.follower.route().is_some() {
                return self.refresh(cx);
            }
        }
        if let (Some(cur), Some((kind, _, _))) = (self.goal, desire)
            && cur.kind == kind
        {
            return self.refresh(cx);
        }
        match desire {
            Some((kind, target, priority)) => {
                let route = match (kind, item) {
                    (GoalKind::Item(id), Some(c)) if c.item.id == id => Some(c.route),
                    _ => {
                        self.route_requests += 1;
                        cx.nav.route(cx.me.origin, target)
                    }
                };
                if let Some(route) = route {
                    self.start(kind, target, priority, route, cx);
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
    /// point of the mesh.
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
        let pick = u32::try_from(spots.len())
            .ok()
            .filter(|n| *n > 0)
            .map(|n| cx.rng.below(n) as usize);
        self.route_requests += 1;
        let route = match pick.and_then(|i| spots.get(i).copied()) {
            Some(spot) => match cx.nav.route(cx.me.origin, spot) {
                Some(r) => Some(r),
                None => {
                    cx.memory
                        .blacklist
                        .add(GoalKey::point(spot), clock.after_ms(BLACKLIST_MS), clock.tick);
                    None
                }
            },
            None => cx.nav.random_route(cx.me.origin, cx.rng),
        };
        let Some(route) = route else {
            self.goal = None;
            return false;
        };
        let target = route.goal().unwrap_or(cx.me.origin);
        self.start(GoalKind::Roam, target, 1.0, route, cx);
        true
    }

    fn start(&mut self, kind: GoalKind, target: Vec3, priority: f32, route: Route, cx: &mut GoalContext<'_, '_>) {
        let clock = cx.view.clock;
        let remaining = route.remaining(cx.me.origin, 0);
        let travel_ms = remaining / TRAVEL_SPEED * 1000.0;
        let same = self.goal.is_some_and(|g| g.kind == kind);
        // Only a genuinely new goal gets a new deadline (re-picking an
        // unreachable goal must not re-arm it forever).
        let give_up_at = match self.goal {
            Some(g) if same => g.give_up_at,
            _ => clock.after_ms((2.0 * travel_ms + 4000.0).max(12_000.0)),
        };
        let moving = matches!(kind, GoalKind::Enemy(_) | GoalKind::Objective(_));
        self.goal = Some(Goal {
            kind,
            target,
            priority,
            committed_until: clock.after_ms(COMMIT_MS),
            give_up_at,
            best_remaining: remaining,
            progress_at: clock.tick,
            refresh_at: clock.after_ms(if moving { CHASE_REFRESH_MS } else { FIXED_REFRESH_MS }),
            failures: 0,
        });
        cx.follower.set_route(route, &clock);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(slot: u8, distance: f32) -> TargetCandidate {
        TargetCandidate {
            slot: SlotId(slot),
            distance,
            strength: 1.0,
            attacker: false,
            powered: false,
            firing: false,
            killer: false,
        }
    }

    #[test]
    fn nearest_or_best_with_stickiness() {
        let t = Traits::at_skill(3.0);
        let near = cand(1, 400.0);
        let weak_far = TargetCandidate {
            strength: 0.0,
            attacker: true,
            ..cand(2, 500.0)
        };
        assert_eq!(
            choose_target(&[near, weak_far], None, false, &t),
            Some(SlotId(1)),
            "nearest"
        );
        assert_eq!(
            choose_target(&[near, weak_far], None, true, &t),
            Some(SlotId(2)),
            "weak attacker scores best"
        );
        // Current target slightly worse than the pick: sticky.
        let a = cand(3, 420.0);
        assert_eq!(choose_target(&[near, a], Some(SlotId(3)), false, &t), Some(SlotId(3)));
        // Much worse: switch.
        let far = cand(4, 2000.0);
        assert_eq!(choose_target(&[near, far], Some(SlotId(4)), false, &t), Some(SlotId(1)));
        assert_eq!(choose_target(&[], Some(SlotId(4)), false, &t), None);
    }

    /// One decision of a bot at `at` offered `objective`, with everything else default.
    fn decide_once(
        planner: &mut GoalPlanner,
        follower: &mut PathFollower,
        view: &BotView<'_>,
        objective: Option<Objective>,
    ) {
        let me = view.player(SlotId(0)).copied().expect("bot");
        let t = Traits::at_skill(3.0);
        let bias = WeaponBias::default();
        let mut memory = Memory::default();
        let mut nav = crate::navigate::StraightNavigator::default();
        let mut rng = BotRng::for_slot(1, 0, 0);
        let mut cx = GoalContext {
            view,
            me: &me,
            traits: &t,
            bias: &bias,
            memory: &mut memory,
            follower,
            nav: &mut nav,
            rng: &mut rng,
            objective,
            chase: None,
            chase_unseen_s: 0.0,
            engage_range: 500.0,
        };
        planner.decide(&mut cx);
    }

    #[test]
    fn an_objective_is_routed_to_then_held_and_a_new_one_ends_the_hold() {
        use crate::objective::testkit::{Kit, player};
        let kit = Kit::new();
        let mut view = kit.view(quarry_sim::rules::GameType::Ctf, vec![player(0, quarry_sim::Team::Red, Vec3::ZERO)]);
        let defend = Objective {
            key: 7,
            origin: Vec3::new(600.0, 0.0, 24.0),
            priority: 54.0,
            hold_radius: Some(160.0),
        };
        let (mut planner, mut follower) = (GoalPlanner::default(), PathFollower::default());
        decide_once(&mut planner, &mut follower, &view, Some(defend));
        assert_eq!(planner.goal.map(|g| g.kind), Some(GoalKind::Objective(7)));
        assert!(follower.route().is_some(), "routed there");
        assert_eq!(planner.holding(&view.clock), None);
        // Arrived within the radius: the route is dropped and the spot held.
        if let Some(Some(p)) = view.players.get_mut(0) {
            p.origin = Vec3::new(500.0, 50.0, 24.0);
        }
        view.clock.tick += 30;
        decide_once(&mut planner, &mut follower, &view, Some(defend));
        assert_eq!(planner.holding(&view.clock), Some(160.0));
        assert!(follower.route().is_none());
        // An urgent objective elsewhere ends the hold at the next decision.
        view.clock.tick += 3;
        let ret = Objective {
            key: 9,
            origin: Vec3::new(-800.0, 0.0, 24.0),
            priority: 94.0,
            hold_radius: None,
        };
        decide_once(&mut planner, &mut follower, &view, Some(ret));
        assert_eq!(planner.holding(&view.clock), None);
        assert_eq!(planner.goal.map(|g| g.kind), Some(GoalKind::Objective(9)));
        assert!(follower.route().is_some());
    }

    #[test]
    fn pursuit_leads_and_fades() {
        let t = Traits::at_skill(3.0);
        let v = Vec3::new(300.0, 0.0, 500.0);
        let seen = pursuit_point(Vec3::ZERO, v, true, 0.0, &t);
        assert!(seen.x > 100.0 && seen.z == 0.0, "horizontal lead only: {seen:?}");
        let old = pursuit_point(Vec3::ZERO, v, false, 3.0, &t);
        assert_eq!(old, Vec3::ZERO, "no confidence left");
        let huge = pursuit_point(Vec3::ZERO, Vec3::X * 5000.0, true, 0.0, &t);
        assert!((huge.length() - 256.0).abs() < 1e-3);
    }
}
