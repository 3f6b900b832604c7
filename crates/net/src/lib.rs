//! Quarry networking: the wire protocol and its thin QUIC transport.
//!
//! What it is:
//!
//! - **The protocol, sans-IO** (like quinn-proto under quinn): plain encode
//!   and decode functions for every message ([`usercmd`], [`snapshot`] +
//!   [`delta`], [`fragment`], [`handshake`], [`reliable`], the map
//!   transfer's hash, chunks and reassembly in [`map_transfer`]) over a
//!   bounds-checked [`codec`], and per-connection state machines
//!   ([`conn::ServerConn`], [`conn::ClientConn`]) that take bytes and `now`
//!   and return bytes and events: handshake, Quake 3 style delta snapshots
//!   against the last acknowledged one, redundant user commands, a byte-rate
//!   cap, loss measurement, and a policy for clients that send garbage.
//! - **The out-of-band datagrams** ([`oob`]): what server browsers, masters
//!   and monitors send the game port outside QUIC (Quake 3 `getinfo` and
//!   `getstatus`, Source A2S), answered sans-IO under per-address and
//!   global rate limits, and the heartbeats to masters.
//! - **The transport** ([`transport`]): quinn on a small tokio runtime, with a
//!   server endpoint the synchronous tick thread polls once per tick and a
//!   client endpoint with the mirror API. Certificates and pinning are in
//!   [`cert`].
//!
//! Channels: one bidirectional QUIC stream per connection carries the
//! handshake and every reliable message, in order; user commands (client to
//! server) and snapshots (server to client) are QUIC datagrams.
//!
//! What it must not do: know about the ECS or the simulation (the server
//! converts its world to [`snapshot::Snapshot`]s; a user command is the
//! movement core's [`usercmd::UserCmd`], which client, wire and simulation
//! share), decide who may play (passwords, bans, slots are the
//! server's), touch sockets, clocks or threads outside [`transport`], or panic
//! on anything a peer sends: every decoder returns a [`codec::DecodeError`]
//! and bad input costs the sender its packet or its connection, never the
//! server.

pub mod cert;
pub mod codec;
pub mod conn;
pub mod datagram;
pub mod delta;
pub mod event;
pub mod fragment;
pub mod handshake;
pub mod lockout;
pub mod map_transfer;
pub mod oob;
pub mod reliable;
pub mod service;
pub mod snapshot;
pub mod transport;
pub mod usercmd;

#[cfg(test)]
mod tests;
