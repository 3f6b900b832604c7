//! Items end to end: players run over pickups through the input queue;
//! what they got is read from `ItemPickup` events and their state.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::*;
use quarry_sim::events::{GameEvent, MeansOfDeath, SoundKind};
use quarry_sim::items::drop::Dropped;
use quarry_sim::items::{Item, ItemSpawn, ItemTable};
use quarry_sim::{GameData, Settings, SlotId, UserCmd};

/// Weapon number of the rocket launcher (Quake 3 order).
const ROCKET: u8 = 5;

#[test]
fn shipped_item_table_equals_builtin() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/items.toml");
    let text = std::fs::read_to_string(path).expect("the shipped item table");
    let shipped = ItemTable::from_toml(&text, path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shipped, ItemTable::default());
}

#[test]
fn health_rules_small_and_mega_stack_medium_and_large_stop_at_max() {
    let items = [
        item("item_health", 96.0, 0.0),
        item("item_health_small", 192.0, 0.0),
        item("item_health_mega", 288.0, 0.0),
        item("item_health_large", 384.0, 0.0),
    ];
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &items), 1);
    assert!(health(&m, s[0]).hp > 100, "spawned with the bonus");
    let events = run_to(&mut m, &s, s[0], Vec3::new(460.0, 0.0, 0.0), 4.0, 120);
    let got: Vec<&str> = pickups(&events).iter().map(|p| p.2).collect();
    assert_eq!(got, ["item_health_small", "item_health_mega"], "medium and large are refused above the maximum");
    let hp = health(&m, s[0]).hp;
    assert!((198..=200).contains(&hp), "mega stacks to 200, got {hp}");
    assert_eq!(sounds(&events, SoundKind::ItemPickup).len(), 2);
}

#[test]
fn large_health_heals_only_to_max_and_mega_decays_one_per_second() {
    let items = [item("item_health_large", 96.0, 0.0), item("item_health_mega", 192.0, 0.0)];
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &items), 1);
    setup_health(&mut m, s[0], 80);
    let events = run_to(&mut m, &s, s[0], Vec3::new(140.0, 0.0, 0.0), 4.0, 60);
    assert_eq!(pickups(&events).len(), 1);
    assert_eq!(health(&m, s[0]).hp, 100, "large heals 80 to the maximum, not 130");
    let events = run_to(&mut m, &s, s[0], Vec3::new(260.0, 0.0, 0.0), 4.0, 60);
    assert_eq!(pickups(&events).len(), 1);
    let after = health(&m, s[0]).hp;
    assert!(after >= 199, "{after}");
    step(&mut m, &s, 600, &mut idle);
    assert_eq!(health(&m, s[0]).hp, after - 10, "ten seconds, ten points");
    step(&mut m, &s, 120 * 60, &mut idle);
    assert_eq!(health(&m, s[0]).hp, 100, "decays to the maximum and stops");
}

#[test]
fn armor_stacks_to_200_and_decays_to_100() {
    let items = [
        item("item_armor_body", 96.0, 0.0),
        item("item_armor_combat", 192.0, 0.0),
        item("item_armor_body", 288.0, 0.0),
    ];
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &items), 1);
    let events = run_to(&mut m, &s, s[0], Vec3::new(140.0, 0.0, 0.0), 4.0, 60);
    assert_eq!(pickups(&events).iter().map(|p| p.2).collect::<Vec<_>>(), ["item_armor_body"]);
    assert_eq!(armor(&m, s[0]), 100);
    let events = run_to(&mut m, &s, s[0], Vec3::new(340.0, 0.0, 0.0), 4.0, 90);
    assert_eq!(pickups(&events).len(), 2);
    let a = armor(&m, s[0]);
    assert!((198..=200).contains(&a), "capped at 200, got {a}");
    step(&mut m, &s, 300, &mut idle);
    assert_eq!(armor(&m, s[0]), a - 5);
}

#[test]
fn respawn_timing_to_the_tick_and_hidden_while_waiting() {
    // The player spawns on the shard and stands there: it is taken at once,
    // then again the very tick it comes back, every 25 s.
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &[item("item_armor_shard", 0.0, 0.0)]), 1);
    let events = step(&mut m, &s, 51 * 60, &mut idle);
    let got = pickups(&events);
    let respawned = sounds(&events, SoundKind::ItemRespawn);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1].0 - got[0].0, 25 * 60, "armor respawns 25 s after pickup: {got:?}");
    assert_eq!(respawned.iter().map(|r| r.0).collect::<Vec<_>>(), [got[0].0, got[1].0], "taken the tick it respawns");
    assert_eq!(armor(&m, s[0]), 15, "three shards (one at spawn), no decay below 100");
}

#[test]
fn item_respawn_times_follow_the_table() {
    let items = [
        item("weapon_rocketlauncher", 100.0, 0.0),
        item("ammo_rockets", 0.0, 200.0),
        item("item_health_small", 0.0, -200.0),
    ];
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &items), 1);
    let mut events = run_to(&mut m, &s, s[0], Vec3::new(100.0, 0.0, 0.0), 2.0, 60);
    events.extend(run_to(&mut m, &s, s[0], Vec3::new(0.0, 200.0, 0.0), 2.0, 90));
    events.extend(run_to(&mut m, &s, s[0], Vec3::new(0.0, -200.0, 0.0), 2.0, 150));
    events.extend(step(&mut m, &s, 45 * 60, &mut idle));
    let all = pickups(&events);
    let tick_of = |class: &str| all.iter().find(|p| p.2 == class).map(|p| p.0).expect(class);
    let respawns = sounds(&events, SoundKind::ItemRespawn);
    let at = |pos: Vec3| respawns.iter().find(|r| (r.1.truncate() - pos.truncate()).length() < 1.0).map(|r| r.0);
    assert_eq!(at(Vec3::new(100.0, 0.0, 0.0)), Some(tick_of("weapon_rocketlauncher") + 5 * 60));
    assert_eq!(at(Vec3::new(0.0, 200.0, 0.0)), Some(tick_of("ammo_rockets") + 40 * 60));
    assert_eq!(at(Vec3::new(0.0, -200.0, 0.0)), Some(tick_of("item_health_small") + 35 * 60));
    let inv = inventory(&m, s[0]);
    assert!(inv.has(ROCKET));
    assert_eq!(inv.ammo_of(ROCKET), 15, "pickup_ammo 10 + box_ammo 5");
}

fn weapon_race(weapon_stay: bool) -> (Vec<(u32, SlotId, &'static str)>, u8, u8) {
    let settings = Settings { weapon_stay, ..support::test_settings() };
    let text = arena(&[(-200.0, 0.0), (-200.0, 300.0)], &[], &[item("weapon_rocketlauncher", 0.0, 0.0)]);
    let (mut m, s) = start_with(&text, &GameData::default(), settings, 2, 3);
    let mut events = run_to(&mut m, &s, s[0], Vec3::new(40.0, 0.0, 0.0), 4.0, 60);
    events.extend(run_to(&mut m, &s, s[1], Vec3::new(0.0, 0.0, 0.0), 4.0, 90));
    let has = |slot| u8::from(inventory(&m, slot).has(ROCKET));
    // Every player's score card counts its pickups, bot or human alike.
    let got = pickups(&events);
    let board = m.scoreboard();
    for slot in &s {
        let card = board.rows.iter().find(|r| r.slot == *slot).expect("a row").score;
        assert_eq!(card.pickups as usize, got.iter().filter(|p| p.1 == *slot).count(), "{slot:?}: {got:?}");
    }
    (got, has(s[0]), has(s[1]))
}

#[test]
fn weapon_stay_is_off_by_default_and_on_when_set() {
    assert!(!Settings::default().weapon_stay);
    let (got, a, b) = weapon_race(false);
    assert_eq!(got.len(), 1, "the second runner finds it gone: {got:?}");
    assert_eq!((a, b), (1, 0));
    let (got, a, b) = weapon_race(true);
    assert_eq!(got.len(), 2, "it stays for the second runner: {got:?}");
    assert_eq!((a, b), (1, 1));
}

#[test]
fn powerups_first_appear_late_and_last_thirty_seconds() {
    let (mut m, s) = start(&arena(&[(0.0, 0.0)], &[], &[item("item_quad", 0.0, 0.0)]), 1);
    let live = 1;
    let events = step(&mut m, &s, 61 * 60, &mut idle);
    let got = pickups(&events);
    assert_eq!(got.len(), 1, "{got:?}");
    let taken = got[0].0;
    assert!((30 * 60..=60 * 60 + 2).contains(&(taken - live)), "first quad between 30 and 60 s, at tick {taken}");
    assert_eq!(powerups(&m, s[0]).quad, taken + 30 * 60);
    let hidden: Vec<bool> =
        m.world().iter_entities().filter_map(|e| e.get::<ItemSpawn>().map(|i| i.available)).collect();
    assert_eq!(hidden, [false], "hidden after pickup");
}

#[test]
fn regen_heals_and_quad_runs_out_after_thirty_seconds() {
    // Powerups at once (first_spawn 0) so the test need not wait.
    let mut data = GameData::default();
    for ((section, _), def) in data.items.entries.iter_mut() {
        if *section == quarry_sim::items::Section::Powerup {
            (def.first_spawn_s, def.first_spawn_jitter_s) = (0.0, 0.0);
        }
    }
    let (mut m, s) = start_with(
        &arena(&[(0.0, 0.0)], &[], &[item("item_quad", 0.0, 0.0), item("item_regen", 200.0, 0.0)]),
        &data,
        support::test_settings(),
        1,
        5,
    );
    let p = powerups(&m, s[0]);
    assert!(p.quad > m.tick() && p.quad <= m.tick() + 30 * 60, "taken at once: {p:?}");
    setup_health(&mut m, s[0], 50);
    let until = p.quad;
    let events = run_to(&mut m, &s, s[0], Vec3::new(200.0, 0.0, 0.0), 2.0, 60);
    assert_eq!(pickups(&events).len(), 1);
    let regen_from = health(&m, s[0]).hp;
    step(&mut m, &s, 60, &mut idle);
    let hp = health(&m, s[0]).hp;
    assert_eq!(hp, (regen_from + 15).min(110), "regeneration heals 15 a second below the maximum");
    let left = until - m.tick();
    step(&mut m, &s, left, &mut idle);
    assert!(quarry_sim::components::Powerups::active(powerups(&m, s[0]).quad, m.tick() - 1));
    step(&mut m, &s, 1, &mut idle);
    assert!(!quarry_sim::components::Powerups::active(powerups(&m, s[0]).quad, m.tick()), "30 s and no more");
}

/// A thin deadly curtain at x 300..316: a weapon dropped by someone dying
/// in it flies out on the far side.
fn hurt_curtain() -> String {
    brush_entity(
        "trigger_hurt",
        &[("dmg", "1000")],
        &[trigger_brush(Vec3::new(300.0, -64.0, 0.0), Vec3::new(316.0, 64.0, 64.0))],
    )
}

/// Player 0 takes the rocket launcher, switches to it and runs into a
/// deadly trigger; returns the match and the events so far.
fn die_with_rocket_launcher() -> (quarry_sim::Match, Vec<SlotId>, Vec<(u32, GameEvent)>) {
    let text = arena(&[(0.0, 0.0), (700.0, 0.0)], &[], &[item("weapon_rocketlauncher", 100.0, 0.0), hurt_curtain()]);
    let (mut m, s) = start(&text, 2);
    let mut events = run_to(&mut m, &s, s[0], Vec3::new(130.0, 0.0, 0.0), 4.0, 60);
    events.extend(step(&mut m, &s, 40, &mut |slot, _| {
        if slot == s[0] { UserCmd { weapon: ROCKET, ..UserCmd::default() } } else { UserCmd::default() }
    }));
    assert_eq!(inventory(&m, s[0]).current, ROCKET);
    for _ in 0..60 {
        let c = UserCmd { weapon: ROCKET, ..run_toward(&m, s[0], Vec3::new(340.0, 0.0, 0.0), 1.0) };
        events.extend(step(&mut m, &s, 1, &mut |slot, _| if slot == s[0] { c } else { UserCmd::default() }));
        if !m.player_view(s[0]).is_some_and(|v| v.alive) {
            break;
        }
    }
    (m, s, events)
}

#[test]
fn dropped_weapon_can_be_picked_up_by_another_player() {
    let (mut m, s, events) = die_with_rocket_launcher();
    assert!(
        events
            .iter()
            .any(|(_, e)| matches!(e, GameEvent::Kill { victim, means: MeansOfDeath::World, .. } if *victim == s[0]))
    );
    step(&mut m, &s, 60, &mut idle);
    let drop = m.world().iter_entities().find_map(|e| e.get::<Item>().copied().filter(|_| e.contains::<Dropped>()));
    let drop = drop.expect("a dropped rocket launcher");
    assert_eq!(drop.classname, "weapon_rocketlauncher");
    let events = run_to(&mut m, &s, s[1], drop.origin, 2.0, 200);
    assert_eq!(pickups(&events).iter().map(|p| (p.1, p.2)).collect::<Vec<_>>(), [(s[1], "weapon_rocketlauncher")]);
    let inv = inventory(&m, s[1]);
    assert!(inv.has(ROCKET));
    assert_eq!(inv.ammo_of(ROCKET), 10, "the dead player's ammo");
}

#[test]
fn dropped_weapon_vanishes_after_thirty_seconds_and_spawn_weapons_are_not_dropped() {
    let (mut m, s, _) = die_with_rocket_launcher();
    let count = |m: &quarry_sim::Match| m.world().iter_entities().filter(|e| e.contains::<Dropped>()).count();
    assert_eq!(count(&m), 1);
    step(&mut m, &s, 29 * 60, &mut idle);
    assert_eq!(count(&m), 1);
    step(&mut m, &s, 60, &mut idle);
    assert_eq!(count(&m), 0, "gone after 30 s");
    // Respawned with the machinegun in hand, player 0 dies again: nothing drops.
    step(&mut m, &s, 10, &mut |slot, _| {
        if slot == s[0] {
            UserCmd { buttons: quarry_sim::Buttons::ATTACK, ..UserCmd::default() }
        } else {
            UserCmd::default()
        }
    });
    let _ = run_to(&mut m, &s, s[0], Vec3::new(340.0, 0.0, 0.0), 1.0, 120);
    step(&mut m, &s, 5, &mut idle);
    assert_eq!(count(&m), 0);
}

#[test]
fn same_seed_and_commands_give_the_same_hash_every_tick() {
    let run = || {
        let (mut m, s, _) = die_with_rocket_launcher();
        let mut hashes = Vec::new();
        for _ in 0..200 {
            let c = run_toward(&m, s[1], Vec3::new(300.0, 0.0, 0.0), 2.0);
            step(&mut m, &s, 1, &mut |slot, _| if slot == s[1] { c } else { UserCmd::default() });
            hashes.push(m.state_hash());
        }
        hashes
    };
    assert_eq!(run(), run());
}
