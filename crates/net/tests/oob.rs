//! The game port's out-of-band side on real sockets: Quake 3 and A2S
//! queries answered from the port QUIC clients join on (with a QUIC client
//! joining at the same time), heartbeats to a master that follow the
//! server's occupancy and end at shutdown, and a flood of spoofed-looking
//! sources (many loopback addresses) held to the global byte budget while
//! the master is still answered.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use quarry_net::cert::{Identity, ServerVerification};
use quarry_net::handshake::{Hello, PROTOCOL_VERSION, Welcome};
use quarry_net::oob::{OobInfo, OobLimits, OobPlayer, PREFIX, a2s, q3};
use quarry_net::reliable::DisconnectReason;
use quarry_net::transport::{ClientConfig, ClientTransport, MasterSettings, ServerConfig, ServerEvent, ServerTransport, TransportSettings};

fn server(settings: TransportSettings) -> ServerTransport {
    let identity = Identity::generate().expect("certificate");
    ServerTransport::bind(ServerConfig { bind: "127.0.0.1:0".parse().expect("addr"), identity, settings }).expect("bind")
}

fn info(humans: usize, bots: usize) -> OobInfo {
    let player = |i: usize, bot| OobPlayer { name: format!("p{i}"), score: 1, ping_ms: if bot { 0 } else { 30 }, bot, seconds: 1.0 };
    OobInfo {
        hostname: "Loopback".into(),
        map: "q_dm1".into(),
        gametype: "ffa".into(),
        protocol: PROTOCOL_VERSION,
        max_clients: 8,
        fingerprint: "AB:CD".into(),
        players: (0..humans).map(|i| player(i, false)).chain((0..bots).map(|i| player(i + humans, true))).collect(),
        ..OobInfo::default()
    }
}

fn udp() -> UdpSocket {
    let s = UdpSocket::bind("127.0.0.1:0").expect("udp");
    s.set_read_timeout(Some(Duration::from_secs(2))).expect("timeout");
    s
}

fn ask(s: &UdpSocket, to: SocketAddr, body: &[u8]) -> Vec<u8> {
    let mut d = PREFIX.to_vec();
    d.extend_from_slice(body);
    s.send_to(&d, to).expect("send");
    let mut buf = [0u8; 2048];
    let (n, from) = s.recv_from(&mut buf).expect("an answer");
    assert_eq!(from.port(), to.port(), "answered from the game port");
    buf[..n].to_vec()
}

#[test]
fn queries_and_quic_share_the_game_port() {
    let mut s = server(TransportSettings::default());
    s.publish_oob(&info(1, 2));
    let to = s.local_addr();
    let q = udp();
    let pairs = q3::parse_info_response(&ask(&q, to, b"getinfo h3ll0")).expect("infoResponse");
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone()).unwrap_or_default();
    assert_eq!((get("clients"), get("bots"), get("challenge"), get("gamename")), ("1".into(), "2".into(), "h3ll0".into(), "Quarry".into()));
    let status = ask(&q, to, b"getstatus");
    assert!(status.starts_with(&[&PREFIX[..], b"statusResponse\n"].concat()));
    assert_eq!(String::from_utf8_lossy(&status).lines().count(), 2 + 3, "the infostring and three players");

    // A2S: info at once, players after the challenge.
    let mut a2s_info = vec![a2s::INFO];
    a2s_info.extend_from_slice(a2s::INFO_PAYLOAD);
    assert_eq!(ask(&q, to, &a2s_info)[4], 0x49);
    let challenge = ask(&q, to, &[a2s::PLAYER, 0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(challenge[4], a2s::CHALLENGE);
    let players = ask(&q, to, &[&[a2s::PLAYER][..], &challenge[5..9]].concat());
    assert_eq!((players[4], players[5]), (0x44, 3));

    // A QUIC client joins through the same port meanwhile.
    let hello = Hello { version: PROTOCOL_VERSION, name: "joiner".into(), ..Hello::default() };
    let config = ClientConfig { server: to, verification: ServerVerification::Pinned(s.fingerprint()), hello, settings: TransportSettings::default() };
    let mut client = ClientTransport::connect(config).expect("connect");
    let end = Instant::now() + Duration::from_secs(5);
    let mut joined = false;
    while Instant::now() < end && !joined {
        let _ = client.poll_events();
        for e in s.poll_events() {
            if let ServerEvent::Connected { conn, .. } = e {
                s.accept(conn, &Welcome { slot: 0, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() }).expect("accept");
                joined = true;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(joined, "QUIC still reaches the server");
    assert_eq!(s.oob_stats().answered, 5);
}

/// Waits for the next heartbeat on the fake master; returns its source.
fn heartbeat(master: &UdpSocket) -> SocketAddr {
    let mut buf = [0u8; 256];
    let (n, from) = master.recv_from(&mut buf).expect("a heartbeat");
    assert_eq!(&buf[..n], &q3::heartbeat()[..]);
    from
}

#[test]
fn heartbeats_follow_occupancy_and_end_at_shutdown() {
    let mut s = server(TransportSettings::default());
    s.publish_oob(&info(0, 3));
    let master = udp();
    master.set_read_timeout(Some(Duration::from_secs(3))).expect("timeout");
    s.set_masters(MasterSettings { public: true, masters: vec![master.local_addr().expect("addr").to_string(), String::new()] });
    let from = heartbeat(&master);
    assert_eq!(from.port(), s.local_addr().port(), "from the game port, where the master asks back");
    // The master asks back; the answer carries its challenge.
    master.send_to(&q3::getinfo("m4st3r"), from).expect("send");
    let mut buf = [0u8; 2048];
    let (n, _) = master.recv_from(&mut buf).expect("infoResponse");
    let pairs = q3::parse_info_response(&buf[..n]).expect("parses");
    assert!(pairs.contains(&("challenge".into(), "m4st3r".into())));
    assert!(pairs.contains(&("clients".into(), "0".into())));
    // Bots coming and going change nothing; the first human does.
    s.publish_oob(&info(0, 5));
    s.publish_oob(&info(1, 5));
    let t = Instant::now();
    heartbeat(&master);
    assert!(t.elapsed() < Duration::from_secs(2), "at once, not in 300 s");
    s.shutdown(DisconnectReason::ServerShuttingDown, Duration::from_millis(100));
    heartbeat(&master);
    assert_eq!(s.heartbeat_stats().failed, 0);
}

#[test]
fn a_master_name_is_heartbeated_on_both_address_families() {
    // A master listening on 127.0.0.1 and ::1 at one port; the server's
    // socket is dual-stack, so IPv4 goes out as ::ffff:127.0.0.1.
    let Ok(v6) = UdpSocket::bind("[::1]:0") else {
        return eprintln!("skipping: no IPv6 loopback");
    };
    let port = v6.local_addr().expect("addr").port();
    let Ok(v4) = UdpSocket::bind(("127.0.0.1", port)) else {
        return eprintln!("skipping: port {port} is taken on IPv4");
    };
    // Where `localhost` resolves to both, one name; else one address of each.
    let both = std::net::ToSocketAddrs::to_socket_addrs(&("localhost", port)).map(|a| a.collect::<Vec<_>>()).unwrap_or_default();
    let masters = if both.iter().any(SocketAddr::is_ipv4) && both.iter().any(SocketAddr::is_ipv6) {
        vec![format!("localhost:{port}")]
    } else {
        vec![format!("127.0.0.1:{port}"), format!("[::1]:{port}")]
    };
    let identity = Identity::generate().expect("certificate");
    let Ok(s) = ServerTransport::bind(ServerConfig { bind: "[::]:0".parse().expect("addr"), identity, settings: TransportSettings::default() }) else {
        return eprintln!("skipping: no dual-stack socket");
    };
    s.publish_oob(&info(0, 1));
    s.set_masters(MasterSettings { public: true, masters });
    for (family, socket) in [("IPv4", &v4), ("IPv6", &v6)] {
        socket.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
        let from = heartbeat(socket);
        assert_eq!(from.port(), s.local_addr().port(), "{family}: from the game port");
    }
    assert_eq!(s.heartbeat_stats().addresses, 2);
}

#[test]
fn malformed_datagrams_on_the_port_are_counted_and_get_nothing() {
    let s = server(TransportSettings::default());
    s.publish_oob(&info(1, 1));
    let q = udp();
    q.set_read_timeout(Some(Duration::from_millis(300))).expect("timeout");
    let junk: Vec<Vec<u8>> = vec![
        PREFIX.to_vec(),
        [&PREFIX[..], &[a2s::PLAYER, 1]].concat(),
        [&PREFIX[..], &[0xC3, 0x28, 0xA0]].concat(),
        [&PREFIX[..], &vec![b'g'; 1200]].concat(),
        [&PREFIX[..], b"getinfo bad\\challenge"].concat(),
        [&PREFIX[..], b"rcon secret status"].concat(),
    ];
    for d in &junk {
        q.send_to(d, s.local_addr()).expect("send");
    }
    let mut buf = [0u8; 2048];
    assert!(q.recv_from(&mut buf).is_err(), "no answer to any of them");
    let st = s.oob_stats();
    assert_eq!((st.received, st.answered), (junk.len() as u64, 0), "{st:?}");
    assert_eq!((st.malformed, st.oversized, st.unknown), (4, 1, 1), "{st:?}");
}

#[test]
fn a_flood_from_many_addresses_is_held_to_the_budget() {
    let limits = OobLimits { global_burst_bytes: 8_000.0, global_bytes_per_sec: 8_000.0, ..OobLimits::default() };
    let s = server(TransportSettings { oob_limits: limits, ..TransportSettings::default() });
    s.publish_oob(&info(4, 12));
    let to = s.local_addr();
    let master = udp();
    master.set_read_timeout(Some(Duration::from_secs(3))).expect("timeout");
    s.set_masters(MasterSettings { public: true, masters: vec![master.local_addr().expect("addr").to_string()] });
    let _ = heartbeat(&master); // resolved: the plane knows its address
    master.set_read_timeout(Some(Duration::from_millis(200))).expect("timeout");
    // Loopback is a /8: each socket is a source address of its own.
    let senders: Vec<UdpSocket> = (1..=200u8).filter_map(|i| UdpSocket::bind((std::net::Ipv4Addr::new(127, 0, 1, i), 0)).ok()).collect();
    assert!(senders.len() > 100, "loopback addresses to send from");
    let start = Instant::now();
    let mut sent = 0u64;
    for round in 0..20 {
        for s in &senders {
            let body: &[u8] = if round % 2 == 0 { b"getstatus" } else { b"getinfo x" };
            let d = [&PREFIX[..], body].concat();
            if s.send_to(&d, to).is_ok() {
                sent += d.len() as u64;
            }
        }
    }
    // The budget is spent, yet the master the server heartbeats is
    // answered. Its query is sent again every 200 ms (the socket's
    // receive buffer may still be full of the flood and drop it, and a
    // real master asks again at the next heartbeat).
    let mut buf = [0u8; 2048];
    let end = Instant::now() + Duration::from_secs(4);
    let mut answered = false;
    while Instant::now() < end && !answered {
        master.send_to(&q3::getinfo("still"), to).expect("send");
        if let Ok((n, _)) = master.recv_from(&mut buf) {
            answered = q3::parse_info_response(&buf[..n]).is_ok_and(|p| p.contains(&("challenge".into(), "still".into())));
        }
    }
    assert!(answered, "a flood must not get the server delisted");
    std::thread::sleep(Duration::from_millis(300));
    let stats = s.oob_stats();
    let elapsed = start.elapsed().as_secs_f32();
    assert!(stats.received > 0);
    assert!((stats.bytes_out as f32) <= limits.global_burst_bytes + elapsed * limits.global_bytes_per_sec, "{stats:?} in {elapsed} s");
    assert!(stats.limited_global > 0, "{stats:?}");
    assert!(sent > 0);
}

