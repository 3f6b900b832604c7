//! [`HandError`]: the error a hand makes in putting the view on a target,
//! and how it closes.
//!
//! Rules, with their sources (`../shared/docs/reference/aim-bandwidth-listing.md` §1.2):
//!
//! - **The error is held, not rolled per shot.** It is an angular offset
//!   (pitch, yaw) between where the target is and where the bot believes it
//!   is, so the view steers to the wrong place until it is corrected.
//! - **It closes by a random share at each correction step**, one step per
//!   hand reaction (`aimCorrectMsec`, jittered ±20 %), each removing a share
//!   drawn between half and one and a half times `aimCorrectShare`
//!   (BrainWorks' `ai_aim.c`: perceived error shrinks by a random fraction
//!   each `react_time × factor`). It never closes in one step.
//! - **It opens on acquiring a target** with a size of `aimErrorDeg`
//!   (scaled by 0.6–1.0): past the target along the turn on large turns
//!   (over [`OVERSHOOT_TURN_DEG`]), short of it on small ones, as the
//!   first sub-movement of a human pointing motion overshoots or
//!   undershoots (Champandard's momentum model overshoots large turns and
//!   undershoots small ones), plus a sideways part.
//! - **Each correction lands off by an amount that grows with the
//!   target's angular speed** (signal-dependent motor noise: the spread of
//!   a movement's end point grows with its speed, Harris & Wolpert 1998):
//!   a uniform ±`aimPursuitError` degrees per 100 degrees/s the view must
//!   follow, per axis, added after the share is removed. A still target is
//!   settled on; a crossing one is tracked with a wobble.
//! - **An error that still hits is not corrected** (the minimum
//!   intervention principle of optimal feedback control, Todorov & Jordan
//!   2002: a hand corrects the deviations that matter to the task and
//!   lets the rest be). A correction closes only the part of the error
//!   beyond `aimSlack` of the target's angular radius, so a close, large
//!   target is aimed at loosely and the wobble on top of that misses it
//!   more often than its size suggests, while a far one, small in angle,
//!   is aimed at as finely as the hand can. What still hits is the body
//!   less the held weapon's scatter: a shotgun's pellets fly up to about
//!   5 degrees off the line, so with it every bit of error costs pellets
//!   and the hand aims at the centre.
//! - **It opens again when the target changes direction** (see
//!   `motion.rs`): by however far the old motion carried the belief.

use crate::content::Traits;
use crate::rng::BotRng;
use crate::view::BotClock;

/// Turns larger than this (degrees) overshoot on acquisition; smaller ones fall short.
pub const OVERSHOOT_TURN_DEG: f32 = 30.0;
/// A correction never removes more than this share of the error.
const MAX_SHARE: f32 = 0.95;
/// The fastest pursuit that adds noise, degrees/s (a flick is not tracking).
const MAX_PURSUIT: f32 = 400.0;
/// The largest error held, degrees (a re-acquisition far off is clamped).
const MAX_ERROR_DEG: f32 = 45.0;

/// The hand's aim error and its next correction.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct HandError {
    /// Pitch and yaw offsets, degrees.
    pub offset: (f32, f32),
    /// The tick of the next correction.
    pub next_correction: u32,
}

impl HandError {
    /// The error's size, degrees.
    pub fn size(&self) -> f32 {
        self.offset.0.hypot(self.offset.1)
    }

    /// Forgets the error (nothing is aimed at).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Opens the error for a fresh acquisition that needs a view turn of
    /// `turn` (pitch, yaw degrees, from the view to the target).
    pub fn acquire(&mut self, turn: (f32, f32), t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        let size = t.aim_error_deg * rng.range(0.6, 1.0);
        let length = turn.0.hypot(turn.1);
        // Unit vectors along the turn and across it (any direction when no turn is needed).
        let along = if length > 1e-3 {
            (turn.0 / length, turn.1 / length)
        } else {
            let a = rng.range(0.0, std::f32::consts::TAU);
            (a.sin(), a.cos())
        };
        let across = (-along.1, along.0);
        // Overshoot past the target on large turns; undershoot small ones,
        // never by more than half the turn.
        let along_part = if length > OVERSHOOT_TURN_DEG {
            size * rng.range(0.5, 1.0)
        } else {
            -(size * rng.range(0.5, 1.0)).min(0.5 * length)
        };
        let across_part = size * 0.6 * rng.signed();
        self.offset = (
            along.0 * along_part + across.0 * across_part,
            along.1 * along_part + across.1 * across_part,
        );
        self.clamp();
        self.schedule(t, clock, rng);
    }

    /// Opens the error by `by` (pitch, yaw degrees) on top of what is left
    /// (the target changed direction and the view followed the old motion).
    pub fn reopen(&mut self, by: (f32, f32), t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        self.offset = (self.offset.0 + by.0, self.offset.1 + by.1);
        self.clamp();
        self.schedule(t, clock, rng);
    }

    /// Applies a correction step when one is due; `pursuit` is the
    /// angular speed (pitch, yaw degrees/s) the view follows now and
    /// `radius_deg` the target's angular radius.
    pub fn update(&mut self, pursuit: (f32, f32), radius_deg: f32, t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        if clock.tick < self.next_correction {
            return;
        }
        let share = (t.aim_correct_share * rng.range(0.5, 1.5)).clamp(0.0, MAX_SHARE);
        // Only the part beyond the slack is worth correcting.
        let size = self.size();
        let slack = (t.aim_slack * radius_deg).max(0.0);
        let closed = if size > slack { share * (1.0 - slack / size) } else { 0.0 };
        let noise = t.aim_pursuit_error * 0.01;
        let (wp, wy) = (pursuit.0.abs().min(MAX_PURSUIT), pursuit.1.abs().min(MAX_PURSUIT));
        self.offset = (
            self.offset.0 * (1.0 - closed) + rng.signed() * noise * wp,
            self.offset.1 * (1.0 - closed) + rng.signed() * noise * wy,
        );
        self.clamp();
        self.schedule(t, clock, rng);
    }

    fn schedule(&mut self, t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        self.next_correction = clock.after_ms(t.aim_correct_msec * rng.range(0.8, 1.2)).max(clock.tick + 1);
    }

    fn clamp(&mut self) {
        let size = self.size();
        if !size.is_finite() {
            self.offset = (0.0, 0.0);
        } else if size > MAX_ERROR_DEG {
            let k = MAX_ERROR_DEG / size;
            self.offset = (self.offset.0 * k, self.offset.1 * k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(tick: u32) -> BotClock {
        BotClock { tick, hz: 60 }
    }

    #[test]
    fn the_error_closes_by_random_steps_never_at_once() {
        let t = Traits::at_skill(3.0);
        let mut rng = BotRng::from_seed(4);
        let mut e = HandError::default();
        e.acquire((0.0, 90.0), &t, &clock(0), &mut rng);
        let start = e.size();
        assert!(start >= 0.6 * t.aim_error_deg * 0.5, "{start}");
        let mut sizes = vec![start];
        for tick in 1..=120 {
            e.update((0.0, 0.0), 0.0, &t, &clock(tick), &mut rng);
            if e.size() < sizes[sizes.len() - 1] {
                sizes.push(e.size());
            }
        }
        // One step per correction interval (165 ms at skill 3): about 12 in 2 s.
        let steps = sizes.len() - 1;
        assert!((9..=15).contains(&steps), "{steps} corrections in 2 s");
        assert!(sizes.windows(2).all(|w| w[1] < w[0] && w[1] > 0.0), "each step closes part of it");
        let shares: Vec<f32> = sizes.windows(2).map(|w| 1.0 - w[1] / w[0]).collect();
        let spread = shares.iter().cloned().fold(f32::MIN, f32::max) - shares.iter().cloned().fold(f32::MAX, f32::min);
        assert!(spread > 0.2, "the share removed varies: {shares:?}");
    }

    #[test]
    fn a_moving_target_keeps_the_error_open_in_proportion_to_its_speed() {
        let t = Traits::at_skill(5.0);
        let mean_error = |speed: f32| {
            let mut rng = BotRng::from_seed(6);
            let mut e = HandError::default();
            let mut sum = 0.0;
            for tick in 0..6000 {
                e.update((0.0, speed), 0.0, &t, &clock(tick), &mut rng);
                sum += e.size();
            }
            sum / 6000.0
        };
        let (still, slow, fast) = (mean_error(0.0), mean_error(40.0), mean_error(120.0));
        assert!(still < 1e-3, "a still target is settled on: {still}");
        assert!(slow > 0.3 && fast > 2.5 * slow, "40 deg/s: {slow}, 120 deg/s: {fast}");
    }

    #[test]
    fn an_error_that_still_hits_is_left_alone() {
        let t = Traits::at_skill(3.0);
        // The error held after two seconds of corrections on a still
        // target of angular radius `radius`, over many acquisitions.
        let settled = |radius: f32| {
            let mut rng = BotRng::from_seed(12);
            let mut total = 0.0;
            for _ in 0..200 {
                let mut e = HandError::default();
                e.acquire((0.0, 60.0), &t, &clock(0), &mut rng);
                for tick in 1..=120 {
                    e.update((0.0, 0.0), radius, &t, &clock(tick), &mut rng);
                }
                total += e.size();
            }
            total / 200.0
        };
        let (far, close) = (settled(0.5), settled(6.0));
        let slack = t.aim_slack * 6.0;
        assert!(far < 0.5, "a far target is aimed at as finely as the hand can: {far}");
        assert!(close > 0.8 * slack && close < 1.2 * slack, "a close one is left {close} degrees off (slack {slack})");
        assert!(close < 6.0, "but never off the target");
    }

    #[test]
    fn large_turns_overshoot_and_small_turns_fall_short() {
        let t = Traits::at_skill(3.0);
        let mut rng = BotRng::from_seed(8);
        for _ in 0..50 {
            let mut e = HandError::default();
            e.acquire((0.0, 120.0), &t, &clock(0), &mut rng);
            assert!(e.offset.1 > 0.0, "past the target along a 120 degree turn: {:?}", e.offset);
            e.acquire((0.0, -12.0), &t, &clock(0), &mut rng);
            assert!(e.offset.1 > 0.0 && e.offset.1 <= 6.0, "short of a 12 degree turn to the right: {:?}", e.offset);
        }
    }
}
