//! The trigger: when to press attack, checked in a fixed order each tick.
//!
//! 1. The reaction delay of this acquisition has passed.
//! 2. The target is seen, or was lost less than `suppressionMsec` ago
//!    (suppressive fire at the believed position).
//! 3. The view points within the fire gate of the aim point (lead and
//!    the hand's error included: the bot fires where it believes the
//!    target is) and slews slower than the hold-fire rate; otherwise the
//!    time on target starts over. The gate is the target's angular
//!    radius times `fireGateScale` (low skill fires early and wide, high
//!    skill waits until the view is on the body), capped by `fireConeDeg`,
//!    so a farther target is a narrower gate. A single-shot weapon's gate
//!    narrows with the time a miss costs (its interval; see
//!    [`shot_care`]): people take the railgun's shot with more care than
//!    a plasma bolt's, but wait no longer than a miss would cost, so the
//!    gate widens back to the plain one over one interval of waiting with
//!    the weapon ready, and on past it (impatience, up to `fireConeDeg`)
//!    the longer the wait: a shaky hand still takes a far shot.
//! 4. The aim has sat on target for the settle time (skipped by a
//!    mistimed-shot mistake).
//! 5. Single-shot weapons wait for their cadence; after each shot the time
//!    on target starts over and the lead error is rolled again.
//! 6. The line of fire is safe (asked through a callback, only now, since
//!    it traces).
//! 7. Automatic weapons fire in bursts with rests: asked last, because
//!    starting a burst changes state. A burst, once started, is held while
//!    the view stays within `fireConeDeg` (steps 3 to 5 apply to starting
//!    one): people hold a tracking weapon's button through the wobble of
//!    their tracking rather than release it each time they slip off, which
//!    is why their lightning gun hits less often than their railgun.
//!
//! Cone, slew gate and settle time are scaled by initiative (see
//! `content::skill`). Pure apart from the RNG passed in.

use glam::Vec3;

use crate::content::Traits;
use crate::perception::off_axis_deg;
use crate::rng::BotRng;
use crate::view::BotClock;

/// Weapons firing faster than this (ms between shots) are automatic: they fire in bursts.
pub const AUTOMATIC_INTERVAL_MS: f32 = 250.0;

/// The interval at which a single shot is taken with a skill's plain fire
/// gate, ms; slower weapons narrow it (see [`shot_care`]).
pub const CARE_INTERVAL_MS: f32 = 400.0;
/// The narrowest a slow weapon makes the gate, as a share of the plain one.
pub const MIN_SHOT_CARE: f32 = 0.5;

/// How much of the fire gate a single shot of a weapon firing every
/// `interval_ms` keeps: `sqrt(CARE_INTERVAL_MS / interval)`, between
/// [`MIN_SHOT_CARE`] and 1. A miss with the railgun (1.5 s to the next
/// shot) costs a duel; a missed plasma bolt costs a tenth of a second. So
/// a person waits for a better aim before a slow shot, and the railgun's
/// gate is about half the plasma gun's, the shotgun's (1 s) 0.63 of it.
pub fn shot_care(interval_ms: f32) -> f32 {
    (CARE_INTERVAL_MS / interval_ms.max(1.0)).sqrt().clamp(MIN_SHOT_CARE, 1.0)
}

/// Why the trigger was not pulled (for `bot_debugAim` and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Still reacting.
    Reaction,
    /// Nothing seen to shoot at and not suppressing.
    NoTarget,
    /// The view is outside the fire cone.
    Cone,
    /// The view is slewing too fast.
    Slew,
    /// Not on target long enough.
    Settle,
    /// Waiting for the weapon's next shot.
    Cadence,
    /// The shot would hurt the bot or a teammate, or be useless.
    Unsafe,
    /// Resting between bursts.
    Rest,
}

/// What the trigger sees this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FireInput {
    /// The reaction delay has passed.
    pub reacted: bool,
    /// The target is seen this tick.
    pub visible: bool,
    /// Milliseconds since it was last seen.
    pub unseen_ms: f32,
    /// Eye position.
    pub eye: Vec3,
    /// View direction.
    pub forward: Vec3,
    /// Where the aim wants to point (lead included).
    pub aim_point: Vec3,
    /// View slew speed, degrees/s.
    pub slew: f32,
    /// Milliseconds between shots of the weapon in hand.
    pub interval_ms: f32,
    /// A mistimed-shot mistake is in force.
    pub hasty: bool,
    /// What counts as on target around the aim point, units (the body's
    /// half-width, or half a splash weapon's radius).
    pub target_radius: f32,
}

/// What the trigger did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireOutcome {
    /// Attack pressed; `new_shot` when this starts a single shot or a burst
    /// (the lead error is rolled again).
    Fire {
        /// A new single shot or a new burst.
        new_shot: bool,
    },
    /// Held, and why.
    Hold(Hold),
}

/// The trigger's memory between ticks.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Trigger {
    /// Time the aim has sat inside the cone, ms.
    pub on_target_ms: f32,
    /// Time a single-shot weapon has been ready with a target to shoot at, ms.
    ready_ms: f32,
    burst_until: u32,
    rest_until: u32,
    next_single: u32,
}

impl Trigger {
    /// Forgets everything (a new acquisition).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Decides this tick. `safe` is asked only when everything else agrees.
    pub fn decide(
        &mut self,
        t: &Traits,
        input: &FireInput,
        clock: &BotClock,
        rng: &mut BotRng,
        safe: impl FnOnce() -> bool,
    ) -> FireOutcome {
        let tick_ms = clock.dt() * 1000.0;
        if !input.reacted {
            return FireOutcome::Hold(Hold::Reaction);
        }
        let suppressing = input.unseen_ms > 0.0 && input.unseen_ms <= t.suppression_msec;
        if !input.visible && !suppressing {
            self.on_target_ms = 0.0;
            self.ready_ms = 0.0;
            return FireOutcome::Hold(Hold::NoTarget);
        }
        let automatic = input.interval_ms < AUTOMATIC_INTERVAL_MS;
        if !automatic && clock.tick >= self.next_single {
            self.ready_ms += tick_ms;
        }
        let off = off_axis_deg(input.forward, input.eye, input.aim_point);
        // A burst once started is held while the view stays within the fire
        // cone: a tracking weapon is sprayed through the hand's wobble.
        if automatic && clock.tick < self.burst_until && off <= t.effective_fire_cone_deg() {
            return if safe() { FireOutcome::Fire { new_shot: false } } else { FireOutcome::Hold(Hold::Unsafe) };
        }
        // The care a slow shot takes wears off over one interval of waiting;
        // waiting on, the bot grows impatient and the gate keeps widening
        // (to the fire cone), so a shaky hand still takes a far shot.
        let waited = self.ready_ms / input.interval_ms.max(1.0);
        let care = shot_care(input.interval_ms);
        let care = if waited < 1.0 { care + (1.0 - care) * waited } else { waited };
        let plain = t.fire_gate_deg(input.eye.distance(input.aim_point), input.target_radius);
        let gate = (plain * care).min(t.effective_fire_cone_deg().max(plain));
        if off > gate {
            self.on_target_ms = 0.0;
            return FireOutcome::Hold(Hold::Cone);
        }
        if input.slew > t.effective_hold_fire_rate() {
            self.on_target_ms = 0.0;
            return FireOutcome::Hold(Hold::Slew);
        }
        self.on_target_ms += tick_ms;
        if !input.hasty && self.on_target_ms < t.effective_settle_msec() {
            return FireOutcome::Hold(Hold::Settle);
        }
        if !automatic && clock.tick < self.next_single {
            return FireOutcome::Hold(Hold::Cadence);
        }
        if !safe() {
            return FireOutcome::Hold(Hold::Unsafe);
        }
        if !automatic {
            self.next_single = clock.after_ms((input.interval_ms * 0.85).max(tick_ms));
            self.on_target_ms = 0.0;
            self.ready_ms = 0.0;
            return FireOutcome::Fire { new_shot: true };
        }
        if clock.tick < self.burst_until {
            return FireOutcome::Fire { new_shot: false };
        }
        if clock.tick < self.rest_until {
            self.on_target_ms = 0.0;
            return FireOutcome::Hold(Hold::Rest);
        }
        let spread = (t.burst_max_msec - t.burst_min_msec).max(0.0) as u32;
        let length = t.burst_min_msec + rng.below(spread.max(1)) as f32;
        self.burst_until = clock.after_ms(length);
        self.rest_until = clock.after_ms(length + t.burst_pause_msec);
        FireOutcome::Fire { new_shot: true }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> FireInput {
        FireInput {
            reacted: true,
            visible: true,
            unseen_ms: 0.0,
            eye: Vec3::ZERO,
            forward: Vec3::X,
            aim_point: Vec3::new(500.0, 0.0, 0.0),
            slew: 0.0,
            interval_ms: 1500.0,
            hasty: false,
            target_radius: 15.0,
        }
    }

    fn run(t: &Traits, i: FireInput, ticks: u32) -> Vec<FireOutcome> {
        let mut trig = Trigger::default();
        let mut rng = BotRng::from_seed(5);
        (1..=ticks)
            .map(|tick| trig.decide(t, &i, &BotClock { tick, hz: 60 }, &mut rng, || true))
            .collect()
    }

    #[test]
    fn settles_before_the_first_shot_then_keeps_cadence() {
        let t = Traits::at_skill(3.0);
        let out = run(&t, input(), 240);
        let first = out
            .iter()
            .position(|o| matches!(o, FireOutcome::Fire { .. }))
            .expect("fires");
        let settle_ticks = (t.effective_settle_msec() / (1000.0 / 60.0)).ceil() as usize;
        assert_eq!(first + 1, settle_ticks, "first shot after the settle time");
        let shots = out.iter().filter(|o| matches!(o, FireOutcome::Fire { .. })).count();
        assert!((2..=4).contains(&shots), "railgun cadence over 4 s: {shots}");
    }

    #[test]
    fn cone_slew_reaction_and_safety_hold_fire() {
        let t = Traits::at_skill(5.0);
        let wide = FireInput {
            aim_point: Vec3::new(500.0, 60.0, 0.0),
            ..input()
        };
        assert!(run(&t, wide, 60).iter().all(|o| *o == FireOutcome::Hold(Hold::Cone)));
        let slewing = FireInput {
            slew: 1000.0,
            ..input()
        };
        assert!(run(&t, slewing, 60).iter().all(|o| *o == FireOutcome::Hold(Hold::Slew)));
        let reacting = FireInput {
            reacted: false,
            ..input()
        };
        assert!(
            run(&t, reacting, 60)
                .iter()
                .all(|o| *o == FireOutcome::Hold(Hold::Reaction))
        );
        let mut trig = Trigger::default();
        let mut rng = BotRng::from_seed(1);
        let outs: Vec<_> = (1..60)
            .map(|tick| trig.decide(&t, &input(), &BotClock { tick, hz: 60 }, &mut rng, || false))
            .collect();
        assert!(outs.contains(&FireOutcome::Hold(Hold::Unsafe)));
        assert!(!outs.iter().any(|o| matches!(o, FireOutcome::Fire { .. })));
    }

    #[test]
    fn the_gate_waits_for_the_view_on_the_body_at_high_skill_and_not_at_low() {
        // Off by twice the body's angular radius at 500 units.
        let off = 2.0 * (15.0f32 / 500.0).atan();
        let wide = FireInput {
            aim_point: Vec3::new(500.0 * off.cos(), 500.0 * off.sin(), 0.0),
            interval_ms: CARE_INTERVAL_MS,
            ..input()
        };
        let s1 = Traits::at_skill(1.0);
        let s5 = Traits::at_skill(5.0);
        assert!(run(&s1, wide, 120).iter().any(|o| matches!(o, FireOutcome::Fire { .. })), "skill 1 fires wide");
        assert!(run(&s5, wide, 120).iter().all(|o| *o == FireOutcome::Hold(Hold::Cone)), "skill 5 waits");
        // On the body, skill 5 fires too.
        assert!(run(&s5, input(), 120).iter().any(|o| matches!(o, FireOutcome::Fire { .. })));
        // A farther target is a narrower gate.
        assert!(s5.fire_gate_deg(2000.0, 15.0) < s5.fire_gate_deg(300.0, 15.0));
    }

    #[test]
    fn a_slow_weapons_shot_waits_for_a_better_aim() {
        assert_eq!(shot_care(100.0), 1.0, "fast weapons keep the plain gate");
        assert!((shot_care(1600.0) - 0.5).abs() < 1e-6);
        assert!(shot_care(1500.0) < shot_care(1000.0) && shot_care(1000.0) < shot_care(800.0));
        // Off by 0.7 of the gate a skill fires a plasma bolt with: fired
        // at a fast weapon's cadence, held with the railgun.
        let t = Traits::at_skill(3.0);
        let off = (0.7 * t.fire_gate_deg(500.0, 15.0)).to_radians();
        let at = |interval_ms| FireInput {
            aim_point: Vec3::new(500.0 * off.cos(), 500.0 * off.sin(), 0.0),
            interval_ms,
            ..input()
        };
        let first_shot = |interval_ms| {
            run(&t, at(interval_ms), 180)
                .iter()
                .position(|o| matches!(o, FireOutcome::Fire { .. }))
                .expect("fires in the end")
        };
        let (quick, careful) = (first_shot(CARE_INTERVAL_MS), first_shot(1500.0));
        // The railgun waits a third of a second or more for a better aim,
        // and not longer than a miss would cost (1.5 s, 90 ticks).
        assert!(careful >= quick + 20 && careful <= 90, "first shot at tick {quick} with a plain gate, {careful} with care");
    }

    #[test]
    fn a_burst_is_held_through_the_wobble_and_let_go_outside_the_cone() {
        let t = Traits::at_skill(3.0);
        let lg = FireInput { interval_ms: 50.0, ..input() };
        let mut trig = Trigger::default();
        let mut rng = BotRng::from_seed(3);
        let clock = |tick| BotClock { tick, hz: 60 };
        let mut tick = 0;
        // On the body: the burst starts.
        let started = loop {
            tick += 1;
            assert!(tick < 120, "a burst starts on the body");
            if let FireOutcome::Fire { new_shot: true } = trig.decide(&t, &lg, &clock(tick), &mut rng, || true) {
                break tick;
            }
        };
        // Slipped off to twice the gate, still inside the fire cone: held.
        let off = 2.0 * t.fire_gate_deg(500.0, 15.0);
        assert!(off < t.effective_fire_cone_deg());
        let slipped = |deg: f32| FireInput { aim_point: Vec3::new(500.0 * deg.to_radians().cos(), 500.0 * deg.to_radians().sin(), 0.0), ..lg };
        assert_eq!(trig.decide(&t, &slipped(off), &clock(started + 1), &mut rng, || true), FireOutcome::Fire { new_shot: false });
        // Outside the cone the button is let go; a new burst needs the gate.
        let gone = slipped(t.effective_fire_cone_deg() + 1.0);
        assert_eq!(trig.decide(&t, &gone, &clock(started + 2), &mut rng, || true), FireOutcome::Hold(Hold::Cone));
        // And it is never held through an unsafe line of fire.
        assert_eq!(trig.decide(&t, &slipped(off), &clock(started + 3), &mut rng, || false), FireOutcome::Hold(Hold::Unsafe));
    }

    #[test]
    fn suppression_fires_briefly_after_losing_sight() {
        let t = Traits::at_skill(1.0);
        let lost = FireInput {
            visible: false,
            unseen_ms: 300.0,
            hasty: true,
            ..input()
        };
        assert!(run(&t, lost, 5).iter().any(|o| matches!(o, FireOutcome::Fire { .. })));
        let long_gone = FireInput {
            unseen_ms: 5000.0,
            ..lost
        };
        assert!(
            run(&t, long_gone, 5)
                .iter()
                .all(|o| *o == FireOutcome::Hold(Hold::NoTarget))
        );
        let s5 = Traits::at_skill(5.0);
        assert!(
            run(&s5, lost, 5)
                .iter()
                .all(|o| *o == FireOutcome::Hold(Hold::NoTarget)),
            "skill 5 does not suppress"
        );
    }

    #[test]
    fn automatic_weapons_fire_in_bursts_with_rests() {
        let t = Traits::at_skill(2.0);
        let mg = FireInput {
            interval_ms: 100.0,
            hasty: true,
            ..input()
        };
        let out = run(&t, mg, 600);
        let firing = out.iter().filter(|o| matches!(o, FireOutcome::Fire { .. })).count();
        let rests = out.iter().filter(|o| **o == FireOutcome::Hold(Hold::Rest)).count();
        assert!(
            rests > 0 && firing > rests,
            "duty cycle: {firing} firing, {rests} resting"
        );
        let bursts = out
            .iter()
            .filter(|o| **o == FireOutcome::Fire { new_shot: true })
            .count();
        assert!(bursts >= 5, "{bursts} bursts in 10 s");
    }
}
