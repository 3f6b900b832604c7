//! Logging through tracing-subscriber on stderr (and optionally a file):
//! human-readable or JSON, filtered by `RUST_LOG` (default `info`). Console
//! output goes to stdout, so logs never mix into a `--json` summary or a
//! piped console session.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::writer::{BoxMakeWriter, MakeWriterExt};

use crate::cli::LogFormat;

/// Installs the global subscriber; `log_file` is opened for appending.
/// Calling it twice keeps the first subscriber.
pub fn init(format: LogFormat, log_file: Option<&Path>) -> Result<(), String> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let writer = match log_file {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("can't open log file {}: {e}", path.display()))?;
            BoxMakeWriter::new(std::io::stderr.and(Arc::new(file)))
        }
        None => BoxMakeWriter::new(std::io::stderr),
    };
    // Colour only on a terminal, and never into a log file.
    let ansi = log_file.is_none() && std::io::stderr().is_terminal();
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(writer).with_ansi(ansi);
    let result = match format {
        LogFormat::Text => builder.with_target(false).try_init(),
        LogFormat::Json => builder.json().with_current_span(false).try_init(),
    };
    if result.is_err() {
        tracing::debug!("a log subscriber was already installed");
    }
    Ok(())
}
