//! Recording a match and replaying it (the format is `quarry-record`'s).
//!
//! | file | what |
//! |---|---|
//! | `recorder.rs` | [`Recorder`]: after each tick, the journal (joins, leaves, chosen team changes, cvar changes) and the command each slot's queue gave the sim, with a state hash every [`HASH_EVERY`] ticks |
//! | `replay.rs` | [`replay`]: the match built again from the header, the journal applied and the commands pushed before each tick, every stored hash checked |
//! | `summary.rs` | the replay's summary against the recorded one: play figures equal, the recorded bot report kept |

mod recorder;
mod replay;
pub mod summary;

pub use recorder::{HASH_EVERY, Recorder};
pub use replay::{ReplayError, ReplayOptions, replay};

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
