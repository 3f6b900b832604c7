//! Quarry networking: the wire protocol and its thin QUIC transport.
//!
//! Work in progress.

pub mod codec;
pub mod delta;
pub mod snapshot;
pub mod usercmd;

#[cfg(test)]
mod tests;
