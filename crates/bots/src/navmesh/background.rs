//! Navmesh builds off the tick thread.
//!
//! A [`BuildJob`] carries everything a build reads (the map's nav input and
//! its doors-open collision world, both prepared on the tick thread in a few
//! milliseconds) so the worker never touches the match. [`Workers::spawn`]
//! runs it on a named thread; the [`BuildOutcome`] comes back over a channel
//! and [`Workers::try_take`] hands it to the tick thread, which picks it up
//! at a tick boundary ([`super::NavService::poll`]). Each job carries the
//! generation it was started for: a result whose generation is no longer
//! the wanted one (the map changed again meanwhile) is dropped on arrival.
//!
//! A panic inside a build is caught on the worker ([`run_caught`]) and comes
//! back as [`NavBuildError::Panicked`]; nothing but the outcome crosses to
//! the tick thread.
//!
//! Must not: read the match, cvars or a clock that decides anything, or
//! block the caller. A job no longer wanted still runs to its end (the nav
//! builder cannot be interrupted); only its result is discarded.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};

use quarry_map::CollisionWorld;
use quarry_nav::{Agent, BuildOptions, NavError, NavInput, NavMesh};

/// The name worker threads carry (shows in `top -H`, debuggers and panic messages).
pub const WORKER_THREAD_NAME: &str = "quarry-navmesh";

/// Why the navmesh of a map could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NavBuildError {
    /// The builder refused the map (nowhere to start, no floor, bad agent).
    #[error("{map}: {source}")]
    Build {
        /// The map's name.
        map: String,
        /// What the builder said.
        source: NavError,
    },
    /// The builder panicked; the message is the panic's.
    #[error("{map}: the navmesh build panicked: {message}")]
    Panicked {
        /// The map's name.
        map: String,
        /// The panic message.
        message: String,
    },
    /// The worker thread could not be started.
    #[error("{map}: couldn't start a navmesh worker thread: {message}")]
    Spawn {
        /// The map's name.
        map: String,
        /// The operating system's reason.
        message: String,
    },
}

/// One build's inputs, owned, so it can run on any thread.
pub struct BuildJob {
    /// Which build this is ([`super::NavService`] counts them).
    pub generation: u64,
    /// The map's name, for messages.
    pub map: String,
    /// The collision world with touch doors open (what routes assume).
    pub world: std::sync::Arc<CollisionWorld>,
    /// Seeds, jump pads, teleporters, movers and hazards.
    pub input: NavInput,
    /// The player box and movement limits.
    pub agent: Agent,
    /// Cell size and node cap.
    pub options: BuildOptions,
}

impl BuildJob {
    /// Builds the mesh on the calling thread; a panic becomes an error.
    pub fn run(&self) -> Result<NavMesh, NavBuildError> {
        run_caught(&self.map, || NavMesh::build(&*self.world, &self.input, &self.agent, &self.options))
    }
}

/// Runs `build`, turning a builder error or a panic into a [`NavBuildError`] for `map`.
pub fn run_caught<T>(map: &str, build: impl FnOnce() -> Result<T, NavError>) -> Result<T, NavBuildError> {
    match catch_unwind(AssertUnwindSafe(build)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(source)) => Err(NavBuildError::Build { map: map.to_owned(), source }),
        Err(payload) => Err(NavBuildError::Panicked { map: map.to_owned(), message: panic_message(payload.as_ref()) }),
    }
}

/// The text of a panic payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

/// What a finished build sends back.
#[derive(Debug)]
pub struct BuildOutcome {
    /// The generation the job was started for.
    pub generation: u64,
    /// The mesh, or why there is none.
    pub result: Result<NavMesh, NavBuildError>,
}

/// The channel builds report on, and the threads that run them.
pub struct Workers {
    tx: Sender<BuildOutcome>,
    rx: Receiver<BuildOutcome>,
    running: Vec<std::thread::JoinHandle<()>>,
}

impl Default for Workers {
    fn default() -> Self {
        let (tx, rx) = channel();
        Self { tx, rx, running: Vec::new() }
    }
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workers").field("running", &self.running.len()).finish_non_exhaustive()
    }
}

impl Workers {
    /// Starts `job` on a new worker thread; returns at once.
    pub fn spawn(&mut self, job: BuildJob) -> Result<(), NavBuildError> {
        self.spawn_with(job.generation, job.map.clone(), move || job.run())
    }

    /// Starts `build` on a worker thread as generation `generation` of `map`
    /// (the seam [`Workers::spawn`] goes through; tests feed failing builds here).
    pub fn spawn_with(
        &mut self,
        generation: u64,
        map: String,
        build: impl FnOnce() -> Result<NavMesh, NavBuildError> + Send + 'static,
    ) -> Result<(), NavBuildError> {
        let tx = self.tx.clone();
        let thread_map = map.clone();
        let handle = std::thread::Builder::new()
            .name(WORKER_THREAD_NAME.to_owned())
            .spawn(move || {
                // `build` catches its own panics; this catch is for one
                // that escapes it, so the outcome is always sent.
                let result = catch_unwind(AssertUnwindSafe(build)).unwrap_or_else(|payload| {
                    Err(NavBuildError::Panicked { map: thread_map, message: panic_message(payload.as_ref()) })
                });
                // The receiver is gone only when the service is: nobody wants it.
                let _ = tx.send(BuildOutcome { generation, result });
            })
            .map_err(|e| NavBuildError::Spawn { map, message: e.to_string() })?;
        self.running.push(handle);
        Ok(())
    }

    /// A finished build's outcome, if one has arrived; never blocks.
    /// Threads that have finished are joined here.
    pub fn try_take(&mut self) -> Option<BuildOutcome> {
        let outcome = self.rx.try_recv().ok();
        let (done, running): (Vec<_>, Vec<_>) = std::mem::take(&mut self.running).into_iter().partition(|h| h.is_finished());
        self.running = running;
        for handle in done {
            // The thread has returned (it caught every panic): joining cannot block.
            let _ = handle.join();
        }
        outcome
    }

    /// Builds still running (including ones whose result will be discarded).
    pub fn running(&self) -> usize {
        self.running.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn wait(workers: &mut Workers) -> BuildOutcome {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(o) = workers.try_take() {
                return o;
            }
            assert!(Instant::now() < deadline, "no outcome within 10 s");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_panicking_build_comes_back_as_an_error_with_its_message() {
        let r: Result<(), _> = run_caught("m", || panic!("boom {}", 7));
        assert_eq!(r, Err(NavBuildError::Panicked { map: "m".into(), message: "boom 7".into() }));
        let r: Result<(), _> = run_caught("m", || panic!("static"));
        assert!(matches!(r, Err(NavBuildError::Panicked { message, .. }) if message == "static"));
    }

    #[test]
    fn a_builder_error_keeps_the_map_and_reason() {
        let r: Result<(), _> = run_caught("dm9", || Err(NavError::NoSeeds));
        let e = r.expect_err("refused");
        assert_eq!(e.to_string(), "dm9: map cannot host bots: no spawn points or items");
    }

    #[test]
    fn a_worker_panic_reaches_the_tick_thread_as_an_outcome() {
        let mut workers = Workers::default();
        workers
            .spawn_with(3, "m".into(), || run_caught("m", || panic!("inside the build")))
            .expect("spawned");
        let o = wait(&mut workers);
        assert_eq!(o.generation, 3);
        assert!(matches!(o.result, Err(NavBuildError::Panicked { ref message, .. }) if message == "inside the build"));
        // A panic that escapes the build closure itself is caught too.
        workers.spawn_with(4, "m".into(), || panic!("escaped")).expect("spawned");
        let o = wait(&mut workers);
        assert_eq!(o.generation, 4);
        assert!(matches!(o.result, Err(NavBuildError::Panicked { ref message, .. }) if message == "escaped"), "{:?}", o.result);
        let deadline = Instant::now() + Duration::from_secs(10);
        while workers.running() > 0 {
            assert!(workers.try_take().is_none(), "no third outcome");
            assert!(Instant::now() < deadline, "threads never joined");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn outcomes_carry_their_generation() {
        let mut workers = Workers::default();
        for g in [1, 2] {
            workers
                .spawn_with(g, format!("m{g}"), move || Err(NavBuildError::Build { map: format!("m{g}"), source: NavError::NoSeeds }))
                .expect("spawned");
        }
        let mut seen = vec![wait(&mut workers).generation, wait(&mut workers).generation];
        seen.sort_unstable();
        assert_eq!(seen, [1, 2]);
    }
}
