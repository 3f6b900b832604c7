//! The game log through the real binary: a live server with bots and a
//! remote client writes every kind of record a stats tool reads (connects
//! with address pseudonyms, chat, team changes, kills with weapon, positions
//! and distance, admin commands with secrets hidden, damage summaries, the
//! final scoreboard), and a graceful shutdown in the middle of the match
//! leaves a complete file. Headless matches cover the objective records
//! (flags in CTF; freezes, thaws and rounds in Freeze Tag).

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use quarry_net::reliable::{ChatScope, ClientMessage};
use quarry_sim::{Buttons, UserCmd};
use serde_json::Value;
use support::TestServer;


/// Every line of the log, each of which must be one JSON object.
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("a log line is not JSON ({e}): {l}")))
        .collect()
}

fn of_kind<'a>(records: &'a [Value], kind: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["event"] == kind).collect()
}

/// A kill by a weapon with both players' positions.
fn weapon_kill(r: &Value) -> bool {
    r["event"] == "kill" && r["weapon"].is_string() && r["distance"].as_f64().is_some_and(|d| d > 0.0) && r["killer"]["pos"].is_array()
}

#[test]
fn a_live_match_with_bots_and_a_remote_client_is_logged_and_survives_a_shutdown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("games.log");
    let log_arg = log.to_string_lossy().into_owned();
    let mut server = TestServer::start(&["+set", "sv_gameLog", &log_arg, "+set", "bot_minPlayers", "4", "+set", "fraglimit", "0", "+set", "timelimit", "0"]);
    let mut client = server.client("visitor", None);
    let pump = |client: &mut quarry_net::transport::ClientTransport, for_: Duration| {
        let end = Instant::now() + for_;
        while Instant::now() < end {
            let _ = client.poll_events();
            let tick = client.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
            if client.is_connected() {
                let _ = client.send_cmd(UserCmd { tick, ..UserCmd::default() });
            }
            std::thread::sleep(Duration::from_millis(16));
        }
    };
    pump(&mut client, Duration::from_secs(2));
    client.send_reliable(&ClientMessage::Chat { scope: ChatScope::All, text: "greetings from afar".into() }).expect("chat");
    client.send_reliable(&ClientMessage::Command("team spectator".into())).expect("team");
    pump(&mut client, Duration::from_millis(500));
    client.send_reliable(&ClientMessage::Command("team free".into())).expect("team");
    server.console("say the console speaks");
    server.console("set sv_password hunter2");
    server.console("set sv_password \"\"");
    // The bots fight; wait for a kill by a weapon.
    let start = Instant::now();
    while !records(&log).iter().any(weapon_kill) && start.elapsed() < Duration::from_secs(60) {
        pump(&mut client, Duration::from_millis(250));
    }
    client.send_reliable(&ClientMessage::Quit).expect("quit");
    pump(&mut client, Duration::from_millis(700));
    // A graceful stop in the middle of the match.
    server.console("quit");
    let stopped = Instant::now();
    while server.is_running() && stopped.elapsed() < Duration::from_secs(15) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!server.is_running(), "the server did not stop");
    let text = std::fs::read_to_string(&log).expect("the game log exists");
    assert!(!text.contains("hunter2"), "a password reached the game log");
    let all = records(&log);
    let kinds = ["server_start", "match_start", "phase", "connect", "chat", "team_change", "kill", "admin", "disconnect", "damage", "match_end", "server_stop"];
    for kind in kinds {
        assert!(!of_kind(&all, kind).is_empty(), "no {kind} record in\n{text}");
    }
    for r in &all {
        assert!(r["ts"].as_str().is_some_and(|t| t.ends_with('Z')), "{r}");
        assert!(r["t"].is_number(), "{r}");
    }
    assert_eq!(all.last().map(|r| r["event"].clone()), Some(Value::from("server_stop")), "the stop is the last line");
    // Connects: the bots as bots, the visitor with an address pseudonym.
    let connects = of_kind(&all, "connect");
    let visitor = connects.iter().find(|c| c["player"]["name"] == "visitor").expect("the visitor's connect");
    assert_eq!(visitor["player"]["bot"], false);
    assert!(visitor["address_hash"].as_str().is_some_and(|h| h.len() == 16 && h.chars().all(|c| c.is_ascii_hexdigit())), "{visitor}");
    assert!(connects.iter().any(|c| c["player"]["bot"] == true && c["address_hash"].is_null()), "{text}");
    assert!(of_kind(&all, "disconnect").iter().any(|d| d["player"]["name"] == "visitor"), "{text}");
    // Chat from the client and from the console.
    let chat = of_kind(&all, "chat");
    assert!(chat.iter().any(|c| c["player"]["name"] == "visitor" && c["text"] == "greetings from afar" && c["to"] == "all"), "{text}");
    assert!(chat.iter().any(|c| c["player"].is_null() && c["text"] == "the console speaks"), "{text}");
    assert!(of_kind(&all, "team_change").iter().any(|t| t["player"]["team"] == "spectator" && t["from"] == "free"), "{text}");
    assert!(of_kind(&all, "admin").iter().any(|a| a["command"] == "set sv_password (hidden)" && a["origin"] == "console"), "{text}");
    // A kill names the weapon and the distance.
    let kill = all.iter().find(|r| weapon_kill(r)).unwrap_or_else(|| panic!("no kill by a weapon in 60 s\n{text}"));
    assert!(kill["victim"]["pos"].is_array() && kill["means"].is_string(), "{kill}");
    // The shutdown ends the match with the scoreboard so far.
    let end = of_kind(&all, "match_end");
    assert_eq!(end.len(), 1, "{text}");
    assert_eq!(end[0]["reason"], "shutdown");
    let board = end[0]["scoreboard"].as_array().expect("a scoreboard");
    assert!(board.len() >= 3 && board.iter().all(|r| r["name"].is_string() && r["frags"].is_number() && r["deaths"].is_number()), "{}", end[0]);
    let frags: i64 = board.iter().filter_map(|r| r["kills"].as_i64()).sum();
    assert!(frags >= 1, "the scoreboard counts the kills: {}", end[0]);
    let damage = of_kind(&all, "damage");
    assert!(damage.iter().any(|d| d["given"].as_u64().is_some_and(|g| g > 0) && !d["weapons"].as_array().is_none_or(Vec::is_empty)), "{text}");
}

/// Plays a headless match with a game log and returns its records.
fn headless(gametype: &str, map: &str, seed: u64) -> (Vec<Value>, String) {
    let (mut cmd, dir) = support::headless_command();
    let log = dir.path().join("games.log");
    let out = cmd
        .args(["--seed", &seed.to_string(), "+set", "sv_gameLog"])
        .arg(&log)
        .args(["+set", "g_gametype", gametype, "+set", "bot_minPlayers", "6", "+set", "timelimit", "2", "+set", "fraglimit", "0", "+map", map])
        .output()
        .expect("run quarry-server --fast");
    assert!(out.status.success(), "{gametype}: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    (records(&log), text)
}

#[test]
fn objective_modes_log_flags_freezes_and_rounds() {
    let (ctf, text) = headless("ctf", "q_ctf1", 21);
    let flags = of_kind(&ctf, "flag");
    assert!(flags.iter().any(|f| f["action"] == "taken" && f["player"]["name"].is_string()), "no flag taken in two minutes of CTF\n{text}");
    let end = of_kind(&ctf, "match_end");
    assert_eq!(end.len(), 1, "{text}");
    assert!(end[0]["team_scores"]["red"].is_number(), "{}", end[0]);
    assert_eq!(end[0]["scoreboard"].as_array().map(Vec::len), Some(6), "{}", end[0]);
    let start = of_kind(&ctf, "match_start");
    assert_eq!(start[0]["gametype"], "ctf");
    assert_eq!(start[0]["map"], "q_ctf1");
    assert_eq!(start[0]["seed"], 21);

    // A thaw is up to the bots: some two-minute matches have none, so the
    // records are looked for over three seeds' matches.
    let (mut ft, mut text) = (Vec::new(), String::new());
    for seed in 22..=24 {
        let (records, log) = headless("ft", "q_dm1", seed);
        ft.extend(records);
        text.push_str(&log);
    }
    for kind in ["round_start", "round_end", "frozen", "thawed"] {
        assert!(!of_kind(&ft, kind).is_empty(), "no {kind} record in three two-minute matches of Freeze Tag\n{text}");
    }
    assert!(of_kind(&ft, "frozen").iter().all(|f| f["player"]["team"] != f["by"]["team"] || f["by"].is_null()), "{text}");
}

#[test]
fn a_spectator_who_takes_a_duel_place_is_logged_as_a_team_change() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("games.log");
    let log_arg = log.to_str().expect("utf-8 path").to_owned();
    let mut server = TestServer::start(&["+set", "g_gametype", "duel", "+set", "bot_minPlayers", "0", "+set", "g_warmup", "0", "+set", "sv_gameLog", &log_arg, "+map_restart", "+addbot", "Pike", "+addbot", "Wren", "+addbot", "Rook"]);
    std::thread::sleep(Duration::from_secs(2));
    // Rook waits in the queue; a player leaves and Rook takes the place.
    server.console("kick Pike");
    let deadline = Instant::now() + Duration::from_secs(10);
    let took_place = |r: &&Value| r["event"] == "team_change" && r["player"]["name"] == "Rook" && r["from"] == "spectator";
    while Instant::now() < deadline && !of_kind(&records(&log), "team_change").iter().any(took_place) {
        std::thread::sleep(Duration::from_millis(200));
    }
    let all = records(&log);
    assert!(of_kind(&all, "team_change").iter().any(took_place), "{:#?}", of_kind(&all, "team_change"));
}

/// The repository's root (scripts live there).
fn repo_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_match_end_carries_accuracy_and_aim_bands_reads_people_beside_bots() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("games.log");
    let log_arg = log.to_string_lossy().into_owned();
    let mut server = TestServer::start(&["+set", "sv_gameLog", &log_arg, "+set", "bot_minPlayers", "3", "+set", "bot_skill", "2", "+set", "fraglimit", "0", "+set", "timelimit", "0"]);
    let mut client = server.client("visitor", None);
    // The visitor holds attack while the bots fight, until a bot has
    // killed with a weapon (so bots have fired too).
    let start = Instant::now();
    let bot_killed = |r: &Value| weapon_kill(r) && r["killer"]["bot"] == true;
    while start.elapsed() < Duration::from_secs(8) || (!records(&log).iter().any(bot_killed) && start.elapsed() < Duration::from_secs(90)) {
        let _ = client.poll_events();
        let tick = client.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
        if client.is_connected() {
            let _ = client.send_cmd(UserCmd { tick, buttons: Buttons::ATTACK, ..UserCmd::default() });
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    server.console("quit");
    let stopped = Instant::now();
    while server.is_running() && stopped.elapsed() < Duration::from_secs(15) {
        let _ = client.poll_events();
        std::thread::sleep(Duration::from_millis(50));
    }
    let all = records(&log);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let end = of_kind(&all, "match_end");
    let board = end.first().and_then(|e| e["scoreboard"].as_array()).unwrap_or_else(|| panic!("no match end:\n{text}"));
    let visitor = board.iter().find(|r| r["name"] == "visitor").unwrap_or_else(|| panic!("the visitor's row:\n{text}"));
    assert_eq!(visitor["bot"], false);
    assert!(visitor["skill"].is_null(), "a person has no skill level: {visitor}");
    let mg = visitor["accuracy"].as_array().and_then(|a| a.iter().find(|w| w["weapon"] == "machinegun")).unwrap_or_else(|| panic!("the visitor's machinegun: {visitor}"));
    let shots: u64 = ["close", "mid", "far", "untargeted"].iter().filter_map(|b| mg[*b]["shots"].as_u64()).sum();
    assert!(shots >= 20, "8 s of held attack fired {shots} shots: {mg}");
    let bots: Vec<&Value> = board.iter().filter(|r| r["bot"] == true).collect();
    assert!(!bots.is_empty() && bots.iter().all(|b| b["skill"].as_f64().is_some_and(|s| (1.0..=5.0).contains(&s)) && b["accuracy"].is_array()), "{}", end[0]);
    // The operator's script reads it: a human row beside the bots' skills.
    let Ok(out) = std::process::Command::new("python3")
        .arg(repo_root().join("scripts/aim_bands.py"))
        .arg(&log)
        .args(["--min-shots", "1", "--json"])
        .output()
    else {
        eprintln!("skipping the script: python3 not found");
        return;
    };
    assert!(out.status.success(), "aim_bands.py failed: {}", String::from_utf8_lossy(&out.stderr));
    let figures: Value = serde_json::from_slice(&out.stdout).expect("aim_bands.py --json prints JSON");
    let rows = figures["rows"].as_array().expect("rows");
    let mg_all = rows.iter().find(|r| r["weapon"] == "machinegun" && r["band"] == "all").unwrap_or_else(|| panic!("no machinegun row: {figures}"));
    assert_eq!(mg_all["humans"], 1, "{mg_all}");
    assert!(mg_all["percentiles"]["50"].as_f64().is_some(), "{mg_all}");
    let with_bots = rows.iter().any(|r| r["bots"].as_object().is_some_and(|b| b.keys().any(|k| k.starts_with("skill "))));
    assert!(with_bots, "no bot row by skill: {figures}");
}
