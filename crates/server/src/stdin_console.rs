//! The stdin console: a thread that reads lines from stdin and hands them to
//! the tick thread, which runs them between ticks.
//!
//! With a TTY it uses rustyline (line editing, history, Tab completion of
//! command and cvar names and of arguments; completion asks the tick thread,
//! which owns the console). Without one (a pipe, `docker attach`, a service
//! manager) it reads plain lines; the end of piped input only ends console
//! input, it does not stop the server. Console output goes through
//! [`Printer`], which keeps the prompt intact on a TTY.

use std::io::{BufRead, IsTerminal};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, ExternalPrinter, Helper};

/// The longest console line accepted from stdin; longer lines are cut here.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// How long Tab waits for the tick thread's answer.
const COMPLETION_TIMEOUT: Duration = Duration::from_millis(250);
/// How long the prompt waits for a line's output before it comes back (a
/// `map` can take a while; the prompt then returns and the output follows).
const LINE_DONE_TIMEOUT: Duration = Duration::from_secs(5);

/// What the stdin thread asks of the tick thread.
#[derive(Debug)]
pub enum ConsoleRequest {
    /// A line to execute.
    Line {
        /// The text typed.
        text: String,
        /// Told once the line has run and its output is printed, so the
        /// prompt does not come back (and queue later output out of
        /// order) before it; `None` for plain input, which has no prompt.
        done: Option<Sender<()>>,
    },
    /// Completion of the text before the cursor; the answer goes to `reply`.
    Complete {
        /// The text before the cursor.
        line: String,
        /// Where to send (start offset, candidates).
        reply: Sender<(usize, Vec<String>)>,
    },
    /// The operator asked to stop (Ctrl-C or Ctrl-D at the prompt).
    Quit(&'static str),
}

type PrintFn = Box<dyn FnMut(String) + Send>;

/// Prints console output without breaking the prompt.
#[derive(Clone)]
pub struct Printer {
    inner: Arc<Mutex<Option<PrintFn>>>,
}

impl Printer {
    fn stdout() -> Self {
        Self { inner: Arc::new(Mutex::new(None)) }
    }

    /// A printer that writes console output to stderr (headless `--json`,
    /// where stdout carries only the summary).
    pub fn stderr() -> Self {
        let p = Self::stdout();
        p.install(Box::new(|s| {
            use std::io::Write;
            let _ = std::io::stderr().write_all(s.as_bytes());
        }));
        p
    }

    /// Prints one line of console output.
    pub fn print(&self, line: &str) {
        let mut guard = match self.inner.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        match guard.as_mut() {
            Some(f) => f(format!("{line}\n")),
            None => {
                use std::io::Write;
                // A closed stdout must not take the server down.
                let _ = writeln!(std::io::stdout(), "{line}");
            }
        }
    }

    fn install(&self, f: PrintFn) {
        if let Ok(mut g) = self.inner.lock() {
            *g = Some(f);
        }
    }
}

/// The running stdin console.
pub struct StdinConsole {
    /// Requests from the stdin thread, drained by the tick thread.
    pub requests: Receiver<ConsoleRequest>,
    /// Where console output goes.
    pub printer: Printer,
    terminal: Option<rustix::termios::Termios>,
}

impl StdinConsole {
    /// Starts the stdin thread (TTY or plain), or none when `enabled` is false
    /// (then console output goes to stderr if `output_to_stderr`).
    pub fn start(enabled: bool, output_to_stderr: bool) -> Self {
        let (tx, rx) = mpsc::channel();
        let printer = if output_to_stderr { Printer::stderr() } else { Printer::stdout() };
        let stdin = std::io::stdin();
        let mut terminal = None;
        if enabled && stdin.is_terminal() && std::io::stdout().is_terminal() {
            terminal = rustix::termios::tcgetattr(&stdin).ok();
            let p = printer.clone();
            spawn("console-tty", move || run_tty(tx, p));
        } else if enabled {
            spawn("console-stdin", move || run_plain(tx));
        }
        Self { requests: rx, printer, terminal }
    }

    /// Puts the terminal back the way it was (rustyline may be mid-prompt in raw mode).
    pub fn restore_terminal(&self) {
        // The prompt is going away: log lines go straight to stderr again.
        crate::logging::route_to_prompt(None);
        if let Some(t) = &self.terminal {
            // Lines handed to the line editor are printed by its thread, which
            // then draws the prompt again: give it a moment to do so, then
            // clear the prompt left on screen, so what is printed after does
            // not start behind it.
            std::thread::sleep(Duration::from_millis(50));
            use std::io::Write;
            let _ = std::io::stdout().write_all(b"\r\x1b[K");
            let _ = std::io::stdout().flush();
            let _ = rustix::termios::tcsetattr(std::io::stdin(), rustix::termios::OptionalActions::Now, t);
        }
    }
}

fn spawn(name: &str, f: impl FnOnce() + Send + 'static) {
    if let Err(e) = std::thread::Builder::new().name(name.to_owned()).spawn(f) {
        tracing::error!("couldn't start the stdin console thread: {e}");
    }
}

fn run_plain(tx: Sender<ConsoleRequest>) {
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match lock.read_until(b'\n', &mut buf) {
            Ok(0) => {
                tracing::debug!("stdin closed; console input ended (the server keeps running)");
                return;
            }
            Ok(_) => {
                buf.truncate(MAX_LINE_BYTES);
                let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_owned();
                if tx.send(ConsoleRequest::Line { text: line, done: None }).is_err() {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!("stdin read failed, console input ended: {e}");
                return;
            }
        }
    }
}

fn run_tty(tx: Sender<ConsoleRequest>, printer: Printer) {
    // Tab lists every candidate (then completes what they share), as a shell does.
    let config = rustyline::Config::builder().completion_type(rustyline::CompletionType::List).build();
    let mut editor: Editor<ConsoleHelper, DefaultHistory> = match Editor::with_config(config) {
        Ok(e) => e,
        Err(e) => {
            tracing::warn!("line editing unavailable ({e}); reading plain lines");
            return run_plain(tx);
        }
    };
    editor.set_helper(Some(ConsoleHelper { tx: tx.clone() }));
    if let Ok(mut external) = editor.create_external_printer() {
        printer.install(Box::new(move |s| {
            let _ = external.print(s);
        }));
        // Log lines too print above the prompt, not over it.
        let routed = printer.clone();
        crate::logging::route_to_prompt(Some(std::sync::Arc::new(move |line: &str| routed.print(line))));
    }
    loop {
        match editor.readline("] ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                // Output printed while the prompt is up is queued by the
                // editor and shown at its next poll, which typed-ahead keys
                // can postpone past the next line's output: so the prompt
                // waits for this line's output to be printed first.
                let (done, ran) = mpsc::channel();
                if tx.send(ConsoleRequest::Line { text: line, done: Some(done) }).is_err() {
                    return;
                }
                let _ = ran.recv_timeout(LINE_DONE_TIMEOUT);
            }
            Err(ReadlineError::Interrupted) => {
                let _ = tx.send(ConsoleRequest::Quit("interrupted at the console"));
                return;
            }
            Err(ReadlineError::Eof) => {
                let _ = tx.send(ConsoleRequest::Quit("end of console input"));
                return;
            }
            Err(e) => {
                tracing::warn!("console read failed, console input ended: {e}");
                return;
            }
        }
    }
}

/// rustyline helper whose completion asks the tick thread.
struct ConsoleHelper {
    tx: Sender<ConsoleRequest>,
}

impl Completer for ConsoleHelper {
    type Candidate = String;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        let (reply, answer) = mpsc::channel();
        let before = line.get(..pos).unwrap_or(line).to_owned();
        if self.tx.send(ConsoleRequest::Complete { line: before, reply }).is_err() {
            return Ok((pos, Vec::new()));
        }
        Ok(answer.recv_timeout(COMPLETION_TIMEOUT).unwrap_or((pos, Vec::new())))
    }
}

impl Hinter for ConsoleHelper {
    type Hint = String;
}
impl Highlighter for ConsoleHelper {}
impl Validator for ConsoleHelper {}
impl Helper for ConsoleHelper {}
