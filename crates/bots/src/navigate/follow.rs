//! [`PathFollower`]: steering along one route, corner by corner, with
//! committed actions (jumps, drops, pads, teleporters) and stuck detection
//! by corner progress. It never routes by itself.

use glam::Vec3;

use super::route::{Corner, LinkKind, Route};
use crate::rng::BotRng;
use crate::view::{BotClock, PlayerSnap};

mod reach;
mod takeoff;

use reach::{Reach, off_leg, under_walk_leg};

/// In a crawl, how far off the line between its ends a bot may be before
/// it steps back onto it, units: a low passage may be only a few units
/// wider than the box.
pub(super) const CRAWL_LINE: f32 = 2.0;
/// How far along a crawl's line, past the bot's own point on it, it steers
/// while stepping back onto it, units (short: nearly straight across).
pub(super) const CRAWL_LOOK: f32 = 8.0;

/// Horizontal radius within which a walk corner counts as reached.
pub const CORNER_RADIUS: f32 = 28.0;
/// The tighter radius for the last walk corner before an action (a precise takeoff).
pub const TAKEOFF_RADIUS: f32 = 12.0;
/// Vertical tolerance for reaching a corner.
pub const CORNER_HEIGHT: f32 = 32.0;
/// Farther than this from the leg to a walk corner (across it, or below
/// it), a bot was carried off its route and re-plans, units.
pub const OFF_ROUTE: f32 = 192.0;
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
/// Within this horizontal distance of a drop's landing, a bot on the ledge
/// slows down, units.
const DROP_SLOW_RADIUS: f32 = 96.0;
/// A bot airborne above a corner within this horizontal distance, with a
/// pad or teleporter next, was launched by it, units.
const LAUNCH_RADIUS: f32 = 64.0;
/// Rising faster than this is a launch (a jump never is, 32 units up), units/s.
const LAUNCH_SPEED: f32 = 200.0;
/// Standing this far below the walk leg being followed is being off it, units.
const WALK_LEG_BELOW: f32 = 96.0;
/// The share of full speed a drop is stepped off at.
const DROP_APPROACH_SPEED: f32 = 0.5;
/// Stopped without progress this close to the last corner counts as arrived.
const NEAR_GOAL: f32 = 56.0;
/// A step of more than this between ticks is a teleport.
const TELEPORT_STEP: f32 = 120.0;
/// A bot this far below a jump's exit after the jump fell short, units.
const JUMP_SHORT: f32 = 12.0;
/// A bot slower than this is aligned with any jump, units/s.
const ALIGNED_SLOW: f32 = 80.0;
/// A run within about 25 degrees of a jump's direction is aligned with it.
const ALIGNED_COS: f32 = 0.9;
/// Gravity assumed for a drop's fall time (Quake 3's default), units/s².
const FALL_GRAVITY: f32 = 800.0;
/// Running speed (a wish of length 1), units/s.
const RUN_SPEED: f32 = 320.0;
/// The slowest a drop is stepped off at, as a share of full speed (below
/// about a fifth, ground friction holds a player still).
const DROP_CRAWL_SPEED: f32 = 0.25;
/// A jump's run-up spot lies this far behind its takeoff, and a bot
/// running across the jump this close to the takeoff turns there, units.
const RUN_UP_BACK: f32 = 48.0;
/// A jump across more than this is a jump over a gap, taken only at its
/// speed ([`PathFollower::fast_enough_for`]), units.
const GAP_JUMP_ACROSS: f32 = 96.0;
/// The share of a gap jump's takeoff speed (with its margin; a full run
/// where it has none) a bot must run at along the jump to take it.
const GAP_JUMP_SPEED_SHARE: f32 = 0.8;
/// Within this of a jump's or a drop's takeoff corner the run-up is
/// committed (no strafing, sidesteps or separation), units.
const TAKEOFF_RUN_UP: f32 = 128.0;
/// Within this of a swim's exit (horizontally) a bot in the water faces
/// the exit whatever it fights, units.
const SWIM_AT_WALL: f32 = 64.0;
/// Waiting for a lift to come back down drops the route after this, ms.
pub const LIFT_WAIT_MS: f32 = 8000.0;
/// A bot heading for a lift's boarding spot waits (when the lift is away)
/// only farther than this from the spot: closer, it is on the plat's edge
/// already and steps on, units.
const LIFT_WAIT_RADIUS: f32 = 40.0;
/// A bot waiting for a lift this far below its boarding spot…
const LIFT_SHAFT_BELOW: f32 = 4.0;
/// …and this close to it (horizontally) stands where the plat comes down,
/// units.
const LIFT_SHAFT_RADIUS: f32 = 128.0;
/// A bot on the ground this far below a lift's boarding spot is off the
/// plat (in its shaft or beside it), units.
const RIDER_BELOW_BOARDING: f32 = 8.0;
/// A rider this far from the middle of the plat steps back toward it, units.
const LIFT_CENTRE: f32 = 8.0;

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
    /// In water: -1 to dive toward a corner below, 1 to rise toward one
    /// above, 0 for no preference (a submerged bot then surfaces).
    pub swim: i8,
    /// The action needs the view along `look` (a water jump climbs only
    /// toward where the player faces): aim there even while fighting.
    pub face: bool,
    /// Hold crouch (on a crouch link's leg, through a passage too low to
    /// stand in).
    pub crouch: bool,
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
        swim: 0,
        face: false,
        crouch: false,
        event: FollowEvent::None,
    };
}

/// How far above or below a corner a swimming bot may be before it dives
/// or rises toward it, units (within the height a corner counts as reached).
pub const SWIM_MARGIN: f32 = CORNER_HEIGHT * 0.5;

/// Where a bot at `at` off the line from a crawl's `entry` to its far
/// `end` (more than [`CRAWL_LINE`] aside) steers to get back onto it: the
/// point [`CRAWL_LOOK`] along the line past its own; `None` on the line,
/// or past the far end.
fn crawl_line_spot(entry: Vec3, end: Vec3, at: Vec3) -> Option<Vec3> {
    let line = Vec3::new(end.x - entry.x, end.y - entry.y, 0.0);
    let length = line.length();
    if length < 1.0 {
        return None;
    }
    let along = line / length;
    let rel = Vec3::new(at.x - entry.x, at.y - entry.y, 0.0);
    let t = rel.dot(along);
    let aside = (rel - along * t).length();
    if aside <= CRAWL_LINE || t >= length {
        return None;
    }
    Some(entry + along * (t.max(0.0) + CRAWL_LOOK).min(length))
}

/// Which way to swim for a corner at `to`: a bot in water at least to its
/// waist dives toward a corner well below it (a route along a pool's floor
/// or through a flooded passage) and rises toward one well above; out of
/// water, or level with the corner, no preference.
pub fn swim_toward(me: &PlayerSnap, to: Vec3) -> i8 {
    let dz = to.z - me.origin.z;
    match me.water_level {
        0 | 1 => 0,
        _ if dz < -SWIM_MARGIN => -1,
        _ if dz > SWIM_MARGIN => 1,
        _ => 0,
    }
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
    /// Where the bot stood at the last stuck sample.
    sample_pos: Vec3,
    strikes: u32,
    unstick_until: u32,
    unstick_side: f32,
    best_dist: f32,
    /// Ticks in the air that make a flight (from the tick rate).
    flight_min: u32,
    /// The last tick the route made progress (index or a closer approach).
    pub progress_tick: u32,
    last_origin: Option<Vec3>,
    /// Where the bot stood when it first followed the route: the start of
    /// the leg to the first corner.
    route_start: Option<Vec3>,
    /// Where a pad's flight is steered once it hovers over its landing:
    /// chosen once per flight, so a landing and a next corner on opposite
    /// rims of a shaft do not pull the bot back and forth over the hole.
    pad_heading: Option<Vec3>,
    /// Whether the lift the route boards next is away (up, or on its way)
    /// rather than down where it can be stepped onto: set by the brain
    /// from the live world each tick, false when no lift is next.
    pub lift_away: bool,
    /// Since when the bot has waited for a lift to come down.
    lift_wait_since: Option<u32>,
}

impl PathFollower {
    /// Starts following `route` (replaces any route).
    ///
    /// A route that replaces one before its next stuck sample (a chase
    /// re-routes toward its quarry every 750 ms) keeps the sampling going:
    /// that sample then asks whether the bot moved at all, so re-routing
    /// never hides a bot standing against a wall.
    pub fn set_route(&mut self, route: Route, clock: &BotClock) {
        let continuing = self.route.is_some() && clock.tick < self.next_sample;
        self.route = Some(route);
        self.index = 0;
        self.route_start = None;
        self.action_since = None;
        self.airborne_seen = false;
        self.longest_flight = 0;
        self.pad_heading = None;
        self.lift_wait_since = None;
        if !continuing {
            self.next_sample = clock.after_ms(STUCK_SAMPLE_MS);
            self.strikes = 0;
            self.sample_pos = Vec3::NAN;
        }
        self.sample_index = 0;
        self.sample_dist = f32::INFINITY;
        self.best_dist = f32::INFINITY;
        self.progress_tick = clock.tick;
    }

    /// Drops the route.
    pub fn clear(&mut self) {
        self.route = None;
        self.index = 0;
        self.action_since = None;
        self.lift_wait_since = None;
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

    /// Where the route boards a lift next: the corner headed for, when the
    /// link after it is a lift's.
    pub fn boarding(&self) -> Option<Vec3> {
        let r = self.route.as_ref()?;
        let next = r.corners.get(self.index + 1)?;
        let here = r.corners.get(self.index)?;
        (next.link == LinkKind::Lift && here.link == LinkKind::Walk).then_some(here.pos)
    }

    /// Whether `corner` boards a lift (`next` rides it) that is away.
    fn boarding_away(&self, corner: &Corner, next: Option<&Corner>) -> bool {
        self.lift_away && corner.link == LinkKind::Walk && next.is_some_and(|n| n.link == LinkKind::Lift)
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
        self.sample_pos = Vec3::NAN;
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
        if let Some(event) = self.pass_reached(corners, me, clock) {
            return Steer { event, ..Steer::IDLE };
        }
        let Some(corner) = corners.get(self.index).copied() else {
            return Steer {
                event: FollowEvent::Arrived,
                ..Steer::IDLE
            };
        };
        if let Some(event) = self.check_leg(corners, corner, me, clock) {
            return Steer { event, ..Steer::IDLE };
        }
        let to = corner.pos - me.origin;
        let flat = Vec3::new(to.x, to.y, 0.0);
        let dist = flat.length();
        if dist + 8.0 < self.best_dist {
            self.best_dist = dist;
            self.progress_tick = clock.tick;
        }
        let last = self.index + 1 == corners.len();
        if let Some(ev) = self.sample_stuck(dist, corner, last, me, clock, rng) {
            return Steer {
                event: ev,
                ..Steer::IDLE
            };
        }
        let next = corners.get(self.index + 1);
        let mut dir = flat.normalize_or_zero();
        // Into a crawl along its line: a low passage may be little wider
        // than the box, and a bot pushed off the line before it (a fight,
        // a neighbour, a corner reached off-centre) heading straight for
        // the far end wedges against the mouth's edge. Off the line, it
        // steps back onto it first, a little way along.
        if corner.link == LinkKind::Crouch
            && let Some(entry) = self.index.checked_sub(1).and_then(|i| corners.get(i))
            && let Some(on_line) = crawl_line_spot(entry.pos, corner.pos, me.origin)
        {
            dir = Vec3::new(on_line.x - me.origin.x, on_line.y - me.origin.y, 0.0).normalize_or_zero();
        }
        // Over a pad's landing, coming down: the landing node may stand on
        // the very edge of its ledge, so head on toward the next corner
        // (onto the ledge) rather than hover over the edge and fall past it.
        // Once chosen, the heading holds for the rest of the flight (a
        // bot that falls back into a pad's column and rises again would
        // otherwise turn toward the landing below the ledge and toward the
        // next corner above it, and hover over the hole).
        if corner.link == LinkKind::JumpPad && !me.on_ground {
            // The first corner beyond the landing (a route may repeat the
            // landing as the entry of its next link).
            let beyond = corners
                .iter()
                .skip(self.index + 1)
                .find(|c| Vec3::new(c.pos.x - corner.pos.x, c.pos.y - corner.pos.y, 0.0).length() > CORNER_RADIUS);
            if self.pad_heading.is_none()
                && me.origin.z > corner.pos.z
                && dist < CORNER_RADIUS
                && let Some(next) = beyond
            {
                self.pad_heading = Some(next.pos);
            }
            if let Some(h) = self.pad_heading {
                dir = Vec3::new(h.x - me.origin.x, h.y - me.origin.y, 0.0).normalize_or_zero();
            }
        }
        // A drop is stepped off at a walk: a run carries a bot far past
        // where the drop lands, into whatever lies beyond (a jump pad, a pit).
        // How fast: what carries the bot over the landing during the fall
        // and no further (a landing just below the edge of a high drop,
        // beside a lava pit, is stepped off at a crawl), at most half speed.
        if corner.link == LinkKind::Drop && me.on_ground && dist < DROP_SLOW_RADIUS {
            let fall_s = takeoff::fall_time(me.origin, corner.pos);
            dir *= (dist / fall_s / RUN_SPEED).clamp(DROP_CRAWL_SPEED, DROP_APPROACH_SPEED);
        }
        // The run-up to a drop or to a short jump down slows in time to
        // leave the ground at the speed that lands on the landing.
        if me.on_ground
            && !corner.link.is_special()
            && let Some(speed) = next.and_then(|n| takeoff::takeoff_speed(corner.pos, n))
        {
            dir *= takeoff::run_up_share(dist, speed);
        }
        // A jump's run-up: near its takeoff with momentum across the jump
        // (the leap would carry the bot off sideways), or at the takeoff
        // too slow for a jump over a gap, head for a spot behind the
        // takeoff on the jump's line, which turns the run; once slow or
        // running along the jump, on to the takeoff (a spot inside a wall
        // only slows the bot down, and then it goes on).
        if let Some(n) = next.filter(|c| c.link == LinkKind::Jump)
            && corner.link == LinkKind::Walk
            && dist < RUN_UP_BACK
            && (!Self::aligned_for(&corner, next, me) || (dist <= TAKEOFF_RADIUS && !Self::fast_enough_for(&corner, next, me)))
        {
            let jdir = Vec3::new(n.pos.x - corner.pos.x, n.pos.y - corner.pos.y, 0.0).normalize_or_zero();
            let spot = corner.pos - jdir * RUN_UP_BACK;
            dir = Vec3::new(spot.x - me.origin.x, spot.y - me.origin.y, 0.0).normalize_or_zero();
        }
        // A lift that is away: wait short of its boarding spot (stepping
        // into the empty shaft would drop the bot under the plat).
        let next_is_lift = next.is_some_and(|c| c.link == LinkKind::Lift);
        if next_is_lift && self.lift_away && me.on_ground {
            // Below the boarding spot and near it: standing in the shaft
            // the plat comes down into, which would hold it up (a plat
            // lowering onto a player goes back up). Step out, away from it.
            // Waiting for a lift that is away is no lack of progress: the
            // statistics' stuck clock starts over (the wait has its own
            // limit, LIFT_WAIT_MS).
            if me.origin.z < corner.pos.z - LIFT_SHAFT_BELOW && dist < LIFT_SHAFT_RADIUS {
                self.lift_wait_since.get_or_insert(clock.tick);
                self.progress_tick = clock.tick;
                let away = Vec3::new(me.origin.x - corner.pos.x, me.origin.y - corner.pos.y, 0.0).normalize_or_zero();
                return Steer { dir: away, look: Some(corner.pos), ..Steer::IDLE };
            }
            if dist > LIFT_WAIT_RADIUS {
                self.lift_wait_since.get_or_insert(clock.tick);
                self.progress_tick = clock.tick;
                return Steer { dir: Vec3::ZERO, look: Some(corner.pos), ..Steer::IDLE };
            }
        }
        self.lift_wait_since = None;
        // Riding: stay in the middle of the plat until level with the top.
        if corner.link == LinkKind::Lift
            && me.origin.z < corner.pos.z - CORNER_HEIGHT
            && let Some(board) = self.index.checked_sub(1).and_then(|i| corners.get(i))
        {
            let to_mid = Vec3::new(board.pos.x - me.origin.x, board.pos.y - me.origin.y, 0.0);
            let dir = if to_mid.length() > LIFT_CENTRE { to_mid.normalize_or_zero() * DROP_APPROACH_SPEED } else { Vec3::ZERO };
            return Steer { dir, committed: true, look: Some(corner.pos), ..Steer::IDLE };
        }
        // Running up to a jump's or a drop's takeoff is part of the action:
        // a strafe or a nudge from a neighbour there sends the bot off the
        // ledge sideways (into the pit a gap jump crosses). A stuck bot's
        // sidestep still happens (the way to the takeoff may need a hop).
        let next_leaves_ground = next.is_some_and(|c| matches!(c.link, LinkKind::Jump | LinkKind::Drop));
        let committed = corner.link.is_special() || (next_leaves_ground && dist < TAKEOFF_RUN_UP);
        // A jump link jumps from the ground toward its exit; everything else walks.
        let mut jump = corner.link == LinkKind::Jump && me.on_ground;
        // Still running too fast for a jump down: friction first.
        if jump
            && let Some(speed) = takeoff::takeoff_speed(me.origin, &corner)
            && takeoff::too_fast(me.velocity.truncate().length(), speed)
        {
            jump = false;
            dir *= DROP_CRAWL_SPEED;
        }
        if self.unsticking(clock) && !corner.link.is_special() {
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
            swim: swim_toward(me, corner.pos),
            // The water jump climbs only toward where the swimmer faces.
            face: corner.link == LinkKind::Swim && me.water_level >= 1 && dist < SWIM_AT_WALL,
            crouch: corner.link == LinkKind::Crouch,
            event: FollowEvent::None,
        }
    }

    /// Advances over every corner already reached; `Misplaced` when the bot
    /// stands where a corner's link would have put it, but elsewhere.
    fn pass_reached(&mut self, corners: &[Corner], me: &PlayerSnap, clock: &BotClock) -> Option<FollowEvent> {
        while let Some(corner) = corners.get(self.index) {
            let prev = if self.index == 0 {
                None
            } else {
                corners.get(self.index - 1).map(|c| c.pos)
            };
            let next = corners.get(self.index + 1);
            // A lift's boarding spot is reached only with the plat there to
            // stand on: below the spot while the plat is away, the bot is
            // in its shaft (within a corner's height of the spot when the
            // plat rests a step above the floor), and must wait out of it,
            // not ride. On the plat as it starts up, it rides.
            if self.boarding_away(corner, next) && me.origin.z < corner.pos.z - RIDER_BELOW_BOARDING {
                break;
            }
            match self.reached(corner, prev, next, me) {
                Reach::No => break,
                Reach::Yes => self.advance(clock),
                Reach::Elsewhere => return Some(FollowEvent::Misplaced),
            }
        }
        None
    }

    /// Whether the leg to `corner` still holds: `Misplaced` when the bot was
    /// carried off it, `TimedOut` when a special link took too long. Starts
    /// the clock of a special link.
    fn check_leg(&mut self, corners: &[Corner], corner: Corner, me: &PlayerSnap, clock: &BotClock) -> Option<FollowEvent> {
        // Carried off the leg to a walk, drop or jump corner (a teleporter
        // the route did not take, a push, a fall): heading on would walk
        // into whatever lies between, so the route is dropped to re-plan
        // from here. A drop or a jump is a short leg from its ledge; only
        // pads and teleporters carry a bot far from theirs on purpose.
        // The first leg starts where the bot stood when it took the route.
        let start = *self.route_start.get_or_insert(me.origin);
        let leg_from = if self.index == 0 { Some(start) } else { corners.get(self.index - 1).map(|c| c.pos) };
        // Below the way onto a lift that is away: in its shaft, where the
        // follower steps the bot out to wait; not carried off the route.
        let in_shaft = self.boarding_away(&corner, corners.get(self.index + 1));
        if matches!(corner.link, LinkKind::Walk | LinkKind::Drop | LinkKind::Jump | LinkKind::Crouch)
            && let Some(from) = leg_from
            && (off_leg(from, corner.pos, me.origin) > OFF_ROUTE
                || (corner.link == LinkKind::Walk && me.on_ground && !in_shaft && under_walk_leg(from, corner.pos, me.origin) > WALK_LEG_BELOW))
        {
            return Some(FollowEvent::Misplaced);
        }
        if corner.link.is_special() && self.action_since.is_none() {
            self.action_since = Some(clock.tick);
            self.airborne_seen = !me.on_ground;
            self.longest_flight = 0;
        }
        if let Some(since) = self.action_since
            && clock.ms_since(since) > ACTION_TIMEOUT_MS
        {
            return Some(FollowEvent::TimedOut);
        }
        None
    }

    fn advance(&mut self, clock: &BotClock) {
        self.index += 1;
        self.pad_heading = None;
        self.action_since = None;
        self.airborne_seen = false;
        self.longest_flight = 0;
        self.best_dist = f32::INFINITY;
        self.progress_tick = clock.tick;
    }

    fn sample_stuck(
        &mut self,
        dist: f32,
        corner: Corner,
        last: bool,
        me: &PlayerSnap,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Option<FollowEvent> {
        if clock.tick < self.next_sample {
            return None;
        }
        self.next_sample = clock.after_ms(STUCK_SAMPLE_MS);
        let link = corner.link;
        let in_grace = self.action_since.is_some_and(|s| clock.ms_since(s) < ACTION_GRACE_MS);
        // Airborne on a pad's or a teleporter's flight, or a drop's fall,
        // is progress; a jump link is not exempt: a bot jumping again and
        // again against a ledge it cannot clear is airborne half the time.
        let flying = matches!(link, LinkKind::JumpPad | LinkKind::Teleport | LinkKind::Drop) && !me.on_ground;
        // Riding a lift (or waiting on it for the ride) is the action's
        // progress until its time limit; waiting for one to come down is
        // too, until its own.
        let riding = link == LinkKind::Lift && me.origin.z < corner.pos.z - CORNER_HEIGHT;
        // Swimming up to a ledge gains height, not distance.
        let swimming = link == LinkKind::Swim && me.water_level >= 1;
        let waiting = self.lift_wait_since.is_some_and(|s| clock.ms_since(s) < LIFT_WAIT_MS);
        if self.lift_wait_since.is_some() && !waiting {
            return Some(FollowEvent::TimedOut);
        }
        // A new route since the last sample has no distance to compare:
        // whether the bot moved since then decides (a first sample, NaN,
        // counts as progress).
        let progressed = if self.sample_dist.is_finite() {
            self.index != self.sample_index || dist < self.sample_dist - STUCK_PROGRESS
        } else {
            self.sample_pos.is_nan() || me.origin.distance(self.sample_pos) >= STUCK_PROGRESS
        };
        self.sample_index = self.index;
        self.sample_dist = dist;
        self.sample_pos = me.origin;
        if progressed || in_grace || flying || riding || swimming || waiting {
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
