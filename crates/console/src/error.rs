//! Error types of the console, one per operation. Messages are short and
//! lowercase, and name what was wrong and what is allowed.

use std::path::PathBuf;

/// A statement that could not be split into tokens.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenizeError {
    /// A `"` was opened and the line ended before it was closed.
    #[error("unbalanced quote at line {line}, column {column}: close the \" on the same line")]
    UnbalancedQuote {
        /// 1-based line.
        line: usize,
        /// 1-based column of the opening quote.
        column: usize,
    },
}

/// A refused cvar registration or assignment. Nothing changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CvarError {
    /// No cvar of that name is registered.
    #[error("unknown cvar '{name}' (cvarlist shows the registered ones)")]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// The value does not parse as the cvar's type.
    #[error("{name}: '{value}' is not {expected}")]
    WrongType {
        /// The cvar.
        name: String,
        /// The refused value.
        value: String,
        /// What the type accepts, e.g. "an integer".
        expected: &'static str,
    },
    /// The value is outside the cvar's range.
    #[error("{name}: {value} is out of range, allowed {range}")]
    OutOfRange {
        /// The cvar.
        name: String,
        /// The refused value.
        value: String,
        /// The allowed range, e.g. "10..=1000".
        range: String,
    },
    /// The value is not one of an enum cvar's values.
    #[error("{name}: '{value}' is not allowed, allowed values: {allowed}")]
    NotAllowed {
        /// The cvar.
        name: String,
        /// The refused value.
        value: String,
        /// The allowed values, comma separated.
        allowed: String,
    },
    /// A string value contained a character a config file cannot hold.
    #[error("{name}: value may not contain a double quote or a control character")]
    BadCharacters {
        /// The cvar.
        name: String,
    },
    /// The cvar is read-only for the console.
    #[error("{name} is read-only")]
    ReadOnly {
        /// The cvar.
        name: String,
    },
    /// The cvar is a cheat and cheats are off.
    #[error("{name} is cheat-protected (sv_cheats is off)")]
    Cheat {
        /// The cvar.
        name: String,
    },
    /// A second registration of a name.
    #[error("cvar '{name}' is already registered")]
    AlreadyRegistered {
        /// The cvar.
        name: String,
    },
    /// A name with characters a console line cannot address.
    #[error("'{name}' is not a valid cvar or command name (letters, digits, '_' and '.' only)")]
    InvalidName {
        /// The refused name.
        name: String,
    },
    /// A definition whose default fails its own rules (a programming error,
    /// reported instead of panicking).
    #[error("cvar '{name}' has a default that fails its own rules: {reason}")]
    BadDefinition {
        /// The cvar.
        name: String,
        /// Why.
        reason: String,
    },
}

/// A failed `exec`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// The file does not exist.
    #[error("exec: couldn't find '{}'", path.display())]
    NotFound {
        /// The path looked for.
        path: PathBuf,
    },
    /// The file exists but could not be read: not a regular file, too
    /// large, not UTF-8 text, or an I/O error.
    #[error("exec: couldn't read '{}': {problem}", path.display())]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// What is wrong with it.
        problem: quarry_files::ReadProblem,
    },
    /// Nested `exec` went deeper than the limit.
    #[error("exec: nesting deeper than {limit} files, not executing '{}'", path.display())]
    TooDeep {
        /// The file that was not executed.
        path: PathBuf,
        /// The depth limit.
        limit: usize,
    },
    /// A file tried to execute itself, directly or through others.
    #[error("exec: recursion, '{}' is already being executed ({chain})", path.display())]
    Recursion {
        /// The file that was not executed again.
        path: PathBuf,
        /// The chain of files, outermost first.
        chain: String,
    },
    /// One top-level command executed more than its budget allows (see
    /// [`MAX_EXEC_STATEMENTS`](crate::MAX_EXEC_STATEMENTS) and the others).
    #[error("exec: more than {limit} {what} in one top-level command; the rest of it is skipped")]
    BudgetExceeded {
        /// What ran out: "files", "statements" or "bytes of config text".
        what: &'static str,
        /// The limit.
        limit: u64,
    },
}

/// Why one console statement failed. Each statement fails on its own; the
/// statements after it still run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConsoleError {
    /// The statement could not be tokenized.
    #[error(transparent)]
    Tokenize(#[from] TokenizeError),
    /// Neither a command nor a cvar has this name.
    #[error("unknown command or cvar '{name}'{} (cmdlist and cvarlist show what exists)", suggestion.as_ref().map(|s| format!("; did you mean '{s}'?")).unwrap_or_default())]
    UnknownCommand {
        /// The name typed.
        name: String,
        /// The nearest command or cvar name, when one is close.
        suggestion: Option<String>,
    },
    /// A cvar operation was refused.
    #[error(transparent)]
    Cvar(#[from] CvarError),
    /// An exec failed.
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// A command got the wrong arguments.
    #[error("usage: {usage}")]
    Usage {
        /// The usage line of the command.
        usage: String,
    },
    /// A command ran and reported a failure.
    #[error("{command}: {message}")]
    Command {
        /// The command.
        command: String,
        /// What went wrong.
        message: String,
    },
}

/// A failed write of the archive file. The old file is untouched.
#[derive(Debug, thiserror::Error)]
#[error("couldn't write archive '{}': {source}", path.display())]
pub struct ArchiveError {
    /// The archive file.
    pub path: PathBuf,
    /// The I/O error.
    #[source]
    pub source: std::io::Error,
}
