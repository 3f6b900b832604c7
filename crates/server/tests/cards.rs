//! Match cards end to end, through the binary: `card NAME` plays a
//! small card headless with a stand-in and prints the results table (and the
//! same in JSON, the same twice); a bad card, a bad stand-in and a live
//! start without `--match` are refused with exit status 2; a live
//! `--card --match` server lets a player in, brings in the roster, records
//! the player's result in the progress file, and kicks a player from a
//! locked match with what to win first.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use quarry_net::reliable::DisconnectReason;
use quarry_net::transport::{ClientEvent, ClientTransport};
use quarry_sim::UserCmd;

mod support;
use support::{TestServer, headless_command, text, wait_with_deadline};

/// Two tiers of two short matches (6 s of play each) over every shipped
/// map, team games included.
const MINI: &str = r#"version = 1
title = "Mini"

[[tier]]
name = "First"
base_skill = 1

[[tier.match]]
map = "q_dm1"
gametype = "ffa"
fraglimit = 5
timelimit = 0.1
roster = [{ character = "Tuck", offset = -0.5 }, { character = "Mote" }]

[[tier.match]]
map = "q_duel1"
gametype = "duel"
timelimit = 0.1
roster = [{ character = "Pike" }]

[[tier]]
name = "Second"
base_skill = 2

[[tier.match]]
map = "q_ctf1"
gametype = "ctf"
capturelimit = 1
timelimit = 0.1
player_team = "blue"
red = [{ character = "Rook" }, { character = "Wren" }]
blue = [{ character = "Dace" }]

[[tier.match]]
map = "q_dm1"
gametype = "tdm"
timelimit = 0.1
player_team = "red"
red = [{ character = "Ilse", offset = 1 }]
blue = [{ character = "Harrow" }]
"#;

/// The 1-based line of the first `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).map_or(0, |i| i + 1)
}

fn botfiles() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../botfiles")
}

/// Runs the headless server with a `cards/NAME.toml` of `card` in its
/// config directory and `args` after `--fast`; returns status, stdout, stderr.
fn run_card(name: &str, card: &str, args: &[&str]) -> (i32, String, String) {
    let (mut cmd, dir) = headless_command();
    std::fs::create_dir_all(dir.path().join("cards")).expect("cards dir");
    std::fs::write(dir.path().join("cards").join(format!("{name}.toml")), card).expect("card");
    cmd.args(args);
    let out = wait_with_deadline(cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("spawn"), Duration::from_secs(60));
    assert!(!dir.path().join("card_progress.json").exists(), "a headless run never writes the player progress file");
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_headless_card_run_prints_a_row_per_match_with_the_stand_ins_place() {
    let started = Instant::now();
    let (code, out, err) = run_card("mini", MINI, &["card", "mini", "--as", "wren"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("card mini \"Mini\": 4 matches, stand-in Wren at each tier's base skill, g_cardDifficulty 0, seed 0\n"), "{out}");
    let rows: Vec<&str> = out.lines().filter(|l| l.split_whitespace().next().is_some_and(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) && w.contains('.'))).collect();
    assert_eq!(rows.len(), 4, "{out}");
    for (row, (id, map, kind)) in rows.iter().zip([("0.0", "q_dm1", "ffa"), ("0.1*", "q_duel1", "duel"), ("1.0", "q_ctf1", "ctf"), ("1.1*", "q_dm1", "tdm")]) {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(&words[..3], [id, map, kind], "{row}");
        assert!(["won", "lost", "draw"].iter().any(|r| words.contains(r)), "the stand-in's result: {row}");
    }
    assert!(rows[0].contains("/3 "), "ffa: a place of three players: {}", rows[0]);
    assert!(rows[2].contains("/2 "), "ctf: a place of two teams: {}", rows[2]);
    assert!(out.contains("stand-in Wren: won ") && out.contains("progress as earned: "), "{out}");
    assert!(out.contains(" ticks/s"), "{out}");
    assert!(started.elapsed() < Duration::from_secs(30), "the run took {:?}", started.elapsed());
}

#[test]
fn the_json_run_is_the_same_twice_and_names_every_bot_and_skill() {
    let run = || {
        let (code, out, err) = run_card("mini", MINI, &["card", "mini", "--as", "Wren", "--json", "+set", "g_cardDifficulty", "0.5"]);
        assert_eq!(code, 0, "{out}\n{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    };
    let a = run();
    let matches = a["matches"].as_array().expect("matches");
    assert_eq!(matches.len(), 4);
    assert_eq!(a["difficulty"], 0.5);
    // 0.0: Tuck at 1 + 0.5 - 0.5, Mote at 1.5, the stand-in at the tier's 1.5.
    let skills: Vec<(String, f64)> = matches[0]["bots"].as_array().expect("bots").iter().map(|b| (b["character"].as_str().unwrap_or("").to_owned(), b["skill"].as_f64().unwrap_or(0.0))).collect();
    assert_eq!(skills, [("Tuck".to_owned(), 1.0), ("Mote".to_owned(), 1.5)]);
    assert_eq!(matches[0]["stand_in"]["bot"]["skill"], 1.5);
    // 1.0: the stand-in on blue with Dace; Rook and a second Wren on red.
    let teams: Vec<(String, String)> = matches[2]["bots"].as_array().expect("bots").iter().map(|b| (b["name"].as_str().unwrap_or("").to_owned(), b["team"].as_str().unwrap_or("").to_owned())).collect();
    assert_eq!(matches[2]["stand_in"]["bot"]["team"], "blue");
    for want in [("Rook", "red"), ("Wren(2)", "red"), ("Dace", "blue")] {
        assert!(teams.contains(&(want.0.to_owned(), want.1.to_owned())), "{want:?} in {teams:?}");
    }
    for m in matches {
        assert!(m["stand_in"]["placing"]["place"].as_u64().is_some(), "{m}");
        assert!(m["winner"].is_object() || m["winner"].is_string(), "{m}");
    }
    assert_eq!(a["progress"]["total"], 4);
    let b = run();
    let hashes = |v: &serde_json::Value| v["matches"].as_array().map(|m| m.iter().map(|m| m["final_hash"].clone()).collect::<Vec<_>>()).unwrap_or_default();
    assert_eq!(hashes(&a), hashes(&b), "the same card, seed and build play the same matches");
}

#[test]
fn bad_cards_and_flags_are_refused_before_any_match() {
    let bad = MINI.replacen("character = \"Pike\"", "character = \"Nobody\"", 1);
    let (code, _, err) = run_card("mini", &bad, &["card", "mini", "--as", "Wren"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("mini.toml:{}: unknown character 'Nobody'", line_of(&bad, "\"Nobody\""))), "{err}");
    let (code, _, err) = run_card("mini", MINI, &["card", "mini", "--as", "Nobody"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--as Nobody: no such character") && err.contains("Wren"), "{err}");
    let (code, _, err) = run_card("mini", MINI, &["card", "mini"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("give --as CHARACTER"), "{err}");
    let (code, _, err) = run_card("mini", MINI, &["card", "mini", "--as", "Wren", "+set", "sv_maxclients", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("mini.toml:{}: 4 players (the roster and the player) don't fit in 3 slots", line_of(MINI, "red = [{ character = \"Rook\""))), "{err}");
    let (code, _, err) = run_card("other", MINI, &["card", "mini", "--as", "Wren"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("card mini:") && err.contains("no such file"), "{err}");
    // A live card server plays one match.
    let (cmd, dir) = headless_command();
    let args: Vec<String> = cmd.get_args().filter(|a| *a != "--fast").map(|a| a.to_string_lossy().into_owned()).collect();
    let mut live = std::process::Command::new(cmd.get_program());
    live.args(args).args(["--card", "ladder"]).current_dir(dir.path());
    let out = wait_with_deadline(live.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().expect("spawn"), Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("give --match TIER.MATCH"), "{}", text(&out.stderr));
}

/// Pumps a client with idle commands until `until` says stop or `wait` passes.
fn pump_until(client: &mut ClientTransport, wait: Duration, mut until: impl FnMut(&[ClientEvent]) -> bool) -> Vec<ClientEvent> {
    let mut events = Vec::new();
    let end = Instant::now() + wait;
    while Instant::now() < end && !until(&events) {
        events.extend(client.poll_events());
        let tick = client.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
        if client.is_connected() {
            let _ = client.send_cmd(UserCmd { tick, ..UserCmd::default() });
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    events
}

#[test]
fn a_live_card_match_waits_for_its_player_records_the_result_and_refuses_a_locked_match() {
    let dir = tempfile::tempdir().expect("tempdir");
    let card = dir.path().join("mini.toml");
    std::fs::write(&card, MINI).expect("card");
    let card = card.to_string_lossy().into_owned();
    let botfiles = botfiles().to_string_lossy().into_owned();
    let server = TestServer::start_with(&["--botfiles", &botfiles, "--card", &card, "--match", "0.0"], &["+set", "g_countdown", "0", "+set", "g_intermission", "1"]);
    assert!(server.wait_for(0, "card mini match 0.0", Duration::from_secs(10)), "{}", server.output());
    assert!(server.output().contains("waiting for a player"), "{}", server.output());
    assert!(!server.output().contains("the roster joins:"), "no bots before the player");
    let from = server.output_lines();
    let mut client = server.client("Tester", None);
    pump_until(&mut client, Duration::from_secs(10), |_| server.output_since(from).iter().any(|l| l.contains("the roster joins:")));
    let joined = server.output_since(from).join("\n");
    assert!(joined.contains("the roster joins: Tuck 1.0, Mote 1.0"), "{joined}");
    // Six seconds of play, then the result is recorded under the player's name.
    pump_until(&mut client, Duration::from_secs(30), |_| server.output_since(from).iter().any(|l| l.contains("card progress: Tester's")));
    let lines = server.output_since(from);
    let written = lines.iter().find(|l| l.contains("card progress: Tester's")).unwrap_or_else(|| panic!("no result written: {}", lines.join("\n")));
    assert!(lines.iter().any(|l| l.contains("card mini match 0.0: Tester ")), "{}", lines.join("\n"));
    let path = written.rsplit(" written to ").next().expect("path");
    let progress: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("progress file")).expect("JSON");
    let record = &progress["cards"]["mini"]["Tester"]["matches"]["0.0"];
    assert_eq!(record["wins"].as_u64().unwrap_or(0) + record["losses"].as_u64().unwrap_or(0), 1, "{progress}");
    drop(client);
    drop(server);

    // The boss of tier 0 is locked for a player with no progress.
    let server = TestServer::start_with(&["--botfiles", &botfiles, "--card", &card, "--match", "0.1"], &[]);
    assert!(server.wait_for(0, "waiting for a player", Duration::from_secs(10)), "{}", server.output());
    let mut client = server.client("Newcomer", None);
    let events = pump_until(&mut client, Duration::from_secs(10), |evs| evs.iter().any(|e| matches!(e, ClientEvent::Disconnected(_))));
    let reason = events.iter().find_map(|e| match e {
        ClientEvent::Disconnected(DisconnectReason::Kicked(r)) => Some(r.clone()),
        _ => None,
    });
    let reason = reason.unwrap_or_else(|| panic!("not kicked: {events:?}\n{}", server.output()));
    assert!(reason.contains("card mini match 0.1 is locked for Newcomer: win 0.0 first"), "{reason}");
    assert!(!server.output().contains("the roster joins:"), "{}", server.output());
}
