//! The live web view end to end over HTTP: the real binary serves the
//! embedded page and a stream of frames that shows the match's players; a
//! password guards it; an address beyond loopback without one is refused.

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
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let auth = auth.map(|a| format!("Authorization: Basic {a}\r\n")).unwrap_or_default();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n").expect("send");
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
    assert_eq!(frame["bots"].as_array().map(Vec::len), Some(3), "each bot's mind: {frame}");
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
