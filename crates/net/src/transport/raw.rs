//! A raw client: a real QUIC connection to a Quarry server with the
//! protocol's framing at hand but none of its manners. It writes whatever
//! bytes it is given on the control stream, sends any datagram, and reads
//! only when asked, so it can stop reading, flood, or send malformed frames.
//! For hostile-client tests, fuzzing through a live server, and load tools;
//! a real client uses [`super::ClientTransport`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;

use super::client::quinn_client_config;
use super::io::reason_of;
use super::{TransportError, TransportSettings, runtime};
use crate::cert::{CERT_NAMES, ServerVerification};
use crate::codec::{FrameBuffer, Writer, encode_frame};
use crate::datagram::{DatagramKind, write_header};
use crate::reliable::{ClientFrame, DisconnectReason, ServerFrame};
use crate::usercmd::CmdPacket;

/// Why a raw operation failed.
#[derive(Debug, thiserror::Error)]
pub enum RawError {
    /// Setting up failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The connection did not come up in time.
    #[error("no connection within {0:?}")]
    Timeout(Duration),
    /// The connection is over.
    #[error("connection closed: {0}")]
    Closed(DisconnectReason),
    /// A write did not finish in time (the server stopped reading).
    #[error("write blocked for {0:?}")]
    Blocked(Duration),
    /// The server wrote a frame that does not parse.
    #[error("bad frame from the server: {0}")]
    BadFrame(String),
}

/// A runtime and client endpoint (one UDP socket) from which raw
/// connections are made.
pub struct RawEndpoint {
    runtime: Arc<tokio::runtime::Runtime>,
    endpoint: quinn::Endpoint,
    config: quinn::ClientConfig,
}

impl RawEndpoint {
    /// Binds `local` (e.g. `127.0.0.1:0`, or `[::1]:0` for IPv6).
    pub fn bind(local: SocketAddr, verification: ServerVerification, settings: &TransportSettings) -> Result<Self, TransportError> {
        let config = quinn_client_config(verification, settings)?;
        let rt = runtime(settings.worker_threads, "quarry-raw-client")?;
        let endpoint = {
            let _guard = rt.enter();
            quinn::Endpoint::client(local).map_err(|source| TransportError::Bind { addr: local, source })?
        };
        Ok(Self { runtime: Arc::new(rt), endpoint, config })
    }

    /// Opens a QUIC connection and the control stream (nothing is sent on
    /// it yet: QUIC opens a stream when its first byte goes out).
    pub fn connect(&self, server: SocketAddr, timeout: Duration) -> Result<RawClient, RawError> {
        let connecting = {
            let _guard = self.runtime.enter();
            self.endpoint.connect_with(self.config.clone(), server, CERT_NAMES[0]).map_err(TransportError::from)?
        };
        let conn = self
            .runtime
            .block_on(async { tokio::time::timeout(timeout, connecting).await })
            .map_err(|_| RawError::Timeout(timeout))?
            .map_err(|e| RawError::Closed(reason_of(&e)))?;
        let (send, recv) = self
            .runtime
            .block_on(async { tokio::time::timeout(timeout, conn.open_bi()).await })
            .map_err(|_| RawError::Timeout(timeout))?
            .map_err(|e| RawError::Closed(reason_of(&e)))?;
        Ok(RawClient { runtime: self.runtime.clone(), conn, send, recv, frames: FrameBuffer::new(), seq: 0 })
    }
}

/// One raw connection; see the [module docs](self).
pub struct RawClient {
    runtime: Arc<tokio::runtime::Runtime>,
    conn: quinn::Connection,
    send: quinn::SendStream,
    recv: quinn::RecvStream,
    frames: FrameBuffer,
    seq: u16,
}

impl RawClient {
    /// Writes raw bytes on the control stream, waiting at most `timeout`
    /// for flow control.
    pub fn write(&mut self, bytes: &[u8], timeout: Duration) -> Result<(), RawError> {
        let send = &mut self.send;
        match self.runtime.block_on(async { tokio::time::timeout(timeout, send.write_all(bytes)).await }) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(RawError::Closed(self.close_reason().unwrap_or(DisconnectReason::ConnectionLost("stream closed".into())))),
            Err(_) => Err(RawError::Blocked(timeout)),
        }
    }

    /// Writes one frame (length prefix, payload) of raw payload bytes.
    pub fn write_frame(&mut self, payload: &[u8], timeout: Duration) -> Result<(), RawError> {
        let mut out = Vec::with_capacity(payload.len() + 4);
        encode_frame(payload, &mut out);
        self.write(&out, timeout)
    }

    /// Writes one well-formed client frame.
    pub fn send_frame(&mut self, frame: &ClientFrame, timeout: Duration) -> Result<(), RawError> {
        self.write_frame(&frame.encode(), timeout)
    }

    /// Sends one raw datagram; `false` if QUIC would not take it.
    pub fn send_datagram(&self, bytes: &[u8]) -> bool {
        self.conn.send_datagram(Bytes::copy_from_slice(bytes)).is_ok()
    }

    /// Sends a well-formed command datagram.
    pub fn send_cmds(&mut self, packet: &CmdPacket) -> bool {
        self.seq = self.seq.wrapping_add(1);
        let mut w = Writer::with_capacity(256);
        write_header(&mut w, DatagramKind::Commands, self.seq);
        packet.encode(&mut w);
        self.send_datagram(w.as_slice())
    }

    /// Reads the control stream for up to `wait` and returns the frames
    /// that arrived (stops early once at least one frame is in).
    pub fn read_frames(&mut self, wait: Duration) -> Result<Vec<ServerFrame>, RawError> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut out = Vec::new();
        loop {
            while let Some(payload) = self.frames.next_frame().map_err(|e| RawError::BadFrame(e.to_string()))? {
                out.push(ServerFrame::decode(&payload).map_err(|e| RawError::BadFrame(e.to_string()))?);
            }
            if !out.is_empty() {
                return Ok(out);
            }
            let recv = &mut self.recv;
            let chunk = self.runtime.block_on(async { tokio::time::timeout_at(deadline, recv.read_chunk(64 * 1024, true)).await });
            match chunk {
                Ok(Ok(Some(c))) => self.frames.push(&c.bytes),
                Ok(Ok(None)) | Ok(Err(_)) => {
                    return match self.close_reason() {
                        Some(r) if out.is_empty() => Err(RawError::Closed(r)),
                        _ => Ok(out),
                    };
                }
                Err(_) => return Ok(out),
            }
        }
    }

    /// Takes every datagram that has arrived; returns how many.
    pub fn drain_datagrams(&mut self) -> usize {
        let conn = &self.conn;
        self.runtime.block_on(async {
            let mut n = 0;
            while let Ok(Ok(_)) = tokio::time::timeout(Duration::ZERO, conn.read_datagram()).await {
                n += 1;
            }
            n
        })
    }

    /// Waits up to `wait` for the connection to end; returns why it ended.
    pub fn wait_closed(&self, wait: Duration) -> Option<DisconnectReason> {
        let conn = &self.conn;
        self.runtime.block_on(async { tokio::time::timeout(wait, conn.closed()).await }).ok().map(|e| reason_of(&e))
    }

    /// Why the connection ended, if it has.
    pub fn close_reason(&self) -> Option<DisconnectReason> {
        self.conn.close_reason().map(|e| reason_of(&e))
    }

    /// Closes the connection at once (no goodbye on the control stream).
    pub fn close(&self) {
        self.conn.close(0u32.into(), b"");
    }
}
