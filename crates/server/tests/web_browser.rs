//! The live web view in a real browser: headless Chromium, driven through
//! chromedriver's WebDriver HTTP interface, opens the page of a running
//! server with bots, waits for frames, checks that the frame it drew shows
//! the players the server's `status` lists, toggles a bot's route overlay
//! and sees it drawn, waits for the walkable floor, and saves a screenshot
//! (`target/tmp/web-view.png`).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them and sets `QUARRY_REQUIRE_BROWSER=1`); without them the test says
//! so and passes, unless that variable is set.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::TestServer;

/// chromedriver, stopped when dropped.
struct Driver {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find(names: &[&str]) -> Option<String> {
    names.iter().find(|n| Command::new("sh").args(["-c", &format!("command -v {n}")]).output().is_ok_and(|o| o.status.success())).map(|n| (*n).to_owned())
}

/// One HTTP request to chromedriver; the JSON answer's `value`.
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&serde_json::Value>) -> serde_json::Value {
    let mut s = TcpStream::connect(addr).expect("chromedriver");
    s.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    let body = body.map(ToString::to_string).unwrap_or_default();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len()).expect("send");
    // Headers, then exactly Content-Length bytes (chromedriver keeps the
    // connection open whatever the request says).
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).into_owned();
    let len: usize = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned())).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{method} {path}: no length: {head}"));
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let text = String::from_utf8_lossy(&body);
    let value: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"));
    value["value"].clone()
}

fn base64(text: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut acc = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            acc |= u32::from(val(*c)) << (18 - 6 * i);
        }
        out.extend_from_slice(&acc.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Runs `script` in the page until `done` says its value is enough; fails
/// the test with `what` and the last value after `limit`.
fn wait_js(driver: SocketAddr, id: &str, script: &str, limit: Duration, what: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let v = call(driver, "POST", &format!("/session/{id}/execute/sync"), Some(&serde_json::json!({"script": script, "args": []})));
        if done(&v) {
            return v;
        }
        assert!(start.elapsed() < limit, "{what}: {v}");
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Clicks the page's element `selector`.
fn click(driver: SocketAddr, id: &str, selector: &str) {
    let el = call(driver, "POST", &format!("/session/{id}/element"), Some(&serde_json::json!({"using": "css selector", "value": selector})));
    let element = el.as_object().and_then(|o| o.values().next()).and_then(|v| v.as_str()).unwrap_or_else(|| panic!("no element {selector}: {el}")).to_owned();
    call(driver, "POST", &format!("/session/{id}/element/{element}/click"), Some(&serde_json::json!({})));
}

#[test]
fn the_page_draws_the_players_in_headless_chromium() {
    let required = std::env::var_os("QUARRY_REQUIRE_BROWSER").is_some();
    let (Some(browser), Some(driver)) = (find(&["chromium", "chromium-browser", "google-chrome"]), find(&["chromedriver"])) else {
        assert!(!required, "QUARRY_REQUIRE_BROWSER is set but chromium or chromedriver is missing");
        eprintln!("skipped: no chromium and chromedriver here (apt-get install chromium chromium-driver)");
        return;
    };
    let mut server = TestServer::start(&["+set", "sv_webAddr", "127.0.0.1:0", "+set", "bot_minPlayers", "3"]);
    let web = {
        let start = Instant::now();
        loop {
            let out = server.output();
            if let Some(a) = out.lines().find_map(|l| l.strip_prefix("web view on http://")).and_then(|a| a.trim_end_matches('/').parse::<SocketAddr>().ok()) {
                break a;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "no web view:\n{out}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let child = Command::new(&driver).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("chromedriver");
    let driver = Driver { child, addr: SocketAddr::from(([127, 0, 0, 1], port)) };
    let start = Instant::now();
    while TcpStream::connect(driver.addr).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    let binary = Command::new("sh").args(["-c", &format!("command -v {browser}")]).output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned()).unwrap_or(browser);
    let caps = serde_json::json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"binary": binary, "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"]}}}});
    let session = call(driver.addr, "POST", "/session", Some(&caps));
    let id = session["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {session}")).to_owned();
    call(driver.addr, "POST", &format!("/session/{id}/url"), Some(&serde_json::json!({"url": format!("http://{web}/")})));
    // Frames until the page has drawn all three bots.
    let script = serde_json::json!({"script": "return window.framesDrawn > 0 ? JSON.stringify(window.lastFrame) : null", "args": []});
    let start = Instant::now();
    let frame = loop {
        let v = call(driver.addr, "POST", &format!("/session/{id}/execute/sync"), Some(&script));
        if let Some(text) = v.as_str()
            && let Ok(f) = serde_json::from_str::<serde_json::Value>(text)
            && f["players"].as_array().is_some_and(|p| p.len() == 3)
        {
            break f;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the page drew no frame with the three bots: {v}");
        std::thread::sleep(Duration::from_millis(300));
    };
    // The players the page drew are the ones `status` lists.
    let status = server.status();
    assert_eq!(status.bots, 3, "{}", status.text);
    for p in frame["players"].as_array().expect("players") {
        let name = p["name"].as_str().expect("name");
        assert!(status.text.contains(name), "{name} is not in status:\n{}", status.text);
    }
    let drawn = call(driver.addr, "POST", &format!("/session/{id}/execute/sync"), Some(&serde_json::json!({"script": "return window.framesDrawn", "args": []})));
    assert!(drawn.as_u64().is_some_and(|n| n >= 1), "{drawn}");
    // The floor is drawn once the navmesh is ready.
    wait_js(driver.addr, &id, "return window.floorNodes", Duration::from_secs(60), "the page never drew the floor", |n| n.as_u64().is_some_and(|n| n > 300));
    // A bot's route overlay, toggled by its box in the scoreboard.
    click(driver.addr, &id, "input.mind");
    wait_js(driver.addr, &id, "return [window.routesDrawn, JSON.stringify(window.lastFrame.bots)]", Duration::from_secs(30), "the toggled bot's route was never drawn (routes, bots)", |v| {
        v[0].as_u64().is_some_and(|n| n >= 1)
    });
    // The navmesh overlay, and the history (deaths, stuck hotspots) fetched.
    click(driver.addr, &id, "#ov-links");
    wait_js(driver.addr, &id, "return [window.linksDrawn, window.historyRev]", Duration::from_secs(30), "the navmesh links or the history were never drawn", |v| {
        v[0].as_u64().is_some_and(|n| n > 100) && v[1].as_u64().is_some_and(|r| r > 0)
    });
    std::thread::sleep(Duration::from_millis(300));
    let shot = call(driver.addr, "GET", &format!("/session/{id}/screenshot"), None);
    let png = base64(shot.as_str().expect("a screenshot"));
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-view.png");
    std::fs::write(&path, &png).expect("save the screenshot");
    eprintln!("screenshot: {} ({} bytes)", path.display(), png.len());
    call(driver.addr, "DELETE", &format!("/session/{id}"), None);
}
