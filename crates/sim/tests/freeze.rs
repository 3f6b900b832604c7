//! Freeze Tag end to end: the killed freeze, a teammate inside
//! `g_thawRadius` for `g_thawTime` thaws them, a round ends when a whole
//! team is frozen, the next starts with everyone up.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::{HUMAN, arena, origin, setup_place, step};
use quarry_sim::events::{GameEvent, MeansOfDeath};
use quarry_sim::modes::RoundEndReason;
use quarry_sim::rules::GameType;
use quarry_sim::slots::Team;
use quarry_sim::{Buttons, Match, Settings, SlotId, UserCmd};
use support::{join, match_on, test_settings};

fn settings() -> Settings {
    Settings { gametype: GameType::FreezeTag, round_pause_s: 1.0, round_time_limit_s: 0.0, ..test_settings() }
}

const SPOTS: [(f32, f32); 6] = [(-800.0, -800.0), (800.0, 800.0), (-800.0, 800.0), (800.0, -800.0), (0.0, -800.0), (0.0, 800.0)];

/// A live Freeze Tag match with four players (red p0, p2; blue p1, p3), settled.
fn start(settings: Settings) -> (Match, Vec<SlotId>) {
    let mut m = match_on(&arena(&SPOTS, &[], &[]), settings, 11);
    let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    (m, slots)
}

fn kill(m: &mut Match, victim: SlotId, killer: Option<SlotId>, means: MeansOfDeath) {
    let tick = m.tick();
    quarry_sim::test_support::kill(m.world_mut(), victim, killer, means, tick);
}

fn alive(m: &Match, slot: SlotId) -> bool {
    m.player_view(slot).is_some_and(|v| v.alive)
}

fn attack(_: SlotId, _: u32) -> UserCmd {
    UserCmd { buttons: Buttons::ATTACK, ..UserCmd::default() }
}

#[test]
fn thaw_takes_g_thaw_time_with_a_teammate_inside_the_radius_and_not_without() {
    let (mut m, s) = start(settings());
    let (red, blue, red2) = (s[0], s[1], s[2]);
    assert_eq!(m.slots().get(red2).map(|x| x.team), Some(Team::Red));
    let round = m.mode_state().round.expect("round info");
    assert!(round.live && round.number == 1 && round.standing == (2, 2), "{round:?}");
    setup_place(&mut m, red, Vec3::new(0.0, 0.0, 25.0));
    setup_place(&mut m, red2, Vec3::new(-800.0, 0.0, 25.0));
    setup_place(&mut m, blue, Vec3::new(60.0, 0.0, 25.0));
    step(&mut m, &s, 5, &mut |_, _| UserCmd::default());
    let body = origin(&m, red);
    kill(&mut m, red, Some(blue), MeansOfDeath::Weapon(2));
    let ev = step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::Frozen { slot: red, by: Some(blue) }), "{ev:?}");
    // Frozen: no respawn on attack or by g_forceRespawn; an enemy beside the body does not thaw it.
    step(&mut m, &s, 400, &mut |p, t| if p == red { attack(p, t) } else { UserCmd::default() });
    assert!(!alive(&m, red));
    let frozen = m.mode_state().frozen;
    assert_eq!(frozen.len(), 1);
    assert_eq!((frozen[0].slot, frozen[0].team, frozen[0].thaw), (red, Team::Red, 0.0));
    assert!(frozen[0].origin.distance(body) < 1.0, "the body stays where it froze");
    assert_eq!(m.mode_state().round.expect("round").standing, (1, 2));
    // A teammate inside the radius: not thawed just before g_thawTime (180 ticks), thawed after.
    setup_place(&mut m, red2, body + Vec3::new(-60.0, 0.0, 0.0));
    let ev = step(&mut m, &s, 170, &mut |_, _| UserCmd::default());
    assert!(!alive(&m, red), "thawed too early");
    assert!(!ev.iter().any(|(_, e)| matches!(e, GameEvent::Thawed { .. })));
    let thaw = m.mode_state().frozen[0].thaw;
    assert!(thaw > 0.9 && thaw < 1.0, "progress {thaw}");
    let ev = step(&mut m, &s, 15, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::Thawed { slot: red, by: Some(red2) }), "{ev:?}");
    assert!(alive(&m, red));
    assert!(origin(&m, red).truncate().distance(body.truncate()) < 2.0, "rises where the body stood");
    assert_eq!(m.player_view(red).map(|v| v.health), Some(125));
    assert_eq!(m.slots().get(red2).map(|x| x.score.thaws), Some(1));
    assert_eq!(m.mode_stats().red.thaws, 1);
    assert_eq!(m.mode_stats().red.freezes, 1);
    assert!(m.mode_state().frozen.is_empty());
}

#[test]
fn thaw_progress_is_kept_while_nobody_is_near() {
    let (mut m, s) = start(settings());
    let (red, blue, red2) = (s[0], s[1], s[2]);
    setup_place(&mut m, red, Vec3::new(0.0, 0.0, 25.0));
    setup_place(&mut m, red2, Vec3::new(-800.0, 0.0, 25.0));
    step(&mut m, &s, 5, &mut |_, _| UserCmd::default());
    kill(&mut m, red, Some(blue), MeansOfDeath::Weapon(2));
    step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    setup_place(&mut m, red2, Vec3::new(-60.0, 0.0, 25.0));
    step(&mut m, &s, 90, &mut |_, _| UserCmd::default());
    setup_place(&mut m, red2, Vec3::new(-800.0, 0.0, 25.0));
    step(&mut m, &s, 120, &mut |_, _| UserCmd::default());
    let thaw = m.mode_state().frozen[0].thaw;
    assert!((0.45..0.55).contains(&thaw), "half-way progress kept: {thaw}");
    setup_place(&mut m, red2, Vec3::new(-60.0, 0.0, 25.0));
    step(&mut m, &s, 95, &mut |_, _| UserCmd::default());
    assert!(alive(&m, red));
}

#[test]
fn a_round_ends_when_a_whole_team_is_frozen_and_the_next_starts_with_everyone_up() {
    let (mut m, s) = start(settings());
    kill(&mut m, s[1], Some(s[0]), MeansOfDeath::Weapon(2));
    let ev = step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    assert!(!ev.iter().any(|(_, e)| matches!(e, GameEvent::RoundEnd { .. })), "one blue still stands");
    kill(&mut m, s[3], Some(s[2]), MeansOfDeath::Weapon(2));
    let ev = step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    assert!(
        ev.iter().any(|(_, e)| *e == GameEvent::RoundEnd { number: 1, winner: Some(Team::Red), reason: RoundEndReason::Elimination }),
        "{ev:?}"
    );
    assert_eq!(m.rules().team_scores, (1, 0));
    let round = m.mode_state().round.expect("round");
    assert!(!round.live && round.wins == (1, 0), "{round:?}");
    let stats = m.mode_stats();
    assert_eq!((stats.rounds_played, stats.rounds_by_elimination, stats.rounds_by_timeout, stats.red.rounds_won), (1, 1, 0, 1));
    let ev = step(&mut m, &s, 70, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::RoundStart { number: 2 }), "{ev:?}");
    assert!(s.iter().all(|p| alive(&m, *p)), "everyone up for round 2");
    assert!(m.mode_state().frozen.is_empty());
    assert_eq!(m.mode_state().round.map(|r| (r.number, r.live, r.standing)), Some((2, true, (2, 2))));
}

#[test]
fn dying_in_lava_or_the_void_freezes_at_a_respawn_spot() {
    let (mut m, s) = start(settings());
    setup_place(&mut m, s[0], Vec3::new(300.0, 300.0, 25.0));
    step(&mut m, &s, 2, &mut |_, _| UserCmd::default());
    kill(&mut m, s[0], None, MeansOfDeath::Lava);
    step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    let at = m.mode_state().frozen.first().expect("frozen").origin;
    assert!(SPOTS.iter().any(|(x, y)| at.truncate().distance(glam::Vec2::new(*x, *y)) < 1.0), "frozen at {at}, not a spawn spot");
}

#[test]
fn auto_thaw_frees_a_player_by_itself() {
    let (mut m, s) = start(Settings { auto_thaw_s: 1.0, ..settings() });
    kill(&mut m, s[0], Some(s[1]), MeansOfDeath::Weapon(2));
    let ev = step(&mut m, &s, 65, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::Thawed { slot: s[0], by: None }), "{ev:?}");
    assert_eq!(m.mode_stats().auto_thaws, 1);
}

#[test]
fn a_player_who_switches_team_mid_round_sits_out_until_the_next() {
    let (mut m, s) = start(Settings { team_force_balance: false, ..settings() });
    m.set_team(s[0], Team::Blue).expect("switch");
    step(&mut m, &s, 400, &mut |p, t| if p == s[0] { attack(p, t) } else { UserCmd::default() });
    assert!(m.player_view(s[0]).is_none(), "no body until the round ends");
    // Red (s[2] alone) is frozen: blue wins, and at the next round s[0] plays for blue.
    kill(&mut m, s[2], Some(s[1]), MeansOfDeath::Weapon(2));
    step(&mut m, &s, 70, &mut |_, _| UserCmd::default());
    assert!(alive(&m, s[0]));
    assert_eq!(m.rules().team_scores, (0, 1));
}

#[test]
fn roundlimit_ends_the_match() {
    let (mut m, s) = start(Settings { roundlimit: 1, ..settings() });
    assert_eq!(GameType::parse("freeze"), Some(GameType::FreezeTag));
    kill(&mut m, s[1], Some(s[0]), MeansOfDeath::Weapon(2));
    kill(&mut m, s[3], Some(s[0]), MeansOfDeath::Weapon(2));
    step(&mut m, &s, 3, &mut |_, _| UserCmd::default());
    assert!(matches!(m.phase(), quarry_sim::rules::Phase::Intermission { .. }), "{:?}", m.phase());
    assert!(m.rules().end_reason.as_deref().is_some_and(|r| r.contains("Roundlimit")));
}

#[test]
fn a_round_that_went_live_before_anyone_joined_starts_again_unscored() {
    let mut m = match_on(&arena(&SPOTS, &[], &[]), settings(), 11);
    step(&mut m, &[], 5, &mut |_, _| UserCmd::default());
    // Live with nobody: joiners sit out, so the round restarts with them.
    let s: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    let ev = step(&mut m, &s, 5, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::RoundStart { number: 1 }), "{ev:?}");
    assert!(!ev.iter().any(|(_, e)| matches!(e, GameEvent::RoundEnd { .. })));
    assert!(s.iter().all(|p| alive(&m, *p)));
    assert_eq!(m.rules().team_scores, (0, 0));
}

#[test]
fn a_rescuer_standing_inside_the_body_is_not_stuck_when_it_thaws() {
    let (mut m, s) = start(settings());
    let (red, blue, red2) = (s[0], s[1], s[2]);
    setup_place(&mut m, red, Vec3::new(0.0, 0.0, 25.0));
    setup_place(&mut m, red2, Vec3::new(-800.0, 0.0, 25.0));
    step(&mut m, &s, 10, &mut |_, _| UserCmd::default());
    let body = origin(&m, red);
    kill(&mut m, red, Some(blue), MeansOfDeath::Weapon(2));
    step(&mut m, &s, 1, &mut |_, _| UserCmd::default());
    // The body is not solid: the rescuer stands right in it.
    setup_place(&mut m, red2, body);
    let ev = step(&mut m, &s, 240, &mut |_, _| UserCmd::default());
    assert!(ev.iter().any(|(_, e)| *e == GameEvent::Thawed { slot: red, by: Some(red2) }), "{ev:?}");
    assert!(!ev.iter().any(|(_, e)| matches!(e, GameEvent::Kill { .. })), "nobody crushed: {ev:?}");
    assert!(alive(&m, red) && alive(&m, red2));
    let (a, b) = (origin(&m, red), origin(&m, red2));
    assert!((a - b).truncate().abs().max_element() >= 30.0 || (a.z - b.z).abs() >= 56.0, "boxes overlap: {a} {b}");
    assert!(a.distance(body) <= 100.0, "moved at most a short way: {a}");
}
