//! The health file: while the tick loop runs, the server rewrites a small
//! status file every few seconds (atomically), and `health-check FILE`
//! tells whether that file is fresh and says a match is running. Container
//! health checks use the pair; no network port or shell tool is needed. The
//! file is removed at shutdown, so a stopped server is unhealthy at once.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use quarry_console::{Console, CvarDef, CvarError, CvarId, CvarSet};

use crate::feature::{MatchView, Measured, Observer, TickReport};
use crate::tick_stats::TickSummary;

/// How often the health file is rewritten.
pub const HEALTH_INTERVAL: Duration = Duration::from_secs(5);
/// How old the health file may be before `health-check` fails (several intervals).
pub const HEALTH_MAX_AGE: Duration = Duration::from_secs(30);

/// Rewrites the health file at most every [`HEALTH_INTERVAL`].
#[derive(Debug, Default)]
pub struct HealthWriter {
    last: Option<Instant>,
}

impl HealthWriter {
    /// Writes the file if `path` is set and the interval has passed: `ok`
    /// and the tick figures while `map` gives the running match's map,
    /// `no-match` otherwise. The map and the summary are only asked for when
    /// the file is due (this runs every tick).
    pub fn maybe_write(&mut self, path: &str, now: Instant, map: impl FnOnce() -> Option<String>, summary: impl FnOnce() -> TickSummary) {
        if path.is_empty() || self.last.is_some_and(|t| now.duration_since(t) < HEALTH_INTERVAL) {
            return;
        }
        self.last = Some(now);
        let summary = summary();
        let text = match map() {
            Some(map) => format!(
                "ok map={map} ticks={} rate_hz={:.2} mean_ms={:.4} p99_ms={:.4}\n",
                summary.total_ticks, summary.rate_hz, summary.mean_ms, summary.p99_ms
            ),
            None => format!("no-match ticks={} (no map is loaded)\n", summary.total_ticks),
        };
        if let Err(e) = quarry_console::write_atomic(Path::new(path), &text) {
            tracing::warn!("health file: {e}");
        }
    }
}

/// The health file as a feature: `sv_healthFile` names it, every tick may
/// rewrite it, shutdown removes it.
#[derive(Debug)]
pub struct Health {
    file: CvarId,
    writer: HealthWriter,
}

impl Health {
    /// Registers `sv_healthFile`.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let file = console.register_cvar(CvarDef::string(
            "sv_healthFile",
            "",
            "file the tick loop rewrites every 5 s for container health checks (quarry-server health-check FILE); empty = off",
        ))?;
        Ok(Self { file, writer: HealthWriter::default() })
    }

    fn path(&self, cvars: &CvarSet) -> String {
        cvars.string(self.file)
    }
}

impl Observer for Health {
    fn after_tick(&mut self, _report: &TickReport<'_>) {}

    fn tick_measured(&mut self, measured: &Measured<'_>) {
        // Written after the tick's figures include it; only read once due.
        let quarry_console::CvarValue::Str(path) = measured.cvars.get(self.file).value() else { return };
        if path.is_empty() {
            return;
        }
        self.writer.maybe_write(path, measured.started, || measured.map_name.map(str::to_owned), || measured.stats.summary());
    }

    fn shutdown(&mut self, view: &MatchView<'_>, _summary: Option<&crate::headless::HeadlessSummary>, _reason: &str) {
        remove(&self.path(view.cvars));
    }
}

/// Checks a health file: `Ok` with its contents when it was written within
/// [`HEALTH_MAX_AGE`], otherwise a message saying what is wrong.
pub fn check(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("unhealthy: {}: {e}", path.display()))?;
    let modified = meta.modified().map_err(|e| format!("unhealthy: {}: {e}", path.display()))?;
    let age = SystemTime::now().duration_since(modified).unwrap_or(Duration::ZERO);
    if age > HEALTH_MAX_AGE {
        return Err(format!(
            "unhealthy: {} is {} s old (the tick loop writes it every {} s)",
            path.display(),
            age.as_secs(),
            HEALTH_INTERVAL.as_secs()
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("unhealthy: {}: {e}", path.display()))?;
    let text = text.trim().to_owned();
    if !text.starts_with("ok ") {
        return Err(format!("unhealthy: no match is running ({text})"));
    }
    Ok(text)
}

/// Removes the health file at shutdown (a missing file is unhealthy).
pub fn remove(path: &str) {
    if path.is_empty() {
        return;
    }
    if let Err(e) = std::fs::remove_file(path)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        tracing::warn!("health file {path}: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_file_checks_healthy_and_missing_does_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h");
        let p = path.to_string_lossy().into_owned();
        let mut w = HealthWriter::default();
        let s = TickSummary { total_ticks: 7, ..TickSummary::default() };
        w.maybe_write(&p, Instant::now(), || Some("q_dm1".into()), || s);
        assert!(check(&path).expect("healthy").contains("ticks=7"));
        assert!(check(&dir.path().join("missing")).is_err());
        remove(&p);
        assert!(check(&path).is_err(), "a removed file is unhealthy");
    }

    #[test]
    fn no_match_is_unhealthy() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h");
        let mut w = HealthWriter::default();
        w.maybe_write(&path.to_string_lossy(), Instant::now(), || None, TickSummary::default);
        let e = check(&path).expect_err("no map loaded");
        assert!(e.contains("no match is running"), "{e}");
    }

    #[test]
    fn rewrites_only_after_interval() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("h");
        let p = path.to_string_lossy().into_owned();
        let mut w = HealthWriter::default();
        let t0 = Instant::now();
        w.maybe_write(&p, t0, || Some("m".into()), || TickSummary { total_ticks: 1, ..TickSummary::default() });
        w.maybe_write(&p, t0 + Duration::from_secs(1), || Some("m".into()), || TickSummary { total_ticks: 2, ..TickSummary::default() });
        assert!(check(&path).expect("healthy").contains("ticks=1"));
        w.maybe_write(&p, t0 + HEALTH_INTERVAL, || Some("m".into()), || TickSummary { total_ticks: 3, ..TickSummary::default() });
        assert!(check(&path).expect("healthy").contains("ticks=3"));
    }
}
