//! The game log: one JSON object per line for stats tools, as Quake 3's
//! `games.log` and Quake Live's stats stream are read. `sv_gameLog FILE`
//! turns it on; it records match starts (map, game type, settings), connects
//! and disconnects (with a salted address hash), team changes, kills (killer,
//! victim, means, weapon, positions, distance), damage summaries, flag and
//! round events, chat, the operator's commands (secrets hidden) and each
//! match's end with the full scoreboard, each line of which carries the
//! player's bot flag and accuracy per weapon and range band (shots, hits,
//! splash hits, damage: `quarry_sim::accuracy`), so an operator's own logs
//! can set bots' aim beside people's.
//!
//! The tick thread turns events into lines ([`narrator`]); a writer thread
//! ([`writer`]) serialises and appends them, so the tick never waits on the
//! disk. A graceful shutdown records the running match's end (reason
//! `shutdown`) and waits for the writer to finish, so the file is complete.
//! The file rotates at each match (`sv_gameLogRotate match`) or only by
//! size (`size`), past `sv_gameLogMaxMB`, keeping `sv_gameLogKeep` old files.

pub mod line;
pub mod narrator;
pub mod writer;

use std::path::PathBuf;
use std::sync::Arc;

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_sim::Match;
use quarry_sim::events::GameEvent;

use line::{Entry, Line};
use narrator::{AddressOf, Narrator};
use writer::{LogWriter, Rotation};

/// Handles to the game log's cvars.
#[derive(Debug, Clone, Copy)]
pub struct GameLogCvars {
    /// `sv_gameLog`: the file ("" = off).
    pub path: CvarId,
    /// `sv_gameLogRotate`: `match` or `size`.
    pub rotate: CvarId,
    /// `sv_gameLogMaxMB`: size that rotates a file.
    pub max_mb: CvarId,
    /// `sv_gameLogKeep`: rotated files kept.
    pub keep: CvarId,
}

impl GameLogCvars {
    /// Registers the game log's cvars.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        Ok(Self {
            path: console.register_cvar(
                CvarDef::string(
                    "sv_gameLog",
                    "",
                    "game log file for stats tools: one JSON object per line (match start and end with the scoreboard, connects, kills, damage, flags, rounds, chat, admin commands); empty = off",
                )
                .flags(CvarFlags::ARCHIVE),
            )?,
            rotate: console.register_cvar(
                CvarDef::enumeration(
                    "sv_gameLogRotate",
                    "match",
                    &["match", "size"],
                    "when the game log moves to a new file: 'match' (each match in its own file; the last one is FILE.1) or 'size' (only past sv_gameLogMaxMB)",
                )
                .flags(CvarFlags::ARCHIVE),
            )?,
            max_mb: console.register_cvar(
                CvarDef::int("sv_gameLogMaxMB", 64, 1, 65_536, "a game log file larger than this many MB is rotated").flags(CvarFlags::ARCHIVE),
            )?,
            keep: console.register_cvar(
                CvarDef::int("sv_gameLogKeep", 20, 1, 100_000, "rotated game log files kept (FILE.1 newest); older ones are removed").flags(CvarFlags::ARCHIVE),
            )?,
        })
    }
}

/// The game log as the server holds it.
pub struct GameLog {
    cvars: GameLogCvars,
    /// The cvars' modification counts when last read.
    seen: [u64; 4],
    writer: Option<LogWriter>,
    narrator: Narrator,
    /// The running match's id, once one started.
    match_id: Option<Arc<str>>,
    /// The running match's tick rate and clock, for the envelope.
    clock: (u32, u32),
    matches: u64,
    started_unix_s: u64,
}

impl GameLog {
    /// A log that is off until [`GameLog::sync`] finds `sv_gameLog` set.
    pub fn new(cvars: GameLogCvars) -> Self {
        let started_unix_s = unix_ms() / 1000;
        Self {
            cvars,
            seen: [u64::MAX; 4],
            writer: None,
            narrator: Narrator::default(),
            match_id: None,
            clock: (60, 0),
            matches: 0,
            started_unix_s,
        }
    }

    fn counts(&self, cvars: &CvarSet) -> [u64; 4] {
        [self.cvars.path, self.cvars.rotate, self.cvars.max_mb, self.cvars.keep].map(|id| cvars.get(id).modification_count())
    }

    /// Whether a cvar of the log changed since [`GameLog::sync`] last ran.
    pub fn changed(&self, cvars: &CvarSet) -> bool {
        self.counts(cvars) != self.seen
    }

    /// Opens, reopens or closes the file when its cvars changed. A log
    /// opened while a match runs begins with that match's start.
    pub fn sync(&mut self, cvars: &CvarSet, running: Option<(&Match, &str)>, hostname: &str) {
        let counts = self.counts(cvars);
        if counts == self.seen {
            return;
        }
        self.seen = counts;
        let path = cvars.string(self.cvars.path);
        let rotation = Rotation {
            per_match: cvars.string(self.cvars.rotate) == "match",
            max_bytes: u64::try_from(cvars.int(self.cvars.max_mb)).unwrap_or(64).saturating_mul(1 << 20),
            keep: u32::try_from(cvars.int(self.cvars.keep)).unwrap_or(20),
        };
        let wanted = (!path.is_empty()).then(|| PathBuf::from(&path));
        if self.writer.as_ref().map(|w| (w.path().to_owned(), w.rotation())) == wanted.clone().map(|p| (p, rotation)) {
            return;
        }
        if let Some(w) = self.writer.take() {
            w.close();
        }
        let Some(path) = wanted else { return };
        match LogWriter::start(path.clone(), rotation) {
            Ok(w) => self.writer = Some(w),
            Err(e) => {
                tracing::warn!("game log {}: couldn't start its writer: {e}", path.display());
                return;
            }
        }
        let version = crate::cvars::version_string();
        self.emit(Line::ServerStart { version, hostname: hostname.to_owned() });
        if let Some((game, map)) = running {
            let record = self.narrator.match_start(game, map, true);
            self.emit(record);
        }
    }

    /// The skill each bot plays at now, by slot (carried into the match
    /// end's scoreboard rows).
    pub fn set_bot_skills(&mut self, skills: impl IntoIterator<Item = (u8, f32)>) {
        self.narrator.set_bot_skills(skills);
    }

    /// A new match began on `map`.
    pub fn match_started(&mut self, game: &Match, map: &str) {
        self.matches += 1;
        self.match_id = Some(format!("{}-{}", self.started_unix_s, self.matches).into());
        self.clock = (game.hz(), game.tick());
        let record = self.narrator.match_start(game, map, false);
        self.emit(record);
    }

    /// The running match is being replaced or stopped before it finished.
    pub fn match_interrupted(&mut self, game: &Match, reason: &str) {
        self.clock = (game.hz(), game.tick());
        for r in self.narrator.match_end(game, reason) {
            self.emit(r);
        }
    }

    /// Records one tick's events.
    pub fn events(&mut self, game: &Match, events: &[GameEvent], address_of: AddressOf<'_>) {
        if events.is_empty() {
            return;
        }
        self.clock = (game.hz(), game.tick());
        for r in self.narrator.events(game, events, address_of) {
            self.emit(r);
        }
    }

    /// Records an operator's command, with the values of secret cvars hidden.
    pub fn admin(&mut self, cvars: &CvarSet, origin: &str, line: &str) {
        if self.writer.is_none() {
            return;
        }
        let command = redact_secrets(cvars, line);
        self.emit(Line::Admin { origin: origin.to_owned(), command });
    }

    /// Records a remote admin's sign-in, refusal, command or session end
    /// (a command's secret cvar values hidden).
    pub fn rcon(&mut self, cvars: &CvarSet, event: RconEvent<'_>) {
        if self.writer.is_none() {
            return;
        }
        let RconEvent { admin, role, from, what, command, result, detail } = event;
        let command = command.map(|c| redact_secrets(cvars, c));
        self.emit(Line::Rcon { admin: admin.to_owned(), role, from: from.to_owned(), what, command, result, detail: detail.to_owned() });
    }

    /// Records the end of the running match (if it had not ended) and the
    /// server's stop, then writes out everything and closes the file.
    pub fn close(&mut self, running: Option<&Match>, reason: &str) {
        if let Some(game) = running {
            self.match_interrupted(game, "shutdown");
        }
        self.emit(Line::ServerStop { reason: reason.to_owned() });
        if let Some(w) = self.writer.take() {
            w.close();
        }
    }

    /// Records lost to a full queue, in all (the writer's count).
    pub fn lost(&self) -> u64 {
        self.writer.as_ref().map_or(0, |w| w.counts().1)
    }

    /// One line for `status`.
    pub fn status_line(&self) -> String {
        match &self.writer {
            Some(w) => {
                let (written, lost) = w.counts();
                format!("game log: {} ({written} lines written, {lost} lost)", w.path().display())
            }
            None => "game log: off (sv_gameLog FILE turns it on)".to_owned(),
        }
    }

    fn emit(&mut self, record: Line) {
        let Some(w) = &self.writer else { return };
        let (hz, tick) = self.clock;
        w.send(Entry { unix_ms: unix_ms(), match_id: self.match_id.clone(), t: tick as f32 / hz.max(1) as f32, record });
    }
}

/// `line` with the value of every secret cvar it sets replaced, as in
/// `set sv_password (hidden)` or `sv_password (hidden)`.
pub(crate) fn redact_secrets(cvars: &CvarSet, line: &str) -> String {
    let secret = |name: &str| cvars.find(name).is_some_and(|c| c.def.flags.contains(CvarFlags::SECRET));
    let statements: Vec<String> = quarry_console::tokenize(line)
        .into_iter()
        .map(|st| match st {
            Ok(st) => {
                let mut tokens = st.tokens.clone();
                let name = st.name().to_ascii_lowercase();
                let value_from = if secret(&name) {
                    Some(1)
                } else if matches!(name.as_str(), "set" | "seta" | "sets" | "setu" | "reset") && st.args().first().is_some_and(|a| secret(a)) {
                    Some(2)
                } else {
                    None
                };
                if let Some(from) = value_from
                    && tokens.len() > from
                {
                    tokens.truncate(from);
                    tokens.push("(hidden)".to_owned());
                }
                tokens.iter().map(|t| quote_if_needed(t)).collect::<Vec<_>>().join(" ")
            }
            // An unbalanced quote: the console refuses it; keep only the name.
            Err(_) => line.split_whitespace().next().unwrap_or("").to_owned(),
        })
        .collect();
    statements.join("; ")
}

/// A token as typed: quoted only when it has to be.
fn quote_if_needed(token: &str) -> String {
    if token.is_empty() || token.contains(|c: char| c.is_whitespace() || c == ';') || token.contains("//") {
        quarry_console::quote(token)
    } else {
        token.to_owned()
    }
}

fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_hidden_in_admin_records() {
        let mut console: Console<()> = Console::new();
        console
            .register_cvar(CvarDef::string("sv_password", "", "p").flags(CvarFlags::SECRET))
            .expect("registers");
        let cvars = console.cvars();
        assert_eq!(redact_secrets(cvars, "set sv_password hunter2"), "set sv_password (hidden)");
        assert_eq!(redact_secrets(cvars, "sv_password \"hunter 2\"; kick Rook"), "sv_password (hidden); kick Rook");
        assert_eq!(redact_secrets(cvars, "set sv_hostname \"my server\""), "set sv_hostname \"my server\"");
        assert_eq!(redact_secrets(cvars, "sv_password"), "sv_password", "asking for the value shows nothing");
    }
}

/// A remote admin's event, for [`GameLog::rcon`].
#[derive(Debug, Clone, Copy)]
pub struct RconEvent<'a> {
    /// The admin's name as given.
    pub admin: &'a str,
    /// Its role once signed in.
    pub role: Option<&'static str>,
    /// Its address.
    pub from: &'a str,
    /// `signin`, `command` or `closed`.
    pub what: &'static str,
    /// The command line, for `command`.
    pub command: Option<&'a str>,
    /// `ok`, `refused` or `error`.
    pub result: &'static str,
    /// Why it was refused or failed.
    pub detail: &'a str,
}
