//! The server's UDP socket: an IPv6 wildcard address is bound dual-stack,
//! so IPv4 clients (as `::ffff:a.b.c.d`) and IPv6 clients share one port.

use std::net::{SocketAddr, UdpSocket};

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
