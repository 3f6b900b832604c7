//! Recording matches (the format is `quarry-record`'s); playing one back
//! is a mode of the binary (`crate::modes::replay`).
//!
//! | file | what |
//! |---|---|
//! | `recorder.rs` | [`Recorder`]: after each tick, the journal (joins, leaves, chosen team changes, cvar changes) and the command each slot's queue gave the sim, with a state hash every [`HASH_EVERY`] ticks |
//! | `live.rs` | [`Demos`]: `sv_record`, every match of a server recorded into `sv_recordDir`, with a size cap and a count limit |
//! | `summary.rs` | the replay's summary against the recorded one: play figures equal, the recorded bot report kept |

use std::path::Path;

mod live;
mod recorder;
pub mod summary;

pub use live::{Demos, EXTENSION};
pub use recorder::{CONFIG_FILES, HASH_EVERY, MatchSource, Recorder, recorded};

/// The sim's version a recording names: a recording by another is refused
/// unless forced (the same inputs could play differently).
pub const SIM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// FNV-1a of `bytes`, for content hashes in the header.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Every file under `dir` (names and contents, in name order, at most
/// 64 MiB in all), for a content hash.
pub(crate) fn folder_bytes(dir: &Path) -> Vec<u8> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        if out.len() > 64 * 1024 * 1024 {
            break;
        }
        out.extend_from_slice(f.strip_prefix(dir).unwrap_or(&f).to_string_lossy().as_bytes());
        if let Ok(bytes) = std::fs::read(&f) {
            out.extend_from_slice(&bytes);
        }
    }
    out
}
