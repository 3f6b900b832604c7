//! Scripted bot brains: a brain written in a script (Rhai,
//! `botfiles/brains/NAME.rhai`) that plays by a human's rules. It reads
//! only what the bot may know (its own player, the enemies it perceives or
//! remembers, teammates, the owner it serves, items and flags as a player
//! knows them, the clock) and the navmesh through bounded queries, and it
//! acts only by the command it builds, which goes into the same input
//! queue as every player's.
//!
//! | file | what |
//! |---|---|
//! | `host.rs` | [`HostState`]: what a call reads and writes, engine-neutral |
//! | `engine.rs` | [`ScriptEngine`], [`Program`], [`Instance`]: the seam to the engine |
//! | `rhai/` | the Rhai engine: sandbox, limits, the API's bindings |
//! | `library.rs` | [`ScriptLibrary`]: brains loaded from disk, last good versions, `botreload` |
//! | `brain.rs` | [`ScriptedBrain`]: the [`Brain`](crate::brain::Brain) that runs a script, its perception, its fallback |
//! | `snapshot.rs` | filling the host state from the bot's view and senses |

mod brain;
mod engine;
mod host;
mod library;
pub mod rhai;
mod snapshot;

pub use brain::{MAX_FAILURES, MAX_PENDING_EVENTS, ScriptedBrain, WARN_EVERY_MS};
pub use engine::{Entry, Instance, Program, ScriptEngine, SharedHost, Source};
pub use host::{HostState, MAX_LOG_LINES, Quotas, ScriptChat, ScriptCommand, ScriptEvent, ScriptFlag, ScriptItem, ScriptOrder, ScriptPlayer, ScriptTeleporter, Waypoint};
pub use library::{BRAINS_DIR, CallStats, LIB_DIR, LoadReport, MAX_BRAIN_FILES, MAX_SCRIPT_BYTES, ScriptLibrary, Scripts};

/// `bot_scriptRate`'s default: script calls per second.
pub const DEFAULT_SCRIPT_RATE: u32 = 10;
/// `bot_scriptMaxOps`'s default: operations one call may run.
pub const DEFAULT_MAX_OPS: u64 = 20_000;

/// Why a script did not load or a call failed: file, line and column
/// where known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The source does not parse.
    #[error("{file}:{line}:{column}: {message}")]
    Compile {
        /// The file.
        file: String,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A call failed.
    #[error("{file}:{line}:{column}: {message}")]
    Runtime {
        /// The file (a library's when the error is in one of its functions).
        file: String,
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What went wrong.
        message: String,
    },
    /// A call ran out of operations.
    #[error("{file}: {function}() stopped after {ops} operations (bot_scriptMaxOps)")]
    Budget {
        /// The file.
        file: String,
        /// The function running when it was stopped (the innermost call).
        function: String,
        /// The budget.
        ops: u64,
    },
    /// A required entry point is missing.
    #[error("{file}: no {entry} function (every brain needs one)")]
    MissingEntry {
        /// The file.
        file: String,
        /// The entry.
        entry: &'static str,
    },
    /// The file could not be read or is too large.
    #[error("{file}: {message}")]
    File {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
    /// The engine refused (a program from another engine).
    #[error("{file}: {message}")]
    Engine {
        /// The file.
        file: String,
        /// Why.
        message: String,
    },
}
