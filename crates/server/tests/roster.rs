//! End to end through the `quarry-server` binary: who plays where when the
//! roster changes. A human joining a team game full of fill bots keeps the
//! team it was put on (the fill bot that leaves for it is from that team,
//! so the balance moves nobody), and a headless duel with fill bots waits
//! for both players and then plays its time limit.

use std::time::{Duration, Instant};

use quarry_net::transport::ClientTransport;
use quarry_sim::UserCmd;

mod support;
use support::TestServer;

/// Polls `client` (sending idle commands) for `duration`; returns its team
/// as every snapshot showed it, in order, repeats left out.
fn teams_seen(client: &mut ClientTransport, duration: Duration) -> Vec<u8> {
    let mut seen = Vec::new();
    let start = Instant::now();
    while start.elapsed() < duration {
        let _ = client.poll_events();
        let tick = client.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
        if client.is_connected() {
            let _ = client.send_cmd(UserCmd { tick, ..UserCmd::default() });
        }
        if let Some(team) = client.latest_snapshot().map(|s| s.player.team)
            && seen.last() != Some(&team)
        {
            seen.push(team);
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    seen
}

/// TDM with `bot_minPlayers 4`: four fill bots, 2-2 (paused, so nobody
/// scores and a joiner's tie goes to red, where the fill put the third
/// bot). A human joins red, 3-2; at the next fill pass a bot leaves for
/// the human. It used to be the bot added last, on blue: 3-1, and the
/// balance moved red's latest joiner, the human, to blue a second after
/// it joined, every time.
#[test]
fn a_human_joining_a_team_game_full_of_fill_bots_stays_on_its_team() {
    let mut server = TestServer::start(&[
        "+set", "g_gametype", "tdm", "+set", "bot_minPlayers", "4", "+set", "bot_pause", "1",
        "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", "q_dm1",
    ]);
    let start = Instant::now();
    while server.status().bots < 4 {
        assert!(start.elapsed() < Duration::from_secs(30), "four fill bots did not join: {}", server.output());
        std::thread::sleep(Duration::from_millis(250));
    }
    let from = server.output_lines();
    let mut client = server.client("Joiner", None);
    // Three fill passes (one every 2 s) after the join.
    let seen = teams_seen(&mut client, Duration::from_secs(7));
    let moved: Vec<String> = server.output_since(from).into_iter().filter(|l| l.contains("to balance the teams")).collect();
    assert_eq!(seen.len(), 1, "the joiner's team changed (1 red, 2 blue): {seen:?}; {moved:?}\n{}", server.output());
    assert!(matches!(seen[0], 1 | 2), "on a team: {seen:?}");
    assert!(moved.is_empty(), "the balance moved someone: {moved:?}");
    let status = server.status();
    assert_eq!((status.humans, status.bots), (1, 3), "one fill bot left for the human:\n{}", status.text);
}

/// The summary of a headless duel with fill bots on q_duel1, a one-minute
/// time limit (`--json`).
fn headless_duel(extra: &[&str]) -> serde_json::Value {
    let (mut cmd, _dir) = support::headless_command();
    let out = cmd
        .args(["--json", "--seed", "13", "+set", "g_gametype", "duel", "+set", "timelimit", "1", "+set", "fraglimit", "0"])
        .args(extra)
        .args(["+map", "q_duel1"])
        .output()
        .expect("run quarry-server --fast");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    stdout.lines().rev().find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).expect("a JSON summary line")
}

/// The fill adds one bot a pass, so a headless duel (no warmup) used to go
/// live with one player on its first tick and be forfeited at tick 3
/// ("the opponent left"), exit 0. It waits for its two players now, then
/// plays its whole minute.
#[test]
fn a_headless_duel_with_fill_bots_plays_its_time_limit() {
    let json = headless_duel(&["+set", "bot_minPlayers", "2"]);
    let board = &json["scoreboard"];
    assert_eq!(board["end_reason"].as_str(), Some("Timelimit hit."), "{json}");
    let rows = board["rows"].as_array().map_or(0, Vec::len);
    assert_eq!(rows, 2, "both players on the board: {board}");
    let ticks = json["ticks"].as_u64().unwrap_or(0);
    let hz = json["hz"].as_u64().unwrap_or(60);
    assert!(ticks >= 60 * hz, "a minute of play, not {ticks} ticks: {json}");
    // The second bot joins at the fill's second pass (2 s); the match goes
    // live then, and the minute runs from there.
    assert!(ticks <= 60 * hz + 4 * hz, "live once both were in, {ticks} ticks");
    // They fought: damage dealt (a minute of people-like aim from spawn
    // need not end in a frag).
    let damage: u64 = board["rows"].as_array().into_iter().flatten().filter_map(|r| r["score"]["damage_given"].as_u64()).sum();
    assert!(damage > 0, "they fought: {board}");
}

/// A headless duel that only one player ever joins waits for the other as
/// long as its time limit, then ends, says why, and exits 1: it measured
/// nothing (it used to be "forfeited" at tick 3, exit 0).
#[test]
fn a_headless_duel_with_one_player_ends_unplayed_and_fails() {
    let (mut cmd, _dir) = support::headless_command();
    let out = cmd
        .args(["--json", "--seed", "13", "+set", "g_gametype", "duel", "+set", "timelimit", "0.1", "+set", "bot_minPlayers", "1", "+map", "q_duel1"])
        .output()
        .expect("run quarry-server --fast");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "exit {:?}\n{stdout}\n{stderr}", out.status);
    assert!(stderr.contains("the match never went live: 1 player(s)"), "{stderr}");
    let json = stdout.lines().rev().find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).expect("a JSON summary line");
    assert_eq!(json["scoreboard"]["phase"].as_str(), Some("warmup"), "{json}");
    let ticks = json["ticks"].as_u64().unwrap_or(0);
    assert!((360..=362).contains(&ticks), "a time limit of waiting (6 s at 60 Hz), not {ticks} ticks");
}
