//! `sv_record 1`: a server records every match into `sv_recordDir`, one
//! file per match named by its start time (UTC), map and game type
//! (`20261203-114500-q_dm1-tdm.qdemo`). A recording ends with its match
//! (the summary goes in the footer), at a map change, at shutdown, when
//! `sv_record` is turned off, or at the size cap (`sv_recordMaxMB`); then
//! the oldest recordings beyond `sv_recordKeep` are deleted.

use std::path::{Path, PathBuf};

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_sim::Match;
use quarry_sim::events::GameEvent;

use super::{MatchSource, Recorder};
use crate::feature::{MatchView, Observer, TickReport};
use crate::headless::HeadlessSummary;

/// A recording's file extension.
pub const EXTENSION: &str = "qdemo";

/// Handles to the recording cvars.
#[derive(Debug, Clone, Copy)]
struct DemoCvars {
    record: CvarId,
    dir: CvarId,
    max_mb: CvarId,
    keep: CvarId,
    map_by_hash: CvarId,
}

/// The recording of the running match.
#[derive(Debug)]
struct Current {
    recorder: Recorder,
    path: PathBuf,
    match_no: u64,
}

/// `sv_record`: the live recording of each match.
#[derive(Debug)]
pub struct Demos {
    cvars: DemoCvars,
    current: Option<Current>,
    /// A match whose recording ended early (cap, error): not started again.
    given_up: Option<u64>,
}

impl Demos {
    /// Registers the recording cvars.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let a = CvarFlags::ARCHIVE;
        let cvars = DemoCvars {
            record: console.register_cvar(CvarDef::bool("sv_record", false, "record every match into sv_recordDir, from the next match that starts (replay one with quarry-server replay FILE)").flags(a))?,
            dir: console.register_cvar(CvarDef::string("sv_recordDir", "demos", "folder the recordings go in (made if missing)").flags(a))?,
            max_mb: console.register_cvar(CvarDef::int("sv_recordMaxMB", 100, 1, 4096, "a recording that reaches this size (MB) ends there; its match goes on unrecorded").flags(a))?,
            keep: console.register_cvar(CvarDef::int("sv_recordKeep", 200, 0, 100_000, "recordings kept in sv_recordDir: the oldest beyond this are deleted; 0 = keep all").flags(a))?,
            map_by_hash: console.register_cvar(
                CvarDef::bool("sv_recordMapByHash", false, "store only the map's name and hash in a recording, not its text (a replay then needs the same map file in --maps)").flags(a),
            )?,
        };
        Ok(Self { cvars, current: None, given_up: None })
    }

    /// Whether `sv_recordMapByHash` is on.
    pub fn map_by_hash(&self, cvars: &CvarSet) -> bool {
        cvars.bool(self.cvars.map_by_hash)
    }

    /// The file being written, if any.
    pub fn current_path(&self) -> Option<&Path> {
        self.current.as_ref().map(|c| c.path.as_path())
    }

    /// Before a tick: ends the recording of a match that is gone (a map
    /// change) or when `sv_record` went off, and starts one for a match
    /// that has none. The botfiles are hashed into the header.
    fn start_or_stop(&mut self, view: &MatchView<'_>) {
        let cvars = view.cvars;
        let on = cvars.bool(self.cvars.record);
        let match_no = view.matches_started;
        if self.current.as_ref().is_some_and(|c| c.match_no != match_no || !on) {
            self.finish(None, if on { "the match ended without a result (map change)" } else { "sv_record was turned off" }, cvars);
        }
        let Some(game) = view.game else { return };
        if !on || self.current.is_some() || self.given_up == Some(match_no) || game.tick() != 0 {
            return;
        }
        match self.start(view, game) {
            Ok(current) => {
                tracing::info!("recording this match into {}", current.path.display());
                self.current = Some(current);
            }
            Err(e) => {
                tracing::error!("sv_record: couldn't record this match: {e}");
                self.given_up = Some(match_no);
            }
        }
    }

    fn start(&self, view: &MatchView<'_>, game: &Match) -> Result<Current, String> {
        let cvars = view.cvars;
        let dir = PathBuf::from(cvars.string(self.cvars.dir));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = free_name(&dir, &crate::utc::file_stem(crate::utc::now_ms(), view.map_name, game.rules().gametype.name()));
        let map_path = view.map_path.ok_or("the match has no map file")?;
        let map_text = std::fs::read_to_string(map_path).map_err(|e| format!("{}: {e}", map_path.display()))?;
        let content = view.bots.botfiles_dir().map(|b| vec![("botfiles".to_owned(), super::fnv1a(&super::folder_bytes(b)))]).unwrap_or_default();
        let source = MatchSource { map_text: &map_text, map_by_hash: self.map_by_hash(cvars), headless: view.headless, config_dir: view.config_dir, content };
        let recorder = Recorder::start(&path, game, source, cvars).map_err(|e| e.to_string())?;
        Ok(Current { recorder, path, match_no: view.matches_started })
    }

    /// After a tick: records it; ends the recording at the size cap.
    fn record_tick(&mut self, game: &Match, events: &[GameEvent], cvars: &CvarSet) {
        let Some(current) = self.current.as_mut() else { return };
        current.recorder.record_tick(game, events, cvars);
        let cap = u64::try_from(cvars.int(self.cvars.max_mb)).unwrap_or(100).saturating_mul(1024 * 1024);
        if current.recorder.bytes() >= cap {
            let match_no = current.match_no;
            self.finish(None, "it reached sv_recordMaxMB; the rest of the match is not recorded", cvars);
            self.given_up = Some(match_no);
        } else if let Some(why) = current.recorder.stopped() {
            tracing::error!("sv_record: the recording stopped: {why}");
            let match_no = current.match_no;
            self.current = None;
            self.given_up = Some(match_no);
        }
    }

    /// Ends the running recording, if any, with the match's `summary`
    /// (`None` when it has none), then deletes the oldest beyond
    /// `sv_recordKeep`.
    pub fn finish(&mut self, summary: Option<&HeadlessSummary>, why: &str, cvars: &CvarSet) {
        let Some(current) = self.current.take() else { return };
        match current.recorder.finish(summary) {
            Ok(bytes) => tracing::info!("recording {} written ({bytes} bytes): {why}", current.path.display()),
            Err(e) => tracing::error!("sv_record: {e}"),
        }
        let keep = usize::try_from(cvars.int(self.cvars.keep)).unwrap_or(0);
        if let Some(dir) = current.path.parent() {
            prune(dir, keep);
        }
    }
}

impl Observer for Demos {
    fn before_tick(&mut self, view: &MatchView<'_>) {
        self.start_or_stop(view);
    }

    fn after_tick(&mut self, report: &TickReport<'_>) {
        if let Some(game) = report.view.game {
            self.record_tick(game, report.events, report.view.cvars);
        }
    }

    fn match_over(&mut self, view: &MatchView<'_>, summary: Option<&HeadlessSummary>) {
        self.finish(summary, "match over", view.cvars);
    }

    fn shutdown(&mut self, view: &MatchView<'_>, summary: Option<&HeadlessSummary>, reason: &str) {
        self.finish(summary, &format!("the server shut down ({reason})"), view.cvars);
    }
}

/// `dir/stem.qdemo`, or `dir/stem-2.qdemo`... if taken.
fn free_name(dir: &Path, stem: &str) -> PathBuf {
    let taken = |p: &Path| p.exists() || p.with_extension(format!("{EXTENSION}.part")).exists();
    let first = dir.join(format!("{stem}.{EXTENSION}"));
    if !taken(&first) {
        return first;
    }
    (2..1000).map(|n| dir.join(format!("{stem}-{n}.{EXTENSION}"))).find(|p| !taken(p)).unwrap_or(first)
}

/// Deletes the oldest finished recordings in `dir` (by name, which starts
/// with the start time) beyond `keep`; 0 keeps all. Files cut by a crash
/// (`.qdemo.part`) are left for the operator.
fn prune(dir: &Path, keep: usize) {
    if keep == 0 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file() && p.extension().is_some_and(|x| x == EXTENSION)).collect();
    if files.len() <= keep {
        return;
    }
    files.sort();
    for old in &files[..files.len() - keep] {
        match std::fs::remove_file(old) {
            Ok(()) => tracing::info!("sv_recordKeep {keep}: deleted the old recording {}", old.display()),
            Err(e) => tracing::warn!("sv_recordKeep: couldn't delete {}: {e}", old.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_gets_a_number() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = free_name(dir.path(), "a");
        assert_eq!(first, dir.path().join("a.qdemo"));
        std::fs::write(&first, b"x").expect("write");
        assert_eq!(free_name(dir.path(), "a"), dir.path().join("a-2.qdemo"));
    }

    #[test]
    fn pruning_keeps_the_newest_and_leaves_other_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in ["20260101-000000-a-ffa.qdemo", "20260102-000000-a-ffa.qdemo", "20260103-000000-a-ffa.qdemo", "20260104-000000-a-ffa.qdemo.part", "notes.txt"] {
            std::fs::write(dir.path().join(name), b"x").expect("write");
        }
        prune(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path()).expect("dir").filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        left.sort();
        assert_eq!(left, ["20260102-000000-a-ffa.qdemo", "20260103-000000-a-ffa.qdemo", "20260104-000000-a-ffa.qdemo.part", "notes.txt"]);
        prune(dir.path(), 0);
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 4, "0 keeps all");
    }
}
