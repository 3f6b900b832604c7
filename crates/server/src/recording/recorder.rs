//! The recorder: fed after every tick with the tick's events, it writes
//! what a replay needs to play the same match.

use std::collections::BTreeMap;
use std::path::Path;

use quarry_console::{CvarFlags, CvarSet};
use quarry_record::{ClientInfo, Footer, HashCheck, Header, JournalEntry, RecordError, RecordWriter, StartSlot, TickRecord};
use quarry_sim::events::GameEvent;
use quarry_sim::slots::{ClientKind, Slot, SlotState};
use quarry_sim::{Match, UserCmd};

use crate::feature::{Observer, TickReport};
use crate::headless::HeadlessSummary;

/// A state hash is stored every this many ticks (one a second at 60 Hz).
pub const HASH_EVERY: u32 = 60;

/// Config files a match is built from (their text goes in the header, and
/// a replay takes no other).
pub const CONFIG_FILES: [&str; 3] = ["items.toml", "weapons.toml", "sounds.toml"];

/// Where a match came from, for a recording's header.
#[derive(Debug, Clone)]
pub struct MatchSource<'a> {
    /// The map's text.
    pub map_text: &'a str,
    /// Store only the map's hash (`sv_recordMapByHash`).
    pub map_by_hash: bool,
    /// Whether the match runs headless (no warmup, no intermission).
    pub headless: bool,
    /// The config folder (its `items.toml`, `weapons.toml`, `sounds.toml`
    /// go in the header).
    pub config_dir: &'a Path,
    /// Content hashes of what shaped play but is not replayed: name, hash.
    pub content: Vec<(String, u64)>,
}

/// A match being recorded.
#[derive(Debug)]
pub struct Recorder {
    writer: RecordWriter,
    /// The cvars as last recorded.
    cvars: BTreeMap<String, String>,
    cvar_generation: u64,
    /// The last command recorded per slot (a repeat is not recorded again).
    last: BTreeMap<u8, UserCmd>,
    /// Each remote slot's latency as last recorded.
    latency: BTreeMap<u8, u32>,
    /// Each slot's attachment as last recorded (none: not attached).
    attached: BTreeMap<u8, u8>,
    ticks: u32,
    /// The state hash after the last tick recorded.
    last_hash: u64,
}

/// Who the client in `s` is, for the recording.
fn client_info(s: &Slot) -> ClientInfo {
    ClientInfo {
        name: s.userinfo.name.clone(),
        latency_ms: match s.kind {
            ClientKind::Remote { latency_ms } => Some(latency_ms),
            ClientKind::Bot => None,
        },
        model: s.userinfo.model.clone(),
        team_pref: s.userinfo.team_pref.map(|t| t.name().to_owned()),
        handicap: u32::from(s.userinfo.handicap),
        joined_tick: s.joined_tick,
    }
}

/// The current value of every cvar that shapes play, by name: what a
/// replay needs and may set. A secret never enters a recording, nor does a
/// path, an address or anything else a replay must not take from a file.
fn cvar_values(cvars: &CvarSet) -> BTreeMap<String, String> {
    cvars
        .iter()
        .filter(|c| recorded(c.def.flags))
        .map(|c| (c.def.name.clone(), c.value().to_string()))
        .collect()
}

/// Whether a cvar with `flags` is recorded (and may be replayed).
pub fn recorded(flags: CvarFlags) -> bool {
    flags.contains(CvarFlags::PLAY) && !flags.contains(CvarFlags::SECRET)
}

impl Recorder {
    /// Starts recording `game` (just loaded, before its first tick) into
    /// `path`: the header carries the map's text (only its hash with
    /// `map_by_hash`), the config files from `config_dir`, the cvars, the
    /// clients the match starts with, and the content hashes given.
    pub fn start(path: &Path, game: &Match, source: MatchSource<'_>, cvars: &CvarSet) -> Result<Self, RecordError> {
        let MatchSource { map_text, map_by_hash, headless, config_dir, content } = source;
        let values = cvar_values(cvars);
        let mut latency = BTreeMap::new();
        let start_slots = game
            .slots()
            .iter()
            .map(|(id, s)| {
                if let ClientKind::Remote { latency_ms } = s.kind {
                    latency.insert(id.0, latency_ms);
                }
                StartSlot { slot: id.0, client: client_info(s), in_game: s.state == SlotState::InGame, team: s.team.name().to_owned() }
            })
            .collect();
        let header = Header {
            sim_version: super::SIM_VERSION.to_owned(),
            build_id: crate::cvars::version_string(),
            seed: game.seed(),
            hz: game.hz(),
            slots: u32::try_from(game.slots().max()).unwrap_or(u32::MAX),
            map_name: game.map().name().to_owned(),
            map_hash: super::fnv1a(map_text.as_bytes()),
            map_text: (!map_by_hash).then(|| map_text.to_owned()),
            config: CONFIG_FILES
                .iter()
                .filter_map(|f| std::fs::read_to_string(config_dir.join(f)).ok().map(|t| ((*f).to_owned(), t)))
                .collect(),
            content,
            cvars: values.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            headless,
            hash_every: HASH_EVERY,
            start_slots,
        };
        let writer = RecordWriter::create(path, &header)?;
        Ok(Self { writer, cvars: values, cvar_generation: cvars.generation(), last: BTreeMap::new(), latency, attached: BTreeMap::new(), ticks: 0, last_hash: game.state_hash() })
    }

    /// Records the tick `game` just stepped, whose events are `events`.
    pub fn record_tick(&mut self, game: &Match, events: &[GameEvent], cvars: &CvarSet) {
        let mut journal = Vec::new();
        if cvars.generation() != self.cvar_generation {
            self.cvar_generation = cvars.generation();
            for (name, value) in cvar_values(cvars) {
                if self.cvars.get(&name) != Some(&value) {
                    journal.push(JournalEntry::Cvar { name: name.clone(), value: value.clone() });
                    self.cvars.insert(name, value);
                }
            }
        }
        for ev in events {
            match ev {
                GameEvent::Joined { slot, .. } => {
                    if let Some(s) = game.slots().get(*slot) {
                        self.last.remove(&slot.0);
                        let client = client_info(s);
                        if let Some(ms) = client.latency_ms {
                            self.latency.insert(slot.0, ms);
                        }
                        journal.push(JournalEntry::Join { slot: slot.0, client });
                    }
                }
                GameEvent::Left { slot } => {
                    self.last.remove(&slot.0);
                    self.latency.remove(&slot.0);
                    journal.push(JournalEntry::Leave { slot: slot.0 });
                }
                // A move the server made (auto-balance) replays by itself.
                GameEvent::TeamChanged { slot, to, forced: false, .. } => journal.push(JournalEntry::Team { slot: slot.0, team: to.name().to_owned() }),
                _ => {}
            }
        }
        for (id, s) in game.slots().iter() {
            if let ClientKind::Remote { latency_ms } = s.kind
                && self.latency.get(&id.0).is_some_and(|ms| *ms != latency_ms)
            {
                self.latency.insert(id.0, latency_ms);
                journal.push(JournalEntry::Latency { slot: id.0, ms: latency_ms });
            }
        }
        // Attachments (made between ticks, carried over from the last
        // match, or dropped when the other left), in slot order.
        let attached = || game.slots().iter().filter_map(|(id, s)| s.attached_to.map(|to| (id.0, to.0)));
        // Compared without a copy: attachments change rarely, ticks do not.
        if !attached().eq(self.attached.iter().map(|(a, b)| (*a, *b))) {
            let now: BTreeMap<u8, u8> = attached().collect();
            for (slot, to) in &now {
                if self.attached.get(slot) != Some(to) {
                    journal.push(JournalEntry::Attach { slot: *slot, to: Some(*to) });
                }
            }
            for slot in self.attached.keys().filter(|s| !now.contains_key(s)) {
                if game.slots().get(quarry_sim::SlotId(*slot)).is_some() {
                    journal.push(JournalEntry::Attach { slot: *slot, to: None });
                }
            }
            self.attached = now;
        }
        let mut cmds = Vec::new();
        for (id, s) in game.slots().iter() {
            let Some(cmd) = s.input.last().copied() else { continue };
            // A repeat (no new command) is not recorded: the replay's queue
            // repeats the same way.
            if self.last.get(&id.0) != Some(&cmd) {
                self.last.insert(id.0, cmd);
                cmds.push((id.0, cmd));
            }
        }
        let tick = game.tick();
        let hash = tick.is_multiple_of(HASH_EVERY).then(|| HashCheck {
            value: game.state_hash(),
            steps: game.hash_steps().into_iter().map(|(n, h)| (n.to_owned(), h)).collect(),
        });
        self.ticks += 1;
        self.last_hash = game.state_hash();
        self.writer.push(TickRecord { tick, journal, cmds, hash });
    }

    /// Ends the recording cleanly with the state hash after the last tick
    /// and the match's `summary` (`None` when the match ended without one:
    /// a map change, a size cap); returns the file's size in bytes.
    pub fn finish(self, summary: Option<&HeadlessSummary>) -> Result<u64, RecordError> {
        let bot_report = summary.and_then(|s| s.bots.as_ref()).map(ToString::to_string).unwrap_or_default();
        let summary = summary.and_then(|s| serde_json::to_string(s).ok()).unwrap_or_default();
        self.writer.finish(Footer { ticks: self.ticks, final_hash: self.last_hash, summary, bot_report })
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.writer.bytes()
    }

    /// Why the recording stopped early, if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.writer.stopped()
    }
}

/// A recording asked for at startup (`--record`) records every tick; its
/// owner takes it back at the end to finish it.
impl Observer for Recorder {
    fn after_tick(&mut self, report: &TickReport<'_>) {
        if let Some(game) = report.view.game {
            self.record_tick(game, report.events, report.view.cvars);
        }
    }
}
