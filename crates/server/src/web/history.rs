//! What the web view remembers of the match so far, gathered on the tick
//! thread from the match's events: the feed (kills, chat, flags, rounds)
//! every frame carries, and the history (`/history`) the page fetches when
//! it changes: a heat map of deaths and the bots' stuck hotspots. The tick
//! only copies the death cells and the bots' stuck episodes into a
//! [`HistorySource`] (when they changed, at most every couple of seconds);
//! grouping the episodes into hotspots and writing the JSON happen on the
//! HTTP thread when a page asks.
//!
//! Everything here is bounded: the feed keeps its last [`FEED_LINES`], the
//! heat map at most [`MAX_HEAT_CELLS`] cells (deaths in further cells are
//! only counted), the hotspots are the bot report's dozen.

use std::collections::{BTreeMap, VecDeque};

use quarry_sim::Match;
use quarry_sim::chat::ChatScope;
use quarry_sim::events::{FlagEventKind, GameEvent};
use serde::Serialize;

/// Lines the feed keeps (each frame carries them all; the page fades them
/// by age, so a viewer that skipped frames misses none of the recent ones).
pub(super) const FEED_LINES: usize = 8;
/// Side of a heat map cell, units.
pub(super) const HEAT_CELL: i32 = 96;
/// Cells the heat map holds at most.
pub(super) const MAX_HEAT_CELLS: usize = 8192;
/// How often the history is published at most, seconds of match time.
const HISTORY_EVERY_SECONDS: u32 = 2;

/// One line of the feed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeedLine {
    /// The match tick it happened at.
    pub tick: u32,
    /// `kill`, `chat`, `team` (team chat), `flag`, `round` or `server`.
    pub kind: &'static str,
    /// The team it concerns, when one does (the speaker's, the flag's).
    pub team: Option<&'static str>,
    /// The line.
    pub text: String,
}

/// A stuck hotspot as drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct StuckSpot {
    pos: [i32; 3],
    seconds: f64,
    bots: u32,
    goal: String,
    link: String,
}

/// What `/history` is made from: copied on the tick, turned into JSON on
/// the HTTP thread ([`HistorySource::to_json`]).
#[derive(Debug, Clone, Default)]
pub struct HistorySource {
    /// Its revision (frames name the one they go with).
    pub rev: u64,
    /// Deaths by heat map cell: cell x, cell y, count.
    pub deaths: Vec<(i32, i32, u32)>,
    /// Deaths beyond the heat map's cell limit.
    pub uncounted: u32,
    /// Every bot's stuck episodes, with its slot.
    pub stuck: Vec<(u32, quarry_bots::stuck::StuckEpisode)>,
    /// Ticks per second of the match.
    pub hz: u32,
}

impl HistorySource {
    /// The history as JSON: `rev`, `cell` (units), `deaths` (flat `x, y,
    /// count` with cell corners in units), `uncounted`, and `stuck` (the
    /// hotspots, most time first).
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json {
            rev: u64,
            cell: i32,
            deaths: Vec<i32>,
            uncounted: u32,
            stuck: Vec<StuckSpot>,
        }
        let stuck = quarry_bots::stuck::hotspots(self.stuck.iter().map(|(slot, e)| (*slot, e)), self.hz, &|g| g.describe())
            .into_iter()
            .map(|h| StuckSpot {
                pos: [h.pos[0].round() as i32, h.pos[1].round() as i32, h.pos[2].round() as i32],
                seconds: (h.seconds * 10.0).round() / 10.0,
                bots: h.bots,
                goal: h.goal,
                link: h.link,
            })
            .collect();
        let deaths = self.deaths.iter().flat_map(|&(x, y, n)| [x * HEAT_CELL, y * HEAT_CELL, i32::try_from(n).unwrap_or(i32::MAX)]).collect();
        let json = Json { rev: self.rev, cell: HEAT_CELL, deaths, uncounted: self.uncounted, stuck };
        serde_json::to_string(&json).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// The web view's memory of the running match.
#[derive(Debug, Default)]
pub struct History {
    feed: VecDeque<FeedLine>,
    /// Deaths by heat map cell.
    deaths: BTreeMap<(i32, i32), u32>,
    /// Deaths not in a cell (the map's limit reached).
    deaths_uncounted: u32,
    /// The tick seen last (a lower one is a new match).
    last_tick: Option<u32>,
    /// Whether deaths were added since the last publication.
    changed: bool,
    /// What was published last: its revision and the tick.
    revision: u64,
    published_at: Option<u32>,
    /// The bots' stuck revision published last.
    stuck_revision: Option<u64>,
}

impl History {
    /// Takes this tick's events in (`game` is the match after the tick).
    pub fn observe(&mut self, game: &Match, events: &[GameEvent]) {
        let tick = game.tick();
        if self.last_tick.is_some_and(|t| tick < t) {
            // A new match: nothing of the old one applies.
            *self = Self { revision: self.revision + 1, changed: true, ..Self::default() };
        }
        self.last_tick = Some(tick);
        let name = |slot: quarry_sim::slots::SlotId| game.slots().get(slot).map_or_else(|| format!("#{}", slot.0), |s| s.userinfo.name.clone());
        let team = |slot: quarry_sim::slots::SlotId| game.slots().get(slot).map(|s| s.team.name());
        for event in events {
            let line = match event {
                GameEvent::Kill { killer, victim, means } => {
                    if let Some(at) = game.own_view(*victim).map(|v| v.origin) {
                        self.add_death(at);
                    }
                    Some(("kill", team(*victim), game.obituary(*killer, *victim, *means)))
                }
                GameEvent::Frozen { slot, .. } => {
                    if let Some(at) = game.own_view(*slot).map(|v| v.origin) {
                        self.add_death(at);
                    }
                    None
                }
                GameEvent::Chat { from, name: speaker, scope, text } => {
                    let speaker = if from.is_none() && speaker.is_empty() { "server" } else { speaker.as_str() };
                    let kind = if matches!(scope, ChatScope::Team(_)) { "team" } else { "chat" };
                    Some((kind, from.and_then(team), format!("{speaker}: {text}")))
                }
                GameEvent::Flag { kind, team: flag_team, slot } => {
                    let who = slot.map_or_else(|| "the flag".to_owned(), name);
                    let what = match kind {
                        FlagEventKind::Taken => "took",
                        FlagEventKind::Dropped => "dropped",
                        FlagEventKind::Returned => "returned",
                        FlagEventKind::Captured => "captured",
                    };
                    let text = if slot.is_some() { format!("{who} {what} the {} flag", flag_team.name()) } else { format!("the {} flag returned", flag_team.name()) };
                    Some(("flag", Some(flag_team.name()), text))
                }
                GameEvent::RoundStart { number } => Some(("round", None, format!("round {number} begins"))),
                GameEvent::RoundEnd { number, winner, .. } => Some((
                    "round",
                    winner.map(|t| t.name()),
                    match winner {
                        Some(t) => format!("round {number}: {} wins", t.name()),
                        None => format!("round {number}: a draw"),
                    },
                )),
                _ => None,
            };
            if let Some((kind, team, text)) = line {
                if self.feed.len() == FEED_LINES {
                    self.feed.pop_front();
                }
                self.feed.push_back(FeedLine { tick, kind, team, text });
            }
        }
    }

    fn add_death(&mut self, at: glam::Vec3) {
        let cell = ((at.x as i32).div_euclid(HEAT_CELL), (at.y as i32).div_euclid(HEAT_CELL));
        if self.deaths.len() >= MAX_HEAT_CELLS && !self.deaths.contains_key(&cell) {
            self.deaths_uncounted += 1;
            return;
        }
        *self.deaths.entry(cell).or_default() += 1;
        self.changed = true;
    }

    /// The feed's recent lines, oldest first.
    pub fn feed(&self) -> Vec<FeedLine> {
        self.feed.iter().cloned().collect()
    }

    /// The revision of the history the page should have.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The history's source when it is due again (every couple of seconds
    /// of match time, when deaths were added or `stuck_revision` moved on);
    /// `stuck` gives the bots' episodes, asked only then.
    pub fn publish(&mut self, game: &Match, stuck_revision: u64, stuck: impl FnOnce() -> Vec<(u32, quarry_bots::stuck::StuckEpisode)>) -> Option<HistorySource> {
        let tick = game.tick();
        let every = HISTORY_EVERY_SECONDS * game.hz().max(1);
        if self.published_at.is_some_and(|t| tick < t.saturating_add(every)) {
            return None;
        }
        if !self.changed && self.stuck_revision == Some(stuck_revision) {
            return None;
        }
        self.changed = false;
        self.published_at = Some(tick);
        self.stuck_revision = Some(stuck_revision);
        self.revision += 1;
        Some(HistorySource {
            rev: self.revision,
            deaths: self.deaths.iter().map(|(&(x, y), &n)| (x, y, n)).collect(),
            uncounted: self.deaths_uncounted,
            stuck: stuck(),
            hz: game.hz(),
        })
    }
}
