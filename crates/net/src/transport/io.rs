//! The per-connection I/O task: moves bytes between quinn and the owner's
//! thread and makes no protocol decision of its own.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::mpsc;
use tracing::{debug, trace};

use super::ConnId;
use super::loss::{Dropper, LossHook};
use crate::conn::Transmit;
use crate::reliable::{DisconnectReason, disconnect_from_close};

/// The size quinn allows before path MTU discovery (1200-byte packets).
pub(crate) const INITIAL_MAX_DATAGRAM: usize = 1162;

/// How often path facts (RTT, MTU, loss) are refreshed.
const PATH_INTERVAL: Duration = Duration::from_millis(250);

/// How long a closing connection waits for the peer to read the control
/// stream to its end (so the last message, e.g. a kick reason, arrives).
const LINGER: Duration = Duration::from_secs(1);

/// Channel slots between the I/O tasks and the owner's thread. Datagrams
/// beyond this while the owner is slow are dropped, like a full socket.
pub(crate) const EVENT_QUEUE: usize = 8192;

/// Facts about the network path, from quinn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathInfo {
    pub(crate) max_datagram: usize,
    pub(crate) rtt: Duration,
    pub(crate) lost_packets: u64,
    pub(crate) sent_packets: u64,
}

impl PathInfo {
    pub(crate) fn of(conn: &quinn::Connection) -> Self {
        let stats = conn.stats();
        Self {
            max_datagram: conn.max_datagram_size().unwrap_or(0),
            rtt: conn.rtt(),
            lost_packets: stats.path.lost_packets,
            sent_packets: stats.path.sent_packets,
        }
    }

    pub(crate) fn loss(&self) -> f32 {
        if self.sent_packets == 0 { 0.0 } else { self.lost_packets as f32 / self.sent_packets as f32 }
    }
}

impl Default for PathInfo {
    fn default() -> Self {
        Self { max_datagram: INITIAL_MAX_DATAGRAM, rtt: Duration::ZERO, lost_packets: 0, sent_packets: 0 }
    }
}

/// What the I/O side reports to the owner.
#[derive(Debug)]
pub(crate) enum IoEvent {
    /// A QUIC connection is up; send its transmits to `tx`.
    Opened { id: ConnId, addr: SocketAddr, tx: mpsc::UnboundedSender<Transmit>, path: PathInfo },
    /// Bytes from the control stream.
    Stream { id: ConnId, data: Bytes },
    /// One datagram.
    Datagram { id: ConnId, data: Bytes },
    /// Fresh path facts.
    Path { id: ConnId, path: PathInfo },
    /// The connection is gone; nothing more will come for `id`.
    Closed { id: ConnId, reason: DisconnectReason },
}

/// Which side opens the control stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Accepts the stream the client opens.
    Server,
    /// Opens the stream.
    Client,
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

/// Runs one connection until it is closed, then reports `Closed`.
pub(crate) async fn drive(
    conn: quinn::Connection,
    id: ConnId,
    side: Side,
    events: mpsc::Sender<IoEvent>,
    mut transmits: mpsc::UnboundedReceiver<Transmit>,
    loss: Option<LossHook>,
) {
    let mut out_loss = Dropper::new(loss);
    let in_loss = Dropper::new(loss.map(|l| LossHook { seed: l.seed ^ 0x5eed_f00d_1055, ..l }));
    let datagrams = tokio::spawn(read_datagrams(conn.clone(), id, events.clone(), in_loss));
    let path = tokio::spawn(watch_path(conn.clone(), id, events.clone()));
    let mut reader = None;
    let mut send: Option<quinn::SendStream> = None;
    let mut pending: Vec<u8> = Vec::new();
    let open = async {
        match side {
            Side::Server => conn.accept_bi().await,
            Side::Client => conn.open_bi().await,
        }
    };
    tokio::pin!(open);
    let mut opened = false;
    loop {
        tokio::select! {
            r = &mut open, if !opened => {
                opened = true;
                match r {
                    Ok((mut s, r)) => {
                        reader = Some(tokio::spawn(read_stream(r, id, events.clone())));
                        if !pending.is_empty() && s.write_all(&std::mem::take(&mut pending)).await.is_err() {
                            break;
                        }
                        send = Some(s);
                    }
                    Err(e) => {
                        debug!(conn = %id, error = %e, "control stream not opened");
                        break;
                    }
                }
            }
            t = transmits.recv() => match t {
                None => {
                    // The owner is gone (transport dropped): leave quietly.
                    conn.close(0u32.into(), b"");
                    break;
                }
                Some(Transmit::Datagram(d)) => {
                    if out_loss.as_mut().is_some_and(Dropper::drop_next) {
                        continue;
                    }
                    if let Err(e) = conn.send_datagram(Bytes::from(d)) {
                        debug!(conn = %id, error = %e, "datagram not sent");
                    }
                }
                Some(Transmit::Stream(b)) => match send.as_mut() {
                    Some(s) => {
                        if s.write_all(&b).await.is_err() {
                            break;
                        }
                    }
                    None => pending.extend_from_slice(&b),
                },
                Some(Transmit::Close { code, reason }) => {
                    if let Some(mut s) = send.take() {
                        let _ = s.finish();
                        let _ = tokio::time::timeout(LINGER, s.stopped()).await;
                    }
                    conn.close(code.into(), &reason);
                    break;
                }
            },
            _ = conn.closed() => break,
        }
    }
    let reason = reason_of(&conn.closed().await);
    trace!(conn = %id, %reason, "connection closed");
    datagrams.abort();
    path.abort();
    if let Some(r) = reader {
        r.abort();
    }
    let _ = events.send(IoEvent::Closed { id, reason }).await;
}

async fn read_stream(mut recv: quinn::RecvStream, id: ConnId, events: mpsc::Sender<IoEvent>) {
    while let Ok(Some(chunk)) = recv.read_chunk(64 * 1024, true).await {
        if events.send(IoEvent::Stream { id, data: chunk.bytes }).await.is_err() {
            return;
        }
    }
}

async fn read_datagrams(conn: quinn::Connection, id: ConnId, events: mpsc::Sender<IoEvent>, mut loss: Option<Dropper>) {
    while let Ok(data) = conn.read_datagram().await {
        if loss.as_mut().is_some_and(Dropper::drop_next) {
            continue;
        }
        if events.try_send(IoEvent::Datagram { id, data }).is_err() {
            trace!(conn = %id, "owner busy, datagram dropped");
        }
    }
}

async fn watch_path(conn: quinn::Connection, id: ConnId, events: mpsc::Sender<IoEvent>) {
    let mut every = tokio::time::interval(PATH_INTERVAL);
    loop {
        every.tick().await;
        if conn.close_reason().is_some() || events.send(IoEvent::Path { id, path: PathInfo::of(&conn) }).await.is_err() {
            return;
        }
    }
}
