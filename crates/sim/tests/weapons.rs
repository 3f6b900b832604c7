//! Weapons end to end: every shot, switch and jump goes through the input
//! queue; damage is read from the published `Damage` events (health lost
//! plus armor lost), so health decay or regeneration cannot blur it.

#[allow(unreachable_pub, reason = "the shared helpers are written for several test binaries")]
mod support;
#[path = "support/weapons_support.rs"]
mod weapons_support;

use glam::Vec3;
use quarry_sim::events::MeansOfDeath;
use quarry_sim::weapons::{Projectile, WeaponCounters, WeaponTable, distance_to_box};
use quarry_sim::{ClientKind, SlotId, UserCmd};
use weapons_support::*;

fn idle(_: SlotId, _: u32) -> UserCmd {
    UserCmd::default()
}

/// Shooter at the origin, target `d` units along +X; one trigger pull of
/// `w` at the target's centre; the damage events against the target.
fn one_shot(w: u8, d: f32) -> Vec<(u32, i32, MeansOfDeath)> {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (d, 0.0)], &[]), &[HUMAN, HUMAN], 1);
    equip(&mut m, s[0], w, 50);
    let angles = aim(&m, s[0], origin(&m, s[1]) + Vec3::Z * 4.0);
    let (shooter, target) = (s[0], s[1]);
    let mut first = true;
    let events = step_collect(&mut m, &s, 90, &mut |slot, _| {
        if slot == shooter && std::mem::take(&mut first) { fire(angles) } else { look(angles) }
    });
    assert_eq!(gunfire(&events, shooter, w).len(), 1, "weapon {w} fired once");
    damage_to(&events, target)
}

#[test]
fn shipped_weapon_table_equals_builtin() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/weapons.toml");
    let text = std::fs::read_to_string(path).expect("the shipped weapon table");
    let shipped = WeaponTable::from_toml(&text, path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shipped, WeaponTable::quake3());
}

#[test]
fn hitscan_and_melee_damage() {
    for (w, d, expect) in [(GAUNTLET, 40.0, 50), (MACHINEGUN, 200.0, 7), (SHOTGUN, 64.0, 110), (LIGHTNING, 300.0, 8), (RAILGUN, 600.0, 100)] {
        let hits = one_shot(w, d);
        let total: i32 = hits.iter().map(|h| h.1).sum();
        assert_eq!(total, expect, "weapon {w}: {hits:?}");
        assert!(hits.iter().all(|h| h.2 == MeansOfDeath::Weapon(w)));
    }
}

#[test]
fn projectile_direct_hits() {
    for (w, expect) in [(ROCKET, 100), (PLASMA, 20)] {
        let hits = one_shot(w, 200.0);
        assert_eq!(hits.iter().map(|h| (h.1, h.2)).collect::<Vec<_>>(), [(expect, MeansOfDeath::Weapon(w))], "weapon {w}: direct only, no splash on the target hit");
    }
    // A grenade is lobbed (aim direction + 0.2 up): aim so the lobbed path
    // starts level, and it bursts on the player it reaches.
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (150.0, 0.0)], &[]), &[HUMAN, HUMAN], 1);
    equip(&mut m, s[0], GRENADE, 5);
    let d = (origin(&m, s[1]) + Vec3::Z * 10.0 - eye(&m, s[0])).normalize();
    let lambda = 0.2 * d.z + (0.04 * d.z * d.z + 0.96).sqrt();
    let angles = angles_of(d * lambda - Vec3::Z * 0.2);
    let shooter = s[0];
    let events = step_collect(&mut m, &s, 30, &mut |slot, tick| if slot == shooter && tick == 31 { fire(angles) } else { idle(slot, tick) });
    let hits = damage_to(&events, s[1]);
    assert_eq!(hits.iter().map(|h| (h.1, h.2)).collect::<Vec<_>>(), [(100, MeansOfDeath::Weapon(GRENADE))]);
    assert!(explosions(&events)[0].0 < 31 + 20, "burst on the player, not on the fuse");
}

#[test]
fn accuracy_counts_trigger_pulls_and_shots_that_hurt_enemies() {
    // (weapon, distance, game type, shots, hits): pellets count once; a
    // gauntlet swing at air is no shot; a teammate is no hit.
    use quarry_sim::rules::GameType;
    for (w, d, gametype, shots, hits) in [
        (SHOTGUN, 64.0, GameType::Ffa, 1, 1),
        (RAILGUN, 300.0, GameType::Ffa, 1, 1),
        (RAILGUN, 300.0, GameType::Tdm, 1, 0),
        (GAUNTLET, 40.0, GameType::Ffa, 0, 0),
        (GAUNTLET, 100.0, GameType::Ffa, 0, 0),
    ] {
        let settings = quarry_sim::Settings { gametype, team_force_balance: false, ..support::test_settings() };
        let kinds = [HUMAN, HUMAN];
        let (mut m, s) = start_with(&arena_with(&[(0.0, 0.0), (d, 0.0)], &[]), &kinds, 1, settings);
        if gametype == GameType::Tdm {
            let team = m.slots().get(s[0]).expect("slot").team;
            m.set_team(s[1], team).expect("same team");
            step_collect(&mut m, &s, 30, &mut idle);
        }
        equip(&mut m, s[0], w, 5);
        let angles = aim(&m, s[0], origin(&m, s[1]));
        let shooter = s[0];
        let events = step_collect(&mut m, &s, 3, &mut |slot, _| if slot == shooter { fire(angles) } else { idle(slot, 0) });
        let score = m.slots().get(shooter).expect("slot").score;
        let hurt = !damage_to(&events, s[1]).is_empty();
        assert_eq!((score.shots, score.hits), (shots, hits), "weapon {w} at {d} in {gametype:?}");
        let reaches = w != GAUNTLET || d < 50.0; // 32 units past the muzzle
        assert_eq!(hurt, reaches && gametype == GameType::Ffa, "weapon {w} at {d} in {gametype:?} (no friendly fire)");
    }
}

/// Fires `w` at the floor `gap` units short of the target's box (beyond a
/// wall if given); returns the damage to the target and the expected splash.
fn splash_at(w: u8, gap: f32, target_x: f32, extra: &[String], aim_at: Option<Vec3>) -> (i32, f32, Vec<(u32, i32, MeansOfDeath)>) {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (target_x, 0.0)], extra), &[HUMAN, HUMAN], 3);
    equip(&mut m, s[0], w, 5);
    let point = aim_at.unwrap_or(Vec3::new(target_x - 15.0 - gap, 0.0, 0.0));
    let angles = aim(&m, s[0], point);
    let shooter = s[0];
    let target_at = origin(&m, s[1]);
    let events = step_collect(&mut m, &s, 90, &mut |slot, tick| if slot == shooter && tick == 31 { fire(angles) } else { idle(slot, tick) });
    let blast = explosions(&events);
    assert_eq!(blast.len(), 1, "{events:?}");
    let (mins, maxs) = m.settings().movement.player_box();
    let def = m.world().resource::<WeaponTable>().get(w).cloned().expect("weapon");
    let dist = distance_to_box(blast[0].1, target_at, mins, maxs);
    let expected = (def.splash_damage * (1.0 - dist / def.splash_radius)).max(0.0);
    let hits = damage_to(&events, s[1]);
    (hits.iter().map(|h| h.1).sum(), expected, hits)
}

#[test]
fn rocket_and_plasma_splash_fall_off_with_distance() {
    for (w, gap) in [(ROCKET, 5.0), (ROCKET, 40.0), (ROCKET, 80.0), (ROCKET, 110.0), (PLASMA, 4.0), (PLASMA, 12.0)] {
        let (got, expected, hits) = splash_at(w, gap, 400.0, &[], None);
        assert!(expected > 0.0, "{w} at {gap}");
        assert!((got as f32 - expected).abs() <= 1.0, "weapon {w}, gap {gap}: got {got}, expected {expected:.1}");
        assert!(hits.iter().all(|h| h.2 == MeansOfDeath::Splash(w)));
    }
    let (got, _, _) = splash_at(ROCKET, 130.0, 400.0, &[], None);
    assert_eq!(got, 0, "outside the radius");
}

#[test]
fn walls_block_splash() {
    // A wall from x=200 to 216; the rocket bursts on its near face; the
    // target stands 20 units behind it (35 units from the blast).
    let w = wall(Vec3::new(200.0, -300.0, 0.0), Vec3::new(216.0, 300.0, 512.0));
    let (got, expected, _) = splash_at(ROCKET, 0.0, 251.0, std::slice::from_ref(&w), Some(Vec3::new(200.0, 0.0, 20.0)));
    assert!(expected > 50.0, "close enough to hurt without the wall: {expected}");
    assert_eq!(got, 0, "the wall shields the target");
}

#[test]
fn armor_absorbs_two_thirds() {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (300.0, 0.0)], &[]), &[HUMAN, HUMAN], 1);
    equip(&mut m, s[0], RAILGUN, 5);
    set_armor(&mut m, s[1], 100);
    let angles = aim(&m, s[0], origin(&m, s[1]));
    let shooter = s[0];
    let events = step_collect(&mut m, &s, 5, &mut |slot, tick| if slot == shooter && tick == 31 { fire(angles) } else { idle(slot, tick) });
    let hit = events.iter().find_map(|(_, e)| match e {
        quarry_sim::events::GameEvent::Damage { target, amount, armor, .. } if *target == s[1] => Some((*amount, *armor)),
        _ => None,
    });
    assert_eq!(hit, Some((34, 66)));
    let score = m.slots().get(shooter).expect("slot").score;
    assert_eq!((score.shots, score.hits), (1, 1));
}

/// How many times `w` fires with attack held for `ticks` ticks.
fn shots_in(w: u8, ticks: u32, haste: bool) -> (usize, i32) {
    // The target has its back to a wall, so the gauntlet's knockback can't push it out of reach.
    let backstop = wall(Vec3::new(56.0, -100.0, 0.0), Vec3::new(72.0, 100.0, 512.0));
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (40.0, 0.0)], &[backstop]), &[HUMAN, HUMAN], 1);
    equip(&mut m, s[0], w, 200);
    if haste {
        set_haste(&mut m, s[0], 100_000);
    }
    // At the target for the gauntlet, which fires only on contact; the
    // others away from everyone, at the far wall.
    let angles = if w == GAUNTLET { aim(&m, s[0], origin(&m, s[1])) } else { (0.0, 180.0) };
    let shooter = s[0];
    let events = step_collect(&mut m, &[shooter], ticks, &mut |_, _| fire(angles));
    (gunfire(&events, shooter, w).len(), inventory(&m, shooter).ammo_of(w))
}

#[test]
fn fire_rates_and_ammo_use() {
    let table = WeaponTable::quake3();
    for def in table.iter() {
        // Three intervals of holding the trigger: exactly three shots.
        let ticks = (3 * def.interval_ms * 60).div_ceil(1000);
        let (shots, ammo) = shots_in(def.number, ticks, false);
        assert_eq!(shots, 3, "{} in {ticks} ticks", def.name);
        assert_eq!(ammo, 200 - 3 * def.ammo_use, "{}", def.name);
    }
    assert_eq!(shots_in(MACHINEGUN, 60, false).0, 10, "10 per second");
    assert_eq!(shots_in(MACHINEGUN, 60, true).0, 13, "haste: 1.3 times as fast");
}

#[test]
fn out_of_ammo_switches_to_the_best_loaded_weapon() {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0)], &[]), &[HUMAN], 1);
    let p = s[0];
    equip(&mut m, p, ROCKET, 2);
    // The player keeps asking for the rocket launcher and holds attack.
    let cmd = UserCmd { weapon: ROCKET, ..fire((0.0, 0.0)) };
    let events = step_collect(&mut m, &s, 200, &mut |_, _| cmd);
    assert_eq!(gunfire(&events, p, ROCKET).len(), 2);
    let inv = inventory(&m, p);
    assert_eq!((inv.current, inv.ammo_of(ROCKET)), (MACHINEGUN, 0), "the empty launcher is not switched back to");
    let mg = gunfire(&events, p, MACHINEGUN);
    let empty_at = gunfire(&events, p, ROCKET)[1] + 48;
    // Lowered for 200 ms and raised for 250 ms: 27 ticks.
    assert_eq!(mg.first().copied(), Some(empty_at + 27), "{mg:?}");
}

#[test]
fn switching_by_command_takes_drop_and_raise_time() {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0)], &[]), &[HUMAN], 1);
    let p = s[0];
    let table = m.world().resource::<WeaponTable>().clone();
    with_inventory(&mut m, p, |inv| {
        table.give_weapon(inv, RAILGUN, 10);
    });
    let cmd = UserCmd { weapon: RAILGUN, ..fire((0.0, 0.0)) };
    let from = m.tick() + 1;
    let events = step_collect(&mut m, &s, 40, &mut |_, _| cmd);
    assert_eq!(gunfire(&events, p, RAILGUN), [from + 27]);
    assert!(gunfire(&events, p, MACHINEGUN).is_empty(), "no shots while switching");
    assert_eq!(inventory(&m, p).current, RAILGUN);
}

#[test]
fn bad_weapon_numbers_are_ignored_and_counted() {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0)], &[]), &[HUMAN], 1);
    let p = s[0];
    let numbers = [0u8, 9, 15, 16, 31, 32, 100, 200, 255, 7, 3, 4, 8];
    let events = step_collect(&mut m, &s, numbers.len() as u32 * 2, &mut |_, tick| UserCmd {
        weapon: numbers[(tick as usize / 2) % numbers.len()],
        pitch: f32::NAN,
        yaw: 1e30,
        ..fire((0.0, 0.0))
    });
    let inv = inventory(&m, p);
    assert_eq!((inv.current, inv.switching_to), (MACHINEGUN, None));
    assert!(!gunfire(&events, p, MACHINEGUN).is_empty(), "the weapon in hand keeps firing");
    let c = m.world().resource::<WeaponCounters>().get(p);
    assert!(c.unknown >= 7 && c.unheld >= 3, "{c:?}");
}

#[test]
fn rocket_jump_lifts_far_above_a_jump() {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0)], &[]), &[HUMAN], 1);
    let p = s[0];
    equip(&mut m, p, ROCKET, 5);
    let z0 = origin(&m, p).z;
    let mut top = z0;
    let mut events = Vec::new();
    for t in 0..60 {
        let cmd = if t == 0 { fire((89.0, 0.0)) } else { UserCmd::default() };
        events.extend(step_collect(&mut m, &s, 1, &mut |_, _| cmd));
        top = top.max(origin(&m, p).z);
    }
    let jump = m.settings().movement.max_jump_height();
    assert!(top - z0 > 2.0 * jump, "rose {} (a jump: {jump})", top - z0);
    let own = damage_to(&events, p);
    assert_eq!(own.len(), 1);
    assert!((40..=50).contains(&own[0].1) && own[0].2 == MeansOfDeath::Splash(ROCKET), "self-damage is halved: {own:?}");
    let score = m.slots().get(p).expect("slot").score;
    assert_eq!((score.shots, score.hits), (1, 0), "hurting yourself is not a hit");
}

#[test]
fn a_rocket_fired_into_an_adjacent_ceiling_bursts_at_once() {
    // A ceiling 4 units above the head: looking straight up, the muzzle
    // (14 units above the eye) is inside it.
    let ceiling = wall(Vec3::new(-64.0, -64.0, 60.0), Vec3::new(64.0, 64.0, 76.0));
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0)], &[ceiling]), &[HUMAN], 1);
    let p = s[0];
    equip(&mut m, p, ROCKET, 5);
    let events = step_collect(&mut m, &s, 10, &mut |_, tick| if tick == 31 { fire((-89.0, 0.0)) } else { UserCmd::default() });
    let blasts = explosions(&events);
    assert_eq!(blasts.len(), 1);
    assert_eq!(blasts[0].0, 31, "on the tick it was fired");
    assert!(blasts[0].1.z < 60.0, "below the ceiling, not inside it: {}", blasts[0].1);
    let own = damage_to(&events, p);
    assert!(own.len() == 1 && own[0].1 > 30, "the blast reaches the shooter: {own:?}");
}

#[test]
fn grenades_bounce_then_burst_on_the_fuse() {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0)], &[]), &[HUMAN], 1);
    let p = s[0];
    equip(&mut m, p, GRENADE, 5);
    let mut events = Vec::new();
    let mut vz: Vec<f32> = Vec::new();
    for t in 0..200 {
        let cmd = if t == 0 { fire((20.0, 0.0)) } else { UserCmd::default() };
        events.extend(step_collect(&mut m, &s, 1, &mut |_, _| cmd));
        let world = m.world_mut();
        let mut q = world.query::<&Projectile>();
        if let Some(g) = q.iter(world).next() {
            vz.push(g.velocity.z);
        }
    }
    let bounces = vz.windows(2).filter(|w| w[0] < 0.0 && w[1] > 0.0).count();
    assert!(bounces >= 1, "{vz:?}");
    let fired = gunfire(&events, p, GRENADE);
    let blasts = explosions(&events);
    assert_eq!(blasts.len(), 1);
    assert_eq!(blasts[0].0 - fired[0], 150, "2.5 s fuse");
}

#[test]
fn lag_compensation_rewinds_remote_shooters_only() {
    const LATENCY_MS: u32 = 200;
    // Latency 200 ms at 60 Hz: the shooter saw the target 12 ticks ago.
    const BACK: usize = 12;
    let run = |kind: ClientKind, aim_past: bool| -> bool {
        let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (500.0, -300.0)], &[]), &[kind, ClientKind::Bot], 1);
        let (shooter, target) = (s[0], s[1]);
        equip(&mut m, shooter, RAILGUN, 5);
        let strafe = UserCmd { yaw: 90.0, forward: 127, ..UserCmd::default() };
        let mut path = Vec::new();
        for _ in 0..40 {
            step_collect(&mut m, &s, 1, &mut |slot, _| if slot == target { strafe } else { UserCmd::default() });
            path.push(origin(&m, target));
        }
        let speed = (path[39] - path[38]).length() * 60.0;
        assert!(speed > 300.0, "the target strafes at full speed: {speed}");
        let seen = if aim_past { path[39 - BACK] } else { path[39] };
        let angles = aim(&m, shooter, seen);
        let events = step_collect(&mut m, &s, 1, &mut |slot, _| if slot == target { strafe } else { fire(angles) });
        assert_eq!(gunfire(&events, shooter, RAILGUN).len(), 1);
        !damage_to(&events, target).is_empty()
    };
    let remote = ClientKind::Remote { latency_ms: LATENCY_MS };
    assert!(run(remote, true), "remote: where it saw the target hits");
    assert!(!run(remote, false), "remote: where the target is now misses");
    assert!(run(ClientKind::Bot, false), "bot: not rewound, the present hits");
    assert!(!run(ClientKind::Bot, true), "bot: the past misses");
    assert!(run(HUMAN, false), "zero latency: not rewound");
}

/// Runs a shotgun and rocket duel from `seed`; returns every tick's state
/// hash and the damage the target took.
fn duel(seed: u64) -> (Vec<u64>, Vec<(u32, i32, MeansOfDeath)>) {
    let (mut m, s) = start(&arena_with(&[(0.0, 0.0), (700.0, 0.0)], &[]), &[HUMAN, HUMAN], seed);
    equip(&mut m, s[0], SHOTGUN, 20);
    equip(&mut m, s[1], ROCKET, 20);
    let a0 = aim(&m, s[0], origin(&m, s[1]));
    // The rockets only add projectile state to the hash: at the far wall.
    let a1 = (0.0, 0.0);
    let mut hashes = Vec::new();
    let mut events = Vec::new();
    for _ in 0..300 {
        events.extend(step_collect(&mut m, &s, 1, &mut |slot, _| if slot == s[0] { fire(a0) } else { fire(a1) }));
        hashes.push(m.state_hash());
    }
    (hashes, damage_to(&events, s[1]))
}

#[test]
fn same_seed_same_spread_and_hash() {
    let (h1, d1) = duel(11);
    let (h2, d2) = duel(11);
    assert_eq!(h1, h2, "identical state hash every tick");
    assert_eq!(d1, d2, "identical pellets");
    assert!(!d1.is_empty() && d1.len() < 5 * 11, "some pellets hit at 700 units, not all: {}", d1.len());
    let (h3, d3) = duel(12);
    assert!(h3 != h1 && d3 != d1, "another seed spreads differently");
}

#[test]
fn shots_go_along_the_view_the_delta_angles_turn() {
    // The shooter's spawn faces +y (delta yaw 90 for a client holding yaw
    // 0); the target stands along +x.
    let text = arena_with(&[(0.0, 0.0), (300.0, 0.0)], &[]).replacen("\"angle\" \"0\"", "\"angle\" \"90\"", 1);
    let hits = |subtract_delta: bool| {
        let (mut m, s) = start(&text, &[HUMAN, HUMAN], 1);
        equip(&mut m, s[0], 2, 50);
        let (pitch, yaw) = aim(&m, s[0], origin(&m, s[1]) + Vec3::Z * 4.0);
        let delta = m.own_view(s[0]).expect("own view").delta_angles;
        assert!((delta.1 - 90.0).abs() < 1e-3, "{delta:?}");
        let angles = if subtract_delta { (pitch - delta.0, (yaw - delta.1).rem_euclid(360.0)) } else { (pitch, yaw) };
        let (shooter, target) = (s[0], s[1]);
        let mut first = true;
        let events = step_collect(&mut m, &s, 30, &mut |slot, _| {
            if slot == shooter && std::mem::take(&mut first) { fire(angles) } else { look(angles) }
        });
        damage_to(&events, target).len()
    };
    assert_eq!(hits(true), 1, "the view minus the delta, as a client sends it, hits");
    assert_eq!(hits(false), 0, "the raw view angle, turned by the delta, shoots along +y and misses");
}
