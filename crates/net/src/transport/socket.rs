//! The endpoints' UDP sockets: an IPv6 wildcard address is bound
//! dual-stack, so IPv4 clients (as `::ffff:a.b.c.d`) and IPv6 clients share
//! one port; and quinn gets them through [`NoEcn`], which keeps ECN off.

use std::io::{self, IoSliceMut};
use std::net::{SocketAddr, UdpSocket};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use quinn::udp::{RecvMeta, Transmit};
use quinn::{AsyncUdpSocket, UdpPoller};
use socket2::{Domain, Protocol, Socket, Type};

/// Binds a UDP socket for quinn. `[::]:port` accepts IPv4 too (the
/// `IPV6_V6ONLY` option is cleared whatever the system default); any other
/// address binds just that address.
pub(crate) fn bind_udp(addr: SocketAddr) -> std::io::Result<UdpSocket> {
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    if let SocketAddr::V6(v6) = addr
        && v6.ip().is_unspecified()
    {
        socket.set_only_v6(false)?;
    }
    socket.bind(&addr.into())?;
    Ok(socket.into())
}

/// A quinn endpoint on `socket`, through [`NoEcn`].
pub(crate) fn endpoint(config: quinn::EndpointConfig, server: Option<quinn::ServerConfig>, socket: UdpSocket) -> io::Result<quinn::Endpoint> {
    let runtime = quinn::default_runtime().ok_or_else(|| io::Error::other("no async runtime for quinn"))?;
    let socket = Arc::new(NoEcn(runtime.wrap_udp_socket(socket)?));
    quinn::Endpoint::new_with_abstract_socket(config, server, socket, runtime)
}

/// A server endpoint on `socket`, through [`NoEcn`] and the out-of-band
/// [`Split`](super::oob::Split); also returns the bare socket, which the
/// heartbeats send through (from the game port).
pub(crate) fn server_endpoint(
    config: quinn::EndpointConfig,
    server: quinn::ServerConfig,
    socket: UdpSocket,
    plane: Arc<super::oob::OobPlane>,
) -> io::Result<(quinn::Endpoint, Arc<dyn AsyncUdpSocket>)> {
    let runtime = quinn::default_runtime().ok_or_else(|| io::Error::other("no async runtime for quinn"))?;
    let bare = runtime.wrap_udp_socket(socket)?;
    let split: Arc<dyn AsyncUdpSocket> = Arc::new(super::oob::Split::new(Arc::clone(&bare), plane));
    let socket = Arc::new(NoEcn(split));
    Ok((quinn::Endpoint::new_with_abstract_socket(config, Some(server), socket, runtime)?, bare))
}

/// quinn's socket with Explicit Congestion Notification turned off: what
/// it sends is marked Not-ECT, and marks on what it receives are ignored.
///
/// With ECN on, a QUIC receiver reports three running counts of marked
/// packets in every ACK frame (RFC 9000 §13.4), two to six bytes more per
/// ACK. The server acknowledges about 60 client packets a second in the
/// snapshots it sends, so that was 120-180 B/s of a client's downstream
/// (measured with `benches/wire.rs`). ECN buys a sender an early congestion
/// signal, which a stream of a few kB/s, never limited by its congestion
/// window, has no use for. quinn has no switch for it, hence the wrapper.
#[derive(Debug)]
struct NoEcn(Arc<dyn AsyncUdpSocket>);

impl AsyncUdpSocket for NoEcn {
    fn create_io_poller(self: Arc<Self>) -> Pin<Box<dyn UdpPoller>> {
        Arc::clone(&self.0).create_io_poller()
    }

    fn try_send(&self, transmit: &Transmit<'_>) -> io::Result<()> {
        self.0.try_send(&Transmit { ecn: None, ..*transmit })
    }

    fn poll_recv(&self, cx: &mut Context<'_>, bufs: &mut [IoSliceMut<'_>], meta: &mut [RecvMeta]) -> Poll<io::Result<usize>> {
        let got = self.0.poll_recv(cx, bufs, meta);
        if let Poll::Ready(Ok(n)) = got {
            for m in meta.iter_mut().take(n) {
                m.ecn = None;
            }
        }
        got
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.0.local_addr()
    }

    fn max_transmit_segments(&self) -> usize {
        self.0.max_transmit_segments()
    }

    fn max_receive_segments(&self) -> usize {
        self.0.max_receive_segments()
    }

    fn may_fragment(&self) -> bool {
        self.0.may_fragment()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_v6_takes_v4_datagrams_too() {
        let Ok(server) = bind_udp("[::]:0".parse().expect("addr")) else {
            return; // no IPv6 on this host
        };
        let port = server.local_addr().expect("addr").port();
        let client = UdpSocket::bind("127.0.0.1:0").expect("v4 client");
        client.send_to(b"ping", ("127.0.0.1", port)).expect("send");
        server.set_read_timeout(Some(std::time::Duration::from_secs(2))).expect("timeout");
        let mut buf = [0u8; 8];
        let (n, from) = server.recv_from(&mut buf).expect("a v4 datagram on the dual-stack socket");
        assert_eq!(&buf[..n], b"ping");
        assert_eq!(from.ip().to_canonical(), client.local_addr().expect("addr").ip());
    }
}
