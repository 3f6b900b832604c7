//! `quarry-server --card NAME --match T.M`: one card match on a live
//! server, waiting for its player.
//!
//! The life of the match, as [`LiveCard::step`] runs it after every tick:
//! 1. The server starts on the match's map, game type and limits (the
//!    card's commands run after the command line's `+commands`), with no
//!    bots; the bots' navmesh starts building at once.
//! 2. A human enters. If the match is locked for their name (by the
//!    progress file) they are kicked with the reason (what to win first),
//!    unless the server was started with `--force`. Otherwise, the first
//!    human in goes to the card's side (team games) and the roster joins;
//!    warmup, countdown and play follow as in any match.
//! 3. When the match ends (intermission), each human on the scoreboard has
//!    a win or a loss recorded under their name, written off the tick
//!    thread; what the result opened is announced. A forced (locked) match
//!    is not recorded: progress is earned in order.
//! 4. Then the same match starts again (not the map rotation), so the
//!    player can retry or play on; another match is another start of the
//!    server with another `--match`.
//!
//! When the last human leaves before the end, the roster is removed and the
//! match restarts, waiting again.

use std::thread::JoinHandle;

use quarry_sim::rules::Phase;
use quarry_sim::slots::{ClientKind, SlotState};
use quarry_sim::{SlotId, Team};

use super::commands::{DIFFICULTY_CVAR, difficulty};
use super::manifest::{Card, CardContext, MatchId};
use super::outcome::{MatchResult, placing};
use super::progress::{MatchStatus, ProgressBook, ProgressError, ProgressStore};
use super::roster::{join_order, match_commands};
use crate::cli::{Cli, PlusCommand};
use crate::feature::{Controller, MatchView, Requests, TickReport};

/// A card match running on a live server (see the module doc).
pub struct LiveCard {
    card: Card,
    id: MatchId,
    /// `--force`: a locked match is played (and not recorded).
    force: bool,
    store: ProgressStore,
    /// The progress file as last read or written by this server (`Err`:
    /// unreadable; nothing is recorded until it is fixed).
    book: Result<ProgressBook, String>,
    /// Whether the roster is in the match.
    roster_in: bool,
    /// The seed of the match the state below is about.
    match_seed: Option<u64>,
    /// Whether this match's result was recorded.
    recorded: bool,
    /// Humans seen this match: let in, or refused.
    seen: Vec<(SlotId, bool)>,
    /// Results being written.
    writes: Vec<JoinHandle<Result<String, ProgressError>>>,
}

impl std::fmt::Debug for LiveCard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveCard").field("card", &self.card.name).field("id", &self.id).field("roster_in", &self.roster_in).finish_non_exhaustive()
    }
}

/// For a live start with `--card`: checks the flags and the card, and
/// returns the `+commands` with the card match's settings after them and
/// the match to attach once the server is up. Without `--card`, the
/// commands as they were.
pub fn prepare(cli: &Cli, plus: Vec<PlusCommand>) -> Result<(Vec<PlusCommand>, Option<LiveCard>), String> {
    let Some(name) = cli.card.as_deref() else { return Ok((plus, None)) };
    if cli.stand_in.is_some() {
        return Err("--as names the bot that stands in for the player in a headless card run: give --fast too (a live card match waits for its real player)".to_owned());
    }
    if cli.record.is_some() {
        return Err("--record records a headless match: give --fast too".to_owned());
    }
    let Some(m) = cli.match_id.as_deref() else {
        return Err(format!("a live card server plays one match: give --match TIER.MATCH (`cardinfo {name}` at the console lists them), or --fast to play the whole card headless"));
    };
    let id: MatchId = m.parse()?;
    let characters = super::character_names(&cli.botfiles);
    let ctx = CardContext { maps_dir: &cli.maps, characters: &characters };
    let card = Card::load(&cli.config, name, &ctx).map_err(|e| e.to_string())?;
    let m = card.get(id).ok_or_else(|| format!("card {} has no match {id} (tiers 0-{})", card.name, card.tiers.len().saturating_sub(1)))?;
    let mut plus = plus;
    plus.extend(match_commands(m));
    let store = ProgressStore::in_config_dir(&cli.config);
    let book = store.load().map_err(|e| e.to_string());
    let live = LiveCard { card, id, force: cli.force, store, book, roster_in: false, match_seed: None, recorded: false, seen: Vec::new(), writes: Vec::new() };
    Ok((plus, Some(live)))
}

/// The card match a live server plays, once one is attached: the
/// controller that runs its life after every tick.
#[derive(Debug, Default)]
pub struct LiveCards {
    /// The match being played (`--card NAME --match T.M`).
    pub current: Option<LiveCard>,
}

impl LiveCards {
    /// No card match yet.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Controller for LiveCards {
    /// Runs the card match's life (see the module doc).
    fn after_tick(&mut self, report: &TickReport<'_>, requests: &mut Requests) {
        if let Some(card) = self.current.as_mut() {
            card.step(&report.view, requests);
        }
    }

    /// Waits for results still being written.
    fn shutdown(&mut self) {
        if let Some(card) = self.current.as_mut() {
            for line in card.wait_writes(true) {
                tracing::info!("{line}");
            }
        }
    }
}

impl LiveCard {
    /// The card being played.
    pub fn card(&self) -> &Card {
        &self.card
    }

    /// The match being played.
    pub fn id(&self) -> MatchId {
        self.id
    }

    /// Reads the progress file again (after `cardreset`).
    pub fn reload_progress(&mut self) {
        for line in self.wait_writes(true) {
            tracing::info!("{line}");
        }
        self.book = self.store.load().map_err(|e| e.to_string());
    }

    /// Whether the roster and the player fit in `slots` slots.
    pub fn check_fits(&self, slots: usize) -> Result<(), String> {
        if let Some(m) = self.card.get(self.id) {
            let players = m.roster.len() + 1;
            if players > slots {
                return Err(super::CardError::Invalid { file: self.card.path.display().to_string(), line: m.line, problem: super::CardProblem::TooManyPlayers { players, slots } }.to_string());
            }
        }
        Ok(())
    }

    /// What the server says at startup.
    pub fn banner(&self, difficulty: f32) -> Vec<String> {
        let Some(m) = self.card.get(self.id) else { return Vec::new() };
        let title = m.title.as_deref().map(|t| format!(" \"{t}\"")).unwrap_or_default();
        let mut out = vec![format!(
            "card {} match {}{title}{}: {} {} ({}); {} bots at {DIFFICULTY_CVAR} {difficulty}",
            self.card.name,
            self.id,
            if self.card.is_boss(self.id) { " (the tier's boss)" } else { "" },
            m.map,
            m.gametype.name(),
            m.limits,
            m.roster.len()
        )];
        let who = match &self.book {
            Ok(book) => {
                let shape = self.card.shape();
                let open: Vec<&str> = book.players(&self.card.name).filter(|(_, p)| p.status(&shape, self.id) != MatchStatus::Locked).map(|(n, _)| n.as_str()).collect();
                match (self.id.tier, self.id.index, open.is_empty()) {
                    (0, i, _) if !self.card.is_boss(MatchId { tier: 0, index: i }) => "open to every player".to_owned(),
                    (_, _, true) => "locked for every player with progress so far".to_owned(),
                    _ => format!("open to {}", open.join(", ")),
                }
            }
            Err(e) => format!("progress unreadable, nothing will be recorded: {e}"),
        };
        out.push(format!("card: waiting for a player (the roster joins with the first one in); this match is {who}{}", if self.force { "; --force: anyone may play it, a locked match is not recorded" } else { "" }));
        out
    }

    /// One step after a tick (see the module doc).
    fn step(&mut self, view: &MatchView<'_>, requests: &mut Requests) {
        for line in self.wait_writes(false) {
            requests.print(line);
        }
        let Some(game) = view.game else { return };
        if self.match_seed != Some(game.seed()) {
            self.match_seed = Some(game.seed());
            self.recorded = false;
        }
        let ended = matches!(game.phase(), Phase::Intermission { .. } | Phase::Over);
        let humans: Vec<SlotId> = game
            .slots()
            .iter()
            .filter(|(_, s)| matches!(s.kind, ClientKind::Remote { .. }) && s.state == SlotState::InGame)
            .map(|(id, _)| id)
            .collect();
        self.seen.retain(|(slot, _)| humans.contains(slot));
        let newcomers: Vec<(SlotId, String)> = humans
            .iter()
            .filter(|h| !self.seen.iter().any(|(s, _)| s == *h))
            .filter_map(|&h| game.slots().get(h).map(|s| (h, s.userinfo.name.clone())))
            .collect();
        for (slot, name) in newcomers {
            let allowed = self.admit(slot, &name, requests);
            self.seen.push((slot, allowed));
        }
        let playing: Vec<SlotId> = humans.into_iter().filter(|s| self.seen.iter().any(|(x, ok)| x == s && *ok)).collect();
        if !ended && !self.roster_in && let Some(&first) = playing.first() {
            self.bring_in_roster(view, first, requests);
        } else if !ended && self.roster_in && playing.is_empty() {
            self.back_to_waiting(requests);
        }
        if ended && !self.recorded {
            self.recorded = true;
            self.record(game, requests);
        }
    }

    /// Lets a human in (true), or kicks them with the reason when the
    /// match is locked for them (false).
    fn admit(&self, slot: SlotId, name: &str, requests: &mut Requests) -> bool {
        let status = self.status_for(name);
        if status != MatchStatus::Locked || self.force {
            let note = if status == MatchStatus::Locked { " (locked for you: played, not recorded)" } else { "" };
            requests.run("print", &[&format!("{name} plays card {} match {}{note}", self.card.name, self.id)]);
            return true;
        }
        let reason = format!("card {} match {} is locked for {name}: {}", self.card.name, self.id, self.what_opens(name));
        requests.run("kick", &[&slot.0.to_string(), &reason]);
        false
    }

    /// `name`'s status on the match by the progress read.
    fn status_for(&self, name: &str) -> MatchStatus {
        let shape = self.card.shape();
        match &self.book {
            Ok(book) => book.player(&self.card.name, name).map_or_else(|| super::Progress::default().status(&shape, self.id), |p| p.status(&shape, self.id)),
            // Unreadable progress locks nothing: the match is played, not recorded.
            Err(_) => MatchStatus::Open,
        }
    }

    /// What `name` must win before this match opens for them.
    fn what_opens(&self, name: &str) -> String {
        let shape = self.card.shape();
        let progress = self.book.as_ref().ok().and_then(|b| b.player(&self.card.name, name)).cloned().unwrap_or_default();
        if !progress.tier_unlocked(&shape, self.id.tier) {
            let tier = self.id.tier.saturating_sub(1);
            let boss = MatchId { tier, index: shape.get(tier).map_or(0, |n| n.saturating_sub(1)) };
            return format!("beat {boss}, the boss of tier {tier}, first");
        }
        let count = shape.get(self.id.tier).copied().unwrap_or(0);
        let needed: Vec<String> = (0..count.saturating_sub(1)).map(|index| MatchId { tier: self.id.tier, index }).filter(|id| !progress.won(*id)).map(|id| id.to_string()).collect();
        let list = match needed.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        };
        format!("win {list} first")
    }

    /// The first player in goes to the card's side and the roster joins,
    /// each bot added as `addbot` adds one.
    fn bring_in_roster(&mut self, view: &MatchView<'_>, first: SlotId, requests: &mut Requests) {
        let Some(m) = self.card.get(self.id).cloned() else { return };
        if m.player_team != Team::Free {
            requests.run("forceteam", &[&first.0.to_string(), m.player_team.name()]);
        }
        let diff = difficulty(view.cvars);
        let mut joins = Vec::with_capacity(m.roster.len());
        for i in join_order(&m) {
            let Some(entry) = m.roster.get(i) else { continue };
            let skill = self.card.skill(m.id.tier, diff, entry.offset);
            let (skill_arg, character) = (skill.to_string(), format!("character={}", entry.character));
            let team = format!("team={}", entry.team.name());
            let mut args = vec![entry.character.as_str(), skill_arg.as_str(), character.as_str()];
            if entry.team != Team::Free {
                args.push(team.as_str());
            }
            requests.run("addbot", &args);
            joins.push(format!("{} {skill:.1}{}", entry.character, if entry.team == Team::Free { String::new() } else { format!(" ({})", entry.team.name()) }));
        }
        requests.print(format!("card {} match {}: the roster joins: {}", self.card.name, self.id, joins.join(", ")));
        self.roster_in = true;
    }

    /// The last player left: the roster goes and the match starts again.
    fn back_to_waiting(&mut self, requests: &mut Requests) {
        requests.run("kickbots", &[]);
        self.roster_in = false;
        requests.run("map_restart", &[]);
        requests.print(format!("card {} match {}: the player left; waiting for a player", self.card.name, self.id));
    }

    /// Records the result of every human on the finished match's board.
    fn record(&mut self, game: &quarry_sim::Match, requests: &mut Requests) {
        let board = game.scoreboard();
        let shape = self.card.shape();
        let mut lines = Vec::new();
        for row in board.rows.iter().filter(|r| !r.bot) {
            let Some(place) = placing(&board, row.slot) else { continue };
            let won = place.result == MatchResult::Won;
            let head = format!("card {} match {}: {} {} ({}, {} frags)", self.card.name, self.id, row.name, place.result.name(), place, place.frags);
            let book = match &mut self.book {
                Ok(b) => b,
                Err(e) => {
                    lines.push(format!("{head}; not recorded: {e}"));
                    continue;
                }
            };
            let before = book.player(&self.card.name, &row.name).cloned().unwrap_or_default();
            if before.status(&shape, self.id) == MatchStatus::Locked {
                lines.push(format!("{head}; not recorded: the match is locked for {} (played with --force)", row.name));
                continue;
            }
            let after = book.player_mut(&self.card.name, &row.name);
            after.record(self.id, won);
            let opened: Vec<String> = after.open_matches(&shape).into_iter().filter(|id| before.status(&shape, *id) == MatchStatus::Locked).map(|id| id.to_string()).collect();
            let news = if after.completed(&shape) && !before.completed(&shape) {
                "; the card is complete!".to_owned()
            } else if opened.is_empty() {
                String::new()
            } else {
                format!("; now open: {}", opened.join(", "))
            };
            lines.push(format!("{head}{news}"));
            let (store, card, player, id) = (self.store.clone(), self.card.name.clone(), row.name.clone(), self.id);
            self.writes.push(std::thread::spawn(move || {
                store.update(|b| b.player_mut(&card, &player).record(id, won))?;
                Ok(format!("card progress: {player}'s {} on {card} {id} written to {}", if won { "win" } else { "loss" }, store.path().display()))
            }));
        }
        // Printed to everyone; the console shows server prints too.
        for line in lines {
            requests.run("print", &[&line]);
        }
    }

    /// Collects finished writes (all of them, waiting, with `wait`) as
    /// console lines.
    fn wait_writes(&mut self, wait: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut pending = Vec::new();
        for h in std::mem::take(&mut self.writes) {
            if !wait && !h.is_finished() {
                pending.push(h);
                continue;
            }
            match h.join() {
                Ok(Ok(line)) => out.push(line),
                Ok(Err(e)) => out.push(format!("error: {e}")),
                Err(_) => out.push("error: card progress: the writer thread failed".to_owned()),
            }
        }
        self.writes = pending;
        out
    }
}
