//! Things the server told the client besides snapshots, in arrival order.

use quarry_net::handshake::Welcome;
use quarry_net::reliable::{ChatScope, DisconnectReason, ModeUpdate, Scoreboard};

/// One chat line as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    /// Sender slot; `None` for the server console.
    pub from: Option<u8>,
    /// Sender name as shown.
    pub name: String,
    /// Who it was for (all, team, one slot).
    pub scope: ChatScope,
    /// The text.
    pub text: String,
}

impl std::fmt::Display for ChatLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tag = match self.scope {
            ChatScope::All => "",
            ChatScope::Team => "(team) ",
            ChatScope::Private(_) => "(private) ",
        };
        write!(f, "{tag}{}: {}", self.name, self.text)
    }
}

/// Something that happened on the connection, for the client to show.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// The server let us in.
    Welcomed(Welcome),
    /// A chat line.
    Chat(ChatLine),
    /// A server print (join/leave notices, obituaries, votes).
    Print(String),
    /// A scoreboard.
    Scoreboard(Scoreboard),
    /// The objective state changed (flags, round, frozen players).
    Mode {
        /// The new state (also kept as [`Client::mode`](crate::Client::mode)).
        update: ModeUpdate,
        /// What changed since the last one, in words (may be empty: a
        /// score or thaw progress changed).
        changes: Vec<String>,
    },
    /// The server moved to another map; the client already answered that it
    /// loaded it.
    MapChange {
        /// The new map.
        map: String,
    },
    /// One config string changed.
    ConfigString {
        /// Index.
        index: u16,
        /// New value.
        value: String,
    },
    /// Admin console output.
    Console(String),
    /// The connection is over, and why. Always the last notice.
    Disconnected(DisconnectReason),
}
