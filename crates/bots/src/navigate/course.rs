//! [`Course`]: one bot's navigation layer: the route follower, off-mesh
//! recovery when there has been no route for a while, and the jump pads
//! and teleporters taken along the way (for the statistics).
//!
//! In: the route set by `decide`, the bot's snapshot, routes for recovery,
//! the clock and RNG; out: one [`Steer`] per tick and a [`FollowEvent`]
//! for the goal layer.

use glam::Vec3;
use quarry_map::Trace;

use super::{FollowEvent, LinkKind, Navigator, PathFollower, Recovery, Steer};
use crate::rng::BotRng;
use crate::decide::GoalKind;
use crate::stats::BotStats;
use crate::stuck::{StuckEnd, StuckLog};
use crate::view::{BotClock, PlayerSnap};

/// No route for this long starts off-mesh recovery, ms.
pub const RECOVERY_AFTER_MS: f32 = 1000.0;
/// No corner progress for this long counts as stuck in the statistics, ms.
pub const STUCK_STAT_MS: f32 = 2000.0;

/// How far above and below a boarding spot a lift's top counts as down
/// there (the spot is a player origin on the lowered top), units: less
/// than a step, since a plat may rest a step above the floor beside it,
/// and the floor under a plat that is up must not read as the plat.
const LIFT_DOWN_SLACK: f32 = 8.0;

/// Whether a lift is down at `board` (a player origin standing on its
/// lowered top) in the live `trace` world: a box like `me`'s, dropped from
/// a little above the spot, lands within a little of it. A plat that is up
/// or on its way leaves the spot empty (the box falls past it, to the
/// floor) or fills it.
pub fn lift_down_at(trace: &dyn Trace, me: &PlayerSnap, board: Vec3) -> bool {
    let from = board + Vec3::Z * LIFT_DOWN_SLACK;
    let tr = trace.trace(from, board - Vec3::Z * LIFT_DOWN_SLACK, me.mins, me.maxs, quarry_map::Contents::MASK_PLAYER_SOLID);
    !tr.start_solid && tr.fraction < 1.0 && (tr.end.z - board.z).abs() <= LIFT_DOWN_SLACK
}

/// A bot's route following and recovery.
#[derive(Debug, Clone, Default)]
pub struct Course {
    /// The route follower.
    pub follower: PathFollower,
    /// Off-mesh recovery.
    pub recovery: Recovery,
    /// Since when there has been no route.
    no_route_since: Option<u32>,
    /// The link of the corner last headed for (a pad or teleporter counts
    /// once the follower moves past it).
    last_link: Option<LinkKind>,
}

impl Course {
    /// A new life: no route, no recovery, nothing counted pending.
    pub fn reset_life(&mut self) {
        self.follower.clear();
        self.recovery.reset();
        self.no_route_since = None;
        self.last_link = None;
    }

    /// Without a route: once there has been none for a while (or the goal
    /// keeps failing to route), and unless the bot holds a position on
    /// purpose, recovery steers instead of `steer`.
    #[expect(clippy::too_many_arguments, reason = "one recovery check with everything it reads")]
    pub fn recover(
        &mut self,
        steer: Steer,
        me: &PlayerSnap,
        nav: &mut dyn Navigator,
        trace: &dyn Trace,
        holding: bool,
        failing: bool,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Steer {
        if self.follower.route().is_some() {
            self.no_route_since = None;
            self.recovery.reset();
            return steer;
        }
        let since = *self.no_route_since.get_or_insert(clock.tick);
        if !holding && (clock.ms_since(since) > RECOVERY_AFTER_MS || failing) {
            return self.recovery.steer(me, nav, trace, clock, rng);
        }
        steer
    }

    /// Notes the link of the corner headed for now.
    pub fn note_corner(&mut self) {
        if let Some(link) = self.follower.corner().map(|c| c.link) {
            self.last_link = Some(link);
        }
    }

    /// Counts the pending link if it was a jump pad, a teleporter or a lift.
    pub fn count_link(&mut self, stats: &mut BotStats) {
        match self.last_link.take() {
            Some(LinkKind::JumpPad) => stats.jump_pads += 1,
            Some(LinkKind::Teleport) => stats.teleports += 1,
            Some(LinkKind::Lift) => stats.lifts += 1,
            _ => {}
        }
    }

    /// After this tick's route event: stuck time (and the stuck episode
    /// at `at`, heading for `goal`), and a pad or teleport link completed
    /// (the corner index moved past it).
    pub fn count_after(&mut self, event: FollowEvent, stats: &mut BotStats, log: &mut StuckLog, at: Vec3, goal: Option<GoalKind>, clock: &BotClock) {
        let routed = self.follower.route().is_some();
        let stuck = routed && clock.ms_since(self.follower.progress_tick) > STUCK_STAT_MS;
        if stuck {
            stats.stuck_ticks += 1;
        }
        let end = match event {
            FollowEvent::Stuck | FollowEvent::TimedOut => StuckEnd::RouteDropped,
            _ if !routed => StuckEnd::RouteGone,
            _ => StuckEnd::Progressed,
        };
        let link = self.follower.corner().map(|c| c.link);
        log.tick(stuck, clock.tick, at, goal, link, end);
        if let Some(prev) = self.last_link
            && self.follower.corner().map(|c| c.link) != Some(prev)
            && event == FollowEvent::None
        {
            self.count_link(stats);
        }
    }
}
