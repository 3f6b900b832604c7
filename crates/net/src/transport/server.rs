//! The server endpoint, polled from the synchronous tick thread.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};
use tracing::{debug, warn};

use super::admission::{Admission, AdmissionStats, Refusal, Ticket};
use super::heartbeat::{HeartbeatStats, Heartbeats, MasterSettings};
use super::oob::OobPlane;
use crate::oob::{OobInfo, OobStats, Published};
use super::io::{Inbound, Link, PathInfo, Side};
use super::{ConnId, TransportError, TransportSettings, quinn_transport, runtime};
use crate::cert::{Fingerprint, Identity, provider};
use crate::conn::{ConnStats, ServerConn, ServerConnEvent, SnapshotOutcome};
use crate::handshake::{ALPN, Hello, RejectReason, Welcome};
use crate::reliable::{ClientMessage, DisconnectReason, ServerMessage};
use crate::service::{AdminKeys, AdminRequest, QueryInfo, ServiceHandles, ServiceStats, Services};
use crate::snapshot::SharedSnapshot;
use crate::usercmd::UserCmd;

/// How to start a server endpoint.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where to listen (e.g. `0.0.0.0:27960`, or `127.0.0.1:0` in tests).
    pub bind: SocketAddr,
    /// The TLS identity (see [`Identity::load_or_generate`]).
    pub identity: Identity,
    /// QUIC, runtime and protocol settings.
    pub settings: TransportSettings,
}

/// What happened on the server's connections since the last poll.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerEvent {
    /// A client said hello with the right protocol version; answer with
    /// [`ServerTransport::accept`] or [`ServerTransport::reject`].
    Connected {
        /// The connection.
        conn: ConnId,
        /// Its address now (for bans and logs; never a key).
        addr: SocketAddr,
        /// What the client sent.
        hello: Hello,
    },
    /// New user commands from an accepted client, oldest first, each tick once.
    UserCmds {
        /// The connection.
        conn: ConnId,
        /// The commands.
        cmds: Vec<UserCmd>,
    },
    /// The client acknowledged snapshot `tick` (it is what the client now shows).
    SnapshotAcked {
        /// The connection.
        conn: ConnId,
        /// The snapshot tick.
        tick: u32,
    },
    /// A reliable message from an accepted client.
    Message {
        /// The connection.
        conn: ConnId,
        /// The message.
        msg: ClientMessage,
    },
    /// The client sent a malformed datagram (dropped); `count` is its total.
    /// Past the configured rate the client is disconnected.
    Misbehaving {
        /// The connection.
        conn: ConnId,
        /// Malformed datagrams and frames so far.
        count: u64,
    },
    /// The connection is over. Sent exactly once for every connection that
    /// produced `Connected`, whoever ended it (also after `reject` and
    /// `disconnect`); free the slot here.
    Disconnected {
        /// The connection.
        conn: ConnId,
        /// Why.
        reason: DisconnectReason,
    },
}

struct Peer {
    conn: ServerConn,
    link: Link,
    addr: SocketAddr,
    path: PathInfo,
    announced: bool,
    /// Its place among the endpoint's connections.
    ticket: Ticket,
}

/// A connection the accept task let in, on its way to the owner.
struct Accepted {
    id: ConnId,
    addr: SocketAddr,
    link: Link,
    ticket: Ticket,
}

/// New connections queued for the owner (the accept task waits beyond this).
const ACCEPT_QUEUE: usize = 64;

/// Control-stream chunks taken from one connection per poll: together with
/// the per-connection queues this is what keeps one busy peer from taking
/// another's turn.
const STREAM_CHUNKS_PER_POLL: usize = 4;

/// Datagrams taken from one connection per poll (a client sends about one
/// per tick; the rest wait, and past the queue they are dropped).
const DATAGRAMS_PER_POLL: usize = 32;

/// The server endpoint: quinn on background threads, the protocol state on
/// the caller's thread. Call [`ServerTransport::poll_events`] every tick.
pub struct ServerTransport {
    runtime: Option<tokio::runtime::Runtime>,
    endpoint: quinn::Endpoint,
    accepted: mpsc::Receiver<Accepted>,
    admission: Arc<Admission>,
    peers: BTreeMap<ConnId, Peer>,
    settings: TransportSettings,
    fingerprint: Fingerprint,
    local_addr: SocketAddr,
    services: Arc<Services>,
    handles: ServiceHandles,
    oob: Arc<OobPlane>,
    oob_published: watch::Sender<Arc<Published>>,
    heartbeats: Heartbeats,
}

/// Admin requests the owner takes per poll at most.
const ADMIN_REQUESTS_PER_POLL: usize = 16;

impl ServerTransport {
    /// Binds the UDP socket and starts accepting connections.
    pub fn bind(config: ServerConfig) -> Result<Self, TransportError> {
        let ServerConfig { bind, identity, settings } = config;
        let fingerprint = identity.fingerprint();
        let mut tls = rustls::ServerConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])?
            .with_no_client_auth()
            .with_single_cert(vec![identity.cert], identity.key.into())?;
        tls.alpn_protocols = vec![ALPN.to_vec(), crate::service::ADMIN_ALPN.to_vec(), crate::service::QUERY_ALPN.to_vec()];
        let quic = quinn::crypto::rustls::QuicServerConfig::try_from(tls).map_err(|e| TransportError::Config(e.to_string()))?;
        let mut server_config = quinn::ServerConfig::with_crypto(Arc::new(quic));
        server_config.transport_config(Arc::new(quinn_transport(&settings, 1)?));
        // Handshakes in flight at once; admission below caps open connections.
        server_config.max_incoming(settings.max_connections.clamp(1, 4096));

        let rt = runtime(settings.worker_threads, "quarry-net-server")?;
        let (oob, oob_published) = OobPlane::new(settings.oob_limits);
        let (endpoint, heartbeats) = {
            let _guard = rt.enter();
            let socket = super::socket::bind_udp(bind).map_err(|source| TransportError::Bind { addr: bind, source })?;
            let (endpoint, bare) = super::socket::server_endpoint(quinn::EndpointConfig::default(), server_config, socket, Arc::clone(&oob))
                .map_err(|source| TransportError::Bind { addr: bind, source })?;
            (endpoint, Heartbeats::start(bare, Arc::clone(&oob)))
        };
        let local_addr = endpoint.local_addr().map_err(|source| TransportError::Bind { addr: bind, source })?;
        let (tx, accepted) = mpsc::channel(ACCEPT_QUEUE);
        let admission = Admission::new(settings.max_connections, settings.max_connections_per_ip);
        let (services, handles) = Services::new();
        rt.spawn(accept_loop(endpoint.clone(), tx, settings.clone(), admission.clone(), Arc::clone(&services)));
        // The host prints its own listening line; this one is for debugging.
        debug!(%local_addr, %fingerprint, "listening");
        Ok(Self {
            runtime: Some(rt),
            endpoint,
            accepted,
            admission,
            peers: BTreeMap::new(),
            settings,
            fingerprint,
            local_addr,
            services,
            handles,
            oob,
            oob_published,
            heartbeats,
        })
    }

    /// Publishes what the out-of-band queries answer from now on (encoded
    /// here, once); a change between empty, non-empty and full heartbeats
    /// the masters at once.
    pub fn publish_oob(&self, info: &OobInfo) {
        let published = Published::new(info, self.local_addr.port());
        let now = published.occupancy();
        let before = self.oob_published.send_replace(Arc::new(published)).occupancy();
        if before.is_some() && before != now {
            self.heartbeats.kick();
        }
    }

    /// Whether and where to heartbeat (`sv_public`, `sv_master1`..`5`).
    pub fn set_masters(&self, settings: MasterSettings) {
        self.heartbeats.configure(settings);
    }

    /// What the out-of-band handler did.
    pub fn oob_stats(&self) -> OobStats {
        self.oob.stats()
    }

    /// What the heartbeats did.
    pub fn heartbeat_stats(&self) -> HeartbeatStats {
        self.heartbeats.stats()
    }

    /// What admission did: Retries sent, connections refused and let in.
    pub fn admission_stats(&self) -> AdmissionStats {
        self.admission.stats()
    }

    /// Publishes the answer the server query gives from now on.
    pub fn publish_query(&self, info: &QueryInfo) {
        self.handles.query.send_replace(Arc::new(info.encode()));
    }

    /// Sets who may sign in as an admin (empty: nobody).
    pub fn set_admin_keys(&self, keys: AdminKeys) {
        self.handles.admins.send_replace(Arc::new(keys));
    }

    /// Admin requests waiting: commands to run and answer, and sign-in
    /// events to audit. A few per call, so a flood costs the tick little.
    pub fn admin_requests(&mut self) -> Vec<AdminRequest> {
        let mut out = Vec::new();
        while out.len() < ADMIN_REQUESTS_PER_POLL {
            match self.handles.requests.try_recv() {
                Ok(r) => out.push(r),
                Err(_) => break,
            }
        }
        out
    }

    /// What the admin and query services did.
    pub fn service_stats(&self) -> ServiceStats {
        self.services.stats()
    }

    /// Open QUIC connections (handshaking or playing).
    pub fn open_connections(&self) -> usize {
        self.admission.open_connections()
    }

    /// The bound address (with the real port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The certificate fingerprint clients pin.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// Takes in everything the network delivered, runs timers, and returns
    /// what happened. Call once per tick; never blocks.
    pub fn poll_events(&mut self) -> Vec<ServerEvent> {
        let now = Instant::now();
        while let Ok(Accepted { id, addr, link, ticket }) = self.accepted.try_recv() {
            debug!(conn = %id, %addr, "connection opened");
            let path = link.path();
            self.peers.insert(id, Peer { conn: ServerConn::new(&self.settings.conn, now), link, addr, path, announced: false, ticket });
        }
        let mut out = Vec::new();
        let mut gone = Vec::new();
        for (&id, peer) in &mut self.peers {
            take_input(peer, now);
            peer.conn.handle_timeout(now);
            flush(peer);
            while let Some(e) = peer.conn.poll_event() {
                match e {
                    ServerConnEvent::Hello(hello) => {
                        peer.announced = true;
                        out.push(ServerEvent::Connected { conn: id, addr: peer.addr, hello });
                    }
                    ServerConnEvent::UserCmds(cmds) => out.push(ServerEvent::UserCmds { conn: id, cmds }),
                    ServerConnEvent::SnapshotAcked(tick) => out.push(ServerEvent::SnapshotAcked { conn: id, tick }),
                    ServerConnEvent::Message(msg) => out.push(ServerEvent::Message { conn: id, msg }),
                    ServerConnEvent::Misbehaving { count } => out.push(ServerEvent::Misbehaving { conn: id, count }),
                    ServerConnEvent::Closed(reason) => {
                        debug!(conn = %id, %reason, "disconnected");
                        if peer.announced {
                            out.push(ServerEvent::Disconnected { conn: id, reason });
                        }
                        gone.push(id);
                    }
                }
            }
        }
        // The I/O task finishes closing on its own; nothing more is read.
        for id in gone {
            self.peers.remove(&id);
        }
        out
    }

    fn peer(&mut self, conn: ConnId) -> Result<&mut Peer, TransportError> {
        self.peers.get_mut(&conn).ok_or(TransportError::UnknownConnection(conn))
    }

    /// Lets a `Connected` client in.
    pub fn accept(&mut self, conn: ConnId, welcome: &Welcome) -> Result<(), TransportError> {
        let p = self.peer(conn)?;
        p.conn.accept(welcome)?;
        p.ticket.mark_joined();
        flush(p);
        Ok(())
    }

    /// Refuses a `Connected` client; `Disconnected` follows on the next poll.
    pub fn reject(&mut self, conn: ConnId, reason: RejectReason) -> Result<(), TransportError> {
        let p = self.peer(conn)?;
        p.conn.reject(reason)?;
        flush(p);
        Ok(())
    }

    /// Sends this tick's snapshot for one accepted client: a delta against
    /// what it acknowledged, fragmented to the path's datagram size, or
    /// skipped if its byte rate is spent.
    pub fn send_snapshot(&mut self, conn: ConnId, snapshot: SharedSnapshot) -> Result<SnapshotOutcome, TransportError> {
        let p = self.peer(conn)?;
        let max = if p.path.max_datagram == 0 { super::io::INITIAL_MAX_DATAGRAM } else { p.path.max_datagram };
        let outcome = p.conn.send_snapshot(Instant::now(), snapshot, max)?;
        flush(p);
        Ok(outcome)
    }

    /// Queues a reliable message for one accepted client.
    pub fn send_reliable(&mut self, conn: ConnId, msg: &ServerMessage) -> Result<(), TransportError> {
        let p = self.peer(conn)?;
        p.conn.send_message(msg)?;
        flush(p);
        Ok(())
    }

    /// Sends a reliable message to every accepted client.
    pub fn broadcast(&mut self, msg: &ServerMessage) {
        for p in self.peers.values_mut().filter(|p| p.conn.is_active()) {
            if p.conn.send_message(msg).is_ok() {
                flush(p);
            }
        }
    }

    /// Ends a connection with a reason the client shows (kick, shutdown);
    /// `Disconnected` follows on the next poll.
    pub fn disconnect(&mut self, conn: ConnId, reason: DisconnectReason) -> Result<(), TransportError> {
        let p = self.peer(conn)?;
        p.conn.disconnect(reason);
        flush(p);
        Ok(())
    }

    /// Sets a client's byte-rate cap (bytes/s, clamped to the configured range).
    pub fn set_rate(&mut self, conn: ConnId, bytes_per_sec: u32) -> Result<(), TransportError> {
        self.peer(conn)?.conn.set_rate(bytes_per_sec);
        Ok(())
    }

    /// Makes the next snapshot to `conn` a full one (e.g. after a map change).
    pub fn reset_baseline(&mut self, conn: ConnId) -> Result<(), TransportError> {
        self.peer(conn)?.conn.reset_baseline();
        Ok(())
    }

    /// The connection's round-trip time as quinn last measured it (refreshed
    /// a few times a second); cheaper than [`ServerTransport::stats`].
    pub fn rtt(&self, conn: ConnId) -> Option<Duration> {
        self.peers.get(&conn).map(|p| p.path.rtt)
    }

    /// Ping, loss, byte rates and counters of a connection.
    pub fn stats(&self, conn: ConnId) -> Option<ConnStats> {
        self.peers.get(&conn).map(|p| ConnStats {
            ping: Some(p.path.rtt),
            path_loss: p.path.loss(),
            reliable_backlog: p.link.backlog(),
            wire: p.path.wire,
            ..p.conn.stats()
        })
    }

    /// The current address of a connection.
    pub fn remote_addr(&self, conn: ConnId) -> Option<SocketAddr> {
        self.peers.get(&conn).map(|p| p.addr)
    }

    /// Accepted connections, in id order.
    pub fn connections(&self) -> Vec<ConnId> {
        self.peers.iter().filter(|(_, p)| p.conn.is_active()).map(|(&id, _)| id).collect()
    }

    /// Disconnects everyone with `reason` and waits up to `grace` for the
    /// goodbyes to leave (blocking the caller).
    pub fn shutdown(&mut self, reason: DisconnectReason, grace: Duration) {
        // The masters hear from a listed server a last time.
        self.heartbeats.last();
        for p in self.peers.values_mut() {
            p.conn.disconnect(reason.clone());
            flush(p);
        }
        let _ = self.poll_events();
        if let Some(rt) = &self.runtime {
            let endpoint = self.endpoint.clone();
            rt.block_on(async move {
                let _ = tokio::time::timeout(grace, async {
                    while endpoint.open_connections() > 0 {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                })
                .await;
            });
        }
    }
}

impl Drop for ServerTransport {
    fn drop(&mut self) {
        let (code, reason) = crate::reliable::disconnect_to_close(&DisconnectReason::ServerShuttingDown);
        self.endpoint.close(code.into(), &reason);
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_millis(100));
        }
    }
}

/// Takes this poll's share of what arrived on one connection.
fn take_input(peer: &mut Peer, now: Instant) {
    for _ in 0..STREAM_CHUNKS_PER_POLL {
        match peer.link.inbound.try_recv() {
            Ok(Inbound::Stream(data)) => peer.conn.handle_stream_data(now, &data),
            Ok(Inbound::Path(path)) => peer.path = path,
            Ok(Inbound::Closed(reason)) => {
                peer.conn.handle_closed(reason);
                break;
            }
            Err(_) => break,
        }
    }
    for _ in 0..DATAGRAMS_PER_POLL {
        match peer.link.datagrams.try_recv() {
            Ok(data) => peer.conn.handle_datagram(now, &data),
            Err(_) => break,
        }
    }
}

/// Hands the connection's transmits to its I/O; a peer whose reliable
/// backlog is over budget is disconnected at once (it is not reading).
fn flush(p: &mut Peer) {
    while let Some(t) = p.conn.poll_transmit() {
        if let Err(b) = p.link.send(t) {
            let reason = DisconnectReason::ConnectionLost(format!(
                "not reading: {} bytes of reliable messages waiting (limit {})",
                b.bytes, b.limit
            ));
            warn!(addr = %p.addr, %reason, "disconnecting a client that does not read");
            let (code, bytes) = crate::reliable::disconnect_to_close(&reason);
            p.link.abort(code, &bytes);
            p.conn.handle_closed(reason);
            while p.conn.poll_transmit().is_some() {}
            return;
        }
    }
}

async fn accept_loop(endpoint: quinn::Endpoint, accepted: mpsc::Sender<Accepted>, settings: TransportSettings, admission: Arc<Admission>, services: Arc<Services>) {
    let mut next = 1u64;
    while let Some(incoming) = endpoint.accept().await {
        if settings.validate_addresses && !incoming.remote_address_validated() && incoming.may_retry() {
            admission.note_retry();
            if let Err(e) = incoming.retry() {
                debug!(error = %e, "retry not sent");
            }
            continue;
        }
        let guard = match admission.admit(incoming.remote_address().ip()) {
            Ok(g) => g,
            Err(refusal) => {
                let addr = incoming.remote_address();
                match refusal {
                    Refusal::Full => debug!(%addr, "connection refused: server has its maximum of open connections"),
                    Refusal::PerIp => debug!(%addr, "connection refused: too many connections from this address"),
                }
                incoming.refuse();
                continue;
            }
        };
        let id = ConnId(next);
        next += 1;
        let accepted = accepted.clone();
        let (loss, backlog) = (settings.loss, settings.reliable_backlog);
        let services = Arc::clone(&services);
        tokio::spawn(async move {
            let conn = match incoming.await {
                Ok(c) => c,
                Err(e) => return debug!(conn = %id, error = %e, "handshake failed"),
            };
            let ticket = guard.ticket();
            ticket.attach(&conn);
            // The admin and query services have ALPNs of their own.
            let alpn = conn.handshake_data().and_then(|d| d.downcast::<quinn::crypto::rustls::HandshakeData>().ok()).and_then(|d| d.protocol);
            let guard = match alpn {
                Some(p) if p.as_slice() != ALPN => {
                    if !services.serve(&p, conn.clone(), guard) {
                        conn.close(0u32.into(), b"unknown protocol");
                    }
                    return;
                }
                _ => guard,
            };
            let addr = conn.remote_address();
            // A dual-stack socket shows IPv4 peers as ::ffff:a.b.c.d; bans and logs want a.b.c.d.
            let addr = SocketAddr::new(addr.ip().to_canonical(), addr.port());
            let link = Link::open(conn, Side::Server, loss, backlog, guard);
            if accepted.send(Accepted { id, addr, link, ticket }).await.is_err() {
                warn!("server transport gone");
            }
        });
    }
}
