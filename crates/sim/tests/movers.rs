//! Movers end to end: doors open as a player runs up to them and close
//! after their wait, plats lift the player standing on them, and every
//! trace sees a mover where it is.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::*;
use quarry_map::Contents;
use quarry_sim::Match;
use quarry_sim::movers::Mover;

/// A wall across the room at x 300..316 with a 128x128 doorway holding a
/// door that slides up.
fn door_map(keys: &[(&str, &str)]) -> String {
    let walls = [
        solid(Vec3::new(300.0, -1024.0, 0.0), Vec3::new(316.0, -64.0, 512.0)),
        solid(Vec3::new(300.0, 64.0, 0.0), Vec3::new(316.0, 1024.0, 512.0)),
        solid(Vec3::new(300.0, -64.0, 128.0), Vec3::new(316.0, 64.0, 512.0)),
    ];
    let mut door_keys = vec![("angle", "-1")];
    door_keys.extend_from_slice(keys);
    let door =
        brush_entity("func_door", &door_keys, &[solid(Vec3::new(300.0, -64.0, 0.0), Vec3::new(316.0, 64.0, 128.0))]);
    arena(&[(0.0, 0.0)], &walls, &[door])
}

fn doorway_blocked(m: &Match) -> bool {
    let tr = m.map().world().trace(
        Vec3::new(250.0, 0.0, 60.0),
        Vec3::new(400.0, 0.0, 60.0),
        Vec3::ZERO,
        Vec3::ZERO,
        Contents::MASK_SHOT,
    );
    tr.hit()
}

#[test]
fn door_opens_on_approach_stays_open_while_near_and_closes_after_wait() {
    let (mut m, s) = start(&door_map(&[]), 1);
    let door = mover_id(&m, "func_door");
    assert_eq!(offset(&m, door), Vec3::ZERO);
    assert!(doorway_blocked(&m), "closed");
    run_to(&mut m, &s, s[0], Vec3::new(200.0, 0.0, 0.0), 4.0, 60);
    // 120 units (128 - lip 8) at 400 u/s: 0.3 s.
    step(&mut m, &s, 20, &mut idle);
    assert_eq!(offset(&m, door), Vec3::new(0.0, 0.0, 120.0), "open");
    assert!(!doorway_blocked(&m), "traces see the open door");
    step(&mut m, &s, 5 * 60, &mut idle);
    assert_eq!(offset(&m, door), Vec3::new(0.0, 0.0, 120.0), "stays open while the player is near");
    // Through the doorway and on, out of the door's volume (x 180..436).
    let mut last_in = 0;
    let mut started = Vec::new();
    for _ in 0..300 {
        let c = run_toward(&m, s[0], Vec3::new(600.0, 0.0, 0.0), 4.0);
        let ev = step(&mut m, &s, 1, &mut |_, _| c);
        started.extend(sounds(&ev, quarry_sim::events::SoundKind::Mover));
        if origin(&m, s[0]).x - 15.0 <= 436.0 {
            last_in = m.tick();
        }
        if offset(&m, door) == Vec3::ZERO {
            break;
        }
    }
    assert!(origin(&m, s[0]).x > 500.0, "walked through: {}", origin(&m, s[0]));
    assert_eq!(offset(&m, door), Vec3::ZERO, "closed");
    // 2 s wait from the last tick someone was near, then 0.3 s of travel.
    let closed_at = m.tick();
    assert_eq!(closed_at - last_in, 120 + 18, "closing timed from the last touch");
    assert_eq!(started.len(), 1, "one sound as it starts closing: {started:?}");
    assert!(doorway_blocked(&m));
}

#[test]
fn targeted_doors_do_not_open_on_touch_and_wait_minus_one_stays_open() {
    let (mut m, s) = start(&door_map(&[("targetname", "button1")]), 1);
    let door = mover_id(&m, "func_door");
    run_to(&mut m, &s, s[0], Vec3::new(280.0, 0.0, 0.0), 4.0, 90);
    step(&mut m, &s, 60, &mut idle);
    assert_eq!(offset(&m, door), Vec3::ZERO, "opened only by its trigger");

    let (mut m, s) = start(&door_map(&[("wait", "-1")]), 1);
    let door = mover_id(&m, "func_door");
    run_to(&mut m, &s, s[0], Vec3::new(200.0, 0.0, 0.0), 4.0, 60);
    run_to(&mut m, &s, s[0], Vec3::new(-400.0, 0.0, 0.0), 4.0, 120);
    step(&mut m, &s, 10 * 60, &mut idle);
    assert_eq!(offset(&m, door), Vec3::new(0.0, 0.0, 120.0), "never returns");
}

#[test]
fn plat_rises_with_its_rider_and_lowers_after_it_leaves() {
    // Drawn at the top (z 112..128), resting 112 lower: its top at z 16, a step.
    let plat = brush_entity(
        "func_plat",
        &[("height", "112")],
        &[solid(Vec3::new(200.0, -64.0, 112.0), Vec3::new(328.0, 64.0, 128.0))],
    );
    let ledge = solid(Vec3::new(328.0, -256.0, 0.0), Vec3::new(600.0, 256.0, 128.0));
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[ledge], &[plat]), 1);
    let id = mover_id(&m, "func_plat");
    assert_eq!(offset(&m, id), Vec3::new(0.0, 0.0, -112.0), "rests lowered");
    // Step onto it; it starts up at once and takes 0.56 s (112 units at 200 u/s).
    let mut rising_with_it = 0;
    for _ in 0..150 {
        let c = run_toward(&m, s[0], Vec3::new(264.0, 0.0, 0.0), 4.0);
        step(&mut m, &s, 1, &mut |_, _| c);
        let (z, plat) = (origin(&m, s[0]).z, offset(&m, id).z);
        if plat > -112.0 && plat < 0.0 && (z - (plat + 128.0 + 24.0)).abs() < 1.0 {
            rising_with_it += 1;
        }
    }
    assert!(rising_with_it > 20, "the rider keeps its footing all the way up ({rising_with_it} ticks)");
    assert_eq!(offset(&m, id), Vec3::ZERO, "raised");
    let v = m.player_view(s[0]).expect("alive");
    assert!((v.origin.z - 152.0).abs() < 1.0 && v.on_ground, "carried up: {}", v.origin);
    step(&mut m, &s, 3 * 60, &mut idle);
    assert_eq!(offset(&m, id), Vec3::ZERO, "stays up while ridden");
    run_to(&mut m, &s, s[0], Vec3::new(450.0, 0.0, 0.0), 4.0, 90);
    assert!(origin(&m, s[0]).z > 150.0, "stepped onto the ledge");
    step(&mut m, &s, 3 * 60, &mut idle);
    assert_eq!(offset(&m, id), Vec3::new(0.0, 0.0, -112.0), "lowered again");
}

#[test]
fn bobbing_platform_follows_its_sine() {
    let bob = brush_entity(
        "func_bobbing",
        &[("height", "64"), ("speed", "4")],
        &[solid(Vec3::new(-600.0, -64.0, 200.0), Vec3::new(-472.0, 64.0, 216.0))],
    );
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &[bob]), 1);
    let id = mover_id(&m, "func_bobbing");
    let mut lo = f32::MAX;
    let mut hi = f32::MIN;
    for _ in 0..4 * 60 {
        step(&mut m, &s, 1, &mut idle);
        let z = offset(&m, id).z;
        lo = lo.min(z);
        hi = hi.max(z);
        let t = m.tick() as f32 / 60.0;
        assert!((z - 64.0 * (std::f32::consts::TAU * t / 4.0).sin()).abs() < 0.01, "at {t}: {z}");
    }
    assert!(hi > 63.0 && lo < -63.0, "{lo}..{hi}");
    let w = m.world_mut();
    let movers = w.query::<&Mover>().iter(w).count();
    assert_eq!(movers, 1);
}

#[test]
fn a_plat_lowering_onto_a_player_reverses_instead_of_crushing() {
    let plat = brush_entity(
        "func_plat",
        &[("height", "112")],
        &[solid(Vec3::new(200.0, -64.0, 112.0), Vec3::new(328.0, 64.0, 128.0))],
    );
    let ledge = solid(Vec3::new(328.0, -256.0, 0.0), Vec3::new(600.0, 256.0, 128.0));
    let (mut m, s) = start(&arena(&[(0.0, 0.0), (264.0, -300.0)], &[ledge], &[plat]), 2);
    let id = mover_id(&m, "func_plat");
    let (rider, under) = (s[0], s[1]);
    run_to(&mut m, &s, rider, Vec3::new(264.0, 0.0, 0.0), 4.0, 150);
    assert_eq!(offset(&m, id), Vec3::ZERO, "raised");
    // The rider steps off onto the ledge while the other walks in under the plat.
    let mut events = Vec::new();
    for _ in 0..120 {
        let (a, b) = (
            run_toward(&m, rider, Vec3::new(450.0, 0.0, 0.0), 4.0),
            run_toward(&m, under, Vec3::new(264.0, 0.0, 0.0), 4.0),
        );
        events.extend(step(&mut m, &s, 1, &mut |slot, _| if slot == rider { a } else { b }));
    }
    assert!((origin(&m, under).truncate() - Vec3::new(264.0, 0.0, 0.0).truncate()).length() < 8.0);
    let mut lowest = 0.0_f32;
    let mut reversals = 0;
    let mut last = offset(&m, id).z;
    let mut going_down = false;
    for _ in 0..6 * 60 {
        events.extend(step(&mut m, &s, 1, &mut idle));
        let z = offset(&m, id).z;
        if going_down && z > last {
            reversals += 1;
        }
        going_down = z < last || (going_down && z == last);
        lowest = lowest.min(z);
        last = z;
    }
    // The player's head is at z 56: the plat's underside (z 112 + offset) stops there.
    assert!(lowest >= -57.0, "never lower than the player's head: {lowest}");
    assert!(reversals >= 1, "turned around");
    let crushed: Vec<i32> = events
        .iter()
        .filter_map(|(_, e)| match e {
            quarry_sim::events::GameEvent::Damage {
                target,
                amount,
                means: quarry_sim::events::MeansOfDeath::World,
                ..
            } if *target == under => Some(*amount),
            _ => None,
        })
        .collect();
    assert!(!crushed.is_empty() && crushed.iter().all(|d| *d == 2), "its dmg (2) per block: {crushed:?}");
    assert!(m.player_view(under).expect("body").alive);
}
