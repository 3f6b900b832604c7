//! Out-of-band datagrams: what server browsers, masters and monitors send
//! to the game port outside QUIC, all beginning with four `0xFF` bytes
//! ([`PREFIX`]): Quake 3's `getinfo`/`getstatus` ([`q3`]), Source's A2S
//! queries ([`a2s`]), and the heartbeats the server sends masters.
//!
//! The transport splits them from QUIC on the one socket (a QUIC packet
//! could begin with `FF`, but as a long header of an unknown version that
//! quinn would drop, so nothing of QUIC is lost) and hands them to the
//! [`OobHandler`], sans-IO like the rest of the protocol. The answers are
//! public: what a server browser lists (name, map, game type, humans and
//! bots apart, slots, the certificate fingerprint to pin); what must not
//! be public stays on the authenticated QUIC services.
//!
//! What it must not become is an amplifier: a request is a few bytes from
//! an address nobody checked, so every answer passes a per-address rate
//! and a global byte budget ([`limit`]), the state is a fixed table (a
//! spoofed source allocates nothing), and the larger A2S answers go only
//! to an address that echoed a challenge ([`challenge`]). `getstatus`
//! cannot take a round trip (every Quake 3 tool sends it bare), so it is
//! held by the same budgets.

pub mod a2s;
pub mod challenge;
mod handler;
mod info;
pub mod limit;
pub mod q3;

pub use handler::{OobHandler, OobStats};
pub use info::{GAME_NAME, MAX_LISTED_PLAYERS, Occupancy, OobInfo, OobPlayer, Published};
pub use limit::{Limited, OobLimits};

/// What every out-of-band datagram begins with.
pub const PREFIX: [u8; 4] = [0xFF; 4];

/// The longest request answered: the longest real one (`getinfo` with a
/// 64-character challenge) with room to spare; longer is dropped unread.
pub const MAX_REQUEST: usize = 256;

/// The longest answer: one datagram on any path (A2S's own limit).
pub const MAX_ANSWER: usize = 1400;

/// Whether `datagram` is out-of-band (begins with [`PREFIX`]).
pub fn is_oob(datagram: &[u8]) -> bool {
    datagram.starts_with(&PREFIX)
}

/// Why an out-of-band datagram got no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OobError {
    /// It does not begin with [`PREFIX`].
    #[error("no out-of-band prefix")]
    NoPrefix,
    /// It is longer than any request.
    #[error("longer than any request")]
    Oversized,
    /// A Quake 3 command that is not text.
    #[error("not text")]
    NotText,
    /// A challenge with characters a challenge may not have, or too long.
    #[error("bad challenge")]
    BadChallenge,
    /// Cut short or out of shape.
    #[error("malformed: {0}")]
    Malformed(&'static str),
    /// A request the server does not answer.
    #[error("unknown request")]
    Unknown,
    /// A source no answer may go to, or an A2S request without its challenge.
    #[error("refused")]
    Refused,
    /// Over a rate limit.
    #[error("rate limited")]
    Limited(Limited),
}
