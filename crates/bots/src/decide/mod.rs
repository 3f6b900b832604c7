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
//!
//! | file | holds |
//! |---|---|
//! | `objective.rs` | the objective API: [`Objective`] and the [`ObjectiveProvider`] a game-type layer implements |
//! | `target.rs` | the combat target: candidates, their score, the pick with stickiness |
//! | `engage.rs` | [`Targeting`]: the engagement over time: acquisitions and their reaction delay, re-acquisition, the enemy to chase |
//! | `goal.rs` | the movement goal: [`GoalPlanner`] (progress, give-up, holding, refresh, start) |
//! | `select.rs` | goal selection: the named [`GoalRule`]s in order, the commitment and hysteresis gates, roaming |
//!
//! Target in: the sightings of this decision as [`TargetCandidate`]s; out:
//! one slot. Goal in: a [`GoalContext`] (view, traits, memory, follower,
//! routes, objective, chase); out: a goal and a route set on the follower.

mod engage;
mod goal;
mod objective;
mod select;
mod target;
#[cfg(test)]
mod tests;

pub use engage::{Acquired, Chase, Engagement, TargetNow, Targeting, candidates};
pub use goal::{
    BLACKLIST_MS, CHASE_REFRESH_MS, COMMIT_MS, ESCORT_REFRESH_MS, FIXED_REFRESH_MS, Goal, GoalContext, GoalKind, GoalPlanner, SELECT_INTERVAL_MS,
    INVESTIGATE_LOOK_MS, SWITCH_MARGIN, pursuit_point,
};
pub use objective::{Objective, ObjectiveProvider, SOFT_OBJECTIVE, URGENT_OBJECTIVE};
pub use select::GoalRule;
pub use target::{TargetCandidate, choose_target, target_score};
