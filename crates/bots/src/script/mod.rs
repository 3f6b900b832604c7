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
//! | `clock.rs` | [`CallTimer`]: a call's time limit, on the thread's CPU clock, navmesh queries off it |
//! | `log.rs` | [`LogLimiter`]: a bot's `log()` lines cut and rate-limited |
//!
//! A call is bounded three ways: its operations (`bot_scriptMaxOps`), its
//! time ([`DEFAULT_MAX_CALL_MS`], `bot_scriptMaxMs`: an operation may copy
//! a whole array, so operations alone do not bound time), and the time all
//! scripts may take in one tick ([`DEFAULT_TICK_MS`], `bot_scriptTickMs`):
//! once that is spent, the calls still due that tick wait for the next.

mod brain;
mod clock;
mod engine;
mod host;
mod library;
mod log;
pub mod rhai;
mod snapshot;

pub use brain::{HEALTH_WINDOW, MAX_FAILURES, MAX_PENDING_EVENTS, ScriptHealth, ScriptedBrain, WARN_EVERY_MS};
pub use clock::{CallTimer, last_charged, over_time, thread_cpu, timed, uncharged};
pub use engine::{Entry, Instance, Program, ScriptEngine, SharedHost, Source};
pub use host::{HostState, MAX_LOG_CHARS, MAX_LOG_LINES, Quotas, ScriptChat, ScriptCommand, ScriptEvent, ScriptFlag, ScriptItem, ScriptOrder, ScriptPlayer, ScriptTeleporter, Waypoint};
pub use library::{BRAINS_DIR, CallStats, LIB_DIR, LoadReport, MAX_BRAIN_FILES, MAX_SCRIPT_BYTES, ScriptLibrary, Scripts};
pub use log::{LOG_BURST, LOG_PER_SECOND, LogLimiter, clean_line};

/// `bot_scriptRate`'s default: script calls per second.
pub const DEFAULT_SCRIPT_RATE: u32 = 10;
/// `bot_scriptMaxOps`'s default: operations one call may run.
pub const DEFAULT_MAX_OPS: u64 = 20_000;
/// `bot_scriptMaxMs`'s default: the CPU time one call may take, ms, its
/// navmesh queries left out. The shipped brains' calls take 0.01 to
/// 0.03 ms on average and 0.2 ms at the slowest (the `bot_think` bench's
/// scripted table), so no sound brain comes near it.
pub const DEFAULT_MAX_CALL_MS: f32 = 2.0;
/// `bot_scriptTickMs`'s default: the CPU time all scripted bots' calls
/// may take in one tick, navmesh queries included, ms; a call due once it
/// is spent waits for the next tick. 64 companion bots at
/// `bot_scriptRate` 60 (each calls every tick) take 1.2 ms a tick on
/// average and 2 ms at the most; at the default rate 0.3 and 0.8 ms.
pub const DEFAULT_TICK_MS: f32 = 5.0;
/// The time limit is looked at every this many operations (a look costs
/// a clock read; an operation, some tens of nanoseconds).
pub const TIME_CHECK_EVERY: u64 = 16;

/// A duration as milliseconds for messages (`2`, `0.5`).
fn millis(d: &std::time::Duration) -> String {
    format!("{}", d.as_micros() as f64 / 1000.0)
}

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
        /// The entry point the call was to (the engine does not say which
        /// function inside it was running).
        function: String,
        /// The budget.
        ops: u64,
    },
    /// A call ran past its time limit.
    #[error("{file}: {function}() stopped after {} ms, its time limit (bot_scriptMaxMs)", millis(.limit))]
    Time {
        /// The file.
        file: String,
        /// The entry point the call was to.
        function: String,
        /// The limit.
        limit: std::time::Duration,
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
