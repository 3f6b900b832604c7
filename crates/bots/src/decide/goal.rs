//! The movement goal: [`GoalPlanner`] tracks progress along the route,
//! gives up on hopeless goals (blacklisting them), holds objective
//! positions, refreshes routes between selections and starts new goals.
//! Which goal to want is `select.rs`.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::components::NetId;

use super::objective::Objective;
use crate::content::{Traits, WeaponBias};
use crate::memory::{GoalKey, Memory};
use crate::navigate::{GatePlan, Navigator, PathFollower, Route, Traveller};
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
/// How often a goal that follows a teammate (an order) re-routes, ms.
pub const ESCORT_REFRESH_MS: f32 = 250.0;
/// How often a fixed goal re-routes, ms.
pub const FIXED_REFRESH_MS: f32 = 3000.0;
/// How long an abandoned goal stays blacklisted, ms.
pub const BLACKLIST_MS: f32 = 20_000.0;
/// Progress must be this much shorter remaining route to count, units.
const PROGRESS_STEP: f32 = 24.0;
/// Assumed travel speed for give-up deadlines, units/s.
const TRAVEL_SPEED: f32 = 180.0;
/// A chase re-routes only when the quarry moved this far from the route's end, units.
const REROUTE_DISTANCE: f32 = 96.0;
/// Holding an objective position lasts this long without a decision
/// confirming it (every decision re-checks it), ms.
const HOLD_CHECK_MS: f32 = 1000.0;
/// A hold position counts this far above or below, units.
const HOLD_HEIGHT: f32 = 128.0;
/// In cover, the bot waits this long before choosing again, ms.
pub(crate) const COVER_WAIT_MS: f32 = 1200.0;
/// At the place it went to investigate, the bot looks around this long, ms.
pub const INVESTIGATE_LOOK_MS: f32 = 1500.0;

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
    /// Look into a noise heard or an enemy reported there.
    Investigate,
    /// Break contact: a spot out of a threat's sight (`bot_tactical`).
    Cover,
}

impl GoalKind {
    /// Its blacklist key (`target` for roam points).
    pub fn key(self, target: Vec3) -> GoalKey {
        match self {
            GoalKind::Roam | GoalKind::Investigate | GoalKind::Cover => GoalKey::point(target),
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
            GoalKind::Investigate => "investigate".into(),
            GoalKind::Cover => "cover".into(),
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

/// How long a goal of `kind` keeps its route before re-routing, ms: a
/// teammate followed on an order most often, then anything that moves
/// (an enemy, an objective, a lead), fixed goals rarely.
fn refresh_ms(kind: GoalKind) -> f32 {
    match kind {
        GoalKind::Objective(k) if crate::team::orders::order_of_key(k).is_some_and(|o| o.follows()) => ESCORT_REFRESH_MS,
        GoalKind::Enemy(_) | GoalKind::Objective(_) | GoalKind::Investigate | GoalKind::Cover => CHASE_REFRESH_MS,
        GoalKind::Roam | GoalKind::Item(_) => FIXED_REFRESH_MS,
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
    /// Who its routes are for (its keys, its caution), handed to every query.
    pub traveller: Traveller,
    /// Its RNG.
    pub rng: &'v mut BotRng,
    /// The objective offered, if any.
    pub objective: Option<Objective>,
    /// The enemy to chase, if any (the combat target or a remembered
    /// enemy): who, the pursuit point, and whether it is seen.
    pub chase: Option<(SlotId, Vec3, bool)>,
    /// Seconds since the chased enemy was last seen or heard.
    pub chase_unseen_s: f32,
    /// A noise or report the bot decided to look into: where.
    pub investigate: Option<Vec3>,
    /// Distance within which a seen enemy needs no chasing (1.5 times the
    /// preferred range with the weapon in hand).
    pub engage_range: f32,
    /// A spot out of a threat's sight to break contact at, when the
    /// tactics want one (`bot_tactical` 2 and up).
    pub cover: Option<Vec3>,
    /// Falling back (`bot_tactical` 2 and up): health counts as critical.
    pub retreat: bool,
    /// What armor and health are worth to it against their face value
    /// (more for a bot fighting for its stack, `bot_tactical` 2 and up).
    pub stack: crate::items::StackWeights,
    /// A dropped weapon or ammo that would win the weapon matchup
    /// (`bot_tactical` 5): offered as an item at [`OPPORTUNITY_PRIORITY`](super::select::OPPORTUNITY_PRIORITY).
    pub opportunity: Option<crate::view::ItemSnap>,
    /// No news of any enemy for a long while, with enemies in the game:
    /// the bot goes looking for them (far roams) rather than cycle the
    /// items around it ([`HUNT_ITEM_PRIORITY`](super::select::HUNT_ITEM_PRIORITY)).
    pub restless: bool,
}

/// Goal selection state of one bot.
#[derive(Debug, Clone, Default)]
pub struct GoalPlanner {
    /// The goal being pursued.
    pub goal: Option<Goal>,
    pub(super) next_select: u32,
    /// Standing still on purpose until then (patient end of a roam, holding an objective).
    pub hold_until: u32,
    /// The radius of the objective position being held (with `hold_until`).
    pub(super) hold_radius: Option<f32>,
    /// Route requests made (for throttling and stats).
    pub route_requests: u64,
    /// The item goal leads to opening a closed gate first (the goal's
    /// target is the opening).
    pub gate: Option<GatePlan>,
    /// Gates opened on the way to a goal, key doors unlocked included
    /// (for the match report).
    pub gates_opened: u32,
    /// The keys carried last tick (a key gone while alive opened a door).
    keys_carried: u8,
}

impl GoalPlanner {
    /// Forgets the goal (a new life, a map change).
    pub fn reset(&mut self) {
        *self = Self {
            route_requests: self.route_requests,
            gates_opened: self.gates_opened,
            ..Self::default()
        };
    }

    /// The point to shoot to open the gate the goal leads to, if any.
    pub fn shoot_at(&self) -> Option<Vec3> {
        self.gate.and_then(|g| g.shoot_at)
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
            GoalKind::Investigate => {
                // There: a look around before anything else.
                self.goal = None;
                self.hold_until = clock.after_ms(INVESTIGATE_LOOK_MS);
            }
            GoalKind::Cover => {
                // In cover: wait a moment for the threat to pass.
                self.goal = None;
                self.hold_until = clock.after_ms(COVER_WAIT_MS);
            }
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
        self.track_progress(cx);
        if self.hold_objective(cx) {
            return false;
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

    /// Progress along the route extends the goal's deadline; a hopeless or
    /// failing goal is blacklisted and dropped, a gone one just dropped.
    fn track_progress(&mut self, cx: &mut GoalContext<'_, '_>) {
        let clock = cx.view.clock;
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
        // A key gone from the inventory unlocked a door (death resets).
        let keys = cx.me.inventory.keys;
        self.gates_opened += (self.keys_carried & !keys).count_ones();
        self.keys_carried = keys;
        // The gate the goal went to open is open, or the key fetched for
        // it is carried: choose again (the item behind it routes now).
        let opened = |plan: &GatePlan| !quarry_nav::gates::is_closed_entity(cx.view.map.world(), plan.gate);
        let key_in_hand = |plan: &GatePlan| plan.key.is_some_and(|k| cx.me.inventory.has_key(k));
        if let Some(plan) = self.gate
            && (opened(&plan) || key_in_hand(&plan))
        {
            self.gate = None;
            if opened(&plan) {
                self.gates_opened += 1;
            }
            if matches!(self.goal.map(|g| g.kind), Some(GoalKind::Item(_))) {
                self.goal = None;
                self.next_select = clock.tick;
                cx.follower.clear();
            }
        }
        if let Some(g) = self.goal {
            let hopeless = clock.tick > g.give_up_at && clock.ms_since(g.progress_at) > 2000.0;
            let gone = match g.kind {
                GoalKind::Item(id) => !cx.memory.items.believed().iter().any(|i| i.id == id && crate::items::due(i, cx.me.origin, &clock)),
                GoalKind::Enemy(s) => cx.view.player(s).is_none_or(|p| !p.active()),
                // The layer asks for nothing any more (the round ended, the
                // bot's role is to fight): drop it now. A different
                // objective replaces it through the usual hysteresis.
                GoalKind::Objective(_) => cx.objective.is_none(),
                GoalKind::Investigate => cx.investigate.is_none(),
                GoalKind::Cover => cx.cover.is_none(),
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
    }

    /// At the position of the objective being pursued: holds it (returns
    /// `true`, nothing else is decided). Out of position, or offered a new
    /// objective: any hold or wait ends.
    fn hold_objective(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
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
                return true;
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
        false
    }

    /// Between selections: a chase follows its quarry, others re-route rarely.
    pub(super) fn refresh(&mut self, cx: &mut GoalContext<'_, '_>) -> bool {
        let clock = cx.view.clock;
        let Some(mut g) = self.goal else { return false };
        if clock.tick < g.refresh_at && cx.follower.route().is_some() {
            return false;
        }
        let target = match (g.kind, cx.chase, cx.objective) {
            (GoalKind::Enemy(s), Some((c, p, _)), _) if s == c => p,
            // Objectives may move (a carrier to escort or intercept, a flag).
            (GoalKind::Objective(k), _, Some(o)) if o.key == k => o.origin,
            // A fresher lead moves the place to look.
            (GoalKind::Investigate, ..) => cx.investigate.unwrap_or(g.target),
            (GoalKind::Cover, ..) => cx.cover.unwrap_or(g.target),
            _ => g.target,
        };
        g.refresh_at = clock.after_ms(refresh_ms(g.kind));
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
        let routed = match cx.nav.route(cx.me.origin, target, cx.traveller) {
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

    /// Starts pursuing `kind` at `target` along `route`: a new deadline
    /// unless it is the goal already pursued, a commitment, a refresh time.
    pub(super) fn start(&mut self, kind: GoalKind, target: Vec3, priority: f32, route: Route, cx: &mut GoalContext<'_, '_>) {
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
        if !same {
            self.gate = None;
        }
        self.goal = Some(Goal {
            kind,
            target,
            priority,
            committed_until: clock.after_ms(COMMIT_MS),
            give_up_at,
            best_remaining: remaining,
            progress_at: clock.tick,
            refresh_at: clock.after_ms(refresh_ms(kind)),
            failures: 0,
        });
        cx.follower.set_route(route, &clock);
    }
}
