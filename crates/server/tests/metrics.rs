//! The Prometheus endpoint through the real binary: `sv_metricsAddr` starts
//! it, a scrape over HTTP returns the text exposition format with the
//! server's figures (ticks, players by team and kind, traffic, round trips,
//! matches, the navmesh, chat, shots by weapon and band), one address holding many idle connections
//! does not keep another scraper out, and a bad address is refused with a
//! message while the server goes on.

mod support;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use quarry_net::reliable::{ChatScope, ClientMessage};
use quarry_sim::{Buttons, UserCmd};
use support::TestServer;

/// GETs `path` from `addr` (from `source` when given) and returns (head, body).
fn get(addr: SocketAddr, source: Option<std::net::IpAddr>, path: &str) -> (String, String) {
    let stream = match source {
        Some(ip) => {
            let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("socket");
            socket.bind(&SocketAddr::new(ip, 0).into()).expect("bind the source address");
            socket.connect_timeout(&addr.into(), Duration::from_secs(5)).expect("connect");
            TcpStream::from(socket)
        }
        None => TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect"),
    };
    let mut stream = stream;
    stream.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read the response");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (head.to_owned(), body.to_owned())
}

/// The value of the sample `name{labels}` (labels as encoded), if present.
fn sample(text: &str, name_and_labels: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(name_and_labels)?.strip_prefix(' ')?.split_whitespace().next()?.parse().ok())
}

#[test]
fn metrics_are_scraped_over_http() {
    let mut server = TestServer::start(&["+set", "sv_metricsAddr", "127.0.0.1:0", "+set", "bot_minPlayers", "3"]);
    assert!(server.wait_for(0, "metrics on http://", Duration::from_secs(10)), "{}", server.output());
    let line = server.output().lines().find(|l| l.starts_with("metrics on http://")).map(str::to_owned).expect("the metrics line");
    let addr: SocketAddr = line.trim_start_matches("metrics on http://").trim_end_matches("/metrics").parse().expect("an address");
    let mut client = server.client("watcher", None);
    let start = Instant::now();
    let mut chatted = false;
    while start.elapsed() < Duration::from_secs(4) {
        let _ = client.poll_events();
        let tick = client.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
        if client.is_connected() {
            // Holding attack: the watcher's shots reach the accuracy counters.
            let _ = client.send_cmd(UserCmd { tick, buttons: Buttons::ATTACK, ..UserCmd::default() });
            if !chatted {
                chatted = client.send_reliable(&ClientMessage::Chat { scope: ChatScope::All, text: "counting".into() }).is_ok();
            }
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    // One address holding many idle connections keeps nobody else out.
    let mut hogs: Vec<TcpStream> = (0..20).filter_map(|_| TcpStream::connect(addr).ok()).collect();
    let (head, body) = get(addr, Some([127, 0, 0, 2].into()), "/metrics");
    // The connections past the address's limit were closed unanswered.
    let closed = hogs
        .iter_mut()
        .map(|h| {
            let _ = h.set_read_timeout(Some(Duration::from_millis(300)));
            match h.read(&mut [0u8; 1]) {
                Ok(n) => n == 0,
                // Still open, waiting for a request.
                Err(e) => !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
            }
        })
        .filter(|closed| *closed)
        .count();
    assert!(closed >= 10, "only {closed} of 20 connections from one address were closed");
    drop(hogs);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_ascii_lowercase().contains("content-type: application/openmetrics-text"), "{head}");
    assert!(body.trim_end().ends_with("# EOF"), "{body}");
    // Every sample line is NAME{LABELS} VALUE with a quarry_ name and a number.
    for l in body.lines().filter(|l| !l.starts_with('#')) {
        let (name, value) = l.rsplit_once(' ').unwrap_or_else(|| panic!("not a sample: {l}"));
        assert!(name.starts_with("quarry_"), "{l}");
        assert!(value.parse::<f64>().is_ok(), "{l}");
    }
    let want = |key: &str| sample(&body, key).unwrap_or_else(|| panic!("no {key} in\n{body}"));
    assert!(want("quarry_tick_duration_seconds_count") > 100.0);
    assert!(body.contains("# TYPE quarry_tick_duration_seconds histogram"), "{body}");
    assert_eq!(want("quarry_players{team=\"free\",kind=\"human\"}"), 1.0);
    assert_eq!(want("quarry_players{team=\"free\",kind=\"bot\"}"), 2.0);
    assert!(want("quarry_network_bytes_total{direction=\"out\"}") > 1000.0);
    assert!(want("quarry_network_bytes_total{direction=\"in\"}") > 100.0);
    assert!(want("quarry_client_rtt_seconds_count") >= 1.0);
    assert_eq!(want("quarry_matches_total{gametype=\"ffa\"}"), 1.0);
    assert!(want("quarry_navmesh_nodes") > 100.0);
    assert!(want("quarry_navmesh_build_seconds") > 0.0);
    assert_eq!(want("quarry_chat_lines_total{from=\"player\"}"), 1.0);
    // The watcher's machinegun, in whatever band its aim fell, labelled human.
    let shots: f64 = body
        .lines()
        .filter(|l| l.starts_with("quarry_weapon_shots_total{weapon=\"machinegun\",") && l.contains("player=\"human\"}"))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum();
    assert!(shots >= 10.0, "the watcher's shots are not counted:\n{body}");
    assert!(body.contains("# TYPE quarry_weapon_damage counter"), "{body}");
    assert!(sample(&body, "quarry_network_dropped_total{class=\"handshake\",reason=\"server_full\"}").is_some(), "{body}");
    // The index answers; other paths are not found. (From other addresses:
    // the idle ones may not all be gone yet.)
    assert!(get(addr, Some([127, 0, 0, 3].into()), "/").0.starts_with("HTTP/1.1 200"));
    assert!(get(addr, Some([127, 0, 0, 3].into()), "/nothing").0.starts_with("HTTP/1.1 404"));
    // A bad address is refused with what is allowed; the server goes on.
    let from = server.output_lines();
    server.console("set sv_metricsAddr nonsense");
    assert!(server.wait_for(from, "is not an address (give HOST:PORT", Duration::from_secs(5)), "{}", server.output());
    assert!(server.is_running());
    assert!(TcpStream::connect(addr).is_err(), "the old endpoint closed");
}
