//! The match life cycle, teams, Duel's queue, chat routing and the input
//! queue, driven through the same calls the network layer and bots use.

mod support;

use quarry_sim::chat::ChatScope;
use quarry_sim::events::GameEvent;
use quarry_sim::rules::{GameType, Phase};
use quarry_sim::{ChatError, ClientKind, Settings, Team, UserCmd};
use support::*;

const HUMAN: ClientKind = ClientKind::Remote { latency_ms: 0 };

fn idle(_: quarry_sim::SlotId, _: u32) -> UserCmd {
    UserCmd::default()
}

#[test]
fn timelimit_ends_the_match_through_intermission() {
    let settings = Settings { timelimit_min: 3.0 / 60.0, intermission_s: 1.0, ..test_settings() };
    let mut m = match_on(&arena_text(4), settings, 1);
    let a = join(&mut m, "a", HUMAN);
    run(&mut m, &[a], 2, idle);
    assert!(matches!(m.phase(), Phase::Live { .. }), "{:?}", m.phase());
    run(&mut m, &[a], 180, idle);
    assert!(matches!(m.phase(), Phase::Intermission { .. }), "{:?}", m.phase());
    assert_eq!(m.rules().end_reason.as_deref(), Some("Timelimit hit."));
    run(&mut m, &[a], 61, idle);
    assert_eq!(m.phase(), Phase::Over);
}

#[test]
fn warmup_waits_for_two_players_then_counts_down() {
    let settings = Settings { warmup: true, countdown_s: 1.0, ..test_settings() };
    let mut m = match_on(&arena_text(4), settings, 1);
    let a = join(&mut m, "a", HUMAN);
    run(&mut m, &[a], 120, idle);
    assert_eq!(m.phase(), Phase::Warmup);
    let b = join(&mut m, "b", ClientKind::Bot);
    run(&mut m, &[a, b], 2, idle);
    assert!(matches!(m.phase(), Phase::Countdown { .. }), "{:?}", m.phase());
    run(&mut m, &[a, b], 60, idle);
    assert!(matches!(m.phase(), Phase::Live { .. }), "{:?}", m.phase());
    // Going live respawns everyone with a fresh score.
    assert!(m.player_view(a).is_some_and(|p| p.alive));
}

#[test]
fn tdm_batch_of_joins_alternates_and_a_human_makes_three_two() {
    let settings = Settings { gametype: GameType::Tdm, ..test_settings() };
    let mut m = match_on(&arena_text(8), settings.clone(), 1);
    let bots: Vec<_> = (0..4).map(|i| join(&mut m, &format!("bot{i}"), ClientKind::Bot)).collect();
    let teams: Vec<Team> = bots.iter().map(|&b| m.slots().get(b).map(|s| s.team).expect("slot")).collect();
    assert_eq!(teams, [Team::Red, Team::Blue, Team::Red, Team::Blue]);
    let human = join(&mut m, "human", HUMAN);
    assert_eq!(m.slots().get(human).map(|s| s.team), Some(Team::Red));
    // Clients still connecting count: two connects in a row, then both enter.
    let mut m = match_on(&arena_text(8), settings, 1);
    let x = m.connect(ClientKind::Bot, Default::default()).expect("x");
    let y = m.connect(ClientKind::Bot, Default::default()).expect("y");
    let tx = m.enter_game(x).expect("x enters");
    let ty = m.enter_game(y).expect("y enters");
    assert_ne!(tx, ty);
}

#[test]
fn tdm_team_switch_respects_balance() {
    let settings = Settings { gametype: GameType::Tdm, ..test_settings() };
    let mut m = match_on(&arena_text(8), settings, 1);
    let s: Vec<_> = (0..4).map(|i| join(&mut m, &format!("p{i}"), ClientKind::Bot)).collect();
    // s[1] is blue; moving to red would make 3-1.
    assert!(m.set_team(s[1], Team::Red).is_err());
    assert!(m.set_team(s[1], Team::Spectator).is_ok());
    assert!(m.set_team(s[1], Team::Blue).is_ok());
}

#[test]
fn duel_queue_brings_in_the_longest_waiting_spectator() {
    let settings = Settings { gametype: GameType::Duel, ..test_settings() };
    let mut m = match_on(&arena_text(4), settings, 1);
    let a = join(&mut m, "a", HUMAN);
    let b = join(&mut m, "b", ClientKind::Bot);
    run(&mut m, &[a, b], 5, idle);
    let c = join(&mut m, "c", HUMAN);
    let d = join(&mut m, "d", HUMAN);
    assert_eq!(m.slots().get(c).map(|s| s.team), Some(Team::Spectator));
    assert_eq!(m.slots().get(d).map(|s| s.team), Some(Team::Spectator));
    assert!(m.player_view(c).is_none(), "spectators have no body");
    m.disconnect(b);
    run(&mut m, &[a, c, d], 2, idle);
    assert_eq!(m.slots().get(c).map(|s| s.team), Some(Team::Free));
    assert_eq!(m.slots().get(d).map(|s| s.team), Some(Team::Spectator));
    assert!(m.player_view(c).is_some_and(|p| p.alive));
}

#[test]
fn team_chat_never_reaches_the_other_team() {
    let settings = Settings { gametype: GameType::Tdm, ..test_settings() };
    let mut m = match_on(&arena_text(8), settings, 1);
    let s: Vec<_> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    m.say(Some(s[0]), true, "red only").expect("say_team");
    m.say(Some(s[1]), false, "everyone").expect("say");
    // Chat said between ticks is published with the next tick's events.
    m.step();
    let chats: Vec<(ChatScope, String)> = m
        .events()
        .into_iter()
        .filter_map(|e| match e {
            GameEvent::Chat { scope, text, .. } => Some((scope, text)),
            _ => None,
        })
        .collect();
    assert_eq!(chats[0], (ChatScope::Team(Team::Red), "red only".to_owned()));
    let red_only = m.chat_recipients(chats[0].0);
    assert_eq!(red_only, vec![s[0], s[2]]);
    assert!(red_only.iter().all(|r| m.slots().get(*r).map(|x| x.team) == Some(Team::Red)));
    assert_eq!(m.chat_recipients(chats[1].0).len(), 4);
}

#[test]
fn a_last_line_keeps_its_speakers_name_after_the_slot_is_freed() {
    let mut m = match_on(&arena_text(4), test_settings(), 1);
    let a = join(&mut m, "Leaver", HUMAN);
    // A bot's farewell: said, then the slot is freed before the next tick publishes it.
    m.say(Some(a), false, "gotta go").expect("say");
    m.disconnect(a);
    m.step();
    let said = m.events().into_iter().find_map(|e| match e {
        GameEvent::Chat { from, name, text, .. } => Some((from, name, text)),
        _ => None,
    });
    assert_eq!(said, Some((Some(a), "Leaver".to_owned(), "gotta go".to_owned())));
}

#[test]
fn team_chat_in_ffa_goes_to_everyone_and_flood_is_limited() {
    let mut m = match_on(&arena_text(4), test_settings(), 1);
    let a = join(&mut m, "a", HUMAN);
    m.say(Some(a), true, "hello").expect("say");
    m.step();
    assert!(m.events().iter().any(|e| matches!(e, GameEvent::Chat { scope: ChatScope::All, .. })));
    let results: Vec<_> = (0..10).map(|i| m.say(Some(a), false, &format!("spam {i}"))).collect();
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 3, "burst of 4, one used above");
    assert!(results.contains(&Err(ChatError::Flood)));
    assert_eq!(m.say(Some(a), false, "   "), Err(ChatError::Empty));
    let long = "x".repeat(1000);
    run(&mut m, &[a], 120, idle);
    m.say(Some(a), false, &long).expect("long line is cut, not refused");
    m.step();
    let cut = m.events().into_iter().find_map(|e| match e {
        GameEvent::Chat { text, .. } => Some(text),
        _ => None,
    });
    assert_eq!(cut.map(|t| t.len()), Some(quarry_sim::chat::MAX_CHAT_CHARS));
}

#[test]
fn bad_commands_are_clamped_and_counted_and_never_panic() {
    let mut m = match_on(&arena_text(4), test_settings(), 1);
    let a = join(&mut m, "a", HUMAN);
    let garbage = [
        UserCmd { pitch: f32::NAN, yaw: f32::INFINITY, forward: -128, weapon: 255, ..UserCmd::default() },
        UserCmd { pitch: 1e30, yaw: -1e30, right: -128, up: -128, buttons: quarry_sim::Buttons(0xffff), weapon: 99, ..UserCmd::default() },
    ];
    run(&mut m, &[a], 60, |_, t| garbage[t as usize % 2]);
    let counters = m.slots().get(a).map(|s| s.input.counters).expect("slot");
    assert_eq!(counters.clamped, 60);
    let p = m.player_view(a).expect("alive");
    assert!(p.origin.is_finite() && p.velocity.is_finite());
    // A flood beyond the queue bound in one tick is dropped and counted.
    for t in 0..100 {
        let _ = m.push_cmd(a, UserCmd { tick: m.tick() + 1 + t, ..UserCmd::default() });
    }
    assert!(m.slots().get(a).map(|s| s.input.counters.flood).unwrap_or(0) > 80);
}

#[test]
fn map_change_keeps_every_client_in_its_slot() {
    let mut m = match_on(&arena_text(4), test_settings(), 1);
    let a = join(&mut m, "human", HUMAN);
    let b = join(&mut m, "bot", ClientKind::Bot);
    run(&mut m, &[a, b], 10, idle);
    let slots = m.into_slots();
    let map = quarry_map::load_str(&arena_text(6), "next.map", &Default::default()).expect("map");
    let mut next = quarry_sim::Match::new(map, &Default::default(), test_settings(), 2, slots, 60).expect("match");
    assert_eq!(next.slots().get(a).map(|s| s.userinfo.name.as_str()), Some("human"));
    assert_eq!(next.slots().get(b).map(|s| s.kind), Some(ClientKind::Bot));
    run(&mut next, &[a, b], 2, idle);
    assert!(next.player_view(a).is_some_and(|p| p.alive));
    assert!(next.player_view(b).is_some_and(|p| p.alive));
}

/// Yaw and pitch (Quake convention: pitch positive looks down) from `from` to `to`.
fn aim(from: glam::Vec3, to: glam::Vec3) -> (f32, f32) {
    let d = to - from;
    let yaw = d.y.atan2(d.x).to_degrees();
    let pitch = -(d.z.atan2(d.truncate().length())).to_degrees();
    (yaw, pitch)
}

#[test]
fn fraglimit_ends_the_match_and_scores_the_kill() {
    let settings = Settings { fraglimit: 1, intermission_s: 1.0, force_respawn_s: 0.0, ..test_settings() };
    let mut m = match_on(&arena_text(4), settings, 3);
    let shooter = join(&mut m, "shooter", HUMAN);
    let target = join(&mut m, "target", ClientKind::Bot);
    run(&mut m, &[shooter, target], 2, idle);
    for _ in 0..600 {
        if !matches!(m.phase(), Phase::Live { .. }) {
            break;
        }
        let (Some(s), Some(t)) = (m.player_view(shooter), m.player_view(target)) else { break };
        // Aim from the eye (26 units above the origin) at the target's chest.
        let (yaw, pitch) = aim(s.origin + glam::Vec3::Z * 26.0, t.origin + glam::Vec3::Z * 10.0);
        let tick = m.tick() + 1;
        let fire = UserCmd { tick, yaw, pitch, buttons: quarry_sim::Buttons::ATTACK, ..UserCmd::default() };
        m.push_cmd(shooter, fire).expect("push");
        m.push_cmd(target, UserCmd { tick, ..UserCmd::default() }).expect("push");
        m.step();
    }
    assert!(matches!(m.phase(), Phase::Intermission { .. }), "{:?}", m.phase());
    assert_eq!(m.rules().end_reason.as_deref(), Some("Fraglimit hit by shooter."));
    let board = m.scoreboard();
    assert_eq!(board.rows[0].name, "shooter");
    assert_eq!(board.rows[0].score.frags, 1);
    assert_eq!(board.rows[1].score.deaths, 1);
    assert!(board.rows[0].score.hits > 0 && board.rows[0].score.shots >= board.rows[0].score.hits);
}

#[test]
fn more_players_than_spawn_points_telefrag_instead_of_overlapping() {
    let mut m = match_on(&arena_text(2), test_settings(), 5);
    let players: Vec<_> = (0..4).map(|i| join(&mut m, &format!("p{i}"), ClientKind::Bot)).collect();
    run(&mut m, &players, 3, idle);
    let alive: Vec<_> = players.iter().filter_map(|p| m.player_view(*p).filter(|v| v.alive)).collect();
    for (i, a) in alive.iter().enumerate() {
        for b in &alive[i + 1..] {
            let d = (a.origin - b.origin).abs();
            assert!(d.x >= 30.0 || d.y >= 30.0 || d.z >= 56.0, "two living players overlap: {a:?} {b:?}");
        }
    }
    let deaths: u32 = m.scoreboard().rows.iter().map(|r| r.score.deaths).sum();
    assert!(deaths >= 2, "the occupants of the two spots were telefragged: {deaths} deaths");
}
