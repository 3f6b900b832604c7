//! The client endpoint: the mirror of the server's, for the reference
//! client and tests.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::io::{EVENT_QUEUE, IoEvent, PathInfo, Side, drive, reason_of};
use super::{ConnId, TransportError, TransportSettings, quinn_transport, runtime};
use crate::cert::{CERT_NAMES, QuarryVerifier, ServerVerification, provider};
use crate::conn::{ClientConn, ClientConnEvent, ConnStats, Transmit};
use crate::handshake::{ALPN, Hello, Welcome};
use crate::reliable::{ClientMessage, DisconnectReason, ServerMessage};
use crate::snapshot::Snapshot;
use crate::usercmd::WireUserCmd;

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

/// A connection to a server, polled from the caller's thread.
pub struct ClientTransport {
    runtime: Option<tokio::runtime::Runtime>,
    endpoint: quinn::Endpoint,
    events: mpsc::Receiver<IoEvent>,
    tx: mpsc::UnboundedSender<Transmit>,
    conn: ClientConn,
    path: PathInfo,
    io_closed: bool,
}

impl ClientTransport {
    /// Starts connecting (returns at once); the Hello is sent as soon as
    /// QUIC is up. Watch [`ClientTransport::poll_events`] for `Welcomed`.
    pub fn connect(config: ClientConfig) -> Result<Self, TransportError> {
        let ClientConfig { server, verification, hello, settings } = config;
        let mut tls = rustls::ClientConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(QuarryVerifier::new(verification)))
            .with_no_client_auth();
        tls.alpn_protocols = vec![ALPN.to_vec()];
        let quic = quinn::crypto::rustls::QuicClientConfig::try_from(tls).map_err(|e| TransportError::Config(e.to_string()))?;
        let mut client_config = quinn::ClientConfig::new(Arc::new(quic));
        client_config.transport_config(quinn_transport(&settings, 0)?);

        let rt = runtime(settings.worker_threads, "quarry-net-client")?;
        let bind: SocketAddr = if server.is_ipv6() { "[::]:0" } else { "0.0.0.0:0" }.parse().map_err(|_| TransportError::Config("bind address".into()))?;
        // quinn spawns its drivers on the runtime of the calling context.
        let (endpoint, connecting) = {
            let _guard = rt.enter();
            let endpoint = quinn::Endpoint::client(bind).map_err(|source| TransportError::Bind { addr: bind, source })?;
            let connecting = endpoint.connect_with(client_config, server, CERT_NAMES[0])?;
            (endpoint, connecting)
        };
        let (events_tx, events) = mpsc::channel(EVENT_QUEUE);
        let (tx, rx) = mpsc::unbounded_channel();
        let loss = settings.loss;
        rt.spawn(async move {
            let id = ConnId(0);
            match connecting.await {
                Ok(conn) => {
                    let opened = IoEvent::Opened { id, addr: conn.remote_address(), tx: mpsc::unbounded_channel().0, path: PathInfo::of(&conn) };
                    if events_tx.send(opened).await.is_ok() {
                        drive(conn, id, Side::Client, events_tx, rx, loss).await;
                    }
                }
                Err(e) => {
                    let _ = events_tx.send(IoEvent::Closed { id, reason: reason_of(&e) }).await;
                }
            }
        });
        let mut c = Self {
            runtime: Some(rt),
            endpoint,
            events,
            tx,
            conn: ClientConn::new(&settings.conn, hello, Instant::now()),
            path: PathInfo::default(),
            io_closed: false,
        };
        c.flush();
        Ok(c)
    }

    fn flush(&mut self) {
        while let Some(t) = self.conn.poll_transmit() {
            if self.tx.send(t).is_err() {
                while self.conn.poll_transmit().is_some() {}
                return;
            }
        }
    }

    fn absorb(&mut self, ev: IoEvent, now: Instant) {
        match ev {
            IoEvent::Opened { path, .. } | IoEvent::Path { path, .. } => self.path = path,
            IoEvent::Stream { data, .. } => self.conn.handle_stream_data(now, &data),
            IoEvent::Datagram { data, .. } => self.conn.handle_datagram(now, &data),
            IoEvent::Closed { reason, .. } => {
                self.io_closed = true;
                self.conn.handle_closed(reason);
            }
        }
    }

    /// Takes in what the network delivered, runs timers (the delayed ack)
    /// and returns what happened. Never blocks.
    pub fn poll_events(&mut self) -> Vec<ClientEvent> {
        let now = Instant::now();
        while let Ok(ev) = self.events.try_recv() {
            self.absorb(ev, now);
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
            let events = &mut self.events;
            if let Ok(Some(ev)) = rt.block_on(async { tokio::time::timeout(deadline, events.recv()).await }) {
                self.absorb(ev, Instant::now());
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
    pub fn send_cmd(&mut self, cmd: WireUserCmd) -> Result<(), TransportError> {
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
        ConnStats { ping: Some(self.path.rtt), path_loss: self.path.loss(), max_datagram: self.path.max_datagram, ..self.conn.stats() }
    }

    /// Test hook: stops all network activity at once without telling the
    /// server, like a crashed client or a pulled cable. The server notices
    /// only through its idle timeout.
    pub fn vanish(mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

impl Drop for ClientTransport {
    fn drop(&mut self) {
        let Some(rt) = self.runtime.take() else { return };
        if !self.io_closed {
            self.disconnect();
            let events = &mut self.events;
            let endpoint = self.endpoint.clone();
            rt.block_on(async {
                let _ = tokio::time::timeout(Duration::from_millis(500), async {
                    while let Some(ev) = events.recv().await {
                        if matches!(ev, IoEvent::Closed { .. }) {
                            break;
                        }
                    }
                })
                .await;
                let _ = tokio::time::timeout(Duration::from_millis(100), endpoint.wait_idle()).await;
            });
        }
        rt.shutdown_timeout(Duration::from_millis(100));
    }
}
