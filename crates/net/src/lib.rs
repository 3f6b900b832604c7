//! Quarry networking: the wire protocol and its thin QUIC transport.
//!
//! Work in progress.

pub mod cert;
pub mod codec;
pub mod conn;
pub mod datagram;
pub mod delta;
pub mod fragment;
pub mod handshake;
pub mod reliable;
pub mod snapshot;
pub mod transport;
pub mod usercmd;

#[cfg(test)]
mod tests;
