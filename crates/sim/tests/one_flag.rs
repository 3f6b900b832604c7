//! One Flag CTF end to end: one neutral flag, captured at the enemy base;
//! the team flags are only bases; a dropped neutral flag returns only by
//! timeout. Players move through the input queue.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::{HUMAN, origin, run_to, step};
use quarry_sim::flags::{FlagEventKind, NEUTRAL_FLAG_BIT};
use quarry_sim::mode::FlagStatus;
use quarry_sim::rules::GameType;
use quarry_sim::slots::Team;
use quarry_sim::view::ViewKind;
use quarry_sim::{Match, MatchError, Settings, SlotId, UserCmd};
use support::{entity, flag_events, join, map_text, room, test_settings, try_match_on};

const RED_BASE: Vec3 = Vec3::new(-600.0, 0.0, 16.0);
const BLUE_BASE: Vec3 = Vec3::new(600.0, 0.0, 16.0);
const NEUTRAL: Vec3 = Vec3::new(0.0, 0.0, 16.0);
const SIDE: Vec3 = Vec3::new(0.0, 600.0, 16.0);

fn one_flag_map(flags: &[(&str, Vec3)]) -> String {
    let mut ents = Vec::new();
    let spot = |class: &str, x: f32, y: f32| entity(class, Vec3::new(x, y, 25.0), &[("angle", "0")]);
    ents.push(spot("team_CTF_redplayer", -400.0, 300.0));
    ents.push(spot("team_CTF_redspawn", -800.0, 700.0));
    ents.push(spot("team_CTF_blueplayer", 400.0, -300.0));
    ents.push(spot("team_CTF_bluespawn", 800.0, -700.0));
    for (class, at) in flags {
        ents.push(entity(class, *at, &[]));
    }
    map_text(&room(1024.0, 512.0), &ents)
}

fn all_flags() -> String {
    one_flag_map(&[("team_CTF_redflag", RED_BASE), ("team_CTF_blueflag", BLUE_BASE), ("team_CTF_neutralflag", NEUTRAL)])
}

fn settings() -> Settings {
    Settings { gametype: GameType::OneFlag, capturelimit: 0, ..test_settings() }
}

fn new_match(text: &str, settings: Settings) -> Result<Match, MatchError> {
    try_match_on(text, settings, 3)
}

fn start(settings: Settings) -> (Match, SlotId, SlotId, Vec<SlotId>) {
    let mut m = new_match(&all_flags(), settings).expect("match");
    let red = join(&mut m, "red", HUMAN);
    let blue = join(&mut m, "blue", HUMAN);
    let slots = vec![red, blue];
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    (m, red, blue, slots)
}

#[test]
fn one_flag_is_captured_at_the_enemy_base_not_at_home() {
    let (mut m, red, _blue, slots) = start(settings());
    let mode = m.mode_state();
    assert_eq!(mode.flags.len(), 1, "one flag: {:?}", mode.flags);
    assert_eq!(mode.flag(Team::Free).map(|f| f.status), Some(FlagStatus::Home));
    assert!(mode.base(Team::Red).is_some_and(|b| b.truncate().distance(RED_BASE.truncate()) < 1.0));
    assert!(mode.base(Team::Blue).is_some_and(|b| b.truncate().distance(BLUE_BASE.truncate()) < 1.0));
    // Only the neutral flag is an item in the views; the team flags are bases.
    let classes: Vec<&str> = m
        .entity_views()
        .into_iter()
        .filter_map(|v| match v.kind {
            ViewKind::Item { classname, .. } => Some(classname),
            _ => None,
        })
        .collect();
    assert_eq!(classes, ["team_CTF_neutralflag"]);
    let ev = run_to(&mut m, &slots, red, NEUTRAL, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Free, Some(red))]);
    assert_eq!(m.own_view(red).expect("own").powerups & NEUTRAL_FLAG_BIT, NEUTRAL_FLAG_BIT);
    assert_eq!(m.mode_state().carried_by(red).map(|f| f.team), Some(Team::Free));
    // Home is not where a One Flag capture happens.
    let ev = run_to(&mut m, &slots, red, RED_BASE, 4.0, 400);
    assert!(flag_events(&ev).is_empty(), "no capture at the own base: {:?}", flag_events(&ev));
    let ev = run_to(&mut m, &slots, red, BLUE_BASE, 4.0, 600);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Captured, Team::Free, Some(red))]);
    assert_eq!(m.rules().team_scores, (1, 0));
    assert_eq!(m.slots().get(red).map(|s| s.score.captures), Some(1));
    assert_eq!(m.mode_stats().red.captures, 1);
    assert_eq!(m.mode_state().flag(Team::Free).map(|f| f.status), Some(FlagStatus::Home));
    assert_eq!(m.own_view(red).expect("own").powerups & NEUTRAL_FLAG_BIT, 0);
}

#[test]
fn a_dropped_neutral_flag_is_taken_by_touch_and_returns_only_by_timeout() {
    let (mut m, red, blue, slots) = start(Settings { flag_return_s: 5.0, ..settings() });
    run_to(&mut m, &slots, red, NEUTRAL, 4.0, 400);
    run_to(&mut m, &slots, red, SIDE, 4.0, 400);
    m.suicide(red);
    let ev = step(&mut m, &slots, 1, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Dropped, Team::Free, Some(red))]);
    let dropped_at = m.mode_state().flag(Team::Free).expect("flag").origin;
    // Anyone's touch takes it (it is nobody's to return).
    let ev = run_to(&mut m, &slots, blue, dropped_at, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Free, Some(blue))]);
    // Blue drops it too; it lies until g_flagReturnTime, then goes home.
    let at = origin(&m, blue);
    m.suicide(blue);
    let ev = step(&mut m, &slots, 60, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Dropped, Team::Free, Some(blue))]);
    let flag = *m.mode_state().flag(Team::Free).expect("flag");
    assert!(matches!(flag.status, FlagStatus::Dropped { .. }) && flag.origin.truncate().distance(at.truncate()) < 1.0);
    let ev = step(&mut m, &slots, 250, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Returned, Team::Free, None)]);
    let flag = *m.mode_state().flag(Team::Free).expect("flag");
    assert_eq!(flag.status, FlagStatus::Home);
    assert!(flag.origin.truncate().distance(NEUTRAL.truncate()) < 1.0);
    assert_eq!(m.mode_stats().flag_timeouts, 1);
    assert_eq!(m.rules().team_scores, (0, 0));
}

#[test]
fn a_map_without_the_neutral_flag_or_a_base_refuses_one_flag() {
    assert_eq!(GameType::parse("oneflag"), Some(GameType::OneFlag));
    assert_eq!(GameType::parse("1fctf"), Some(GameType::OneFlag));
    assert!(GameType::OneFlag.is_team_game());
    let ctf_only = one_flag_map(&[("team_CTF_redflag", RED_BASE), ("team_CTF_blueflag", BLUE_BASE)]);
    let err = new_match(&ctf_only, settings()).err().expect("refused");
    assert!(err.to_string().contains("neutral"), "{err}");
    let no_blue = one_flag_map(&[("team_CTF_redflag", RED_BASE), ("team_CTF_neutralflag", NEUTRAL)]);
    let err = new_match(&no_blue, settings()).err().expect("refused");
    assert!(err.to_string().contains("blue"), "{err}");
    // CTF does not need the neutral flag.
    assert!(new_match(&ctf_only, Settings { gametype: GameType::Ctf, ..test_settings() }).is_ok());
}

/// One Flag on the shipped CTF map and, when present, the shared Quake 3
/// one: the neutral flag is between the bases.
#[test]
fn shipped_ctf_maps_host_one_flag() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for path in [repo.join("maps/q_ctf1.map"), repo.join("../shared/maps/q3/oacmpctf1.map")] {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipped: {} not found", path.display());
            continue;
        };
        let mut m = new_match(&text, settings()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let slots: Vec<SlotId> = (0..2).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
        step(&mut m, &slots, 10, &mut |_, _| UserCmd::default());
        let mode = m.mode_state();
        let flag = mode.flag(Team::Free).expect("neutral flag").origin;
        let (r, b) = (mode.base(Team::Red).expect("red base"), mode.base(Team::Blue).expect("blue base"));
        assert!(flag.distance(r) < r.distance(b) && flag.distance(b) < r.distance(b), "{}: flag {flag} not between {r} and {b}", path.display());
    }
}
