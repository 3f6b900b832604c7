//! The live web view end to end over HTTP: the real binary serves the
//! embedded page and a stream of frames that shows the match's players,
//! the bots' minds, the feed and the map layer; a password guards it; an
//! address beyond loopback without one is refused, and guessing it is
//! locked out by address and logged; a viewer that stops reading is
//! dropped; a recording plays in it with pause, speed and seek; with every
//! stream taken, or a slowloris from several addresses, the page and its
//! requests still answer at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

mod support;
use support::TestServer;

/// The address the server printed for its web view.
fn web_addr(server: &TestServer) -> SocketAddr {
    let start = Instant::now();
    loop {
        let out = server.output();
        if let Some(addr) = out.lines().find_map(|l| l.strip_prefix("web view on http://")).and_then(|a| a.trim_end_matches('/').parse().ok()) {
            return addr;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no web view line:\n{out}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One GET: the status code and, for a page, the whole body.
fn get(addr: SocketAddr, path: &str, auth: Option<&str>) -> (u16, String) {
    request(addr, "GET", path, auth)
}

/// One request: the status code and the whole response.
fn request(addr: SocketAddr, method: &str, path: &str, auth: Option<&str>) -> (u16, String) {
    request_from(addr, None, method, path, auth)
}

/// A connection to `addr` from `source` (any of 127.0.0.0/8 on Linux), or
/// from the default address.
fn connect_from(addr: SocketAddr, source: Option<[u8; 4]>) -> std::io::Result<TcpStream> {
    let Some(ip) = source else { return TcpStream::connect_timeout(&addr, Duration::from_secs(5)) };
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::from((ip, 0)).into())?;
    socket.connect_timeout(&addr.into(), Duration::from_secs(5))?;
    Ok(socket.into())
}

/// [`request`] from `source`.
fn request_from(addr: SocketAddr, source: Option<[u8; 4]>, method: &str, path: &str, auth: Option<&str>) -> (u16, String) {
    let mut s = connect_from(addr, source).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let auth = auth.map(|a| format!("Authorization: Basic {a}\r\n")).unwrap_or_default();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n").expect("send");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let code = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, text)
}

/// Frames from the stream until `done` says enough (at most `wait`).
fn frames(addr: SocketAddr, wait: Duration, mut done: impl FnMut(&serde_json::Value) -> bool) -> Option<serde_json::Value> {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(2))).expect("timeout");
    write!(s, "GET /frames HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n").expect("send");
    let reader = BufReader::new(s);
    let start = Instant::now();
    for line in reader.lines() {
        if start.elapsed() > wait {
            return None;
        }
        let Ok(line) = line else { continue };
        if let Some(data) = line.strip_prefix("data: ")
            && let Ok(frame) = serde_json::from_str::<serde_json::Value>(data)
            && done(&frame)
        {
            return Some(frame);
        }
    }
    None
}

#[test]
fn the_page_and_its_frames_show_the_match() {
    let server = TestServer::start(&["+set", "sv_webAddr", "127.0.0.1:0", "+set", "bot_minPlayers", "3"]);
    let addr = web_addr(&server);
    let (code, page) = get(addr, "/", None);
    assert_eq!(code, 200, "{page}");
    assert!(page.contains("<canvas") && page.contains("EventSource(\"frames\")"), "the page is served whole");
    assert!(!page.contains("http://") && !page.contains("https://"), "no CDN: everything is embedded");
    let frame = frames(addr, Duration::from_secs(20), |f| f["players"].as_array().is_some_and(|p| p.len() == 3)).expect("a frame with the three bots");
    assert_eq!(frame["map"], "q_dm1");
    let players = frame["players"].as_array().expect("players");
    assert!(players.iter().all(|p| p["bot"] == true && p["pos"].is_array()), "{frame}");
    assert_eq!(frame["bots"].as_array().map(Vec::len), Some(0), "no mind until a viewer asks: {frame}");
    // A viewer asks for one bot's mind: from then on the frames carry it.
    let slot = players[0]["slot"].as_u64().expect("slot");
    assert_eq!(request(addr, "POST", &format!("/mind?slot={slot}&on=1"), None).0, 200);
    let (code, text) = request(addr, "POST", "/mind?slot=999", None);
    assert!(code == 400 && text.contains("out of range"), "{text}");
    let frame = frames(addr, Duration::from_secs(10), |f| f["bots"].as_array().is_some_and(|b| b.len() == 1)).expect("a frame with the mind asked for");
    assert_eq!(frame["bots"][0]["slot"].as_u64(), Some(slot), "{frame}");
    assert!(frame["items"].as_array().is_some_and(|i| !i.is_empty()), "the map's items");
    // The floor the frames go with: the navmesh's nodes.
    let frame = frames(addr, Duration::from_secs(30), |f| f["floor"].as_u64().is_some_and(|g| g > 0)).expect("a frame naming a ready floor");
    let (code, text) = get(addr, "/map", None);
    assert_eq!(code, 200, "{text}");
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    let map: serde_json::Value = serde_json::from_str(body.trim()).expect("map JSON");
    assert_eq!(map["id"], frame["floor"], "the floor is the one the frame names");
    let floor = map["floor"].as_array().expect("floor");
    assert!(floor.len() > 300 && floor.len().is_multiple_of(3), "nodes as x, y, z: {}", floor.len());
    // The navmesh's links by kind, as pairs of node indices into the floor.
    let nodes = floor.len() / 3;
    let walk = map["links"]["walk"].as_array().expect("walk links");
    assert!(walk.len() > nodes / 2 && walk.len().is_multiple_of(2), "walk links: {}", walk.len());
    assert!(walk.iter().all(|i| i.as_u64().is_some_and(|i| (i as usize) < nodes)), "links name nodes of the floor");
    assert!(map["movers"].is_array(), "the movers' bounds: {}", map["movers"]);
    let spawns = map["spawns"].as_array().expect("spawns");
    assert!(!spawns.is_empty() && spawns.iter().all(|s| s.as_array().is_some_and(|s| s.len() == 5)), "spawns as x, y, z, yaw, team: {spawns:?}");
    // The mind asked for carries what the bot perceives; every frame the
    // feed and the history's revision, which /history serves.
    let frame = frames(addr, Duration::from_secs(20), |f| f["history"].as_u64().is_some_and(|h| h > 0) && f["bots"].as_array().is_some_and(|b| b.len() == 1)).expect("a frame naming the history");
    let bot = &frame["bots"][0];
    assert!(bot["fov"].as_u64().is_some_and(|f| f >= 60), "{bot}");
    assert!(bot["tracks"].is_array() && frame["feed"].is_array(), "{frame}");
    let (code, text) = get(addr, "/history", None);
    assert_eq!(code, 200, "{text}");
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    let history: serde_json::Value = serde_json::from_str(body.trim()).expect("history JSON");
    assert!(history["rev"].as_u64().is_some_and(|r| r > 0) && history["deaths"].is_array() && history["stuck"].is_array(), "{history}");
    // Without a recording playing there is nothing to control.
    assert_eq!(request(addr, "POST", "/control?op=pause", None).0, 404);
}

#[test]
fn a_viewer_that_stops_reading_is_dropped() {
    let server = TestServer::start(&["+set", "sv_webAddr", "127.0.0.1:0", "+set", "bot_minPlayers", "4", "+set", "sv_webRate", "30"]);
    let addr = web_addr(&server);
    // A small receive window, so the server's side fills quickly.
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("socket");
    socket.set_recv_buffer_size(8 * 1024).expect("recv buffer");
    socket.connect(&addr.into()).expect("connect");
    let mut stalled: TcpStream = socket.into();
    write!(stalled, "GET /frames HTTP/1.1\r\nHost: {addr}\r\n\r\n").expect("send");
    // Meanwhile a viewer that reads keeps getting frames.
    let reading = frames(addr, Duration::from_secs(20), |f| f["players"].as_array().is_some_and(|p| p.len() == 4));
    assert!(reading.is_some(), "a reading viewer gets frames");
    // The stalled one: its buffers fill, a write waits past the limit, and
    // the server drops it (`status` counts who is watching).
    let mut server = server;
    let start = Instant::now();
    loop {
        let status = server.status();
        if status.text.contains(", 0 watching") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the stalled viewer is still served:\n{}", status.text);
        std::thread::sleep(Duration::from_millis(500));
    }
    // Reading now drains what was buffered, then the stream ends.
    stalled.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let mut total = 0usize;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match stalled.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => total += n,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("the stalled viewer's stream did not end ({total} bytes read): {e}"),
        }
    }
    assert!(total < 16 * 1024 * 1024, "what waited for the stalled viewer is bounded: {total} bytes");
}

/// The address a `replay FILE --web ADDR` process printed, with the process.
fn start_replay(demo: &str) -> (std::process::Child, SocketAddr, tempfile::TempDir) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut cmd, dir) = support::headless_command();
    let mut child = cmd
        .arg("replay")
        .arg(root.join("tests/replays").join(demo))
        .args(["--web", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("spawn");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let addr = loop {
        line.clear();
        if out.read_line(&mut line).unwrap_or(0) == 0 {
            let _ = child.kill();
            panic!("replay --web printed no address");
        }
        if let Some(addr) = line.split("http://").nth(1).and_then(|a| a.split('/').next()).and_then(|a| a.parse().ok()) {
            break addr;
        }
    };
    (child, addr, dir)
}

#[test]
fn a_recording_plays_in_the_view_with_pause_speed_and_seek() {
    let (mut child, addr, _dir) = start_replay("ft.qdemo");
    let result = std::panic::catch_unwind(|| {
        let (code, page) = get(addr, "/", None);
        assert_eq!(code, 200);
        assert!(page.contains("id=\"replay\""), "the page has the replay controls");
        let first = frames(addr, Duration::from_secs(20), |f| f["replay"]["tick"].as_u64().is_some_and(|t| t > 10)).expect("frames of the recording playing");
        assert_eq!(first["gametype"], "ft", "{first}");
        let last = first["replay"]["last"].as_u64().expect("last tick");
        assert!(last > 100, "{first}");
        assert_eq!(request(addr, "POST", "/control?op=pause", None).0, 200);
        let paused = frames(addr, Duration::from_secs(10), |f| f["replay"]["paused"] == true).expect("a paused frame");
        // Back to near the start: the match is built again and played to it.
        assert_eq!(request(addr, "POST", "/control?op=seek&value=5", None).0, 200);
        let sought = frames(addr, Duration::from_secs(20), |f| f["replay"]["tick"].as_u64().is_some_and(|t| t <= 6)).expect("a frame after seeking back");
        assert_eq!(sought["replay"]["paused"], true, "seeking keeps the clock stopped");
        assert!(sought["players"].as_array().is_some_and(|p| !p.is_empty()), "{sought}");
        // Forward past where it was paused.
        let was = paused["replay"]["tick"].as_u64().unwrap_or(0);
        let to = (was + 40).min(last);
        assert_eq!(request(addr, "POST", &format!("/control?op=seek&value={to}"), None).0, 200);
        frames(addr, Duration::from_secs(20), |f| f["replay"]["tick"].as_u64() == Some(to)).expect("a frame at the tick sought");
        // Bad controls say why; then it plays on at another speed.
        let (code, text) = request(addr, "POST", "/control?op=speed&value=99", None);
        assert!(code == 400 && text.contains("out of range"), "{text}");
        assert_eq!(request(addr, "POST", "/control?op=speed&value=4", None).0, 200);
        assert_eq!(request(addr, "POST", "/control?op=play", None).0, 200);
        frames(addr, Duration::from_secs(20), |f| f["replay"]["speed"] == 4.0 && f["replay"]["tick"].as_u64().is_some_and(|t| t > to)).expect("playing on at 4x");
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn a_password_guards_the_view_and_other_hosts_need_one() {
    let open = TestServer::start(&["+set", "sv_webAddr", "0.0.0.0:0"]);
    let start = Instant::now();
    while !open.output().contains("set sv_webPassword first") {
        assert!(start.elapsed() < Duration::from_secs(10), "beyond loopback without a password is refused:\n{}", open.output());
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(open);
    let server = TestServer::start(&["+set", "sv_webPassword", "secret", "+set", "sv_webAddr", "127.0.0.1:0"]);
    let addr = web_addr(&server);
    let (code, text) = get(addr, "/", None);
    assert_eq!(code, 401, "{text}");
    assert!(text.to_ascii_lowercase().contains("www-authenticate: basic"), "{text}");
    // "viewer:secret"
    assert_eq!(get(addr, "/", Some("dmlld2VyOnNlY3JldA==")).0, 200);
    assert_eq!(get(addr, "/frames", Some("dmlld2VyOndyb25n")).0, 401, "a wrong password");
    assert!(!server.output().contains("secret"), "the password is never printed");
}

/// The value of header `name` in a response's text.
fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    let head = response.split("\r\n\r\n").next()?;
    head.lines().find_map(|l| l.split_once(':').filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.trim()))
}

#[test]
fn guessing_the_web_password_is_locked_out_by_address_and_logged() {
    use quarry_net::lockout::FREE_TRIES;
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("server.log");
    let log_arg = log.to_str().expect("a path in UTF-8");
    let server = TestServer::start_with(&["--log-file", log_arg], &["+set", "sv_webPassword", "secret", "+set", "sv_webAddr", "127.0.0.1:0"]);
    let addr = web_addr(&server);
    // "viewer:secret", "viewer:wrong"
    let (right, wrong) = ("dmlld2VyOnNlY3JldA==", "dmlld2VyOndyb25n");
    let guesser = Some([127, 0, 0, 1]);
    // Asking without credentials is no guess: the browser's first request.
    assert_eq!(request_from(addr, guesser, "GET", "/", None).0, 401);
    for n in 0..FREE_TRIES {
        let (code, text) = request_from(addr, guesser, "GET", "/", Some(wrong));
        assert_eq!(code, 401, "wrong password {n}: {text}");
    }
    // Locked out: even the right password is refused, unheard, for the wait.
    let (code, text) = request_from(addr, guesser, "GET", "/", Some(right));
    assert_eq!(code, 429, "the right password during the lockout: {text}");
    let wait: u64 = header(&text, "retry-after").and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no Retry-After: {text}"));
    assert!((1..=2).contains(&wait), "the first wait is a second: {text}");
    assert_eq!(request_from(addr, guesser, "GET", "/frames", Some(wrong)).0, 429, "every route");
    assert_eq!(request_from(addr, guesser, "POST", "/mind?slot=0&on=1", None).0, 429, "with no credentials too");
    // Another address is not locked out.
    assert_eq!(request_from(addr, Some([127, 0, 0, 2]), "GET", "/", Some(right)).0, 200);
    // The failures and the lockout are logged, with the address.
    let start = Instant::now();
    loop {
        let logged = std::fs::read_to_string(&log).unwrap_or_default();
        let failures = logged.lines().filter(|l| l.contains("web view: wrong password from 127.0.0.1")).count();
        if failures == FREE_TRIES as usize && logged.contains("web view: 127.0.0.1 locked out for 1 s") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{failures} failures logged:\n{logged}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Once the wait is over, the right password is heard again.
    std::thread::sleep(Duration::from_secs(wait));
    assert_eq!(request_from(addr, guesser, "GET", "/", Some(right)).0, 200);
    assert!(!std::fs::read_to_string(&log).unwrap_or_default().contains("secret"), "the password is never logged");
}

/// A stream of frames from `source`, its answer's status read; the
/// connection stays open (and unread) while the value lives.
fn open_stream(addr: SocketAddr, source: [u8; 4]) -> (u16, TcpStream) {
    let mut s = connect_from(addr, Some(source)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    write!(s, "GET /frames HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n").expect("send");
    let mut head = [0u8; 12];
    let code = s.read_exact(&mut head).ok().and_then(|()| std::str::from_utf8(&head[9..12]).ok()?.parse().ok()).unwrap_or(0);
    (code, s)
}

/// Times a GET of `path` from the default address: its status and how long
/// the whole answer took.
fn timed_get(addr: SocketAddr, path: &str) -> (u16, Duration) {
    let start = Instant::now();
    let (code, _) = get(addr, path, None);
    (code, start.elapsed())
}

#[test]
fn with_every_stream_taken_the_page_and_its_requests_still_answer() {
    let server = TestServer::start(&["+set", "sv_webAddr", "127.0.0.1:0"]);
    let addr = web_addr(&server);
    // 64 streams, 8 from each of 8 addresses (an address may hold 8
    // connections).
    let mut streams = Vec::new();
    for a in 0..8u8 {
        for _ in 0..8 {
            let (code, s) = open_stream(addr, [127, 0, 0, 10 + a]);
            assert_eq!(code, 200, "stream {}", streams.len());
            streams.push(s);
        }
    }
    // The page, its map and history, a mind asked for: answered at once.
    for path in ["/", "/map", "/history"] {
        let (code, took) = timed_get(addr, path);
        assert!(code == 200 && took < Duration::from_secs(2), "{path}: {code} after {took:?} with every stream taken");
    }
    let (code, text) = request(addr, "POST", "/mind?slot=999", None);
    assert!(code == 400 && text.contains("out of range"), "{text}");
    // One stream more is refused with when to try again, at once too.
    let start = Instant::now();
    let (code, text) = get(addr, "/frames", None);
    assert_eq!(code, 503, "{text}");
    assert!(header(&text, "retry-after").is_some() && start.elapsed() < Duration::from_secs(2), "{text}");
    // A stream that ends frees its place.
    drop(streams.pop());
    let start = Instant::now();
    loop {
        let (code, _) = open_stream(addr, [127, 0, 0, 30]);
        if code == 200 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the closed stream's place was not freed: {code}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_slowloris_from_several_addresses_does_not_delay_a_request() {
    let server = TestServer::start(&["+set", "sv_webAddr", "127.0.0.1:0"]);
    let addr = web_addr(&server);
    // Every stream taken...
    let streams: Vec<TcpStream> = (0..64u8).map(|i| open_stream(addr, [127, 0, 0, 10 + i / 8]).1).collect();
    // ...and 8 addresses, each with 12 connections that send a request head one
    // byte every 200 ms and connect again whenever they are closed.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let slow = {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            let head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
            let sources: Vec<[u8; 4]> = (0..8u8).flat_map(|a| std::iter::repeat_n([127, 0, 0, 2 + a], 12)).collect();
            let mut conns: Vec<Option<(TcpStream, usize)>> = sources.iter().map(|_| None).collect();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for (conn, source) in conns.iter_mut().zip(&sources) {
                    if conn.is_none() {
                        *conn = connect_from(addr, Some(*source)).ok().map(|s| (s, 0));
                    }
                    if let Some((s, sent)) = conn {
                        if *sent >= head.len() || s.write_all(&head[*sent..=*sent]).is_err() {
                            *conn = None;
                        } else {
                            *sent += 1;
                        }
                    }
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    // Once they hold their connections, a page request is answered within
    // the time a request head may take (before, it waited for the slow
    // connections' 10 s to run out, or for ever behind the streams).
    std::thread::sleep(Duration::from_millis(1500));
    let mut times = Vec::new();
    for _ in 0..4 {
        times.push(timed_get(addr, "/"));
        std::thread::sleep(Duration::from_millis(700));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = slow.join();
    drop(streams);
    assert!(times.iter().all(|(code, took)| *code == 200 && *took < Duration::from_secs(2)), "page requests during the slowloris: {times:?}");
}
