//! Navigation following: turning a route into steering, tick by tick.
//!
//! Routes come from a [`Navigator`] (the runtime navmesh, through
//! `navmesh.rs`; a straight-line stand-in for tests). A route is a list of
//! corners, each saying how it is reached from the one before: walk, drop
//! off a ledge, jump, ride a jump pad, take a teleporter. The
//! [`PathFollower`] steers toward the current corner and:
//!
//! - treats every non-walk link as a committed action: reach its entry,
//!   perform it (jump is asked for only on the ground, the act layer turns
//!   that into fresh presses), and count it done only after leaving the
//!   ground and landing at the exit, with a bounded time limit;
//! - detects being stuck by *corner progress* (the corner index advanced
//!   or the distance to the corner shrank), not by any motion, sampled
//!   every 700 ms; a miss sidesteps with a jump for 900 ms on a random
//!   side, and a second miss in a row drops the route so the goal layer
//!   re-routes or gives up;
//! - reports arrival, so the goal layer can decide what is next.
//!
//! It never routes by itself: re-pathing, give-up deadlines and the
//! blacklist live in `decide.rs`, which owns the goal.

use glam::Vec3;
use quarry_map::EntityId;

use crate::rng::BotRng;
use crate::view::{BotClock, PlayerSnap};

/// Horizontal radius within which a walk corner counts as reached.
pub const CORNER_RADIUS: f32 = 28.0;
/// The tighter radius for the last walk corner before an action (a precise takeoff).
pub const TAKEOFF_RADIUS: f32 = 12.0;
/// Vertical tolerance for reaching a corner.
pub const CORNER_HEIGHT: f32 = 32.0;
/// How far past a corner (along the way in) still counts as reaching it.
pub const OVERSHOOT: f32 = 64.0;
/// Stuck sampling interval, ms.
pub const STUCK_SAMPLE_MS: f32 = 700.0;
/// Distance to the corner that must be gained between samples, units.
pub const STUCK_PROGRESS: f32 = 24.0;
/// How long a sidestep lasts after a missed sample, ms.
pub const UNSTICK_MS: f32 = 900.0;
/// Missed samples in a row that drop the route.
pub const STUCK_STRIKES: u32 = 2;
/// A committed action younger than this is never judged stuck, ms.
pub const ACTION_GRACE_MS: f32 = 1500.0;
/// A committed action older than this drops the route, ms.
pub const ACTION_TIMEOUT_MS: f32 = 10_000.0;
/// Time in the air that counts as a jump or a fall, not a step down a stair, ms.
const FLIGHT_MS: f32 = 200.0;
/// Stopped without progress this close to the last corner counts as arrived.
const NEAR_GOAL: f32 = 56.0;
/// A step of more than this between ticks is a teleport.
const TELEPORT_STEP: f32 = 120.0;

/// How a corner is reached from the one before: the navmesh's own link
/// kind (one type for the mesh and the bots; a non-walk link is a committed
/// action here, see [`LinkKind::is_special`]).
pub use quarry_nav::LinkKind;

/// One corner of a route: a player origin to reach, and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// Where the player origin should get to.
    pub pos: Vec3,
    /// How it is reached from the previous corner.
    pub link: LinkKind,
    /// The jump pad or teleporter entity, for those links.
    pub entity: Option<EntityId>,
}

/// A route from a start to a goal.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Route {
    /// Corners in order; the last is the goal.
    pub corners: Vec<Corner>,
    /// Travel cost from the start (units, with penalties for actions).
    pub cost: f32,
}

impl Route {
    /// The goal position.
    pub fn goal(&self) -> Option<Vec3> {
        self.corners.last().map(|c| c.pos)
    }

    /// Length still to travel from `pos` when heading to corner `index`.
    pub fn remaining(&self, pos: Vec3, index: usize) -> f32 {
        let mut len = 0.0;
        let mut at = pos;
        for c in self.corners.iter().skip(index) {
            len += at.distance(c.pos);
            at = c.pos;
        }
        len
    }
}

/// Where routes come from. Implemented over the runtime navmesh; the
/// layers only see this trait.
pub trait Navigator {
    /// Whether routes can be asked for (the mesh is built).
    fn ready(&self) -> bool;
    /// A route from `from` to `to`, or `None` if there is none.
    fn route(&mut self, from: Vec3, to: Vec3) -> Option<Route>;
    /// The nearest navigable standing spot within `radius` of `point`.
    fn nearest(&mut self, point: Vec3, radius: f32) -> Option<Vec3>;
    /// A route from `from` to a random point reachable from it.
    fn random_route(&mut self, from: Vec3, rng: &mut BotRng) -> Option<Route>;
    /// A cheap test that can only prove `to` unreachable from `from`
    /// (different islands); `true` means "maybe".
    fn maybe_reachable(&mut self, from: Vec3, to: Vec3) -> bool {
        let _ = (from, to);
        true
    }
    /// One line for `botlist`: state, node and link counts, build time.
    fn describe(&self) -> String;
    /// Route queries answered so far (for the per-tick routing budget).
    fn queries(&self) -> u64 {
        0
    }
}

/// A stand-in navigator that walks straight lines to a fixed set of
/// points. For tests and open arenas; it knows no walls.
#[derive(Debug, Clone, Default)]
pub struct StraightNavigator {
    /// Points `random_route` picks from.
    pub points: Vec<Vec3>,
}

impl Navigator for StraightNavigator {
    fn ready(&self) -> bool {
        true
    }

    fn route(&mut self, from: Vec3, to: Vec3) -> Option<Route> {
        Some(Route {
            corners: vec![Corner {
                pos: to,
                link: LinkKind::Walk,
                entity: None,
            }],
            cost: from.distance(to),
        })
    }

    fn nearest(&mut self, point: Vec3, _radius: f32) -> Option<Vec3> {
        Some(point)
    }

    fn random_route(&mut self, from: Vec3, rng: &mut BotRng) -> Option<Route> {
        let n = u32::try_from(self.points.len()).ok()?;
        let to = *self.points.get(rng.below(n) as usize)?;
        self.route(from, to)
    }

    fn describe(&self) -> String {
        format!("straight lines ({} points)", self.points.len())
    }
}

/// What following did this tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowEvent {
    /// Nothing of note.
    None,
    /// The last corner was reached; the route is finished.
    Arrived,
    /// No corner progress twice in a row: the route was dropped.
    Stuck,
    /// A committed action took too long: the route was dropped.
    TimedOut,
    /// An action (jump, drop, pad, teleporter) landed away from its exit:
    /// the route was dropped to re-plan from here.
    Misplaced,
}

/// Steering for one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Steer {
    /// Horizontal unit direction to move in (zero: stand).
    pub dir: Vec3,
    /// Wants to jump now (only ever on the ground; the act layer pulses it).
    pub jump: bool,
    /// On a committed action: no strafing, dodging or separation.
    pub committed: bool,
    /// Where to look when not fighting.
    pub look: Option<Vec3>,
    /// What happened.
    pub event: FollowEvent,
}

impl Steer {
    /// Stand still.
    pub const IDLE: Steer = Steer {
        dir: Vec3::ZERO,
        jump: false,
        committed: false,
        look: None,
        event: FollowEvent::None,
    };
}

/// Follows one route at a time.
#[derive(Debug, Clone, Default)]
pub struct PathFollower {
    route: Option<Route>,
    index: usize,
    /// When the current action corner became current.
    action_since: Option<u32>,
    /// Left the ground since the action started (or teleported).
    airborne_seen: bool,
    /// Consecutive ticks in the air now, and the longest flight since the
    /// action started (a step down a stair is not a flight).
    air_ticks: u32,
    longest_flight: u32,
    next_sample: u32,
    sample_index: usize,
    sample_dist: f32,
    strikes: u32,
    unstick_until: u32,
    unstick_side: f32,
    best_dist: f32,
    /// Ticks in the air that make a flight (from the tick rate).
    flight_min: u32,
    /// The last tick the route made progress (index or a closer approach).
    pub progress_tick: u32,
    last_origin: Option<Vec3>,
}

impl PathFollower {
    /// Starts following `route` (replaces any route).
    pub fn set_route(&mut self, route: Route, clock: &BotClock) {
        self.route = Some(route);
        self.index = 0;
        self.action_since = None;
        self.airborne_seen = false;
        self.longest_flight = 0;
        self.next_sample = clock.after_ms(STUCK_SAMPLE_MS);
        self.sample_index = 0;
        self.sample_dist = f32::INFINITY;
        self.strikes = 0;
        self.best_dist = f32::INFINITY;
        self.progress_tick = clock.tick;
    }

    /// Drops the route.
    pub fn clear(&mut self) {
        self.route = None;
        self.index = 0;
        self.action_since = None;
    }

    /// The route being followed.
    pub fn route(&self) -> Option<&Route> {
        self.route.as_ref()
    }

    /// Index of the corner being headed for.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The corner being headed for.
    pub fn corner(&self) -> Option<&Corner> {
        self.route.as_ref().and_then(|r| r.corners.get(self.index))
    }

    /// Whether a committed action (a non-walk corner) is under way.
    pub fn in_action(&self) -> bool {
        self.corner().is_some_and(|c| c.link.is_special())
    }

    /// Length left to travel from `pos`.
    pub fn remaining(&self, pos: Vec3) -> f32 {
        self.route.as_ref().map_or(0.0, |r| r.remaining(pos, self.index))
    }

    /// The route is set aside this tick (fighting moves the bot instead):
    /// no progress is expected, so the stuck clock starts over.
    pub fn hold(&mut self, clock: &BotClock) {
        self.next_sample = clock.after_ms(STUCK_SAMPLE_MS);
        self.sample_dist = f32::INFINITY;
        self.strikes = 0;
        self.best_dist = f32::INFINITY;
        self.progress_tick = clock.tick;
    }

    /// Whether the sidestep of a missed stuck sample is active.
    pub fn unsticking(&self, clock: &BotClock) -> bool {
        clock.tick < self.unstick_until
    }

    /// Steers `me` along the route for this tick.
    pub fn follow(&mut self, me: &PlayerSnap, clock: &BotClock, rng: &mut BotRng) -> Steer {
        let teleported = self.last_origin.is_some_and(|p| p.distance(me.origin) > TELEPORT_STEP);
        self.last_origin = Some(me.origin);
        let Some(route) = self.route.take() else {
            return Steer::IDLE;
        };
        if !me.on_ground || teleported {
            self.airborne_seen = true;
            self.air_ticks += 1;
            self.longest_flight = self
                .longest_flight
                .max(if teleported { u32::MAX } else { self.air_ticks });
        } else {
            self.air_ticks = 0;
        }
        self.flight_min = clock.ticks_ms(FLIGHT_MS).max(1);
        let steer = self.follow_route(&route.corners, me, clock, rng);
        if steer.event == FollowEvent::None {
            self.route = Some(route);
        } else {
            self.clear();
        }
        steer
    }

    fn follow_route(&mut self, corners: &[Corner], me: &PlayerSnap, clock: &BotClock, rng: &mut BotRng) -> Steer {
        // Advance over every corner already reached.
        while let Some(corner) = corners.get(self.index) {
            let prev = if self.index == 0 {
                None
            } else {
                corners.get(self.index - 1).map(|c| c.pos)
            };
            let next_is_action = corners.get(self.index + 1).is_some_and(|c| c.link.is_special());
            match self.reached(corner, prev, next_is_action, me) {
                Reach::No => break,
                Reach::Yes => self.advance(clock),
                Reach::Elsewhere => {
                    return Steer {
                        event: FollowEvent::Misplaced,
                        ..Steer::IDLE
                    };
                }
            }
        }
        let Some(corner) = corners.get(self.index).copied() else {
            return Steer {
                event: FollowEvent::Arrived,
                ..Steer::IDLE
            };
        };
        if corner.link.is_special() && self.action_since.is_none() {
            self.action_since = Some(clock.tick);
            self.airborne_seen = !me.on_ground;
            self.longest_flight = 0;
        }
        if let Some(since) = self.action_since
            && clock.ms_since(since) > ACTION_TIMEOUT_MS
        {
            return Steer {
                event: FollowEvent::TimedOut,
                ..Steer::IDLE
            };
        }
        let to = corner.pos - me.origin;
        let flat = Vec3::new(to.x, to.y, 0.0);
        let dist = flat.length();
        if dist + 8.0 < self.best_dist {
            self.best_dist = dist;
            self.progress_tick = clock.tick;
        }
        let last = self.index + 1 == corners.len();
        if let Some(ev) = self.sample_stuck(dist, corner.link, last, me, clock, rng) {
            return Steer {
                event: ev,
                ..Steer::IDLE
            };
        }
        let mut dir = flat.normalize_or_zero();
        let committed = corner.link.is_special();
        // A jump link jumps from the ground toward its exit; everything else walks.
        let mut jump = corner.link == LinkKind::Jump && me.on_ground;
        if self.unsticking(clock) && !committed {
            let side = Vec3::new(-dir.y, dir.x, 0.0) * self.unstick_side;
            dir = (dir * 0.4 + side).normalize_or_zero();
            jump |= me.on_ground;
        }
        let look = Some(corner.pos + Vec3::Z * (me.eye.z - me.origin.z));
        Steer {
            dir,
            jump,
            committed,
            look,
            event: FollowEvent::None,
        }
    }

    fn advance(&mut self, clock: &BotClock) {
        self.index += 1;
        self.action_since = None;
        self.airborne_seen = false;
        self.longest_flight = 0;
        self.best_dist = f32::INFINITY;
        self.progress_tick = clock.tick;
    }

    fn reached(&self, c: &Corner, prev: Option<Vec3>, next_is_action: bool, me: &PlayerSnap) -> Reach {
        let d = c.pos - me.origin;
        let horiz = Vec3::new(d.x, d.y, 0.0).length();
        let dz = d.z.abs();
        match c.link {
            LinkKind::Walk => {
                let r = if next_is_action { TAKEOFF_RADIUS } else { CORNER_RADIUS };
                if horiz <= r && dz <= CORNER_HEIGHT {
                    return Reach::Yes;
                }
                if !next_is_action && dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                Reach::No
            }
            LinkKind::Drop | LinkKind::Jump => {
                let landed = me.on_ground && (self.airborne_seen || c.link == LinkKind::Drop);
                if landed && horiz <= CORNER_RADIUS + 12.0 && dz <= CORNER_HEIGHT {
                    return Reach::Yes;
                }
                if landed && dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                // Back on the ground after a real flight: on the exit's floor
                // but carried past it (a running drop) is as good as there;
                // well below it (fell off, a jump fell short), the rest of the
                // route starts from somewhere else.
                let flew = self.longest_flight >= self.flight_min;
                if flew && me.on_ground {
                    if me.origin.z < c.pos.z - CORNER_HEIGHT {
                        return Reach::Elsewhere;
                    }
                    if dz <= CORNER_HEIGHT && horiz > OVERSHOOT {
                        return Reach::Yes;
                    }
                }
                Reach::No
            }
            LinkKind::JumpPad | LinkKind::Teleport => {
                if !(self.airborne_seen && me.on_ground) {
                    return Reach::No;
                }
                if horiz <= 96.0 && dz <= 48.0 {
                    Reach::Yes
                } else {
                    Reach::Elsewhere
                }
            }
        }
    }

    fn sample_stuck(
        &mut self,
        dist: f32,
        link: LinkKind,
        last: bool,
        me: &PlayerSnap,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Option<FollowEvent> {
        if clock.tick < self.next_sample {
            return None;
        }
        self.next_sample = clock.after_ms(STUCK_SAMPLE_MS);
        let in_grace = self.action_since.is_some_and(|s| clock.ms_since(s) < ACTION_GRACE_MS);
        let flying = link.is_special() && !me.on_ground;
        let progressed = self.index != self.sample_index || dist < self.sample_dist - STUCK_PROGRESS;
        self.sample_index = self.index;
        self.sample_dist = dist;
        if progressed || in_grace || flying {
            self.strikes = 0;
            return None;
        }
        // Stopped just short of the goal (an item wedged in a corner): as
        // close as it gets.
        if last && dist < NEAR_GOAL {
            return Some(FollowEvent::Arrived);
        }
        self.strikes += 1;
        if self.strikes >= STUCK_STRIKES {
            self.strikes = 0;
            return Some(FollowEvent::Stuck);
        }
        self.unstick_until = clock.after_ms(UNSTICK_MS);
        self.unstick_side = rng.sign();
        None
    }
}

/// How often off-mesh recovery looks for the nearest navigable spot, ms.
pub const RECOVERY_SEARCH_MS: f32 = 500.0;
/// How far recovery looks, units.
pub const RECOVERY_RADIUS: f32 = 1536.0;
/// How long a wandering heading is held, ms.
pub const WANDER_HOLD_MS: f32 = 2000.0;

/// Off-mesh recovery: with no route to follow, walk straight to the nearest
/// navigable spot (pulsing jump over whatever is in the way), or failing
/// that wander on a held heading (a new constant turn each tick makes a
/// bot circle in place).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Recovery {
    next_search: u32,
    toward: Option<Vec3>,
    heading: Vec3,
    heading_until: u32,
}

impl Recovery {
    /// Forgets the target spot and heading.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Steering toward the mesh. `trace` checks wander headings for walls.
    pub fn steer(
        &mut self,
        me: &PlayerSnap,
        nav: &mut dyn Navigator,
        trace: &dyn quarry_map::Trace,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Steer {
        if clock.tick >= self.next_search {
            self.next_search = clock.after_ms(RECOVERY_SEARCH_MS);
            self.toward = nav.nearest(me.origin, RECOVERY_RADIUS);
        }
        if let Some(spot) = self.toward {
            let d = Vec3::new(spot.x - me.origin.x, spot.y - me.origin.y, 0.0);
            if d.length() > CORNER_RADIUS {
                return Steer {
                    dir: d.normalize_or_zero(),
                    jump: me.on_ground,
                    committed: false,
                    look: Some(spot + Vec3::Z * 26.0),
                    event: FollowEvent::None,
                };
            }
        }
        let blocked = |dir: Vec3| {
            let start = me.origin + Vec3::Z * 2.0;
            let tr = trace.trace(
                start,
                start + dir * 64.0,
                me.mins,
                me.maxs,
                quarry_map::Contents::MASK_PLAYER_SOLID,
            );
            tr.start_solid || tr.fraction < 0.5
        };
        if clock.tick >= self.heading_until
            || self.heading == Vec3::ZERO
            || (me.velocity.length() < 20.0 && blocked(self.heading))
        {
            // A new heading, preferring one not straight into a wall.
            let base = rng.unit() * std::f32::consts::TAU;
            let headings = (0..8).map(|i| {
                let a = base + i as f32 * std::f32::consts::TAU / 8.0;
                Vec3::new(a.cos(), a.sin(), 0.0)
            });
            let mut first = None;
            let mut open = None;
            for h in headings {
                first.get_or_insert(h);
                if !blocked(h) {
                    open = Some(h);
                    break;
                }
            }
            self.heading = open.or(first).unwrap_or(Vec3::X);
            self.heading_until = clock.after_ms(WANDER_HOLD_MS);
        }
        Steer {
            dir: self.heading,
            jump: false,
            committed: false,
            look: Some(me.eye + self.heading * 256.0),
            event: FollowEvent::None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    No,
    Yes,
    /// An action ended somewhere other than its exit.
    Elsewhere,
}

/// Whether `pos` is a little past `corner` along the way in from `prev`,
/// with a small lateral error (the bot ran slightly by it).
fn overshot(prev: Option<Vec3>, corner: Vec3, pos: Vec3) -> bool {
    let Some(prev) = prev else { return false };
    let way = Vec3::new(corner.x - prev.x, corner.y - prev.y, 0.0).normalize_or_zero();
    if way == Vec3::ZERO {
        return false;
    }
    let rel = Vec3::new(pos.x - corner.x, pos.y - corner.y, 0.0);
    let along = rel.dot(way);
    let lateral = (rel - way * along).length();
    along > 0.0 && along <= OVERSHOOT && lateral <= CORNER_RADIUS
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_sim::Team;

    fn me(origin: Vec3, on_ground: bool) -> PlayerSnap {
        PlayerSnap { on_ground, ..PlayerSnap::standing(0, Team::Free, origin) }
    }

    fn walk(x: f32, y: f32) -> Corner {
        Corner {
            pos: Vec3::new(x, y, 0.0),
            link: LinkKind::Walk,
            entity: None,
        }
    }

    #[test]
    fn walks_corner_to_corner_and_arrives() {
        let mut f = PathFollower::default();
        let mut rng = BotRng::from_seed(1);
        let mut clock = BotClock { tick: 1, hz: 60 };
        f.set_route(
            Route {
                corners: vec![walk(100.0, 0.0), walk(100.0, 100.0)],
                cost: 200.0,
            },
            &clock,
        );
        let s = f.follow(&me(Vec3::ZERO, true), &clock, &mut rng);
        assert!((s.dir - Vec3::X).length() < 1e-4);
        clock.tick += 1;
        let s = f.follow(&me(Vec3::new(90.0, 0.0, 0.0), true), &clock, &mut rng);
        assert_eq!(f.index(), 1, "within the corner radius");
        assert!((s.dir - Vec3::new(0.0, 1.0, 0.0).normalize()).length() < 0.2);
        clock.tick += 1;
        let s = f.follow(&me(Vec3::new(100.0, 95.0, 0.0), true), &clock, &mut rng);
        assert_eq!(s.event, FollowEvent::Arrived);
        assert!(f.route().is_none());
    }

    #[test]
    fn overshooting_a_corner_still_counts() {
        let mut f = PathFollower::default();
        let mut rng = BotRng::from_seed(1);
        let clock = BotClock { tick: 1, hz: 60 };
        f.set_route(
            Route {
                corners: vec![walk(100.0, 0.0), walk(200.0, 0.0), walk(200.0, 200.0)],
                cost: 0.0,
            },
            &clock,
        );
        f.follow(&me(Vec3::new(101.0, 0.0, 0.0), true), &clock, &mut rng);
        assert_eq!(f.index(), 1);
        // Ran 40 units past the second corner with a little lateral error.
        f.follow(&me(Vec3::new(240.0, 10.0, 0.0), true), &clock, &mut rng);
        assert_eq!(f.index(), 2);
    }

    #[test]
    fn jump_link_is_committed_and_needs_a_landing() {
        let mut f = PathFollower::default();
        let mut rng = BotRng::from_seed(1);
        let mut clock = BotClock { tick: 1, hz: 60 };
        let up = Corner {
            pos: Vec3::new(64.0, 0.0, 40.0),
            link: LinkKind::Jump,
            entity: None,
        };
        f.set_route(
            Route {
                corners: vec![walk(0.0, 0.0), up],
                cost: 0.0,
            },
            &clock,
        );
        let s = f.follow(&me(Vec3::new(5.0, 0.0, 0.0), true), &clock, &mut rng);
        assert_eq!(f.index(), 1, "takeoff reached");
        assert!(s.jump && s.committed);
        clock.tick += 1;
        // In the air above the exit: not done until landed.
        let s = f.follow(&me(Vec3::new(60.0, 0.0, 60.0), false), &clock, &mut rng);
        assert!(!s.jump, "never jump in the air");
        assert_eq!(f.index(), 1);
        clock.tick += 1;
        let s = f.follow(&me(Vec3::new(62.0, 0.0, 40.0), true), &clock, &mut rng);
        assert_eq!(s.event, FollowEvent::Arrived);
    }

    #[test]
    fn no_corner_progress_sidesteps_then_drops_the_route() {
        let mut f = PathFollower::default();
        let mut rng = BotRng::from_seed(3);
        let mut clock = BotClock { tick: 1, hz: 60 };
        f.set_route(
            Route {
                corners: vec![walk(500.0, 0.0)],
                cost: 500.0,
            },
            &clock,
        );
        let stuck_at = me(Vec3::ZERO, true);
        let mut events = Vec::new();
        let mut sidestepped = false;
        for _ in 0..200 {
            clock.tick += 1;
            let s = f.follow(&stuck_at, &clock, &mut rng);
            sidestepped |= s.jump && s.dir.y.abs() > 0.5;
            if s.event != FollowEvent::None {
                events.push((clock.tick, s.event));
                break;
            }
        }
        assert!(sidestepped, "a missed sample sidesteps with a jump");
        let (tick, ev) = events.first().copied().expect("an event");
        assert_eq!(ev, FollowEvent::Stuck);
        // First sample at 700 ms records the distance, then two misses.
        assert!((120..=130).contains(&tick), "dropped at tick {tick}");
    }

    #[test]
    fn a_jump_that_falls_short_asks_for_a_new_plan() {
        let mut f = PathFollower::default();
        let mut rng = BotRng::from_seed(1);
        let mut clock = BotClock { tick: 1, hz: 60 };
        let up = Corner {
            pos: Vec3::new(64.0, 0.0, 120.0),
            link: LinkKind::Jump,
            entity: None,
        };
        f.set_route(
            Route {
                corners: vec![walk(0.0, 0.0), up],
                cost: 0.0,
            },
            &clock,
        );
        f.follow(&me(Vec3::new(5.0, 0.0, 0.0), true), &clock, &mut rng);
        // A step down a stair on the way is not a flight.
        clock.tick += 1;
        f.follow(&me(Vec3::new(8.0, 0.0, -2.0), false), &clock, &mut rng);
        clock.tick += 1;
        let s = f.follow(&me(Vec3::new(10.0, 0.0, -4.0), true), &clock, &mut rng);
        assert_eq!(s.event, FollowEvent::None);
        for i in 0..20 {
            clock.tick += 1;
            f.follow(&me(Vec3::new(12.0 + i as f32, 0.0, 30.0), false), &clock, &mut rng);
        }
        clock.tick += 1;
        // Back down at the takeoff height after a real flight: the ledge was not reached.
        let s = f.follow(&me(Vec3::new(40.0, 0.0, 0.0), true), &clock, &mut rng);
        assert_eq!(s.event, FollowEvent::Misplaced);
    }

    #[test]
    fn a_pad_flight_landing_elsewhere_asks_for_a_new_plan() {
        let mut f = PathFollower::default();
        let mut rng = BotRng::from_seed(1);
        let mut clock = BotClock { tick: 1, hz: 60 };
        let pad = Corner {
            pos: Vec3::new(0.0, 800.0, 200.0),
            link: LinkKind::JumpPad,
            entity: Some(EntityId(4)),
        };
        f.set_route(
            Route {
                corners: vec![walk(0.0, 0.0), pad],
                cost: 0.0,
            },
            &clock,
        );
        f.follow(&me(Vec3::ZERO, true), &clock, &mut rng);
        clock.tick += 1;
        f.follow(&me(Vec3::new(0.0, 300.0, 300.0), false), &clock, &mut rng);
        clock.tick += 1;
        let s = f.follow(&me(Vec3::new(0.0, 500.0, 0.0), true), &clock, &mut rng);
        assert_eq!(s.event, FollowEvent::Misplaced);
    }

    #[test]
    fn route_remaining_length() {
        let r = Route {
            corners: vec![walk(3.0, 4.0), walk(3.0, 14.0)],
            cost: 15.0,
        };
        assert!((r.remaining(Vec3::ZERO, 0) - 15.0).abs() < 1e-4);
        assert!((r.remaining(Vec3::new(3.0, 4.0, 0.0), 1) - 10.0).abs() < 1e-4);
        assert_eq!(r.goal(), Some(Vec3::new(3.0, 14.0, 0.0)));
    }
}
