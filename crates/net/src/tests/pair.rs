//! Protocol behaviour over the simulated network: handshake, rejects,
//! deltas against acknowledged snapshots, loss, fragmentation, rate caps,
//! timeouts and misbehaving peers. No sockets; virtual time.

use std::collections::HashMap;
use std::time::Duration;

use super::util::Pair;
use super::world::World;
use crate::conn::{ClientConnEvent, ConnConfig, ServerConnEvent, SnapshotOutcome};
use crate::handshake::{Hello, PROTOCOL_VERSION, RejectReason};
use crate::reliable::{ChatScope, ClientMessage, DisconnectReason, ServerMessage};
use crate::snapshot::Snapshot;
use crate::usercmd::UserCmd;

const TICK: Duration = Duration::from_millis(17);

/// What a run of the game loop produced.
#[derive(Default)]
struct Run {
    outcomes: Vec<(u32, SnapshotOutcome)>,
    sent: HashMap<u32, Snapshot>,
    received: Vec<Snapshot>,
    cmds: Vec<UserCmd>,
}

/// Runs `ticks` server ticks: the client sends one command per tick, the
/// server sends player 0's snapshot every other tick.
fn play(p: &mut Pair, w: &mut World, ticks: u32, run: &mut Run) {
    for _ in 0..ticks {
        w.step(1, 1.0 / 60.0);
        let cmd = UserCmd { tick: w.tick, yaw: (w.tick % 360) as f32, forward: 127, ..UserCmd::default() };
        p.client.send_cmd(cmd).expect("client active");
        if w.tick.is_multiple_of(2) {
            let s = w.snapshot_for(0);
            let outcome = p.server.send_snapshot(p.time, s.clone().into(), p.mtu).expect("snapshot sent");
            run.outcomes.push((s.server_tick, outcome));
            run.sent.insert(s.server_tick, s);
        }
        p.advance(TICK);
        for e in p.client_events.drain(..) {
            if let ClientConnEvent::Snapshot(s) = e {
                run.received.push(s);
            }
        }
        for e in p.server_events.drain(..) {
            if let ServerConnEvent::UserCmds(c) = e {
                run.cmds.extend(c);
            }
        }
    }
}

/// Every snapshot the client reconstructed equals what the server sent.
fn assert_exact(run: &Run) {
    assert!(!run.received.is_empty());
    for s in &run.received {
        assert_eq!(Some(s), run.sent.get(&s.server_tick), "tick {}", s.server_tick);
    }
}

#[test]
fn handshake_welcomes_and_carries_hello() {
    let mut hello = Hello::new("Visor");
    hello.password = Some("pw".into());
    hello.userinfo = vec![("rate".into(), "25000".into())];
    let mut p = Pair::new(1, hello.clone());
    p.advance(Duration::from_millis(30));
    assert_eq!(p.server_events, vec![ServerConnEvent::Hello(hello)]);
    assert!(!p.client.is_active());
    let welcome = crate::handshake::Welcome { slot: 3, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Default::default() };
    p.server.accept(&welcome).expect("accept");
    p.advance(Duration::from_millis(30));
    assert_eq!(p.client_events, vec![ClientConnEvent::Welcomed(welcome)]);
    assert!(p.client.is_active() && p.server.is_active());
}

#[test]
fn reject_reaches_client_with_reason() {
    let mut p = Pair::new(2, Hello::new("x"));
    p.advance(Duration::from_millis(30));
    p.server.reject(RejectReason::WrongPassword).expect("reject");
    p.advance(Duration::from_millis(30));
    assert_eq!(p.client_events, vec![ClientConnEvent::Closed(DisconnectReason::Rejected(RejectReason::WrongPassword))]);
    assert_eq!(p.server_events.last(), Some(&ServerConnEvent::Closed(DisconnectReason::Rejected(RejectReason::WrongPassword))));
}

#[test]
fn wrong_version_is_rejected_by_the_protocol() {
    let mut p = Pair::new(3, Hello { version: PROTOCOL_VERSION + 1, ..Hello::new("future") });
    p.advance(Duration::from_millis(60));
    let expected = DisconnectReason::Rejected(RejectReason::WrongVersion { server: PROTOCOL_VERSION, client: PROTOCOL_VERSION + 1 });
    assert_eq!(p.client_events, vec![ClientConnEvent::Closed(expected.clone())]);
    assert_eq!(p.server_events, vec![ServerConnEvent::Closed(expected)]);
}

#[test]
fn snapshots_are_deltas_against_the_acked_one() {
    let mut p = Pair::connect(4);
    let mut w = World::new(8, 4);
    let mut run = Run::default();
    play(&mut p, &mut w, 120, &mut run);
    assert_exact(&run);
    let (first_tick, first) = run.outcomes[0];
    assert!(matches!(first, SnapshotOutcome::Sent { base_tick: None, .. }), "first is full: {first_tick}");
    // With 20 ms latency each way the ack trails by a few snapshots.
    let deltas: Vec<_> = run.outcomes.iter().filter_map(|(t, o)| match o {
        SnapshotOutcome::Sent { base_tick: Some(b), .. } => Some(t - b),
        _ => None,
    }).collect();
    assert!(deltas.len() >= run.outcomes.len() - 4, "{} of {}", deltas.len(), run.outcomes.len());
    assert!(deltas.iter().all(|&gap| gap <= 8), "{deltas:?}");
    assert_eq!(p.server.stats().full_snapshots, run.outcomes.len() as u64 - deltas.len() as u64);
}

#[test]
fn full_snapshot_when_acks_stop_then_recovery() {
    let mut p = Pair::connect(5);
    let mut w = World::new(6, 5);
    let mut run = Run::default();
    play(&mut p, &mut w, 60, &mut run);
    // Acks stop: the client's datagrams are lost for 1.5 s. The acked
    // snapshot falls out of the 32-snapshot history and the server must
    // fall back to full snapshots, which the client can always decode.
    p.block_up = true;
    play(&mut p, &mut w, 90, &mut run);
    let during: Vec<_> = run.outcomes.iter().rev().take(10).collect();
    assert!(during.iter().all(|(_, o)| matches!(o, SnapshotOutcome::Sent { base_tick: None, .. })), "{during:?}");
    p.block_up = false;
    let before = run.outcomes.len();
    play(&mut p, &mut w, 60, &mut run);
    let after = run.outcomes.get(before + 5..).unwrap_or_default();
    assert!(after.iter().all(|(_, o)| matches!(o, SnapshotOutcome::Sent { base_tick: Some(_), .. })), "{after:?}");
    assert_exact(&run);
    assert_eq!(p.client.stats().snapshots_undecodable, 0);
}

#[test]
fn commands_survive_20_percent_loss() {
    let mut p = Pair::connect(6);
    p.loss = 0.2;
    p.reorder = 0.1;
    let mut w = World::new(4, 6);
    let mut run = Run::default();
    play(&mut p, &mut w, 600, &mut run);
    // In order, no duplicates.
    assert!(run.cmds.windows(2).all(|c| c[0].tick < c[1].tick));
    let first = run.cmds[0].tick;
    let expected = (w.tick - first) as usize; // the last tick may be in flight
    let missing = expected.saturating_sub(run.cmds.len());
    // 4-fold redundancy: P(loss) = 0.2^4 = 0.16 %, reordering adds a little.
    assert!(missing <= expected / 100, "missing {missing} of {expected}");
    assert!(p.dropped > 150, "the network dropped {}", p.dropped);
    assert_exact(&run);
    assert!(p.server.stats().loss_in > 0.1);
}

#[test]
fn large_snapshot_is_fragmented_and_reassembled() {
    let mut p = Pair::connect(7);
    let mut w = World::new(16, 7);
    w.items = 400;
    let mut run = Run::default();
    play(&mut p, &mut w, 2, &mut run);
    match run.outcomes[0].1 {
        SnapshotOutcome::Sent { bytes, datagrams, base_tick: None } => {
            assert!(datagrams >= 3, "{bytes} bytes in {datagrams} datagrams");
        }
        o => panic!("{o:?}"),
    }
    p.loss = 0.1;
    play(&mut p, &mut w, 240, &mut run);
    assert_exact(&run);
    assert!(run.received.len() > 60, "{}", run.received.len());
}

#[test]
fn rate_cap_skips_snapshots_but_loses_nothing() {
    let mut p = Pair::connect(8);
    p.server.set_rate(3_000);
    let mut w = World::new(16, 8);
    let mut run = Run::default();
    play(&mut p, &mut w, 300, &mut run);
    let limited = run.outcomes.iter().filter(|(_, o)| *o == SnapshotOutcome::RateLimited).count();
    assert!(limited > 20, "{limited}");
    assert_exact(&run);
    let seconds = 300.0 * TICK.as_secs_f64();
    let datagrams: usize = run.outcomes.iter().map(|(_, o)| if let SnapshotOutcome::Sent { datagrams, .. } = o { *datagrams } else { 0 }).sum();
    let wire = p.bytes_down as f64 + (datagrams * crate::conn::DATAGRAM_OVERHEAD) as f64;
    // The cap plus the initial burst and the last snapshot's overdraft.
    assert!(wire / seconds <= 3_000.0 + 2_500.0 / seconds, "{} B/s", wire / seconds);
}

#[test]
fn reliable_messages_flow_both_ways_in_order() {
    let mut p = Pair::connect(9);
    p.loss = 0.5; // datagram loss does not touch the stream
    for i in 0..20 {
        p.server.send_message(&ServerMessage::Print(format!("line {i}"))).expect("send");
    }
    p.client.send_message(&ClientMessage::Chat { scope: ChatScope::Team, text: "gg".into() }).expect("send");
    p.advance(Duration::from_millis(50));
    let prints: Vec<_> = p.client_events.iter().filter_map(|e| match e {
        ClientConnEvent::Message(ServerMessage::Print(t)) => Some(t.clone()),
        _ => None,
    }).collect();
    assert_eq!(prints, (0..20).map(|i| format!("line {i}")).collect::<Vec<_>>());
    assert_eq!(p.server_events, vec![ServerConnEvent::Message(ClientMessage::Chat { scope: ChatScope::Team, text: "gg".into() })]);
}

#[test]
fn kick_and_quit_carry_their_reasons() {
    let mut p = Pair::connect(10);
    p.server.disconnect(DisconnectReason::Kicked("camping".into()));
    p.advance(Duration::from_millis(50));
    assert_eq!(p.client_events, vec![ClientConnEvent::Closed(DisconnectReason::Kicked("camping".into()))]);
    assert_eq!(p.server_events, vec![ServerConnEvent::Closed(DisconnectReason::Kicked("camping".into()))]);

    let mut p = Pair::connect(11);
    p.client.disconnect();
    p.advance(Duration::from_millis(50));
    assert_eq!(p.server_events, vec![ServerConnEvent::Closed(DisconnectReason::Quit)]);
}

#[test]
fn silent_client_times_out_before_hello() {
    let config = ConnConfig { hello_timeout: Duration::from_millis(200), ..ConnConfig::default() };
    let mut p = Pair::with_config(12, Hello::new("x"), &config);
    // Drop the Hello: the client is connected at the QUIC level but mute.
    while p.client.poll_transmit().is_some() {}
    p.advance(Duration::from_millis(250));
    assert_eq!(p.server_events, vec![ServerConnEvent::Closed(DisconnectReason::Timeout)]);
}

#[test]
fn garbage_datagrams_get_a_client_disconnected() {
    let mut p = Pair::connect(13);
    let now = p.time;
    for i in 0..11u8 {
        p.server.handle_datagram(now, &[0xee, i, 0, 1, 2]);
    }
    let mut events = Vec::new();
    while let Some(e) = p.server.poll_event() {
        events.push(e);
    }
    assert_eq!(events.iter().filter(|e| matches!(e, ServerConnEvent::Misbehaving { .. })).count(), 11);
    assert!(matches!(events.last(), Some(ServerConnEvent::Closed(DisconnectReason::Misbehaving(_)))), "{events:?}");
    p.advance(Duration::from_millis(50));
    assert!(matches!(p.client_events.last(), Some(ClientConnEvent::Closed(DisconnectReason::Misbehaving(_)))));
}

#[test]
fn a_few_bad_datagrams_are_only_counted() {
    let mut p = Pair::connect(14);
    let now = p.time;
    for _ in 0..5 {
        p.server.handle_datagram(now, &[1, 0]);
    }
    assert!(p.server.is_active());
    assert_eq!(p.server.stats().malformed, 5);
}
