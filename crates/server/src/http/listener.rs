//! A TCP listener for the operator's HTTP endpoints that a client cannot
//! exhaust: at most [`MAX_CONNECTIONS`] are open at once (the rest wait in
//! the kernel's accept queue, costing the server nothing), one address (an
//! IPv4 address or an IPv6 /64, as the game port counts them) may hold at
//! most [`MAX_PER_ADDRESS`] of them (more are closed at once, so one client
//! cannot crowd out a scraper), and each is timed:
//!
//! - a request head (the request line and headers) must arrive whole within
//!   [`REQUEST_HEAD`] of the connection being accepted, or of its first
//!   byte on a kept-alive connection: a client that sends nothing, or
//!   trickles a head a byte at a time (a slowloris), is closed;
//! - a request whose head has arrived must be answered within
//!   [`FIRST_ANSWER`] (the server's own time);
//! - after that, one that goes [`IDLE`] without the server writing to it
//!   (a kept-alive connection nobody uses) is closed;
//! - a write that cannot go out for [`STALL`] (the client stopped reading
//!   and the socket's send buffer, [`SEND_BUFFER`], is full) closes it: a
//!   viewer of a stream that stops reading is dropped, never buffered for.
//!
//! A stream that keeps being read (the web view's frames, which carry a
//! keep-alive comment at least every 10 s) lives as long as its reader.
//! A server with long-lived streams caps them itself, below
//! [`MAX_CONNECTIONS`] (the web view: [`crate::web::MAX_STREAMS`]), so the
//! rest stay for short requests: with every stream taken and
//! [`MAX_PER_ADDRESS`] slow connections from each of 8 addresses, a page
//! request still finds a place at once, and with more addresses it waits
//! at most about [`REQUEST_HEAD`].

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
pub const MAX_CONNECTIONS: usize = 160;
/// Connections one address (an IPv4 address or an IPv6 /64) may hold at once.
pub const MAX_PER_ADDRESS: usize = 8;
/// How long a connection has to send a whole request head.
pub const REQUEST_HEAD: Duration = Duration::from_secs(2);
/// How long a request whose head has arrived may wait for its answer.
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
    /// [`REQUEST_HEAD`].
    pub head: Duration,
    /// [`FIRST_ANSWER`].
    pub first_answer: Duration,
    /// [`IDLE`].
    pub idle: Duration,
    /// [`STALL`].
    pub stall: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Self { head: REQUEST_HEAD, first_answer: FIRST_ANSWER, idle: IDLE, stall: STALL }
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
                    let Some(slot) = self.admit(quarry_net::transport::address_group(addr.ip())) else { continue };
                    let _ = stream.set_nodelay(true);
                    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
                    let deadline = Box::pin(tokio::time::sleep(self.timing.head));
                    let phase = Phase::Head(HeadEnd::default());
                    return (BoundedStream { stream, deadline, phase, stall: None, timing: self.timing, _permit: permit, _slot: slot }, addr);
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

/// Finds the end of a request head (an empty line, `\r\n\r\n`, or `\n\n`
/// as lenient parsers take it) in bytes read a few at a time.
#[derive(Debug, Default, Clone, Copy)]
struct HeadEnd {
    /// Whether the last byte other than `\r` was a `\n`: one more `\n`
    /// makes an empty line.
    after_newline: bool,
}

impl HeadEnd {
    /// Reads `bytes` on from where the last call stopped; whether the head
    /// ended in them.
    fn ended_in(&mut self, bytes: &[u8]) -> bool {
        for &b in bytes {
            match b {
                b'\n' if self.after_newline => return true,
                b'\n' => self.after_newline = true,
                b'\r' => {}
                _ => self.after_newline = false,
            }
        }
        false
    }
}

/// Where a connection is in its exchange, for the timing.
#[derive(Debug, Clone, Copy)]
enum Phase {
    /// A request head is arriving (within [`Timing::head`]).
    Head(HeadEnd),
    /// The head is in; the server has not answered yet.
    Answering,
    /// The server has written; bytes read now begin the next request.
    Answered,
}

/// An accepted connection, timed as the module says, that frees its place
/// when dropped.
pub struct BoundedStream {
    stream: TcpStream,
    /// When the connection ends unless it moves on first (its head arrives,
    /// the server writes).
    deadline: Pin<Box<Sleep>>,
    /// What the deadline waits for.
    phase: Phase,
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

    /// Times `read`, bytes just read: a request head that begins, or ends.
    fn on_read(&mut self, read: &[u8]) {
        if read.is_empty() {
            return;
        }
        let now = tokio::time::Instant::now();
        let mut head = match self.phase {
            Phase::Head(head) => head,
            // A body, if any, of the request being answered.
            Phase::Answering => return,
            Phase::Answered => {
                self.deadline.as_mut().reset(now + self.timing.head);
                HeadEnd::default()
            }
        };
        if head.ended_in(read) {
            self.phase = Phase::Answering;
            self.deadline.as_mut().reset(now + self.timing.first_answer);
        } else {
            self.phase = Phase::Head(head);
        }
    }
}

fn timed_out(what: &'static str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, what)
}

impl AsyncRead for BoundedStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        if self.expired(cx) {
            let what = match self.phase {
                Phase::Head(_) => "request head too slow",
                Phase::Answering | Phase::Answered => "connection idle",
            };
            return Poll::Ready(Err(timed_out(what)));
        }
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            self.on_read(&buf.filled()[before..]);
        }
        polled
    }
}

impl AsyncWrite for BoundedStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                // Progress: the connection is in use and the client reads.
                self.stall = None;
                self.phase = Phase::Answered;
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

    /// Serves `router` on a thread, behind the listener with `timing`.
    fn serve_on_thread(timing: Timing, router: axum::Router) -> std::net::SocketAddr {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = std_listener.local_addr().expect("addr");
        std_listener.set_nonblocking(true).expect("nonblocking");
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async move {
                let listener = BoundedListener::with_timing(TcpListener::from_std(std_listener).expect("listener"), timing);
                let _ = axum::serve(listener, router).await;
            });
        });
        addr
    }

    /// Serves an endless body of zeros at `/` on a thread, with `timing`.
    fn endless_server(timing: Timing) -> std::net::SocketAddr {
        let endless = || async {
            let chunks = futures_util::stream::repeat_with(|| Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![0u8; 16 * 1024])));
            axum::body::Body::from_stream(chunks)
        };
        serve_on_thread(timing, axum::Router::new().route("/", axum::routing::get(endless)))
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
        let timing = Timing { head: Duration::from_secs(5), first_answer: Duration::from_secs(5), idle: Duration::from_secs(5), stall: Duration::from_millis(300) };
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
        let timing = Timing { head: Duration::from_millis(400), first_answer: Duration::from_millis(400), idle: Duration::from_millis(400), stall: Duration::from_secs(5) };
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
        let timing = Timing { head: Duration::from_millis(300), first_answer: Duration::from_secs(5), idle: Duration::from_secs(5), stall: Duration::from_secs(5) };
        let addr = endless_server(timing);
        let mut client = std::net::TcpStream::connect(addr).expect("connect");
        client.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
        let mut buf = [0u8; 16];
        let n = client.read(&mut buf).unwrap_or(0);
        assert_eq!(n, 0, "closed without an answer");
    }

    /// Serves a short answer at `/` on a thread, with `timing`.
    fn short_server(timing: Timing) -> std::net::SocketAddr {
        serve_on_thread(timing, axum::Router::new().route("/", axum::routing::get(|| async { "ok" })))
    }

    /// Sends `head` in pieces of `piece` bytes, `gap` apart; then what the
    /// server answered before closing or going quiet for 2 s.
    fn trickle(client: &mut std::net::TcpStream, head: &[u8], piece: usize, gap: Duration) -> String {
        for bytes in head.chunks(piece) {
            if client.write_all(bytes).is_err() {
                break;
            }
            std::thread::sleep(gap);
        }
        client.set_read_timeout(Some(Duration::from_secs(2))).expect("timeout");
        let mut answer = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = client.read(&mut buf) {
            if n == 0 {
                break;
            }
            answer.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&answer).into_owned()
    }

    #[test]
    fn heads_end_at_an_empty_line() {
        let mut h = HeadEnd::default();
        assert!(!h.ended_in(b"GET / HTTP/1.1\r\nHost: x\r"));
        assert!(!h.ended_in(b"\n"));
        assert!(h.ended_in(b"\r\n"), "the empty line split across reads");
        assert!(HeadEnd::default().ended_in(b"GET / HTTP/1.1\nHost: x\n\n"), "bare newlines");
        assert!(!HeadEnd::default().ended_in(b"GET / HTTP/1.1\r\nA: \r\nB: b\r\n"));
    }

    #[test]
    fn a_head_sent_in_time_is_answered_even_in_pieces() {
        let timing = Timing { head: Duration::from_millis(800), ..Timing::default() };
        let addr = short_server(timing);
        let mut client = std::net::TcpStream::connect(addr).expect("connect");
        let answer = trickle(&mut client, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 8, Duration::from_millis(40));
        assert!(answer.starts_with("HTTP/1.1 200") && answer.ends_with("ok"), "{answer}");
    }

    #[test]
    fn a_trickled_head_is_closed_at_the_limit() {
        let timing = Timing { head: Duration::from_millis(500), ..Timing::default() };
        let addr = short_server(timing);
        let mut client = std::net::TcpStream::connect(addr).expect("connect");
        let started = std::time::Instant::now();
        // A byte every 100 ms: the whole head would take 5 s.
        let answer = trickle(&mut client, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaa\r\n\r\n", 1, Duration::from_millis(100));
        assert!(answer.is_empty(), "a head that took too long was answered: {answer}");
        // The writes fail once the server has closed; the loop ends early.
        assert!(started.elapsed() < Duration::from_secs(5), "closed after {:?}", started.elapsed());
    }

    #[test]
    fn the_next_head_on_a_kept_alive_connection_is_timed_too() {
        let timing = Timing { head: Duration::from_millis(500), ..Timing::default() };
        let addr = short_server(timing);
        let mut client = std::net::TcpStream::connect(addr).expect("connect");
        client.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").expect("request");
        client.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
        let mut buf = [0u8; 4096];
        let n = client.read(&mut buf).expect("the first answer");
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
        // Idle for longer than the head limit is fine (IDLE applies)...
        std::thread::sleep(Duration::from_millis(700));
        // ...but the next head, once begun, has the head limit.
        let answer = trickle(&mut client, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaa\r\n\r\n", 1, Duration::from_millis(100));
        assert!(answer.is_empty(), "a second head that took too long was answered: {answer}");
    }
}
