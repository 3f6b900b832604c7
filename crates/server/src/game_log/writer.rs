//! The game log's writer thread. The tick thread hands it entries through a
//! bounded queue and never waits: when the queue is full the entry is lost
//! and counted, and the next line written says how many were lost. The
//! writer serialises, appends and flushes whatever is queued (so a killed
//! process loses at most the batch being written), rotates the file, and on
//! close writes everything queued, syncs the file and stops.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::Duration;

use super::line::{Entry, Line, to_json_line};

/// Entries the queue holds before new ones are lost (a busy minute of a
/// full server is a few thousand).
pub const QUEUE_CAPACITY: usize = 16_384;

/// How long closing waits for the writer to finish before giving up on it.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// When the log moves to a new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotation {
    /// Every match starts a new file.
    pub per_match: bool,
    /// A file that grows past this many bytes is rotated (at a line end).
    pub max_bytes: u64,
    /// Rotated files kept (`FILE.1` is the newest); older ones are removed.
    pub keep: u32,
}

enum Message {
    Entry(Box<Entry>),
    Close(mpsc::Sender<()>),
}

/// Figures the writer shares with the tick thread.
#[derive(Debug, Default)]
struct Counters {
    /// Entries lost to a full queue, not yet reported in the file.
    lost_unreported: AtomicU64,
    /// Entries lost in all.
    lost: AtomicU64,
    /// Lines written in all.
    written: AtomicU64,
}

/// The handle the tick thread holds.
pub struct LogWriter {
    path: PathBuf,
    rotation: Rotation,
    tx: SyncSender<Message>,
    counters: Arc<Counters>,
    thread: Option<JoinHandle<()>>,
}

impl LogWriter {
    /// Starts a writer appending to `path` (created if missing).
    pub fn start(path: PathBuf, rotation: Rotation) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::sync_channel(QUEUE_CAPACITY);
        let counters = Arc::new(Counters::default());
        let sink = Sink { path: path.clone(), rotation, file: None, bytes: 0, holds_match: false, warned: false };
        let shared = Arc::clone(&counters);
        let thread = std::thread::Builder::new().name("game-log".into()).spawn(move || run(rx, sink, &shared))?;
        Ok(Self { path, rotation, tx, counters, thread: Some(thread) })
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The rotation policy in force.
    pub fn rotation(&self) -> Rotation {
        self.rotation
    }

    /// Queues an entry; never waits. A full queue loses it (counted).
    pub fn send(&self, entry: Entry) {
        match self.tx.try_send(Message::Entry(Box::new(entry))) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.counters.lost.fetch_add(1, Ordering::Relaxed);
                self.counters.lost_unreported.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Lines written and entries lost so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.counters.written.load(Ordering::Relaxed), self.counters.lost.load(Ordering::Relaxed))
    }

    /// Writes everything queued, syncs the file and stops the thread
    /// (waiting at most a few seconds for a stuck disk).
    pub fn close(mut self) {
        let (done_tx, done_rx) = mpsc::channel();
        // Blocking is right here: this is shutdown or a change of file, and
        // every queued entry must reach the file first.
        if self.tx.send(Message::Close(done_tx)).is_ok() && done_rx.recv_timeout(CLOSE_TIMEOUT).is_err() {
            tracing::warn!("game log {}: the writer did not finish within {} s", self.path.display(), CLOSE_TIMEOUT.as_secs());
            return;
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The file side: owned by the writer thread.
struct Sink {
    path: PathBuf,
    rotation: Rotation,
    file: Option<std::io::BufWriter<File>>,
    /// Size of the current file.
    bytes: u64,
    /// The current file holds a match (a match start was written to it, or
    /// it was not empty when opened).
    holds_match: bool,
    /// A failure was reported (once per failing file, so a full disk does
    /// not flood the log).
    warned: bool,
}

fn run(rx: Receiver<Message>, mut sink: Sink, counters: &Counters) {
    sink.open();
    while let Ok(first) = rx.recv() {
        let mut next = Some(first);
        while let Some(message) = next {
            match message {
                Message::Entry(entry) => {
                    let lost = counters.lost_unreported.swap(0, Ordering::Relaxed);
                    if lost > 0 {
                        let report = Entry { unix_ms: entry.unix_ms, match_id: entry.match_id.clone(), t: entry.t, record: Line::Overflow { lost } };
                        sink.write(&report, counters);
                    }
                    sink.write(&entry, counters);
                }
                Message::Close(done) => {
                    sink.finish();
                    let _ = done.send(());
                    return;
                }
            }
            next = rx.try_recv().ok();
        }
        sink.flush();
    }
    sink.finish();
}

impl Sink {
    fn open(&mut self) {
        let opened = OpenOptions::new().create(true).append(true).open(&self.path).and_then(|f| {
            let len = f.metadata()?.len();
            Ok((f, len))
        });
        match opened {
            Ok((f, len)) => {
                self.file = Some(std::io::BufWriter::new(f));
                self.bytes = len;
                self.holds_match = len > 0;
                self.warned = false;
            }
            Err(e) => self.warn(&format!("can't open it: {e} (records are dropped until it can be; check the directory exists and is writable)")),
        }
    }

    fn write(&mut self, entry: &Entry, counters: &Counters) {
        // Per match: a server's first lines start a new file, and so does
        // every match after the first in a file.
        let starts_file = match entry.record {
            Line::ServerStart { .. } => self.bytes > 0,
            Line::MatchStart { .. } => self.holds_match,
            _ => false,
        };
        if self.rotation.per_match && starts_file {
            self.rotate();
        }
        if self.file.is_none() {
            // A file that could not be opened is tried again at each match.
            if !matches!(entry.record, Line::MatchStart { .. }) {
                return;
            }
            self.open();
        }
        let line = match to_json_line(entry) {
            Ok(l) => l,
            Err(e) => {
                self.warn(&format!("a record could not be written as JSON: {e}"));
                return;
            }
        };
        let Some(file) = self.file.as_mut() else { return };
        match file.write_all(line.as_bytes()) {
            Ok(()) => {
                self.bytes += line.len() as u64;
                self.holds_match |= matches!(entry.record, Line::MatchStart { .. });
                counters.written.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => self.warn(&format!("write failed: {e}")),
        }
        if self.bytes > self.rotation.max_bytes {
            self.rotate();
        }
    }

    fn flush(&mut self) {
        if let Some(f) = self.file.as_mut()
            && let Err(e) = f.flush()
        {
            self.warn(&format!("write failed: {e}"));
        }
    }

    /// Flushes and syncs the file to disk.
    fn finish(&mut self) {
        self.flush();
        if let Some(f) = self.file.as_mut()
            && let Err(e) = f.get_ref().sync_all()
        {
            self.warn(&format!("sync failed: {e}"));
        }
    }

    /// `FILE` becomes `FILE.1`, `FILE.1` becomes `FILE.2`, …; the oldest
    /// beyond `keep` is removed; a new `FILE` is started.
    fn rotate(&mut self) {
        self.finish();
        self.file = None;
        let base = self.path.clone();
        let numbered = |n: u32| {
            let mut p = base.clone().into_os_string();
            p.push(format!(".{n}"));
            PathBuf::from(p)
        };
        let keep = self.rotation.keep.max(1);
        let _ = std::fs::remove_file(numbered(keep));
        for n in (1..keep).rev() {
            let from = numbered(n);
            if from.exists()
                && let Err(e) = std::fs::rename(&from, numbered(n + 1))
            {
                self.warn(&format!("rotating {}: {e}", from.display()));
            }
        }
        if let Err(e) = std::fs::rename(&self.path, numbered(1)) {
            self.warn(&format!("rotating: {e}"));
        }
        self.open();
    }

    fn warn(&mut self, what: &str) {
        if !self.warned {
            self.warned = true;
            tracing::warn!("game log {}: {what}", self.path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(record: Line) -> Entry {
        Entry { unix_ms: 0, match_id: None, t: 0.0, record }
    }

    fn start_record() -> Line {
        Line::ServerStart { version: "v".into(), hostname: "h".into() }
    }

    fn match_start() -> Line {
        Line::MatchStart {
            map: "m".into(),
            title: None,
            gametype: "ffa",
            seed: 1,
            settings: super::super::line::MatchSettings {
                fraglimit: 0,
                timelimit_min: 0.0,
                capturelimit: 0,
                roundlimit: 0,
                maxclients: 4,
                friendly_fire: false,
                weapon_stay: false,
                tick_rate: 60,
            },
            in_progress: false,
            players: Vec::new(),
        }
    }

    fn lines(path: &Path) -> Vec<serde_json::Value> {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("every line is JSON"))
            .collect()
    }

    #[test]
    fn close_writes_everything_queued() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("games.log");
        let w = LogWriter::start(path.clone(), Rotation { per_match: false, max_bytes: u64::MAX, keep: 3 }).expect("starts");
        for _ in 0..1000 {
            w.send(entry(start_record()));
        }
        w.close();
        assert_eq!(lines(&path).len(), 1000);
    }

    #[test]
    fn each_match_starts_a_file_and_old_ones_are_numbered() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("games.log");
        let w = LogWriter::start(path.clone(), Rotation { per_match: true, max_bytes: u64::MAX, keep: 2 }).expect("starts");
        w.send(entry(start_record()));
        for _ in 0..4 {
            w.send(entry(match_start()));
            w.send(entry(Line::Phase { phase: "live" }));
        }
        w.close();
        assert_eq!(lines(&path).len(), 2);
        assert_eq!(lines(&dir.path().join("games.log.1")).len(), 2);
        assert_eq!(lines(&dir.path().join("games.log.2")).len(), 2);
        assert!(!dir.path().join("games.log.3").exists(), "keep 2 keeps two old files");
        // A restarted server starts a new file too; the match before is kept.
        let w = LogWriter::start(path.clone(), Rotation { per_match: true, max_bytes: u64::MAX, keep: 2 }).expect("starts");
        w.send(entry(start_record()));
        w.send(entry(match_start()));
        w.close();
        let now = lines(&path);
        assert_eq!((now.len(), now[0]["event"].as_str()), (2, Some("server_start")));
        assert_eq!(lines(&dir.path().join("games.log.1")).len(), 2);
    }

    #[test]
    fn a_file_rotates_when_it_grows_past_the_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("games.log");
        let w = LogWriter::start(path.clone(), Rotation { per_match: false, max_bytes: 500, keep: 50 }).expect("starts");
        for _ in 0..100 {
            w.send(entry(start_record()));
        }
        w.close();
        let mut total = lines(&path).len();
        let mut n = 1;
        while dir.path().join(format!("games.log.{n}")).exists() {
            let size = std::fs::metadata(dir.path().join(format!("games.log.{n}"))).expect("meta").len();
            assert!(size <= 500 + 200, "a rotated file ends at the first line past the limit ({size} bytes)");
            total += lines(&dir.path().join(format!("games.log.{n}"))).len();
            n += 1;
        }
        assert!(n > 2, "rotated several times");
        assert_eq!(total, 100, "no line lost or split by rotation");
    }

    #[test]
    fn an_unwritable_path_loses_records_without_failing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("no such dir").join("games.log");
        let w = LogWriter::start(path, Rotation { per_match: true, max_bytes: u64::MAX, keep: 1 }).expect("starts");
        w.send(entry(match_start()));
        w.close();
    }
}
