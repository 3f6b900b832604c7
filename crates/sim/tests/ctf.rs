//! Capture the flag end to end: players run over flags through the input
//! queue; what happened is read from `Flag` events, the team scores, the
//! score cards and the entity views.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::{HUMAN, origin, run_to, run_toward, step};
use quarry_sim::events::GameEvent;
use quarry_sim::flags::{BLUE_FLAG_BIT, FlagEventKind, RED_FLAG_BIT};
use quarry_sim::mode::FlagStatus;
use quarry_sim::rules::{GameType, Phase};
use quarry_sim::slots::{Slots, Team};
use quarry_sim::view::ViewKind;
use quarry_sim::{Buttons, GameData, Match, MatchError, Settings, SlotId, UserCmd};
use support::{entity, flag_events, join, map_text, room, test_settings, try_match_on};

const RED_BASE: Vec3 = Vec3::new(-600.0, 0.0, 16.0);
const BLUE_BASE: Vec3 = Vec3::new(600.0, 0.0, 16.0);
/// Where the red carrier waits out of everyone's way.
const SIDE: Vec3 = Vec3::new(0.0, 600.0, 16.0);

/// A 2048x2048 room with both flags, two initial and two respawn spots per team.
fn ctf_map(flags: &[(&str, Vec3)]) -> String {
    let mut ents = Vec::new();
    let spot = |class: &str, x: f32, y: f32| entity(class, Vec3::new(x, y, 25.0), &[("angle", "0")]);
    ents.push(spot("team_CTF_redplayer", -400.0, 300.0));
    ents.push(spot("team_CTF_redplayer", -400.0, -300.0));
    ents.push(spot("team_CTF_redspawn", -800.0, 700.0));
    ents.push(spot("team_CTF_redspawn", -800.0, -700.0));
    ents.push(spot("team_CTF_blueplayer", 400.0, -300.0));
    ents.push(spot("team_CTF_blueplayer", 400.0, 300.0));
    ents.push(spot("team_CTF_bluespawn", 800.0, -700.0));
    ents.push(spot("team_CTF_bluespawn", 800.0, 700.0));
    for (class, at) in flags {
        ents.push(entity(class, *at, &[]));
    }
    map_text(&room(1024.0, 512.0), &ents)
}

fn both_flags() -> String {
    ctf_map(&[("team_CTF_redflag", RED_BASE), ("team_CTF_blueflag", BLUE_BASE)])
}

fn ctf_settings() -> Settings {
    Settings { gametype: GameType::Ctf, capturelimit: 0, ..test_settings() }
}

fn new_match(text: &str, settings: Settings) -> Result<Match, MatchError> {
    try_match_on(text, settings, 3)
}

/// A live CTF match with a red and a blue player, settled (30 ticks).
fn start(settings: Settings) -> (Match, SlotId, SlotId, Vec<SlotId>) {
    let mut m = new_match(&both_flags(), settings).expect("match");
    let red = join(&mut m, "red", HUMAN);
    let blue = join(&mut m, "blue", HUMAN);
    assert_eq!(m.slots().get(red).map(|s| s.team), Some(Team::Red));
    assert_eq!(m.slots().get(blue).map(|s| s.team), Some(Team::Blue));
    let slots = vec![red, blue];
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    (m, red, blue, slots)
}

/// The flag of `team` in the views: (origin, available, dropped).
fn flag_view(m: &mut Match, team: Team) -> (Vec3, bool, bool) {
    let class = if team == Team::Red { "team_CTF_redflag" } else { "team_CTF_blueflag" };
    m.entity_views()
        .into_iter()
        .find_map(|v| match v.kind {
            ViewKind::Item { classname, available, dropped } if classname == class => Some((v.origin, available, dropped)),
            _ => None,
        })
        .expect("flag in views")
}

fn player_powerups(m: &mut Match, slot: SlotId) -> u8 {
    m.entity_views()
        .into_iter()
        .find_map(|v| match v.kind {
            ViewKind::Player { slot: s, .. } if s == slot => Some(v.powerups),
            _ => None,
        })
        .expect("player in views")
}

#[test]
fn players_start_at_their_teams_initial_spots() {
    let (m, red, blue, _) = start(ctf_settings());
    assert!(origin(&m, red).x < -300.0, "red spawns on the red side: {}", origin(&m, red));
    assert!(origin(&m, blue).x > 300.0, "blue spawns on the blue side: {}", origin(&m, blue));
}

#[test]
fn touching_the_enemy_flag_takes_it_and_the_carrier_shows_it() {
    let (mut m, red, blue, slots) = start(ctf_settings());
    assert!(flag_view(&mut m, Team::Red).1, "red flag home and available");
    let ev = run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Red, Some(blue))]);
    let (at, available, dropped) = flag_view(&mut m, Team::Red);
    assert!(!available && !dropped, "carried");
    assert!(at.distance(origin(&m, blue)) < 1.0, "the flag follows its carrier");
    assert_eq!(player_powerups(&mut m, blue) & RED_FLAG_BIT, RED_FLAG_BIT);
    assert_eq!(m.own_view(blue).expect("own").powerups & RED_FLAG_BIT, RED_FLAG_BIT);
    // The mode state says the same: carried by blue, blue's flag still home.
    let mode = m.mode_state();
    assert_eq!(mode.carried_by(blue).map(|f| f.team), Some(Team::Red));
    assert_eq!(mode.flag(Team::Blue).map(|f| f.status), Some(FlagStatus::Home));
    assert_eq!(mode.base(Team::Red), Some(mode.flag(Team::Red).expect("red flag").home));
    // Touching your own flag at home does nothing.
    let ev = run_to(&mut m, &slots, red, RED_BASE, 4.0, 400);
    assert!(flag_events(&ev).is_empty(), "{:?}", flag_events(&ev));
    assert_eq!(player_powerups(&mut m, red) & (RED_FLAG_BIT | BLUE_FLAG_BIT), 0);
}

#[test]
fn capture_needs_own_flag_home_drop_on_death_return_on_touch() {
    let (mut m, red, blue, slots) = start(ctf_settings());
    // Both take the enemy flag; red waits at the side with the blue flag.
    let ev = run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Red, Some(blue))]);
    let mut ev = run_to(&mut m, &slots, red, BLUE_BASE, 4.0, 400);
    ev.extend(run_to(&mut m, &slots, red, SIDE, 4.0, 400));
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Blue, Some(red))]);
    // Blue reaches its base while its own flag is away: no capture.
    let ev = run_to(&mut m, &slots, blue, BLUE_BASE, 4.0, 400);
    assert!(flag_events(&ev).is_empty(), "no capture without own flag home: {:?}", flag_events(&ev));
    assert_eq!(m.rules().team_scores, (0, 0));
    // The red carrier dies: the blue flag lies where he died.
    let died_at = origin(&m, red);
    m.suicide(red);
    let ev = step(&mut m, &slots, 1, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Dropped, Team::Blue, Some(red))]);
    let (at, available, dropped) = flag_view(&mut m, Team::Blue);
    assert!(available && dropped);
    assert!(at.truncate().distance(died_at.truncate()) < 1.0, "dropped at {at}, died at {died_at}");
    // Blue touches its dropped flag: it goes home (a return), then blue captures.
    let ev = run_to(&mut m, &slots, blue, at, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Returned, Team::Blue, Some(blue))]);
    let (home, available, dropped) = flag_view(&mut m, Team::Blue);
    assert!(available && !dropped);
    assert!(home.truncate().distance(BLUE_BASE.truncate()) < 1.0);
    let ev = run_to(&mut m, &slots, blue, BLUE_BASE, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Captured, Team::Red, Some(blue))]);
    assert_eq!(m.rules().team_scores, (0, 1));
    let card = m.slots().get(blue).expect("blue").score;
    assert_eq!((card.captures, card.returns), (1, 1));
    assert_eq!(player_powerups(&mut m, blue) & RED_FLAG_BIT, 0, "the flag left the capturer");
    let (red_home, available, _) = flag_view(&mut m, Team::Red);
    assert!(available && red_home.truncate().distance(RED_BASE.truncate()) < 1.0, "captured flag is home");
    assert_eq!(m.phase().name(), "live", "capturelimit 0: no limit");
}

#[test]
fn killing_the_enemy_carrier_is_a_defend_and_kills_do_not_score_for_the_team() {
    let (mut m, red, blue, slots) = start(ctf_settings());
    run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    // A kill by the red player (a telefrag would do; use the combat path).
    let tick = m.tick();
    quarry_sim::test_support::kill(m.world_mut(), blue, Some(red), quarry_sim::events::MeansOfDeath::Weapon(2), tick);
    let ev = step(&mut m, &slots, 1, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Dropped, Team::Red, Some(blue))]);
    let card = m.slots().get(red).expect("red").score;
    assert_eq!((card.frags, card.defends), (1, 1));
    assert_eq!(m.rules().team_scores, (0, 0), "in CTF only captures score for the team");
}

#[test]
fn a_dropped_flag_returns_after_g_flag_return_time() {
    let settings = Settings { flag_return_s: 2.0, ..ctf_settings() };
    let (mut m, _red, blue, slots) = start(settings);
    run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    // Carry it away from the base, then die.
    run_to(&mut m, &slots, blue, Vec3::new(-300.0, -500.0, 16.0), 4.0, 400);
    m.suicide(blue);
    let ev = step(&mut m, &slots, 1, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Dropped, Team::Red, Some(blue))]);
    let dropped_tick = m.tick();
    let ev = step(&mut m, &slots, 119, &mut |_, _| UserCmd::default());
    assert!(flag_events(&ev).is_empty(), "still lying there before 2 s");
    let ev = step(&mut m, &slots, 2, &mut |_, _| UserCmd::default());
    assert_eq!(flag_events(&ev), [(FlagEventKind::Returned, Team::Red, None)]);
    assert_eq!(ev.iter().find(|(_, e)| matches!(e, GameEvent::Flag { .. })).map(|(t, _)| *t), Some(dropped_tick + 120));
    let (at, available, dropped) = flag_view(&mut m, Team::Red);
    assert!(available && !dropped && at.truncate().distance(RED_BASE.truncate()) < 1.0);
}

#[test]
fn capturelimit_ends_the_match_and_fraglimit_does_not() {
    let settings = Settings { capturelimit: 1, fraglimit: 1, ..ctf_settings() };
    let (mut m, red, blue, slots) = start(settings);
    let tick = m.tick();
    quarry_sim::test_support::kill(m.world_mut(), red, Some(blue), quarry_sim::events::MeansOfDeath::Weapon(2), tick);
    step(&mut m, &slots, 2, &mut |_, _| UserCmd::default());
    assert!(matches!(m.phase(), Phase::Live { .. }), "a frag does not end CTF: {:?}", m.phase());
    run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    let ev = run_to(&mut m, &slots, blue, BLUE_BASE, 4.0, 400);
    assert!(flag_events(&ev).contains(&(FlagEventKind::Captured, Team::Red, Some(blue))));
    assert!(matches!(m.phase(), Phase::Intermission { .. }), "{:?}", m.phase());
    assert_eq!(m.rules().team_scores, (0, 1));
    let reason = m.rules().end_reason.clone().unwrap_or_default();
    assert!(reason.contains("Capturelimit") && reason.contains("Blue"), "{reason}");
}

#[test]
fn a_map_without_both_flags_refuses_ctf() {
    let none = ctf_map(&[]);
    let err = new_match(&none, ctf_settings()).err().expect("refused");
    assert!(matches!(err, MatchError::GameTypeUnsupported { .. }), "{err}");
    assert!(err.to_string().contains("flag"), "{err}");
    let red_only = ctf_map(&[("team_CTF_redflag", RED_BASE)]);
    let err = new_match(&red_only, ctf_settings()).err().expect("refused");
    assert!(err.to_string().contains("blue"), "{err}");
    // The same maps are fine for other game types.
    assert!(new_match(&none, Settings { gametype: GameType::Tdm, ..test_settings() }).is_ok());
    assert!(new_match(&both_flags(), ctf_settings()).is_ok());
}

#[test]
fn a_batch_of_four_joins_gives_two_two() {
    let mut m = new_match(&both_flags(), ctf_settings()).expect("match");
    let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    let teams: Vec<Team> = slots.iter().map(|s| m.slots().get(*s).expect("slot").team).collect();
    assert_eq!(teams, [Team::Red, Team::Blue, Team::Red, Team::Blue]);
    assert_eq!(quarry_sim::rules::team_counts(m.slots()), (2, 2));
    assert!(GameType::Ctf.is_team_game() && GameType::Tdm.is_team_game());
    assert_eq!(GameType::parse("ctf"), Some(GameType::Ctf));
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    for (s, t) in slots.iter().zip(teams) {
        let x = origin(&m, *s).x;
        assert!(if t == Team::Red { x < 0.0 } else { x > 0.0 }, "{t:?} spawned at x={x}");
    }
}

#[test]
fn after_the_first_spawn_players_respawn_at_team_respawn_spots() {
    let (mut m, red, _blue, slots) = start(ctf_settings());
    assert!(origin(&m, red).y.abs() < 400.0, "first spawn at an initial spot: {}", origin(&m, red));
    m.suicide(red);
    // Attack respawns after g_respawnDelay.
    step(&mut m, &slots, 120, &mut |s, _| if s == red { UserCmd { buttons: quarry_sim::Buttons::ATTACK, ..UserCmd::default() } } else { UserCmd::default() });
    let at = origin(&m, red);
    assert!(at.x < -700.0 && at.y.abs() > 600.0, "respawned at a red respawn spot: {at}");
}

#[test]
fn a_return_or_carrier_frag_before_a_capture_is_an_assist() {
    let mut m = new_match(&both_flags(), ctf_settings()).expect("match");
    let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    let (red, blue, blue2) = (slots[0], slots[1], slots[3]);
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    run_to(&mut m, &slots, red, BLUE_BASE, 4.0, 400);
    run_to(&mut m, &slots, red, SIDE, 4.0, 400);
    // The second blue player frags the red carrier and returns the flag.
    let tick = m.tick();
    quarry_sim::test_support::kill(m.world_mut(), red, Some(blue2), quarry_sim::events::MeansOfDeath::Weapon(2), tick);
    step(&mut m, &slots, 1, &mut |_, _| UserCmd::default());
    let (dropped_at, _, _) = flag_view(&mut m, Team::Blue);
    let ev = run_to(&mut m, &slots, blue2, dropped_at, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Returned, Team::Blue, Some(blue2))]);
    let ev = run_to(&mut m, &slots, blue, BLUE_BASE, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Captured, Team::Red, Some(blue))]);
    let helper = m.slots().get(blue2).expect("blue2").score;
    assert_eq!((helper.assists, helper.returns, helper.defends), (1, 1, 1));
    let capper = m.slots().get(blue).expect("blue").score;
    assert_eq!((capper.captures, capper.assists), (1, 0));
}

/// CTF on the shipped CTF map and, when present, the shared Quake 3 one:
/// both flags show, and each team spawns nearer its own flag.
#[test]
fn shipped_ctf_maps_host_ctf_with_team_spawns() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for path in [repo.join("maps/q_ctf1.map"), repo.join("../shared/maps/q3/oacmpctf1.map")] {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipped: {} not found", path.display());
            continue;
        };
        let map = quarry_map::load_str(&text, "ctf.map", &quarry_map::LoadOptions::default()).expect("map");
        let mut m = Match::new(map, &GameData::default(), ctf_settings(), 5, Slots::new(16), 60).expect("ctf match");
        let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
        step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
        let red_flag = flag_view(&mut m, Team::Red).0;
        let blue_flag = flag_view(&mut m, Team::Blue).0;
        for s in &slots {
            let team = m.slots().get(*s).expect("slot").team;
            let at = origin(&m, *s);
            let (own, enemy) = if team == Team::Red { (red_flag, blue_flag) } else { (blue_flag, red_flag) };
            assert!(at.distance(own) < at.distance(enemy), "{}: {team:?} spawned at {at}, nearer the enemy flag", path.display());
        }
    }
}

#[test]
fn a_human_then_four_bots_in_one_tick_gives_three_two() {
    let mut m = new_match(&both_flags(), ctf_settings()).expect("match");
    let human = join(&mut m, "human", HUMAN);
    let bots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("bot{i}"), quarry_sim::ClientKind::Bot)).collect();
    assert_eq!(m.slots().get(human).map(|s| s.team), Some(Team::Red));
    assert_eq!(quarry_sim::rules::team_counts(m.slots()), (3, 2));
    let _ = bots;
}

#[test]
fn auto_balance_moves_the_latest_joiner_when_a_team_gets_two_smaller() {
    let mut m = new_match(&both_flags(), ctf_settings()).expect("match");
    let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    step(&mut m, &slots, 10, &mut |_, _| UserCmd::default());
    // Red: p0, p2; blue: p1, p3. Both blues leave one after the other.
    m.disconnect(slots[1]);
    assert_eq!(quarry_sim::rules::team_counts(m.slots()), (2, 1), "2-1 is fine");
    m.disconnect(slots[3]);
    assert_eq!(quarry_sim::rules::team_counts(m.slots()), (1, 1));
    assert_eq!(m.slots().get(slots[2]).map(|s| s.team), Some(Team::Blue), "the latest red joiner moved");
    step(&mut m, &[slots[0], slots[2]], 5, &mut |_, _| UserCmd::default());
    assert!(origin(&m, slots[2]).x > 0.0, "respawned on the blue side");
    // Off: no move.
    let mut m = new_match(&both_flags(), Settings { team_auto_balance: false, ..ctf_settings() }).expect("match");
    let slots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    m.disconnect(slots[1]);
    m.disconnect(slots[3]);
    assert_eq!(quarry_sim::rules::team_counts(m.slots()), (2, 0));
}

#[test]
fn the_ctf_scoreboard_shows_captures_returns_assists_defends() {
    let (mut m, _red, blue, slots) = start(ctf_settings());
    run_to(&mut m, &slots, blue, RED_BASE, 4.0, 400);
    run_to(&mut m, &slots, blue, BLUE_BASE, 4.0, 400);
    let text = m.scoreboard().to_string();
    assert!(text.contains("caps") && text.contains("red 0  blue 1"), "{text}");
    let line = text.lines().find(|l| l.ends_with(" blue")).expect("blue's row");
    assert!(line.trim_start().starts_with('1'), "one capture: {line}");
}

/// `slot` faces +X (the view wanted, less its delta angles) with `buttons`.
fn facing_east(m: &Match, slot: SlotId, buttons: Buttons) -> UserCmd {
    let delta = m.own_view(slot).map_or(0.0, |o| o.delta_angles.1);
    UserCmd { yaw: (-delta).rem_euclid(360.0), buttons, ..UserCmd::default() }
}

/// Blue takes the red flag and carries it to the side; returns the tick
/// of the drop press's events and them (blue faces east, then presses).
fn carry_aside_and_press_drop(m: &mut Match, slots: &[SlotId], blue: SlotId) -> Vec<(u32, GameEvent)> {
    let ev = run_to(m, slots, blue, RED_BASE, 4.0, 400);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Red, Some(blue))]);
    run_to(m, slots, blue, SIDE, 4.0, 400);
    let face = facing_east(m, blue, Buttons::default());
    step(m, slots, 10, &mut |s, _| if s == blue { face } else { UserCmd::default() });
    let press = facing_east(m, blue, Buttons::DROP);
    step(m, slots, 1, &mut |s, _| if s == blue { press } else { UserCmd::default() })
}

#[test]
fn a_carrier_drops_the_flag_in_front_for_a_teammate_and_cannot_take_it_back_at_once() {
    let (mut m, _red, blue, mut slots) = start(ctf_settings());
    let extra: Vec<SlotId> = ["third", "fourth"].iter().map(|n| join(&mut m, n, HUMAN)).collect();
    slots.extend(&extra);
    let mate = *extra.iter().find(|s| m.slots().get(**s).map(|x| x.team) == Some(Team::Blue)).expect("a blue teammate");
    step(&mut m, &slots, 30, &mut |_, _| UserCmd::default());
    // The teammate waits a little east of where the carrier will stand.
    run_to(&mut m, &slots, mate, SIDE + Vec3::new(160.0, 0.0, 0.0), 4.0, 400);
    let ev = carry_aside_and_press_drop(&mut m, &slots, blue);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Dropped, Team::Red, Some(blue))]);
    let from = origin(&m, blue);
    let (at, available, dropped) = flag_view(&mut m, Team::Red);
    assert!(available && dropped, "lying in the field");
    assert!((at.x - from.x - 56.0).abs() < 2.0 && (at.y - from.y).abs() < 2.0, "in front of the dropper: {at} from {from}");
    assert_eq!(player_powerups(&mut m, blue) & RED_FLAG_BIT, 0, "the dropper no longer carries it");
    // Both run onto it: the dropper (the lower slot, so the first to touch)
    // cannot take it back yet; its teammate takes it.
    let mut taken = Vec::new();
    for _ in 0..100 {
        let (a, b) = (run_toward(&m, blue, at, 2.0), run_toward(&m, mate, at, 2.0));
        taken.extend(step(&mut m, &slots, 1, &mut |s, _| if s == blue { a } else if s == mate { b } else { UserCmd::default() }));
    }
    assert_eq!(flag_events(&taken), [(FlagEventKind::Taken, Team::Red, Some(mate))]);
    assert_eq!(player_powerups(&mut m, mate) & RED_FLAG_BIT, RED_FLAG_BIT);
}

#[test]
fn a_dropper_takes_the_flag_back_after_the_hold_off_and_g_flag_drop_0_keeps_it_carried() {
    // Off: the press does nothing.
    let (mut m, _red, blue, slots) = start(Settings { flag_drop: false, ..ctf_settings() });
    let ev = carry_aside_and_press_drop(&mut m, &slots, blue);
    assert!(flag_events(&ev).is_empty(), "{:?}", flag_events(&ev));
    assert_eq!(player_powerups(&mut m, blue) & RED_FLAG_BIT, RED_FLAG_BIT, "still carried");
    // On: the dropper standing on it takes it back once the hold-off ends.
    let (mut m, _red, blue, slots) = start(ctf_settings());
    let ev = carry_aside_and_press_drop(&mut m, &slots, blue);
    let dropped_at = ev.iter().find(|(_, e)| matches!(e, GameEvent::Flag { .. })).map(|(t, _)| *t).expect("dropped");
    let (at, ..) = flag_view(&mut m, Team::Red);
    let ev = run_to(&mut m, &slots, blue, at, 2.0, 200);
    assert_eq!(flag_events(&ev), [(FlagEventKind::Taken, Team::Red, Some(blue))]);
    let when = ev.iter().find(|(_, e)| matches!(e, GameEvent::Flag { .. })).map(|(t, _)| *t).expect("taken");
    let hold_off = (quarry_sim::flags::DROP_HOLD_OFF_SECONDS * 60.0) as u32;
    assert!(when >= dropped_at + hold_off && when <= dropped_at + hold_off + 2, "taken back at tick {when}, dropped at {dropped_at}");
}
