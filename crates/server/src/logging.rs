//! Logging through tracing-subscriber on stderr (and optionally a file):
//! human-readable or JSON, filtered by `RUST_LOG` (default `info`). Console
//! output goes to stdout, so logs never mix into a `--json` summary or a
//! piped console session; the log file gets the console's lines as well.
//! While the console shows a prompt on a terminal, stderr's lines go through
//! the console's printer ([`route_to_prompt`]), which prints them above the
//! prompt and redraws it, instead of over it.
//!
//! The log file is reopened (by its path, appending) before the next line
//! after a SIGHUP, as logrotate expects of a daemon: rotation renames the
//! file, then the signal makes the server write to a new one. A server
//! without a log file takes SIGHUP as a graceful stop instead (its terminal
//! went away; see `server::stop_on_signals`).

use std::cell::Cell;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};


use tracing_subscriber::filter::{EnvFilter, FilterExt, filter_fn};
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::registry::Registry;
use tracing_subscriber::util::SubscriberInitExt;

/// How log lines are written to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Prints one line above the console's prompt.
pub type PromptPrinter = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

/// The target of console output lines (chat, connects, kicks, bans, map
/// changes, scoreboards) sent to the log: they go to the log file only, as
/// stdout already shows them.
pub const CONSOLE_TARGET: &str = "console";

type BoxedLayer = Box<dyn Layer<Registry> + Send + Sync>;

/// Set (by SIGHUP) to have the log file reopened before its next line.
pub static REOPEN_LOG: std::sync::LazyLock<Arc<AtomicBool>> = std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// The log file: its path and the open file, reopened when [`REOPEN_LOG`]
/// is set.
struct LogFile {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new().create(true).append(true).open(path)
}

impl Write for &LogFile {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if REOPEN_LOG.swap(false, Ordering::Relaxed) {
            match open_append(&self.path) {
                Ok(f) => *file = f,
                // The old file stays: lines are not lost, only not rotated.
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "can't reopen log file {}: {e}; writing on to the old one", self.path.display());
                }
            }
        }
        file.write(data)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner).flush()
    }
}

/// Where stderr's log lines go while a prompt is on screen.
static PROMPT: Mutex<Option<PromptPrinter>> = Mutex::new(None);

thread_local! {
    /// Set while this thread prints through the prompt, so a log line raised
    /// by the printing itself goes straight to stderr instead of deadlocking.
    static PRINTING: Cell<bool> = const { Cell::new(false) };
}

/// Sends stderr's log lines through `printer` (the console's, while it
/// shows a prompt), or straight to stderr again with `None`.
pub fn route_to_prompt(printer: Option<PromptPrinter>) {
    let mut guard = match PROMPT.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    *guard = printer;
}

/// The stderr writer: collects one formatted event and hands it, whole, to
/// the prompt's printer when one is set, else to stderr.
struct StderrOrPrompt {
    buf: Vec<u8>,
}

impl Write for StderrOrPrompt {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for StderrOrPrompt {
    fn drop(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        let printer = if PRINTING.get() { None } else { PROMPT.lock().ok().and_then(|g| g.clone()) };
        match printer {
            Some(p) => {
                PRINTING.set(true);
                let text = String::from_utf8_lossy(&self.buf);
                p(text.trim_end_matches('\n'));
                PRINTING.set(false);
            }
            // A closed stderr must not take the server down.
            None => {
                let _ = std::io::stderr().write_all(&self.buf);
            }
        }
    }
}

fn stderr_or_prompt() -> StderrOrPrompt {
    StderrOrPrompt { buf: Vec::with_capacity(256) }
}

fn layer<W>(format: LogFormat, writer: W, ansi: bool) -> BoxedLayer
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    let fmt = tracing_subscriber::fmt::layer().with_writer(writer).with_ansi(ansi);
    match format {
        LogFormat::Text => fmt.with_target(false).boxed(),
        LogFormat::Json => fmt.json().with_current_span(false).boxed(),
    }
}

fn env_filter() -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"))
}

/// Installs the global subscriber: log events on stderr, and with
/// `log_file` (opened for appending) in that file too, together with the
/// console's output lines ([`CONSOLE_TARGET`]), so the file holds the whole
/// story of a run. Calling it twice keeps the first subscriber.
pub fn init(format: LogFormat, log_file: Option<&Path>) -> Result<(), String> {
    let file = match log_file {
        Some(path) => Some(LogFile { path: path.to_owned(), file: Mutex::new(open_append(path).map_err(|e| format!("can't open log file {}: {e}", path.display()))?) }),
        None => None,
    };
    // Colour only on a terminal, and never into a log file.
    let ansi = std::io::stderr().is_terminal();
    let not_console = filter_fn(|meta| meta.target() != CONSOLE_TARGET);
    let mut layers: Vec<BoxedLayer> = vec![layer(format, stderr_or_prompt, ansi).with_filter(env_filter().and(not_console)).boxed()];
    if let Some(f) = file {
        layers.push(layer(format, Arc::new(f), false).with_filter(env_filter()).boxed());
    }
    let result = tracing_subscriber::registry().with(layers).try_init();
    if result.is_err() {
        tracing::debug!("a log subscriber was already installed");
    }
    Ok(())
}
