//! What a recording holds.

use quarry_sim::UserCmd;
use serde::{Deserialize, Serialize};

/// Everything needed to build the match again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The sim's version (a replay by another is refused unless forced).
    pub sim_version: String,
    /// The build that recorded it (for people; not checked).
    pub build_id: String,
    /// The match seed.
    pub seed: u64,
    /// Ticks per second.
    pub hz: u32,
    /// Client slots.
    pub slots: u32,
    /// The map's name as loaded (`q_dm1`).
    pub map_name: String,
    /// FNV-1a of the map's text.
    pub map_hash: u64,
    /// The map's text (`None` when recorded by hash only).
    pub map_text: Option<String>,
    /// Config files the match was built from: name and text
    /// (`items.toml`, `weapons.toml`, `sounds.toml`).
    pub config: Vec<(String, String)>,
    /// Content hashes of what shaped play but is not replayed (botfiles,
    /// brains): name and FNV-1a.
    pub content: Vec<(String, u64)>,
    /// The cvars at the start: name and value.
    pub cvars: Vec<(String, String)>,
    /// A state hash is stored every this many ticks.
    pub hash_every: u32,
}

/// A change to the match other than a command, in the order it happened
/// before the tick it is recorded with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum JournalEntry {
    /// A client entered the game in `slot`.
    Join {
        /// Its slot.
        slot: u8,
        /// Its name.
        name: String,
        /// A remote client's one-way latency (ms), which rewinds others for
        /// its hitscan shots; `None` for a bot (the sim reads nothing else
        /// of the difference; the scoreboard shows it).
        latency_ms: Option<u32>,
        /// Player model.
        model: String,
        /// The team it asked for, if any.
        team_pref: Option<String>,
        /// Handicap.
        handicap: u32,
    },
    /// A client left.
    Leave {
        /// Its slot.
        slot: u8,
    },
    /// A client changed team.
    Team {
        /// Its slot.
        slot: u8,
        /// The new team's name.
        team: String,
    },
    /// A remote client's measured latency changed.
    Latency {
        /// Its slot.
        slot: u8,
        /// One-way delay, ms.
        ms: u32,
    },
    /// A cvar changed.
    Cvar {
        /// Its name.
        name: String,
        /// The new value.
        value: String,
    },
}

/// A stored state hash, with the running hash after each step that feeds
/// it (players, weapons, items, movers...): a mismatch names the first
/// step that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashCheck {
    /// The tick's final state hash.
    pub value: u64,
    /// Each hash step's name and the running hash after it.
    pub steps: Vec<(String, u64)>,
}

/// One tick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TickRecord {
    /// The match tick this record leads to (the tick after the step).
    pub tick: u32,
    /// Changes before the step, in order.
    pub journal: Vec<JournalEntry>,
    /// The command each in-game slot's queue gave the sim this tick.
    pub cmds: Vec<(u8, UserCmd)>,
    /// The state hash after the step, every `hash_every` ticks.
    pub hash: Option<HashCheck>,
}

/// Consecutive ticks, written as one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    /// The ticks, in order.
    pub ticks: Vec<TickRecord>,
}

/// Where a chunk is, for seeking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexEntry {
    /// Its first tick.
    pub first_tick: u32,
    /// Its last tick.
    pub last_tick: u32,
    /// The frame's offset in the file.
    pub offset: u64,
}

/// The end of a cleanly finished recording.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Footer {
    /// Ticks recorded.
    pub ticks: u32,
    /// The state hash after the last tick.
    pub final_hash: u64,
    /// The match's summary as the server printed it (a replay prints its own
    /// and compares).
    pub summary: String,
}
