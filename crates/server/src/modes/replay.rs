//! Replaying a recording: the match built again from the header (map and
//! config text into a scratch folder, the same seed and cvars, no network,
//! no bot brains), then before each tick the journal applied and the
//! recorded commands pushed into the same input queues, and every stored
//! state hash checked.
//!
//! A recording is a file from anywhere, so a replay takes from it only what
//! shapes play, and runs none of it as text: cvars flagged
//! [`quarry_console::CvarFlags::PLAY`] (and not secret) are set through the typed cvar API,
//! config files only under the names a recorder stores
//! ([`crate::recording::CONFIG_FILES`]), the map as the scratch folder's one
//! map. Anything else the file names is refused and listed. The replay's
//! server reads no `QUARRY_*` environment either, so it writes nothing: no
//! game log, no recording, no health file, no archive.

use std::path::{Path, PathBuf};

use quarry_console::CvarSet;
use quarry_record::{ClientInfo, HashCheck, JournalEntry, Recording, TickRecord};
use quarry_sim::slots::ClientKind;
use quarry_sim::slots::SlotState;
use quarry_sim::{Match, SlotId, Team, UserInfo};

use crate::cli::PlusCommand;
use crate::server::{Server, ServerOptions};

/// How to replay.
#[derive(Debug, Clone, Default)]
pub struct ReplayOptions {
    /// Replay a recording made by another sim version anyway.
    pub force: bool,
    /// Where to find the map of a recording that stores only its hash
    /// (`sv_recordMapByHash`).
    pub maps_dir: Option<PathBuf>,
}

/// Why a replay stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] quarry_record::RecordError),
    /// Recorded by another version of the sim.
    #[error("{path}: recorded by sim version {recorded}; this is {running} (the same inputs may play differently; --force replays anyway)")]
    Version {
        /// The file.
        path: String,
        /// The recording's.
        recorded: String,
        /// This build's.
        running: String,
    },
    /// The match could not be built again.
    #[error("{0}")]
    Setup(String),
    /// The replay diverged from the recording.
    #[error("diverged at tick {tick}: state hash {replayed:016x}, recorded {recorded:016x}; the first step that differs is '{step}'")]
    Diverged {
        /// The first tick whose stored hash differs.
        tick: u32,
        /// The first hash step that differs.
        step: String,
        /// The replay's hash.
        replayed: u64,
        /// The recording's.
        recorded: u64,
    },
    /// A journal entry could not be applied.
    #[error("tick {tick}: {message}")]
    Journal {
        /// The tick.
        tick: u32,
        /// What failed.
        message: String,
    },
}

/// Replays `path`: returns the server after the last tick (its match for
/// the summary), the ticks replayed, and the recording.
pub fn replay(path: &Path, options: &ReplayOptions) -> Result<(Server, u32, Recording), ReplayError> {
    let rec = open(path, options)?;
    let scratch = scratch()?;
    let mut server = build(&rec, scratch.path(), options.maps_dir.as_deref())?;
    let mut ticks = 0;
    for t in rec.ticks() {
        step(&mut server, &t?)?;
        ticks += 1;
    }
    if let (Some(footer), Some(game)) = (&rec.footer, server.state.game.running.as_ref())
        && footer.final_hash != game.state_hash()
    {
        return Err(ReplayError::Diverged { tick: game.tick(), step: "final".to_owned(), replayed: game.state_hash(), recorded: footer.final_hash });
    }
    Ok((server, ticks, rec))
}

/// Reads `path` and refuses a recording by another sim version unless
/// `options.force`.
pub fn open(path: &Path, options: &ReplayOptions) -> Result<Recording, ReplayError> {
    let rec = quarry_record::read(path)?;
    let shown = path.display().to_string();
    if rec.header.sim_version != crate::recording::SIM_VERSION && !options.force {
        return Err(ReplayError::Version { path: shown, recorded: rec.header.sim_version.clone(), running: crate::recording::SIM_VERSION.to_owned() });
    }
    if let Some(cut) = &rec.cut {
        tracing::warn!("{shown}: {cut}; replaying the {} ticks it holds", rec.tick_count());
    }
    Ok(rec)
}

/// A scratch folder for the map and config files of a replay.
pub fn scratch() -> Result<tempfile::TempDir, ReplayError> {
    tempfile::tempdir().map_err(|e| ReplayError::Setup(format!("a scratch folder: {e}")))
}

/// One recorded tick: its journal and commands applied, the server
/// stepped, its stored hash (if any) checked.
pub fn step(server: &mut Server, t: &TickRecord) -> Result<(), ReplayError> {
    apply(server, t)?;
    server.tick();
    if let Some(check) = &t.hash {
        verify(server, t.tick, check)?;
    }
    Ok(())
}

/// The server and match of the header: map and config files written into
/// `scratch`, the recorded cvars, the seed; bots never fill in.
pub fn build(rec: &Recording, scratch: &Path, maps_dir: Option<&Path>) -> Result<Server, ReplayError> {
    let h = &rec.header;
    let setup = |what: &str, e: std::io::Error| ReplayError::Setup(format!("{what}: {e}"));
    let config = scratch.join("config");
    let maps = scratch.join("maps");
    std::fs::create_dir_all(&config).map_err(|e| setup("config folder", e))?;
    std::fs::create_dir_all(&maps).map_err(|e| setup("maps folder", e))?;
    // The settings come from the recording, not a server.cfg.
    std::fs::write(config.join("server.cfg"), "// a replay: the recording's cvars are set through the cvar API\n").map_err(|e| setup("server.cfg", e))?;
    let mut refused = Vec::new();
    for (name, text) in &h.config {
        // Only the files a recorder stores: a recording never supplies a
        // config to run, nor writes outside the scratch folder.
        if crate::recording::CONFIG_FILES.contains(&name.as_str()) {
            std::fs::write(config.join(name), text).map_err(|e| setup(name, e))?;
        } else {
            refused.push(format!("config file '{}'", shown_name(name)));
        }
    }
    let map_file = plain_map_name(&h.map_name)?;
    let stored;
    let map_text = match h.map_text.as_deref() {
        Some(text) => text,
        None => {
            stored = map_by_hash(&map_file, h.map_hash, maps_dir)?;
            &stored
        }
    };
    std::fs::write(maps.join(format!("{map_file}.map")), map_text).map_err(|e| setup("map", e))?;
    let options = ServerOptions { config_dir: config, port: None, fast: true, maps_dir: maps, seed: Some(h.seed), botfiles_dir: None };
    let mut server = Server::new(&options).map_err(|e| ReplayError::Setup(format!("{e:#}")))?;
    for (name, value) in &h.cvars {
        if let Err(why) = set_play_cvar(server.console.cvars_mut(), name, value) {
            refused.push(why);
        }
    }
    if !refused.is_empty() {
        tracing::warn!("replay: not taken from the recording (a replay sets only cvars that shape play and the config files {}): {}", crate::recording::CONFIG_FILES.join(", "), refused.join(", "));
    }
    let mut plus: Vec<PlusCommand> = ["bot_minPlayers", "bot_maxBots"].iter().map(|name| PlusCommand { name: "set".into(), args: vec![(*name).into(), "0".into()] }).collect();
    plus.push(PlusCommand { name: "map".into(), args: vec![map_file] });
    // Warmup and intermission as the original had them: a headless match
    // skips both, a live one follows its cvars.
    server.state.game.headless = h.headless;
    server.startup_without_environment(&plus);
    if let Some(e) = server.state.startup_error.as_deref() {
        return Err(ReplayError::Setup(e.to_owned()));
    }
    let game = server.state.game.running.as_ref().ok_or_else(|| ReplayError::Setup("no match was started".to_owned()))?;
    if game.seed() != h.seed || game.hz() != h.hz {
        return Err(ReplayError::Setup(format!("the match was built with seed {} at {} Hz; the recording's is seed {} at {} Hz", game.seed(), game.hz(), h.seed, h.hz)));
    }
    let game = server.state.game.running.as_mut().ok_or_else(|| ReplayError::Setup("no match was started".to_owned()))?;
    for s in &h.start_slots {
        let fail = |message: String| ReplayError::Setup(format!("the client {} the match started with: {message}", s.client.name));
        let team = Team::parse(&s.team).ok_or_else(|| fail(format!("unknown team '{}'", s.team)))?;
        let id = occupy(game, s.slot, &s.client).map_err(fail)?;
        if let Some(slot) = game.slots_mut().get_mut(id) {
            slot.state = if s.in_game { SlotState::InGame } else { SlotState::Connecting };
            slot.team = team;
        }
    }
    game.seat_carried_over();
    Ok(server)
}

/// The map of a recording that stores only its hash: `name.map` in
/// `maps_dir`, whose text must have the recorded hash.
fn map_by_hash(name: &str, hash: u64, maps_dir: Option<&Path>) -> Result<String, ReplayError> {
    let dir = maps_dir.ok_or_else(|| ReplayError::Setup(format!("the map {name} was recorded by its hash only; give the maps folder that has it (--maps DIR)")))?;
    let path = dir.join(format!("{name}.map"));
    let text = std::fs::read_to_string(&path).map_err(|e| ReplayError::Setup(format!("the map {name} was recorded by its hash only and {} can't be read: {e}", path.display())))?;
    let found = crate::recording::fnv1a(text.as_bytes());
    if found != hash {
        return Err(ReplayError::Setup(format!("{} is not the recorded map: its hash is {found:016x}, the recording's {hash:016x}", path.display())));
    }
    Ok(text)
}

/// Puts `client` in `slot` as the recording has it: its kind, name and
/// the tick it connected.
fn occupy(game: &mut Match, slot: u8, client: &ClientInfo) -> Result<SlotId, String> {
    let kind = client.latency_ms.map_or(ClientKind::Bot, |ms| ClientKind::Remote { latency_ms: ms });
    let info = UserInfo {
        name: client.name.clone(),
        model: client.model.clone(),
        team_pref: client.team_pref.as_deref().and_then(Team::parse),
        handicap: u8::try_from(client.handicap).unwrap_or(100),
    };
    let id = game.slots_mut().allocate_in(SlotId(slot), kind, info, client.joined_tick).map_err(|e| e.to_string())?;
    if let Some(s) = game.slots_mut().get(id)
        && s.userinfo.name != client.name
    {
        return Err(format!("took the name {} in the replay", s.userinfo.name));
    }
    Ok(id)
}

/// Sets the recorded cvar `name` to `value` if it shapes play and is no
/// secret (the value as the match had it: latch and cheat rules were the
/// recording server's, type and range are still checked); otherwise says
/// what was refused.
fn set_play_cvar(cvars: &mut CvarSet, name: &str, value: &str) -> Result<(), String> {
    let shown = shown_name(name);
    let Some(id) = cvars.id(name).filter(|id| crate::recording::recorded(cvars.get(*id).def.flags)) else {
        return Err(format!("cvar '{shown}'"));
    };
    cvars.force_set(id, value).map(|_| ()).map_err(|e| format!("cvar '{shown}' ({e})"))
}

/// A name from a recording as it is shown: at most 64 characters, control
/// characters escaped.
fn shown_name(name: &str) -> String {
    let mut out: String = name.chars().take(64).flat_map(char::escape_debug).collect();
    if name.chars().count() > 64 {
        out.push('…');
    }
    out
}

/// The map's file name: the recorded name's last part, plain.
pub fn plain_map_name(name: &str) -> Result<String, ReplayError> {
    let base = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if base.is_empty() || base.starts_with('.') {
        return Err(ReplayError::Setup(format!("map name '{name}' gives no file name")));
    }
    Ok(base)
}

/// The journal of `t`, then its commands.
fn apply(server: &mut Server, t: &TickRecord) -> Result<(), ReplayError> {
    let fail = |message: String| ReplayError::Journal { tick: t.tick, message };
    for entry in &t.journal {
        if let JournalEntry::Cvar { name, value } = entry {
            if let Err(why) = set_play_cvar(server.console.cvars_mut(), name, value) {
                tracing::warn!("replay: tick {}: not taken from the recording (a replay sets only cvars that shape play): {why}", t.tick);
            }
            continue;
        }
        let game = server.state.game.running.as_mut().ok_or_else(|| fail("no match".to_owned()))?;
        match entry {
            JournalEntry::Join { slot, client } => {
                // A client that entered the game just before the recording
                // started (a `+addbot` on a headless run's command line) is
                // in the game already: its join is the first tick's event.
                let here = game.slots().get(SlotId(*slot)).filter(|s| s.userinfo.name == client.name);
                if here.is_some_and(|s| s.state == SlotState::InGame) {
                    continue;
                }
                // A client still loading when the match started is in its
                // slot already; anyone else connects now.
                let waiting = here.is_some();
                let id = if waiting { SlotId(*slot) } else { occupy(game, *slot, client).map_err(|e| fail(format!("join of {}: {e}", client.name)))? };
                game.enter_game(id).map_err(|e| fail(format!("{} entering: {e}", client.name)))?;
            }
            JournalEntry::Leave { slot } => {
                game.disconnect(SlotId(*slot));
            }
            JournalEntry::Team { slot, team } => {
                let to = Team::parse(team).ok_or_else(|| fail(format!("unknown team '{team}'")))?;
                game.set_team(SlotId(*slot), to).map_err(|e| fail(format!("slot {slot} to {team}: {e}")))?;
            }
            JournalEntry::Latency { slot, ms } => {
                if let Some(s) = game.slots_mut().get_mut(SlotId(*slot)) {
                    s.kind = ClientKind::Remote { latency_ms: *ms };
                }
            }
            JournalEntry::Attach { slot, to } => {
                game.attach(SlotId(*slot), to.map(SlotId)).map_err(|e| fail(format!("slot {slot} attached to {to:?}: {e}")))?;
            }
            JournalEntry::Cvar { .. } => {}
        }
    }
    let game = server.state.game.running.as_mut().ok_or_else(|| fail("no match".to_owned()))?;
    for (slot, cmd) in &t.cmds {
        game.push_cmd(SlotId(*slot), *cmd).map_err(|e| fail(format!("a command for slot {slot}: {e}")))?;
    }
    Ok(())
}

/// The stored hash against the replay's, naming the first step that differs.
fn verify(server: &Server, tick: u32, check: &HashCheck) -> Result<(), ReplayError> {
    let Some(game) = server.state.game.running.as_ref() else { return Ok(()) };
    if game.tick() != tick {
        return Err(ReplayError::Diverged { tick, step: format!("tick count (the replay is at tick {})", game.tick()), replayed: game.state_hash(), recorded: check.value });
    }
    if game.state_hash() == check.value {
        return Ok(());
    }
    let mine = game.hash_steps();
    let step = check
        .steps
        .iter()
        .zip(&mine)
        .find(|((rn, rh), (mn, mh))| rh != mh || rn != mn)
        .map_or_else(|| "unknown".to_owned(), |((rn, _), _)| rn.clone());
    Err(ReplayError::Diverged { tick, step, replayed: game.state_hash(), recorded: check.value })
}

