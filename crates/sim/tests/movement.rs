//! Player movement through the match's input queue (the same path every
//! client's commands take): run speed, jump height, no re-jump while held,
//! step-up. pmove's own tests cover the physics in detail.

mod support;

use glam::Vec3;
use quarry_sim::{Buttons, ClientKind, UserCmd};
use support::*;

/// A room with one 16-unit step and one 32-unit block along +X from the spawn.
fn step_room() -> String {
    let mut brushes = room(512.0, 256.0);
    brushes.push(block(Vec3::new(100.0, -512.0, 0.0), Vec3::new(512.0, 512.0, 16.0), "quarry/floor"));
    let spawn = entity("info_player_deathmatch", Vec3::new(-300.0, 0.0, 25.0), &[("angle", "0")]);
    map_text(&brushes, &[spawn])
}

#[test]
fn running_jumping_and_stepping_through_the_input_queue() {
    let mut m = match_on(&step_room(), test_settings(), 1);
    let p = join(&mut m, "runner", ClientKind::Remote { latency_ms: 0 });
    run(&mut m, &[p], 30, |_, _| UserCmd::default());
    let start = m.player_view(p).expect("spawned");
    assert!(start.on_ground);
    // Run forward along +X for half a second: full speed is 320.
    run(&mut m, &[p], 30, |_, _| UserCmd { yaw: 0.0, forward: 127, ..UserCmd::default() });
    let v = m.player_view(p).expect("alive").velocity;
    assert!((v.truncate().length() - 320.0).abs() < 1.0, "run speed {v}");
    // Keep running: the 16-unit step is climbed without jumping.
    run(&mut m, &[p], 60, |_, _| UserCmd { yaw: 0.0, forward: 127, ..UserCmd::default() });
    let on_step = m.player_view(p).expect("alive");
    assert!(on_step.origin.x > 120.0 && on_step.on_ground, "{on_step:?}");
    assert!((on_step.origin.z - (start.origin.z + 16.0)).abs() < 0.5, "{} vs {}", on_step.origin.z, start.origin.z);
    // Hold jump for two seconds: exactly one jump, peaking about 45.6 above the floor.
    let floor_z = on_step.origin.z;
    let mut peak = floor_z;
    let mut takeoffs = 0;
    let mut was_on_ground = true;
    for _ in 0..120 {
        run(&mut m, &[p], 1, |_, _| UserCmd { buttons: Buttons::JUMP, ..UserCmd::default() });
        let now = m.player_view(p).expect("alive");
        peak = peak.max(now.origin.z);
        if was_on_ground && !now.on_ground {
            takeoffs += 1;
        }
        was_on_ground = now.on_ground;
    }
    assert_eq!(takeoffs, 1, "holding jump must not re-jump");
    assert!((peak - floor_z - 45.56).abs() < 1.5, "jump height {}", peak - floor_z);
}
