//! A TCP listener for the operator's HTTP endpoints that a client cannot
//! exhaust: at most [`MAX_CONNECTIONS`] are open at once (the rest wait in
//! the kernel's accept queue, costing the server nothing), one address may
//! hold at most [`MAX_PER_ADDRESS`] of them (more are closed at once, so one
//! client cannot crowd out a scraper), and each is timed:
//!
//! - a connection that has not been answered within [`FIRST_ANSWER`] (it
//!   sends nothing, or trickles a request) is closed;
//! - after that, one that goes [`IDLE`] without the server writing to it
//!   (a kept-alive connection nobody uses) is closed;
//! - a write that cannot go out for [`STALL`] (the client stopped reading
//!   and the socket's send buffer, [`SEND_BUFFER`], is full) closes it: a
//!   viewer of a stream that stops reading is dropped, never buffered for.
//!
//! A stream that keeps being read (the web view's frames, which carry a
//! keep-alive comment at least every 10 s) lives as long as its reader.

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
/// How long a new connection has to send a request the server answers.
pub const FIRST_ANSWER: Duration = Duration::from_secs(10);
/// How long a connection may go without the server writing to it.
pub const IDLE: Duration = Duration::from_secs(30);
/// How long one write may wait for the client to read.
pub const STALL: Duration = Duration::from_secs(3);
/// The kernel's send buffer of each connection, bytes: what a client that
/// stops reading can hold back before its writes stall.
pub const SEND_BUFFER: usize = 256 * 1024;

/// Open connections per address.
type PerAddress = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// How connections are timed (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// [`FIRST_ANSWER`].
    pub first_answer: Duration,
    /// [`IDLE`].
    pub idle: Duration,
    /// [`STALL`].
    pub stall: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Self { first_answer: FIRST_ANSWER, idle: IDLE, stall: STALL }
    }
}

/// [`TcpListener`] with the limits above.
pub struct BoundedListener {
    inner: TcpListener,
    permits: Arc<Semaphore>,
    per_address: PerAddress,
    timing: Timing,
}

impl BoundedListener {
    /// Wraps a bound listener, with the default [`Timing`].
    pub fn new(inner: TcpListener) -> Self {
        Self::with_timing(inner, Timing::default())
    }

    /// Wraps a bound listener, with connections timed by `timing`.
    pub fn with_timing(inner: TcpListener, timing: Timing) -> Self {
        Self { inner, permits: Arc::new(Semaphore::new(MAX_CONNECTIONS)), per_address: PerAddress::default(), timing }
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
                    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
                    let deadline = Box::pin(tokio::time::sleep(self.timing.first_answer));
                    return (BoundedStream { stream, deadline, stall: None, timing: self.timing, _permit: permit, _slot: slot }, addr);
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

/// An accepted connection, timed as the module says, that frees its place
/// when dropped.
pub struct BoundedStream {
    stream: TcpStream,
    /// When the connection ends unless the server writes to it first.
    deadline: Pin<Box<Sleep>>,
    /// When the write waiting for the client to read gives up.
    stall: Option<Pin<Box<Sleep>>>,
    timing: Timing,
    _permit: OwnedSemaphorePermit,
    _slot: AddressSlot,
}

impl BoundedStream {
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }
}

fn timed_out(what: &'static str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, what)
}

impl AsyncRead for BoundedStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if self.expired(cx) {
            return Poll::Ready(Err(timed_out("connection idle")));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for BoundedStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                // Progress: the connection is in use and the client reads.
                self.stall = None;
                let idle = tokio::time::Instant::now() + self.timing.idle;
                self.deadline.as_mut().reset(idle);
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                let limit = self.timing.stall;
                let stall = self.stall.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                if stall.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(timed_out("the client stopped reading")));
                }
                Poll::Pending
            }
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::*;

    /// Serves an endless body of zeros at `/` on a thread, with `timing`.
    fn endless_server(timing: Timing) -> std::net::SocketAddr {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = std_listener.local_addr().expect("addr");
        std_listener.set_nonblocking(true).expect("nonblocking");
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async move {
                let listener = BoundedListener::with_timing(TcpListener::from_std(std_listener).expect("listener"), timing);
                let endless = || async {
                    let chunks = futures_util::stream::repeat_with(|| Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![0u8; 16 * 1024])));
                    axum::body::Body::from_stream(chunks)
                };
                let router = axum::Router::new().route("/", axum::routing::get(endless));
                let _ = axum::serve(listener, router).await;
            });
        });
        addr
    }

    fn request(addr: std::net::SocketAddr) -> std::net::TcpStream {
        let mut client = std::net::TcpStream::connect(addr).expect("connect");
        client.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").expect("request");
        client.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
        client
    }

    /// Reads until the server closes (`None` if it never did within 20 s of
    /// silence), returning the bytes read.
    fn read_to_close(client: &mut std::net::TcpStream, limit: usize) -> Option<usize> {
        let mut buf = vec![0u8; 64 * 1024];
        let mut total = 0;
        while total < limit {
            match client.read(&mut buf) {
                Ok(0) => return Some(total),
                Ok(n) => total += n,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Some(total),
                Err(_) => return None,
            }
        }
        None
    }

    #[test]
    fn a_client_that_stops_reading_is_dropped() {
        let timing = Timing { first_answer: Duration::from_secs(5), idle: Duration::from_secs(5), stall: Duration::from_millis(300) };
        let addr = endless_server(timing);
        let mut client = request(addr);
        // Not reading: the buffers fill, the server's write stalls, and it
        // gives up on the connection.
        std::thread::sleep(Duration::from_secs(2));
        let read = read_to_close(&mut client, 256 * 1024 * 1024);
        let read = read.expect("the server closed the stalled connection");
        assert!(read < 64 * 1024 * 1024, "what was buffered for the client is bounded: {read} bytes");
    }

    #[test]
    fn a_client_that_keeps_reading_outlives_the_first_answer_limit() {
        let timing = Timing { first_answer: Duration::from_millis(400), idle: Duration::from_millis(400), stall: Duration::from_secs(5) };
        let addr = endless_server(timing);
        let mut client = request(addr);
        let started = std::time::Instant::now();
        let mut buf = vec![0u8; 64 * 1024];
        while started.elapsed() < Duration::from_millis(1500) {
            let n = client.read(&mut buf).expect("the stream goes on while it is read");
            assert!(n > 0, "the server closed a connection that was being read");
        }
    }

    #[test]
    fn a_silent_connection_is_closed() {
        let timing = Timing { first_answer: Duration::from_millis(300), idle: Duration::from_secs(5), stall: Duration::from_secs(5) };
        let addr = endless_server(timing);
        let mut client = std::net::TcpStream::connect(addr).expect("connect");
        client.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
        let mut buf = [0u8; 16];
        let n = client.read(&mut buf).unwrap_or(0);
        assert_eq!(n, 0, "closed without an answer");
    }
}
