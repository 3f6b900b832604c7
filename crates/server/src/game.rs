//! The server's side of the match: loading maps into a new [`Match`],
//! keeping every client's slot across map changes, feeding live cvars into
//! the simulation each tick, turning match events into console lines, and
//! rotating maps when a match ends. No game rules live here.

use std::path::{Path, PathBuf};
use std::time::Instant;

use quarry_console::CvarSet;
use quarry_sim::events::GameEvent;
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, SimCvars};

/// Why a map could not be started.
#[derive(Debug, thiserror::Error)]
pub enum MapChangeError {
    /// The name has characters a map name may not have.
    #[error("'{0}' is not a map name (letters, digits, '_', '-', '.'; or give a path to a .map file)")]
    BadName(String),
    /// Loading failed.
    #[error(transparent)]
    Load(#[from] quarry_map::MapLoadError),
    /// The map loaded but cannot host a match.
    #[error("{map} can't host a match: {reason}")]
    NotPlayable {
        /// Map path.
        map: String,
        /// Why.
        reason: quarry_map::NotPlayable,
    },
    /// The simulation refused it.
    #[error(transparent)]
    Match(#[from] quarry_sim::MatchError),
}

/// Finds a map: a bare name is `maps_dir/NAME.map`; anything with a path
/// separator or a `.map` extension is a path as given.
pub fn resolve_map(maps_dir: &Path, arg: &str) -> Result<PathBuf, MapChangeError> {
    if arg.contains(['/', '\\']) || arg.ends_with(".map") {
        return Ok(PathBuf::from(arg));
    }
    if arg.is_empty() || !arg.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) {
        return Err(MapChangeError::BadName(arg.to_owned()));
    }
    Ok(maps_dir.join(format!("{arg}.map")))
}

/// The match the server runs and what it needs to start the next one.
pub struct GameHost {
    /// The simulation's cvars.
    pub cvars: SimCvars,
    /// Weapon and item tables, loaded once at startup.
    pub data: GameData,
    /// The running match, once a map is loaded.
    pub running: Option<Match>,
    /// Path of the running map.
    pub map_path: Option<PathBuf>,
    /// The running map's file, hashed and compressed for clients to
    /// download (made once per load; none in a headless run, which has no
    /// clients, or when the file could not be compressed).
    pub map_offer: Option<std::sync::Arc<quarry_net::map_transfer::MapOffer>>,
    /// Where bare map names are looked up.
    pub maps_dir: PathBuf,
    /// `--seed`: every match's seed derives from it; otherwise from the clock.
    pub base_seed: Option<u64>,
    /// Matches started, for seed derivation.
    pub matches_started: u64,
    /// Headless (`--fast`): no warmup, the process ends with the match.
    pub headless: bool,
    /// The game log (`sv_gameLog`): every match's story for stats tools.
    pub log: crate::game_log::GameLog,
    settings_generation: u64,
}

impl GameHost {
    /// A host with no match yet.
    pub fn new(cvars: SimCvars, data: GameData, maps_dir: PathBuf, base_seed: Option<u64>, headless: bool, log: crate::game_log::GameLog) -> Self {
        Self {
            log,
            cvars,
            data,
            running: None,
            map_path: None,
            map_offer: None,
            maps_dir,
            base_seed,
            matches_started: 0,
            headless,
            settings_generation: u64::MAX,
        }
    }

    fn next_seed(&mut self) -> u64 {
        let n = self.matches_started;
        self.matches_started += 1;
        match self.base_seed {
            // A headless run plays one match (the last map loaded at startup)
            // and the first match of a server uses the seed as given, so the
            // seed in a summary replays it.
            Some(s) if n == 0 || self.headless => s,
            Some(s) => splitmix64(s.wrapping_add(n)),
            None => {
                let nanos = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(0);
                splitmix64(nanos ^ n)
            }
        }
    }

    /// Loads `arg` and starts a new match on it; every connected client
    /// keeps its slot and re-enters. Latched cvars take effect here. On
    /// failure the running match is untouched.
    pub fn change_map(&mut self, cvars: &mut CvarSet, arg: &str, hz: u32) -> Result<String, MapChangeError> {
        let path = resolve_map(&self.maps_dir, arg)?;
        let started = Instant::now();
        let (map, bytes) = quarry_map::load_with_bytes(&path, &quarry_map::LoadOptions::default())?;
        map.check_playable()
            .map_err(|reason| MapChangeError::NotPlayable { map: path.display().to_string(), reason })?;
        let latched = cvars.apply_latched();
        let settings = self.settings(cvars);
        // Checked before the running match is taken apart, so a refused map
        // change leaves it (and every client's slot) untouched.
        Match::check_hostable(&map, settings.gametype)?;
        let maxclients = usize::try_from(cvars.int(self.cvars.maxclients)).unwrap_or(16);
        self.sync_log(cvars);
        if let Some(old) = &self.running {
            self.log.match_interrupted(old, "map change");
        }
        let mut slots = self.running.take().map_or_else(|| Slots::new(maxclients), Match::into_slots);
        slots.set_max(maxclients);
        let seed = self.next_seed();
        let title = map.world_info().message.clone().unwrap_or_default();
        let game = Match::new(map, &self.data, settings, seed, slots, hz)?;
        self.map_path = Some(path.clone());
        self.map_offer = self.offer(&bytes);
        self.log.match_started(&game, &self.map_name());
        self.running = Some(game);
        self.settings_generation = cvars.generation();
        let mut line = format!(
            "map {} loaded in {:.1} ms{} (seed {seed})",
            path.display(),
            started.elapsed().as_secs_f64() * 1000.0,
            if title.is_empty() { String::new() } else { format!(": \"{title}\"") }
        );
        if !latched.is_empty() {
            line.push_str(&format!("; applied latched {}", latched.join(", ")));
        }
        Ok(line)
    }

    /// The running map's file as clients download it; `None` headless or
    /// when it cannot be offered (logged: clients are then told so).
    fn offer(&self, bytes: &[u8]) -> Option<std::sync::Arc<quarry_net::map_transfer::MapOffer>> {
        if self.headless {
            return None;
        }
        match quarry_net::map_transfer::MapOffer::new(self.map_name(), bytes) {
            Ok(offer) => Some(std::sync::Arc::new(offer)),
            Err(e) => {
                tracing::warn!("{}: clients cannot download this map: {e}", self.map_name());
                None
            }
        }
    }

    fn settings(&self, cvars: &CvarSet) -> quarry_sim::Settings {
        let mut s = self.cvars.read(cvars);
        if self.headless {
            // Nobody to wait for: the match is live from the first tick, and
            // nobody watches a scoreboard at the end.
            s.warmup = false;
            s.intermission_s = 0.0;
        }
        s
    }

    /// Restarts the running map (same file, new seed).
    pub fn restart(&mut self, cvars: &mut CvarSet, hz: u32) -> Result<String, MapChangeError> {
        let Some(path) = self.map_path.clone() else {
            return Err(MapChangeError::BadName(String::new()));
        };
        self.change_map(cvars, &path.to_string_lossy(), hz)
    }

    /// The running map's short name (file stem), for clients.
    pub fn map_name(&self) -> String {
        self.map_path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Opens, moves or closes the game log when its cvars changed.
    fn sync_log(&mut self, cvars: &CvarSet) {
        if !self.log.changed(cvars) {
            return;
        }
        let hostname = cvars.find("sv_hostname").map(|c| c.value().to_string()).unwrap_or_default();
        let map = self.map_name();
        self.log.sync(cvars, self.running.as_ref().map(|g| (g, map.as_str())), &hostname);
    }

    /// Steps the match one tick with live settings; returns console lines
    /// for what happened (chat, server prints, phase changes) and the
    /// events, which the game log records (`address_of` gives a remote
    /// client's address pseudonym).
    pub fn tick(&mut self, cvars: &CvarSet, hz: u32, address_of: crate::game_log::narrator::AddressOf<'_>) -> (Vec<String>, Vec<GameEvent>) {
        self.sync_log(cvars);
        if self.running.is_none() {
            return (Vec::new(), Vec::new());
        }
        let generation = cvars.generation();
        let refresh = generation != self.settings_generation;
        let settings = refresh.then(|| self.settings(cvars));
        let Some(game) = self.running.as_mut() else { return (Vec::new(), Vec::new()) };
        if let Some(s) = settings {
            game.set_settings(s);
            game.set_hz(hz);
            self.settings_generation = generation;
        }
        game.step();
        let events = game.events();
        let mut lines = Vec::new();
        for ev in events.iter().cloned() {
            match ev {
                GameEvent::Chat { from, name, scope, text } => {
                    let name = if from.is_some() { name } else { "console".to_owned() };
                    let team = match scope {
                        quarry_sim::chat::ChatScope::All => String::new(),
                        quarry_sim::chat::ChatScope::Team(t) => format!("({}) ", t.name()),
                    };
                    lines.push(format!("{team}{name}: {text}"));
                }
                GameEvent::Print { to: None, text } => lines.push(text),
                GameEvent::Kill { killer, victim, means } => lines.push(game.obituary(killer, victim, means)),
                GameEvent::Phase { phase } => lines.push(format!("match {}", phase.name())),
                GameEvent::Flag { kind, team, slot } => {
                    let who = slot.and_then(|s| game.slots().get(s)).map(|s| s.userinfo.name.clone());
                    lines.push(quarry_sim::flags::flag_line(kind, team, who.as_deref()));
                }
                GameEvent::Frozen { .. } | GameEvent::Thawed { .. } => {
                    if let Some(line) = quarry_sim::modes::freeze::freeze_line(&ev, game.slots()) {
                        lines.push(line);
                    }
                }
                GameEvent::RoundStart { number } => lines.push(format!("Round {number}: fight!")),
                GameEvent::RoundEnd { number, winner, reason } => {
                    lines.push(quarry_sim::modes::rounds::round_end_line(number, winner, reason));
                }
                _ => {}
            }
        }
        self.log.events(game, &events, address_of);
        (lines, events)
    }

    /// Whether the running match has finished.
    pub fn match_over(&self) -> bool {
        self.running.as_ref().is_some_and(|g| g.phase() == quarry_sim::rules::Phase::Over)
    }

    /// Whether a headless match has waited for its players as long as its
    /// time limit and is still not live: a duel with one player, which a
    /// missing opponent would forfeit, goes live only with both in, and
    /// nobody else is coming. The run ends rather than wait for ever.
    pub fn never_started(&self) -> bool {
        let Some(game) = self.running.as_ref().filter(|_| self.headless) else { return false };
        let limit_s = f64::from(game.settings().timelimit_min) * 60.0;
        let waiting = matches!(game.phase(), quarry_sim::rules::Phase::Warmup | quarry_sim::rules::Phase::Countdown { .. });
        waiting && limit_s > 0.0 && f64::from(game.tick()) >= limit_s * f64::from(game.hz())
    }

    /// One line about the map for `status`.
    pub fn describe(&self) -> String {
        match (&self.running, &self.map_path) {
            (Some(g), Some(p)) => format!(
                "{} ({}, {}, tick {}, seed {})",
                p.display(),
                g.rules().gametype.name(),
                g.phase().name(),
                g.tick(),
                g.seed()
            ),
            _ => "none loaded (map NAME loads one)".to_owned(),
        }
    }
}

/// The map after `current` in a whitespace-separated rotation (wrapping),
/// or the first one when `current` is not in it; `None` for an empty rotation.
pub fn next_in_rotation(rotation: &str, current: Option<&Path>) -> Option<String> {
    let maps: Vec<&str> = rotation.split_whitespace().collect();
    let stem = |m: &str| Path::new(m).file_stem().map(|s| s.to_string_lossy().to_lowercase());
    let current = current.and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().to_lowercase());
    let pos = maps.iter().position(|m| stem(m) == current);
    let next = match pos {
        Some(i) => maps.get((i + 1) % maps.len()),
        None => maps.first(),
    };
    next.map(|s| (*s).to_owned())
}

/// A 64-bit mix (SplitMix64) so nearby seeds give unrelated matches.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_names_and_paths() {
        let dir = Path::new("maps");
        assert_eq!(resolve_map(dir, "q_dm1").ok(), Some(PathBuf::from("maps/q_dm1.map")));
        assert_eq!(resolve_map(dir, "../shared/maps/q3/oacmpdm8.map").ok(), Some(PathBuf::from("../shared/maps/q3/oacmpdm8.map")));
        assert_eq!(resolve_map(dir, "x.map").ok(), Some(PathBuf::from("x.map")));
        assert!(resolve_map(dir, "bad name").is_err());
        assert!(resolve_map(dir, "").is_err());
    }

    #[test]
    fn rotation_cycles() {
        let r = "q_dm1 q_duel1 ../x/q_ctf1.map";
        assert_eq!(next_in_rotation(r, Some(Path::new("maps/q_dm1.map"))).as_deref(), Some("q_duel1"));
        assert_eq!(next_in_rotation(r, Some(Path::new("/y/q_ctf1.map"))).as_deref(), Some("q_dm1"));
        assert_eq!(next_in_rotation(r, Some(Path::new("other.map"))).as_deref(), Some("q_dm1"));
        assert_eq!(next_in_rotation("  ", None), None);
    }

    #[test]
    fn seeds_differ_per_match() {
        assert_ne!(splitmix64(1), splitmix64(2));
        assert_eq!(splitmix64(7), splitmix64(7));
    }
}
