//! The per-connection I/O tasks and the owner's handle on them ([`Link`]):
//! they move bytes between quinn and the owner's thread and make no protocol
//! decision of their own.
//!
//! Every queue here is bounded, per connection, so one peer can cost only
//! itself:
//!
//! - received datagrams wait in a queue of [`DATAGRAM_QUEUE`] (a full queue
//!   drops the newest, like a full socket buffer);
//! - control-stream bytes wait in a queue of [`STREAM_QUEUE`] chunks of at
//!   most [`STREAM_CHUNK`] bytes; a full queue stops reading, and QUIC flow
//!   control (a window of [`super::TransportSettings::stream_window`]) then
//!   stops the peer;
//! - datagrams to send go straight to quinn, whose send buffer drops the
//!   oldest when full, so a peer that stops reading never piles snapshots up;
//! - control-stream bytes to send are counted ([`Link::backlog`]) until the
//!   writer task has handed them to quinn; past the configured budget the
//!   owner gets [`Backlogged`] and closes the connection.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::mpsc;
use tracing::{debug, trace};

use super::loss::{Dropper, LossHook};
use crate::conn::{Transmit, WireStats};
use crate::reliable::{DisconnectReason, disconnect_from_close};

/// The size quinn allows before path MTU discovery (1200-byte packets).
pub(crate) const INITIAL_MAX_DATAGRAM: usize = 1162;

/// How often path facts (RTT, MTU, loss) are refreshed.
const PATH_INTERVAL: Duration = Duration::from_millis(250);

/// How long a closing connection waits for the peer to read the control
/// stream to its end (so the last message, e.g. a kick reason, arrives).
const LINGER: Duration = Duration::from_secs(1);

/// After a close was asked for, the connection is closed at the latest this
/// long after, whatever the control stream is doing (a peer that does not
/// read cannot keep a kicked connection open).
const CLOSE_DEADLINE: Duration = Duration::from_millis(1500);

/// Received datagrams queued per connection for the owner.
pub(crate) const DATAGRAM_QUEUE: usize = 256;

/// Control-stream chunks queued per connection for the owner.
pub(crate) const STREAM_QUEUE: usize = 8;

/// The largest control-stream chunk read at once.
pub(crate) const STREAM_CHUNK: usize = 16 * 1024;

/// Facts about the network path, from quinn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathInfo {
    pub(crate) max_datagram: usize,
    pub(crate) rtt: Duration,
    pub(crate) lost_packets: u64,
    pub(crate) sent_packets: u64,
    /// quinn's UDP counts; the per-second rates only from [`watch_path`].
    pub(crate) wire: WireStats,
}

impl PathInfo {
    pub(crate) fn of(conn: &quinn::Connection) -> Self {
        let stats = conn.stats();
        Self {
            max_datagram: conn.max_datagram_size().unwrap_or(0),
            rtt: conn.rtt(),
            lost_packets: stats.path.lost_packets,
            sent_packets: stats.path.sent_packets,
            wire: WireStats {
                bytes_in: stats.udp_rx.bytes,
                bytes_out: stats.udp_tx.bytes,
                datagrams_in: stats.udp_rx.datagrams,
                datagrams_out: stats.udp_tx.datagrams,
                ..WireStats::default()
            },
        }
    }

    pub(crate) fn loss(&self) -> f32 {
        if self.sent_packets == 0 { 0.0 } else { self.lost_packets as f32 / self.sent_packets as f32 }
    }
}

impl Default for PathInfo {
    fn default() -> Self {
        Self { max_datagram: INITIAL_MAX_DATAGRAM, rtt: Duration::ZERO, lost_packets: 0, sent_packets: 0, wire: WireStats::default() }
    }
}

/// What the stream side of a connection reports to the owner, in order.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// Bytes from the control stream.
    Stream(Bytes),
    /// Fresh path facts.
    Path(PathInfo),
    /// The connection is gone; nothing more will come.
    Closed(DisconnectReason),
}

/// What the owner hands the stream writer task.
#[derive(Debug)]
enum Outbound {
    Stream(Vec<u8>),
    Close { code: u32, reason: Vec<u8> },
}

/// Which side opens the control stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Accepts the stream the client opens.
    Server,
    /// Opens the stream.
    Client,
}

/// The control-stream bytes waiting to be written exceeded the budget: the
/// peer is not reading. The owner closes the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Backlogged {
    /// Bytes that would be waiting with this write.
    pub(crate) bytes: usize,
    /// The budget.
    pub(crate) limit: usize,
}

/// The owner's handle on one connection's I/O tasks.
pub(crate) struct Link {
    conn: quinn::Connection,
    /// Control-stream bytes, path facts and the final `Closed`, in order.
    pub(crate) inbound: mpsc::Receiver<Inbound>,
    /// Received datagrams.
    pub(crate) datagrams: mpsc::Receiver<Bytes>,
    outbound: mpsc::UnboundedSender<Outbound>,
    backlog: Arc<AtomicUsize>,
    backlog_limit: usize,
    out_loss: Option<Dropper>,
    runtime: tokio::runtime::Handle,
    close_asked: bool,
}

impl Link {
    /// Starts the I/O tasks for `conn`. Call from inside the runtime.
    /// `guard` lives as long as the connection (e.g. a per-address count).
    pub(crate) fn open<G: Send + 'static>(
        conn: quinn::Connection,
        side: Side,
        loss: Option<LossHook>,
        backlog_limit: usize,
        guard: G,
    ) -> Link {
        let (inbound_tx, inbound) = mpsc::channel(STREAM_QUEUE);
        let (datagram_tx, datagrams) = mpsc::channel(DATAGRAM_QUEUE);
        let (outbound, outbound_rx) = mpsc::unbounded_channel();
        let backlog = Arc::new(AtomicUsize::new(0));
        let in_loss = Dropper::new(loss.map(|l| LossHook { seed: l.seed ^ 0x5eed_f00d_1055, ..l }));
        let tasks = [
            tokio::spawn(read_datagrams(conn.clone(), datagram_tx, in_loss)),
            tokio::spawn(watch_path(conn.clone(), inbound_tx.clone())),
            tokio::spawn(run_stream(conn.clone(), side, inbound_tx.clone(), outbound_rx, backlog.clone())),
        ];
        let watched = conn.clone();
        tokio::spawn(async move {
            let reason = reason_of(&watched.closed().await);
            trace!(%reason, "connection closed");
            for t in tasks {
                t.abort();
            }
            drop(guard);
            let _ = inbound_tx.send(Inbound::Closed(reason)).await;
        });
        Link {
            conn,
            inbound,
            datagrams,
            outbound,
            backlog,
            backlog_limit,
            out_loss: Dropper::new(loss),
            runtime: tokio::runtime::Handle::current(),
            close_asked: false,
        }
    }

    /// Fresh path facts.
    pub(crate) fn path(&self) -> PathInfo {
        PathInfo::of(&self.conn)
    }

    /// Control-stream bytes handed over and not yet taken by quinn.
    pub(crate) fn backlog(&self) -> usize {
        self.backlog.load(Ordering::Relaxed)
    }

    /// Sends one transmit: a datagram goes to quinn at once (dropped if it
    /// does not fit, like any lost datagram), stream bytes to the writer
    /// task, a close to the writer task with a hard deadline.
    pub(crate) fn send(&mut self, t: Transmit) -> Result<(), Backlogged> {
        match t {
            Transmit::Datagram(d) => {
                if self.out_loss.as_mut().is_some_and(Dropper::drop_next) {
                    return Ok(());
                }
                if let Err(e) = self.conn.send_datagram(Bytes::from(d)) {
                    trace!(error = %e, "datagram not sent");
                }
            }
            Transmit::Stream(b) => {
                if self.close_asked {
                    return Ok(());
                }
                let bytes = self.backlog() + b.len();
                if bytes > self.backlog_limit {
                    return Err(Backlogged { bytes, limit: self.backlog_limit });
                }
                self.backlog.fetch_add(b.len(), Ordering::Relaxed);
                let _ = self.outbound.send(Outbound::Stream(b));
            }
            Transmit::Close { code, reason } => self.close(code, reason),
        }
        Ok(())
    }

    /// Finishes the control stream and closes, at the latest after
    /// [`CLOSE_DEADLINE`].
    fn close(&mut self, code: u32, reason: Vec<u8>) {
        if self.close_asked {
            return;
        }
        self.close_asked = true;
        let conn = self.conn.clone();
        let hard = reason.clone();
        self.runtime.spawn(async move {
            tokio::time::sleep(CLOSE_DEADLINE).await;
            conn.close(code.into(), &hard);
        });
        let _ = self.outbound.send(Outbound::Close { code, reason });
    }

    /// Closes the connection now, without waiting for the control stream.
    pub(crate) fn abort(&mut self, code: u32, reason: &[u8]) {
        self.close_asked = true;
        self.conn.close(code.into(), reason);
    }
}

/// Maps quinn's reason a connection ended to ours.
pub(crate) fn reason_of(e: &quinn::ConnectionError) -> DisconnectReason {
    use quinn::ConnectionError as E;
    match e {
        E::ApplicationClosed(c) => disconnect_from_close(c.error_code.into_inner(), &c.reason),
        E::TimedOut => DisconnectReason::Timeout,
        E::LocallyClosed => DisconnectReason::ConnectionLost("closed locally".into()),
        other => DisconnectReason::ConnectionLost(other.to_string()),
    }
}

/// Opens (client) or accepts (server) the control stream, reads it on a task
/// of its own, and writes what the owner hands over until a close.
async fn run_stream(
    conn: quinn::Connection,
    side: Side,
    inbound: mpsc::Sender<Inbound>,
    mut outbound: mpsc::UnboundedReceiver<Outbound>,
    backlog: Arc<AtomicUsize>,
) {
    let opened = match side {
        Side::Server => conn.accept_bi().await,
        Side::Client => conn.open_bi().await,
    };
    let (mut send, recv) = match opened {
        Ok(s) => s,
        Err(e) => return debug!(error = %e, "control stream not opened"),
    };
    let reader = tokio::spawn(read_stream(recv, inbound));
    while let Some(out) = outbound.recv().await {
        match out {
            Outbound::Stream(b) => {
                let written = send.write_all(&b).await;
                backlog.fetch_sub(b.len(), Ordering::Relaxed);
                if written.is_err() {
                    break;
                }
            }
            Outbound::Close { code, reason } => {
                let _ = send.finish();
                let _ = tokio::time::timeout(LINGER, send.stopped()).await;
                conn.close(code.into(), &reason);
                break;
            }
        }
    }
    // The owner is gone (transport dropped) or the stream broke: leave.
    if conn.close_reason().is_none() && outbound.is_closed() {
        conn.close(0u32.into(), b"");
    }
    // The reader ends by itself when the connection closes.
    drop(reader);
}

async fn read_stream(mut recv: quinn::RecvStream, inbound: mpsc::Sender<Inbound>) {
    while let Ok(Some(chunk)) = recv.read_chunk(STREAM_CHUNK, true).await {
        if inbound.send(Inbound::Stream(chunk.bytes)).await.is_err() {
            return;
        }
    }
}

async fn read_datagrams(conn: quinn::Connection, datagrams: mpsc::Sender<Bytes>, mut loss: Option<Dropper>) {
    while let Ok(data) = conn.read_datagram().await {
        if loss.as_mut().is_some_and(Dropper::drop_next) {
            continue;
        }
        if let Err(mpsc::error::TrySendError::Closed(_)) = datagrams.try_send(data) {
            return;
        }
    }
}

async fn watch_path(conn: quinn::Connection, inbound: mpsc::Sender<Inbound>) {
    let mut every = tokio::time::interval(PATH_INTERVAL);
    let mut rate = WireRate::default();
    loop {
        every.tick().await;
        // A full queue skips this refresh; the next one comes soon.
        if conn.close_reason().is_some() {
            return;
        }
        let mut path = PathInfo::of(&conn);
        rate.sample(std::time::Instant::now(), &mut path.wire);
        if let Err(mpsc::error::TrySendError::Closed(_)) = inbound.try_send(Inbound::Path(path)) {
            return;
        }
    }
}

/// Samples of quinn's byte totals kept to turn them into rates.
const WIRE_SAMPLES: usize = (WIRE_WINDOW.as_millis() / PATH_INTERVAL.as_millis()) as usize + 1;

/// The span the wire rates average over (the payload meters' window).
const WIRE_WINDOW: Duration = Duration::from_secs(1);

/// Per-second UDP byte rates from totals sampled every [`PATH_INTERVAL`]:
/// the growth between the oldest and newest of the last second's samples.
#[derive(Debug, Default)]
struct WireRate {
    samples: std::collections::VecDeque<(std::time::Instant, u64, u64)>,
}

impl WireRate {
    /// Records `wire`'s totals at `now` and fills in its rates.
    fn sample(&mut self, now: std::time::Instant, wire: &mut WireStats) {
        self.samples.push_back((now, wire.bytes_in, wire.bytes_out));
        while self.samples.len() > WIRE_SAMPLES {
            self.samples.pop_front();
        }
        let (Some(&(t0, in0, out0)), Some(&(t1, in1, out1))) = (self.samples.front(), self.samples.back()) else { return };
        let secs = t1.saturating_duration_since(t0).as_secs_f64();
        if secs > 0.0 {
            wire.bytes_in_per_s = (in1.saturating_sub(in0) as f64 / secs).round() as u64;
            wire.bytes_out_per_s = (out1.saturating_sub(out0) as f64 / secs).round() as u64;
        }
    }
}
