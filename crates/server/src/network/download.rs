//! Sending the running map to clients that lack it (issue 48).
//!
//! The map's compressed copy is made once per map load
//! ([`quarry_net::map_transfer::MapOffer`], by the game host); a client
//! asks for it by hash ([`ClientMessage::MapRequest`]) and gets it in
//! 16 KiB chunks on its control stream, paced from the tick.
//!
//! The rules, each with its reason:
//!
//! - `sv_allowDownload 0` refuses every request, naming the file the player
//!   needs: an operator may not want to hand out a map.
//! - Only the map the server runs is sent, by its hash: a server is not a
//!   file host, and a client asking for another hash is confused or probing.
//! - A compressed copy over `sv_downloadMaxKB` is refused with its size and
//!   the cap, before a byte is sent.
//! - Each client has a quota of [`REQUEST_BURST`] requests, one more every
//!   [`REQUEST_EVERY`]; a request beyond it is refused with the wait. A new
//!   request replaces the client's transfer, so at most one is in flight
//!   per client, and at most [`MAX_TRANSFERS`] in all, so downloads cannot
//!   take the server's whole uplink from the players.
//! - Chunks leave at `sv_downloadRate` bytes a second per client (a token
//!   bucket filled from the tick, holding at most a tenth of a second; a
//!   chunk is a tenth of a second's worth, 1 to 16 KiB), and
//!   only while the client's reliable backlog is under [`BACKLOG_ROOM`]:
//!   a client that does not read stops its own download, never reaches the
//!   transport's disconnect limit because of it, and delays its own chat
//!   by at most a few chunks. Snapshots are datagrams and never wait.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use quarry_net::map_transfer::{MAP_CHUNK_LEN, MapHash, MapOffer, MapRefusal};
use quarry_net::reliable::{ClientMessage, ServerMessage};
use quarry_net::transport::ConnId;

use super::NetServer;
pub use crate::cvars::DownloadSettings;

/// Map requests a client may make at once.
pub const REQUEST_BURST: u32 = 3;
/// How often a client earns another map request.
pub const REQUEST_EVERY: Duration = Duration::from_secs(20);
/// Transfers in flight at once, all clients together; more are asked to
/// wait [`BUSY_RETRY`].
pub const MAX_TRANSFERS: usize = 8;
/// The wait a request is told when [`MAX_TRANSFERS`] are under way.
pub const BUSY_RETRY: Duration = Duration::from_secs(10);
/// Reliable bytes a client may have waiting before no more chunks are
/// queued for it: a quarter of the transport's 256 KiB disconnect limit.
pub const BACKLOG_ROOM: usize = 64 * 1024;
/// Chunks to one client in one tick at most (a tick rate of 10 at 1 MB/s
/// needs about 6).
const MAX_CHUNKS_PER_TICK: usize = 8;

/// One client's side of the downloads: its request quota and its transfer.
#[derive(Debug)]
struct ClientDownload {
    tokens: f64,
    refilled: Instant,
    transfer: Option<Transfer>,
}

/// A transfer in flight.
#[derive(Debug)]
struct Transfer {
    offer: Arc<MapOffer>,
    next: u64,
    budget: f64,
    filled: Instant,
    started: Instant,
}

/// The counts `status` shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DownloadCounts {
    /// Transfers started.
    pub started: u64,
    /// Transfers sent to the end.
    pub finished: u64,
    /// Requests refused.
    pub refused: u64,
}

/// Every client's downloads and the map they are for.
#[derive(Debug, Default)]
pub(super) struct Downloads {
    offer: Option<Arc<MapOffer>>,
    settings: DownloadSettings,
    clients: BTreeMap<ConnId, ClientDownload>,
    counts: DownloadCounts,
}

impl Downloads {
    /// The map now offered; `true` when it changed (transfers of the old
    /// one are dropped: the client learns of the new map and asks again).
    pub(super) fn set_map(&mut self, offer: Option<&Arc<MapOffer>>, settings: DownloadSettings) -> bool {
        self.settings = settings;
        let same = match (&self.offer, offer) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a.hash == b.hash,
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.offer = offer.cloned();
            for c in self.clients.values_mut() {
                c.transfer = None;
            }
        }
        !same
    }

    /// The map offered.
    pub(super) fn offer(&self) -> Option<&Arc<MapOffer>> {
        self.offer.as_ref()
    }

    /// A client left.
    pub(super) fn forget(&mut self, conn: ConnId) {
        self.clients.remove(&conn);
    }

    /// Transfers in flight.
    pub(super) fn in_flight(&self) -> usize {
        self.clients.values().filter(|c| c.transfer.is_some()).count()
    }

    /// What was started, finished and refused so far.
    pub(super) fn counts(&self) -> DownloadCounts {
        self.counts
    }

    /// Takes a request: starts (or restarts) the client's transfer, or
    /// says why not.
    pub(super) fn request(&mut self, conn: ConnId, hash: MapHash, offset: u64, now: Instant) -> Result<(), MapRefusal> {
        let result = self.check(conn, hash, offset, now);
        match &result {
            Ok(offer) => {
                self.counts.started += 1;
                let transfer = Transfer { offer: Arc::clone(offer), next: offset, budget: 0.0, filled: now, started: now };
                if let Some(c) = self.clients.get_mut(&conn) {
                    c.transfer = Some(transfer);
                }
            }
            Err(_) => self.counts.refused += 1,
        }
        result.map(|_| ())
    }

    /// The rules of the module doc, in order; the offer to send on success.
    fn check(&mut self, conn: ConnId, hash: MapHash, offset: u64, now: Instant) -> Result<Arc<MapOffer>, MapRefusal> {
        self.take_request_token(conn, now)?;
        let offer = self.offer.clone().ok_or_else(|| MapRefusal::Unavailable("no map file is loaded".into()))?;
        if !self.settings.allow {
            return Err(MapRefusal::DownloadsOff { file: format!("{}.map", offer.name), hash: offer.hash });
        }
        if hash != offer.hash {
            return Err(MapRefusal::NotCurrent { map: offer.name.clone(), hash: offer.hash });
        }
        if offer.total() > self.settings.max_bytes {
            return Err(MapRefusal::TooBig { size: offer.total(), max: self.settings.max_bytes });
        }
        if offset >= offer.total() {
            return Err(MapRefusal::BadRequest(format!("offset {offset} is past the end of the {} compressed bytes", offer.total())));
        }
        let others = self.clients.iter().filter(|(c, d)| **c != conn && d.transfer.is_some()).count();
        if others >= MAX_TRANSFERS {
            return Err(MapRefusal::TooManyRequests { retry_after_s: secs(BUSY_RETRY) });
        }
        Ok(offer)
    }

    /// Spends one of the client's requests, or says how long until one.
    fn take_request_token(&mut self, conn: ConnId, now: Instant) -> Result<(), MapRefusal> {
        let c = self.clients.entry(conn).or_insert_with(|| ClientDownload { tokens: f64::from(REQUEST_BURST), refilled: now, transfer: None });
        let per_s = 1.0 / REQUEST_EVERY.as_secs_f64();
        c.tokens = (c.tokens + now.saturating_duration_since(c.refilled).as_secs_f64() * per_s).min(f64::from(REQUEST_BURST));
        c.refilled = now;
        if c.tokens >= 1.0 {
            c.tokens -= 1.0;
            return Ok(());
        }
        let wait = Duration::from_secs_f64((1.0 - c.tokens) / per_s);
        Err(MapRefusal::TooManyRequests { retry_after_s: secs(wait) })
    }

    /// The chunks due to `conn` now, given its reliable `backlog`: as many
    /// as its byte budget and the backlog room allow.
    fn due_chunks(&mut self, conn: ConnId, backlog: usize, now: Instant) -> Vec<ServerMessage> {
        let rate = f64::from(self.settings.rate.max(1));
        let Some(t) = self.clients.get_mut(&conn).and_then(|c| c.transfer.as_mut()) else { return Vec::new() };
        let chunk_len = chunk_len(self.settings.rate);
        let cap = (rate / 10.0).max(chunk_len as f64);
        t.budget = (t.budget + now.saturating_duration_since(t.filled).as_secs_f64() * rate).min(cap);
        t.filled = now;
        let mut out = Vec::new();
        let mut queued = backlog;
        while out.len() < MAX_CHUNKS_PER_TICK && queued + chunk_len <= BACKLOG_ROOM {
            let Some(chunk) = t.offer.chunk(t.next, chunk_len) else { break };
            let len = chunk.data.len();
            if t.budget < len as f64 {
                break;
            }
            t.budget -= len as f64;
            t.next += len as u64;
            queued += len;
            out.push(ServerMessage::MapChunk(chunk));
        }
        out
    }

    /// Ends `conn`'s transfer if it sent its last byte; returns how long
    /// it took and the map's name.
    fn finish_if_done(&mut self, conn: ConnId, now: Instant) -> Option<(Duration, u64, String)> {
        let c = self.clients.get_mut(&conn)?;
        let t = c.transfer.as_ref()?;
        if t.next < t.offer.total() {
            return None;
        }
        let done = (now.saturating_duration_since(t.started), t.offer.total(), t.offer.name.clone());
        c.transfer = None;
        self.counts.finished += 1;
        Some(done)
    }

    /// Clients with a transfer in flight.
    fn downloading(&self) -> Vec<ConnId> {
        self.clients.iter().filter(|(_, c)| c.transfer.is_some()).map(|(k, _)| *k).collect()
    }

    fn drop_transfer(&mut self, conn: ConnId) {
        if let Some(c) = self.clients.get_mut(&conn) {
            c.transfer = None;
        }
    }
}

/// The chunk size at `rate` bytes a second: a tenth of a second's worth,
/// at least 1 KiB (smaller chunks cost more in framing than they smooth)
/// and at most [`MAP_CHUNK_LEN`]. A slow rate sends small chunks often
/// rather than a big one after a long wait.
fn chunk_len(rate: u32) -> usize {
    usize::try_from(rate / 10).unwrap_or(MAP_CHUNK_LEN).clamp(1024, MAP_CHUNK_LEN)
}

/// Whole seconds, rounded up/// Whole seconds, rounded up (a wait of 0.2 s is "1 s").
fn secs(d: Duration) -> u32 {
    u32::try_from(d.as_millis().div_ceil(1000)).unwrap_or(u32::MAX)
}

impl NetServer {
    /// A client asked for the map: starts its transfer or tells it why not.
    pub(super) fn on_map_request(&mut self, conn: ConnId, name: &str, msg: ClientMessage, lines: &mut Vec<String>) {
        let ClientMessage::MapRequest { hash, offset } = msg else { return };
        match self.downloads.request(conn, hash, offset, Instant::now()) {
            Ok(()) => {
                let total = self.downloads.offer().map_or(0, |o| o.total());
                lines.push(format!("sending the map to {name} ({total} bytes compressed)"));
            }
            Err(reason) => {
                tracing::debug!(%reason, "map request from {name} refused");
                let _ = self.transport.send_reliable(conn, &ServerMessage::MapRefused { hash, reason });
            }
        }
    }

    /// Queues each downloading client's chunks for this tick.
    pub(super) fn send_map_chunks(&mut self, lines: &mut Vec<String>) {
        let now = Instant::now();
        for conn in self.downloads.downloading() {
            let Some(stats) = self.transport.stats(conn) else {
                self.downloads.drop_transfer(conn);
                continue;
            };
            for chunk in self.downloads.due_chunks(conn, stats.reliable_backlog, now) {
                if self.transport.send_reliable(conn, &chunk).is_err() {
                    self.downloads.drop_transfer(conn);
                    break;
                }
            }
            if let Some((took, bytes, map)) = self.downloads.finish_if_done(conn, now) {
                let name = self.clients.get(&conn).map_or("?", |c| c.name.as_str());
                lines.push(format!("sent {map} to {name}: {bytes} bytes in {:.1} s", took.as_secs_f64()));
            }
        }
    }

    /// The `status` line of the downloads.
    pub(super) fn download_status(&self) -> String {
        let c = self.downloads.counts();
        let s = self.downloads.settings;
        let offer = self.downloads.offer().map_or_else(|| "no map file".to_owned(), |o| format!("{} {} bytes, {} compressed", o.name, o.size, o.total()));
        format!(
            "downloads: {} ({offer}); rate {} B/s, cap {} bytes; {} in flight, {} started, {} finished, {} refused",
            if s.allow { "on" } else { "off (sv_allowDownload 0)" },
            s.rate,
            s.max_bytes,
            self.downloads.in_flight(),
            c.started,
            c.finished,
            c.refused,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(text: &str) -> Arc<MapOffer> {
        Arc::new(MapOffer::new("q_test", text.repeat(2000).as_bytes()).expect("offer"))
    }

    fn conn(n: u64) -> ConnId {
        ConnId(n)
    }

    #[test]
    fn requests_are_refused_by_the_rules_in_order() {
        let t0 = Instant::now();
        let map = offer("{ \"classname\" \"worldspawn\" }\n");
        let mut d = Downloads::default();
        let settings = DownloadSettings::default();
        assert!(d.set_map(Some(&map), settings));
        assert!(!d.set_map(Some(&map), settings), "the same map is no change");
        assert_eq!(d.request(conn(1), MapHash::of(b"other"), 0, t0), Err(MapRefusal::NotCurrent { map: "q_test".into(), hash: map.hash }));
        assert!(matches!(d.request(conn(1), map.hash, map.total(), t0), Err(MapRefusal::BadRequest(_))));
        assert_eq!(d.request(conn(1), map.hash, 0, t0), Ok(()));
        // The quota of three is spent; the fourth waits a whole interval.
        assert_eq!(d.request(conn(1), map.hash, 0, t0), Err(MapRefusal::TooManyRequests { retry_after_s: 20 }));
        assert_eq!(d.request(conn(1), map.hash, 0, t0 + Duration::from_secs(15)), Err(MapRefusal::TooManyRequests { retry_after_s: 5 }));
        assert_eq!(d.request(conn(1), map.hash, 0, t0 + Duration::from_secs(21)), Ok(()));
        // Other clients have their own quotas; caps and the switch apply to all.
        d.set_map(Some(&map), DownloadSettings { max_bytes: 10, ..settings });
        assert_eq!(d.request(conn(2), map.hash, 0, t0), Err(MapRefusal::TooBig { size: map.total(), max: 10 }));
        d.set_map(Some(&map), DownloadSettings { allow: false, ..settings });
        assert_eq!(d.request(conn(3), map.hash, 0, t0), Err(MapRefusal::DownloadsOff { file: "q_test.map".into(), hash: map.hash }));
        d.set_map(None, settings);
        assert!(matches!(d.request(conn(4), map.hash, 0, t0), Err(MapRefusal::Unavailable(_))));
        assert_eq!(d.counts(), DownloadCounts { started: 2, finished: 0, refused: 7 });
        assert_eq!(d.in_flight(), 0, "a new map drops the old one's transfers");
    }

    #[test]
    fn at_most_a_few_transfers_run_at_once() {
        let t0 = Instant::now();
        let map = offer("{ }\n");
        let mut d = Downloads::default();
        d.set_map(Some(&map), DownloadSettings::default());
        for i in 0..MAX_TRANSFERS as u64 {
            assert_eq!(d.request(conn(i), map.hash, 0, t0), Ok(()));
        }
        assert_eq!(d.request(conn(99), map.hash, 0, t0), Err(MapRefusal::TooManyRequests { retry_after_s: 10 }));
        // A client restarting its own transfer is not blocked by the others.
        assert_eq!(d.request(conn(0), map.hash, 0, t0), Ok(()));
        assert_eq!(d.in_flight(), MAX_TRANSFERS);
    }

    #[test]
    fn chunks_leave_at_the_rate_and_stop_at_the_backlog_room() {
        let t0 = Instant::now();
        // Text that does not compress much: 200 kB of pseudo-random digits.
        let mut x = 12345u64;
        let text: String = (0..200_000)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                char::from(b'0' + ((x >> 33) % 10) as u8)
            })
            .collect();
        let map = Arc::new(MapOffer::new("noise", text.as_bytes()).expect("offer"));
        assert!(map.total() > 60_000, "{}", map.total());
        let mut d = Downloads::default();
        d.set_map(Some(&map), DownloadSettings { rate: 100_000, ..DownloadSettings::default() });
        d.request(conn(1), map.hash, 0, t0).expect("request");
        assert!(d.due_chunks(conn(1), 0, t0).is_empty(), "nothing before any time has passed");
        // A tenth of a second fills the budget to its cap: one 10 kB chunk.
        let sent = d.due_chunks(conn(1), 0, t0 + Duration::from_secs(5));
        assert_eq!(sent.len(), 1, "the budget holds one chunk, not five seconds' worth");
        assert!(matches!(&sent[0], ServerMessage::MapChunk(c) if c.data.len() == 10_000));
        // One second later: 100 kB has flowed in, but the budget holds one chunk.
        let chunks = d.due_chunks(conn(1), 0, t0 + Duration::from_secs(6));
        assert_eq!(chunks.len(), 1, "the budget's cap is one chunk at this rate");
        let none = d.due_chunks(conn(1), BACKLOG_ROOM, t0 + Duration::from_secs(7));
        assert!(none.is_empty(), "a full backlog stops the transfer");
        // Sent to the end, the transfer finishes once.
        let mut now = t0 + Duration::from_secs(7);
        for _ in 0..100 {
            now += Duration::from_secs(1);
            d.due_chunks(conn(1), 0, now);
        }
        assert!(d.finish_if_done(conn(1), now).is_some());
        assert!(d.finish_if_done(conn(1), now).is_none());
        assert_eq!(d.counts().finished, 1);
    }

    #[test]
    fn chunks_are_a_tenth_of_a_second_within_bounds() {
        assert_eq!(chunk_len(8_000), 1024);
        assert_eq!(chunk_len(100_000), 10_000);
        assert_eq!(chunk_len(1_000_000), MAP_CHUNK_LEN);
    }

    #[test]
    fn waits_round_up_to_whole_seconds() {
        assert_eq!(secs(Duration::from_millis(200)), 1);
        assert_eq!(secs(Duration::from_secs(20)), 20);
        assert_eq!(secs(Duration::ZERO), 0);
    }
}
