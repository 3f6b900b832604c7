//! Aim model tests: lead, belief, turn, tremor, mistakes.

use super::*;

/// Flies a straight projectile from `eye` toward `aim` and a target
/// moving from `start` at `vel`; returns the closest approach.
fn closest_approach(eye: Vec3, aim: Vec3, speed: f32, gravity: f32, start: Vec3, vel: Vec3) -> f32 {
    let dir = (aim - eye).normalize();
    let mut best = f32::INFINITY;
    for i in 0..4000 {
        let t = i as f32 * 0.001;
        let shot = eye + dir * speed * t - Vec3::Z * (0.5 * gravity * t * t);
        best = best.min(shot.distance(start + vel * t));
    }
    best
}

#[test]
fn exact_lead_hits_a_crossing_target() {
    let eye = Vec3::new(0.0, 0.0, 50.0);
    let start = Vec3::new(700.0, 0.0, 40.0);
    let vel = Vec3::new(0.0, 320.0, 0.0);
    let rocket = Ballistics {
        speed: 900.0,
        gravity: 0.0,
        lift_speed: 0.0,
    };
    let aim = lead_point(eye, Vec3::ZERO, start, vel, &rocket, 1.0, 1.0);
    assert!(
        closest_approach(eye, aim, 900.0, 0.0, start, vel) < 8.0,
        "led shot hits"
    );
    assert!(
        closest_approach(eye, start, 900.0, 0.0, start, vel) > 100.0,
        "unled shot misses"
    );
    // Half the lead misses by about half the target's travel.
    let half = lead_point(eye, Vec3::ZERO, start, vel, &rocket, 0.5, 1.0);
    assert!(closest_approach(eye, half, 900.0, 0.0, start, vel) > 40.0);
}

#[test]
fn lead_compensates_gravity_and_own_motion_error() {
    let eye = Vec3::ZERO;
    // Within a grenade's flat range (v^2/g is about 610 units).
    let start = Vec3::new(350.0, 100.0, 0.0);
    let vel = Vec3::new(-50.0, 200.0, 0.0);
    let lob = Ballistics {
        speed: 700.0,
        gravity: 800.0,
        lift_speed: 0.0,
    };
    let aim = lead_point(eye, Vec3::ZERO, start, vel, &lob, 1.0, 1.0);
    assert!(aim.z > 50.0, "aims above to fall onto it");
    assert!(closest_approach(eye, aim, 700.0, 800.0, start, vel) < 16.0);
    // At full skill the shooter's own velocity is ignored.
    let moving = lead_point(eye, Vec3::new(0.0, 300.0, 0.0), start, vel, &lob, 1.0, 1.0);
    assert!(moving.distance(aim) < 1e-3);
    // A degenerate projectile speed does not lead.
    let none = Ballistics {
        speed: 0.0,
        gravity: 0.0,
        lift_speed: 0.0,
    };
    assert_eq!(lead_point(eye, Vec3::ZERO, start, vel, &none, 1.0, 1.0), start);
}

#[test]
fn angles_follow_quake_conventions() {
    let (p, y) = angles_to(Vec3::ZERO, Vec3::new(0.0, 10.0, 0.0)).expect("angles");
    assert!(p.abs() < 1e-4 && (y - 90.0).abs() < 1e-4);
    let (p, _) = angles_to(Vec3::ZERO, Vec3::new(10.0, 0.0, -10.0)).expect("angles");
    assert!((p - 45.0).abs() < 1e-3, "looking down is positive pitch");
    assert_eq!(angles_to(Vec3::ONE, Vec3::ONE), None);
    assert!((angle_diff(10.0, 350.0) - 20.0).abs() < 1e-4);
    assert!((angle_diff(350.0, 10.0) + 20.0).abs() < 1e-4);
}

fn settle(skill: f32) -> (f32, f32) {
    // Turn 90 degrees toward a still point; report overshoot and time to settle.
    let t = Traits {
        aim_tremor_deg: 0.0,
        aim_track_error: 0.0,
        ..Traits::at_skill(skill)
    };
    let mut a = AimState::new(0.0, 0.0, 1);
    let clock = |tick| BotClock { tick, hz: 60 };
    let target = AimTarget::Point(Vec3::new(0.0, 1000.0, 0.0));
    let mut max_yaw: f32 = 0.0;
    let mut settled_at = None;
    for tick in 1..600 {
        a.update(target, Vec3::ZERO, Vec3::ZERO, None, &t, false, &clock(tick), &mut BotRng::from_seed(1));
        max_yaw = max_yaw.max(a.yaw);
        if settled_at.is_none() && (a.yaw - 90.0).abs() < 1.0 && a.yaw_rate.abs() < 5.0 {
            settled_at = Some(tick);
        }
    }
    (max_yaw - 90.0, settled_at.map_or(f32::INFINITY, |t| t as f32 / 60.0))
}

#[test]
fn low_skill_overshoots_and_high_skill_settles_fast() {
    let (over1, time1) = settle(1.0);
    let (over5, time5) = settle(5.0);
    assert!(over1 > 5.0, "skill 1 overshoots: {over1}");
    assert!(over5 < 1.0, "skill 5 barely overshoots: {over5}");
    assert!(time5 < time1, "skill 5 settles sooner: {time5} vs {time1}");
    assert!(time5 < 1.0, "{time5}");
}

#[test]
fn turning_tracks_a_moving_target_within_a_few_degrees() {
    // The turn alone: no tremor, no pursuit noise.
    let t = Traits {
        aim_tremor_deg: 0.0,
        aim_pursuit_error: 0.0,
        ..Traits::at_skill(5.0)
    };
    let mut a = AimState::new(0.0, 0.0, 2);
    let mut worst: f32 = 0.0;
    for tick in 1..300u32 {
        let time = tick as f32 / 60.0;
        let target = Vec3::new(500.0, -300.0 + 320.0 * time, 0.0);
        let aim = AimTarget::Enemy {
            point: target,
            velocity: Vec3::new(0.0, 320.0, 0.0),
            visible: true,
            unseen_s: 0.0,
            fresh: tick == 1,
        };
        a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &BotClock { tick, hz: 60 }, &mut BotRng::from_seed(1));
        if tick > 90 {
            let (_, want) = angles_to(Vec3::ZERO, target).expect("angles");
            worst = worst.max(angle_diff(want, a.yaw).abs());
        }
    }
    // Its tracking lag (aimTrackError per 100 degrees/s) keeps it within
    // a few degrees, not on the pixel.
    assert!(
        worst < 4.0,
        "skill 5 follows a strafer at 500 units within {worst} degrees"
    );
}

#[test]
fn a_steady_motion_is_followed_not_trailed() {
    // The belief moves with the seen motion: a target crossing at a steady
    // 320 units/s is believed where it is, at every skill, not a time
    // constant's worth of travel behind (70 units at skill 3 once).
    for skill in [1.0, 3.0, 5.0] {
        let t = Traits::at_skill(skill);
        let mut a = AimState::new(0.0, 0.0, 2);
        let mut rng = BotRng::from_seed(4);
        let mut worst: f32 = 0.0;
        for tick in 1..240u32 {
            let target = Vec3::new(600.0, -300.0 + 320.0 * tick as f32 / 60.0, 0.0);
            let aim = AimTarget::Enemy { point: target, velocity: Vec3::new(0.0, 320.0, 0.0), visible: true, unseen_s: 0.0, fresh: tick == 1 };
            a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &BotClock { tick, hz: 60 }, &mut rng);
            if tick > 30 {
                worst = worst.max(a.belief.expect("believed").distance(target));
            }
        }
        assert!(worst < 2.0, "skill {skill}: the belief trails a steady strafer by {worst:.1} units");
    }
}

#[test]
fn tremor_differs_per_slot_and_mistakes_are_bounded() {
    let t = Traits::at_skill(1.0);
    let mut a = AimState::new(0.0, 0.0, 1);
    let mut b = AimState::new(0.0, 0.0, 2);
    let target = AimTarget::Point(Vec3::new(1000.0, 0.0, 0.0));
    let clock = BotClock { tick: 200, hz: 60 };
    for tick in 1..200 {
        let c = BotClock { tick, hz: 60 };
        a.update(target, Vec3::ZERO, Vec3::ZERO, None, &t, false, &c, &mut BotRng::from_seed(1));
        b.update(target, Vec3::ZERO, Vec3::ZERO, None, &t, false, &c, &mut BotRng::from_seed(1));
    }
    assert!((a.yaw - b.yaw).abs() > 0.01, "bots shake out of step");
    assert!(a.yaw.abs() < 2.0 * t.aim_tremor_deg);
    let mut m = Mistakes::default();
    let mut rng = BotRng::from_seed(9);
    let always = Traits {
        mistake_chance: 1.0,
        mistake_msec: 500.0,
        ..t
    };
    m.roll(&always, &clock, &mut rng);
    let kinds = [
        MistakeKind::LoseTracking,
        MistakeKind::MistimedShot,
        MistakeKind::WrongWeapon,
        MistakeKind::LateDodge,
    ];
    assert!(kinds.iter().any(|&k| m.active(k, &clock)));
    let later = BotClock { tick: 200 + 30, hz: 60 };
    assert!(!kinds.iter().any(|&k| m.active(k, &later)), "over after mistakeMsec");
}

/// Tracks a target strafing across at 500 units that reverses at `turn_tick`;
/// returns the view's worst yaw error from the truth before and after.
fn reversal(skill: f32, turn_tick: u32) -> (f32, f32, f32) {
    let t = Traits {
        aim_tremor_deg: 0.0,
        ..Traits::at_skill(skill)
    };
    let mut a = AimState::new(0.0, 0.0, 2);
    let mut rng = BotRng::from_seed(11);
    let (mut before, mut after, mut opened): (f32, f32, f32) = (0.0, 0.0, 0.0);
    let mut y = -200.0;
    for tick in 1..(turn_tick + 60) {
        let v = if tick < turn_tick { 320.0 } else { -320.0 };
        y += v / 60.0;
        let target = Vec3::new(500.0, y, 0.0);
        let aim = AimTarget::Enemy {
            point: target,
            velocity: Vec3::new(0.0, v, 0.0),
            visible: true,
            unseen_s: 0.0,
            fresh: tick == 1,
        };
        a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &BotClock { tick, hz: 60 }, &mut rng);
        let (_, want) = angles_to(Vec3::ZERO, target).expect("angles");
        let err = angle_diff(want, a.yaw).abs();
        if (turn_tick - 20..turn_tick).contains(&tick) {
            before = before.max(err);
        } else if tick >= turn_tick {
            after = after.max(err);
            opened = opened.max(a.hand.size());
        }
    }
    (before, after, opened)
}

#[test]
fn a_target_that_changes_direction_opens_the_error() {
    for skill in [1.0, 3.0, 5.0] {
        let (before, after, opened) = reversal(skill, 150);
        assert!(after > before + 4.0, "skill {skill}: {before:.1} degrees off before the reversal, {after:.1} after");
        assert!(opened > 3.0, "skill {skill}: the hand's error opened by {opened:.1} degrees");
    }
    // A quicker eye notices sooner, so it strays less.
    assert!(reversal(5.0, 150).1 < reversal(1.0, 150).1);
}

/// Shots and hits of a bot acquiring a still target at `distance` many
/// times over (a hit: the view passes within the body's half-width).
fn still_target_accuracy(skill: f32, distance: f32) -> (u32, u32) {
    let t = Traits::at_skill(skill);
    let mut rng = BotRng::from_seed(5);
    let (mut shots, mut hits) = (0, 0);
    for round in 0..200u32 {
        let mut a = AimState::new(0.0, rng.range(-120.0, 120.0), 3);
        a.engage(&t, &mut rng);
        let mut trigger = crate::trigger::Trigger::default();
        let target = Vec3::new(distance, 0.0, 0.0);
        for k in 1..180u32 {
            let clock = BotClock { tick: round * 1000 + k, hz: 60 };
            let aim = AimTarget::Enemy { point: target, velocity: Vec3::ZERO, visible: true, unseen_s: 0.0, fresh: k == 1 };
            a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &clock, &mut rng);
            let input = crate::trigger::FireInput {
                reacted: true,
                visible: true,
                unseen_ms: 0.0,
                eye: Vec3::ZERO,
                forward: a.forward(),
                aim_point: a.aim_point.expect("aimed"),
                slew: a.slew_rate(),
                interval_ms: 1500.0,
                hasty: false,
                target_radius: 15.0,
            };
            if let crate::trigger::FireOutcome::Fire { .. } = trigger.decide(&t, &input, &clock, &mut rng, || true) {
                shots += 1;
                let miss = crate::perception::off_axis_deg(a.forward(), Vec3::ZERO, target);
                if miss < (15.0f32 / distance).atan().to_degrees() {
                    hits += 1;
                }
                break;
            }
        }
    }
    (shots, hits)
}

#[test]
fn a_far_target_is_harder() {
    // Harder shows as fewer first shots inside the window (the gate waits
    // longer for a smaller target) and fewer of them hitting: hits per
    // acquisition fall, and so does the share of shots that hit.
    for skill in [1.0, 3.0, 5.0] {
        let (near_shots, near_hits) = still_target_accuracy(skill, 300.0);
        let (far_shots, far_hits) = still_target_accuracy(skill, 1500.0);
        let near = near_hits as f32 / near_shots.max(1) as f32;
        let far = far_hits as f32 / far_shots.max(1) as f32;
        assert!(near_shots > 100 && far_shots > 10, "skill {skill} fires: {near_shots} near, {far_shots} far");
        assert!(far_hits < near_hits, "skill {skill}: {near_hits} first shots hit at 300 units, {far_hits} at 1500");
        // Skill 1 fires its first shot early and wide: it misses at both
        // ranges alike, so only its hits per acquisition tell them apart.
        if skill > 1.0 {
            assert!(far < near, "skill {skill}: {near:.2} of first shots hit at 300 units, {far:.2} at 1500");
        }
    }
}

#[test]
fn a_projectile_lead_errs_with_sideways_speed() {
    let eye = Vec3::ZERO;
    let target = Vec3::new(800.0, 0.0, 0.0);
    let rocket = Ballistics { speed: 900.0, gravity: 0.0, lift_speed: 0.0 };
    let error = |vel: Vec3| {
        let exact = lead_point(eye, Vec3::ZERO, target, vel, &rocket, 1.0, 1.0);
        let rolled = lead_point(eye, Vec3::ZERO, target, vel, &rocket, 1.0, 1.3);
        rolled.distance(exact)
    };
    let sideways = error(Vec3::new(0.0, 320.0, 0.0));
    let towards = error(Vec3::new(-320.0, 0.0, 0.0));
    let slow = error(Vec3::new(0.0, 100.0, 0.0));
    assert!(sideways > 2.0 * towards, "sideways {sideways:.1}, along the line of sight {towards:.1}");
    assert!(sideways > 2.5 * slow, "faster sideways errs more: {sideways:.1} vs {slow:.1}");
    // A longer flight errs more.
    let far = Vec3::new(1600.0, 0.0, 0.0);
    let far_error = lead_point(eye, Vec3::ZERO, far, Vec3::new(0.0, 320.0, 0.0), &rocket, 1.0, 1.3)
        .distance(lead_point(eye, Vec3::ZERO, far, Vec3::new(0.0, 320.0, 0.0), &rocket, 1.0, 1.0));
    assert!(far_error > 1.5 * sideways, "{far_error:.1} vs {sideways:.1}");
}

#[test]
fn no_tick_flicks_over_180_degrees_at_any_skill() {
    for skill in [1.0, 2.0, 3.0, 4.0, 5.0] {
        for t in [Traits::at_skill(skill), Traits { turn_speed: 2000.0, turn_accel: 40000.0, turn_damping: 0.1, ..Traits::at_skill(skill) }] {
            let mut a = AimState::new(0.0, 0.0, 1);
            let mut rng = BotRng::from_seed(2);
            let mut last = a.yaw;
            for tick in 1..240u32 {
                // The target jumps behind the bot every half second.
                let side = if (tick / 30) % 2 == 0 { -1.0 } else { 1.0 };
                let aim = AimTarget::Enemy { point: Vec3::new(-1000.0, side, 0.0), velocity: Vec3::ZERO, visible: true, unseen_s: 0.0, fresh: tick % 30 == 1 };
                a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &BotClock { tick, hz: 60 }, &mut rng);
                let step = angle_diff(a.yaw, last).abs();
                assert!(step <= MAX_TURN_PER_TICK_DEG + 1e-3, "skill {skill}: {step} degrees in one tick");
                last = a.yaw;
            }
        }
    }
}

#[test]
fn a_scattering_weapon_is_aimed_at_the_centre() {
    // A still target 150 units off: a single round may land anywhere on the
    // body, so the hand leaves some of its error; a shotgun's pellets
    // scatter about 5 degrees, so every bit of error costs pellets and the
    // hand closes it.
    let t = Traits::at_skill(3.0);
    let held = |spread_deg: f32| {
        let mut rng = BotRng::from_seed(9);
        let mut total = 0.0;
        for round in 0..100u32 {
            let mut a = AimState::new(0.0, rng.range(-90.0, 90.0), 3);
            a.engage(&t, &mut rng);
            a.spread_deg = spread_deg;
            for k in 1..150u32 {
                let clock = BotClock { tick: round * 1000 + k, hz: 60 };
                let aim = AimTarget::Enemy { point: Vec3::new(150.0, 0.0, 0.0), velocity: Vec3::ZERO, visible: true, unseen_s: 0.0, fresh: k == 1 };
                a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &clock, &mut rng);
            }
            total += a.hand.size();
        }
        total / 100.0
    };
    let (single, pellets) = (held(0.0), held(4.9));
    assert!(single > 2.0, "a single round: the error left within the body ({single} degrees)");
    assert!(pellets < 0.5 * single, "pellets: {pellets} degrees against {single}");
}
