//! Match recordings. The simulation is deterministic (same seed and inputs,
//! same state hash every tick), so a recording keeps only what goes into
//! it: a [`Header`] (format and sim versions, seed, tick rate, the map and
//! config text, the settings), then per tick the [`JournalEntry`]s (joins,
//! leaves, team changes, settings changes) and the command each slot's
//! input queue gave the sim, with a state hash every few ticks.
//!
//! | file | what |
//! |---|---|
//! | `model.rs` | the recorded types |
//! | `cmds.rs` | a chunk's commands coded compactly: predicted angles, changed fields only, in columns |
//! | `bounded.rs` | lists read with a most-allowed length (a count in a file is only a claim) |
//! | `frame.rs` | the file layout: magic, version, frames (kind, length, zstd of postcard), trailer |
//! | `writer.rs` | [`RecordWriter`]: chunks encoded and written on a thread of their own, the file finalised atomically |
//! | `reader.rs` | [`Recording`]: reading a file back (every chunk checked against the limits below, then decoded again a chunk at a time as it is played), a truncated one (a crash) up to its last whole chunk |
//!
//! The layout, in order: the 8-byte magic `QRYDEMO\0`, the format version
//! (u32, little-endian), a header frame, chunk frames, and on a clean end
//! an index frame, a footer frame and the trailer (`QRYEND\0\0` and the
//! index frame's offset, u64). A frame is its kind (one byte), its length
//! (u32) and that many bytes: the zstd-compressed postcard encoding of
//! its payload.

mod bounded;
mod cmds;
mod frame;
mod model;
mod reader;
mod writer;

pub use frame::{FORMAT_VERSION, MAGIC, MAX_CHUNK_PAYLOAD_BYTES, MAX_FRAME_BYTES, MAX_PAYLOAD_BYTES, TRAILER_MAGIC};
pub use model::{Chunk, ClientInfo, Footer, HashCheck, Header, IndexEntry, JournalEntry, StartSlot, TickRecord};
pub use reader::{ChunkSpan, MAX_FILE_BYTES, Recording, RecordingBytes, Ticks, read};
pub use writer::{CHUNK_TICKS, RecordWriter};

/// The most ticks one chunk may hold (the writer makes them
/// [`CHUNK_TICKS`] long).
pub const MAX_CHUNK_TICKS: usize = 1024;
/// The most chunks a recording may hold.
pub const MAX_CHUNKS: usize = 1 << 20;
/// The most hours of play a recording may hold, at its tick rate.
pub const MAX_HOURS: u64 = 24;
/// The highest tick rate a recording may have (`sv_fps`'s).
pub const MAX_HZ: u32 = 1000;
/// The longest a recording may go without a state hash, ticks.
pub const MAX_HASH_EVERY: u32 = 3600;
/// The most journal entries one tick may hold.
pub const MAX_JOURNAL_ENTRIES: usize = 1024;
/// The most steps a stored state hash may name.
pub const MAX_HASH_STEPS: usize = 64;
/// The most cvars a header may hold.
pub const MAX_HEADER_CVARS: usize = 4096;
/// The most config files (or content hashes) a header may hold.
pub const MAX_HEADER_FILES: usize = 64;
/// The most clients a header may start a match with.
pub const MAX_SLOTS: usize = 256;

/// Why a recording could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be opened, written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a recording.
    #[error("{path}: not a Quarry recording (no QRYDEMO magic)")]
    NotARecording {
        /// The file.
        path: String,
    },
    /// Recorded in a format this build cannot read.
    #[error("{path}: recording format {found}; this build reads format {supported}")]
    Version {
        /// The file.
        path: String,
        /// The file's format.
        found: u32,
        /// This build's.
        supported: u32,
    },
    /// A frame is damaged.
    #[error("{path}: frame at byte {offset}: {reason}")]
    Corrupt {
        /// The file.
        path: String,
        /// Where the frame starts.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
    /// The writer thread stopped (a write failed, or it fell behind).
    #[error("{path}: the recording stopped: {reason}")]
    Stopped {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
}
