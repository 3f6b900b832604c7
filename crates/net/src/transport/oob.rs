//! The game port's out-of-band side: [`Split`] sits between quinn and the
//! UDP socket and takes every datagram that begins with `FF FF FF FF` out
//! of what quinn receives, answering it on the spot through the
//! [`OobHandler`] from the same socket (a master asks back the address a
//! heartbeat came from, so answers must leave from the game port).
//!
//! Answering happens inside quinn's receive poll on the endpoint's driver
//! task: the handler does no I/O but one non-blocking send, and a full
//! socket buffer drops the answer (counted), so a flood costs the driver
//! its own time and never the tick thread.

use std::io::{self, IoSliceMut};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use quinn::udp::{RecvMeta, Transmit};
use quinn::{AsyncUdpSocket, UdpPoller};
use tokio::sync::watch;

use crate::oob::{OobHandler, OobLimits, OobStats, Published, is_oob};

/// Receive batches taken in one poll that held only out-of-band datagrams
/// before the poll yields (so a flood cannot keep the driver in one poll).
const OOB_ONLY_BATCHES: usize = 16;

/// What the socket wrapper and the owner share.
pub(crate) struct OobPlane {
    handler: Mutex<OobHandler>,
    published: watch::Receiver<Arc<Published>>,
}

impl OobPlane {
    /// A plane with `limits`, its challenges keyed from the OS RNG; the
    /// owner publishes answers through the returned sender.
    pub(crate) fn new(limits: OobLimits) -> (Arc<Self>, watch::Sender<Arc<Published>>) {
        let mut key = [0u8; 32];
        // A failing RNG leaves a fixed key: challenges still tie an answer
        // to an address, only guessable; the rate limits hold either way.
        let _ = ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut key);
        let (tx, published) = watch::channel(Arc::new(Published::default()));
        (Arc::new(Self { handler: Mutex::new(OobHandler::new(limits, &key, Instant::now())), published }), tx)
    }

    /// The handler's counters.
    pub(crate) fn stats(&self) -> OobStats {
        self.handler.lock().unwrap_or_else(PoisonError::into_inner).stats()
    }

    /// The masters' addresses, answered beyond the global budget.
    pub(crate) fn set_masters(&self, masters: &[std::net::IpAddr]) {
        self.handler.lock().unwrap_or_else(PoisonError::into_inner).set_masters(masters);
    }

    /// Answers one out-of-band datagram through `socket`.
    fn serve(&self, socket: &dyn AsyncUdpSocket, meta: &RecvMeta, datagram: &[u8]) {
        let published = Arc::clone(&self.published.borrow());
        let mut handler = self.handler.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(answer) = handler.handle(Instant::now(), meta.addr, datagram, &published) else { return };
        let transmit = Transmit { destination: meta.addr, ecn: None, contents: &answer, segment_size: None, src_ip: meta.dst_ip };
        if socket.try_send(&transmit).is_err() {
            handler.note_send_failed();
        }
    }

    /// Serves the out-of-band datagrams among `n` received ones and moves
    /// the rest to the front; returns how many are left for quinn.
    fn split(&self, socket: &dyn AsyncUdpSocket, bufs: &mut [IoSliceMut<'_>], meta: &mut [RecvMeta], n: usize) -> usize {
        let mut kept = 0;
        for i in 0..n.min(bufs.len()).min(meta.len()) {
            let m = meta[i];
            let Some(data) = bufs[i].get(..m.len) else { continue };
            let stride = if m.stride == 0 { m.len.max(1) } else { m.stride };
            // One datagram, or several of one size from one source (GRO).
            let mut quic = false;
            for segment in data.chunks(stride) {
                if is_oob(segment) {
                    self.serve(socket, &m, segment);
                } else {
                    quic = true;
                }
            }
            if !quic {
                continue;
            }
            // A batch that mixes both goes to quinn whole: it drops the
            // out-of-band ones as packets of an unknown version.
            if kept != i {
                let (front, back) = bufs.split_at_mut(i);
                let (Some(dst), Some(src)) = (front.get_mut(kept), back.first()) else { continue };
                let (Some(dst), Some(src)) = (dst.get_mut(..m.len), src.get(..m.len)) else { continue };
                dst.copy_from_slice(src);
                meta[kept] = m;
            }
            kept += 1;
        }
        kept
    }
}

/// quinn's socket with the out-of-band datagrams taken out.
pub(crate) struct Split {
    inner: Arc<dyn AsyncUdpSocket>,
    plane: Arc<OobPlane>,
}

impl std::fmt::Debug for Split {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Split").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl Split {
    /// Wraps `inner`, serving its out-of-band datagrams through `plane`.
    pub(crate) fn new(inner: Arc<dyn AsyncUdpSocket>, plane: Arc<OobPlane>) -> Self {
        Self { inner, plane }
    }
}

impl AsyncUdpSocket for Split {
    fn create_io_poller(self: Arc<Self>) -> Pin<Box<dyn UdpPoller>> {
        Arc::clone(&self.inner).create_io_poller()
    }

    fn try_send(&self, transmit: &Transmit<'_>) -> io::Result<()> {
        self.inner.try_send(transmit)
    }

    fn poll_recv(&self, cx: &mut Context<'_>, bufs: &mut [IoSliceMut<'_>], meta: &mut [RecvMeta]) -> Poll<io::Result<usize>> {
        for _ in 0..OOB_ONLY_BATCHES {
            let n = match self.inner.poll_recv(cx, bufs, meta) {
                Poll::Ready(Ok(n)) => n,
                other => return other,
            };
            let kept = self.plane.split(self.inner.as_ref(), bufs, meta, n);
            if kept > 0 {
                return Poll::Ready(Ok(kept));
            }
        }
        // Only out-of-band datagrams so far: let the driver's other work
        // run, and come back at once.
        cx.waker().wake_by_ref();
        Poll::Pending
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }

    fn max_transmit_segments(&self) -> usize {
        self.inner.max_transmit_segments()
    }

    fn max_receive_segments(&self) -> usize {
        self.inner.max_receive_segments()
    }

    fn may_fragment(&self) -> bool {
        self.inner.may_fragment()
    }
}
