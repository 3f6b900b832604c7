//! Map transfer end to end (issue 48): the `quarry-server` binary on q_dm1
//! and reference clients over real QUIC. A client with no copy of the map
//! downloads the exact bytes the server loaded, paced at `sv_downloadRate`,
//! while another client's snapshots go on; the second time it finds the
//! map in its cache without asking. Requests for another hash, past the
//! end, in a flood, over `sv_downloadMaxKB` or with `sv_allowDownload 0`
//! are refused with reasons that say what to do.
//!
//! It lives here rather than in the client's tests because it needs the
//! real server, which only this crate's tests may depend on.

use std::path::Path;
use std::time::{Duration, Instant};

use quarry_client::{Client, ClientOptions, MapDownload, MapStore};
use quarry_net::handshake::CS_MAP;
use quarry_net::map_transfer::{MapHash, MapRefusal, parse_map_string};
use quarry_net::reliable::{ClientMessage, ServerMessage};
use quarry_net::transport::{ClientEvent, ClientTransport};

mod support;
use support::TestServer;

fn shipped_map() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map")).expect("q_dm1.map")
}

fn join(server: &TestServer, name: &str) -> Client {
    Client::join(ClientOptions::pinned(server.addr, name, server.fingerprint)).expect("join")
}

/// Pumps `clients` until `done` says so or `limit` passes; returns whether it did.
fn pump_until(clients: &mut [&mut Client], limit: Duration, mut done: impl FnMut(&[&mut Client]) -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        for c in clients.iter_mut() {
            c.pump();
        }
        if done(clients) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn a_client_downloads_the_map_at_the_set_rate_while_others_play_then_finds_it_cached() {
    // 8 kB/s: the compressed copy (about 12 kB) takes over a second.
    let rate = 8_000.0;
    let mut server = TestServer::start(&["+set", "sv_downloadRate", "8000", "+set", "bot_minPlayers", "0"]);
    let cache = tempfile::tempdir().expect("cache");
    let store = MapStore::new(Vec::new(), Some(cache.path().to_owned()));
    let mut downloader = join(&server, "downloader");
    let mut watcher = join(&server, "watcher");
    let (hash, size) = downloader.map_hash().expect("the Welcome carries CS_MAP");
    let map = shipped_map();
    assert_eq!((hash, size), (MapHash::of(&map), map.len() as u64));

    let started = Instant::now();
    assert!(matches!(downloader.fetch_map(&store).expect("fetch"), MapDownload::Fetching { .. }));
    let watcher_before = watcher.stats().snapshots_total;
    let mut progress = Vec::new();
    let done = pump_until(&mut [&mut downloader, &mut watcher], Duration::from_secs(30), |c| {
        if let Some(MapDownload::Fetching { received, .. }) = c[0].map_download() {
            progress.push(*received);
        }
        !matches!(c[0].map_download(), Some(MapDownload::Fetching { .. }))
    });
    let took = started.elapsed();
    assert!(done, "the download did not end: {:?}\n{}", downloader.map_download(), server.output());
    let Some(MapDownload::Ready(file)) = downloader.map_download() else { panic!("{:?}", downloader.map_download()) };
    assert_eq!(file.bytes, map, "the exact bytes the server loaded");
    assert_eq!(file.path.as_deref(), Some(cache.path().join(format!("{hash}.map")).as_path()));
    file.load(&quarry_map::LoadOptions::default()).expect("the download loads").check_playable().expect("playable");

    // Paced: no faster than the rate allows (the budget holds a tenth of a
    // second, 1 KiB at this rate), and in steps, not all at once.
    let status = server.status();
    let line = status.text.lines().find(|l| l.starts_with("downloads:")).expect("a downloads line").to_owned();
    let total: f64 = line.split("bytes, ").nth(1).and_then(|r| r.split_whitespace().next()?.parse().ok()).expect("compressed size");
    let least = (total - 1024.0).max(0.0) / rate;
    eprintln!("{total} bytes compressed at {rate} B/s took {took:?}");
    assert!(took.as_secs_f64() >= least * 0.9, "{total} bytes at {rate} B/s took {took:?}");
    progress.dedup();
    assert!(progress.len() >= 5, "chunks arrived over time: {progress:?}");
    assert!(line.contains("1 started, 1 finished, 0 refused"), "{line}");
    // The other client's snapshots went on meanwhile (30 a second).
    let watched = watcher.stats().snapshots_total - watcher_before;
    let expected = took.as_secs_f64() * 30.0;
    assert!(watched as f64 >= expected * 0.7, "the watcher got {watched} snapshots in {took:?}");

    // Again, with the server asked nothing: found in the cache at once.
    let mut again = join(&server, "again");
    match again.fetch_map(&store).expect("fetch") {
        MapDownload::Ready(f) => assert_eq!(f.bytes, map),
        other => panic!("not found in the cache: {other:?}"),
    }
    // And a maps folder holding the file under its name needs no cache.
    let maps = tempfile::tempdir().expect("maps");
    std::fs::write(maps.path().join("q_dm1.map"), &map).expect("write");
    let local = MapStore::new(vec![maps.path().to_owned()], None);
    assert!(matches!(again.fetch_map(&local).expect("fetch"), MapDownload::Ready(f) if f.path == Some(maps.path().join("q_dm1.map"))));
    std::thread::sleep(Duration::from_millis(300));
    let line = server.status().text.lines().find(|l| l.starts_with("downloads:")).map(str::to_owned).unwrap_or_default();
    assert!(line.contains("1 started"), "the cached map was asked for again: {line}");
}

/// The map's hash as a raw transport client's Welcome gives it.
fn raw_join(server: &TestServer, name: &str) -> (ClientTransport, MapHash) {
    let mut c = server.client(name, None);
    let end = Instant::now() + Duration::from_secs(10);
    while Instant::now() < end {
        for e in c.poll_events() {
            if let ClientEvent::Welcomed(w) = e {
                let cs = w.config_strings.iter().find(|(i, _)| *i == CS_MAP).map(|(_, v)| v.clone()).expect("CS_MAP");
                return (c, parse_map_string(&cs).expect("a hash and a size").0);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{name} was not welcomed: {}", server.output());
}

/// What came back for this client's requests within `wait`: the
/// refusals, the chunks and whether it is still connected.
fn answers(c: &mut ClientTransport, wait: Duration) -> (Vec<MapRefusal>, usize, bool) {
    let (mut refusals, mut chunks) = (Vec::new(), 0);
    let end = Instant::now() + wait;
    while Instant::now() < end {
        for e in c.poll_events() {
            match e {
                ClientEvent::Message(ServerMessage::MapRefused { reason, .. }) => refusals.push(reason),
                ClientEvent::Message(ServerMessage::MapChunk(_)) => chunks += 1,
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (refusals, chunks, c.is_connected())
}

#[test]
fn bad_requests_floods_a_cap_and_downloads_off_are_refused_with_reasons() {
    let mut server = TestServer::start(&["+set", "bot_minPlayers", "0"]);

    // Another hash: the map it runs is named instead.
    let (mut probe, hash) = raw_join(&server, "probe");
    let other = MapHash::of(b"some other map");
    probe.send_reliable(&ClientMessage::MapRequest { hash: other, offset: 0 }).expect("send");
    probe.send_reliable(&ClientMessage::MapRequest { hash, offset: 1 << 40 }).expect("send");
    let (refusals, chunks, connected) = answers(&mut probe, Duration::from_millis(600));
    assert_eq!(refusals.first(), Some(&MapRefusal::NotCurrent { map: "q_dm1".into(), hash }), "{refusals:?}");
    assert!(matches!(refusals.get(1), Some(MapRefusal::BadRequest(t)) if t.contains("past the end")), "{refusals:?}");
    assert!(refusals.iter().all(|r| !r.to_string().is_empty()) && chunks == 0 && connected);

    // A flood: the quota's three are served (each replacing the last),
    // the next are told to wait, beyond the connection's burst they are
    // dropped unanswered; the client stays connected.
    let (mut flood, _) = raw_join(&server, "flood");
    for _ in 0..12 {
        flood.send_reliable(&ClientMessage::MapRequest { hash, offset: 0 }).expect("send");
    }
    let (refusals, chunks, connected) = answers(&mut flood, Duration::from_secs(2));
    assert!(connected, "a flood of map requests is limited, not a reason to drop the client");
    assert!(chunks > 0, "the first requests are served");
    assert_eq!(refusals.len(), 5, "8 let through by the connection's burst, 3 served: {refusals:?}");
    for r in &refusals {
        assert!(matches!(r, MapRefusal::TooManyRequests { retry_after_s } if (1..=20).contains(retry_after_s)), "{r:?}");
        assert!(r.to_string().contains("try again in"), "{r}");
    }

    // Over the cap: refused with the size and the cap.
    server.console("set sv_downloadMaxKB 1");
    std::thread::sleep(Duration::from_millis(200));
    let (mut big, _) = raw_join(&server, "big");
    big.send_reliable(&ClientMessage::MapRequest { hash, offset: 0 }).expect("send");
    let (refusals, chunks, _) = answers(&mut big, Duration::from_millis(600));
    assert!(matches!(refusals.as_slice(), [MapRefusal::TooBig { size, max: 1024 }] if *size > 1024), "{refusals:?}");
    assert_eq!(chunks, 0);
    assert!(refusals[0].to_string().contains("sv_downloadMaxKB"), "{}", refusals[0]);

    // Downloads off: the reference client's fetch fails naming the file it needs.
    server.console("set sv_allowDownload 0");
    std::thread::sleep(Duration::from_millis(200));
    let mut player = join(&server, "player");
    let store = MapStore::new(Vec::new(), None);
    player.fetch_map(&store).expect("fetch");
    let failed = pump_until(&mut [&mut player], Duration::from_secs(5), |c| matches!(c[0].map_download(), Some(MapDownload::Failed(_))));
    assert!(failed, "{:?}", player.map_download());
    let Some(MapDownload::Failed(e)) = player.map_download() else { unreachable!() };
    let text = e.to_string();
    assert!(text.contains("q_dm1.map") && text.contains("sv_allowDownload 0") && text.contains(&hash.to_string()), "{text}");
    let status = server.status();
    assert!(status.text.contains("downloads: off (sv_allowDownload 0)"), "{}", status.text);
}
