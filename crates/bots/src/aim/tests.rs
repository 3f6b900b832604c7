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
        a.update(target, Vec3::ZERO, Vec3::ZERO, None, &t, false, &clock(tick));
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
    let t = Traits {
        aim_tremor_deg: 0.0,
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
        a.update(aim, Vec3::ZERO, Vec3::ZERO, None, &t, false, &BotClock { tick, hz: 60 });
        if tick > 90 {
            let (_, want) = angles_to(Vec3::ZERO, target).expect("angles");
            worst = worst.max(angle_diff(want, a.yaw).abs());
        }
    }
    assert!(
        worst < 4.0,
        "skill 5 follows a strafer at 500 units within {worst} degrees"
    );
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
        a.update(target, Vec3::ZERO, Vec3::ZERO, None, &t, false, &c);
        b.update(target, Vec3::ZERO, Vec3::ZERO, None, &t, false, &c);
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
