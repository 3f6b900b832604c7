//! `sv_statsWebhook`: a finished match's result document reaches an HTTP
//! endpoint, signed with HMAC-SHA256 under `sv_statsWebhookSecret`; an
//! endpoint that fails first is tried again; one that is down leaves the
//! document spooled, and the next start delivers it. A webhook that cannot
//! be used safely stops the server.
//!
//! The endpoint is a tiny HTTP/1.1 server on `127.0.0.1:0` in the test.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use support::text;

const SECRET: &str = "test-secret-of-the-league";

/// One request the endpoint took.
#[derive(Debug, Clone)]
struct Received {
    request_line: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// An endpoint on a free port that answers 500 to its first `fail_first`
/// requests and 200 after; returns its URL and what it took.
fn endpoint(fail_first: usize) -> (String, Arc<Mutex<Vec<Received>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/hooks/quarry", listener.local_addr().expect("addr"));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let Some(req) = read_request(&stream) else { continue };
            let n = {
                let mut log = log.lock().expect("lock");
                log.push(req);
                log.len()
            };
            let status = if n <= fail_first { "500 Internal Server Error" } else { "200 OK" };
            let mut stream = stream;
            let _ = write!(stream, "HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    (url, seen)
}

fn read_request(stream: &TcpStream) -> Option<Received> {
    let mut reader = BufReader::new(stream);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (k, v) = line.split_once(':')?;
        headers.push((k.trim().to_owned(), v.trim().to_owned()));
    }
    let len: usize = headers.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-length")).and_then(|(_, v)| v.parse().ok())?;
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some(Received { request_line: request_line.trim_end().to_owned(), headers, body })
}

/// A headless match of 12 s on q_dm1 with 3 bots, results into `results`,
/// posted to `url`; `extra` after the other settings.
fn run(config: &Path, results: &Path, url: &str, seed: &str, extra: &[&str]) -> Output {
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .arg("--config")
        .arg(config)
        .arg("--maps")
        .arg(&maps)
        .args(["--fast", "--json", "--seed", seed, "+set", "bot_minPlayers", "3", "+set", "timelimit", "0.2", "+set", "sv_matchResultDir"])
        .arg(results)
        .args(["+set", "sv_statsWebhook", url])
        .args(extra)
        .args(["+map", "q_dm1"])
        .env("RUST_LOG", "warn")
        .env("QUARRY_SV_STATSWEBHOOKSECRET", SECRET)
        .output()
        .expect("run")
}

fn verify(received: &Received) {
    let signature = received.header("X-Quarry-Signature").expect("signed");
    let hex = signature.strip_prefix("sha256=").expect("sha256=");
    let tag: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect();
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, SECRET.as_bytes());
    ring::hmac::verify(&key, &received.body, &tag).expect("the HMAC of the exact body under the secret");
    let wrong = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, b"another secret");
    assert!(ring::hmac::verify(&wrong, &received.body, &tag).is_err());
}

fn pending(results: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(results.join("pending")).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default()
}

#[test]
fn a_result_reaches_the_endpoint_signed_after_it_failed_twice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let results = dir.path().join("results");
    let (url, seen) = endpoint(2);
    // A minute, so the bots meet and fire.
    let out = run(dir.path(), &results, &url, "3", &["+set", "timelimit", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let seen = seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), 3, "two 500s, then delivered: {seen:?}");
    let file = results.read_dir().expect("results").filter_map(Result::ok).map(|e| e.path()).find(|p| p.is_file()).expect("the result file");
    let on_disk = std::fs::read(&file).expect("read");
    for r in &seen {
        assert_eq!(r.request_line, "POST /hooks/quarry HTTP/1.1");
        assert_eq!(r.header("Content-Type"), Some("application/json"));
        assert_eq!(r.body, on_disk, "the body is the result file, byte for byte");
        verify(r);
    }
    let doc: serde_json::Value = serde_json::from_slice(&on_disk).expect("JSON");
    assert_eq!(seen[0].header("X-Quarry-Match-Id"), doc["match_id"].as_str());
    assert_eq!(file.file_stem().and_then(|s| s.to_str()), doc["match_id"].as_str(), "the file is named for the match");
    assert!(pending(&results).is_empty(), "delivered, so nothing waits: {:?}", pending(&results));
    // The document's shape.
    assert_eq!((doc["schema"].as_u64(), doc["map"].as_str(), doc["gametype"].as_str()), (Some(1), Some("q_dm1"), Some("ffa")));
    let (start, end) = (doc["started_at"].as_str().expect("start"), doc["ended_at"].as_str().expect("end"));
    assert!(start.ends_with('Z') && end.ends_with('Z') && start <= end, "{start} {end}");
    assert_eq!(doc["settings"]["timelimit"], "1");
    assert!(doc["settings"]["fraglimit"].is_string(), "key settings are always listed");
    let players = doc["players"].as_array().expect("players");
    assert_eq!(players.len(), 3);
    for p in players {
        assert_eq!(p["bot"], true);
        let score = &p["score"];
        for field in ["frags", "deaths", "damage_given", "damage_taken", "pickups"] {
            assert!(score[field].is_number(), "{field}: {p}");
        }
        let (taken, deaths) = (score["damage_taken"].as_u64().unwrap_or(u64::MAX), score["deaths"].as_u64().unwrap_or(0));
        assert!(taken <= (deaths + 1) * 400, "no more than a life's health and armor per life: {p}");
        let weapons = p["weapons"].as_array().expect("weapons");
        for w in weapons {
            assert!(w["weapon"].is_string() && w["shots"].is_number() && w["hits"].is_number() && w["damage"].is_number(), "{w}");
        }
    }
    let shots: u64 = players.iter().flat_map(|p| p["weapons"].as_array().cloned().unwrap_or_default()).filter_map(|w| w["shots"].as_u64()).sum();
    assert!(shots > 0, "three bots fired in a minute: {doc}");
    let pickups: u64 = players.iter().filter_map(|p| p["score"]["pickups"].as_u64()).sum();
    assert!(pickups > 0, "and picked things up: {doc}");
}

#[test]
fn a_result_spooled_while_the_endpoint_was_down_is_sent_at_the_next_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let results = dir.path().join("results");
    // A port nothing listens on.
    let down = {
        let l = TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("http://{}/hook", l.local_addr().expect("addr"))
    };
    let out = run(dir.path(), &results, &down, "3", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let waiting = pending(&results);
    assert_eq!(waiting.len(), 1, "kept for the next start: {}", text(&out.stderr));
    let first_id = waiting[0].file_stem().and_then(|s| s.to_str()).expect("id").to_owned();

    let (url, seen) = endpoint(0);
    let out = run(dir.path(), &results, &url, "4", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let seen = seen.lock().expect("lock").clone();
    let ids: Vec<&str> = seen.iter().filter_map(|r| r.header("X-Quarry-Match-Id")).collect();
    assert_eq!(ids.len(), 2, "the spooled one and the new one: {ids:?}");
    assert_eq!(ids[0], first_id, "the earlier run's result first");
    seen.iter().for_each(verify);
    assert!(pending(&results).is_empty(), "{:?}", pending(&results));
    let files = results.read_dir().expect("results").filter_map(Result::ok).filter(|e| e.path().is_file()).count();
    assert_eq!(files, 2, "each run's result file stays");
}

#[test]
fn a_webhook_that_cannot_be_used_safely_stops_the_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let results = dir.path().join("results");
    let missing = dir.path().join("no-such-secret");
    let missing = missing.to_str().expect("utf-8");
    let cases: [(&str, &[&str], &str); 3] = [
        ("ftp://stats.example/hook", &[], "is not http or https"),
        ("http://127.0.0.1:9/hook", &["+set", "sv_statsWebhookSecretFile", missing], "sv_statsWebhookSecretFile"),
        ("http://127.0.0.1:9/hook", &["+set", "sv_matchResultDir", ""], "sv_matchResultDir is empty"),
    ];
    for (url, extra, says) in cases {
        let out = run(dir.path(), &results, url, "3", extra);
        assert_eq!(out.status.code(), Some(2), "{url} {extra:?}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(says), "{says}: {}", text(&out.stderr));
    }
    // No secret at all: refused rather than posting unsigned.
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .arg("--config")
        .arg(dir.path())
        .arg("--maps")
        .arg(&maps)
        .args(["--fast", "+set", "sv_matchResultDir"])
        .arg(&results)
        .args(["+set", "sv_statsWebhook", "https://stats.example/hook", "+map", "q_dm1"])
        .env("RUST_LOG", "warn")
        .env_remove("QUARRY_SV_STATSWEBHOOKSECRET")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("unsigned"), "{}", text(&out.stderr));
    assert!(!results.exists(), "nothing ran");
}
