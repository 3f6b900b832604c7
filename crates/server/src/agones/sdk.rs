//! The SDK over the gateway: the tick thread's calls go into a bounded
//! queue, a worker thread sends them (`http.rs`) and watches the GameServer
//! for an allocation, which comes back through a second bounded queue.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::http::{Gateway, GatewayError, Reply};
use super::{Allocation, FleetSdk};

/// Calls waiting for the worker; past this they are dropped and counted.
pub const QUEUE: usize = 64;
/// How often the worker reads the GameServer (for `Allocated`), once Ready.
pub const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// How often a `Ready` the sidecar did not take is tried again.
pub const READY_RETRY: Duration = Duration::from_secs(1);

/// One call to the gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Call {
    Ready,
    Health,
    Shutdown,
    Counter { name: &'static str, count: u64, capacity: u64 },
    Annotation { key: &'static str, value: String },
}

/// The SDK over the REST gateway (see the module doc).
pub struct HttpSdk {
    calls: Option<SyncSender<Call>>,
    allocations: Receiver<Allocation>,
    dropped: Arc<AtomicU64>,
    worker: Option<JoinHandle<()>>,
}

impl HttpSdk {
    /// Starts the worker for the gateway on localhost:`port`.
    pub fn start(port: u16) -> Self {
        let (calls, queue) = std::sync::mpsc::sync_channel(QUEUE);
        let (found, allocations) = std::sync::mpsc::sync_channel(4);
        let gateway = Gateway::localhost(port);
        let worker = std::thread::Builder::new()
            .name("agones-sdk".into())
            .spawn(move || Worker::new(gateway, found).run(&queue))
            .map_err(|e| tracing::warn!("Agones: cannot start the SDK thread: {e}"))
            .ok();
        Self { calls: Some(calls), allocations, dropped: Arc::new(AtomicU64::new(0)), worker }
    }

    fn push(&self, call: Call) {
        let Some(calls) = &self.calls else { return };
        match calls.try_send(call) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

impl FleetSdk for HttpSdk {
    fn ready(&mut self) {
        self.push(Call::Ready);
    }
    fn health(&mut self) {
        self.push(Call::Health);
    }
    fn shutdown(&mut self) {
        self.push(Call::Shutdown);
    }
    fn set_counter(&mut self, name: &'static str, count: u64, capacity: u64) {
        self.push(Call::Counter { name, count, capacity });
    }
    fn set_annotation(&mut self, key: &'static str, value: String) {
        self.push(Call::Annotation { key, value });
    }
    fn allocated(&mut self) -> Option<Allocation> {
        self.allocations.try_recv().ok()
    }
    fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
    fn finish(&mut self, limit: Duration) {
        // The worker sends what is queued, sees the queue closed and ends.
        self.calls = None;
        let Some(worker) = self.worker.take() else { return };
        let deadline = Instant::now() + limit;
        while !worker.is_finished() {
            if Instant::now() >= deadline {
                tracing::warn!("Agones: the SDK calls still queued were not all sent within {limit:?}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = worker.join();
    }
}

impl Drop for HttpSdk {
    fn drop(&mut self) {
        // Closing the queue ends the worker; nothing waits for it here.
        self.calls = None;
    }
}

/// The worker thread's state.
struct Worker {
    gateway: Gateway,
    found: SyncSender<Allocation>,
    /// `Ready` asked for and not yet taken by the sidecar: when to try again.
    ready_retry: Option<Instant>,
    ready: bool,
    next_poll: Instant,
    /// The GameServer's state last read.
    state: String,
    /// Counters the sidecar does not know (404): not sent again.
    missing: Vec<&'static str>,
    /// Whether the last call of each kind failed (each outage logged once).
    failing: [bool; 5],
}

impl Worker {
    fn new(gateway: Gateway, found: SyncSender<Allocation>) -> Self {
        Self { gateway, found, ready_retry: None, ready: false, next_poll: Instant::now(), state: String::new(), missing: Vec::new(), failing: [false; 5] }
    }

    fn run(mut self, queue: &Receiver<Call>) {
        loop {
            let now = Instant::now();
            let mut wake = now + POLL_INTERVAL;
            if self.ready {
                wake = wake.min(self.next_poll);
            }
            if let Some(t) = self.ready_retry {
                wake = wake.min(t);
            }
            match queue.recv_timeout(wake.saturating_duration_since(now)) {
                Ok(call) => self.send(call),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            let now = Instant::now();
            if self.ready_retry.is_some_and(|t| now >= t) {
                self.send(Call::Ready);
            }
            if self.ready && now >= self.next_poll {
                self.next_poll = now + POLL_INTERVAL;
                self.poll();
            }
        }
    }

    fn send(&mut self, call: Call) {
        let (kind, method, path, body) = match &call {
            Call::Ready => (0, "POST", "/ready".to_owned(), "{}".to_owned()),
            Call::Health => (1, "POST", "/health".to_owned(), "{}".to_owned()),
            Call::Shutdown => (2, "POST", "/shutdown".to_owned(), "{}".to_owned()),
            Call::Counter { name, .. } if self.missing.contains(name) => return,
            Call::Counter { name, count, capacity } => {
                (3, "PATCH", format!("/v1beta1/counters/{name}"), format!("{{\"count\":\"{count}\",\"capacity\":\"{capacity}\"}}"))
            }
            Call::Annotation { key, value } => (4, "PUT", "/metadata/annotation".to_owned(), serde_json::json!({ "key": key, "value": value }).to_string()),
        };
        let mut result = self.gateway.request(method, &path, &body);
        if call == Call::Shutdown && !result.as_ref().is_ok_and(Reply::ok) {
            // The last call this server makes: one more try.
            std::thread::sleep(Duration::from_millis(200));
            result = self.gateway.request(method, &path, &body);
        }
        match (&call, &result) {
            (Call::Counter { name, .. }, Ok(Reply { status: 404, .. })) => {
                tracing::warn!("Agones: counter '{name}' is not declared in the GameServer spec (404); it is not updated again");
                self.missing.push(name);
                return;
            }
            (Call::Ready, Ok(r)) if r.ok() => {
                self.ready_retry = None;
                self.ready = true;
                tracing::info!("Agones: Ready");
            }
            (Call::Ready, _) => self.ready_retry = Some(Instant::now() + READY_RETRY),
            (Call::Shutdown, Ok(r)) if r.ok() => tracing::info!("Agones: Shutdown sent"),
            _ => {}
        }
        let failed = match &result {
            Ok(r) if r.ok() => None,
            Ok(r) => Some(format!("HTTP {}: {}", r.status, r.body.chars().take(200).collect::<String>())),
            Err(e) => Some(e.to_string()),
        };
        match (failed, self.failing[kind]) {
            (Some(why), false) => {
                self.failing[kind] = true;
                tracing::warn!("Agones: {method} {path} failed: {why} (logged again once it works)");
            }
            (None, true) => {
                self.failing[kind] = false;
                tracing::info!("Agones: {method} {path} works again");
            }
            _ => {}
        }
    }

    /// Reads the GameServer; on a change to `Allocated`, hands the tick
    /// what its metadata asks for.
    fn poll(&mut self) {
        let gameserver = match self.gateway.request("GET", "/gameserver", "") {
            Ok(r) if r.ok() => serde_json::from_str::<serde_json::Value>(&r.body).map_err(|e| GatewayError::Io(std::io::Error::other(e))),
            Ok(r) => Err(GatewayError::Io(std::io::Error::other(format!("HTTP {}", r.status)))),
            Err(e) => Err(e),
        };
        let gameserver = match gameserver {
            Ok(g) => g,
            Err(e) => {
                tracing::debug!("Agones: GET /gameserver: {e}");
                return;
            }
        };
        let state = gameserver["status"]["state"].as_str().unwrap_or_default().to_owned();
        if state == self.state {
            return;
        }
        tracing::info!("Agones: GameServer state {state}");
        if state == "Allocated" && self.found.try_send(Allocation::from_gameserver(&gameserver)).is_err() {
            tracing::warn!("Agones: an allocation was not handed to the tick (queue full)");
        }
        self.state = state;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::sync::Mutex;

    /// A gateway that records `METHOD PATH BODY` and answers `gameserver`
    /// to `GET /gameserver`, 404 to counter `nope`, `{}` otherwise.
    fn fake(gameserver: Arc<Mutex<String>>) -> (u16, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut s) = stream else { continue };
                let mut raw = Vec::new();
                let mut buf = [0u8; 4096];
                let request = loop {
                    let Ok(n) = s.read(&mut buf) else { break None };
                    if n == 0 {
                        break None;
                    }
                    raw.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&raw).into_owned();
                    if let Some((head, body)) = text.split_once("\r\n\r\n") {
                        let len = head.lines().find_map(|l| l.strip_prefix("Content-Length: ")?.parse::<usize>().ok()).unwrap_or(0);
                        if body.len() >= len {
                            let line: Vec<&str> = head.lines().next().unwrap_or_default().split(' ').collect();
                            break Some(format!("{} {} {body}", line[0], line[1]));
                        }
                    }
                };
                let Some(request) = request else { continue };
                let (status, body) = if request.starts_with("GET /gameserver") {
                    ("200 OK", gameserver.lock().expect("lock").clone())
                } else if request.contains("/counters/nope") {
                    ("404 Not Found", "{\"code\":5}".to_owned())
                } else {
                    ("200 OK", "{}".to_owned())
                };
                log.lock().expect("lock").push(request);
                let _ = write!(s, "HTTP/1.1 {status}\r\nContent-Length: {}\r\n\r\n{body}", body.len());
            }
        });
        (port, seen)
    }

    fn wait_until(what: &str, f: impl Fn() -> bool) {
        let end = Instant::now() + Duration::from_secs(10);
        while !f() {
            assert!(Instant::now() < end, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn calls_reach_the_gateway_in_order_and_an_allocation_comes_back_once() {
        let gameserver = Arc::new(Mutex::new(r#"{"status":{"state":"Ready"}}"#.to_owned()));
        let (port, seen) = fake(Arc::clone(&gameserver));
        let mut sdk = HttpSdk::start(port);
        sdk.ready();
        sdk.health();
        sdk.set_counter("players", 3, 16);
        sdk.set_counter("nope", 1, 16);
        sdk.set_counter("nope", 2, 16);
        let count = |prefix: &str| seen.lock().expect("lock").iter().filter(|r| r.starts_with(prefix)).count();
        wait_until("the polls", || count("GET /gameserver") >= 1);
        {
            // The polls start once Ready is taken; the calls keep their order.
            let seen: Vec<String> = seen.lock().expect("lock").iter().filter(|r| !r.starts_with("GET ")).cloned().collect();
            assert_eq!(seen[..4], ["POST /ready {}", "POST /health {}", r#"PATCH /v1beta1/counters/players {"count":"3","capacity":"16"}"#, r#"PATCH /v1beta1/counters/nope {"count":"1","capacity":"16"}"#]);
            // A counter the sidecar does not know is not sent again.
            assert_eq!(seen.iter().filter(|r| r.contains("/nope")).count(), 1, "{seen:?}");
        }
        assert_eq!(sdk.allocated(), None);
        *gameserver.lock().expect("lock") =
            r#"{"object_meta":{"labels":{"quarry.map":"q_duel1","quarry.gametype":"duel"}},"status":{"state":"Allocated"}}"#.to_owned();
        wait_until("the allocation", || count("GET /gameserver") >= 3);
        let end = Instant::now() + Duration::from_secs(5);
        let allocation = loop {
            if let Some(a) = sdk.allocated() {
                break a;
            }
            assert!(Instant::now() < end, "no allocation");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(allocation, Allocation { map: Some("q_duel1".into()), gametype: Some("duel".into()) });
        // Still Allocated on the next polls: not handed over again.
        let polls = count("GET /gameserver");
        wait_until("two more polls", || count("GET /gameserver") >= polls + 2);
        assert_eq!(sdk.allocated(), None);
        sdk.shutdown();
        sdk.finish(Duration::from_secs(3));
        assert_eq!(seen.lock().expect("lock").last().map(String::as_str), Some("POST /shutdown {}"));
        assert_eq!(sdk.dropped(), 0);
    }

    #[test]
    fn ready_is_retried_until_the_sidecar_answers_and_a_full_queue_drops() {
        // Nothing listens yet on the port: the sidecar starts after us.
        let probe = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = probe.local_addr().expect("addr").port();
        drop(probe);
        let mut sdk = HttpSdk::start(port);
        sdk.ready();
        std::thread::sleep(READY_RETRY + Duration::from_millis(300));
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("rebind");
        let (mut s, _) = listener.accept().expect("the ready retry connects");
        let mut buf = [0u8; 512];
        let n = s.read(&mut buf).expect("read");
        assert!(String::from_utf8_lossy(&buf[..n]).starts_with("POST /ready "));
        // The worker now waits for this reply (2 s at most): the queue fills.
        for _ in 0..QUEUE + 10 {
            sdk.health();
        }
        assert!(sdk.dropped() >= 9, "{}", sdk.dropped());
        drop(s);
        sdk.finish(Duration::ZERO);
    }
}
