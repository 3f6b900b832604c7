//! Heartbeats to the master servers, from the game port, on the
//! endpoint's runtime (never the tick thread): with `sv_public` on, each
//! master's name is resolved for IPv4 and IPv6 (again every day, as
//! ioquake3 does) and every address gets `heartbeat DarkPlaces` every 300 s,
//! at once when the settings change or the owner says the server became
//! empty, non-empty or full ([`Heartbeats::kick`]), and a last time at
//! shutdown. The master then asks `getinfo` back at the heartbeat's source,
//! which the out-of-band handler answers.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use quinn::AsyncUdpSocket;
use quinn::udp::Transmit;
use tokio::sync::{Notify, watch};
use tracing::{debug, info, warn};

use super::oob::OobPlane;
use crate::oob::q3;

/// The usual master port (ioquake3's `PORT_MASTER`).
pub const MASTER_PORT: u16 = 27950;
/// Time between heartbeats (ioquake3's `HEARTBEAT_MSEC`; a master keeps a
/// server for 15 minutes after its last answer).
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(300);
/// Time between resolutions of the masters' names (ioquake3's `MASTERDNS_MSEC`).
pub(crate) const RESOLVE_EVERY: Duration = Duration::from_secs(24 * 3600);
/// The shortest time between two heartbeats (changes that come faster are
/// told together).
pub(crate) const MIN_GAP: Duration = Duration::from_millis(500);
/// How long one master's name may take to resolve.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);
/// Masters at most (ioquake3 has five `sv_master` cvars).
pub const MAX_MASTERS: usize = 5;

/// Where and whether to heartbeat.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MasterSettings {
    /// `sv_public`: heartbeat at all.
    pub public: bool,
    /// The masters, `HOST` or `HOST:PORT` (empty ones are skipped).
    pub masters: Vec<String>,
}

/// What the heartbeats did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeartbeatStats {
    /// Heartbeat datagrams sent.
    pub sent: u64,
    /// Heartbeat datagrams the socket refused (no route, wrong family).
    pub failed: u64,
    /// Master addresses known (both families of every master).
    pub addresses: u64,
}

/// The owner's handle on the heartbeat task.
pub(crate) struct Heartbeats {
    settings: watch::Sender<MasterSettings>,
    kick: Arc<Notify>,
    shared: Arc<Shared>,
}

struct Shared {
    socket: Arc<dyn AsyncUdpSocket>,
    /// The out-of-band side, told the masters' addresses.
    plane: Arc<OobPlane>,
    /// Whether the socket is IPv6 (dual-stack): IPv4 masters are then
    /// written as `::ffff:a.b.c.d`.
    v6_socket: bool,
    resolved: Mutex<Vec<SocketAddr>>,
    sent: AtomicU64,
    failed: AtomicU64,
}

impl Shared {
    /// Heartbeats every known master, waiting for the socket to take each
    /// (a fresh socket is not known writable until polled).
    async fn send_all_when_writable(&self) {
        let mut poller = Arc::clone(&self.socket).create_io_poller();
        for _ in 0..3 {
            if std::future::poll_fn(|cx| poller.as_mut().poll_writable(cx)).await.is_err() {
                break;
            }
            if self.send_all() {
                return;
            }
        }
    }

    /// Heartbeats every known master now; `false` if the socket's buffer
    /// was full for any (nothing is counted then, and nothing sent twice
    /// matters: a heartbeat only asks the master to ask back).
    fn send_all(&self) -> bool {
        let targets = self.resolved.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let beat = q3::heartbeat();
        for to in targets {
            let destination = match (to, self.v6_socket) {
                (SocketAddr::V4(v4), true) => SocketAddr::new(IpAddr::V6(v4.ip().to_ipv6_mapped()), v4.port()),
                (other, _) => other,
            };
            let t = Transmit { destination, ecn: None, contents: &beat, segment_size: None, src_ip: None };
            match self.socket.try_send(&t) {
                Ok(()) => {
                    self.sent.fetch_add(1, Ordering::Relaxed);
                    debug!(master = %to, "heartbeat");
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
                Err(e) => {
                    self.failed.fetch_add(1, Ordering::Relaxed);
                    debug!(master = %to, error = %e, "heartbeat not sent");
                }
            }
        }
        true
    }
}

impl Heartbeats {
    /// Starts the task on the current runtime, sending through `socket`
    /// and telling `plane` where the masters are.
    pub(crate) fn start(socket: Arc<dyn AsyncUdpSocket>, plane: Arc<OobPlane>) -> Self {
        let v6_socket = socket.local_addr().map(|a| a.is_ipv6()).unwrap_or(false);
        let shared = Arc::new(Shared { socket, plane, v6_socket, resolved: Mutex::new(Vec::new()), sent: AtomicU64::new(0), failed: AtomicU64::new(0) });
        let (settings, rx) = watch::channel(MasterSettings::default());
        let kick = Arc::new(Notify::new());
        tokio::spawn(run(Arc::clone(&shared), rx, Arc::clone(&kick)));
        Self { settings, kick, shared }
    }

    /// New settings (resolved and told at once when they differ).
    pub(crate) fn configure(&self, settings: MasterSettings) {
        self.settings.send_if_modified(|s| {
            let changed = *s != settings;
            *s = settings;
            changed
        });
    }

    /// The server became empty, non-empty or full: heartbeat now.
    pub(crate) fn kick(&self) {
        self.kick.notify_one();
    }

    /// The last heartbeat, at shutdown (to the addresses already known).
    pub(crate) fn last(&self) {
        if self.settings.borrow().public {
            let _ = self.shared.send_all();
        }
    }

    /// The counters.
    pub(crate) fn stats(&self) -> HeartbeatStats {
        HeartbeatStats {
            sent: self.shared.sent.load(Ordering::Relaxed),
            failed: self.shared.failed.load(Ordering::Relaxed),
            addresses: self.shared.resolved.lock().unwrap_or_else(PoisonError::into_inner).len() as u64,
        }
    }
}

async fn run(shared: Arc<Shared>, mut settings: watch::Receiver<MasterSettings>, kick: Arc<Notify>) {
    let mut resolved_at: Option<Instant> = None;
    let mut last_beat: Option<Instant> = None;
    loop {
        let s = settings.borrow_and_update().clone();
        if s.public {
            if resolved_at.is_none_or(|t| t.elapsed() >= RESOLVE_EVERY) {
                let addrs = resolve_all(&s.masters).await;
                shared.plane.set_masters(&addrs.iter().map(SocketAddr::ip).collect::<Vec<_>>());
                *shared.resolved.lock().unwrap_or_else(PoisonError::into_inner) = addrs;
                resolved_at = Some(Instant::now());
            }
            if let Some(t) = last_beat
                && t.elapsed() < MIN_GAP
            {
                tokio::time::sleep(MIN_GAP.saturating_sub(t.elapsed())).await;
            }
            shared.send_all_when_writable().await;
            last_beat = Some(Instant::now());
        }
        tokio::select! {
            () = tokio::time::sleep(HEARTBEAT_EVERY) => {}
            () = kick.notified() => {}
            changed = settings.changed() => {
                if changed.is_err() {
                    return; // the owner is gone
                }
                resolved_at = None;
            }
        }
    }
}

/// Every master's addresses: the first of each family its name gives.
async fn resolve_all(masters: &[String]) -> Vec<SocketAddr> {
    let mut out = Vec::new();
    for m in masters.iter().map(|m| m.trim()).filter(|m| !m.is_empty()).take(MAX_MASTERS) {
        let Some((host, port)) = split_host_port(m) else {
            warn!(master = m, "a master must be HOST or HOST:PORT");
            continue;
        };
        let found = match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((host, port))).await {
            Ok(Ok(addrs)) => addrs.collect::<Vec<_>>(),
            Ok(Err(e)) => {
                warn!(master = m, error = %e, "master not resolved");
                continue;
            }
            Err(_) => {
                warn!(master = m, "master not resolved within 5 s");
                continue;
            }
        };
        let v4 = found.iter().find(|a| a.is_ipv4()).copied();
        let v6 = found.iter().find(|a| a.is_ipv6()).copied();
        let mine: Vec<SocketAddr> = v4.into_iter().chain(v6).collect();
        info!(master = m, addresses = ?mine, "master resolved");
        for a in mine {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// `HOST`, `HOST:PORT`, `[V6]:PORT` or a bare IPv6 address.
pub fn split_host_port(s: &str) -> Option<(&str, u16)> {
    if s.parse::<IpAddr>().is_ok() {
        return Some((s, MASTER_PORT));
    }
    if let Some(rest) = s.strip_prefix('[') {
        let (host, tail) = rest.split_once(']')?;
        return match tail.strip_prefix(':') {
            Some(p) => Some((host, p.parse().ok()?)),
            None if tail.is_empty() => Some((host, MASTER_PORT)),
            None => None,
        };
    }
    match s.rsplit_once(':') {
        Some((host, port)) => Some((host, port.parse().ok()?)),
        None => Some((s, MASTER_PORT)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn master_names_take_a_default_port() {
        assert_eq!(split_host_port("dpmaster.deathmask.net"), Some(("dpmaster.deathmask.net", 27950)));
        assert_eq!(split_host_port("127.0.0.1:27951"), Some(("127.0.0.1", 27951)));
        assert_eq!(split_host_port("[::1]:5"), Some(("::1", 5)));
        assert_eq!(split_host_port("::1"), Some(("::1", 27950)));
        assert_eq!(split_host_port("host:port"), None);
    }
}
