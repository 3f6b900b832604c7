//! The console: cvars, commands, statement dispatch, `exec`, completion and
//! an output buffer.
//!
//! The console is sans-IO apart from reading `exec` files: command output is
//! collected in a buffer the host drains ([`Console::drain_output`]) and
//! prints wherever it prints (stdout, a remote admin, a test). Execution is
//! immediate and in order; there is no `wait` command and nothing is
//! deferred to a later frame.
//!
//! `Console<C>` is generic over the host context `C` that command handlers
//! get mutable access to (the server's state), so this crate never needs to
//! know what the game is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::budget::{ExecBudget, Refusal};
use crate::cvar::CvarDef;
use crate::cvars::{CvarId, CvarSet, SetMode, SetOutcome, valid_name};
use crate::error::{ConsoleError, CvarError, ExecError};
use quarry_files::read_text_file;
use crate::tokenize::tokenize;

/// How deep `exec` may nest before it refuses (a chain this long is a mistake).
pub const MAX_EXEC_DEPTH: usize = 16;
/// The largest config file `exec` reads; larger is surely not a config.
pub const MAX_EXEC_BYTES: u64 = 1 << 20;
/// Output lines kept between two [`Console::drain_output`] calls; the rest
/// are counted and dropped, so a runaway command cannot fill memory with
/// text nobody reads (a whole `cvardump` is about a thousand lines).
pub const MAX_OUTPUT_LINES: usize = 10_000;

/// A command handler: gets the host, the console and the arguments after the name.
pub type CommandFn<C> = Arc<dyn Fn(&mut C, &mut Console<C>, &[String]) -> Result<(), ConsoleError> + Send + Sync>;
/// An argument completer: gets the arguments before the one being typed and its partial text.
pub type CompleteFn<C> = Arc<dyn Fn(&Console<C>, &[String], &str) -> Vec<String> + Send + Sync>;

/// A console command definition.
pub struct CommandDef<C> {
    /// The name typed to run it.
    pub name: String,
    /// One line on what it does.
    pub help: String,
    /// The usage line, e.g. `exec FILE`.
    pub usage: String,
    /// What runs.
    pub handler: CommandFn<C>,
    /// Optional completion of its arguments.
    pub completer: Option<CompleteFn<C>>,
}

impl<C> Clone for CommandDef<C> {
    fn clone(&self) -> Self {
        Self {
            name: self.name.clone(),
            help: self.help.clone(),
            usage: self.usage.clone(),
            handler: Arc::clone(&self.handler),
            completer: self.completer.clone(),
        }
    }
}

impl<C> CommandDef<C> {
    /// A command with no argument completion.
    pub fn new(
        name: &str,
        usage: &str,
        help: &str,
        handler: impl Fn(&mut C, &mut Console<C>, &[String]) -> Result<(), ConsoleError> + Send + Sync + 'static,
    ) -> Self {
        Self {
            name: name.to_owned(),
            help: help.to_owned(),
            usage: usage.to_owned(),
            handler: Arc::new(handler),
            completer: None,
        }
    }

    /// Adds argument completion.
    #[must_use]
    pub fn complete_with(
        mut self,
        completer: impl Fn(&Console<C>, &[String], &str) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        self.completer = Some(Arc::new(completer));
        self
    }
}

/// One failed statement and where it was.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Where the text came from, e.g. `server.cfg`, `command line`, `console`.
    pub origin: String,
    /// 1-based line within that text.
    pub line: usize,
    /// What went wrong.
    pub error: ConsoleError,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.origin, self.line, self.error)
    }
}

/// The console of one host.
pub struct Console<C> {
    cvars: CvarSet,
    commands: BTreeMap<String, CommandDef<C>>,
    output: Vec<String>,
    config_dir: PathBuf,
    exec_stack: Vec<PathBuf>,
    allow_pending: bool,
    budget: ExecBudget,
    dropped_output: usize,
    names: Vec<String>,
}

impl<C: 'static> Default for Console<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: 'static> Console<C> {
    /// A console with the built-in commands and no cvars. Values for unknown
    /// cvars are kept as pending until [`Console::set_allow_pending`] turns
    /// that off (the server does once startup is over).
    pub fn new() -> Self {
        let mut console = Self {
            cvars: CvarSet::new(),
            commands: BTreeMap::new(),
            output: Vec::new(),
            config_dir: PathBuf::from("."),
            exec_stack: Vec::new(),
            allow_pending: true,
            budget: ExecBudget::default(),
            dropped_output: 0,
            names: Vec::new(),
        };
        crate::builtins::register(&mut console);
        console
    }

    /// Replaces the names the host's commands complete (players and bots in
    /// the game); the host keeps them current.
    pub fn set_names(&mut self, mut names: Vec<String>) {
        names.sort();
        names.dedup();
        self.names = names;
    }

    /// The names set with [`Console::set_names`] that start with `partial`
    /// (any case): a completer for commands that take a player name.
    pub fn complete_name(&self, partial: &str) -> Vec<String> {
        let p = partial.to_ascii_lowercase();
        self.names.iter().filter(|n| n.to_ascii_lowercase().starts_with(&p)).cloned().collect()
    }
}

impl<C> Console<C> {
    /// The cvars.
    pub fn cvars(&self) -> &CvarSet {
        &self.cvars
    }

    /// The cvars, mutably (for registration and code-side sets).
    pub fn cvars_mut(&mut self) -> &mut CvarSet {
        &mut self.cvars
    }

    /// Registers a cvar; warnings from a pending value go to the output.
    pub fn register_cvar(&mut self, def: CvarDef) -> Result<CvarId, CvarError> {
        let id = self.cvars.register(def)?;
        for w in self.cvars.take_warnings() {
            tracing::warn!("{w}");
            self.print(format!("warning: {w}"));
        }
        Ok(id)
    }

    /// Registers a command. A second command of the same name replaces the first.
    pub fn register_command(&mut self, def: CommandDef<C>) -> Result<(), CvarError> {
        if !valid_name(&def.name) {
            return Err(CvarError::InvalidName { name: def.name });
        }
        self.commands.insert(def.name.to_ascii_lowercase(), def);
        Ok(())
    }

    /// A command by name.
    pub fn command(&self, name: &str) -> Option<&CommandDef<C>> {
        self.commands.get(&name.to_ascii_lowercase())
    }

    /// Commands sorted by name.
    pub fn commands(&self) -> impl Iterator<Item = &CommandDef<C>> {
        self.commands.values()
    }

    /// Whether `set` of an unregistered cvar is kept as pending (startup) or refused.
    pub fn set_allow_pending(&mut self, allow: bool) {
        self.allow_pending = allow;
    }

    /// Whether `set` of an unregistered cvar is kept as pending.
    pub fn allow_pending(&self) -> bool {
        self.allow_pending
    }

    /// The directory relative `exec` paths are looked up in.
    pub fn set_config_dir(&mut self, dir: impl Into<PathBuf>) {
        self.config_dir = dir.into();
    }

    /// The directory relative `exec` paths are looked up in.
    pub fn config_dir(&self) -> &Path {
        &self.config_dir
    }

    /// Appends a line to the output buffer (dropped, and counted, once
    /// [`MAX_OUTPUT_LINES`] are waiting).
    pub fn print(&mut self, line: impl Into<String>) {
        if self.output.len() < MAX_OUTPUT_LINES {
            self.output.push(line.into());
        } else {
            self.dropped_output += 1;
        }
    }

    /// Takes everything printed since the last call, with a last line
    /// saying how many were dropped if any were.
    pub fn drain_output(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.output);
        if self.dropped_output > 0 {
            out.push(format!(
                "({} more lines of output dropped; at most {MAX_OUTPUT_LINES} are kept between prints)",
                std::mem::take(&mut self.dropped_output)
            ));
        }
        out
    }

    /// Executes console text (one or many statements). Each failing statement
    /// prints `origin:line: message`, is returned as a diagnostic, and does not
    /// stop the statements after it; only a spent budget (see
    /// [`MAX_EXEC_STATEMENTS`](crate::MAX_EXEC_STATEMENTS)) does, reported once.
    pub fn execute(&mut self, host: &mut C, text: &str, origin: &str) -> Vec<Diagnostic> {
        self.budget.enter();
        let diagnostics = self.execute_budgeted(host, text, origin);
        self.budget.leave();
        diagnostics
    }

    fn execute_budgeted(&mut self, host: &mut C, text: &str, origin: &str) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        for statement in tokenize(text) {
            let (line, result) = match statement {
                Ok(s) => match self.budget.take_statement() {
                    Ok(()) => (s.line, self.dispatch(host, s.name(), s.args(), origin, s.line)),
                    Err(Refusal::Exceeded(e)) => (s.line, Err(ConsoleError::Exec(e))),
                    Err(Refusal::Spent) => break,
                },
                Err(e) => (line_of(&e), Err(ConsoleError::Tokenize(e))),
            };
            if let Err(error) = result {
                let spent = matches!(error, ConsoleError::Exec(ExecError::BudgetExceeded { .. }));
                let d = Diagnostic { origin: origin.to_owned(), line, error };
                if spent {
                    // Past the output cap too: this is the line that explains the rest.
                    self.output.push(format!("error: {d}"));
                    diagnostics.push(d);
                    break;
                }
                self.print(format!("error: {d}"));
                diagnostics.push(d);
            }
        }
        diagnostics
    }

    /// Runs one already-tokenized statement.
    pub fn dispatch(
        &mut self,
        host: &mut C,
        name: &str,
        args: &[String],
        origin: &str,
        line: usize,
    ) -> Result<(), ConsoleError> {
        if let Some(cmd) = self.command(name) {
            let handler = Arc::clone(&cmd.handler);
            return handler(host, self, args);
        }
        if let Some(cvar) = self.cvars.find(name) {
            if args.is_empty() {
                let msg = format!("\"{}\" is \"{}\" (default \"{}\")", cvar.def.name, cvar.shown_value(), cvar.def.default);
                self.print(msg);
                return Ok(());
            }
            let canonical = cvar.def.name.clone();
            return self.set_cvar(&canonical, &args.join(" "), false, &format!("{origin}:{line}"));
        }
        Err(ConsoleError::UnknownCommand { name: name.to_owned(), suggestion: self.nearest_name(name) })
    }

    /// The command or cvar name nearest `typed` (case aside), when it is
    /// within a typo of it: at most 1 edit for a name of up to 4
    /// characters, 2 for longer ones; ties go to the first in name order.
    pub fn nearest_name(&self, typed: &str) -> Option<String> {
        let typed = typed.to_ascii_lowercase();
        let most = if typed.chars().count() <= 4 { 1 } else { 2 };
        self.commands
            .values()
            .map(|c| c.name.clone())
            .chain(self.cvars.iter().map(|c| c.def.name.clone()))
            .map(|n| (edit_distance(&typed, &n.to_ascii_lowercase()), n))
            .filter(|(d, _)| *d <= most)
            .min()
            .map(|(_, n)| n)
    }

    /// `set`/`seta` with the console's messages for latched and pending values.
    pub fn set_cvar(&mut self, name: &str, value: &str, archive: bool, origin: &str) -> Result<(), ConsoleError> {
        let mode = SetMode { allow_pending: self.allow_pending, archive };
        match self.cvars.set(name, value, mode, origin)? {
            SetOutcome::Changed | SetOutcome::Unchanged => {}
            SetOutcome::Latched => self.print(format!("{name} will be changed to \"{value}\" at the next map change")),
            SetOutcome::Pending => tracing::debug!("{name} is not registered yet; \"{value}\" applies when it is"),
        }
        Ok(())
    }

    /// Executes a config file. Relative paths are looked up in the config
    /// directory; `.cfg` is added when the name has no extension.
    pub fn exec_file(&mut self, host: &mut C, path: &str) -> Result<Vec<Diagnostic>, ExecError> {
        self.budget.enter();
        let result = self.exec_file_budgeted(host, path);
        self.budget.leave();
        result
    }

    fn exec_file_budgeted(&mut self, host: &mut C, path: &str) -> Result<Vec<Diagnostic>, ExecError> {
        let resolved = self.resolve_cfg(path);
        if self.exec_stack.len() >= MAX_EXEC_DEPTH {
            return Err(ExecError::TooDeep { path: resolved, limit: MAX_EXEC_DEPTH });
        }
        let canonical = resolved
            .canonicalize()
            .map_err(|_| ExecError::NotFound { path: resolved.clone() })?;
        if self.exec_stack.contains(&canonical) {
            let chain = self
                .exec_stack
                .iter()
                .chain(std::iter::once(&canonical))
                .map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(" -> ");
            return Err(ExecError::Recursion { path: resolved, chain });
        }
        let text = read_text_file(&canonical, MAX_EXEC_BYTES)
            .map_err(|e| ExecError::Unreadable { path: resolved.clone(), problem: e.problem })?;
        match self.budget.take_file(text.len() as u64) {
            Ok(()) => {}
            Err(Refusal::Exceeded(e)) => return Err(e),
            Err(Refusal::Spent) => return Ok(Vec::new()),
        }
        let origin = resolved.display().to_string();
        self.exec_stack.push(canonical);
        let diagnostics = self.execute(host, &text, &origin);
        self.exec_stack.pop();
        Ok(diagnostics)
    }

    fn resolve_cfg(&self, path: &str) -> PathBuf {
        let mut p = PathBuf::from(path);
        if p.extension().is_none() {
            p.set_extension("cfg");
        }
        if p.is_relative() { self.config_dir.join(p) } else { p }
    }

    /// Completion of the statement being typed at the end of `line`: returns
    /// the byte offset where the word under completion starts and the
    /// candidates for it (command and cvar names first, then the command's
    /// own argument completer).
    pub fn complete(&self, line: &str) -> (usize, Vec<String>) {
        let stmt_start = line.rfind(';').map_or(0, |i| i + 1);
        let stmt = &line[stmt_start..];
        let word_start = stmt.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let partial = &stmt[word_start..];
        let before: Vec<String> = stmt[..word_start].split_whitespace().map(str::to_owned).collect();
        let candidates = match before.split_first() {
            None => {
                let p = partial.trim_start_matches(['/', '\\']).to_ascii_lowercase();
                let mut names: Vec<String> = self
                    .commands
                    .range(p.clone()..)
                    .take_while(|(k, _)| k.starts_with(&p))
                    .map(|(_, c)| c.name.clone())
                    .collect();
                names.extend(self.cvars.names_with_prefix(&p));
                names.sort();
                names
            }
            Some((name, args)) => match self.command(name).and_then(|c| c.completer.clone()) {
                Some(f) => f(self, args, partial),
                None => Vec::new(),
            },
        };
        (stmt_start + word_start, candidates)
    }
}

fn line_of(e: &crate::error::TokenizeError) -> usize {
    match e {
        crate::error::TokenizeError::UnbalancedQuote { line, .. } => *line,
    }
}

/// The Levenshtein distance between `a` and `b` (in characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod suggestion_tests {
    use super::*;

    #[test]
    fn a_typo_gets_the_nearest_name() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        let mut c = Console::<()>::new();
        c.register_cvar(crate::CvarDef::int("sv_maxclients", 16, 1, 64, "")).expect("cvar");
        let e = c.dispatch(&mut (), "sv_maxclinets", &[], "test", 1).expect_err("unknown");
        assert!(e.to_string().contains("did you mean 'sv_maxclients'?"), "{e}");
        let e = c.dispatch(&mut (), "zzzzzzzz", &[], "test", 1).expect_err("unknown");
        assert!(!e.to_string().contains("did you mean"), "{e}");
    }
}
