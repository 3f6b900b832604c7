//! Sans-IO connection state: one [`ServerConn`] or [`ClientConn`] per QUIC
//! connection, fed bytes and time, producing bytes and events.
//!
//! Like quinn-proto under quinn, nothing here touches a socket, a clock or a
//! thread. The transport (or the test harness) moves bytes:
//!
//! 1. Bytes read from the control stream go to `handle_stream_data`, each
//!    received datagram to `handle_datagram`, always with the current `now`.
//! 2. The owner calls the verbs (`accept`, `send_snapshot`, `send_cmd`, …).
//! 3. Then it drains `poll_transmit` (datagrams to send, stream bytes to
//!    append, or a request to close) and `poll_event` (what happened).
//! 4. It calls `handle_timeout(now)` at the latest at `poll_timeout()`;
//!    calling it every tick is fine. Time must never go backwards.
//!
//! The state kept here is the game-protocol state QUIC does not know about:
//! the handshake phase, the per-client snapshot history and acknowledged
//! base, the byte-rate budget, command redundancy and de-duplication, the
//! datagram loss estimate, and the count of malformed input. QUIC itself
//! (retransmission, congestion control, keep-alive, idle timeout) stays in
//! quinn.

use std::time::Duration;

use crate::fragment::FragmentError;

mod client;
pub mod limits;
mod meter;
mod server;

pub use client::{ClientConn, ClientConnEvent};
pub use limits::{LimitedCounts, MessageLimit, MessageLimits};
pub use server::{ServerConn, ServerConnEvent, SnapshotOutcome};

/// Something a connection wants done by its owner, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "a transmit must be sent or the peer never sees it"]
pub enum Transmit {
    /// Send one unreliable datagram (never larger than the `max_datagram`
    /// the owner last gave the connection).
    Datagram(Vec<u8>),
    /// Append these bytes to the control stream.
    Stream(Vec<u8>),
    /// Finish the control stream (after the bytes before this), then close
    /// the connection with this application code and reason bytes.
    Close {
        /// QUIC application error code.
        code: u32,
        /// Reason bytes (an encoded [`crate::reliable::DisconnectReason`]).
        reason: Vec<u8>,
    },
}

/// Tuning for both connection sides; the defaults suit a 30-60 Hz game.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnConfig {
    /// Sent snapshots the server keeps as delta bases (Quake 3 `PACKET_BACKUP`).
    /// An ack older than this gets a full snapshot.
    pub history_len: usize,
    /// Server: a new client's byte-rate cap in bytes/s (ioq3 default `rate`).
    pub default_rate: u32,
    /// Server: the range [`ServerConn::set_rate`] clamps to (ioq3: 1000..=90000).
    pub rate_range: (u32, u32),
    /// Server: malformed datagrams tolerated per second before the client is
    /// disconnected as misbehaving.
    pub garbage_per_second: u32,
    /// Server: how long a new connection may take to send its Hello.
    pub hello_timeout: Duration,
    /// Server: rate limits on each kind of client message and on datagrams.
    pub limits: MessageLimits,
    /// Client: commands repeated in each datagram.
    pub cmd_redundancy: usize,
    /// Client: after a snapshot arrives, how long to wait for a command
    /// datagram to carry the ack before sending an ack-only datagram.
    pub ack_delay: Duration,
    /// Client: how long to wait for the Welcome.
    pub welcome_timeout: Duration,
}

impl Default for ConnConfig {
    fn default() -> Self {
        Self {
            history_len: 32,
            default_rate: 25_000,
            rate_range: (1_000, 90_000),
            garbage_per_second: 10,
            hello_timeout: Duration::from_secs(5),
            limits: MessageLimits::default(),
            cmd_redundancy: crate::usercmd::DEFAULT_CMD_REDUNDANCY,
            ack_delay: Duration::from_millis(50),
            welcome_timeout: Duration::from_secs(10),
        }
    }
}

/// Bytes a datagram costs on the wire besides its payload, counted against
/// the rate budget: IPv4+UDP 28, QUIC short header ~3 (no connection id:
/// Quarry's client asks for none; a packet number of 1-2 bytes), AEAD tag
/// 16, DATAGRAM frame header 3, and the ACK frame that rides along ~8.
/// `benches/wire.rs` measures the real figure.
pub const DATAGRAM_OVERHEAD: usize = 58;

/// Counters and estimates for one connection, for `status` and `--stats`.
///
/// Rates cover the last whole second. `ping` and `path_loss` come from
/// QUIC and are filled in by the transport (`None`/0 in the bare state
/// machine).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ConnStats {
    /// Round-trip time estimated by QUIC.
    pub ping: Option<Duration>,
    /// Fraction of the peer's Quarry datagrams that never arrived.
    pub loss_in: f32,
    /// Fraction of our QUIC packets QUIC declared lost (all traffic).
    pub path_loss: f32,
    /// Payload bytes received per second (datagrams + stream).
    pub bytes_in_per_s: u64,
    /// Payload bytes sent per second (datagrams + stream).
    pub bytes_out_per_s: u64,
    /// Payload bytes received since the connection opened.
    pub bytes_in_total: u64,
    /// Payload bytes sent since the connection opened.
    pub bytes_out_total: u64,
    /// Snapshots sent (server) or decoded (client) per second.
    pub snapshots_per_s: u32,
    /// Server: snapshots skipped by the rate cap, in total.
    pub snapshots_rate_limited: u64,
    /// Server: full (non-delta) snapshots sent; client: received.
    pub full_snapshots: u64,
    /// Client: snapshots dropped because their base was unknown.
    pub snapshots_undecodable: u64,
    /// Malformed datagrams or frames received, in total.
    pub malformed: u64,
    /// Server: newest snapshot tick the client acknowledged; client: newest decoded.
    pub snapshot_tick: Option<u32>,
    /// Server: the byte-rate cap in force.
    pub rate: u32,
    /// The datagram size limit in force.
    pub max_datagram: usize,
    /// Server: control-stream bytes waiting for the peer to read them
    /// (filled in by the transport).
    pub reliable_backlog: usize,
    /// Server: reliable messages and datagrams dropped by the rate limits, by kind.
    pub limited: LimitedCounts,
    /// What QUIC itself put on the wire (filled in by the transport; zero
    /// in the bare state machine).
    pub wire: WireStats,
}

/// A connection's traffic as quinn counts it: whole UDP payloads, so QUIC
/// packet headers, ACK-only packets, retransmissions, padding, probes and
/// the handshake are in, unlike the payload figures of [`ConnStats`]. The
/// IP and UDP headers are not (28 bytes a datagram over IPv4, 48 over
/// IPv6: add them from the datagram counts for bytes on the cable).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WireStats {
    /// UDP payload bytes received per second, over about the last second.
    pub bytes_in_per_s: u64,
    /// UDP payload bytes sent per second, over about the last second.
    pub bytes_out_per_s: u64,
    /// UDP payload bytes received since the connection opened.
    pub bytes_in: u64,
    /// UDP payload bytes sent since the connection opened.
    pub bytes_out: u64,
    /// UDP datagrams received since the connection opened.
    pub datagrams_in: u64,
    /// UDP datagrams sent since the connection opened.
    pub datagrams_out: u64,
}

/// A verb was used in a state where it means nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnError {
    /// The handshake is not at the step this verb needs.
    #[error("connection is not {expected}")]
    WrongState {
        /// What the verb needed.
        expected: &'static str,
    },
    /// The connection is closing or closed.
    #[error("connection is closed")]
    Closed,
}

/// Why a snapshot could not be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// The client has not been accepted, or is gone.
    #[error(transparent)]
    Conn(#[from] ConnError),
    /// The snapshot itself is invalid (a caller bug).
    #[error(transparent)]
    Encode(#[from] crate::delta::EncodeError),
    /// Its tick is not newer than the last snapshot sent on this connection.
    #[error("snapshot tick {tick} is not after the last sent tick {last}")]
    StaleTick {
        /// The last tick sent.
        last: u32,
        /// The tick given.
        tick: u32,
    },
    /// It cannot be split into datagrams of this size.
    #[error(transparent)]
    Fragment(#[from] FragmentError),
}
