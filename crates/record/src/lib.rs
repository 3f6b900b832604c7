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
//! | `frame.rs` | the file layout: magic, version, frames (kind, length, zstd of postcard), trailer |
//! | `writer.rs` | [`RecordWriter`]: chunks encoded and written on a thread of their own, the file finalised atomically |
//! | `reader.rs` | [`Recording`]: reading a file back, a truncated one (a crash) up to its last whole chunk |
//!
//! The layout, in order: the 8-byte magic `QRYDEMO\0`, the format version
//! (u32, little-endian), a header frame, chunk frames, and on a clean end
//! an index frame, a footer frame and the trailer (`QRYEND\0\0` and the
//! index frame's offset, u64). A frame is its kind (one byte), its length
//! (u32) and that many bytes: the zstd-compressed postcard encoding of
//! its payload.

mod cmds;
mod frame;
mod model;
mod reader;
mod writer;

pub use frame::{FORMAT_VERSION, MAGIC, MAX_FRAME_BYTES, MAX_PAYLOAD_BYTES, TRAILER_MAGIC};
pub use model::{Chunk, ClientInfo, Footer, HashCheck, Header, IndexEntry, JournalEntry, StartSlot, TickRecord};
pub use reader::{MAX_FILE_BYTES, Recording, RecordingBytes, read};
pub use writer::{CHUNK_TICKS, RecordWriter};

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
