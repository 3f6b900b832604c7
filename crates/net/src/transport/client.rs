//! The client endpoint: the mirror of the server's, for the reference
//! client and tests.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::io::{Inbound, Link, PathInfo, Side, reason_of};
use super::{TransportError, TransportSettings, quinn_transport, runtime};
use crate::cert::{CERT_NAMES, QuarryVerifier, ServerVerification, provider};
use crate::conn::{ClientConn, ClientConnEvent, ConnStats, Transmit, WireStats};
use crate::handshake::{ALPN, Hello, Welcome};
use crate::reliable::{ClientMessage, DisconnectReason, ServerMessage};
use crate::snapshot::Snapshot;
use crate::usercmd::UserCmd;

/// How to reach a server.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The server's address.
    pub server: SocketAddr,
    /// How to trust its certificate.
    pub verification: ServerVerification,
    /// What to say in the handshake.
    pub hello: Hello,
    /// QUIC, runtime and protocol settings.
    pub settings: TransportSettings,
}

/// What happened on the client's connection since the last poll.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientEvent {
    /// The server let us in.
    Welcomed(Welcome),
    /// A new snapshot, fully reconstructed.
    Snapshot(Snapshot),
    /// A reliable message.
    Message(ServerMessage),
    /// The connection is over (a refused handshake is
    /// `DisconnectReason::Rejected` with the server's reason). Sent once.
    Disconnected(DisconnectReason),
}

/// The QUIC client configuration: TLS 1.3 with Quarry's ALPN and
/// certificate check, and the transport settings.
pub(crate) fn quinn_client_config(verification: ServerVerification, settings: &TransportSettings) -> Result<quinn::ClientConfig, TransportError> {
    quinn_client_config_alpn(verification, settings, ALPN)
}

/// The same with another ALPN (the admin and query services).
pub(crate) fn quinn_client_config_alpn(verification: ServerVerification, settings: &TransportSettings, alpn: &[u8]) -> Result<quinn::ClientConfig, TransportError> {
    let mut tls = rustls::ClientConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(QuarryVerifier::new(verification)))
        .with_no_client_auth();
    tls.alpn_protocols = vec![alpn.to_vec()];
    let quic = quinn::crypto::rustls::QuicClientConfig::try_from(tls).map_err(|e| TransportError::Config(e.to_string()))?;
    let mut client_config = quinn::ClientConfig::new(Arc::new(quic));
    let mut transport = quinn_transport(settings, 0)?;
    transport.ack_frequency_config(Some(fewer_acks()));
    client_config.transport_config(Arc::new(transport));
    Ok(client_config)
}

/// The longest the server may hold back its acknowledgement of our packets:
/// longer than the 33 ms between two snapshots, so the next snapshot
/// packet carries it.
const SERVER_ACK_DELAY: Duration = Duration::from_millis(50);

/// Ack-eliciting packets (our command datagrams) the server may take in
/// before it must acknowledge at once: about 1/6 s of commands. With
/// snapshots flowing the delay above comes first; the threshold bounds
/// the wait when none do.
const SERVER_ACK_THRESHOLD: u32 = 10;

/// What we ask of the server's ACKs (QUIC's ACK frequency extension, which
/// quinn speaks on both ends).
///
/// By default a QUIC receiver acknowledges every second ack-eliciting
/// packet. Every command datagram is one, and a client sends 60 a second,
/// so the server would send 30 ACK-only packets a second on top of 30
/// snapshots: about 1 kB/s of a client's downstream. Asked to wait up to
/// [`SERVER_ACK_DELAY`] and [`SERVER_ACK_THRESHOLD`] packets, it lets
/// the ACKs ride on the snapshot packets it sends anyway. quinn requests
/// no delay beyond the larger of the round trip and 25 ms, so on a LAN
/// (under 33 ms) some ACK-only packets remain; how many depends on when
/// commands arrive between two snapshots.
///
/// The cost: the client learns of its own lost packets up to that much
/// later. Command datagrams are never resent (the next carries the same
/// commands), so this only delays resending reliable messages and the
/// congestion controller's view, by a few tens of milliseconds.
fn fewer_acks() -> quinn::AckFrequencyConfig {
    let mut c = quinn::AckFrequencyConfig::default();
    c.ack_eliciting_threshold(SERVER_ACK_THRESHOLD.into()).max_ack_delay(Some(SERVER_ACK_DELAY));
    c
}

/// The client's endpoint: one UDP socket for its one connection, which
/// asks the server for zero-length connection ids.
///
/// Every packet the server sends starts with the id the client chose, and
/// a client that holds one connection per socket needs none: quinn tells
/// its packets apart by the server's address. Eight bytes (quinn's default)
/// on each of 30-60 packets a second are 240-480 B/s downstream, which
/// matters against a snapshot stream of about 7 kB/s. The server's own
/// ids stay 8 bytes: it tells its clients apart by them when an address
/// changes (NAT rebinding), and they cost upstream bytes only.
fn client_endpoint(bind: SocketAddr) -> std::io::Result<quinn::Endpoint> {
    let socket = super::socket::bind_udp(bind)?;
    let mut config = quinn::EndpointConfig::default();
    config.cid_generator(|| Box::new(NoConnectionIds));
    super::socket::endpoint(config, None, socket)
}

/// Issues zero-length connection ids (see [`client_endpoint`]).
struct NoConnectionIds;

impl quinn::ConnectionIdGenerator for NoConnectionIds {
    fn generate_cid(&mut self) -> quinn::ConnectionId {
        quinn::ConnectionId::new(&[])
    }

    fn cid_len(&self) -> usize {
        0
    }

    fn cid_lifetime(&self) -> Option<Duration> {
        None
    }
}

/// How the connect attempt ended.
enum Connected {
    Up(Link),
    Failed(DisconnectReason),
}

/// A client's reliable backlog is its own affair; this only bounds memory
/// if the server stops reading.
const CLIENT_BACKLOG: usize = 4 * 1024 * 1024;

/// A connection to a server, polled from the caller's thread.
pub struct ClientTransport {
    runtime: Option<Rt>,
    endpoint: quinn::Endpoint,
    connecting: Option<mpsc::Receiver<Connected>>,
    link: Option<Link>,
    /// Transmits made before QUIC was up (the Hello).
    pending: Vec<Transmit>,
    conn: ClientConn,
    path: PathInfo,
    io_closed: bool,
}

impl ClientTransport {
    /// Starts connecting (returns at once); the Hello is sent as soon as
    /// QUIC is up. Watch [`ClientTransport::poll_events`] for `Welcomed`.
    pub fn connect(config: ClientConfig) -> Result<Self, TransportError> {
        Self::connect_with(config, ClientOptions::default())
    }

    /// [`ClientTransport::connect`] with options: a shared runtime (a load
    /// generator runs many clients on one) and a local address to bind.
    pub fn connect_with(config: ClientConfig, options: ClientOptions) -> Result<Self, TransportError> {
        let ClientConfig { server, verification, hello, settings } = config;
        let client_config = quinn_client_config(verification, &settings)?;

        let rt = match options.runtime {
            Some(handle) => Rt::Shared(handle),
            None => Rt::Owned(runtime(settings.worker_threads, "quarry-net-client")?),
        };
        let bind = match options.local {
            Some(addr) => addr,
            None if server.is_ipv6() => SocketAddr::from((std::net::Ipv6Addr::UNSPECIFIED, 0)),
            None => SocketAddr::from((std::net::Ipv4Addr::UNSPECIFIED, 0)),
        };
        // quinn spawns its drivers on the runtime of the calling context.
        let (endpoint, connecting) = {
            let _guard = rt.handle().enter();
            let endpoint = client_endpoint(bind).map_err(|source| TransportError::Bind { addr: bind, source })?;
            let connecting = endpoint.connect_with(client_config, server, CERT_NAMES[0])?;
            (endpoint, connecting)
        };
        let (connected_tx, connected) = mpsc::channel(1);
        let loss = settings.loss;
        rt.handle().spawn(async move {
            let outcome = match connecting.await {
                Ok(conn) => Connected::Up(Link::open(conn, Side::Client, loss, CLIENT_BACKLOG, ())),
                Err(e) => Connected::Failed(reason_of(&e)),
            };
            let _ = connected_tx.send(outcome).await;
        });
        let mut c = Self {
            runtime: Some(rt),
            endpoint,
            connecting: Some(connected),
            link: None,
            pending: Vec::new(),
            conn: ClientConn::new(&settings.conn, hello, Instant::now()),
            path: PathInfo::default(),
            io_closed: false,
        };
        c.flush();
        Ok(c)
    }

    fn flush(&mut self) {
        while let Some(t) = self.conn.poll_transmit() {
            match self.link.as_mut() {
                Some(link) => {
                    if link.send(t).is_err() {
                        // The server has not read 4 MiB: it is gone in all but name.
                        link.abort(0, b"");
                        while self.conn.poll_transmit().is_some() {}
                        return;
                    }
                }
                None if self.io_closed => {}
                None => self.pending.push(t),
            }
        }
    }

    /// Picks up the connection once QUIC is up (or the attempt failed).
    fn check_connected(&mut self) {
        let Some(rx) = self.connecting.as_mut() else { return };
        match rx.try_recv() {
            Ok(c) => self.on_connected(c),
            Err(mpsc::error::TryRecvError::Empty) => {}
            Err(mpsc::error::TryRecvError::Disconnected) => {
                self.connecting = None;
                self.io_closed = true;
                self.conn.handle_closed(DisconnectReason::ConnectionLost("network runtime gone".into()));
            }
        }
    }

    fn on_connected(&mut self, outcome: Connected) {
        self.connecting = None;
        match outcome {
            Connected::Up(mut link) => {
                self.path = link.path();
                for t in self.pending.drain(..) {
                    let _ = link.send(t);
                }
                self.link = Some(link);
            }
            Connected::Failed(reason) => {
                self.io_closed = true;
                self.pending.clear();
                self.conn.handle_closed(reason);
            }
        }
    }

    fn absorb(&mut self, ev: Inbound, now: Instant) {
        match ev {
            Inbound::Path(path) => self.path = path,
            Inbound::Stream(data) => self.conn.handle_stream_data(now, &data),
            Inbound::Closed(reason) => {
                self.io_closed = true;
                self.conn.handle_closed(reason);
            }
        }
    }

    /// Takes in what the network delivered, runs timers (the delayed ack)
    /// and returns what happened. Never blocks.
    pub fn poll_events(&mut self) -> Vec<ClientEvent> {
        let now = Instant::now();
        self.check_connected();
        if let Some(link) = self.link.as_mut() {
            let mut inbound = Vec::new();
            while let Ok(ev) = link.inbound.try_recv() {
                inbound.push(ev);
            }
            let mut datagrams = Vec::new();
            while let Ok(d) = link.datagrams.try_recv() {
                datagrams.push(d);
            }
            // Datagrams first: a Closed at the end of the stream side is the last word.
            for d in datagrams {
                self.conn.handle_datagram(now, &d);
            }
            for ev in inbound {
                self.absorb(ev, now);
            }
        }
        self.finish_poll(now)
    }

    /// Like [`ClientTransport::poll_events`], but waits up to `timeout` for
    /// the network when nothing is pending (for loops without a frame clock).
    pub fn wait_events(&mut self, timeout: Duration) -> Vec<ClientEvent> {
        let out = self.poll_events();
        if !out.is_empty() || self.io_closed {
            return out;
        }
        let deadline = self.conn.poll_timeout().map_or(timeout, |t| t.saturating_duration_since(Instant::now()).min(timeout));
        if let Some(rt) = &self.runtime {
            let (link, connecting) = (&mut self.link, &mut self.connecting);
            let got = rt.handle().block_on(async {
                tokio::time::timeout(deadline, async {
                    match (link.as_mut(), connecting.as_mut()) {
                        (Some(l), _) => tokio::select! {
                            Some(ev) = l.inbound.recv() => Got::Inbound(ev),
                            Some(d) = l.datagrams.recv() => Got::Datagram(d),
                            else => Got::Nothing,
                        },
                        (None, Some(c)) => c.recv().await.map_or(Got::Nothing, Got::Connected),
                        (None, None) => Got::Nothing,
                    }
                })
                .await
                .unwrap_or(Got::Nothing)
            });
            let now = Instant::now();
            match got {
                Got::Inbound(ev) => self.absorb(ev, now),
                Got::Datagram(d) => self.conn.handle_datagram(now, &d),
                Got::Connected(c) => self.on_connected(c),
                Got::Nothing => {}
            }
        }
        self.poll_events()
    }

    fn finish_poll(&mut self, now: Instant) -> Vec<ClientEvent> {
        self.conn.handle_timeout(now);
        self.flush();
        let mut out = Vec::new();
        while let Some(e) = self.conn.poll_event() {
            out.push(match e {
                ClientConnEvent::Welcomed(w) => ClientEvent::Welcomed(w),
                ClientConnEvent::Snapshot(s) => ClientEvent::Snapshot(s),
                ClientConnEvent::Message(m) => ClientEvent::Message(m),
                ClientConnEvent::Closed(r) => ClientEvent::Disconnected(r),
            });
        }
        out
    }

    /// Sends this tick's command (with the previous few, and the snapshot ack).
    pub fn send_cmd(&mut self, cmd: UserCmd) -> Result<(), TransportError> {
        self.conn.send_cmd(cmd)?;
        self.flush();
        Ok(())
    }

    /// Queues a reliable message.
    pub fn send_reliable(&mut self, msg: &ClientMessage) -> Result<(), TransportError> {
        self.conn.send_message(msg)?;
        self.flush();
        Ok(())
    }

    /// Leaves cleanly: the server sees `Quit`. Poll until `Disconnected`, or
    /// just drop the transport (which also leaves cleanly).
    pub fn disconnect(&mut self) {
        self.conn.disconnect();
        self.flush();
    }

    /// Whether the server welcomed us and we are still connected.
    pub fn is_connected(&self) -> bool {
        self.conn.is_active()
    }

    /// Whether the connection is over.
    pub fn is_closed(&self) -> bool {
        self.conn.is_closed()
    }

    /// The newest snapshot.
    pub fn latest_snapshot(&self) -> Option<&Snapshot> {
        self.conn.latest_snapshot()
    }

    /// Ping, loss, byte rates and counters.
    pub fn stats(&self) -> ConnStats {
        ConnStats { ping: Some(self.path.rtt), path_loss: self.path.loss(), max_datagram: self.path.max_datagram, wire: self.wire(), ..self.conn.stats() }
    }

    /// quinn's UDP counts now (the rates from the last path refresh).
    fn wire(&self) -> WireStats {
        let rates = self.path.wire;
        match &self.link {
            Some(link) => WireStats { bytes_in_per_s: rates.bytes_in_per_s, bytes_out_per_s: rates.bytes_out_per_s, ..link.path().wire },
            None => rates,
        }
    }

    /// Test hook: stops all network activity at once without telling the
    /// server, like a crashed client or a pulled cable. The server notices
    /// only through its idle timeout.
    /// On a shared runtime it can only drop the connection, which quinn
    /// closes.
    pub fn vanish(mut self) {
        if let Some(Rt::Owned(rt)) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// Options for [`ClientTransport::connect_with`].
#[derive(Debug, Clone, Default)]
pub struct ClientOptions {
    /// Run on this runtime instead of one of the client's own.
    pub runtime: Option<tokio::runtime::Handle>,
    /// Bind this local address (e.g. `127.0.0.7:0`) instead of the wildcard.
    pub local: Option<SocketAddr>,
}

/// The client's runtime: its own, or a shared one.
enum Rt {
    Owned(tokio::runtime::Runtime),
    Shared(tokio::runtime::Handle),
}

impl Rt {
    fn handle(&self) -> &tokio::runtime::Handle {
        match self {
            Rt::Owned(rt) => rt.handle(),
            Rt::Shared(h) => h,
        }
    }
}

/// What [`ClientTransport::wait_events`] woke up for.
enum Got {
    Inbound(Inbound),
    Datagram(bytes::Bytes),
    Connected(Connected),
    Nothing,
}

impl Drop for ClientTransport {
    fn drop(&mut self) {
        let Some(rt) = self.runtime.take() else { return };
        if !self.io_closed {
            self.disconnect();
            let link = &mut self.link;
            let endpoint = self.endpoint.clone();
            rt.handle().block_on(async {
                let _ = tokio::time::timeout(Duration::from_millis(500), async {
                    let Some(link) = link.as_mut() else { return };
                    while let Some(ev) = link.inbound.recv().await {
                        if matches!(ev, Inbound::Closed(_)) {
                            break;
                        }
                    }
                })
                .await;
                let _ = tokio::time::timeout(Duration::from_millis(100), endpoint.wait_idle()).await;
            });
        }
        if let Rt::Owned(rt) = rt {
            rt.shutdown_timeout(Duration::from_millis(100));
        }
    }
}
