//! The operator's community tools through the real binary and real QUIC
//! clients on 127.0.0.1: bans by range and with an expiry (at admission,
//! in the bans file), `tell`, `mute`/`unmute`, `lock`/`unlock` and
//! `forceteam`, the map pool (`maplist`, `nextmap`, a match's end) and
//! players' votes (`callvote`, `vote`).

use std::time::{Duration, Instant};

use quarry_net::handshake::RejectReason;
use quarry_net::reliable::{ChatScope, ClientMessage, DisconnectReason, ServerMessage};
use quarry_net::transport::{ClientEvent, ClientTransport};
use quarry_sim::UserCmd;

mod support;
use support::TestServer;

/// Pumps every client for `duration` with empty commands; their events.
fn pump(clients: &mut [ClientTransport], duration: Duration) -> Vec<Vec<ClientEvent>> {
    support::pump(clients, duration, |_, _| UserCmd::default())
}

fn welcomed(events: &[ClientEvent]) -> bool {
    events.iter().any(|e| matches!(e, ClientEvent::Welcomed(_)))
}

fn banned(events: &[ClientEvent]) -> bool {
    events.iter().any(|e| matches!(e, ClientEvent::Disconnected(DisconnectReason::Rejected(RejectReason::Banned))))
}

fn printed(events: &[ClientEvent], text: &str) -> bool {
    events.iter().any(|e| matches!(e, ClientEvent::Message(ServerMessage::Print(t)) if t.contains(text)))
}

fn chat_heard(events: &[ClientEvent], text: &str) -> bool {
    events.iter().any(|e| matches!(e, ClientEvent::Message(ServerMessage::Chat { text: t, .. }) if t == text))
}

/// Connects a client called `name` and pumps until it is welcomed or refused.
fn join(server: &TestServer, name: &str) -> (ClientTransport, Vec<ClientEvent>) {
    let mut c = vec![server.client(name, None)];
    let mut events = Vec::new();
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end && !welcomed(&events) && !banned(&events) {
        events.extend(pump(&mut c, Duration::from_millis(100)).remove(0));
    }
    (c.remove(0), events)
}

fn bans_file(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("bans.txt")).unwrap_or_default()
}

#[test]
fn ranged_and_expiring_bans_apply_at_admission_and_lapse() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().to_owned();
    // An old-style line, an expired range and a bad line: the file loads.
    std::fs::write(config.join("bans.txt"), "10.9.9.9 old style\n127.0.0.0/8 until=2000-01-01T00:00:00Z long over\n127.0.0.1/99 bad\n").expect("write");
    let mut server = TestServer::start_in(dir, &[], &["+set", "bot_minPlayers", "0"]);

    let (early, events) = join(&server, "early");
    assert!(welcomed(&events), "an expired range bans no one: {events:?} {}", server.output());
    let mut early = vec![early];

    // A range holding the loopback address: the player on it is kicked,
    // and a new one is refused at the handshake.
    let from = server.output_lines();
    server.console("ban 127.0.0.0/8 2h griefing");
    assert!(server.wait_for(from, "banned 127.0.0.0/8 until ", Duration::from_secs(5)), "{}", server.output());
    let events = pump(&mut early, Duration::from_secs(1));
    assert!(
        events[0].iter().any(|e| matches!(e, ClientEvent::Disconnected(DisconnectReason::Kicked(r)) if r.contains("griefing"))),
        "the player on the range is kicked: {:?}",
        events[0]
    );
    let (_, events) = join(&server, "late");
    assert!(banned(&events), "the range refuses a new player: {events:?}");
    let file = bans_file(&config);
    assert!(file.contains("127.0.0.0/8 until=") && file.contains("griefing"), "kept with its expiry: {file}");
    assert!(!file.contains("2000-01-01"), "the expired ban left the file when it was written: {file}");
    assert!(file.contains("10.9.9.9 old style"), "the old line is kept: {file}");

    let from = server.output_lines();
    server.console("banlist");
    assert!(server.wait_for(from, "2 bans", Duration::from_secs(5)), "{}", server.output());
    server.console("unban 127.0.0.0/8");
    assert!(server.wait_for(from, "unbanned 127.0.0.0/8", Duration::from_secs(5)), "{}", server.output());
    let (_, events) = join(&server, "after");
    assert!(welcomed(&events), "unbanned: {events:?}");

    // A ban for two seconds refuses, then lapses by itself.
    let from = server.output_lines();
    server.console("ban 127.0.0.1 2s cool off");
    assert!(server.wait_for(from, "banned 127.0.0.1 until", Duration::from_secs(5)), "{}", server.output());
    let (_, events) = join(&server, "hothead");
    assert!(banned(&events), "refused while the ban holds: {events:?}");
    std::thread::sleep(Duration::from_millis(2500));
    let (_, events) = join(&server, "hothead");
    assert!(welcomed(&events), "welcome once it expired: {events:?}");

    let from = server.output_lines();
    server.console("ban 127.0.0.1 5x");
    server.console("ban 10.0.0.0/40");
    assert!(server.wait_for(from, "is not a duration", Duration::from_secs(5)), "{}", server.output());
    assert!(server.wait_for(from, "is not a prefix length", Duration::from_secs(5)), "{}", server.output());
    assert!(server.is_running());
}

#[test]
fn tell_reaches_one_player_and_a_muted_players_chat_reaches_no_one() {
    let mut server = TestServer::start(&["+set", "bot_minPlayers", "0"]);
    let (a, _) = join(&server, "alice");
    let (b, _) = join(&server, "bob");
    let mut clients = vec![a, b];
    pump(&mut clients, Duration::from_millis(300));

    server.console("tell alice meet at the rail");
    let events = pump(&mut clients, Duration::from_millis(800));
    assert!(printed(&events[0], "meet at the rail"), "alice is told: {:?}", events[0]);
    assert!(!printed(&events[1], "meet at the rail"), "bob is not: {:?}", events[1]);

    let from = server.output_lines();
    server.console("mute alice");
    assert!(server.wait_for(from, "is muted", Duration::from_secs(5)), "{}", server.output());
    clients[0].send_reliable(&ClientMessage::Chat { scope: ChatScope::All, text: "spam spam".into() }).expect("chat");
    let events = pump(&mut clients, Duration::from_millis(800));
    assert!(printed(&events[0], "you are muted"), "alice is told why: {:?}", events[0]);
    assert!(!chat_heard(&events[1], "spam spam"), "bob hears nothing: {:?}", events[1]);

    server.console("unmute alice");
    pump(&mut clients, Duration::from_millis(300));
    clients[0].send_reliable(&ClientMessage::Chat { scope: ChatScope::All, text: "sorry".into() }).expect("chat");
    let events = pump(&mut clients, Duration::from_millis(800));
    assert!(chat_heard(&events[1], "sorry"), "unmuted chat is heard: {:?}", events[1]);

    let from = server.output_lines();
    server.console("tell nobody hello");
    server.console("mute");
    assert!(server.wait_for(from, "no player 'nobody'", Duration::from_secs(5)), "{}", server.output());
    assert!(server.wait_for(from, "mute NAME|SLOT", Duration::from_secs(5)), "{}", server.output());
}

#[test]
fn a_locked_team_refuses_joins_and_forceteam_still_moves_players() {
    let mut server = TestServer::start(&["+set", "bot_minPlayers", "0", "+set", "g_gametype", "tdm", "+set", "g_teamForceBalance", "0", "+map_restart"]);
    let from = server.output_lines();
    server.console("lock red");
    assert!(server.wait_for(from, "the red team is locked", Duration::from_secs(5)), "{}", server.output());
    let (a, _) = join(&server, "alice");
    let (b, _) = join(&server, "bob");
    let mut clients = vec![a, b];
    pump(&mut clients, Duration::from_millis(500));
    let team = |c: &ClientTransport| c.latest_snapshot().map_or(0, |s| s.player.team);
    assert_eq!((team(&clients[0]), team(&clients[1])), (2, 2), "both placed on blue while red is locked");

    clients[0].send_reliable(&ClientMessage::Command("team red".into())).expect("cmd");
    let events = pump(&mut clients, Duration::from_millis(800));
    assert!(printed(&events[0], "red team is locked"), "{:?}", events[0]);
    assert_eq!(team(&clients[0]), 2, "still blue");

    let from = server.output_lines();
    server.console("forceteam alice red");
    assert!(server.wait_for(from, "is on red", Duration::from_secs(5)), "{}", server.output());
    pump(&mut clients, Duration::from_millis(800));
    assert_eq!(team(&clients[0]), 1, "forceteam passes the lock");

    server.console("unlock");
    pump(&mut clients, Duration::from_millis(300));
    clients[1].send_reliable(&ClientMessage::Command("team red".into())).expect("cmd");
    let events = pump(&mut clients, Duration::from_millis(800));
    assert!(printed(&events[1], "joined red"), "{:?}", events[1]);

    let from = server.output_lines();
    server.console("lock free");
    assert!(server.wait_for(from, "only red and blue can be locked", Duration::from_secs(5)), "{}", server.output());
}

#[test]
fn the_map_pool_lists_the_game_types_maps_and_nextmap_moves_through_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("pool.txt"), "# ffa maps\nq_dm1|ffa\nq_duel1|ffa\nq_ctf1|ctf\nq_dm1 ffa\n").expect("write");
    let mut server = TestServer::start_in(dir, &[], &["+set", "bot_minPlayers", "0", "+set", "sv_mapPoolFile", "pool.txt"]);
    let from = server.output_lines();
    server.console("maplist");
    assert!(server.wait_for(from, "map pool for ffa: 2 maps", Duration::from_secs(5)), "{}", server.output());
    assert!(server.wait_for(from, "q_dm1 (current)", Duration::from_secs(5)), "{}", server.output());
    assert!(server.wait_for(from, "pool.txt:5: expected map|gametype", Duration::from_secs(5)), "the bad line is named: {}", server.output());
    assert!(!server.output_since(from).iter().any(|l| l.contains("q_ctf1")), "another game type's map is not listed");

    let from = server.output_lines();
    server.console("nextmap");
    assert!(server.wait_for(from, "q_duel1.map loaded", Duration::from_secs(20)), "{}", server.output());
    let from = server.output_lines();
    server.console("nextmap");
    assert!(server.wait_for(from, "q_dm1.map loaded", Duration::from_secs(20)), "wraps to the first: {}", server.output());

    let from = server.output_lines();
    server.console("set sv_mapPoolFile missing.txt");
    server.console("maplist");
    assert!(server.wait_for(from, "sv_mapPoolFile", Duration::from_secs(5)), "{}", server.output());
    assert!(server.is_running());
}

/// Sends a client command from client `i` and pumps everyone for a moment.
fn command(clients: &mut [ClientTransport], i: usize, line: &str) -> Vec<Vec<ClientEvent>> {
    clients[i].send_reliable(&ClientMessage::Command(line.into())).expect("command");
    pump(clients, Duration::from_millis(600))
}

#[test]
fn votes_pass_by_a_majority_of_humans_and_fail_by_no_or_time() {
    // Two humans and two bots: a yes from both humans passes (bots neither
    // vote nor count, or 2 of 4 would not be a majority).
    let mut server = TestServer::start(&["+set", "bot_minPlayers", "4", "+set", "g_voteTime", "5", "+set", "g_voteCooldown", "60"]);
    let (a, _) = join(&server, "ada");
    let (b, _) = join(&server, "bo");
    let mut clients = vec![a, b];
    let end = Instant::now() + Duration::from_secs(15);
    while server.status().bots < 2 {
        assert!(Instant::now() < end, "the bots never came: {}", server.output());
        pump(&mut clients, Duration::from_millis(300));
    }

    let from = server.output_lines();
    let events = command(&mut clients, 0, "callvote map_restart");
    assert!(printed(&events[1], "ada called a vote: map_restart"), "announced to all: {:?}", events[1]);
    assert!(!server.output_since(from).iter().any(|l| l.contains("vote passed")), "one human of two is not a majority");
    let events = command(&mut clients, 0, "vote yes");
    assert!(printed(&events[0], "you already voted"), "the caller voted yes: {:?}", events[0]);
    let events = command(&mut clients, 1, "vote yes");
    assert!(printed(&events[1], "vote passed: map_restart"), "{:?}", events[1]);
    assert!(server.wait_for(from, "q_dm1.map loaded", Duration::from_secs(10)), "the match restarted: {}", server.output());

    // The caller's cooldown; a full split fails.
    let events = command(&mut clients, 0, "callvote bot_skill 2");
    assert!(printed(&events[0], "you called a vote recently"), "{:?}", events[0]);
    let from = server.output_lines();
    command(&mut clients, 1, "callvote bot_skill 2");
    command(&mut clients, 0, "vote no");
    assert!(server.wait_for(from, "vote failed: bot_skill 2 (no majority", Duration::from_secs(5)), "{}", server.output());

    // Bad arguments and refusals are told to the caller alone.
    let events = command(&mut clients, 1, "callvote map ../../etc/passwd");
    assert!(printed(&events[1], "is not a map name"), "{:?}", events[1]);
    let events = command(&mut clients, 1, "callvote bots 999");
    assert!(printed(&events[1], "not a number"), "{:?}", events[1]);
    let events = command(&mut clients, 1, "vote yes");
    assert!(printed(&events[1], "no vote is in progress"), "{:?}", events[1]);
    server.console("set g_voteKinds map");
    pump(&mut clients, Duration::from_millis(300));
    let events = command(&mut clients, 1, "callvote kick ada");
    assert!(printed(&events[1], "'kick' votes are not allowed here (allowed: map)"), "{:?}", events[1]);
    server.console("set g_allowVote 0");
    pump(&mut clients, Duration::from_millis(300));
    let events = command(&mut clients, 1, "callvote map q_dm1");
    assert!(printed(&events[1], "voting is off"), "{:?}", events[1]);

    // Time runs out (g_voteTime 5).
    server.console("set g_allowVote 1");
    server.console("set g_voteCooldown 0");
    pump(&mut clients, Duration::from_millis(300));
    let from = server.output_lines();
    command(&mut clients, 1, "callvote map q_duel1");
    pump(&mut clients, Duration::from_secs(6));
    assert!(server.wait_for(from, "vote failed: map q_duel1 (time up", Duration::from_secs(3)), "{}", server.output());
    assert!(server.is_running());
}

#[test]
fn a_match_end_takes_the_pools_next_map_over_the_rotation() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("pool.txt"), "q_dm1|ffa\nq_duel1|ffa\n").expect("write");
    let server = TestServer::start_in(
        dir,
        &[],
        &["+set", "bot_minPlayers", "2", "+set", "sv_mapPoolFile", "pool.txt", "+set", "sv_mapRotation", "q_ctf1", "+set", "timelimit", "0.05", "+set", "g_intermission", "0"],
    );
    assert!(server.wait_for(0, "q_duel1.map loaded", Duration::from_secs(30)), "the pool's next map, not the rotation's: {}", server.output());
    assert!(!server.output().contains("q_ctf1.map loaded"), "{}", server.output());
}
