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
//!   ground and landing at the exit, with a bounded time limit; a lift is
//!   waited for short of its boarding spot while it is away (the brain
//!   looks for its top in the live world), then ridden standing in its
//!   middle; a swim rises to the surface facing the ledge (the water jump
//!   climbs only where the bot looks);
//! - detects being stuck by *corner progress* (the corner index advanced
//!   or the distance to the corner shrank), not by any motion, sampled
//!   every 700 ms; a miss sidesteps with a jump for 900 ms on a random
//!   side, and a second miss in a row drops the route so the goal layer
//!   re-routes or gives up;
//! - reports arrival, so the goal layer can decide what is next.
//!
//! It never routes by itself: re-pathing, give-up deadlines and the
//! blacklist live in `decide.rs`, which owns the goal.
//!
//! | file | holds |
//! |---|---|
//! | `route.rs` | [`Route`], [`Corner`], the [`Navigator`] trait routes come from (plus a straight-line stand-in) and the [`Traveller`] each query is for |
//! | `follow.rs` | [`PathFollower`]: corners, committed actions, stuck detection; its [`Steer`] and [`FollowEvent`] |
//! | `follow/reach.rs` | when a corner counts as reached (by each link kind), the legs' geometry |
//! | `recovery.rs` | [`Recovery`]: off-mesh steering back to the mesh when there is no route |
//! | `course.rs` | [`Course`]: one bot's follower and recovery together, with the links it took counted |
//!
//! In: the bot's [`PlayerSnap`](crate::view::PlayerSnap), the clock and
//! its RNG; out: one [`Steer`] per tick.

mod course;
mod follow;
mod recovery;
mod route;
#[cfg(test)]
mod tests;

pub use course::{Course, RECOVERY_AFTER_MS, STUCK_STAT_MS, lift_down_at};
pub use follow::{
    ACTION_GRACE_MS, ACTION_TIMEOUT_MS, CORNER_HEIGHT, CORNER_RADIUS, FollowEvent, LIFT_WAIT_MS, OFF_ROUTE, OVERSHOOT, PathFollower, STUCK_PROGRESS,
    STUCK_SAMPLE_MS, STUCK_STRIKES, SWIM_MARGIN, Steer, TAKEOFF_RADIUS, UNSTICK_MS, swim_toward,
};
pub use recovery::{RECOVERY_RADIUS, RECOVERY_SEARCH_MS, Recovery, WANDER_HOLD_MS};
pub use route::{Corner, GatePlan, LinkKind, Navigator, Route, StraightNavigator, Traveller};
