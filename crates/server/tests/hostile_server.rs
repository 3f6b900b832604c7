//! Hostile peers against the `quarry-server` binary: a client that stops
//! reading while it floods 16 kB commands, floods of every message kind,
//! malformed frames and junk datagrams, a connection flood, password
//! guessing, an IPv6 client and a kick. Each test keeps two well-behaved
//! players connected from another address throughout and checks that the
//! server stays inside its memory and tick budgets and that those players
//! keep their commands and snapshots.
//!
//! The tests take turns (one lock) so that each attack's tick figures are
//! its own, not its neighbours'.

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use quarry_net::cert::ServerVerification;
use quarry_net::handshake::{Hello, PROTOCOL_VERSION};
use quarry_net::reliable::{ChatScope, ClientFrame, ClientMessage, ServerFrame};
use quarry_net::transport::raw::{RawClient, RawEndpoint};
use quarry_net::transport::{ClientConfig, ClientEvent, ClientOptions, ClientTransport, TransportSettings};
use quarry_sim::UserCmd;

mod support;
use support::{Status, TestServer};

const WAIT: Duration = Duration::from_secs(5);
/// Memory one hostile client may cost the server (the bar).
const RSS_BUDGET_KIB: u64 = 16 * 1024;
/// Tick work p99 under attack: within one 60 Hz tick, so the server keeps
/// its rate. (The attacks here measured 1-4.5 ms in a debug build; the
/// bound leaves room for a virtual machine whose host steals CPU, which
/// shows up as tick time.)
const P99_BUDGET_MS: f64 = 16.0;
/// Where the well-behaved players connect from (the attackers use 127.0.0.1).
const GOOD_ADDR: [u8; 4] = [127, 0, 0, 2];

static TURN: Mutex<()> = Mutex::new(());

fn turn() -> MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Counters for one well-behaved player.
#[derive(Default)]
struct Counts {
    snapshots: AtomicU64,
    sent: AtomicU64,
    disconnected: AtomicBool,
}

/// Two players from [`GOOD_ADDR`] that run about, sending a command every
/// 16 ms and counting the snapshots they get, on their own thread.
struct GoodPlayers {
    names: Vec<String>,
    counts: Vec<Arc<Counts>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// The good players' counters at one moment.
#[derive(Debug, Clone)]
struct Mark {
    at: Instant,
    snapshots: Vec<u64>,
    sent: Vec<u64>,
    accepted: Vec<u64>,
}

impl GoodPlayers {
    fn join(server: &TestServer) -> Self {
        let names: Vec<String> = ["good1", "good2"].iter().map(|s| (*s).to_owned()).collect();
        let counts: Vec<Arc<Counts>> = names.iter().map(|_| Arc::new(Counts::default())).collect();
        let mut clients: Vec<ClientTransport> = names
            .iter()
            .map(|n| {
                let config = ClientConfig {
                    server: server.addr,
                    verification: ServerVerification::Pinned(server.fingerprint),
                    hello: Hello { version: PROTOCOL_VERSION, name: n.clone(), password: Some("secret".into()), ..Hello::default() },
                    settings: TransportSettings::default(),
                };
                let options = ClientOptions { runtime: None, local: Some(SocketAddr::from((GOOD_ADDR, 0))) };
                ClientTransport::connect_with(config, options).expect("connect")
            })
            .collect();
        let stop = Arc::new(AtomicBool::new(false));
        let (stop2, counts2) = (Arc::clone(&stop), counts.clone());
        let thread = std::thread::spawn(move || {
            let mut n = 0u32;
            while !stop2.load(Ordering::Relaxed) {
                n += 1;
                for (c, k) in clients.iter_mut().zip(&counts2) {
                    for e in c.poll_events() {
                        match e {
                            ClientEvent::Snapshot(_) => {
                                k.snapshots.fetch_add(1, Ordering::Relaxed);
                            }
                            ClientEvent::Disconnected(_) => k.disconnected.store(true, Ordering::Relaxed),
                            _ => {}
                        }
                    }
                    if c.is_connected() {
                        // A command per frame, numbered by the client's own frame count.
                        let cmd = UserCmd { tick: n, forward: 127, yaw: (n % 360) as f32, ..UserCmd::default() };
                        if c.send_cmd(cmd).is_ok() {
                            k.sent.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(16));
            }
        });
        let players = Self { names, counts, stop, thread: Some(thread) };
        let end = Instant::now() + WAIT;
        while players.counts.iter().any(|c| c.snapshots.load(Ordering::Relaxed) < 30) {
            assert!(Instant::now() < end, "the good players did not get going: {}", server.output());
            std::thread::sleep(Duration::from_millis(50));
        }
        players
    }

    fn mark(&self, server: &mut TestServer) -> Mark {
        let status = server.status();
        Mark {
            at: Instant::now(),
            snapshots: self.counts.iter().map(|c| c.snapshots.load(Ordering::Relaxed)).collect(),
            sent: self.counts.iter().map(|c| c.sent.load(Ordering::Relaxed)).collect(),
            accepted: self.names.iter().map(|n| status.cmds_of(n)).collect(),
        }
    }

    /// Checks that between `a` and `b` both players stayed, got at least
    /// 20 snapshots a second (of 30) and had 90 % of their commands taken.
    fn check_kept_playing(&self, a: &Mark, b: &Mark, what: &str) {
        let secs = b.at.duration_since(a.at).as_secs_f64();
        for (i, name) in self.names.iter().enumerate() {
            assert!(!self.counts[i].disconnected.load(Ordering::Relaxed), "{what}: {name} was disconnected");
            let snaps = (b.snapshots[i] - a.snapshots[i]) as f64 / secs;
            let sent = b.sent[i] - a.sent[i];
            let accepted = b.accepted[i].saturating_sub(a.accepted[i]);
            eprintln!("{what}: {name}: {snaps:.1} snapshots/s, {accepted} of {sent} commands taken over {secs:.1} s");
            assert!(snaps >= 20.0, "{what}: {name} got {snaps:.1} snapshots/s");
            assert!(accepted * 10 >= sent * 9, "{what}: {name} had {accepted} of {sent} commands taken");
        }
    }

    /// After an attack that began at `a`: the server's budgets (RSS from
    /// `rest_kib` to `peak_kib`, tick time) and the good players' share;
    /// returns the server's status.
    fn check_after(&self, server: &mut TestServer, a: &Mark, rest_kib: u64, peak_kib: u64, what: &str) -> Status {
        let b = self.mark(server);
        let status = check_budgets(server, rest_kib, peak_kib, what);
        self.check_kept_playing(a, &b, what);
        status
    }
}

impl Drop for GoodPlayers {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A server with two bots and the two good players, warmed up; returns
/// them with the server's resting RSS.
fn setup(extra: &[&str]) -> (TestServer, GoodPlayers, u64) {
    let mut args = vec!["+set", "bot_minPlayers", "4", "+set", "sv_password", "secret"];
    args.extend_from_slice(extra);
    args.push("+map_restart");
    let server = TestServer::start(&args);
    let good = GoodPlayers::join(&server);
    std::thread::sleep(Duration::from_secs(1));
    let rss = server.rss_kib();
    (server, good, rss)
}

/// Samples the server's RSS every 100 ms while `attack` runs; returns the peak.
fn peak_rss_during(server: &TestServer, attack: impl FnOnce() + Send) -> u64 {
    let done = AtomicBool::new(false);
    let mut peak = server.rss_kib();
    std::thread::scope(|s| {
        s.spawn(|| {
            attack();
            done.store(true, Ordering::Relaxed);
        });
        while !done.load(Ordering::Relaxed) {
            peak = peak.max(server.rss_kib());
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    peak.max(server.rss_kib())
}

/// Asserts the memory and tick budgets after an attack.
fn check_budgets(server: &mut TestServer, rest_kib: u64, peak_kib: u64, what: &str) -> Status {
    let status = server.status();
    let grew = peak_kib.saturating_sub(rest_kib);
    eprintln!(
        "{what}: RSS {} KiB at rest, peak {} KiB (+{grew} KiB); tick p99 {:.2} ms, max {:.2} ms, {:.2} Hz, {} late",
        rest_kib, peak_kib, status.p99_ms, status.max_ms, status.rate_hz, status.late
    );
    assert!(server.is_running(), "{what}: the server died");
    assert!(grew < RSS_BUDGET_KIB, "{what}: RSS grew by {grew} KiB");
    assert!(status.p99_ms < P99_BUDGET_MS, "{what}: tick p99 {} ms\n{}", status.p99_ms, status.text);
    assert!(status.rate_hz > 57.0, "{what}: {} Hz\n{}", status.rate_hz, status.text);
    status
}

/// A raw client endpoint on 127.0.0.1 (the attackers' address).
fn raw_endpoint() -> RawEndpoint {
    raw_endpoint_on([127, 0, 0, 1])
}

fn raw_endpoint_on(ip: [u8; 4]) -> RawEndpoint {
    RawEndpoint::bind(SocketAddr::from((ip, 0)), ServerVerification::accept_any_for_development(), &TransportSettings::default())
        .expect("client endpoint")
}

fn hello(name: &str) -> ClientFrame {
    ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: name.into(), password: Some("secret".into()), ..Hello::default() })
}

/// Joins as `name` through the raw client and reads until the welcome.
fn raw_join(ep: &RawEndpoint, server: &TestServer, name: &str) -> RawClient {
    let mut c = ep.connect(server.addr, WAIT).expect("connect");
    c.send_frame(&hello(name), WAIT).expect("hello");
    let end = Instant::now() + WAIT;
    loop {
        if let Ok(frames) = c.read_frames(Duration::from_millis(20))
            && frames.iter().any(|f| matches!(f, ServerFrame::Welcome(_)))
        {
            return c;
        }
        assert!(Instant::now() < end, "{name} got no welcome: {}", server.output());
    }
}

/// How long the deaf client floods: `QUARRY_HOSTILE_SECONDS`, default 6
/// (the figure was taken over 58 s).
fn attack_seconds() -> Duration {
    Duration::from_secs(std::env::var("QUARRY_HOSTILE_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(6))
}

#[test]
fn a_deaf_client_flooding_16k_commands_costs_the_server_little_memory() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let ep = raw_endpoint();
    let mut deaf = raw_join(&ep, &server, "deaf");
    let a = good.mark(&mut server);
    // Before: 100 commands of 16 kB a second from a client that never
    // reads raised RSS by 1.7 MB/s, and it stayed after the client left.
    let big = ClientFrame::Message(ClientMessage::Command(format!("say {}", "x".repeat(16 * 1024))));
    let mut sent = 0;
    let peak = peak_rss_during(&server, || {
        let start = Instant::now();
        while start.elapsed() < attack_seconds() {
            if deaf.send_frame(&big, Duration::from_millis(200)).is_ok() {
                sent += 1;
            }
            std::thread::sleep(Duration::from_millis(10));
            if deaf.close_reason().is_some() {
                break;
            }
        }
    });
    eprintln!("deaf client: {sent} commands of 16 kB sent, closed: {:?}", deaf.close_reason());
    good.check_after(&mut server, &a, rest, peak, "16 kB commands from a deaf client");
}

#[test]
fn floods_of_each_message_kind_are_cut_off_and_stay_out_of_the_log() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let ep = raw_endpoint();
    let kinds: [(&str, ClientMessage); 6] = [
        ("cmd", ClientMessage::Command("score".into())),
        ("kill", ClientMessage::Command("kill".into())),
        ("team", ClientMessage::Command("team spectator".into())),
        ("rename", ClientMessage::UserInfo(vec![("name".into(), "renamed".into())])),
        ("chat", ClientMessage::Chat { scope: ChatScope::All, text: "spam".into() }),
        ("maploaded", ClientMessage::MapLoaded("q_dm1".into())),
    ];
    let a = good.mark(&mut server);
    let mut peak = rest;
    for (kind, msg) in kinds {
        let mut c = raw_join(&ep, &server, &format!("flood_{kind}"));
        let lines = server.output_lines();
        let frame = ClientFrame::Message(msg);
        // Before: 1,000 a second were each answered (2,001 log lines in 10 s).
        peak = peak.max(peak_rss_during(&server, || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(3) && c.close_reason().is_none() {
                for _ in 0..10 {
                    let _ = c.send_frame(&frame, Duration::from_millis(100));
                }
                let _ = c.read_frames(Duration::from_millis(10));
            }
        }));
        let reason = c.wait_closed(WAIT).map(|r| r.to_string());
        let logged = server.output_since(lines).len();
        eprintln!("{kind} flood: closed with {reason:?}; {logged} lines in the server log");
        assert!(reason.as_deref().is_some_and(|r| r.contains("flooding")), "{kind}: {reason:?}");
        assert!(logged <= 40, "{kind}: {logged} log lines:\n{}", server.output_since(lines).join("\n"));
    }
    good.check_after(&mut server, &a, rest, peak, "message floods");
}

#[test]
fn malformed_frames_and_junk_datagrams_cost_only_their_sender() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let ep = raw_endpoint();
    let a = good.mark(&mut server);
    let encoded = |frame: ClientFrame| {
        let mut f = Vec::new();
        quarry_net::codec::encode_frame(&frame.encode(), &mut f);
        f
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("oversized frame", vec![0xff, 0xff, 0xff, 0x7f]),
        ("bad length varint", vec![0xff; 12]),
        ("unknown tag", vec![3, 0xee, 1, 2]),
        ("10 kB name", encoded(hello(&"n".repeat(10 * 1024)))),
        ("wrong version", encoded(ClientFrame::Hello(Hello { version: PROTOCOL_VERSION + 7, ..Hello::default() }))),
        ("message before hello", encoded(ClientFrame::Message(ClientMessage::Command("kill".into())))),
    ];
    let peak = peak_rss_during(&server, || {
        for (what, bytes) in &cases {
            let mut c = ep.connect(server.addr, WAIT).expect("connect");
            let _ = c.write(bytes, WAIT);
            for i in 0..200u8 {
                c.send_datagram(&[i; 60]);
            }
            let closed = c.wait_closed(WAIT);
            assert!(closed.is_some() || *what == "10 kB name", "{what}: the connection stayed open");
            c.close();
        }
        // And 20,000 datagrams that are not QUIC at all, straight at the port.
        let udp = UdpSocket::bind("127.0.0.1:0").expect("udp");
        let mut x = 0x1234_5678u32;
        for i in 0..20_000usize {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let len = 1 + (x as usize % 1400);
            let junk: Vec<u8> = (0..len).map(|j| (x as usize + j) as u8).collect();
            let _ = udp.send_to(&junk, server.addr);
            if i % 500 == 0 {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let status = good.check_after(&mut server, &a, rest, peak, "malformed frames and junk");
    assert_eq!(status.humans, 2, "{}", status.text);
}

#[test]
fn a_spoofed_initial_draws_less_back_than_it_sent() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let a = good.mark(&mut server);
    // Catch a real client's first flight (a padded QUIC Initial) ...
    let catcher = UdpSocket::bind("127.0.0.1:0").expect("udp");
    catcher.set_read_timeout(Some(WAIT)).expect("timeout");
    let target = catcher.local_addr().expect("addr");
    let ep = raw_endpoint();
    let initial = std::thread::scope(|s| {
        let attempt = s.spawn(|| ep.connect(target, Duration::from_millis(300)));
        let mut buf = [0u8; 2048];
        let got = catcher.recv(&mut buf).map(|n| buf[..n].to_vec()).expect("the client's Initial");
        let _ = attempt.join();
        got
    });
    // ... and replay it at the server from an address that will never answer.
    let victim = UdpSocket::bind("127.0.0.1:0").expect("udp");
    victim.set_read_timeout(Some(Duration::from_millis(100))).expect("timeout");
    victim.send_to(&initial, server.addr).expect("send");
    let (mut back, mut packets) = (0, 0);
    let end = Instant::now() + Duration::from_secs(2);
    let mut buf = [0u8; 2048];
    while Instant::now() < end {
        if let Ok(n) = victim.recv(&mut buf) {
            back += n;
            packets += 1;
        }
    }
    // Before: 1,200 bytes drew 3,738 back (3.1 times).
    eprintln!("spoofed Initial: {} bytes sent, {back} bytes in {packets} packets back", initial.len());
    assert!(initial.len() >= 1200, "not a padded Initial: {} bytes", initial.len());
    assert!(back < initial.len(), "{back} bytes back for {}", initial.len());
    good.check_after(&mut server, &a, rest, rest, "spoofed Initial");
}

#[test]
fn a_connection_flood_from_one_address_is_capped_and_leaves_no_slot_behind() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let ep = raw_endpoint();
    let a = good.mark(&mut server);
    let mut up = Vec::new();
    let peak = peak_rss_during(&server, || {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..60).map(|_| s.spawn(|| ep.connect(server.addr, Duration::from_secs(3)))).collect();
            up = handles.into_iter().filter_map(|h| h.join().ok()?.ok()).collect::<Vec<_>>();
        });
        for (i, c) in up.iter_mut().enumerate() {
            let _ = c.send_frame(&hello(&format!("crowd{i}")), WAIT);
        }
        std::thread::sleep(Duration::from_millis(500));
    });
    let during = server.status();
    eprintln!("connection flood: {} of 60 up; {} humans; refused {} per address", up.len(), during.humans, during.refused_per_address);
    assert!(up.len() <= 8, "{} connections from one address", up.len());
    assert!(during.refused_per_address >= 52, "{}", during.text);
    drop(up);
    std::thread::sleep(Duration::from_secs(1));
    let status = good.check_after(&mut server, &a, rest, peak, "connection flood");
    assert_eq!((status.humans, status.open_connections), (2, 2), "slots left behind:\n{}", status.text);
}

#[test]
fn password_guessing_is_locked_out_and_others_still_join() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let a = good.mark(&mut server);
    let mut refusals = Vec::new();
    let peak = peak_rss_during(&server, || {
        let ep = raw_endpoint();
        for i in 0..40 {
            let Ok(mut c) = ep.connect(server.addr, WAIT) else { continue };
            let guess = ClientFrame::Hello(Hello { version: PROTOCOL_VERSION, name: "guesser".into(), password: Some(format!("guess{i}")), ..Hello::default() });
            let _ = c.send_frame(&guess, WAIT);
            refusals.push(c.wait_closed(WAIT).map(|r| r.to_string()).unwrap_or_default());
        }
    });
    let locked = refusals.iter().filter(|r| r.contains("too many wrong passwords")).count();
    let wrong = refusals.iter().filter(|r| r.ends_with("wrong password")).count();
    eprintln!("password guessing: {wrong} told wrong password, {locked} locked out: {:?}", refusals.last());
    assert!(wrong <= 8, "{wrong} guesses were checked");
    assert!(locked >= 30, "{refusals:?}");
    // The right password from the locked-out address waits too; another address joins.
    let mut right = raw_endpoint().connect(server.addr, WAIT).expect("connect");
    right.send_frame(&hello("guesser"), WAIT).expect("hello");
    let refused = right.wait_closed(WAIT).map(|r| r.to_string()).unwrap_or_default();
    assert!(refused.contains("too many wrong passwords"), "the locked-out address got in: {refused}");
    let _other = raw_join(&raw_endpoint_on([127, 0, 0, 3]), &server, "elsewhere");
    let status = good.check_after(&mut server, &a, rest, peak, "password guessing");
    assert!(status.lockouts >= 30, "{}", status.text);
}

#[test]
fn an_ipv6_client_joins_the_same_port() {
    let _turn = turn();
    let (server, _good, _rest) = setup(&[]);
    let v6 = SocketAddr::from(([0u16, 0, 0, 0, 0, 0, 0, 1], server.addr.port()));
    if UdpSocket::bind("[::1]:0").is_err() {
        eprintln!("no IPv6 loopback here; skipped");
        return;
    }
    let mut c = server.client_at(v6, "six", Some("secret"));
    let end = Instant::now() + WAIT;
    let mut welcomed = false;
    while !welcomed && Instant::now() < end {
        welcomed = c.wait_events(Duration::from_millis(50)).iter().any(|e| matches!(e, ClientEvent::Welcomed(_)));
    }
    assert!(welcomed, "[::1] could not join: {}", server.output());
}

#[test]
fn kick_closes_a_client_that_does_not_read() {
    let _turn = turn();
    let (mut server, good, rest) = setup(&[]);
    let ep = raw_endpoint();
    let deaf = raw_join(&ep, &server, "deaf");
    std::thread::sleep(Duration::from_millis(500));
    let a = good.mark(&mut server);
    let t0 = Instant::now();
    server.console("kick deaf");
    let reason = deaf.wait_closed(Duration::from_secs(3));
    eprintln!("kick: closed after {:?} with {reason:?}", t0.elapsed());
    assert!(reason.is_some_and(|r| r.to_string().contains("kicked")), "still open 3 s after the kick");
    std::thread::sleep(Duration::from_millis(500));
    let status = good.check_after(&mut server, &a, rest, rest, "kick");
    assert_eq!(status.humans, 2, "{}", status.text);
}
