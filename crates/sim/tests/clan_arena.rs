//! Clan Arena end to end: full loadout, no pickups, no self damage, the
//! dead wait for the next round, last team standing wins, a timed-out round
//! goes to more players standing, then more health.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::{HUMAN, armor, arena, health, inventory, item, setup_health, step};
use quarry_sim::combat::{DamageQueue, DamageRequest};
use quarry_sim::events::{GameEvent, MeansOfDeath};
use quarry_sim::modes::RoundEndReason;
use quarry_sim::rules::GameType;
use quarry_sim::slots::Team;
use quarry_sim::view::ViewKind;
use quarry_sim::{Buttons, GameData, Match, Settings, SlotId, UserCmd, UserInfo};
use support::{join, match_on, test_settings};

fn settings() -> Settings {
    Settings { gametype: GameType::ClanArena, round_pause_s: 1.0, round_time_limit_s: 0.0, ..test_settings() }
}

const SPOTS: [(f32, f32); 4] = [(-800.0, -800.0), (800.0, 800.0), (-800.0, 800.0), (800.0, -800.0)];

fn start(settings: Settings) -> (Match, Vec<SlotId>) {
    let items = [item("weapon_rocketlauncher", 0.0, 0.0), item("item_armor_body", 200.0, 0.0), item("item_health_mega", -200.0, 0.0)];
    let mut m = match_on(&arena(&SPOTS, &[], &items), settings, 5);
    let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    (m, slots)
}

fn kill(m: &mut Match, victim: SlotId, killer: SlotId) {
    let tick = m.tick();
    quarry_sim::test_support::kill(m.world_mut(), victim, Some(killer), MeansOfDeath::Weapon(2), tick);
}

/// Queues `amount` damage to `target` (from `dir`, with knockback, armor
/// protecting) and steps one tick.
fn hurt(m: &mut Match, s: &[SlotId], target: SlotId, attacker: Option<SlotId>, amount: f32, dir: Vec3, means: MeansOfDeath) {
    m.world_mut().resource_mut::<DamageQueue>().push(DamageRequest {
        target,
        attacker,
        amount,
        dir,
        knockback: true,
        armor_protects: true,
        means,
        band: None,
    });
    step(m, s, 1, &mut |_, _| UserCmd::default());
}

fn alive(m: &Match, slot: SlotId) -> bool {
    m.player_view(slot).is_some_and(|v| v.alive)
}

#[test]
fn everyone_spawns_with_every_weapon_full_ammo_100_health_100_armor_and_no_items_spawn() {
    let (mut m, s) = start(settings());
    let table = GameData::default().weapons;
    for p in &s {
        let inv = inventory(&m, *p);
        for w in table.iter() {
            assert!(inv.has(w.number), "{} missing", w.name);
            assert_eq!(inv.ammo_of(w.number), w.max_ammo, "{} ammo", w.name);
        }
        assert_eq!((health(&m, *p).hp, armor(&m, *p)), (100, 100));
    }
    let items = m.entity_views().into_iter().filter(|v| matches!(v.kind, ViewKind::Item { .. })).count();
    assert_eq!(items, 0, "no pickups in Clan Arena");
    // Health does not decay from 100 and nothing is there to pick up.
    step(&mut m, &s, 120, &mut |_, _| UserCmd::default());
    assert_eq!(health(&m, s[0]).hp, 100);
}

#[test]
fn a_handicapped_players_loadout_armor_does_not_decay() {
    let items = [item("weapon_rocketlauncher", 0.0, 0.0)];
    let mut m = match_on(&arena(&SPOTS, &[], &items), settings(), 5);
    let weak = m
        .connect(HUMAN, UserInfo { name: "weak".into(), handicap: 50, ..UserInfo::default() })
        .expect("slot");
    m.enter_game(weak).expect("enter");
    let other = join(&mut m, "other", HUMAN);
    let s = [weak, other];
    step(&mut m, &s, 30 + 5 * 60, &mut |_, _| UserCmd::default());
    assert_eq!(armor(&m, weak), 100, "loadout armor stays");
    assert_eq!(health(&m, weak).hp, 50, "health above the handicapped maximum still counts down");
}

#[test]
fn own_rockets_push_but_do_not_hurt() {
    let (mut m, s) = start(settings());
    hurt(&mut m, &s, s[0], Some(s[0]), 100.0, Vec3::Z, MeansOfDeath::Splash(5));
    assert_eq!((health(&m, s[0]).hp, armor(&m, s[0])), (100, 100));
    assert!(m.player_view(s[0]).expect("view").velocity.z > 100.0, "pushed up");
    // An enemy's rocket hurts.
    hurt(&mut m, &s, s[0], Some(s[1]), 100.0, Vec3::Z, MeansOfDeath::Splash(5));
    assert!(health(&m, s[0]).hp < 100);
}

#[test]
fn the_dead_wait_and_the_last_team_standing_wins_the_round() {
    let (mut m, s) = start(settings());
    kill(&mut m, s[1], s[0]);
    step(&mut m, &s, 400, &mut |p, _| if p == s[1] { UserCmd { buttons: Buttons::ATTACK, ..UserCmd::default() } } else { UserCmd::default() });
    assert!(!alive(&m, s[1]), "dead until the round ends");
    assert_eq!(m.mode_state().round.map(|r| r.standing), Some((2, 1)));
    kill(&mut m, s[3], s[2]);
    let ev = step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    assert!(
        ev.iter().any(|(_, e)| *e == GameEvent::RoundEnd { number: 1, winner: Some(Team::Red), reason: RoundEndReason::Elimination }),
        "{ev:?}"
    );
    assert_eq!(m.rules().team_scores, (1, 0));
    let ev = step(&mut m, &s, 70, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::RoundStart { number: 2 }));
    assert!(s.iter().all(|p| alive(&m, *p)));
    assert!(m.mode_state().frozen.is_empty(), "nobody freezes in Clan Arena");
}

#[test]
fn nobody_is_hurt_in_the_pause_between_rounds() {
    let (mut m, s) = start(settings());
    kill(&mut m, s[1], s[0]);
    kill(&mut m, s[3], s[0]);
    let ev = step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| matches!(e, GameEvent::RoundEnd { number: 1, .. })), "{ev:?}");
    // Only the winners stand in the pause; the world (lava here) is what could hurt them.
    let before = (health(&m, s[0]).hp, armor(&m, s[0]));
    hurt(&mut m, &s, s[0], None, 150.0, Vec3::X, MeansOfDeath::Lava);
    assert_eq!((health(&m, s[0]).hp, armor(&m, s[0])), before, "the pause decides nothing");
    // The next round is live again: an enemy's shot hurts.
    let ev = step(&mut m, &s, 70, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::RoundStart { number: 2 }));
    hurt(&mut m, &s, s[0], Some(s[1]), 150.0, Vec3::X, MeansOfDeath::Weapon(2));
    assert!(health(&m, s[0]).hp < 100);
}

#[test]
fn a_timed_out_round_goes_to_more_standing_then_more_health() {
    let (mut m, s) = start(Settings { round_time_limit_s: 2.0, ..settings() });
    setup_health(&mut m, s[1], 40);
    let ev = step(&mut m, &s, 120, &mut |_, _| UserCmd::default());
    assert!(
        ev.iter().any(|(_, e)| *e == GameEvent::RoundEnd { number: 1, winner: Some(Team::Red), reason: RoundEndReason::Timeout }),
        "{ev:?}"
    );
    let stats = m.mode_stats();
    assert_eq!((stats.rounds_played, stats.rounds_by_timeout, stats.rounds_by_elimination), (1, 1, 0));
    assert!(m.mode_state().round.expect("round").ends_at.is_some(), "the pause has an end");
}
