//! Match figures for tuning and for the headless summary: per bot (kills,
//! deaths, time stuck, longest idle, pads and teleporters used, accuracy,
//! reaction), per weapon and skill (accuracy), and which item classes were
//! picked up out of those the map has.
//!
//! "Stuck" is the share of alive time with a route and no corner progress
//! for 2 s; "idle" the longest run alive, not moving and not waiting on
//! purpose. Reaction is the rolled delay of fresh acquisitions without the
//! peripheral penalty, comparable to the skill table.
//!
//! Chat: lines bots said (per event kind, replies), lines per simulated
//! minute, and how often a bot said the same line twice in a row (should be
//! 0), so a headless run shows whether the chat reads like people or spam.

use std::collections::BTreeMap;
use std::fmt;

use quarry_sim::{Match, SlotId};

use crate::brain::BotStats;

/// One bot's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BotFigures {
    /// Slot.
    pub slot: SlotId,
    /// Name.
    pub name: String,
    /// Skill of its current life.
    pub skill: f32,
    /// Kills.
    pub kills: u32,
    /// Deaths.
    pub deaths: u32,
    /// Seconds alive.
    pub alive_s: f64,
    /// Share of alive time stuck, percent.
    pub stuck_pct: f64,
    /// Longest idle run, seconds.
    pub max_idle_s: f64,
    /// Jump pads ridden.
    pub jump_pads: u64,
    /// Teleporters taken.
    pub teleports: u64,
    /// Items picked up.
    pub pickups: u32,
    /// Shots and hits per weapon number: `(weapon, shots, hits)`.
    pub shots_hits: Vec<(u8, u32, u32)>,
    /// Mean fresh reaction, ms.
    pub reaction_ms: Option<f64>,
}

impl BotFigures {
    /// Figures from a bot's counters.
    pub fn new(slot: SlotId, name: String, skill: f32, s: &BotStats, hz: u32) -> Self {
        let secs = |ticks: u64| ticks as f64 / f64::from(hz.max(1));
        let shots_hits = (0..s.shots.len())
            .filter(|&w| s.shots[w] > 0)
            .map(|w| (w as u8, s.shots[w], s.hits[w]))
            .collect();
        Self {
            slot,
            name,
            skill,
            kills: s.kills,
            deaths: s.deaths,
            alive_s: secs(s.alive_ticks),
            stuck_pct: s.stuck_share() * 100.0,
            max_idle_s: secs(s.max_idle_run),
            jump_pads: s.jump_pads,
            teleports: s.teleports,
            pickups: s.pickups,
            shots_hits,
            reaction_ms: s.mean_fresh_reaction_ms(),
        }
    }
}

/// Shots and hits of one weapon at one (rounded) skill.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AccuracyRow {
    /// Skill, rounded.
    pub skill: u8,
    /// Weapon name.
    pub weapon: String,
    /// Shots.
    pub shots: u32,
    /// Shots that hurt an enemy.
    pub hits: u32,
}

impl AccuracyRow {
    /// Hits per shot, percent.
    pub fn percent(&self) -> f64 {
        if self.shots == 0 {
            0.0
        } else {
            100.0 * f64::from(self.hits) / f64::from(self.shots)
        }
    }
}

/// The figures of a match (`--json` friendly).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MatchReport {
    /// Map name.
    pub map: String,
    /// Simulated seconds.
    pub seconds: f64,
    /// Per bot.
    pub bots: Vec<BotFigures>,
    /// Item classes the map has, with how many pickups bots made of each.
    pub items: BTreeMap<String, u32>,
    /// Accuracy per rounded skill and weapon.
    pub accuracy: Vec<AccuracyRow>,
    /// The navmesh line.
    pub navmesh: String,
    /// What bots said.
    pub chat: ChatReport,
    /// Objective play: role time shares and objective events by bots.
    pub objective: Option<crate::objective::ObjectiveReport>,
}

/// Bot chat over a match.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ChatReport {
    /// The counts.
    #[serde(flatten)]
    pub figures: crate::chat::ChatFigures,
    /// Lines per simulated minute, all bots together.
    pub lines_per_minute: f64,
}

impl MatchReport {
    /// Assembles the report.
    pub fn new(game: &Match, bots: Vec<BotFigures>, pickups: &BTreeMap<&'static str, u32>, navmesh: String) -> Self {
        let mut items: BTreeMap<String, u32> = BTreeMap::new();
        let world = game.world();
        if let Some(mut q) = world.try_query::<&quarry_sim::items::Item>() {
            for item in q.iter(world) {
                items.entry(item.classname.to_owned()).or_default();
            }
        }
        for (class, n) in pickups {
            *items.entry((*class).to_owned()).or_default() += n;
        }
        let table = world.get_resource::<quarry_sim::weapons::WeaponTable>();
        let mut accuracy: BTreeMap<(u8, String), (u32, u32)> = BTreeMap::new();
        for b in &bots {
            for &(w, shots, hits) in &b.shots_hits {
                let name = table
                    .and_then(|t| t.get(w))
                    .map_or_else(|| format!("weapon{w}"), |d| d.name.clone());
                let e = accuracy.entry((b.skill.round() as u8, name)).or_default();
                e.0 += shots;
                e.1 += hits;
            }
        }
        let accuracy = accuracy
            .into_iter()
            .map(|((skill, weapon), (shots, hits))| AccuracyRow {
                skill,
                weapon,
                shots,
                hits,
            })
            .collect();
        Self {
            map: game.map().name().to_owned(),
            seconds: f64::from(game.tick()) / f64::from(game.hz().max(1)),
            bots,
            items,
            accuracy,
            navmesh,
            chat: ChatReport::default(),
            objective: None,
        }
    }

    /// The report with the objective figures of the match.
    pub fn with_objective(mut self, objective: Option<crate::objective::ObjectiveReport>) -> Self {
        self.objective = objective;
        self
    }

    /// The report with the chat figures of the match.
    pub fn with_chat(mut self, figures: crate::chat::ChatFigures) -> Self {
        let minutes = self.seconds / 60.0;
        let lines_per_minute = if minutes > 0.0 { f64::from(figures.lines) / minutes } else { 0.0 };
        self.chat = ChatReport { figures, lines_per_minute };
        self
    }

    /// The worst stuck share over all bots, percent.
    pub fn max_stuck_pct(&self) -> f64 {
        self.bots.iter().map(|b| b.stuck_pct).fold(0.0, f64::max)
    }

    /// The longest idle run over all bots, seconds.
    pub fn max_idle_s(&self) -> f64 {
        self.bots.iter().map(|b| b.max_idle_s).fold(0.0, f64::max)
    }

    /// Item classes on the map nobody picked up.
    pub fn items_never_taken(&self) -> Vec<&str> {
        self.items
            .iter()
            .filter(|(_, n)| **n == 0)
            .map(|(c, _)| c.as_str())
            .collect()
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "bots on {} for {:.0} s; {}", self.map, self.seconds, self.navmesh)?;
        writeln!(
            f,
            "{:<14} {:>5} {:>5} {:>6} {:>7} {:>7} {:>5} {:>5} {:>6} {:>6} {:>8}",
            "bot", "skill", "kills", "deaths", "stuck%", "idle s", "pads", "tele", "items", "acc%", "react ms"
        )?;
        for b in &self.bots {
            let (shots, hits) = b.shots_hits.iter().fold((0, 0), |a, &(_, s, h)| (a.0 + s, a.1 + h));
            let acc = if shots > 0 {
                100.0 * f64::from(hits) / f64::from(shots)
            } else {
                0.0
            };
            writeln!(
                f,
                "{:<14} {:>5.2} {:>5} {:>6} {:>7.2} {:>7.1} {:>5} {:>5} {:>6} {:>6.1} {:>8}",
                b.name,
                b.skill,
                b.kills,
                b.deaths,
                b.stuck_pct,
                b.max_idle_s,
                b.jump_pads,
                b.teleports,
                b.pickups,
                acc,
                b.reaction_ms.map_or_else(|| "-".to_owned(), |r| format!("{r:.0}"))
            )?;
        }
        writeln!(f, "accuracy by skill and weapon:")?;
        for a in &self.accuracy {
            writeln!(
                f,
                "  skill {} {:<18} {:>5}/{:<5} {:5.1}%",
                a.skill,
                a.weapon,
                a.hits,
                a.shots,
                a.percent()
            )?;
        }
        let c = &self.chat.figures;
        let kinds: Vec<String> = c.by_event.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(
            f,
            "bot chat: {} lines ({:.1}/min), {} replies, {} back-to-back repeats, {} throttled, {} refused{}",
            c.lines,
            self.chat.lines_per_minute,
            c.replies,
            c.back_to_back_repeats,
            c.throttled,
            c.refused,
            if kinds.is_empty() { String::new() } else { format!("; {}", kinds.join(", ")) }
        )?;
        if let Some(o) = &self.objective {
            writeln!(f, "{o}")?;
        }
        let never = self.items_never_taken();
        writeln!(
            f,
            "item classes picked up: {}/{}{}",
            self.items.len() - never.len(),
            self.items.len(),
            if never.is_empty() {
                String::new()
            } else {
                format!(" (never: {})", never.join(", "))
            }
        )
    }
}
