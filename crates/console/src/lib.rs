//! The Quake-style console core of Quarry: typed cvars with defaults, ranges,
//! flags and help; commands with help and argument completion; a tokenizer
//! for config text (quotes, `;`, `//`); `exec` of config files; values kept
//! for cvars registered later; and atomic write-back of archived cvars.
//!
//! It knows nothing about the game: hosts register their cvars and commands
//! and give command handlers their own context type. It does no terminal
//! I/O either; output is buffered for the host to print.
//!
//! ```
//! use quarry_console::{Console, CvarDef};
//! let mut console: Console<()> = Console::new();
//! console.execute(&mut (), "set sv_fps 30", "command line"); // before registration
//! let fps = console.register_cvar(CvarDef::int("sv_fps", 60, 10, 1000, "ticks per second")).unwrap();
//! assert_eq!(console.cvars().int(fps), 30);
//! ```

mod archive;
mod budget;
mod builtins;
mod console;
mod cvar;
mod cvars;
mod error;
mod tokenize;

pub use archive::{archive_text, remove_stale_temp_files, write_archive, write_atomic};
pub use budget::{MAX_EXEC_FILES, MAX_EXEC_STATEMENTS, MAX_EXEC_TOTAL_BYTES};
pub use console::{CommandDef, CommandFn, CompleteFn, Console, Diagnostic, MAX_EXEC_BYTES, MAX_EXEC_DEPTH, MAX_OUTPUT_LINES};
pub use cvar::{Cvar, CvarDef, CvarFlags, CvarKind, CvarValue};
pub use cvars::{CvarId, CvarSet, PendingValue, SetMode, SetOutcome};
pub use error::{ArchiveError, ConsoleError, CvarError, ExecError, TokenizeError};
pub use quarry_files::{ReadFileError, ReadProblem, read_file_bytes, read_text_file};
pub use tokenize::{Statement, quote, tokenize};
