//! Writing `archive.cfg` soon after an archived cvar changes, so a crash,
//! a `kill -9` or a power cut loses at most the last second of settings.
//!
//! The loop calls [`ArchiveWriter::poll`] once per tick; it only compares
//! a counter ([`CvarSet::archive_generation`]) unless a change is waiting.
//! A write happens once the archive has been quiet for
//! [`ARCHIVE_WRITE_DELAY`] (a burst of `seta` lines is one write) and never
//! more often than that. The text goes to a writer thread, so the fsync of
//! the atomic write never stalls a tick. [`ArchiveWriter::flush`] at
//! shutdown waits for that thread and writes the final state itself.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use quarry_console::{ArchiveError, CvarSet};

/// How long the archive must be unchanged before it is written, and the
/// shortest time between two writes.
pub const ARCHIVE_WRITE_DELAY: Duration = Duration::from_secs(1);

/// When to write the archive: the debounce, without I/O.
#[derive(Debug)]
struct Debounce {
    /// The generation last seen, and when it was first seen.
    seen: (u64, Instant),
    /// The generation last written (or handed to the writer).
    written: u64,
    last_write: Option<Instant>,
}

impl Debounce {
    fn new(generation: u64, now: Instant) -> Self {
        // `written` differs from any real generation: the first quiet second
        // after start writes once, so the file matches what runs.
        Self { seen: (generation, now), written: u64::MAX, last_write: None }
    }

    /// Whether to write now, given the current generation.
    fn due(&mut self, generation: u64, now: Instant) -> bool {
        if generation != self.seen.0 {
            self.seen = (generation, now);
        }
        let quiet = now.duration_since(self.seen.1) >= ARCHIVE_WRITE_DELAY;
        let spaced = self.last_write.is_none_or(|t| now.duration_since(t) >= ARCHIVE_WRITE_DELAY);
        if generation == self.written || !quiet || !spaced {
            return false;
        }
        self.written = generation;
        self.last_write = Some(now);
        true
    }
}

/// Writes the archive file after changes (see the module docs).
#[derive(Debug)]
pub struct ArchiveWriter {
    path: PathBuf,
    debounce: Debounce,
    last_text: Option<String>,
    writer: Option<(mpsc::Sender<String>, JoinHandle<()>)>,
}

impl ArchiveWriter {
    /// A writer of `path`, starting from the cvars' current state.
    pub fn new(path: PathBuf, cvars: &CvarSet, now: Instant) -> Self {
        Self { path, debounce: Debounce::new(cvars.archive_generation(), now), last_text: None, writer: None }
    }

    /// The archive file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Once per tick: hands the archive text to the writer thread if it
    /// changed and has been quiet for [`ARCHIVE_WRITE_DELAY`].
    pub fn poll(&mut self, now: Instant, cvars: &CvarSet) {
        if !self.debounce.due(cvars.archive_generation(), now) {
            return;
        }
        let text = quarry_console::archive_text(cvars);
        if self.last_text.as_ref() == Some(&text) {
            return;
        }
        self.last_text = Some(text.clone());
        let path = self.path.clone();
        let (tx, _) = self.writer.get_or_insert_with(|| spawn_writer(path));
        if tx.send(text).is_err() {
            tracing::warn!("the archive writer thread is gone; archived cvars are written at shutdown");
        }
    }

    /// Waits for pending writes, then writes the final state (at shutdown).
    pub fn flush(&mut self, cvars: &CvarSet) -> Result<PathBuf, ArchiveError> {
        if let Some((tx, thread)) = self.writer.take() {
            drop(tx);
            let _ = thread.join();
        }
        quarry_console::write_archive(&self.path, cvars)?;
        Ok(self.path.clone())
    }
}

fn spawn_writer(path: PathBuf) -> (mpsc::Sender<String>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel::<String>();
    let thread = std::thread::spawn(move || {
        let mut last_error = None;
        while let Ok(mut text) = rx.recv() {
            // Only the newest text matters.
            while let Ok(newer) = rx.try_recv() {
                text = newer;
            }
            match quarry_console::write_atomic(&path, &text) {
                Ok(()) => last_error = None,
                Err(e) => {
                    let message = e.to_string();
                    if last_error.as_ref() != Some(&message) {
                        tracing::warn!("{message} (retried after the next change, and at shutdown)");
                    }
                    last_error = Some(message);
                }
            }
        }
    });
    (tx, thread)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn writes_once_after_a_quiet_second_and_not_again_without_a_change() {
        let t0 = Instant::now();
        let mut d = Debounce::new(5, t0);
        assert!(!d.due(5, t0 + 500 * MS), "not quiet long enough");
        assert!(d.due(5, t0 + 1000 * MS), "the first quiet second after start writes");
        assert!(!d.due(5, t0 + 5000 * MS), "nothing changed since");
    }

    #[test]
    fn a_burst_of_changes_is_one_write_after_the_last() {
        let t0 = Instant::now();
        let mut d = Debounce::new(1, t0);
        assert!(d.due(1, t0 + 1000 * MS));
        let mut now = t0 + 1000 * MS;
        for g in 2..10 {
            now += 300 * MS;
            assert!(!d.due(g, now), "still changing at {g}");
        }
        assert!(!d.due(9, now + 900 * MS));
        assert!(d.due(9, now + 1000 * MS));
    }

    #[test]
    fn writes_are_at_least_a_second_apart() {
        let t0 = Instant::now();
        let mut d = Debounce::new(1, t0);
        assert!(d.due(1, t0 + 1000 * MS));
        // A change seen at once, then quiet: the spacing still holds.
        assert!(!d.due(2, t0 + 1001 * MS));
        assert!(!d.due(2, t0 + 1999 * MS));
        assert!(d.due(2, t0 + 2001 * MS));
    }

    #[test]
    fn writer_thread_writes_and_flush_writes_the_final_state() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("archive.cfg");
        let mut cvars = CvarSet::new();
        cvars
            .register(quarry_console::CvarDef::string("sv_hostname", "Quarry", "").flags(quarry_console::CvarFlags::ARCHIVE))
            .expect("register");
        let t0 = Instant::now();
        let mut w = ArchiveWriter::new(path.clone(), &cvars, t0);
        cvars.set("sv_hostname", "Early", quarry_console::SetMode::default(), "test").expect("set");
        w.poll(t0 + 10 * MS, &cvars);
        w.poll(t0 + 1100 * MS, &cvars);
        cvars.set("sv_hostname", "Late", quarry_console::SetMode::default(), "test").expect("set");
        assert_eq!(w.flush(&cvars).expect("flush"), path);
        let text = std::fs::read_to_string(&path).expect("archive");
        assert!(text.contains("seta sv_hostname \"Late\""), "{text}");
        let names: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").filter_map(Result::ok).collect();
        assert_eq!(names.len(), 1, "no temp file left");
    }
}
