//! The threads that write and deliver match results, so the tick never
//! waits on a disk or a network.
//!
//! - The **writer** takes each finished match's document from a bounded
//!   queue ([`QUEUE`]; one document a match, so it never fills in
//!   practice, and a full one is reported, not waited on), writes it into
//!   `sv_matchResultDir` and, with a webhook set, into the spool
//!   ([`Spool`]), then wakes the poster. It only touches the disk.
//! - The **poster** sends what the spool holds, oldest first, and removes
//!   each document after a 2xx. After a failed attempt it waits
//!   [`backoff`] before the next; a document that failed
//!   [`ATTEMPTS_PER_RUN`] times waits in the spool for the next start. On
//!   start it sends whatever an earlier run left.
//!
//! A graceful stop ([`Delivery::stop`]) first waits for the writer (every
//! queued document reaches the disk), then gives the poster up to
//! [`STOP_GRACE`] to deliver, with the same backoff, and leaves what is
//! left in the spool for the next start. Documents are never lost to a
//! stop; an endpoint may see one twice (a 2xx whose answer was lost), so a
//! receiver dedupes on `match_id`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::spool::Spool;
use super::webhook::{ATTEMPTS_PER_RUN, Poster, REQUEST_TIMEOUT, WebhookTarget, backoff};

/// Documents waiting for the writer.
pub const QUEUE: usize = 16;
/// How long a graceful stop lets the poster go on delivering.
pub const STOP_GRACE: Duration = Duration::from_secs(3);

/// One finished match's document, for the writer.
#[derive(Debug)]
pub struct Job {
    /// The match id: the file's stem.
    pub id: String,
    /// The document.
    pub text: String,
    /// `sv_matchResultDir`.
    pub dir: PathBuf,
    /// Whether to spool it for the webhook.
    pub spool: bool,
}

/// What the poster is told.
#[derive(Debug)]
enum Note {
    /// The spool has something new.
    Wake,
    /// The webhook and spool to use from now on (none: stop posting).
    Configure(Box<Option<(WebhookTarget, Spool)>>),
}

/// The two threads (see the module doc).
#[derive(Debug)]
pub struct Delivery {
    jobs: Option<SyncSender<Job>>,
    notes: SyncSender<Note>,
    writer: Option<JoinHandle<()>>,
    poster: Option<JoinHandle<()>>,
    /// Set once at a stop: the poster delivers until then and ends.
    stop_at: Arc<OnceLock<Instant>>,
}

/// Why a document was not queued.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The writer is [`QUEUE`] documents behind.
    #[error("the writer's queue is full")]
    Full,
    /// The writer is gone (stopped or failed to start).
    #[error("the writer has stopped")]
    Stopped,
}

impl Delivery {
    /// Starts both threads; `target` is the webhook to post to, if any.
    pub fn start(target: Option<(WebhookTarget, Spool)>) -> std::io::Result<Self> {
        let (notes, note_rx) = mpsc::sync_channel(QUEUE);
        let (jobs, job_rx) = mpsc::sync_channel(QUEUE);
        let stop_at = Arc::new(OnceLock::new());
        let stop = Arc::clone(&stop_at);
        let poster = std::thread::Builder::new().name("results-post".into()).spawn(move || post_loop(&note_rx, target, &stop))?;
        let wake = notes.clone();
        let writer = std::thread::Builder::new().name("results-write".into()).spawn(move || write_loop(&job_rx, &wake))?;
        Ok(Self { jobs: Some(jobs), notes, writer: Some(writer), poster: Some(poster), stop_at })
    }

    /// Hands a document to the writer without waiting.
    pub fn queue(&self, job: Job) -> Result<(), QueueError> {
        let jobs = self.jobs.as_ref().ok_or(QueueError::Stopped)?;
        jobs.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => QueueError::Full,
            TrySendError::Disconnected(_) => QueueError::Stopped,
        })
    }

    /// Changes the webhook (none: stop posting; the spool stays as it is).
    pub fn configure(&self, target: Option<(WebhookTarget, Spool)>) {
        // A full queue of notes means the poster is busy: a blocking send
        // would stall the tick, so try again at the next cvar change.
        if self.notes.try_send(Note::Configure(Box::new(target))).is_err() {
            tracing::warn!("match results: the delivery thread is busy; the webhook change waits for the next one");
        }
    }

    /// Graceful stop (see the module doc): every queued document written,
    /// then up to [`STOP_GRACE`] of delivery.
    pub fn stop(&mut self) {
        drop(self.jobs.take());
        if let Some(writer) = self.writer.take()
            && writer.join().is_err()
        {
            tracing::error!("match results: the writer thread panicked");
        }
        let deadline = Instant::now() + STOP_GRACE;
        let _ = self.stop_at.set(deadline);
        // Wakes a poster waiting out a backoff; a full queue of notes means
        // it is awake already.
        let _ = self.notes.try_send(Note::Wake);
        let Some(poster) = self.poster.take() else { return };
        let give_up = deadline + REQUEST_TIMEOUT + Duration::from_secs(1);
        while !poster.is_finished() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
        }
        if poster.is_finished() {
            let _ = poster.join();
        } else {
            tracing::warn!("match results: the webhook did not answer in time; undelivered results stay spooled for the next start");
        }
    }
}

impl Drop for Delivery {
    fn drop(&mut self) {
        if self.writer.is_some() {
            self.stop();
        }
    }
}

/// The writer's loop: until the queue is closed and empty.
fn write_loop(jobs: &Receiver<Job>, wake: &SyncSender<Note>) {
    for job in jobs {
        let spooled = write_one(&job);
        if spooled {
            let _ = wake.try_send(Note::Wake);
        }
    }
}

/// Writes one document into its folder and, when asked, the spool;
/// returns whether it was spooled.
fn write_one(job: &Job) -> bool {
    let path = job.dir.join(format!("{}.json", job.id));
    let written = std::fs::create_dir_all(&job.dir).map_err(|e| e.to_string()).and_then(|()| quarry_console::write_atomic(&path, &job.text).map_err(|e| e.to_string()));
    match written {
        Ok(()) => tracing::info!("match result written to {}", path.display()),
        Err(e) => tracing::warn!("{}: {}: couldn't write the match result: {e}", super::DIR_CVAR, job.dir.display()),
    }
    if !job.spool {
        return false;
    }
    let spool = Spool::of_results(&job.dir);
    match spool.put(&job.id, &job.text) {
        Ok(dropped) => {
            for d in dropped {
                tracing::warn!("match results: the spool is full ({} documents); dropped the oldest undelivered, {} (its result file is kept)", super::spool::MAX_PENDING, d.display());
            }
            true
        }
        Err(e) => {
            tracing::error!("match results: couldn't spool {} for the webhook: {e}", job.id);
            false
        }
    }
}

/// The poster's state: the webhook, the spool, and the attempts so far.
///
/// The endpoint is what backs off, not each document: after a failure the
/// poster waits [`backoff`] of the failures in a row before trying again,
/// oldest document first, so a down endpoint is not hammered once per
/// pending document. A document that failed [`ATTEMPTS_PER_RUN`] times is
/// passed over for the rest of the run (a receiver that refuses one body
/// forever does not hold back the others).
struct PostState {
    target: Option<(WebhookTarget, Spool)>,
    /// Failed attempts per document in this run.
    attempts: HashMap<PathBuf, u32>,
    /// Failed attempts in a row, and when the next may start.
    failures_in_row: u32,
    next_round: Instant,
    poster: Poster,
}

/// The poster's loop (see the module doc): ends once `stop` is set and
/// nothing more can be tried before it.
fn post_loop(notes: &Receiver<Note>, target: Option<(WebhookTarget, Spool)>, stop: &OnceLock<Instant>) {
    let mut state = PostState { target, attempts: HashMap::new(), failures_in_row: 0, next_round: Instant::now(), poster: Poster::new() };
    if let Some((_, spool)) = &state.target {
        for stale in spool.clean() {
            tracing::info!("removed {}, left by an interrupted write", stale.display());
        }
    }
    loop {
        let next = state.round(stop);
        if let Some(deadline) = stop.get()
            && next.is_none_or(|n| n >= *deadline)
        {
            return;
        }
        let note = match next {
            Some(at) => notes.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => notes.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match note {
            Ok(Note::Wake) | Err(RecvTimeoutError::Timeout) => {}
            Ok(Note::Configure(target)) => {
                state.target = *target;
                state.attempts.clear();
                state.failures_in_row = 0;
                state.next_round = Instant::now();
            }
            // Every sender is gone: nothing can wake it again.
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

impl PostState {
    /// Tries the spooled documents, oldest first, until one fails or
    /// `stop`'s deadline passes; returns when to try again (none: nothing
    /// left to try in this run).
    fn round(&mut self, stop: &OnceLock<Instant>) -> Option<Instant> {
        let (target, spool) = self.target.as_ref()?;
        if Instant::now() < self.next_round {
            return Some(self.next_round);
        }
        let pending = match spool.pending() {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!("match results: {e}");
                self.next_round = Instant::now() + backoff(1);
                return Some(self.next_round);
            }
        };
        self.attempts.retain(|p, _| pending.contains(p));
        for path in pending {
            let failed = self.attempts.get(&path).copied().unwrap_or(0);
            if failed >= ATTEMPTS_PER_RUN {
                continue;
            }
            if stop.get().is_some_and(|d| Instant::now() >= *d) {
                return None;
            }
            match deliver(&self.poster, target, spool, &path) {
                Ok(()) => {
                    self.attempts.remove(&path);
                    self.failures_in_row = 0;
                }
                Err(e) => {
                    self.attempts.insert(path.clone(), failed + 1);
                    self.failures_in_row = self.failures_in_row.saturating_add(1);
                    self.next_round = Instant::now() + backoff(self.failures_in_row);
                    let left = ATTEMPTS_PER_RUN - (failed + 1);
                    tracing::warn!("match results: posting {} to the webhook failed ({e}); {left} more tries this run", path.display());
                    return Some(self.next_round);
                }
            }
        }
        None
    }
}

/// One attempt at one spooled document: read, post, remove after a 2xx.
fn deliver(poster: &Poster, target: &WebhookTarget, spool: &Spool, path: &Path) -> Result<(), String> {
    let text = spool.read(path).map_err(|e| e.to_string())?;
    let id = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    poster.post(target, id, text.as_bytes()).map_err(|e| e.to_string())?;
    tracing::info!("match result {id} delivered to the webhook");
    spool.remove(path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_writes_every_queued_document_and_keeps_the_spooled_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let results = dir.path().join("results");
        let mut delivery = Delivery::start(None).expect("threads");
        for i in 0..3 {
            let job = Job { id: format!("m{i}"), text: format!("{{\"n\":{i}}}\n"), dir: results.clone(), spool: i != 1 };
            delivery.queue(job).expect("queued");
        }
        delivery.stop();
        let names = |dir: &Path| {
            let mut n: Vec<String> = std::fs::read_dir(dir).expect("folder").filter_map(Result::ok).filter(|e| e.path().is_file()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            n.sort();
            n
        };
        assert_eq!(names(&results), ["m0.json", "m1.json", "m2.json"]);
        assert_eq!(names(&results.join("pending")), ["m0.json", "m2.json"], "no webhook to take them: they wait");
        assert!(matches!(delivery.queue(Job { id: "late".into(), text: String::new(), dir: results, spool: false }), Err(QueueError::Stopped)));
    }
}
