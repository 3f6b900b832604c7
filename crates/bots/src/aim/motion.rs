//! [`SeenMotion`]: the target's motion as the aim follows it.
//!
//! Rules (sources in `../shared/docs/reference/aim-bandwidth-listing.md` §1.2):
//!
//! - **Small changes are followed smoothly.** The seen velocity follows the
//!   true one through a first-order filter with the `aimTrackTimeConst`
//!   time constant.
//! - **A change of motion is noticed late.** When the horizontal velocity
//!   changes by more than half the speed (a turn of about 30 degrees at a
//!   constant speed, a stop, a start: BrainWorks counts a target as
//!   changed after a direction change over 30 degrees), the change is
//!   noticed `aimRetargetMsec` later (±20 %). Until then the aim keeps
//!   following the old motion, as a tracking hand does; when it is noticed
//!   the belief jumps to the truth and the hand's error opens by how far
//!   the old motion carried it (see `hand.rs`).
//! - Vertical motion (jumps, falls) is always followed through the filter:
//!   an arc is seen as it happens.

use glam::Vec3;

use crate::content::Traits;
use crate::rng::BotRng;
use crate::view::BotClock;

/// Horizontal speeds below this (units/s) do not count as moving when
/// judging a change of motion.
const MOVING: f32 = 80.0;
/// A change of horizontal velocity larger than this share of the speed is
/// a change of motion (2·sin 15° ≈ 0.52 for a 30 degree turn).
const CHANGE_SHARE: f32 = 0.5;

/// The motion the aim follows.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SeenMotion {
    /// Velocity the aim believes, units/s.
    pub velocity: Vec3,
    /// A change of motion seen and not yet noticed: the tick it will be.
    pub notice_at: Option<u32>,
}

/// What one tick of watching found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    /// Following the motion (or still following the old one).
    Following,
    /// A change of motion was noticed this tick.
    Noticed,
}

impl SeenMotion {
    /// Starts watching a target moving at `velocity` (a fresh acquisition sees it as it is).
    pub fn start(velocity: Vec3) -> Self {
        Self { velocity, notice_at: None }
    }

    /// Whether the aim still follows a motion the target has left.
    pub fn behind(&self) -> bool {
        self.notice_at.is_some()
    }

    /// One tick of watching a target that moves at `truth`.
    pub fn update(&mut self, truth: Vec3, t: &Traits, clock: &BotClock, rng: &mut BotRng) -> Watch {
        if let Some(at) = self.notice_at {
            if clock.tick >= at {
                self.velocity = truth;
                self.notice_at = None;
                return Watch::Noticed;
            }
            // The old horizontal motion is kept; the vertical is followed.
            self.velocity.z = truth.z;
            return Watch::Following;
        }
        if changed(self.velocity, truth) {
            let delay = t.aim_retarget_msec * rng.range(0.8, 1.2);
            self.notice_at = Some(clock.after_ms(delay).max(clock.tick + 1));
            self.velocity.z = truth.z;
            return Watch::Following;
        }
        let k = 1.0 - (-clock.dt() / t.aim_track_time_const.max(0.01)).exp();
        self.velocity += (truth - self.velocity) * k;
        Watch::Following
    }
}

/// Whether the horizontal motion changed from `seen` to `now` by more
/// than the aim follows without noticing.
pub fn changed(seen: Vec3, now: Vec3) -> bool {
    let (a, b) = (seen.truncate(), now.truncate());
    let (sa, sb) = (a.length(), b.length());
    if sa < MOVING && sb < MOVING {
        return false;
    }
    (b - a).length() > CHANGE_SHARE * sa.max(sb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_over_30_degrees_a_stop_or_a_start_is_a_change_and_a_drift_is_not() {
        let v = Vec3::new(320.0, 0.0, 0.0);
        let turned = |deg: f32| {
            let (s, c) = deg.to_radians().sin_cos();
            Vec3::new(320.0 * c, 320.0 * s, 0.0)
        };
        assert!(!changed(v, turned(20.0)));
        assert!(changed(v, turned(35.0)));
        assert!(changed(v, -v), "a reversal");
        assert!(changed(v, Vec3::ZERO), "a stop");
        assert!(changed(Vec3::ZERO, v), "a start");
        assert!(!changed(v, v * 0.8), "slowing a little");
        assert!(!changed(v, v + Vec3::Z * 270.0), "a jump is followed, not a change");
        assert!(!changed(Vec3::X * 40.0, -Vec3::X * 40.0), "shuffling in place");
    }

    #[test]
    fn a_change_is_noticed_after_the_retarget_delay_and_the_old_motion_is_kept_until_then() {
        let t = Traits::at_skill(3.0);
        let mut rng = BotRng::from_seed(3);
        let mut m = SeenMotion::start(Vec3::new(320.0, 0.0, 0.0));
        let back = Vec3::new(-320.0, 0.0, 0.0);
        let mut noticed = None;
        for tick in 1..120 {
            let w = m.update(back, &t, &BotClock { tick, hz: 60 }, &mut rng);
            if w == Watch::Noticed {
                noticed = Some(tick);
                break;
            }
            assert_eq!(m.velocity.x, 320.0, "the old motion is followed until noticed");
        }
        let ms = noticed.expect("noticed") as f32 * 1000.0 / 60.0;
        assert!((0.8 * t.aim_retarget_msec - 17.0..=1.2 * t.aim_retarget_msec + 17.0).contains(&ms), "{ms} ms");
        assert_eq!(m.velocity, back);
    }
}
