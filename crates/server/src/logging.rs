//! Logging through tracing-subscriber on stderr (and optionally a file):
//! human-readable or JSON, filtered by `RUST_LOG` (default `info`). Console
//! output goes to stdout, so logs never mix into a `--json` summary or a
//! piped console session; the log file gets the console's lines as well.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use tracing_subscriber::filter::{EnvFilter, FilterExt, filter_fn};
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::registry::Registry;
use tracing_subscriber::util::SubscriberInitExt;

use crate::cli::LogFormat;

/// The target of console output lines (chat, connects, kicks, bans, map
/// changes, scoreboards) sent to the log: they go to the log file only, as
/// stdout already shows them.
pub const CONSOLE_TARGET: &str = "console";

type BoxedLayer = Box<dyn Layer<Registry> + Send + Sync>;

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
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("can't open log file {}: {e}", path.display()))?,
        ),
        None => None,
    };
    // Colour only on a terminal, and never into a log file.
    let ansi = std::io::stderr().is_terminal();
    let not_console = filter_fn(|meta| meta.target() != CONSOLE_TARGET);
    let mut layers: Vec<BoxedLayer> = vec![layer(format, std::io::stderr, ansi).with_filter(env_filter().and(not_console)).boxed()];
    if let Some(f) = file {
        layers.push(layer(format, Arc::new(f), false).with_filter(env_filter()).boxed());
    }
    let result = tracing_subscriber::registry().with(layers).try_init();
    if result.is_err() {
        tracing::debug!("a log subscriber was already installed");
    }
    Ok(())
}
