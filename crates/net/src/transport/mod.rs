//! The thin QUIC shell: the only code in the crate that touches tokio or quinn.
//!
//! Each endpoint runs quinn on a small tokio runtime of its own (background
//! threads). Per connection, one task moves bytes: control-stream chunks and
//! datagrams up to the owner's thread over a channel, and the owner's
//! [`crate::conn::Transmit`]s down to quinn. All protocol decisions happen in
//! the sans-IO [`crate::conn`] state machines, which live on the owner's
//! thread: the server's synchronous tick thread calls
//! [`ServerTransport::poll_events`] once per tick and the verbs
//! (`accept`, `send_snapshot`, …) in between, so snapshot encoding runs
//! there, deterministically, and the runtime never blocks the tick.
//!
//! The server's socket also carries the out-of-band datagrams (`oob.rs`
//! splits them from QUIC and answers them on the driver task) and the
//! heartbeats to masters (`heartbeat.rs`, a task on the same runtime).
//!
//! Connections are keyed by [`ConnId`], a counter that is never reused,
//! never by address (QUIC connections may migrate).

use std::fmt;
use std::time::Duration;

use crate::cert::CertError;
use crate::conn::{ConnConfig, ConnError, SnapshotError};

pub(crate) mod admission;
mod client;
mod heartbeat;
mod io;
mod loss;
mod oob;
pub mod raw;
mod server;
mod socket;

pub use client::{ClientConfig, ClientEvent, ClientOptions, ClientTransport};
pub(crate) use client::quinn_client_config_alpn;
pub use heartbeat::{HEARTBEAT_EVERY, HeartbeatStats, MASTER_PORT, MAX_MASTERS, MasterSettings, split_host_port};
pub use loss::LossHook;
#[cfg(test)]
pub(crate) use loss::SplitMix64;
pub use admission::{AdmissionStats, EVICTED, address_group};
pub use server::{ServerConfig, ServerEvent, ServerTransport};

/// A connection's id on a server: assigned in accept order, never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConnId(pub u64);

impl fmt::Display for ConnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// QUIC and runtime settings shared by both endpoints.
#[derive(Debug, Clone, PartialEq)]
pub struct TransportSettings {
    /// QUIC keep-alive interval (quinn's default is off; a game wants pings
    /// even when a player idles).
    pub keep_alive: Duration,
    /// Silence after which a connection is dead (quinn's default is 30 s).
    pub idle_timeout: Duration,
    /// Bytes of received datagrams quinn buffers before dropping old ones.
    pub datagram_receive_buffer: usize,
    /// Bytes of datagrams quinn queues for sending before dropping the oldest.
    pub datagram_send_buffer: usize,
    /// Protocol tuning for the connection state machines.
    pub conn: ConnConfig,
    /// Test hook: drop this share of Quarry datagrams (seeded).
    pub loss: Option<LossHook>,
    /// tokio worker threads for this endpoint.
    pub worker_threads: usize,
    /// QUIC flow-control window of the control stream, in bytes: how much a
    /// peer may send before we read it (at least one largest frame).
    pub stream_window: u32,
    /// Bytes of control-stream data quinn keeps unacknowledged for sending.
    pub send_window: u64,
    /// Server: control-stream bytes that may wait for a peer that is not
    /// reading before it is disconnected.
    pub reliable_backlog: usize,
    /// Server: open connections (handshaking or playing) at most; more are refused.
    pub max_connections: usize,
    /// Server: open connections from one IP address at most (0 = no limit).
    pub max_connections_per_ip: usize,
    /// Server: make every new connection prove its address with a QUIC Retry
    /// first, so a spoofed Initial draws back no more than it sent.
    pub validate_addresses: bool,
    /// Server: the rate limits on out-of-band answers (`getinfo`, A2S...).
    pub oob_limits: crate::oob::OobLimits,
}

impl Default for TransportSettings {
    fn default() -> Self {
        Self {
            keep_alive: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(10),
            // A few full fragmented snapshots; old ones are useless anyway.
            datagram_receive_buffer: 256 * 1024,
            datagram_send_buffer: 256 * 1024,
            conn: ConnConfig::default(),
            loss: None,
            worker_threads: 1,
            stream_window: 128 * 1024,
            send_window: 256 * 1024,
            reliable_backlog: 256 * 1024,
            max_connections: 256,
            max_connections_per_ip: 8,
            validate_addresses: true,
            oob_limits: crate::oob::OobLimits::default(),
        }
    }
}

/// Why a transport operation failed.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The tokio runtime could not start.
    #[error("starting the network runtime: {0}")]
    Runtime(std::io::Error),
    /// The UDP socket could not be bound.
    #[error("binding {addr}: {source}")]
    Bind {
        /// The address.
        addr: std::net::SocketAddr,
        /// The error.
        source: std::io::Error,
    },
    /// TLS setup failed.
    #[error("tls: {0}")]
    Tls(#[from] rustls::Error),
    /// The certificate could not be loaded or made.
    #[error(transparent)]
    Cert(#[from] CertError),
    /// A setting is out of range.
    #[error("bad setting: {0}")]
    Config(String),
    /// quinn refused to start the connection.
    #[error("connecting: {0}")]
    Connect(#[from] quinn::ConnectError),
    /// No such connection (never existed, or already gone).
    #[error("no connection {0}")]
    UnknownConnection(ConnId),
    /// The connection is not in a state for this verb.
    #[error(transparent)]
    Conn(#[from] ConnError),
    /// The snapshot could not be sent.
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
}

/// Builds the quinn transport config. `peer_bidi` is how many bidirectional
/// streams the peer may open (the client opens the one control stream).
fn quinn_transport(s: &TransportSettings, peer_bidi: u32) -> Result<quinn::TransportConfig, TransportError> {
    let mut t = quinn::TransportConfig::default();
    t.keep_alive_interval(Some(s.keep_alive));
    let idle = quinn::IdleTimeout::try_from(s.idle_timeout).map_err(|e| TransportError::Config(format!("idle timeout: {e}")))?;
    t.max_idle_timeout(Some(idle));
    t.datagram_receive_buffer_size(Some(s.datagram_receive_buffer));
    t.datagram_send_buffer_size(s.datagram_send_buffer);
    t.max_concurrent_bidi_streams(peer_bidi.into());
    t.max_concurrent_uni_streams(0u32.into());
    let window = s.stream_window.max(crate::codec::MAX_FRAME_LEN as u32 + 16);
    t.stream_receive_window(window.into());
    t.receive_window(window.into());
    t.send_window(s.send_window);
    Ok(t)
}

fn runtime(threads: usize, name: &str) -> Result<tokio::runtime::Runtime, TransportError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.max(1))
        .thread_name(name)
        .enable_all()
        .build()
        .map_err(TransportError::Runtime)
}
