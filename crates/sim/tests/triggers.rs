//! Triggers end to end: players run into jump pads, teleporters, hurt
//! volumes and liquids through the input queue.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::*;
use quarry_sim::events::{GameEvent, MeansOfDeath, SoundKind};
use quarry_sim::{SlotId, UserCmd};
use support::{block, entity};

fn pad(target: &str) -> String {
    brush_entity(
        "trigger_push",
        &[("target", target)],
        &[trigger_brush(Vec3::new(-32.0, -32.0, 0.0), Vec3::new(32.0, 32.0, 16.0))],
    )
}

/// Runs `slot` onto the pad at the origin from -X until it is launched,
/// then lets go; returns the events and where it first stands again.
fn ride_pad(text: &str) -> (Vec<(u32, GameEvent)>, Vec3, f32) {
    let (mut m, s) = start(text, 1);
    let target = Vec3::ZERO;
    let mut events = Vec::new();
    let mut launched = false;
    let mut landed = None;
    let mut closest = f32::MAX;
    let apex_target = m.map().entities().iter().find(|e| e.targetname.as_deref() == Some("t1")).and_then(|e| e.origin);
    for _ in 0..400 {
        let c = if launched { UserCmd::default() } else { run_toward(&m, s[0], target, 0.0) };
        let ev = step(&mut m, &s, 1, &mut |_, _| c);
        launched |= !sounds(&ev, SoundKind::JumpPad).is_empty();
        events.extend(ev);
        let v = m.player_view(s[0]).expect("alive");
        if let Some(t) = apex_target {
            closest = closest.min(v.origin.distance(t));
        }
        if launched && v.on_ground && v.origin.x > 100.0 {
            landed = Some(v.origin);
            break;
        }
    }
    (events, landed.expect("landed"), closest)
}

#[test]
fn jump_pad_lands_within_a_small_radius_of_its_target() {
    let text = arena(
        &[(-200.0, 0.0)],
        &[],
        &[pad("t1"), entity("target_position", Vec3::new(600.0, 0.0, 24.0), &[("targetname", "t1")])],
    );
    let (events, landed, _) = ride_pad(&text);
    assert_eq!(sounds(&events, SoundKind::JumpPad).len(), 1, "one launch per touch");
    let miss = (landed.truncate() - Vec3::new(600.0, 0.0, 0.0).truncate()).length();
    assert!(miss < 24.0, "landed at {landed}, {miss} units from the target");
}

#[test]
fn quake3_jump_pad_arc_peaks_at_a_raised_target() {
    let ledge = solid(Vec3::new(480.0, -128.0, 0.0), Vec3::new(1024.0, 128.0, 128.0));
    let text = arena(
        &[(-200.0, 0.0)],
        &[ledge],
        &[pad("t1"), entity("target_position", Vec3::new(480.0, 0.0, 200.0), &[("targetname", "t1")])],
    );
    let (_, landed, closest) = ride_pad(&text);
    assert!(closest < 8.0, "the arc passes {closest} units from the target");
    assert!((landed.z - 152.0).abs() < 1.0, "lands on the ledge: {landed}");
}

#[test]
fn teleporter_moves_the_player_and_telefrags_whoever_stands_there() {
    let tele = brush_entity(
        "trigger_teleport",
        &[("target", "d1")],
        &[trigger_brush(Vec3::new(200.0, -64.0, 0.0), Vec3::new(232.0, 64.0, 96.0))],
    );
    let dest = entity("misc_teleporter_dest", Vec3::new(-400.0, 400.0, 24.0), &[("targetname", "d1"), ("angle", "90")]);
    let (mut m, s) = start(&arena(&[(0.0, 0.0), (-400.0, 400.0)], &[], &[tele, dest]), 2);
    let mut events = Vec::new();
    for _ in 0..120 {
        let c = run_toward(&m, s[0], Vec3::new(300.0, 0.0, 0.0), 0.0);
        let ev = step(&mut m, &s, 1, &mut |slot, _| if slot == s[0] { c } else { UserCmd::default() });
        let teleported = !sounds(&ev, SoundKind::Teleport).is_empty();
        events.extend(ev);
        if teleported {
            break;
        }
    }
    let v = m.player_view(s[0]).expect("alive");
    assert!(
        (v.origin.truncate() - Vec3::new(-400.0, 400.0, 0.0).truncate()).length() < 1.0,
        "at the destination: {}",
        v.origin
    );
    assert!(
        (v.velocity - Vec3::new(0.0, 400.0, 0.0)).length() < 1.0,
        "leaves at 400 along the destination's angle: {}",
        v.velocity
    );
    let kills: Vec<(Option<SlotId>, SlotId, MeansOfDeath)> = events
        .iter()
        .filter_map(|(_, e)| match e {
            GameEvent::Kill { killer, victim, means } => Some((*killer, *victim, *means)),
            _ => None,
        })
        .collect();
    assert_eq!(kills, [(Some(s[0]), s[1], MeansOfDeath::Telefrag)]);
    assert!(!m.player_view(s[1]).expect("body").alive);
}

fn damage_ticks(events: &[(u32, GameEvent)], slot: SlotId, means: MeansOfDeath) -> Vec<(u32, i32)> {
    events
        .iter()
        .filter_map(|(t, e)| match e {
            GameEvent::Damage { target, amount, armor, means: m, .. } if *target == slot && *m == means => {
                Some((*t, amount + armor))
            }
            _ => None,
        })
        .collect()
}

fn wade_in(texture: &str, means: MeansOfDeath) -> Vec<(u32, i32)> {
    let pool = block(Vec3::new(200.0, -128.0, 0.0), Vec3::new(456.0, 128.0, 40.0), texture);
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[pool], &[]), 1);
    let mut events = run_to(&mut m, &s, s[0], Vec3::new(330.0, 0.0, 0.0), 4.0, 90);
    events.extend(step(&mut m, &s, 150, &mut idle));
    damage_ticks(&events, s[0], means)
}

#[test]
fn lava_and_slime_hurt_once_a_second_by_depth() {
    for (texture, means, per_level) in
        [("liquids/lava", MeansOfDeath::Lava, 30), ("liquids/slime", MeansOfDeath::Slime, 10)]
    {
        let hits = wade_in(texture, means);
        assert!(hits.len() >= 3, "{texture}: {hits:?}");
        for w in hits.windows(2) {
            assert_eq!(w[1].0 - w[0].0, 60, "{texture}: once a second: {hits:?}");
        }
        // The last hit may kill: it takes only what health was left.
        let (before_last, _) = hits.split_at(hits.len() - 1);
        assert!(hits.iter().all(|(_, d)| *d > 0), "{texture}: {hits:?}");
        assert!(before_last.iter().all(|(_, d)| d % per_level == 0), "{texture}: {per_level} per level: {hits:?}");
    }
}

fn stand_in_hurt(keys: &[(&str, &str)], ticks: u32) -> Vec<(u32, i32)> {
    let hurt =
        brush_entity("trigger_hurt", keys, &[trigger_brush(Vec3::new(-64.0, -64.0, 0.0), Vec3::new(64.0, 64.0, 64.0))]);
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &[hurt]), 1);
    let events = step(&mut m, &s, ticks, &mut idle);
    damage_ticks(&events, s[0], MeansOfDeath::World)
}

#[test]
fn trigger_hurt_paces_its_damage() {
    let hits = stand_in_hurt(&[], 60);
    assert_eq!(hits.len(), 10, "every 100 ms: {hits:?}");
    assert!(hits.iter().all(|(_, d)| *d == 5), "default dmg 5: {hits:?}");
    let slow = stand_in_hurt(&[("dmg", "20"), ("spawnflags", "16")], 180);
    assert_eq!(slow.len(), 3, "SLOW: once a second: {slow:?}");
    assert!(stand_in_hurt(&[("spawnflags", "1")], 60).is_empty(), "START_OFF never hurts");
}

/// Issue 50: a bot that fell into a map's killing hurt trigger twice showed
/// 1,335,985 damage taken. Damage counts what the victim lost (health down
/// to zero, plus the armor that absorbed), never the trigger's raw figure.
#[test]
fn a_killing_hurt_trigger_counts_only_what_the_player_had() {
    let hurt = brush_entity(
        "trigger_hurt",
        &[("dmg", "667992")],
        &[trigger_brush(Vec3::new(-64.0, -64.0, 0.0), Vec3::new(64.0, 64.0, 64.0))],
    );
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &[hurt]), 1);
    let events = step(&mut m, &s, 60 * 8, &mut |_, t| {
        // Attack pressed every other tick asks to respawn once dead.
        let buttons = if t % 2 == 0 { quarry_sim::Buttons::ATTACK } else { quarry_sim::Buttons::default() };
        UserCmd { buttons, ..UserCmd::default() }
    });
    let hits = damage_ticks(&events, s[0], MeansOfDeath::World);
    let card = m.scoreboard().rows.iter().find(|r| r.slot == s[0]).expect("a row").score;
    assert!(card.deaths >= 2, "respawned into it and died again: {card:?}");
    assert!(hits.iter().all(|(_, d)| (1..=400).contains(d)), "at most a full health and armor a hit: {hits:?}");
    // Spawned with at most a full health and no armor, each life loses at
    // most that (the first life began in the trigger before `events`).
    assert!(card.damage_taken <= 400 * card.deaths, "{card:?}");
    let sum: u32 = hits.iter().map(|(_, d)| d.unsigned_abs()).sum();
    assert!(sum <= card.damage_taken, "the card counts at least what the events here lost: {sum} {card:?}");
}

/// The command of a client running forward with its view at `yaw`: the
/// view minus the player's delta angles, as a client sends it.
fn run_facing(m: &quarry_sim::Match, slot: SlotId, yaw: f32) -> UserCmd {
    let delta = m.own_view(slot).map_or(0.0, |o| o.delta_angles.1);
    UserCmd { yaw: (yaw - delta).rem_euclid(360.0), forward: 127, ..UserCmd::default() }
}

#[test]
fn shipped_map_jump_pad_throws_onto_the_north_ledge() {
    // q_dm1: pad (-64..64, -32..96) in the great hall, target (0, 432, 408),
    // the north ledge (y 384..768) has its floor at 320.
    let (mut m, s) = start_shipped("q_dm1", 1);
    setup_place(&mut m, s[0], Vec3::new(0.0, -150.0, 24.5));
    let mut launched = false;
    let mut landed = None;
    for _ in 0..300 {
        let c = if launched { UserCmd::default() } else { run_facing(&m, s[0], 90.0) };
        let ev = step(&mut m, &s, 1, &mut |_, _| c);
        launched |= !sounds(&ev, SoundKind::JumpPad).is_empty();
        let v = m.player_view(s[0]).expect("alive");
        if launched && v.on_ground && v.origin.z > 100.0 {
            landed = Some(v.origin);
            break;
        }
    }
    let landed = landed.expect("landed high");
    assert!((landed.z - 344.0).abs() < 1.0 && (384.0..768.0).contains(&landed.y), "on the north ledge: {landed}");
}

#[test]
fn shipped_map_teleporter_sends_the_player_west_facing_east() {
    // q_dm1: pad (-560..-432, -1392..-1264) in the south hall, destination (-960, -256) facing east.
    let (mut m, s) = start_shipped("q_dm1", 1);
    setup_place(&mut m, s[0], Vec3::new(-496.0, -1180.0, 24.5));
    let mut arrived = None;
    // The command a client facing south sends (its spawn's delta angles
    // taken off), held from here on.
    let south = run_facing(&m, s[0], 270.0);
    for _ in 0..120 {
        let ev = step(&mut m, &s, 1, &mut |_, _| south);
        if !sounds(&ev, SoundKind::Teleport).is_empty() {
            arrived = m.player_view(s[0]);
            break;
        }
    }
    let v = arrived.expect("teleported");
    assert!((v.origin.truncate() - Vec3::new(-960.0, -256.0, 0.0).truncate()).length() < 1.0, "{}", v.origin);
    assert!(v.velocity.x > 399.0, "leaves east: {}", v.velocity);
    // The client goes on sending the same command: the delta angles keep
    // it facing east, and forward now runs east.
    let before = m.player_view(s[0]).expect("alive").origin;
    step(&mut m, &s, 30, &mut |_, _| south);
    let v = m.player_view(s[0]).expect("alive");
    let yaw = m.own_view(s[0]).expect("own view").angles.1;
    assert!(yaw.abs() < 1e-3 || (yaw - 360.0).abs() < 1e-3, "still facing east: {yaw}");
    let own = m.own_view(s[0]).expect("own view");
    let want = (0.0 - south.yaw).rem_euclid(360.0);
    assert!((own.delta_angles.1 - want).abs() < 1e-3, "delta yaw: the exit's 0 minus the command's yaw: {:?}", own.delta_angles);
    assert!(v.origin.x - before.x > 100.0 && (v.origin.y - before.y).abs() < 20.0, "runs east: {} -> {}", before, v.origin);
}

#[test]
fn a_spawn_faces_its_angle_and_the_clients_turns_go_on_from_there() {
    // The spawn point faces 90 (+y); the client's commands hold yaw 0.
    let spawn = entity("info_player_deathmatch", Vec3::new(0.0, 0.0, 25.0), &[("angle", "90")]);
    let (mut m, s) = start(&arena(&[], &[], &[spawn]), 1);
    let yaw = |m: &quarry_sim::Match| m.own_view(s[0]).expect("own view").angles.1;
    assert!((yaw(&m) - 90.0).abs() < 1e-3, "faces the spawn's angle: {}", yaw(&m));
    // Turning the mouse 10 degrees turns the view 10 degrees from there
    // (to the nearest whole angle unit a command holds).
    step(&mut m, &s, 1, &mut |_, _| UserCmd { yaw: 10.0, ..UserCmd::default() });
    assert!((yaw(&m) - 100.0).abs() <= quarry_sim::ANGLE_UNIT, "{}", yaw(&m));
}
