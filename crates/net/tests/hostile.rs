//! Hostile peers against a real server endpoint over QUIC on loopback: a
//! client that stops reading, floods messages or datagrams, opens too many
//! connections or sends frames no client would. Each test checks the server
//! contains it to that one connection and that well-behaved connections at
//! the same time keep what they are owed.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use quarry_net::cert::{Identity, ServerVerification};
use quarry_net::handshake::{Hello, PROTOCOL_VERSION, Welcome};
use quarry_net::reliable::{ClientFrame, ClientMessage, DisconnectReason, ServerFrame, ServerMessage};
use quarry_net::transport::raw::{RawClient, RawEndpoint, RawError};
use quarry_net::transport::{ConnId, ServerConfig, ServerEvent, ServerTransport, TransportSettings};
use quarry_net::usercmd::{CmdPacket, UserCmd};

const TICK: Duration = Duration::from_millis(16);
const WAIT: Duration = Duration::from_secs(5);

fn server_on(bind: &str, settings: TransportSettings) -> ServerTransport {
    let identity = Identity::generate().expect("certificate");
    ServerTransport::bind(ServerConfig { bind: bind.parse().expect("addr"), identity, settings }).expect("bind")
}

fn endpoint(local: &str) -> RawEndpoint {
    RawEndpoint::bind(local.parse().expect("addr"), ServerVerification::accept_any_for_development(), &TransportSettings::default())
        .expect("client endpoint")
}

fn hello(name: &str) -> ClientFrame {
    ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: name.into(), ..Hello::default() })
}

fn welcome() -> Welcome {
    Welcome { slot: 0, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() }
}

/// Polls the server every tick while `during` runs, accepting every hello;
/// returns the events by connection.
struct Pump {
    events: BTreeMap<ConnId, Vec<ServerEvent>>,
}

impl Pump {
    fn new() -> Self {
        Self { events: BTreeMap::new() }
    }

    fn tick(&mut self, s: &mut ServerTransport) {
        for e in s.poll_events() {
            let conn = match &e {
                ServerEvent::Connected { conn, .. } => {
                    // A connection that misbehaved in the same poll is already gone.
                    let _ = s.accept(*conn, &welcome());
                    *conn
                }
                ServerEvent::UserCmds { conn, .. }
                | ServerEvent::SnapshotAcked { conn, .. }
                | ServerEvent::Message { conn, .. }
                | ServerEvent::Misbehaving { conn, .. }
                | ServerEvent::Disconnected { conn, .. } => *conn,
            };
            self.events.entry(conn).or_default().push(e);
        }
    }

    fn run(&mut self, s: &mut ServerTransport, d: Duration) {
        let end = Instant::now() + d;
        while Instant::now() < end {
            self.tick(s);
            std::thread::sleep(TICK);
        }
    }

    fn disconnected(&self, conn: ConnId) -> Option<&DisconnectReason> {
        self.events.get(&conn)?.iter().find_map(|e| match e {
            ServerEvent::Disconnected { reason, .. } => Some(reason),
            _ => None,
        })
    }

    fn messages(&self, conn: ConnId) -> usize {
        self.events.get(&conn).map_or(0, |v| v.iter().filter(|e| matches!(e, ServerEvent::Message { .. })).count())
    }

    fn cmds(&self, conn: ConnId) -> Vec<u32> {
        self.events
            .get(&conn)
            .map(|v| {
                v.iter()
                    .filter_map(|e| match e {
                        ServerEvent::UserCmds { cmds, .. } => Some(cmds.iter().map(|c| c.tick)),
                        _ => None,
                    })
                    .flatten()
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Opens `n` connections at once from `ep`, polling the server meanwhile
/// (the handshake needs the server's poll to go on); returns each outcome.
fn connect_many(s: &mut ServerTransport, pump: &mut Pump, ep: &RawEndpoint, addr: SocketAddr, n: usize, wait: Duration) -> Vec<Result<RawClient, RawError>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n).map(|_| scope.spawn(|| ep.connect(addr, wait))).collect();
        while handles.iter().any(|h| !h.is_finished()) {
            pump.tick(s);
            std::thread::sleep(Duration::from_millis(2));
        }
        handles.into_iter().map(|h| h.join().expect("connect thread")).collect()
    })
}

/// One connection, as [`connect_many`].
fn connect(s: &mut ServerTransport, pump: &mut Pump, ep: &RawEndpoint, addr: SocketAddr, wait: Duration) -> Result<RawClient, RawError> {
    connect_many(s, pump, ep, addr, 1, wait).pop().expect("one outcome")
}

/// Connects, says hello and waits (pumping the server) for the Welcome;
/// returns the client and its connection id on the server.
fn join(s: &mut ServerTransport, pump: &mut Pump, ep: &RawEndpoint, name: &str) -> (RawClient, ConnId) {
    let before: Vec<ConnId> = pump.events.keys().copied().collect();
    let addr = s.local_addr();
    let mut c = connect(s, pump, ep, addr, WAIT).expect("connect");
    c.send_frame(&hello(name), WAIT).expect("hello");
    let end = Instant::now() + WAIT;
    loop {
        pump.tick(s);
        if let Ok(frames) = c.read_frames(Duration::from_millis(5))
            && frames.iter().any(|f| matches!(f, ServerFrame::Welcome(_)))
        {
            break;
        }
        assert!(Instant::now() < end, "no welcome for {name}");
    }
    let conn = *pump.events.keys().find(|k| !before.contains(k)).expect("a new connection on the server");
    (c, conn)
}

fn cmd_packet(tick: u32) -> CmdPacket {
    CmdPacket { snapshot_ack: None, cmds: vec![UserCmd { tick, forward: 127, ..UserCmd::default() }] }
}

#[test]
fn a_client_that_stops_reading_is_cut_off_at_its_backlog_budget() {
    let settings = TransportSettings { reliable_backlog: 64 * 1024, ..TransportSettings::default() };
    let mut s = server_on("127.0.0.1:0", settings);
    let mut pump = Pump::new();
    let ep = endpoint("127.0.0.1:0");
    let (slow, slow_conn) = join(&mut s, &mut pump, &ep, "slow");
    let (mut good, good_conn) = join(&mut s, &mut pump, &ep, "good");
    // 4 MB of prints to each, 8 KiB a millisecond or so; the slow one never
    // reads, the good one reads all the time on its own thread (reading
    // between writes on the test thread fell behind on a loaded machine).
    let text = "x".repeat(8 * 1024);
    let mut most_waiting = 0;
    let good_frames = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let (mut frames, end) = (0, Instant::now() + Duration::from_secs(20));
            while frames < 512 && Instant::now() < end {
                match good.read_frames(Duration::from_millis(50)) {
                    Ok(f) => frames += f.len(),
                    Err(_) => break,
                }
            }
            frames
        });
        for _ in 0..512 {
            for conn in [slow_conn, good_conn] {
                let _ = s.send_reliable(conn, &ServerMessage::Print(text.clone()));
            }
            if let Some(st) = s.stats(slow_conn) {
                most_waiting = most_waiting.max(st.reliable_backlog);
            }
            pump.tick(&mut s);
            std::thread::sleep(Duration::from_millis(1));
        }
        pump.run(&mut s, Duration::from_millis(300));
        let reason = pump.disconnected(slow_conn).expect("the slow reader was disconnected");
        assert!(reason.to_string().contains("not reading"), "{reason}");
        assert!(most_waiting <= 64 * 1024, "backlog {most_waiting} over the budget");
        assert!(slow.wait_closed(WAIT).is_some(), "its QUIC connection was closed");
        assert!(pump.disconnected(good_conn).is_none(), "the good client stays");
        // Keep the server going while the reader finishes.
        while !reader.is_finished() {
            pump.tick(&mut s);
            std::thread::sleep(TICK);
        }
        reader.join().expect("reader thread")
    });
    assert!(good_frames >= 500, "the good client got {good_frames} of 512 prints");
}

#[test]
fn kick_closes_the_connection_of_a_client_that_does_not_read() {
    let mut s = server_on("127.0.0.1:0", TransportSettings::default());
    let mut pump = Pump::new();
    let ep = endpoint("127.0.0.1:0");
    let (deaf, conn) = join(&mut s, &mut pump, &ep, "deaf");
    // Fill its stream window (128 KiB) so the kick message can never be
    // read, staying under the 256 KiB backlog budget even if the writer
    // task has taken none of it yet (else it is cut off before the kick).
    for _ in 0..24 {
        let _ = s.send_reliable(conn, &ServerMessage::Print("y".repeat(8 * 1024)));
    }
    pump.run(&mut s, Duration::from_millis(200));
    let t0 = Instant::now();
    s.disconnect(conn, DisconnectReason::Kicked("test".into())).expect("kick");
    pump.run(&mut s, Duration::from_millis(100));
    assert!(deaf.wait_closed(Duration::from_secs(3)).is_some(), "still open after a kick");
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    pump.run(&mut s, Duration::from_millis(100));
    assert_eq!(s.open_connections(), 0);
}

#[test]
fn a_datagram_flood_costs_only_its_sender() {
    let mut s = server_on("127.0.0.1:0", TransportSettings::default());
    let mut pump = Pump::new();
    let ep = endpoint("127.0.0.1:0");
    let (mut flood, flood_conn) = join(&mut s, &mut pump, &ep, "flood");
    let (mut good, good_conn) = join(&mut s, &mut pump, &ep, "good");
    let mut sent = 0;
    let start = Instant::now();
    let mut flood_tick = 1_000_000u32;
    for tick in 1..=90u32 {
        // 300 datagrams per tick from the flooder (18,000/s), one from the good client.
        for _ in 0..300 {
            flood_tick += 1;
            flood.send_cmds(&cmd_packet(flood_tick));
        }
        if good.send_cmds(&cmd_packet(tick)) {
            sent += 1;
        }
        pump.tick(&mut s);
        std::thread::sleep(TICK);
    }
    pump.run(&mut s, Duration::from_millis(300));
    let got = pump.cmds(good_conn);
    assert!(got.len() * 100 >= sent * 97, "the good client got {} of {sent} commands in {:?}", got.len(), start.elapsed());
    let limited = s.stats(flood_conn).map_or(0, |st| st.limited.datagrams);
    let flood_got = pump.cmds(flood_conn).len();
    assert!(flood_got < 90 * 300 / 2, "the flooder's commands were all taken: {flood_got}");
    assert!(limited > 0 || pump.disconnected(flood_conn).is_some(), "the flood was neither limited nor cut off");
}

#[test]
fn every_message_kind_is_rate_limited_and_a_flood_disconnects() {
    let mut s = server_on("127.0.0.1:0", TransportSettings::default());
    let mut pump = Pump::new();
    let ep = endpoint("127.0.0.1:0");
    let kinds: [(&str, ClientMessage); 4] = [
        ("command", ClientMessage::Command("kill".into())),
        ("chat", ClientMessage::Chat { scope: quarry_net::reliable::ChatScope::All, text: "spam".into() }),
        ("userinfo", ClientMessage::UserInfo(vec![("name".into(), "renamed".into())])),
        ("maploaded", ClientMessage::MapLoaded("q_dm1".into())),
    ];
    for (name, msg) in kinds {
        let (mut c, conn) = join(&mut s, &mut pump, &ep, name);
        // 150 in a burst: the limit's burst gets through, the rest are counted.
        for _ in 0..150 {
            if c.send_frame(&ClientFrame::Message(msg.clone()), WAIT).is_err() {
                break;
            }
        }
        pump.run(&mut s, Duration::from_millis(300));
        let through = pump.messages(conn);
        assert!((1..=20).contains(&through), "{name}: {through} of 150 went through");
        let limited = s.stats(conn).map_or(0, |st| st.limited.total());
        assert!(limited as usize + through >= 140, "{name}: {limited} counted as limited, {through} through");
        // Then a flood: 400 more at once ends the connection.
        for _ in 0..400 {
            if c.send_frame(&ClientFrame::Message(msg.clone()), WAIT).is_err() {
                break;
            }
        }
        pump.run(&mut s, Duration::from_millis(300));
        let reason = pump.disconnected(conn).unwrap_or_else(|| panic!("{name}: a flood was not cut off"));
        assert!(reason.to_string().contains("flooding"), "{name}: {reason}");
    }
}

#[test]
fn malformed_frames_cost_the_sender_its_connection_only() {
    let mut s = server_on("127.0.0.1:0", TransportSettings::default());
    let mut pump = Pump::new();
    let ep = endpoint("127.0.0.1:0");
    let (mut good, good_conn) = join(&mut s, &mut pump, &ep, "good");
    let long_name = "n".repeat(10 * 1024);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("oversized frame", vec![0xff, 0xff, 0xff, 0x7f]),
        ("bad length varint", vec![0xff; 12]),
        ("unknown tag", vec![3, 0xee, 1, 2]),
        ("bad utf-8 name", {
            // A valid hello whose name bytes are then made invalid UTF-8.
            let mut p = ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: "ABCD".into(), ..Hello::default() }).encode();
            let at = p.windows(4).position(|w| w == b"ABCD").expect("name bytes");
            p[at..at + 4].copy_from_slice(&[0xff, 0xfe, 0xfd, 0xfc]);
            let mut f = Vec::new();
            quarry_net::codec::encode_frame(&p, &mut f);
            f
        }),
        ("10 kB name", {
            let mut f = Vec::new();
            let frame = ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: long_name.clone(), ..Hello::default() });
            quarry_net::codec::encode_frame(&frame.encode(), &mut f);
            f
        }),
        ("wrong version", {
            let mut f = Vec::new();
            let frame = ClientFrame::Hello(Hello { version: PROTOCOL_VERSION + 7, name: "old".into(), ..Hello::default() });
            quarry_net::codec::encode_frame(&frame.encode(), &mut f);
            f
        }),
        ("message before hello", {
            let mut f = Vec::new();
            quarry_net::codec::encode_frame(&ClientFrame::Message(ClientMessage::Command("kill".into())).encode(), &mut f);
            f
        }),
    ];
    let addr = s.local_addr();
    for (what, bytes) in cases {
        let mut c = connect(&mut s, &mut pump, &ep, addr, WAIT).expect("connect");
        let _ = c.write(&bytes, WAIT);
        // And junk datagrams on top.
        for i in 0..50u8 {
            c.send_datagram(&[i; 40]);
        }
        let end = Instant::now() + WAIT;
        let mut closed = None;
        while closed.is_none() && Instant::now() < end {
            pump.tick(&mut s);
            closed = c.wait_closed(Duration::from_millis(10));
        }
        let name_ok = what == "10 kB name" && closed.is_none();
        assert!(closed.is_some() || name_ok, "{what}: the connection stayed open");
        c.close();
        // The good client still gets its commands through.
        good.send_cmds(&cmd_packet(1000 + pump.cmds(good_conn).len() as u32));
    }
    pump.run(&mut s, Duration::from_millis(200));
    assert!(pump.disconnected(good_conn).is_none(), "the good client was hurt");
    assert!(!pump.cmds(good_conn).is_empty(), "the good client's commands stopped");
}

#[test]
fn connections_from_one_address_are_capped() {
    let settings = TransportSettings { max_connections_per_ip: 4, ..TransportSettings::default() };
    let mut s = server_on("127.0.0.1:0", settings);
    let mut pump = Pump::new();
    let ep = endpoint("127.0.0.1:0");
    let addr: SocketAddr = s.local_addr();
    let results = connect_many(&mut s, &mut pump, &ep, addr, 10, Duration::from_secs(3));
    let up = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(up, 4, "{} connections from one address were let in", up);
    assert_eq!(s.open_connections(), 4);
    let stats = s.admission_stats();
    assert!(stats.refused_per_ip >= 6, "{stats:?}");
    assert!(stats.retries >= 4, "every new address proves itself first: {stats:?}");
    drop(results);
    pump.run(&mut s, Duration::from_millis(300));
    // Places come back when connections end.
    let again = connect(&mut s, &mut pump, &ep, addr, Duration::from_secs(3));
    assert!(again.is_ok(), "a place did not come back");
}

#[test]
fn ipv6_and_ipv4_clients_share_a_dual_stack_port() {
    let Ok(identity) = Identity::generate() else { panic!("certificate") };
    let Ok(mut s) = ServerTransport::bind(ServerConfig {
        bind: "[::]:0".parse().expect("addr"),
        identity,
        settings: TransportSettings::default(),
    }) else {
        eprintln!("no IPv6 on this host; skipped");
        return;
    };
    let port = s.local_addr().port();
    let mut pump = Pump::new();
    for local in ["127.0.0.1:0", "[::1]:0"] {
        let Ok(ep) = RawEndpoint::bind(local.parse().expect("addr"), ServerVerification::accept_any_for_development(), &TransportSettings::default())
        else {
            eprintln!("cannot bind {local}; skipped");
            continue;
        };
        let target: SocketAddr = if local.starts_with('[') { SocketAddr::from(([0u16, 0, 0, 0, 0, 0, 0, 1], port)) } else { SocketAddr::from(([127, 0, 0, 1], port)) };
        let c = connect(&mut s, &mut pump, &ep, target, WAIT);
        assert!(c.is_ok(), "{local} could not connect: {:?}", c.err());
    }
}

#[test]
fn connections_that_never_join_make_room_for_players() {
    // A small server: 6 connections in all, 3 from one address.
    let settings = TransportSettings { max_connections: 6, max_connections_per_ip: 3, ..TransportSettings::default() };
    let mut s = server_on("127.0.0.1:0", settings);
    let mut pump = Pump::new();
    let addr: SocketAddr = s.local_addr();
    // Two addresses fill the server with connections that say nothing.
    let idle_a = endpoint("127.0.0.2:0");
    let idle_b = endpoint("127.0.0.3:0");
    let mut idle: Vec<RawClient> = Vec::new();
    for ep in [&idle_a, &idle_b] {
        idle.extend(connect_many(&mut s, &mut pump, ep, addr, 3, WAIT).into_iter().map(|r| r.expect("an idle connection")));
    }
    assert_eq!(s.open_connections(), 6);
    // Players from two other addresses still join: the oldest idle ones go.
    let p1 = endpoint("127.0.0.4:0");
    let p2 = endpoint("127.0.0.5:0");
    let (_c1, conn1) = join(&mut s, &mut pump, &p1, "first");
    let (_c2, conn2) = join(&mut s, &mut pump, &p2, "second");
    let stats = s.admission_stats();
    assert_eq!((stats.evicted, stats.refused_full), (2, 0), "{stats:?}");
    assert_eq!(s.open_connections(), 6);
    let closed = idle.iter_mut().filter(|c| c.wait_closed(Duration::from_millis(500)).is_some()).count();
    assert_eq!(closed, 2, "the two oldest idle connections were closed");
    // More idle connections make room among the idle, never the players.
    let more = endpoint("127.0.0.6:0");
    let _late = connect_many(&mut s, &mut pump, &more, addr, 3, WAIT);
    pump.run(&mut s, Duration::from_millis(300));
    assert!(pump.disconnected(conn1).is_none() && pump.disconnected(conn2).is_none(), "a player lost its connection");
    // With every place held by players or the newest, the server is full.
    let stats = s.admission_stats();
    assert_eq!(stats.evicted, 5, "{stats:?}");
}

#[test]
fn players_join_while_34_addresses_hold_every_connection_they_may() {
    // The default limits: 256 connections, 8 from one address. 34
    // addresses holding 8 each that never say hello would have filled the
    // server (272 > 256) and shut every player out for as long as they held.
    let mut s = server_on("127.0.0.1:0", TransportSettings::default());
    let mut pump = Pump::new();
    let addr: SocketAddr = s.local_addr();
    let endpoints: Vec<RawEndpoint> = (0..34).map(|i| endpoint(&format!("127.0.1.{}:0", i + 1))).collect();
    let mut held = Vec::new();
    for ep in &endpoints {
        for outcome in connect_many(&mut s, &mut pump, ep, addr, 8, WAIT) {
            match outcome {
                Ok(c) => held.push(c),
                // Eight handshakes at once on a loaded machine (the other
                // tests of this file flood in parallel) may outlast the
                // wait; that is the machine, not a refusal, so it is asked
                // again once. A refusal is counted below.
                Err(RawError::Timeout(_)) => held.extend(connect(&mut s, &mut pump, ep, addr, WAIT)),
                Err(e) => panic!("an address was refused one of its 8: {e}"),
            }
        }
    }
    assert_eq!(held.len(), 272, "every address got its 8: the oldest idle made room");
    assert_eq!(s.open_connections(), 256);
    let players: Vec<_> = (0..4).map(|i| endpoint(&format!("127.0.2.{}:0", i + 1))).collect();
    let joined: Vec<(RawClient, ConnId)> = players.iter().enumerate().map(|(i, ep)| join(&mut s, &mut pump, ep, &format!("player{i}"))).collect();
    assert_eq!(joined.len(), 4);
    let stats = s.admission_stats();
    assert_eq!((stats.refused_full, stats.evicted), (0, 20), "{stats:?}");
    pump.run(&mut s, Duration::from_millis(200));
    assert!(joined.iter().all(|(_, conn)| pump.disconnected(*conn).is_none()), "the players stay");
}
