//! Reliable messages and the control-stream frames that carry them.
//!
//! Design decision: **one ordered stream per connection**, the bidirectional
//! control stream the handshake opened, carries every reliable message in
//! both directions, each as one length-prefixed frame ([`crate::codec`]).
//! Reliable traffic is small and rare (chat, prints, scoreboards, map
//! changes) and its order matters: a map change must reach the client before
//! chat from the new map, a kick reason must come last, a scoreboard must not
//! be overtaken by an older one. One ordered stream gives that for free; a
//! uni stream per message would need sequence numbers and reordering on top.
//! The head-of-line blocking it risks does not touch gameplay, because
//! snapshots and commands travel in datagrams, and quinn's stream limits
//! (100 concurrent streams) never come into play.
//!
//! Each frame payload starts with a one-byte tag: handshake tags below 16,
//! message tags from 16 up.
//!
//! A map transfer ([`crate::map_transfer`]) rides the same stream: its
//! chunks are small (16 KiB) and the server paces them per client, so chat
//! and prints wait behind at most a few of them.

use crate::codec::{DecodeError, Reader, Writer};
use crate::map_transfer::{MapChunk, MapHash};
pub use crate::map_transfer::MapRefusal;
use crate::handshake::{Hello, MAX_SHORT_TEXT, RejectReason, Welcome, read_config_strings, read_pairs, write_config_strings, write_pairs};

/// Longest chat line, bytes.
pub const MAX_CHAT_LEN: usize = 512;
/// Longest print, console line or command, bytes.
pub const MAX_TEXT_LEN: usize = 16 * 1024;
/// Most scoreboard rows.
pub const MAX_SCORE_ROWS: usize = 256;

/// Who a chat line is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatScope {
    /// Everyone.
    All,
    /// The sender's team.
    Team,
    /// One slot.
    Private(u8),
}

/// Why a connection ended; carried in the last reliable message and in the
/// QUIC close frame.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DisconnectReason {
    /// The client left on purpose.
    #[error("left the game")]
    Quit,
    /// Nothing arrived within the idle timeout.
    #[error("timed out")]
    Timeout,
    /// Kicked by an admin.
    #[error("kicked: {0}")]
    Kicked(String),
    /// The handshake was refused.
    #[error("rejected: {0}")]
    Rejected(RejectReason),
    /// The server is going down.
    #[error("server shutting down")]
    ServerShuttingDown,
    /// The peer sent garbage or broke the protocol.
    #[error("protocol violation: {0}")]
    Misbehaving(String),
    /// The transport failed (reset, unreachable, local error).
    #[error("connection lost: {0}")]
    ConnectionLost(String),
}

/// One scoreboard line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreRow {
    /// Slot.
    pub slot: u8,
    /// Name.
    pub name: String,
    /// Team number.
    pub team: u8,
    /// Whether a bot holds the slot.
    pub bot: bool,
    /// Score (frags or points).
    pub score: i32,
    /// Deaths.
    pub deaths: i32,
    /// Ping in milliseconds (0 for bots).
    pub ping_ms: u16,
}

/// The scoreboard, sent on request or at intermission.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoreboard {
    /// Game type name.
    pub gametype: String,
    /// Match phase name (warmup, playing, intermission, …).
    pub phase: String,
    /// Red and blue team scores, in team games.
    pub team_scores: Option<(i32, i32)>,
    /// Rows, in display order.
    pub rows: Vec<ScoreRow>,
}

/// A reliable server-to-client message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerMessage {
    /// A chat line.
    Chat {
        /// Sender slot; `None` for the server console.
        from: Option<u8>,
        /// Sender name as shown.
        name: String,
        /// Who it was for.
        scope: ChatScope,
        /// The text.
        text: String,
    },
    /// A server print (join/leave notices, obituaries, votes).
    Print(String),
    /// The scoreboard.
    Scoreboard(Scoreboard),
    /// Load another map and re-enter without reconnecting (answer with
    /// [`ClientMessage::MapLoaded`]). Snapshots may go on meanwhile: server
    /// ticks keep increasing across maps, so deltas stay valid; the server
    /// may call `reset_baseline` to make the new map's first snapshot full.
    MapChange {
        /// The new map.
        map: String,
        /// The new map's config strings.
        config_strings: Vec<(u16, String)>,
    },
    /// One config string changed.
    ConfigString {
        /// Index.
        index: u16,
        /// New value.
        value: String,
    },
    /// Console output for an authenticated admin.
    ConsoleOutput(String),
    /// The objective state of the game type (flags, bases, frozen players,
    /// round, team scores), sent whenever it changes.
    Mode(ModeUpdate),
    /// The server is closing the connection, and why.
    Disconnect(DisconnectReason),
    /// A piece of the map the client asked for with
    /// [`ClientMessage::MapRequest`] (see [`crate::map_transfer`]).
    MapChunk(MapChunk),
    /// The server will not send the map asked for, and why.
    MapRefused {
        /// The hash the client asked for.
        hash: MapHash,
        /// Why not.
        reason: MapRefusal,
    },
}

/// A reliable client-to-server message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientMessage {
    /// Say something.
    Chat {
        /// Who it is for.
        scope: ChatScope,
        /// The text.
        text: String,
    },
    /// A console command line (client commands, admin commands once authenticated).
    Command(String),
    /// Userinfo changed (`name`, `rate`, …).
    UserInfo(Vec<(String, String)>),
    /// The client loaded `map` after a map change and is ready for snapshots.
    MapLoaded(String),
    /// Send me the map file with this hash (the one in
    /// [`CS_MAP`](crate::handshake::CS_MAP)), compressed, from `offset` in
    /// its compressed copy (0 for all of it). Answered with
    /// [`ServerMessage::MapChunk`]s or a [`ServerMessage::MapRefused`].
    MapRequest {
        /// The map's content hash.
        hash: MapHash,
        /// Where to start in the compressed copy.
        offset: u64,
    },
    /// The client is leaving.
    Quit,
}

/// Everything a client writes on the control stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientFrame {
    /// The first frame.
    Hello(Hello),
    /// Every later frame.
    Message(ClientMessage),
}

/// Everything a server writes on the control stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerFrame {
    /// The client is in.
    Welcome(Welcome),
    /// The client is refused; the server closes next.
    Reject(RejectReason),
    /// Every later frame.
    Message(ServerMessage),
}

mod mode;
mod wire;
pub use mode::{MAX_MODE_BASES, MAX_MODE_FLAGS, MAX_MODE_PLAYERS, ModeUpdate, PlayerObjective, THAW_STEPS, WireFlag, WireFlagStatus, WireFrozen, WireRound};
pub use wire::{disconnect_from_close, disconnect_to_close};
