//! Services on the game's QUIC endpoint besides play, each on an ALPN of
//! its own, so they share the port, the TLS certificate players pin, and
//! QUIC's address validation:
//!
//! | ALPN | what | file |
//! |---|---|---|
//! | [`ADMIN_ALPN`] | remote administration: sign in with a key, run console commands | `admin.rs`, `auth.rs` |
//! | [`QUERY_ALPN`] | the server query: name, map, players, without a slot | `query.rs` |
//!
//! Both run on the transport's runtime, never on the tick thread: the tick
//! publishes the query answer now and then, and takes admin commands from
//! a bounded queue once per tick (see [`crate::transport::ServerTransport`]).
//! `wire.rs` frames their messages; `client.rs` is the blocking client side
//! (`quarry-client query`, `quarry-client rcon`).

pub mod admin;
pub mod auth;
pub mod client;
pub mod query;
pub mod wire;

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, watch};

pub use admin::{AdminRequest, AdminRequestKind, MAX_ADMIN_SESSIONS, MAX_PENDING_SIGNINS, SIGNIN_STEP};
pub use auth::{AdminKey, AdminKeyError, AdminKeys, Role};
pub use query::{QueryInfo, QueryPlayer};

/// The ALPN of remote administration.
pub const ADMIN_ALPN: &[u8] = b"quarry-admin/1";
/// The ALPN of the server query.
pub const QUERY_ALPN: &[u8] = b"quarry-query/1";

/// Admin requests waiting for the tick thread at most; more are refused
/// with "busy".
pub const ADMIN_QUEUE: usize = 64;

/// What the services did, for `status` and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServiceStats {
    /// Queries answered.
    pub queries: u64,
    /// Queries refused by the per-address rate limit.
    pub queries_limited: u64,
    /// Admin sign-ins that succeeded.
    pub admin_signins: u64,
    /// Admin sign-ins refused (wrong key, unknown name, bad messages).
    pub admin_failures: u64,
    /// Admin attempts refused because the address was locked out.
    pub admin_locked_out: u64,
    /// Admin connections refused because their address had sign-ins in
    /// progress or every admin session was taken.
    pub admin_busy: u64,
}

#[derive(Debug, Default)]
struct Counters {
    queries: AtomicU64,
    queries_limited: AtomicU64,
    admin_signins: AtomicU64,
    admin_failures: AtomicU64,
    admin_locked_out: AtomicU64,
    admin_busy: AtomicU64,
}

/// What the accept task's service handlers share with the owner.
pub(crate) struct Services {
    query: watch::Receiver<Arc<Vec<u8>>>,
    query_limit: Mutex<query::QueryLimit>,
    admins: watch::Receiver<Arc<AdminKeys>>,
    lockout: Mutex<crate::lockout::Lockout>,
    requests: mpsc::Sender<AdminRequest>,
    sessions: tokio::sync::Semaphore,
    /// Sign-ins in progress by address group.
    signing_in: Mutex<std::collections::HashMap<std::net::IpAddr, usize>>,
    next_session: AtomicU64,
    counters: Counters,
}

/// The owner's side: publish, configure, drain.
pub(crate) struct ServiceHandles {
    pub(crate) query: watch::Sender<Arc<Vec<u8>>>,
    pub(crate) admins: watch::Sender<Arc<AdminKeys>>,
    pub(crate) requests: mpsc::Receiver<AdminRequest>,
}

impl Services {
    /// The shared state and the owner's handles.
    pub(crate) fn new() -> (Arc<Self>, ServiceHandles) {
        let (query_tx, query) = watch::channel(Arc::new(QueryInfo::default().encode()));
        let (admins_tx, admins) = watch::channel(Arc::new(AdminKeys::default()));
        let (requests_tx, requests) = mpsc::channel(ADMIN_QUEUE);
        let services = Arc::new(Self {
            query,
            query_limit: Mutex::new(query::QueryLimit::default()),
            admins,
            lockout: Mutex::new(crate::lockout::Lockout::default()),
            requests: requests_tx,
            sessions: tokio::sync::Semaphore::new(MAX_ADMIN_SESSIONS),
            signing_in: Mutex::new(std::collections::HashMap::new()),
            next_session: AtomicU64::new(1),
            counters: Counters::default(),
        });
        (services, ServiceHandles { query: query_tx, admins: admins_tx, requests })
    }

    /// The counters.
    pub(crate) fn stats(&self) -> ServiceStats {
        let c = &self.counters;
        ServiceStats {
            queries: c.queries.load(Ordering::Relaxed),
            queries_limited: c.queries_limited.load(Ordering::Relaxed),
            admin_signins: c.admin_signins.load(Ordering::Relaxed),
            admin_failures: c.admin_failures.load(Ordering::Relaxed),
            admin_locked_out: c.admin_locked_out.load(Ordering::Relaxed),
            admin_busy: c.admin_busy.load(Ordering::Relaxed),
        }
    }

    /// A place for a sign-in from `ip`, unless its address group has
    /// [`admin::MAX_PENDING_SIGNINS`] in progress; given back on drop.
    pub(crate) fn pending_signin(&self, ip: std::net::IpAddr) -> Option<PendingSignin<'_>> {
        let group = crate::transport::address_group(ip);
        let mut pending = self.signing_in.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let n = pending.entry(group).or_insert(0);
        if *n >= admin::MAX_PENDING_SIGNINS {
            return None;
        }
        *n += 1;
        Some(PendingSignin { services: self, group })
    }

    /// Serves a connection that chose a service ALPN; `false` if `alpn` is
    /// not one.
    pub(crate) fn serve(self: &Arc<Self>, alpn: &[u8], conn: quinn::Connection, guard: crate::transport::admission::AdmissionGuard) -> bool {
        let services = Arc::clone(self);
        if alpn == QUERY_ALPN {
            tokio::spawn(async move {
                query_session(&services, conn).await;
                drop(guard);
            });
            true
        } else if alpn == ADMIN_ALPN {
            tokio::spawn(async move {
                admin::session(&services, conn, guard.ticket()).await;
                drop(guard);
            });
            true
        } else {
            false
        }
    }
}

/// A sign-in in progress from one address group.
pub(crate) struct PendingSignin<'a> {
    services: &'a Services,
    group: std::net::IpAddr,
}

impl Drop for PendingSignin<'_> {
    fn drop(&mut self) {
        let mut pending = self.services.signing_in.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = pending.get_mut(&self.group) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                pending.remove(&self.group);
            }
        }
    }
}

/// One query: the client opens a stream and sends anything; it gets the
/// latest answer, unless its address is over the rate.
async fn query_session(services: &Services, conn: quinn::Connection) {
    let ip = conn.remote_address().ip().to_canonical();
    let allowed = services.query_limit.lock().map(|mut l| l.allow(ip, std::time::Instant::now())).unwrap_or(false);
    if !allowed {
        services.counters.queries_limited.fetch_add(1, Ordering::Relaxed);
        conn.close(QUERY_LIMITED.into(), b"rate limited: a few queries a second per address");
        return;
    }
    let answer = async {
        let (mut send, mut recv) = conn.accept_bi().await.ok()?;
        let mut ask = [0u8; 1];
        recv.read_exact(&mut ask).await.ok()?;
        let body = Arc::clone(&services.query.borrow());
        send.write_all(&wire::frame(&body)).await.ok()?;
        send.finish().ok()?;
        Some(())
    };
    if tokio::time::timeout(SERVICE_TIMEOUT, answer).await.ok().flatten().is_some() {
        services.counters.queries.fetch_add(1, Ordering::Relaxed);
        // The client closes once it has read; bounded either way.
        let _ = tokio::time::timeout(SERVICE_TIMEOUT, conn.closed()).await;
    }
}

/// The close code of a rate-limited query.
pub const QUERY_LIMITED: u32 = 0x51;
/// How long a service waits for its peer's next step.
pub(crate) const SERVICE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
