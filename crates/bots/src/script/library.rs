//! The brains on disk: every `botfiles/brains/NAME.rhai` compiled with the
//! helper library (`botfiles/brains/lib/*.rhai`, in name order). A brain
//! that fails to compile keeps its last good version (the error is
//! reported); `botreload` reads them all again. The library also lends the
//! navmesh to scripted bots' queries, and keeps the tick's script time:
//! every call is charged to its tick ([`ScriptLibrary::charge`]), and once
//! `bot_scriptTickMs` is spent the calls still due wait for the next tick
//! ([`ScriptLibrary::tick_time_left`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::ScriptError;
use super::engine::{Program, ScriptEngine, Source};
use super::rhai::RhaiEngine;
use crate::navigate::Navigator;

/// The brains' folder inside the botfiles directory.
pub const BRAINS_DIR: &str = "brains";
/// The helper library's folder inside the brains' folder.
pub const LIB_DIR: &str = "lib";
/// The largest script file read, bytes.
pub const MAX_SCRIPT_BYTES: u64 = 256 * 1024;
/// The most brain (or library) files read from one folder.
pub const MAX_BRAIN_FILES: usize = 64;

/// The library shared by the manager and every scripted bot.
pub type Scripts = Arc<Mutex<ScriptLibrary>>;

/// What a load found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Brains compiled now (names).
    pub loaded: Vec<String>,
    /// Brains and library files that failed (a failed brain keeps its last
    /// good version, if it had one).
    pub errors: Vec<ScriptError>,
}

/// Script calls made so far and the time they took (for benchmarks,
/// tests and operators; the match reads none of it). Wall times and the
/// tick thread's CPU times, which the limits are measured on.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CallStats {
    /// Calls (each entry point counted; a bot's period may make several).
    pub calls: u64,
    /// Periods run (one per bot per `bot_scriptRate` tick).
    pub periods: u64,
    /// Time in the engine, summed (wall time).
    pub total: std::time::Duration,
    /// The longest period (wall time).
    pub slowest: std::time::Duration,
    /// Of the time, spent in navmesh queries (wall time).
    pub nav: std::time::Duration,
    /// CPU time of the calls, their navmesh queries included, summed.
    pub cpu: std::time::Duration,
    /// The most CPU time charged to one call: its own, without its
    /// navmesh queries (what `bot_scriptMaxMs` limits).
    pub slowest_call: std::time::Duration,
    /// The most CPU time the calls of one tick took together, navmesh
    /// queries included (what `bot_scriptTickMs` limits).
    pub slowest_tick: std::time::Duration,
    /// Calls stopped at the time limit (`bot_scriptMaxMs`).
    pub over_time: u64,
    /// Periods put off to a later tick because the tick's script time
    /// (`bot_scriptTickMs`) was spent.
    pub deferred: u64,
}

/// A brain and its version.
#[derive(Debug, Clone)]
struct Loaded {
    program: Arc<dyn Program>,
    version: u64,
}

/// Compiled brains by name, the engine, and the navmesh on loan.
pub struct ScriptLibrary {
    engine: Box<dyn ScriptEngine>,
    brains: BTreeMap<String, Loaded>,
    versions: u64,
    nav: Option<Box<dyn Navigator + Send>>,
    nav_generation: Option<u64>,
    /// The teleporters of the map last asked about, by map name.
    teleporters: Option<(String, Arc<[super::host::ScriptTeleporter]>)>,
    stats: CallStats,
    /// The CPU time all scripts may take in one tick.
    tick_budget: Duration,
    /// The tick calls were last charged to.
    tick: Option<u32>,
    /// The CPU time scripts have taken in that tick.
    tick_cpu: Duration,
}

impl std::fmt::Debug for ScriptLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptLibrary")
            .field("engine", &self.engine)
            .field("brains", &self.brains.keys().collect::<Vec<_>>())
            .field("nav", &self.nav.as_ref().map(|n| n.describe()))
            .finish_non_exhaustive()
    }
}

impl ScriptLibrary {
    /// An empty library on the Rhai engine, `max_ops` operations per call
    /// and the default time limits ([`super::DEFAULT_MAX_CALL_MS`] a call,
    /// [`super::DEFAULT_TICK_MS`] a tick).
    pub fn new(max_ops: u64) -> Self {
        Self::with_engine(Box::new(RhaiEngine::new(max_ops)))
    }

    /// An empty library on `engine`, with the default time limits.
    pub fn with_engine(engine: Box<dyn ScriptEngine>) -> Self {
        engine.set_max_time(millis(super::DEFAULT_MAX_CALL_MS));
        Self {
            engine,
            brains: BTreeMap::new(),
            versions: 0,
            nav: None,
            nav_generation: None,
            teleporters: None,
            stats: CallStats::default(),
            tick_budget: millis(super::DEFAULT_TICK_MS),
            tick: None,
            tick_cpu: Duration::ZERO,
        }
    }

    /// Shared, for the manager and the bots.
    pub fn shared(self) -> Scripts {
        Arc::new(Mutex::new(self))
    }

    /// Sets the operation budget per call (`bot_scriptMaxOps`).
    pub fn set_max_ops(&self, ops: u64) {
        self.engine.set_max_ops(ops);
    }

    /// Sets the time limit per call, ms of CPU time (`bot_scriptMaxMs`).
    pub fn set_max_call_ms(&self, ms: f32) {
        self.engine.set_max_time(millis(ms));
    }

    /// Sets the script time of a tick, ms of CPU time (`bot_scriptTickMs`).
    pub fn set_tick_ms(&mut self, ms: f32) {
        self.tick_budget = millis(ms);
    }

    /// Moves the accounts to `tick` (a tick other than the last starts
    /// with none of its script time spent).
    fn roll(&mut self, tick: u32) {
        if self.tick != Some(tick) {
            self.tick = Some(tick);
            self.tick_cpu = Duration::ZERO;
        }
    }

    /// Whether some of the script time of `tick` is left: a call may start.
    pub fn tick_time_left(&mut self, tick: u32) -> bool {
        self.roll(tick);
        self.tick_cpu < self.tick_budget
    }

    /// The CPU time scripts took in the last tick they ran in.
    pub fn tick_cpu(&self) -> Duration {
        self.tick_cpu
    }

    /// Charges a call's CPU time to `tick`: `cpu` in all, `own` of it
    /// charged to the call's limit (`over_time`: it was stopped there).
    pub fn charge(&mut self, tick: u32, cpu: Duration, own: Duration, over_time: bool) {
        self.roll(tick);
        self.tick_cpu += cpu;
        self.stats.cpu += cpu;
        self.stats.slowest_call = self.stats.slowest_call.max(own);
        self.stats.slowest_tick = self.stats.slowest_tick.max(self.tick_cpu);
        self.stats.over_time += u64::from(over_time);
    }

    /// Counts a period put off because the tick's script time was spent.
    pub fn count_deferred(&mut self) {
        self.stats.deferred += 1;
    }

    /// Compiles `brain` named `name` with `libs`; on failure the last good
    /// version stays.
    pub fn load_source(&mut self, name: &str, brain: &Source, libs: &[Source]) -> Result<(), ScriptError> {
        let program = self.engine.compile(brain, libs)?;
        self.versions += 1;
        self.brains.insert(name.to_ascii_lowercase(), Loaded { program, version: self.versions });
        Ok(())
    }

    /// Reads `botfiles/brains` under `botfiles`: the library first, then
    /// every brain. A missing folder loads nothing and is no error.
    pub fn load_dir(&mut self, botfiles: &Path) -> LoadReport {
        let dir = botfiles.join(BRAINS_DIR);
        let mut report = LoadReport::default();
        let mut libs = Vec::new();
        for (_, source) in read_folder(&dir.join(LIB_DIR), &mut report.errors) {
            libs.push(source);
        }
        for (name, source) in read_folder(&dir, &mut report.errors) {
            match self.load_source(&name, &source, &libs) {
                Ok(()) => report.loaded.push(name),
                Err(e) => report.errors.push(e),
            }
        }
        report
    }

    /// The brain named `name` (case-insensitive) and its version.
    pub fn get(&self, name: &str) -> Option<(Arc<dyn Program>, u64)> {
        self.brains.get(&name.to_ascii_lowercase()).map(|l| (Arc::clone(&l.program), l.version))
    }

    /// The names of the loaded brains, in order.
    pub fn names(&self) -> Vec<String> {
        self.brains.keys().cloned().collect()
    }

    /// Lends the navmesh built as `generation` (`None`: no mesh). The
    /// navigator is kept until the generation changes.
    pub fn offer_nav(&mut self, generation: Option<u64>, make: impl FnOnce() -> Option<Box<dyn Navigator + Send>>) {
        if generation == self.nav_generation && (generation.is_none() || self.nav.is_some()) {
            return;
        }
        self.nav_generation = generation;
        self.nav = if generation.is_some() { make() } else { None };
    }

    /// The teleporters of `map` (worked out once per map).
    pub fn teleporters(&mut self, map: &quarry_map::LoadedMap) -> Arc<[super::host::ScriptTeleporter]> {
        if let Some((name, t)) = &self.teleporters
            && name == map.name()
        {
            return Arc::clone(t);
        }
        let list: Arc<[super::host::ScriptTeleporter]> = quarry_nav::NavInput::from_map(map)
            .teleporters
            .iter()
            .enumerate()
            .map(|(i, t)| super::host::ScriptTeleporter {
                id: i as i64,
                entrance: glam::Vec3::new((t.bounds.0.x + t.bounds.1.x) / 2.0, (t.bounds.0.y + t.bounds.1.y) / 2.0, t.bounds.0.z),
                destination: t.destination,
            })
            .collect();
        self.teleporters = Some((map.name().to_owned(), Arc::clone(&list)));
        list
    }

    /// Counts one bot's period of `calls` calls that took `took`, `nav` of
    /// it in navmesh queries.
    pub fn record(&mut self, calls: u64, took: std::time::Duration, nav: std::time::Duration) {
        self.stats.nav += nav;
        self.stats.calls += calls;
        self.stats.periods += 1;
        self.stats.total += took;
        self.stats.slowest = self.stats.slowest.max(took);
    }

    /// The calls made so far.
    pub fn stats(&self) -> CallStats {
        self.stats
    }

    /// Takes the navigator for one call (give it back with [`Self::return_nav`]).
    pub fn take_nav(&mut self) -> Option<Box<dyn Navigator + Send>> {
        self.nav.take()
    }

    /// Gives back the navigator taken for a call.
    pub fn return_nav(&mut self, nav: Option<Box<dyn Navigator + Send>>) {
        if self.nav.is_none() {
            self.nav = nav;
        }
    }
}

/// `ms` milliseconds (negative or not a number: none; at most an hour).
fn millis(ms: f32) -> Duration {
    let ms = if ms.is_nan() { 0.0 } else { f64::from(ms).clamp(0.0, 3_600_000.0) };
    Duration::from_secs_f64(ms / 1000.0)
}

/// The `.rhai` files of `dir` (not its subfolders), by name, at most
/// [`MAX_BRAIN_FILES`] of at most [`MAX_SCRIPT_BYTES`] each; what cannot be
/// read becomes an error.
fn read_folder(dir: &Path, errors: &mut Vec<ScriptError>) -> Vec<(String, Source)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("rhai")))
        .collect();
    files.sort();
    if files.len() > MAX_BRAIN_FILES {
        errors.push(ScriptError::File {
            file: dir.display().to_string(),
            message: format!("{} script files; only the first {MAX_BRAIN_FILES} are read", files.len()),
        });
        files.truncate(MAX_BRAIN_FILES);
    }
    let mut out = Vec::new();
    for path in files {
        let shown = shown_name(&path);
        let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else { continue };
        match read_script(&path) {
            Ok(text) => out.push((stem, Source { name: shown, text })),
            Err(message) => errors.push(ScriptError::File { file: shown, message }),
        }
    }
    out
}

/// `brains/NAME.rhai` or `brains/lib/NAME.rhai`, as messages name a file.
fn shown_name(path: &Path) -> String {
    let parts: Vec<String> = path.iter().rev().take(3).map(|p| p.to_string_lossy().into_owned()).collect();
    let from = parts.iter().position(|p| p == BRAINS_DIR).map_or(0, |i| i);
    let mut parts: Vec<String> = parts.into_iter().take(from + 1).collect();
    parts.reverse();
    parts.join("/")
}

fn read_script(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_SCRIPT_BYTES {
        return Err(format!("{} bytes; a script may have at most {MAX_SCRIPT_BYTES}", meta.len()));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}
