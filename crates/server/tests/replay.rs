//! Recording and replay end to end: a headless bot match recorded with
//! `--record` replays with every stored state hash matching, and a
//! recording with one command altered is caught at the tick it changed; a
//! live server with `sv_record 1` records each match a remote player plays
//! over QUIC, the next match starting with everyone carried over.

mod support;

use std::time::{Duration, Instant};

use quarry_net::transport::ClientTransport;

use quarry_record::{Footer, RecordWriter, read};
use quarry_sim::{Buttons, UserCmd};

fn record(path: &std::path::Path) {
    let (mut cmd, _dir) = support::headless_command();
    let out = cmd
        .args(["--seed", "8", "--record"])
        .arg(path)
        .args(["+set", "g_gametype", "tdm", "+set", "bot_minPlayers", "4", "+set", "timelimit", "0.34", "+set", "fraglimit", "0", "+map", "q_dm1"])
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn replay(path: &std::path::Path) -> std::process::Output {
    let (mut cmd, _dir) = support::headless_command();
    cmd.arg("replay").arg(path).output().expect("run")
}

#[test]
fn a_recorded_match_replays_with_every_hash_matching_and_an_altered_command_is_caught() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("m.qrec");
    record(&path);
    let out = replay(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("state hashes matched (the whole recording)"), "{stdout}");
    // One command changed at tick 300: the replay stops at the first stored
    // hash after it.
    let rec = read(&path).expect("read");
    let altered = dir.path().join("altered.qrec");
    let mut w = RecordWriter::create(&altered, &rec.header).expect("create");
    for t in rec.ticks() {
        let mut t = t.expect("tick");
        if t.tick == 300
            && let Some((_, cmd)) = t.cmds.first_mut()
        {
            cmd.forward = if cmd.forward == 127 { -127 } else { 127 };
            cmd.yaw += 90.0;
        }
        w.push(t);
    }
    let footer = rec.footer.clone().unwrap_or(Footer { ticks: 0, final_hash: 0, summary: String::new(), bot_report: String::new() });
    w.finish(footer).expect("finish");
    let out = replay(&altered);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "an altered recording must not replay cleanly");
    assert!(stderr.contains("diverged at tick 300") || stderr.contains("diverged at tick 360"), "{stderr}");
}

/// Sends a command every 16 ms for `duration`: running in circles, firing
/// in bursts.
fn pump(client: &mut ClientTransport, duration: Duration) {
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed() < duration {
        let _ = client.poll_events();
        let tick = client.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
        n += 1;
        if client.is_connected() {
            let buttons = if n % 60 < 15 { Buttons::ATTACK } else { Buttons::default() };
            let _ = client.send_cmd(UserCmd { tick, yaw: (n as f32 * 3.0) % 360.0, forward: 127, right: 30, buttons, ..UserCmd::default() });
        }
        std::thread::sleep(Duration::from_millis(16));
    }
}

#[test]
fn a_live_server_records_every_match_a_remote_player_plays_and_each_replays() {
    let demos = tempfile::tempdir().expect("tempdir");
    let dir = demos.path().to_str().expect("utf-8 path");
    let server = support::TestServer::start(&[
        "+set", "sv_record", "1", "+set", "sv_recordDir", dir, "+set", "g_gametype", "tdm", "+set", "bot_minPlayers", "3", "+set", "sv_webPassword", "web-secret-5531",
        "+set", "timelimit", "0.15", "+set", "fraglimit", "0", "+set", "g_intermission", "1", "+set", "sv_mapRotation", "q_dm1",
    ]);
    let mut client = server.client("visitor", None);
    // The first match (9 s), its intermission, and 3 s of the next.
    pump(&mut client, Duration::from_secs(14));
    drop(client);
    drop(server);
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(demos.path()).expect("demos").filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    assert!(files.len() >= 2 && files.iter().all(|p| p.extension().is_some_and(|x| x == "qdemo")), "a finished recording per match: {names:?}");
    let first = read(&files[0]).expect("first");
    let footer = first.footer.clone().expect("finished");
    assert!(footer.summary.contains("\"scoreboard\""), "the first match ended with its summary");
    let remote = first.ticks().map(|t| t.expect("tick")).flat_map(|t| t.journal).any(|e| matches!(e, quarry_record::JournalEntry::Join { client, .. } if client.name == "visitor" && client.latency_ms.is_some()));
    assert!(remote, "the visitor joined over the network, with its latency");
    let second = read(&files[1]).expect("second");
    assert!(second.header.start_slots.iter().any(|s| s.client.name == "visitor" && s.in_game), "the next match starts with the visitor carried over: {:?}", second.header.start_slots);
    assert!(second.header.start_slots.len() >= 3, "and the bots: {:?}", second.header.start_slots);
    for path in &files {
        let bytes = std::fs::read(path).expect("recording");
        let mut plain = Vec::new();
        let mut at = 12;
        while let Some(head) = bytes.get(at..at + 5).filter(|h| h[0] <= 4 && h[0] >= 1) {
            let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
            let Some(body) = bytes.get(at + 5..at + 5 + len) else { break };
            plain.extend(zstd::bulk::decompress(body, quarry_record::MAX_PAYLOAD_BYTES).expect("a frame decompresses"));
            at += 5 + len;
        }
        assert!(!plain.windows(15).any(|w| w == b"web-secret-5531"), "{}: the web password is in the recording", path.display());
    }
    for path in &files[..2] {
        let out = replay(path);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {stdout}\n{}", path.display(), String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("state hashes matched (the whole recording)"), "{stdout}");
    }
    assert!(String::from_utf8_lossy(&replay(&files[0]).stdout).contains("the summary equals the recorded one"));
}

#[test]
fn bots_added_on_the_command_line_and_a_companion_attached_to_its_owner_replay_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("added.qdemo");
    let (mut cmd, _config) = support::headless_command();
    let out = cmd
        .args(["--seed", "4", "--record"])
        .arg(&path)
        .args(["+set", "g_gametype", "tdm", "+set", "bot_minPlayers", "0", "+set", "timelimit", "0.2", "+set", "fraglimit", "0", "+map", "q_dm1"])
        .args(["+addbot", "Pike", "+addbot", "Wren", "+addbot", "Buddy", "brain=companion", "owner=Pike", "+addbot", "Rook"])
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rec = read(&path).expect("read");
    let pike = rec.header.start_slots.iter().find(|s| s.client.name == "Pike").map(|s| s.slot).expect("Pike started the match");
    let attached = rec.ticks().map(|t| t.expect("tick")).flat_map(|t| t.journal).any(|e| matches!(e, quarry_record::JournalEntry::Attach { to: Some(to), .. } if to == pike));
    assert!(attached, "the companion's attachment to its owner is journaled");
    // Bots that entered the game before the recording started replayed
    // as a second join ("slot 0 is taken") before.
    let out = replay(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("state hashes matched (the whole recording)"), "{stdout}");
}
