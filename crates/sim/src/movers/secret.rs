//! Quake 1's `func_door_secret` (`doors.qc`, `fd_secret_*`): used, it moves
//! sideways (or down) out of the wall, pauses a second, slides along its
//! facing, waits `wait` seconds open and comes back the same way, pausing
//! a second between the moves. With `SECRET_OPEN_ONCE` it stays open.
//! Blocked, it stops and hurts (it never turns around).
//!
//! Plain data like [`Binary`](super::binary::Binary): time in ticks, one
//! [`Secret::advance`] per tick.

use glam::Vec3;

use super::binary::Transition;

/// Seconds a secret door pauses between its two moves.
pub const SECRET_PAUSE_S: f32 = 1.0;

/// Where a secret door is in its cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecretStage {
    /// Closed, at rest.
    Closed,
    /// Moving out to the first offset.
    Out,
    /// Paused at the first offset on the way open.
    PauseOut,
    /// Sliding to the second offset.
    Slide,
    /// Open, waiting to return.
    Open,
    /// Sliding back to the first offset.
    SlideBack,
    /// Paused at the first offset on the way back.
    PauseBack,
    /// Moving back into the wall.
    In,
}

impl SecretStage {
    /// A stable number for the state hash.
    pub fn code(self) -> u32 {
        self as u32 + 1
    }
}

/// A secret door's motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Secret {
    /// Offset after the first move.
    pub first: Vec3,
    /// Offset after the second move (open).
    pub second: Vec3,
    /// Units per second.
    pub speed: f32,
    /// Seconds open before returning.
    pub wait_s: f32,
    /// Stays open once opened.
    pub open_once: bool,
    /// Where it is in its cycle.
    pub stage: SecretStage,
    /// The current offset.
    pub offset: Vec3,
    /// While paused or open: the tick it moves on.
    pub until: u32,
}

impl Secret {
    /// A closed secret door with these moves.
    pub fn new(first: Vec3, second: Vec3, speed: f32, wait_s: f32, open_once: bool) -> Secret {
        Secret { first, second, speed, wait_s, open_once, stage: SecretStage::Closed, offset: Vec3::ZERO, until: 0 }
    }

    /// Used (shot or triggered): a closed door starts opening; otherwise
    /// nothing (Quake 1 ignores uses while it moves).
    pub fn activate(&mut self) -> Transition {
        if self.stage != SecretStage::Closed {
            return Transition::None;
        }
        self.stage = SecretStage::Out;
        Transition::Started
    }

    /// Whether it is closed and can be used.
    pub fn is_closed(&self) -> bool {
        self.stage == SecretStage::Closed
    }

    /// The offset it would have after one tick of `dt` seconds (the mover
    /// system moves the collision there and calls [`Secret::advance`] if the
    /// move was not blocked).
    pub fn next_offset(&self, dt: f32) -> Vec3 {
        let Some(goal) = self.goal() else { return self.offset };
        let to_goal = goal - self.offset;
        let step = self.speed.max(0.0) * dt;
        if to_goal.length() <= step { goal } else { self.offset + to_goal.normalize_or_zero() * step }
    }

    fn goal(&self) -> Option<Vec3> {
        match self.stage {
            SecretStage::Out | SecretStage::SlideBack => Some(self.first),
            SecretStage::Slide => Some(self.second),
            SecretStage::In => Some(Vec3::ZERO),
            _ => None,
        }
    }

    /// One tick at `tick` after the door reached `offset` (what
    /// [`Secret::next_offset`] gave, if the move was not blocked).
    pub fn advance(&mut self, offset: Vec3, tick: u32, hz: u32) -> Transition {
        self.offset = offset;
        let ticks = |s: f32| crate::clock::MatchClock { tick: 0, hz }.ticks(s);
        let arrived = self.goal().is_some_and(|g| g == offset);
        let (next, until) = match self.stage {
            SecretStage::Out if arrived => (SecretStage::PauseOut, tick + ticks(SECRET_PAUSE_S)),
            SecretStage::Slide if arrived && self.open_once => (SecretStage::Open, u32::MAX),
            SecretStage::Slide if arrived => (SecretStage::Open, tick + ticks(self.wait_s.max(0.0))),
            SecretStage::SlideBack if arrived => (SecretStage::PauseBack, tick + ticks(SECRET_PAUSE_S)),
            SecretStage::In if arrived => (SecretStage::Closed, 0),
            SecretStage::PauseOut if tick >= self.until => (SecretStage::Slide, 0),
            SecretStage::Open if tick >= self.until => (SecretStage::SlideBack, 0),
            SecretStage::PauseBack if tick >= self.until => (SecretStage::In, 0),
            _ => return Transition::None,
        };
        self.stage = next;
        self.until = until;
        if arrived { Transition::Arrived } else { Transition::Started }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_in_two_moves_waits_and_closes_the_same_way() {
        let hz = 50;
        let dt = 1.0 / hz as f32;
        // 24 down at 50 u/s (0.48 s), pause 1 s, 128 back (2.56 s), wait 5 s.
        let mut d = Secret::new(Vec3::new(0.0, 0.0, -24.0), Vec3::new(-128.0, 0.0, -24.0), 50.0, 5.0, false);
        assert_eq!(d.activate(), Transition::Started);
        assert_eq!(d.activate(), Transition::None, "a moving door ignores uses");
        let mut stages = vec![d.stage];
        let mut open_at = None;
        for tick in 1..1000 {
            let to = d.next_offset(dt);
            d.advance(to, tick, hz);
            if stages.last() != Some(&d.stage) {
                stages.push(d.stage);
                if d.stage == SecretStage::Open {
                    open_at = Some(tick);
                }
            }
            if d.stage == SecretStage::Closed {
                break;
            }
        }
        use SecretStage::*;
        assert_eq!(stages, vec![Out, PauseOut, Slide, Open, SlideBack, PauseBack, In, Closed]);
        // 24 + 128 units at 1 unit a tick plus a 50-tick pause.
        assert_eq!(open_at, Some(24 + 50 + 128));
        assert_eq!(d.offset, Vec3::ZERO);
        assert!(d.is_closed());
    }

    #[test]
    fn open_once_stays_open() {
        let mut d = Secret::new(Vec3::X * 10.0, Vec3::new(10.0, 10.0, 0.0), 1000.0, 1.0, true);
        d.activate();
        for tick in 1..10_000 {
            let to = d.next_offset(0.02);
            d.advance(to, tick, 50);
        }
        assert_eq!((d.stage, d.offset), (SecretStage::Open, Vec3::new(10.0, 10.0, 0.0)));
    }
}
