//! A small blocking HTTP/1.1 client for the Agones SDK's REST gateway on
//! localhost, used only by the SDK worker thread (`sdk.rs`).
//!
//! Written by hand rather than with hyper: hyper's client needs the `want`
//! crate, which is not in the build's crate cache, and what is asked of the
//! client is narrow: one request per connection (`Connection: close`) to
//! localhost, a fixed small JSON body, a response read to at most
//! [`MAX_RESPONSE_BYTES`] under [`CONNECT_TIMEOUT`] and [`IO_TIMEOUT`], with
//! `Content-Length` or chunked bodies (the gateway is Go's net/http, which
//! chunks a body it does not know the length of). No TLS, no redirects, no
//! keep-alive, no proxies.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// How long a connection to the gateway may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);
/// How long one request may take from connect to the last byte read.
pub const IO_TIMEOUT: Duration = Duration::from_secs(2);
/// The largest response read (a GameServer with its labels, annotations
/// and status is a few KiB).
pub const MAX_RESPONSE_BYTES: usize = 256 * 1024;

/// A response: status code and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status code.
    pub status: u16,
    /// The body (chunked encoding removed), as text.
    pub body: String,
}

impl Reply {
    /// A 2xx status.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// No address of the gateway accepted a connection.
    #[error("cannot connect to the SDK gateway on localhost:{port}: {error}")]
    Connect {
        /// The gateway's port.
        port: u16,
        /// The last connection error.
        error: std::io::Error,
    },
    /// Reading or writing failed, or timed out.
    #[error("SDK gateway: {0}")]
    Io(#[from] std::io::Error),
    /// The response was not HTTP as expected.
    #[error("SDK gateway: malformed response ({0})")]
    Malformed(&'static str),
    /// The response was larger than [`MAX_RESPONSE_BYTES`].
    #[error("SDK gateway: response larger than {MAX_RESPONSE_BYTES} bytes")]
    TooLarge,
}

/// The SDK's REST gateway at `localhost:PORT`.
#[derive(Debug, Clone)]
pub struct Gateway {
    port: u16,
    addrs: Vec<SocketAddr>,
}

impl Gateway {
    /// The gateway on localhost's addresses (IPv4 first), resolved once.
    pub fn localhost(port: u16) -> Self {
        let mut addrs: Vec<SocketAddr> = ("localhost", port).to_socket_addrs().map(Iterator::collect).unwrap_or_default();
        if addrs.is_empty() {
            addrs.push(SocketAddr::from(([127, 0, 0, 1], port)));
        }
        addrs.sort_by_key(|a| !a.is_ipv4());
        addrs.dedup();
        Self { port, addrs }
    }

    /// One request with a JSON body (`{}` for the lifecycle calls; empty for
    /// a GET), on a fresh connection.
    pub fn request(&self, method: &str, path: &str, body: &str) -> Result<Reply, GatewayError> {
        let started = Instant::now();
        let mut stream = self.connect()?;
        stream.set_write_timeout(Some(IO_TIMEOUT))?;
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: localhost:{}\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        stream.write_all(head.as_bytes())?;
        stream.write_all(body.as_bytes())?;
        let mut raw = Vec::with_capacity(1024);
        let mut buf = [0u8; 8192];
        loop {
            let left = IO_TIMEOUT.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(GatewayError::Io(std::io::Error::new(std::io::ErrorKind::TimedOut, "no complete response in time")));
            }
            stream.set_read_timeout(Some(left))?;
            let n = stream.read(&mut buf)?;
            if n == 0 {
                break;
            }
            if raw.len() + n > MAX_RESPONSE_BYTES {
                return Err(GatewayError::TooLarge);
            }
            raw.extend_from_slice(&buf[..n]);
            if is_complete(&raw) {
                break;
            }
        }
        parse_response(&raw)
    }

    fn connect(&self) -> Result<TcpStream, GatewayError> {
        let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address for localhost");
        for addr in &self.addrs {
            match TcpStream::connect_timeout(addr, CONNECT_TIMEOUT) {
                Ok(s) => {
                    let _ = s.set_nodelay(true);
                    return Ok(s);
                }
                Err(e) => last = e,
            }
        }
        Err(GatewayError::Connect { port: self.port, error: last })
    }
}

/// Where the head ends (after the blank line), if it has.
fn head_end(raw: &[u8]) -> Option<usize> {
    raw.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4)
}

/// A header's value (the first of that name; names in any case).
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.split("\r\n").skip(1).find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Whether `raw` holds a whole response, so the read can stop without
/// waiting for the server to close.
fn is_complete(raw: &[u8]) -> bool {
    let Some(end) = head_end(raw) else { return false };
    let head = String::from_utf8_lossy(&raw[..end]);
    if header(&head, "transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        return raw[end..].ends_with(b"0\r\n\r\n");
    }
    header(&head, "content-length").and_then(|v| v.parse::<usize>().ok()).is_some_and(|len| raw.len() - end >= len)
}

/// Parses a whole response: status line, headers, and a body by
/// `Content-Length`, chunked, or up to the end.
pub fn parse_response(raw: &[u8]) -> Result<Reply, GatewayError> {
    let end = head_end(raw).ok_or(GatewayError::Malformed("no end of headers"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| GatewayError::Malformed("headers are not UTF-8"))?;
    let status_line = head.split("\r\n").next().unwrap_or_default();
    let mut words = status_line.split_whitespace();
    if !words.next().is_some_and(|v| v.starts_with("HTTP/1.")) {
        return Err(GatewayError::Malformed("no HTTP/1.x status line"));
    }
    let status = words.next().and_then(|c| c.parse::<u16>().ok()).ok_or(GatewayError::Malformed("no status code"))?;
    let rest = &raw[end..];
    let body = if header(head, "transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        decode_chunked(rest)?
    } else if let Some(len) = header(head, "content-length") {
        let len = len.parse::<usize>().map_err(|_| GatewayError::Malformed("bad Content-Length"))?;
        rest.get(..len).ok_or(GatewayError::Malformed("body shorter than Content-Length"))?.to_vec()
    } else {
        rest.to_vec()
    };
    Ok(Reply { status, body: String::from_utf8_lossy(&body).into_owned() })
}

/// Removes chunked transfer encoding (extensions and trailers ignored).
fn decode_chunked(mut rest: &[u8]) -> Result<Vec<u8>, GatewayError> {
    let mut body = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n").ok_or(GatewayError::Malformed("chunk size line"))?;
        let line = std::str::from_utf8(&rest[..line_end]).map_err(|_| GatewayError::Malformed("chunk size line"))?;
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| GatewayError::Malformed("chunk size"))?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        let chunk = rest.get(..size).ok_or(GatewayError::Malformed("chunk shorter than its size"))?;
        body.extend_from_slice(chunk);
        rest = rest.get(size + 2..).ok_or(GatewayError::Malformed("chunk not followed by CRLF"))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn parses_content_length_chunked_and_unframed_bodies() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}").expect("parse");
        assert_eq!(r, Reply { status: 200, body: "{}".into() });
        let r = parse_response(b"HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n4;x=y\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n").expect("chunked");
        assert_eq!(r.body, "{\"a\":1}");
        let r = parse_response(b"HTTP/1.0 404 Not Found\r\n\r\nnot found").expect("unframed");
        assert_eq!((r.status, r.body.as_str(), r.ok()), (404, "not found", false));
        for bad in [&b"HTTP/1.1 200 OK\r\n"[..], b"SSH-2.0\r\n\r\n", b"HTTP/1.1 OK\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{}"] {
            assert!(parse_response(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").is_err());
    }

    /// Serves `reply` once and returns what was asked.
    fn serve_once(reply: &'static [u8]) -> (Gateway, std::thread::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let handle = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().expect("accept");
            let mut got = Vec::new();
            let mut buf = [0u8; 1024];
            while !got.ends_with(b"{}") {
                let n = s.read(&mut buf).expect("read");
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            s.write_all(reply).expect("write");
            String::from_utf8_lossy(&got).into_owned()
        });
        (Gateway { port, addrs: vec![SocketAddr::from(([127, 0, 0, 1], port))] }, handle)
    }

    #[test]
    fn sends_a_request_and_reads_a_chunked_reply_without_waiting_for_close() {
        // The server keeps the connection open: the client stops at the last chunk.
        let (gw, server) = serve_once(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
        let started = Instant::now();
        let reply = gw.request("POST", "/ready", "{}").expect("request");
        assert!(started.elapsed() < IO_TIMEOUT, "waited for the close");
        assert_eq!(reply, Reply { status: 200, body: "{}".into() });
        let asked = server.join().expect("server");
        assert!(asked.starts_with("POST /ready HTTP/1.1\r\n"), "{asked}");
        assert!(asked.contains("\r\nContent-Length: 2\r\n") && asked.contains("\r\nConnection: close\r\n") && asked.ends_with("\r\n\r\n{}"), "{asked}");
    }

    #[test]
    fn a_silent_gateway_times_out_and_a_closed_port_fails_at_once() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let gw = Gateway { port, addrs: vec![SocketAddr::from(([127, 0, 0, 1], port))] };
        let started = Instant::now();
        assert!(gw.request("POST", "/health", "{}").is_err());
        let took = started.elapsed();
        assert!(took >= IO_TIMEOUT && took < IO_TIMEOUT + Duration::from_secs(2), "{took:?}");
        drop(listener);
        let started = Instant::now();
        let e = gw.request("POST", "/health", "{}").expect_err("closed");
        assert!(matches!(e, GatewayError::Connect { .. }), "{e}");
        assert!(started.elapsed() < CONNECT_TIMEOUT * 2);
    }

    #[test]
    fn localhost_resolves_with_ipv4_first() {
        let gw = Gateway::localhost(9358);
        assert!(gw.addrs.first().is_some_and(|a| a.port() == 9358));
        assert!(gw.addrs.iter().take_while(|a| a.is_ipv4()).count() >= 1 || gw.addrs.iter().all(|a| a.is_ipv6()));
    }
}
