//! What a recording holds.

use quarry_movement::UserCmd;
use serde::{Deserialize, Serialize};

use crate::cmds::CmdColumns;

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
    #[serde(deserialize_with = "crate::bounded::files")]
    pub config: Vec<(String, String)>,
    /// Content hashes of what shaped play but is not replayed (botfiles,
    /// brains): name and FNV-1a.
    #[serde(deserialize_with = "crate::bounded::files")]
    pub content: Vec<(String, u64)>,
    /// The cvars that shape play, at the start: name and value. A
    /// recorder stores no secret (a password) here.
    #[serde(deserialize_with = "crate::bounded::cvars")]
    pub cvars: Vec<(String, String)>,
    /// Whether the match ran headless (`--fast`), which plays with no
    /// warmup and no intermission whatever the cvars say.
    pub headless: bool,
    /// A state hash is stored every this many ticks.
    pub hash_every: u32,
    /// The clients the match started with (carried over from the last
    /// match on a live server), in slot order.
    #[serde(deserialize_with = "crate::bounded::slots")]
    pub start_slots: Vec<StartSlot>,
}

/// A client a match started with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartSlot {
    /// Its slot.
    pub slot: u8,
    /// Who it is.
    pub client: ClientInfo,
    /// Whether it was in the game (or still loading).
    pub in_game: bool,
    /// Its team's name (the match places in-game clients again).
    pub team: String,
}

/// Who a client is, as the sim sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientInfo {
    /// Its name.
    pub name: String,
    /// A remote client's one-way latency (ms), which rewinds others for its
    /// hitscan shots; `None` for a bot (the sim reads nothing else of the
    /// difference; the scoreboard shows it).
    pub latency_ms: Option<u32>,
    /// Player model.
    pub model: String,
    /// The team it asked for, if any.
    pub team_pref: Option<String>,
    /// Handicap.
    pub handicap: u32,
    /// The tick it connected (the duel's queue is by arrival).
    pub joined_tick: u32,
}

/// A change to the match other than a command, in the order it happened
/// before the tick it is recorded with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum JournalEntry {
    /// A client entered the game in `slot`.
    Join {
        /// Its slot.
        slot: u8,
        /// Who it is.
        client: ClientInfo,
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
    /// A cvar that shapes play changed (a recorder journals no secret).
    Cvar {
        /// Its name.
        name: String,
        /// The new value.
        value: String,
    },
    /// A client was attached to another (the team balance keeps the two
    /// together), or let go (`to` is `None`). Written after the entries
    /// above it in the enum, so recordings made before it still read.
    Attach {
        /// Its slot.
        slot: u8,
        /// The slot it keeps with.
        to: Option<u8>,
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
    #[serde(deserialize_with = "crate::bounded::hash_steps")]
    pub steps: Vec<(String, u64)>,
}

/// One tick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TickRecord {
    /// The match tick this record leads to (the tick after the step).
    pub tick: u32,
    /// Changes before the step, in order.
    pub journal: Vec<JournalEntry>,
    /// The command each in-game slot's queue gave the sim this tick, slots
    /// ascending (sanitised, as the sim ran it).
    pub cmds: Vec<(u8, UserCmd)>,
    /// The state hash after the step, every `hash_every` ticks.
    pub hash: Option<HashCheck>,
}

/// Consecutive ticks, written as one frame. On disk the commands are
/// coded compactly (see `cmds.rs`), which needs them as the sim ran them:
/// sanitised (angles in whole units), slots ascending, ticks increasing.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// The ticks, in order.
    pub ticks: Vec<TickRecord>,
}

/// A chunk as written: each tick's journal and hash, then the commands of
/// all its ticks in columns.
#[derive(Serialize, Deserialize)]
struct ChunkWire {
    /// The first record's tick.
    first_tick: u32,
    /// Per record: ticks skipped since the previous record, its journal
    /// and its hash.
    #[serde(deserialize_with = "chunk_ticks")]
    ticks: Vec<WireTick>,
    /// Every record's commands.
    cmds: CmdColumns,
}

/// One record of a [`ChunkWire`] less its commands: ticks skipped since the
/// previous record, its journal, its hash.
#[derive(Serialize, Deserialize)]
struct WireTick(u32, #[serde(deserialize_with = "crate::bounded::journal")] Vec<JournalEntry>, Option<HashCheck>);

/// A chunk's records: at most [`crate::MAX_CHUNK_TICKS`].
fn chunk_ticks<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<WireTick>, D::Error> {
    crate::bounded::read_at_most::<D, WireTick, { crate::MAX_CHUNK_TICKS }>(d, "ticks in one chunk")
}

impl Serialize for Chunk {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let first_tick = self.ticks.first().map_or(0, |t| t.tick);
        let mut prev: Option<u32> = None;
        let mut ticks = Vec::with_capacity(self.ticks.len());
        for t in &self.ticks {
            let gap = match prev {
                None => 0,
                Some(p) => t.tick.checked_sub(p).and_then(|d| d.checked_sub(1)).ok_or_else(|| serde::ser::Error::custom(format!("tick {} after tick {p}: ticks must increase", t.tick)))?,
            };
            prev = Some(t.tick);
            ticks.push(WireTick(gap, t.journal.clone(), t.hash.clone()));
        }
        let cmds = CmdColumns::encode(self.ticks.iter().map(|t| (t.tick, t.cmds.as_slice()))).map_err(serde::ser::Error::custom)?;
        ChunkWire { first_tick, ticks, cmds }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Chunk {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = ChunkWire::deserialize(deserializer)?;
        let mut numbers = Vec::with_capacity(wire.ticks.len());
        let mut next = Some(wire.first_tick);
        for WireTick(gap, ..) in &wire.ticks {
            let tick = next.and_then(|n| n.checked_add(*gap)).ok_or_else(|| serde::de::Error::custom(format!("a tick gap of {gap} overflows")))?;
            numbers.push(tick);
            next = tick.checked_add(1);
        }
        let cmds = wire.cmds.decode(numbers.iter().copied()).map_err(serde::de::Error::custom)?;
        let ticks = wire
            .ticks
            .into_iter()
            .zip(numbers)
            .zip(cmds)
            .map(|((WireTick(_, journal, hash), tick), cmds)| TickRecord { tick, journal, cmds, hash })
            .collect();
        Ok(Self { ticks })
    }
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
    /// The match's summary as the server printed it with `--json` (a replay
    /// prints its own and compares them).
    pub summary: String,
    /// The bot report's text, as the summary printed it (a replay runs no
    /// bot brains, so it prints this one); empty without bots.
    pub bot_report: String,
}
