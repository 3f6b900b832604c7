//! A TCP listener for the operator's HTTP endpoints that a client cannot
//! exhaust: at most [`MAX_CONNECTIONS`] are open at once (the rest wait in
//! the kernel's accept queue, costing the server nothing), one address may
//! hold at most [`MAX_PER_ADDRESS`] of them (more are closed at once, so one
//! client cannot crowd out a scraper), and each lives at most
//! [`CONNECTION_LIFETIME`], so a client that opens a connection and sends
//! nothing (or trickles a request) gives its place back.

use std::future::Future;
use std::collections::HashMap;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 64;
/// Connections one IP address may hold at once.
pub const MAX_PER_ADDRESS: usize = 8;
/// How long one connection may stay open (a scraper reconnects).
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(10);

/// Open connections per address.
type PerAddress = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// [`TcpListener`] with the limits above.
pub struct BoundedListener {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    per_address: PerAddress,
}

impl BoundedListener {
    /// Wraps a bound listener.
    pub fn new(inner: TcpListener) -> Self {
        Self { inner, permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)), per_address: PerAddress::default() }
    }

    /// Counts a connection from `ip`; `None` when it has too many already.
    fn admit(&self, ip: IpAddr) -> Option<AddressSlot> {
        let mut open = self.per_address.lock().ok()?;
        let n = open.entry(ip).or_default();
        if *n >= MAX_PER_ADDRESS {
            return None;
        }
        *n += 1;
        Some(AddressSlot { ip, open: Arc::clone(&self.per_address) })
    }
}

/// One connection's place in its address's count, given back on drop.
struct AddressSlot {
    ip: IpAddr,
    open: PerAddress,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock()
            && let Some(n) = open.get_mut(&self.ip)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

impl axum::serve::Listener for BoundedListener {
    type Io = BoundedStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            // Waiting for a permit before accepting leaves the excess in the
            // kernel's backlog.
            let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
                // The semaphore is never closed; wait rather than spin.
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            };
            match self.inner.accept().await {
                Ok((stream, addr)) => {
                    // Too many from one address: closed unanswered.
                    let Some(slot) = self.admit(addr.ip().to_canonical()) else { continue };
                    let _ = stream.set_nodelay(true);
                    let deadline = Box::pin(tokio::time::sleep(CONNECTION_LIFETIME));
                    return (BoundedStream { stream, deadline, _permit: permit, _slot: slot }, addr);
                }
                // Out of file descriptors and the like: back off, as axum's own listener does.
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// An accepted connection that ends at its deadline and frees its place
/// when dropped.
pub struct BoundedStream {
    stream: TcpStream,
    deadline: Pin<Box<Sleep>>,
    _permit: OwnedSemaphorePermit,
    _slot: AddressSlot,
}

impl BoundedStream {
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }
}

fn timed_out() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "connection lifetime reached")
}

impl AsyncRead for BoundedStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if self.expired(cx) {
            return Poll::Ready(Err(timed_out()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for BoundedStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        if self.expired(cx) {
            return Poll::Ready(Err(timed_out()));
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
