//! The Agones integration end to end (issue 22), against a fake SDK gateway
//! this test serves on 127.0.0.1 (the REST paths the sidecar serves): the
//! real binary with `AGONES_SDK_HTTP_PORT` set says Ready only once its map
//! is loaded, pings Health every 2 s, keeps the `players` and `bots`
//! Counters as humans and bots join and leave, applies an allocation's
//! game type and map, and with `sv_agonesShutdownAtEnd 1` sends Shutdown
//! after its allocated match and exits; in process, Health stops while the
//! tick hangs; the certificate fingerprint is set as an annotation before
//! Ready. Run with `cargo test -p quarry-server --features agones --test agones`.

#![cfg(feature = "agones")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quarry_net::cert::{Fingerprint, ServerVerification};
use quarry_net::handshake::{Hello, PROTOCOL_VERSION};
use quarry_net::transport::{ClientConfig, ClientTransport, TransportSettings};
use quarry_server::server::{Server, ServerOptions};

/// One request the fake gateway received.
#[derive(Debug, Clone)]
struct Request {
    method: String,
    path: String,
    body: String,
    at: Instant,
}

/// A fake Agones SDK gateway: records every request, answers `GET
/// /gameserver` with the GameServer it holds (its state follows `/ready`
/// and `/shutdown` as the sidecar's does) and `{}` to everything else.
struct FakeGateway {
    port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    gameserver: Arc<Mutex<serde_json::Value>>,
}

impl FakeGateway {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let gameserver = Arc::new(Mutex::new(serde_json::json!({
            "object_meta": { "name": "quarry-test", "labels": {}, "annotations": {} },
            "status": { "state": "Scheduled", "address": "127.0.0.1" }
        })));
        let (log, gs) = (Arc::clone(&requests), Arc::clone(&gameserver));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let Some(request) = read_request(&mut stream) else { continue };
                let body = {
                    let mut gs = gs.lock().expect("lock");
                    let state = gs["status"]["state"].as_str().unwrap_or_default().to_owned();
                    match (request.method.as_str(), request.path.as_str()) {
                        ("POST", "/ready") if state != "Allocated" => gs["status"]["state"] = "Ready".into(),
                        ("POST", "/shutdown") => gs["status"]["state"] = "Shutdown".into(),
                        _ => {}
                    }
                    if request.path == "/gameserver" { gs.to_string() } else { "{}".to_owned() }
                };
                log.lock().expect("lock").push(request);
                let _ = write!(stream, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
            }
        });
        Self { port, requests, gameserver }
    }

    fn requests(&self, method: &str, path: &str) -> Vec<Request> {
        self.requests.lock().expect("lock").iter().filter(|r| r.method == method && r.path == path).cloned().collect()
    }

    fn count(&self, method: &str, path: &str) -> usize {
        self.requests(method, path).len()
    }

    /// Bodies of the PATCHes of Counter `name`, in order.
    fn counter(&self, name: &str) -> Vec<String> {
        self.requests("PATCH", &format!("/v1beta1/counters/{name}")).into_iter().map(|r| r.body).collect()
    }

    /// The GameServer becomes Allocated with these annotations.
    fn allocate(&self, annotations: serde_json::Value) {
        let mut gs = self.gameserver.lock().expect("lock");
        gs["object_meta"]["annotations"] = annotations;
        gs["status"]["state"] = "Allocated".into();
    }
}

fn read_request(stream: &mut std::net::TcpStream) -> Option<Request> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw).into_owned();
        let Some((head, body)) = text.split_once("\r\n\r\n") else { continue };
        let len = head
            .lines()
            .find_map(|l| l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case("content-length")).and_then(|(_, v)| v.trim().parse().ok()))
            .unwrap_or(0usize);
        if body.len() < len {
            continue;
        }
        let mut first = head.lines().next().unwrap_or_default().split(' ');
        let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
        return Some(Request { method, path, body: body.to_owned(), at: Instant::now() });
    }
}

/// The server binary talking to `gateway`, on a free port, its stdout kept
/// line by line with the time each line was read.
struct Quarry {
    child: Child,
    stdin: ChildStdin,
    addr: SocketAddr,
    fingerprint: Fingerprint,
    lines: Arc<Mutex<Vec<(Instant, String)>>>,
    _dir: tempfile::TempDir,
}

impl Quarry {
    fn start(gateway: &FakeGateway, extra: &[&str]) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
        let mut child = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
            .arg("--config")
            .arg(dir.path())
            .arg("--maps")
            .arg(&maps)
            .args(["--port", "0", "+set", "g_warmup", "0"])
            .args(extra)
            .env("AGONES_SDK_HTTP_PORT", gateway.port.to_string())
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("listening on udp") {
                    let _ = tx.send(line.clone());
                }
                sink.lock().expect("lock").push((Instant::now(), line));
            }
        });
        let line = rx.recv_timeout(Duration::from_secs(30)).expect("server announces its port");
        // "listening on udp 0.0.0.0:PORT, certificate fingerprint AB:CD:..."
        let port: u16 = line
            .split_whitespace()
            .nth(3)
            .and_then(|a| a.trim_end_matches(',').rsplit(':').next()?.parse().ok())
            .expect("port");
        let fingerprint: Fingerprint = line.rsplit(' ').next().and_then(|f| f.parse().ok()).expect("fingerprint");
        Self { child, stdin, addr: SocketAddr::from(([127, 0, 0, 1], port)), fingerprint, lines, _dir: dir }
    }

    fn console(&mut self, line: &str) {
        let _ = writeln!(self.stdin, "{line}");
    }

    /// When a line containing `text` was first printed (waiting up to `wait`).
    fn wait_for(&self, text: &str, wait: Duration) -> Option<Instant> {
        let end = Instant::now() + wait;
        loop {
            if let Some((at, _)) = self.lines.lock().expect("lock").iter().find(|(_, l)| l.contains(text)) {
                return Some(*at);
            }
            if Instant::now() > end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn output(&self) -> String {
        self.lines.lock().expect("lock").iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n")
    }

    fn join(&self, name: &str) -> ClientTransport {
        let hello = Hello { version: PROTOCOL_VERSION, name: name.into(), password: None, ..Hello::default() };
        let config = ClientConfig { server: self.addr, verification: ServerVerification::Pinned(self.fingerprint), hello, settings: TransportSettings::default() };
        ClientTransport::connect(config).expect("connect")
    }
}

impl Drop for Quarry {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let end = Instant::now() + Duration::from_secs(8);
        while Instant::now() < end {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
    }
}

/// Waits up to `wait` for `f`, then says what it was waiting for.
fn wait_until(what: &str, wait: Duration, mut f: impl FnMut() -> bool) {
    let end = Instant::now() + wait;
    while !f() {
        assert!(Instant::now() < end, "timed out after {wait:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn counter_body(count: u64) -> String {
    format!("{{\"count\":\"{count}\",\"capacity\":\"16\"}}")
}

#[test]
fn ready_comes_once_the_map_loads_health_repeats_and_the_counters_follow_joins_and_leaves() {
    let gateway = FakeGateway::start();
    // The map asked for does not exist: the server runs and listens, with no match.
    let mut server = Quarry::start(&gateway, &["+set", "bot_minPlayers", "0", "+map", "no_such_map"]);
    wait_until("health pings from the running loop", Duration::from_secs(10), || gateway.count("POST", "/health") >= 2);
    assert_eq!(gateway.count("POST", "/ready"), 0, "Ready before any map loaded:\n{}", server.output());
    server.console("map q_dm1");
    let loaded = server.wait_for("q_dm1.map loaded", Duration::from_secs(20)).expect("the map loads");
    wait_until("Ready", Duration::from_secs(10), || gateway.count("POST", "/ready") == 1);
    let ready = gateway.requests("POST", "/ready")[0].clone();
    assert!(ready.at >= loaded - Duration::from_millis(500), "Ready came before the map loaded");
    assert_eq!(ready.body, "{}");
    // The fingerprint annotation went first, so an allocation returns it
    // with the address and port.
    let annotations = gateway.requests("PUT", "/metadata/annotation");
    assert_eq!(annotations.len(), 1, "{annotations:?}");
    let body: serde_json::Value = serde_json::from_str(&annotations[0].body).expect("json");
    assert_eq!(body["key"], "quarry-fingerprint");
    assert_eq!(body["value"], server.fingerprint.to_string());
    assert!(annotations[0].at <= ready.at, "the annotation before Ready");
    assert!(server.output().contains("Agones: ready on q_dm1"), "{}", server.output());
    // The worker reads the GameServer once Ready (for Allocated).
    wait_until("GameServer polls", Duration::from_secs(5), || gateway.count("GET", "/gameserver") >= 2);

    // Health keeps coming, about every 2 s.
    let before = gateway.count("POST", "/health");
    wait_until("three more health pings", Duration::from_secs(12), || gateway.count("POST", "/health") >= before + 3);
    let pings: Vec<Instant> = gateway.requests("POST", "/health").iter().map(|r| r.at).collect();
    for pair in pings[before..].windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap > Duration::from_millis(1500) && gap < Duration::from_millis(3500), "health pings {gap:?} apart");
    }

    // Counters: nobody yet, then bots join and one leaves, then a human.
    wait_until("the first counters", Duration::from_secs(5), || !gateway.counter("players").is_empty() && !gateway.counter("bots").is_empty());
    assert_eq!(gateway.counter("players"), [counter_body(0)]);
    assert_eq!(gateway.counter("bots"), [counter_body(0)]);
    server.console("addbot Alpha");
    server.console("addbot Bravo");
    wait_until("bots 2", Duration::from_secs(10), || gateway.counter("bots").last() == Some(&counter_body(2)));
    server.console("removebot Alpha");
    wait_until("bots 1", Duration::from_secs(10), || gateway.counter("bots").last() == Some(&counter_body(1)));
    let mut client = server.join("visitor");
    let joined = wait_for_counter(&gateway, &mut client, "players", 1);
    assert!(joined, "players never counted the human: {:?}\n{}", gateway.counter("players"), server.output());
    client.disconnect();
    wait_until("players 0 after the human left", Duration::from_secs(10), || gateway.counter("players").last() == Some(&counter_body(0)));
    assert_eq!(gateway.counter("bots").last(), Some(&counter_body(1)), "the bot count moved with the human");
    assert_eq!(gateway.count("POST", "/shutdown"), 0);

    // A graceful quit tells Agones too, before the process exits.
    server.console("quit");
    wait_until("the process exits", Duration::from_secs(10), || matches!(server.child.try_wait(), Ok(Some(_))));
    assert_eq!(gateway.count("POST", "/shutdown"), 1);
}

/// Keeps `client` going until Counter `name` reads `count`.
fn wait_for_counter(gateway: &FakeGateway, client: &mut ClientTransport, name: &str, count: u64) -> bool {
    let end = Instant::now() + Duration::from_secs(15);
    while Instant::now() < end {
        let _ = client.poll_events();
        if gateway.counter(name).last() == Some(&counter_body(count)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn an_allocation_sets_game_type_and_map_and_the_allocated_match_ends_in_shutdown() {
    let gateway = FakeGateway::start();
    // 3-second matches, replaying the same map, with two bots playing.
    let mut server = Quarry::start(
        &gateway,
        &[
            "+set", "sv_agonesShutdownAtEnd", "1", "+set", "timelimit", "0.05", "+set", "g_intermission", "0", "+set", "bot_minPlayers", "2",
            "+set", "sv_mapRotation", "", "+map", "q_dm1",
        ],
    );
    wait_until("Ready", Duration::from_secs(10), || gateway.count("POST", "/ready") == 1);
    // A match that ends before any allocation does not shut the server down.
    server.wait_for("final scores on", Duration::from_secs(20)).expect("the first match ends");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(gateway.count("POST", "/shutdown"), 0, "shut down without an allocation:\n{}", server.output());
    assert!(server.child.try_wait().expect("try_wait").is_none(), "exited without an allocation");

    gateway.allocate(serde_json::json!({ "quarry.gametype": "duel", "quarry.map": "q_duel1" }));
    let allocated = server.wait_for("Agones: allocated (quarry.gametype=duel, quarry.map=q_duel1)", Duration::from_secs(10));
    assert!(allocated.is_some(), "{}", server.output());
    server.wait_for("q_duel1.map loaded", Duration::from_secs(20)).expect("the allocation's map loads");
    let line = server.output().lines().find(|l| l.contains("q_duel1.map loaded")).unwrap_or_default().to_owned();
    assert!(line.contains("g_gametype"), "the game type was not applied with the map: {line}");

    // The allocated match ends: Shutdown, then the process exits 0.
    let status = {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = server.child.try_wait().expect("try_wait") {
                break status;
            }
            assert!(Instant::now() < end, "the server did not exit after its allocated match:\n{}", server.output());
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    assert!(status.success(), "{status:?}\n{}", server.output());
    let out = server.output();
    assert!(out.contains("Agones: the match is over; shutting down (sv_agonesShutdownAtEnd 1)"), "{out}");
    assert_eq!(gateway.count("POST", "/shutdown"), 1, "{out}");
    // The allocation's match was a duel on q_duel1: its scoreboard is the last one printed.
    let last_scores = out.lines().rfind(|l| l.starts_with("final scores on")).unwrap_or_default();
    assert!(last_scores.contains("q_duel1"), "{last_scores}");
}

#[test]
fn health_pings_stop_while_the_tick_hangs_and_resume_after() {
    let gateway = FakeGateway::start();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("tempdir");
    let options = ServerOptions {
        config_dir: dir.path().to_owned(),
        port: Some(0),
        fast: false,
        maps_dir: root.join("maps"),
        seed: Some(1),
        botfiles_dir: None,
    };
    let mut server = Server::new(&options).expect("server");
    server.state.features.get_mut::<quarry_server::agones::Agones>().expect("the Agones controller").connect(gateway.port);
    let plus = quarry_server::cli::split_plus_commands(&["+set".into(), "bot_minPlayers".into(), "0".into(), "+map".into(), "q_dm1".into()]).expect("plus");
    server.startup(&plus);
    server.start_network().expect("network");
    let run_ticks = |server: &mut Server, for_how_long: Duration| {
        let end = Instant::now() + for_how_long;
        while Instant::now() < end {
            server.tick();
            std::thread::sleep(Duration::from_millis(16));
        }
    };
    run_ticks(&mut server, Duration::from_millis(2500));
    wait_until("Ready and two health pings", Duration::from_secs(5), || gateway.count("POST", "/ready") == 1 && gateway.count("POST", "/health") >= 2);

    // The tick hangs for 5 s: no Health, though the SDK thread is alive and polling.
    std::thread::sleep(Duration::from_millis(300));
    let (health, polls) = (gateway.count("POST", "/health"), gateway.count("GET", "/gameserver"));
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(gateway.count("POST", "/health"), health, "Health was pinged while no tick ran");
    assert!(gateway.count("GET", "/gameserver") >= polls + 3, "the SDK thread stopped polling");

    // Ticks again: Health at once (the interval has passed).
    run_ticks(&mut server, Duration::from_millis(200));
    wait_until("Health after the hang", Duration::from_secs(3), || gateway.count("POST", "/health") > health);
    server.shutdown().expect("shutdown");
    assert_eq!(gateway.count("POST", "/shutdown"), 1, "a graceful stop tells Agones");
    assert_eq!(server.state.features.get::<quarry_server::agones::Agones>().expect("the Agones controller").dropped(), 0);
}
