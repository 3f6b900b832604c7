//! End-to-end movement tests: pmove driven by user commands in synthetic
//! worlds, checking Quake 3's numbers (speeds, step, jump height) and the
//! behaviours the issue asks for.

use glam::Vec3;
use quarry_map::{Contents, SURFACE_CLIP_EPSILON, Trace};
use quarry_movement::pmove::test_world::TestWorld;
use quarry_movement::pmove::{
    self, FallSeverity, MOVE_MASK, MoveEvent, MoveOutput, MoveParams, MoveState, jump_pad_velocity,
};
use quarry_movement::{Buttons, UserCmd};

const DT: f32 = 1.0 / 60.0;
/// Origin height of a player standing on a floor at z 0.
const STAND_Z: f32 = 24.0 + SURFACE_CLIP_EPSILON;

fn run_cmd(s: &mut MoveState, cmd: UserCmd, world: &dyn Trace, ticks: usize) -> Vec<MoveOutput> {
    let p = MoveParams::default();
    (0..ticks)
        .map(|_| pmove::pmove(s, &cmd, world, &p, DT))
        .collect()
}

fn forward(yaw: f32) -> UserCmd {
    UserCmd {
        forward: 127,
        yaw,
        ..UserCmd::default()
    }
}

/// A player standing still on the floor of `world` at (x, y), floor top `floor`.
fn standing(world: &dyn Trace, x: f32, y: f32, floor: f32) -> MoveState {
    let mut s = MoveState::new(Vec3::new(x, y, floor + STAND_Z + 0.5));
    let _ = run_cmd(&mut s, UserCmd::default(), world, 10);
    assert!(s.on_ground(), "settled on the floor at {}", s.origin);
    s
}

fn horizontal_speed(s: &MoveState) -> f32 {
    s.velocity.truncate().length()
}

fn count(outs: &[MoveOutput], event: MoveEvent) -> usize {
    outs.iter()
        .map(|o| o.events().iter().filter(|e| **e == event).count())
        .sum()
}

#[test]
fn ground_speed_converges_to_320_in_a_sixth_of_a_second() {
    let world = TestWorld::room();
    let mut s = standing(&world, -900.0, 0.0, 0.0);
    let mut reached = None;
    for tick in 1..=120 {
        let _ = run_cmd(&mut s, forward(0.0), &world, 1);
        if reached.is_none() && horizontal_speed(&s) >= 319.0 {
            reached = Some(tick);
        }
    }
    let reached = reached.expect("reaches full speed");
    assert!(
        reached as f32 * DT <= 0.17,
        "took {} s",
        reached as f32 * DT
    );
    assert!(
        (horizontal_speed(&s) - 320.0).abs() < 0.5,
        "{}",
        horizontal_speed(&s)
    );
    assert!(s.on_ground() && (s.origin.z - STAND_Z).abs() < 1e-3);
    // Diagonal input is not faster.
    let mut s = standing(&world, -900.0, -900.0, 0.0);
    let _ = run_cmd(
        &mut s,
        UserCmd {
            forward: 127,
            right: -127,
            yaw: 0.0,
            ..UserCmd::default()
        },
        &world,
        60,
    );
    assert!((horizontal_speed(&s) - 320.0).abs() < 0.5);
    assert!(
        s.velocity.y > 200.0,
        "right -127 strafes left (+y at yaw 0)"
    );
    // Friction stops the player within half a second.
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 30);
    assert_eq!(s.velocity, Vec3::ZERO, "standing still is exactly still");
}

#[test]
fn walking_and_crouching_are_slower() {
    let world = TestWorld::room();
    let cases = [
        (Buttons::WALK, 127, 160.0),
        (Buttons::CROUCH, 127, 80.0),
        (Buttons::WALK, 64, 160.0),
        (Buttons::default(), 64, 320.0 * 64.0 / 127.0),
    ];
    for (buttons, fwd, expected) in cases {
        let mut s = standing(&world, -900.0, 0.0, 0.0);
        let outs = run_cmd(
            &mut s,
            UserCmd {
                forward: fwd,
                buttons,
                ..UserCmd::default()
            },
            &world,
            90,
        );
        assert!(
            (horizontal_speed(&s) - expected).abs() < 0.5,
            "{buttons:?} {fwd}: {}",
            horizontal_speed(&s)
        );
        assert_eq!(
            count(&outs, MoveEvent::Footstep),
            if buttons == Buttons::default() { 5 } else { 0 },
            "{buttons:?}"
        );
    }
}

#[test]
fn steps_of_18_are_climbed_and_24_are_not() {
    for (height, climbs) in [
        (8.0, true),
        (16.0, true),
        (18.0, true),
        (18.5, false),
        (24.0, false),
    ] {
        let mut world = TestWorld::room();
        world.add_solid(Vec3::new(0.0, -200.0, 0.0), Vec3::new(300.0, 200.0, height));
        let mut s = standing(&world, -100.0, 0.0, 0.0);
        let outs = run_cmd(&mut s, forward(0.0), &world, 60);
        if climbs {
            assert!(s.origin.x > 100.0, "step {height}: stopped at {}", s.origin);
            assert!((s.origin.z - (height + STAND_Z)).abs() < 1e-3 && s.on_ground());
            let stepped = outs
                .iter()
                .filter_map(|o| o.stepped_up())
                .collect::<Vec<_>>();
            assert!(
                stepped.len() == 1 && (stepped[0] - height).abs() < 0.01,
                "{stepped:?}"
            );
        } else {
            assert!(
                (s.origin.x - (-15.0 - SURFACE_CLIP_EPSILON)).abs() < 0.01,
                "step {height}: {}",
                s.origin
            );
            assert!((s.origin.z - STAND_Z).abs() < 1e-3);
        }
    }
}

#[test]
fn walking_down_stairs_and_ramps_stays_on_the_ground() {
    let mut world = TestWorld::room();
    // Four steps of 16 rising along +x from x 100 to 228, then a landing at 64.
    world.add_stairs(Vec3::new(100.0, 0.0, 0.0), 4, 16.0, 32.0, 128.0);
    world.add_solid(Vec3::new(228.0, -64.0, 0.0), Vec3::new(400.0, 64.0, 64.0));
    // A 30 degree ramp rising along +x to a landing at 100.
    world.add_ramp(
        Vec3::new(500.0, -64.0, 0.0),
        Vec3::new(500.0 + 100.0 * 3f32.sqrt(), 64.0, 100.0),
    );
    world.add_solid(
        Vec3::new(500.0 + 100.0 * 3f32.sqrt(), -64.0, 0.0),
        Vec3::new(900.0, 64.0, 100.0),
    );

    for (start, floor, end_x) in [(350.0, 64.0, 40.0), (850.0, 100.0, 450.0)] {
        let mut s = standing(&world, start, 0.0, floor);
        let mut dropped = 0.0;
        while s.origin.x > end_x {
            let out = run_cmd(&mut s, forward(180.0), &world, 1);
            assert!(s.on_ground(), "left the ground at {}", s.origin);
            assert!(out[0].landed().is_none());
            dropped += out[0]
                .events()
                .iter()
                .map(|e| {
                    if let MoveEvent::SteppedDown { height } = e {
                        *height
                    } else {
                        0.0
                    }
                })
                .sum::<f32>();
        }
        assert!(
            (s.origin.z - STAND_Z).abs() < 1e-3,
            "down at the bottom: {}",
            s.origin
        );
        if floor == 64.0 {
            assert!(
                (dropped - 64.0).abs() < 0.1,
                "four step-downs of 16: {dropped}"
            );
        }
    }
}

#[test]
fn ramps_are_walked_up_and_steep_slopes_are_not() {
    let mut world = TestWorld::room();
    let run30 = 100.0 * 3f32.sqrt();
    world.add_ramp(Vec3::new(0.0, -300.0, 0.0), Vec3::new(run30, -100.0, 100.0));
    world.add_solid(
        Vec3::new(run30, -300.0, 0.0),
        Vec3::new(600.0, -100.0, 100.0),
    );
    // 60 degrees: normal z 0.5 < 0.7.
    let run60 = 200.0 / 3f32.sqrt();
    world.add_ramp(Vec3::new(0.0, 100.0, 0.0), Vec3::new(run60, 300.0, 200.0));

    let mut s = standing(&world, -200.0, -200.0, 0.0);
    for _ in 0..100 {
        let _ = run_cmd(&mut s, forward(0.0), &world, 1);
        if s.origin.x < run30 - 20.0 {
            assert!(s.on_ground(), "on the ramp at {}", s.origin);
        }
    }
    // Running over the crest hops a little, as in Quake 3; then it lands.
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 60);
    assert!(
        s.origin.x > run30 && s.on_ground() && (s.origin.z - (100.0 + STAND_Z)).abs() < 1e-3,
        "walked up: {}",
        s.origin
    );

    let mut s = standing(&world, -200.0, 200.0, 0.0);
    let mut highest: f32 = 0.0;
    for _ in 0..180 {
        let _ = run_cmd(&mut s, forward(0.0), &world, 1);
        highest = highest.max(s.origin.z);
        if let Some(g) = s.ground
            && g.normal.z < 0.7
        {
            assert!(!g.walkable);
        }
    }
    assert!(
        highest < STAND_Z + 40.0,
        "climbed a 60 degree slope to {highest}"
    );
    assert!(s.origin.x < 40.0, "stays at the foot: {}", s.origin);
}

#[test]
fn jump_height_is_v_squared_over_2g_and_holding_does_not_rejump() {
    let world = TestWorld::room();
    let p = MoveParams::default();
    let mut s = standing(&world, 0.0, 0.0, 0.0);
    let jump = UserCmd {
        buttons: Buttons::JUMP,
        ..UserCmd::default()
    };
    let mut apex: f32 = 0.0;
    let mut outs = Vec::new();
    for _ in 0..(3.0 / DT) as usize {
        outs.extend(run_cmd(&mut s, jump, &world, 1));
        apex = apex.max(s.origin.z - STAND_Z);
    }
    assert!(
        (apex - p.max_jump_height()).abs() < 1.0,
        "apex {apex}, expected {}",
        p.max_jump_height()
    );
    assert_eq!(
        outs.iter().filter(|o| o.jumped()).count(),
        1,
        "held jump jumps once"
    );
    let landed = outs.iter().filter_map(|o| o.landed()).collect::<Vec<_>>();
    assert_eq!(landed.len(), 1);
    assert!(
        (landed[0] - 270.0).abs() < 2.0,
        "lands as fast as it left: {}",
        landed[0]
    );
    // Release and press again: a new jump.
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 1);
    assert!(run_cmd(&mut s, jump, &world, 1)[0].jumped());
}

#[test]
fn walls_stop_and_slide() {
    let mut world = TestWorld::room();
    world.add_solid(
        Vec3::new(200.0, -1024.0, 0.0),
        Vec3::new(216.0, 1024.0, 512.0),
    );
    let mut s = standing(&world, 0.0, 0.0, 0.0);
    let _ = run_cmd(&mut s, forward(0.0), &world, 60);
    assert!(
        (s.origin.x - (185.0 - SURFACE_CLIP_EPSILON)).abs() < 0.01,
        "stopped at the wall: {}",
        s.origin
    );
    assert!(horizontal_speed(&s) < 1.0);
    // At 45 degrees into it: slides along, at the speed along the wall.
    let _ = run_cmd(&mut s, forward(45.0), &world, 60);
    assert!(s.origin.y > 150.0, "slid along: {}", s.origin);
    assert!((s.origin.x - (185.0 - SURFACE_CLIP_EPSILON)).abs() < 0.2);
    // As in Quake 3, pushing along a wall at 45 degrees settles where
    // friction (10 % a tick) balances the acceleration along the wall
    // (53.3 * cos 45 a tick): 377 units/s.
    assert!(
        (s.velocity.y - 377.0).abs() < 2.0 && s.velocity.x.abs() < 0.5,
        "{}",
        s.velocity
    );
}

#[test]
fn crouching_passes_a_low_gap_and_standing_up_waits_for_room() {
    let mut world = TestWorld::room();
    // A tunnel 41 units high (the crouched box is 40; one unit of slack
    // for the clip epsilon above the floor) from x 100 to 300.
    world.add_solid(
        Vec3::new(100.0, -200.0, 41.0),
        Vec3::new(300.0, 200.0, 200.0),
    );
    let crouch = UserCmd {
        forward: 127,
        buttons: Buttons::CROUCH,
        ..UserCmd::default()
    };
    let mut s = standing(&world, 0.0, 0.0, 0.0);
    let _ = run_cmd(&mut s, forward(0.0), &world, 60);
    assert!(s.origin.x < 86.0, "standing does not fit: {}", s.origin);
    let _ = run_cmd(&mut s, crouch, &world, 60);
    assert!(
        s.origin.x > 140.0 && s.origin.x < 250.0,
        "crouched into the tunnel: {}",
        s.origin
    );
    let outs = run_cmd(&mut s, UserCmd::default(), &world, 5);
    assert!(s.crouched && outs[4].maxs.z == 16.0, "no room to stand up");
    let _ = run_cmd(&mut s, forward(0.0), &world, 150);
    assert!(
        s.origin.x > 320.0 && !s.crouched,
        "stood up out of the tunnel: {}",
        s.origin
    );
}

#[test]
fn water_slows_walking_and_swimming() {
    let mut world = TestWorld::new();
    world.add_room(
        Vec3::new(-1024.0, -1024.0, -400.0),
        Vec3::new(1024.0, 1024.0, 512.0),
        16.0,
    );
    world.add_solid(
        Vec3::new(-1024.0, -1024.0, -400.0),
        Vec3::new(-400.0, 1024.0, 0.0),
    );
    world.add_box(
        Vec3::new(-1024.0, -1024.0, -400.0),
        Vec3::new(1024.0, 1024.0, 20.0),
        Contents::WATER,
        None,
    );
    // Wading (level 1): 1 - (1 - 0.5) / 3 of full speed.
    let mut s = standing(&world, -900.0, 0.0, 0.0);
    assert_eq!(s.water_level, 1);
    let _ = run_cmd(&mut s, forward(90.0), &world, 60);
    assert!(
        (horizontal_speed(&s) - 320.0 * (5.0 / 6.0)).abs() < 1.0,
        "wading: {}",
        horizontal_speed(&s)
    );
    // Swimming in the deep part: at most pm_swimScale of g_speed.
    let mut s = MoveState::new(Vec3::new(0.0, 0.0, -200.0));
    let outs = run_cmd(&mut s, forward(0.0), &world, 120);
    assert_eq!(s.water_level, 3);
    assert!(
        (horizontal_speed(&s) - 160.0).abs() < 1.0,
        "swimming: {}",
        horizontal_speed(&s)
    );
    assert!(outs.iter().all(|o| o.liquid == Contents::WATER));
    // Jump swims up, pitch down swims down.
    let z = s.origin.z;
    let _ = run_cmd(
        &mut s,
        UserCmd {
            buttons: Buttons::JUMP,
            ..UserCmd::default()
        },
        &world,
        30,
    );
    assert!(s.origin.z > z + 40.0, "swam up: {} -> {}", z, s.origin.z);
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 120);
    let z = s.origin.z;
    let _ = run_cmd(
        &mut s,
        UserCmd {
            forward: 127,
            pitch: 60.0,
            ..UserCmd::default()
        },
        &world,
        30,
    );
    assert!(s.origin.z < z - 40.0, "dived: {} -> {}", z, s.origin.z);
}

#[test]
fn jumping_out_of_water_onto_a_ledge() {
    let mut world = TestWorld::room();
    world.add_box(
        Vec3::new(-1024.0, -1024.0, 0.0),
        Vec3::new(200.0, 1024.0, 100.0),
        Contents::WATER,
        None,
    );
    world.add_solid(
        Vec3::new(200.0, -1024.0, 0.0),
        Vec3::new(1024.0, 1024.0, 105.0),
    );
    // Waist deep at the wall, facing it.
    let mut s = MoveState::new(Vec3::new(180.0, 0.0, 90.0));
    let mut outs = run_cmd(&mut s, forward(0.0), &world, 30);
    outs.extend(run_cmd(&mut s, UserCmd::default(), &world, 60));
    assert_eq!(count(&outs, MoveEvent::WaterJumped), 1);
    assert!(
        s.origin.x > 220.0 && s.on_ground() && (s.origin.z - (105.0 + STAND_Z)).abs() < 1e-3,
        "on the ledge: {}",
        s.origin
    );
    assert!(count(&outs, MoveEvent::WaterLeft) == 1 && s.water_level == 0);
}

#[test]
fn jump_pads_reach_their_targets() {
    let world = TestWorld::room();
    // Quake 3 style: the arc peaks at a target above.
    let mut s = standing(&world, -800.0, 0.0, 0.0);
    let target = Vec3::new(-100.0, 300.0, 350.0);
    s.launch(jump_pad_velocity(s.origin, target, 800.0));
    let mut closest = f32::MAX;
    for _ in 0..120 {
        let _ = run_cmd(&mut s, UserCmd::default(), &world, 1);
        closest = closest.min(s.origin.distance(target));
    }
    assert!(closest < 4.0, "passed {closest} from the apex target");
    // A target at standing height on the floor: land there.
    let mut s = standing(&world, -800.0, -800.0, 0.0);
    let target = Vec3::new(200.0, -500.0, s.origin.z);
    s.launch(jump_pad_velocity(s.origin, target, 800.0));
    let mut landing = None;
    for _ in 0..240 {
        let out = run_cmd(&mut s, UserCmd::default(), &world, 1);
        if out[0].landed().is_some() {
            landing = Some(s.origin);
            break;
        }
    }
    let landing = landing.expect("lands");
    assert!(
        landing.distance(target) < 16.0,
        "landed at {landing}, target {target}"
    );
}

#[test]
fn landings_report_impact_speed_and_severity() {
    let world = TestWorld::room();
    for (height, severity) in [
        (20.0, None),
        (150.0, Some(FallSeverity::Short)),
        (300.0, Some(FallSeverity::Medium)),
        (450.0, Some(FallSeverity::Far)),
    ] {
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, STAND_Z + height));
        let outs = run_cmd(&mut s, UserCmd::default(), &world, 120);
        let landed = outs.iter().filter_map(|o| o.landed()).collect::<Vec<_>>();
        let expected = (2.0 * 800.0 * height).sqrt();
        assert!(
            landed.len() == 1 && (landed[0] - expected).abs() < 1.0,
            "{height}: {landed:?} vs {expected}"
        );
        assert_eq!(outs.iter().find_map(MoveOutput::fall), severity, "{height}");
    }
}

#[test]
fn knockback_suspends_friction_and_teleport_moves() {
    let world = TestWorld::room();
    let mut s = standing(&world, 0.0, 0.0, 0.0);
    s.apply_knockback(Vec3::new(300.0, 0.0, 0.0));
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 6);
    assert!(
        horizontal_speed(&s) > 295.0,
        "no friction during knockback: {}",
        horizontal_speed(&s)
    );
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 60);
    assert_eq!(horizontal_speed(&s), 0.0);
    // Upward knockback leaves the ground.
    s.apply_knockback(Vec3::new(0.0, 0.0, 400.0));
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 1);
    assert!(!s.on_ground() && s.origin.z > STAND_Z);

    let mut s = standing(&world, 0.0, 0.0, 0.0);
    s.teleport(
        Vec3::new(500.0, 500.0, 100.0),
        Vec3::new(0.0, 400.0, 0.0),
        90.0,
    );
    let _ = run_cmd(
        &mut s,
        UserCmd {
            yaw: 90.0,
            ..UserCmd::default()
        },
        &world,
        1,
    );
    assert!(
        !s.on_ground() && s.origin.y > 500.0 && s.origin.z < 100.0,
        "{}",
        s.origin
    );
    let _ = run_cmd(&mut s, UserCmd::default(), &world, 120);
    assert!(s.on_ground() && (s.origin.z - STAND_Z).abs() < 1e-3);
    assert_eq!(s.teleport_time, 0.0);
}

#[test]
fn trace_budget_per_move() {
    let world = TestWorld::room();
    let mut s = standing(&world, -900.0, 0.0, 0.0);
    let still = run_cmd(&mut s, UserCmd::default(), &world, 10);
    assert!(
        still.iter().all(|o| o.traces == 1),
        "standing: one ground trace"
    );
    let running = run_cmd(&mut s, forward(0.0), &world, 60);
    assert!(
        running.iter().all(|o| o.traces == 2),
        "running in the open: slide + ground"
    );
    let mut s = MoveState::new(Vec3::new(0.0, 0.0, 300.0));
    let falling = run_cmd(&mut s, UserCmd::default(), &world, 10);
    assert!(
        falling.iter().skip(1).all(|o| o.traces == 2),
        "falling: slide + ground"
    );
}

#[test]
fn stuck_players_are_nudged_out() {
    let mut world = TestWorld::room();
    world.add_solid(
        Vec3::new(-100.0, -100.0, 0.0),
        Vec3::new(100.0, 100.0, 30.0),
    );
    // Feet 6 units into a block: nudged up onto it.
    let mut s = MoveState::new(Vec3::new(0.0, 0.0, 30.0 + 24.0 - 6.0));
    let out = run_cmd(&mut s, UserCmd::default(), &world, 1);
    assert!(out[0].unstuck && !out[0].stuck);
    assert!(world.fits(s.origin, s.mins, s.maxs, MOVE_MASK));
    // Deep inside: reported for the sim to handle, never a panic.
    world.add_solid(
        Vec3::new(-500.0, -100.0, 0.0),
        Vec3::new(-300.0, 100.0, 300.0),
    );
    let mut s = MoveState::new(Vec3::new(-400.0, 0.0, 150.0));
    let out = run_cmd(&mut s, forward(0.0), &world, 1);
    assert!(out[0].stuck);
}

#[test]
fn dead_players_fall_without_control() {
    let world = TestWorld::room();
    let mut s = MoveState::new(Vec3::new(0.0, 0.0, 200.0));
    s.dead = true;
    let _ = run_cmd(
        &mut s,
        UserCmd {
            forward: 127,
            buttons: Buttons::JUMP,
            ..UserCmd::default()
        },
        &world,
        120,
    );
    assert!(s.on_ground() && s.origin.x == 0.0);
    assert!(
        (s.origin.z - STAND_Z).abs() < 1e-3,
        "dead box still stands on its bottom: {}",
        s.origin
    );
    assert_eq!(s.maxs.z, -8.0);
}

#[test]
fn riding_a_platform_down_stays_on_it() {
    // The platform sinks 3 units a tick (180 units/s), as a plat would; the
    // world is rebuilt each tick, as the sim moves a mover's hulls.
    let platform = |top: f32| {
        let mut w = TestWorld::room();
        w.add_solid(Vec3::new(-64.0, -64.0, 0.0), Vec3::new(64.0, 64.0, top));
        w
    };
    let mut s = standing(&platform(200.0), 0.0, 0.0, 200.0);
    for tick in 1..=60 {
        let top = 200.0 - 3.0 * tick as f32;
        let out = run_cmd(&mut s, UserCmd::default(), &platform(top), 1);
        assert!(
            s.on_ground() && out[0].landed().is_none(),
            "tick {tick}: {}",
            s.origin
        );
        assert!(
            (s.origin.z - (top + STAND_Z)).abs() < 1e-3,
            "tick {tick}: {}",
            s.origin
        );
    }
}
