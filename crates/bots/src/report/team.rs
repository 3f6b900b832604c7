//! The report's team and perception parts: what bots told their teams and
//! how it helped ([`TeamReport`]), and how fast each skill notices an
//! enemy and shoots at it ([`SenseRow`]).

use std::fmt;

use super::BotFigures;
use crate::team::TeamFigures;

/// Team calls and orders over a match.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct TeamReport {
    /// What the team layer counted.
    #[serde(flatten)]
    pub figures: TeamFigures,
    /// Facts said per simulated minute, all teams together.
    pub reports_per_minute: f64,
    /// Share of the checked enemy reports that were true when sent, percent.
    pub true_pct: Option<f64>,
    /// Mean age of an enemy report when teammates took it in (from the
    /// speaker's sighting), ms.
    pub report_age_ms: Option<f64>,
    /// Facts bots took in from teammates.
    pub reports_heard: u64,
    /// Investigations of an enemy report that found that enemy.
    pub report_finds: u64,
    /// Investigations of any lead (noises and reports).
    pub investigations: u64,
}

impl TeamReport {
    /// The team report from the layer's figures and the bots' counters,
    /// over `seconds` of play.
    pub fn new(figures: TeamFigures, bots: &[BotFigures], seconds: f64) -> Self {
        let minutes = seconds / 60.0;
        let reports_per_minute = if minutes > 0.0 { f64::from(figures.reports) / minutes } else { 0.0 };
        let true_pct = (figures.checked > 0).then(|| 100.0 * f64::from(figures.true_reports) / f64::from(figures.checked));
        let report_age_ms = (figures.enemy_delivered > 0).then(|| figures.enemy_age_ms_total as f64 / f64::from(figures.enemy_delivered));
        Self {
            reports_per_minute,
            true_pct,
            report_age_ms,
            reports_heard: bots.iter().map(|b| b.reports_heard).sum(),
            report_finds: bots.iter().map(|b| b.report_finds).sum(),
            investigations: bots.iter().map(|b| b.investigations).sum(),
            figures,
        }
    }
}

impl fmt::Display for TeamReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.figures;
        let queued: Vec<String> = t.queued.iter().map(|(k, v)| format!("{k} {v}")).collect();
        write!(
            f,
            "team: {} reports said ({:.1}/min), true when sent {}/{}{}, {} ms old when taken in (oldest {} ms), {} placing a group, taken in {} times, {} investigations, {} found the enemy reported; orders heard {}, taken {}, refused {}",
            t.reports,
            self.reports_per_minute,
            t.true_reports,
            t.checked,
            self.true_pct.map_or_else(String::new, |p| format!(" ({p:.1}%)")),
            self.report_age_ms.map_or_else(|| "-".to_owned(), |a| format!("{a:.0}")),
            t.enemy_age_ms_max,
            t.grouped,
            self.reports_heard,
            self.investigations,
            self.report_finds,
            t.orders_heard,
            t.orders_taken,
            t.orders_refused
        )?;
        if !queued.is_empty() {
            write!(f, "; calls {}", queued.join(", "))?;
        }
        Ok(())
    }
}

/// How fast one (rounded) skill notices enemies and shoots at them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SenseRow {
    /// The rounded skill.
    pub skill: u8,
    /// Bots at it.
    pub bots: usize,
    /// Enemies noticed after coming into view.
    pub noticed: u64,
    /// Mean time from first in view to noticed, ms.
    pub notice_ms: Option<f64>,
    /// First shots at an enemy after it came into view.
    pub first_shots: u64,
    /// Mean time from first in view to the first shot, ms.
    pub first_shot_ms: Option<f64>,
    /// Mean rolled reaction of fresh acquisitions, ms.
    pub reaction_ms: Option<f64>,
}

/// One row per rounded skill present.
pub fn sense_rows(bots: &[BotFigures]) -> Vec<SenseRow> {
    let mut skills: Vec<u8> = bots.iter().map(|b| b.skill.round() as u8).collect();
    skills.sort_unstable();
    skills.dedup();
    skills
        .into_iter()
        .map(|skill| {
            let at: Vec<&BotFigures> = bots.iter().filter(|b| b.skill.round() as u8 == skill).collect();
            let weighted = |n: fn(&BotFigures) -> u64, v: fn(&BotFigures) -> Option<f64>| {
                let total: u64 = at.iter().map(|b| n(b)).sum();
                let sum: f64 = at.iter().filter_map(|b| v(b).map(|m| m * n(b) as f64)).sum();
                (total, (total > 0).then(|| sum / total as f64))
            };
            let (noticed, notice_ms) = weighted(|b| b.noticed, |b| b.notice_ms);
            let (first_shots, first_shot_ms) = weighted(|b| b.first_shots, |b| b.first_shot_ms);
            let reactions: Vec<f64> = at.iter().filter_map(|b| b.reaction_ms).collect();
            let reaction_ms = (!reactions.is_empty()).then(|| reactions.iter().sum::<f64>() / reactions.len() as f64);
            SenseRow { skill, bots: at.len(), noticed, notice_ms, first_shots, first_shot_ms, reaction_ms }
        })
        .collect()
}

/// Writes the notice and reaction table.
pub(super) fn write_senses(f: &mut fmt::Formatter<'_>, rows: &[SenseRow]) -> fmt::Result {
    if rows.is_empty() {
        return Ok(());
    }
    writeln!(f, "notice and reaction by skill (from first in view):")?;
    let ms = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |m| format!("{m:.0}"));
    for r in rows {
        writeln!(
            f,
            "  skill {}  {} bots  noticed {:>5} after {:>5} ms  first shot {:>5} after {:>5} ms  rolled reaction {:>5} ms",
            r.skill,
            r.bots,
            r.noticed,
            ms(r.notice_ms),
            r.first_shots,
            ms(r.first_shot_ms),
            ms(r.reaction_ms)
        )?;
    }
    Ok(())
}

/// Percent of `ticks` (per stance, in [`Stance::ALL`](crate::tactics::Stance::ALL)
/// order) by stance name; empty when nothing was counted.
pub(super) fn stance_shares(ticks: &[u64; 5]) -> std::collections::BTreeMap<String, f64> {
    let total: u64 = ticks.iter().sum();
    if total == 0 {
        return std::collections::BTreeMap::new();
    }
    crate::tactics::Stance::ALL
        .iter()
        .zip(ticks)
        .map(|(s, n)| (s.name().to_owned(), 100.0 * *n as f64 / total as f64))
        .collect()
}

/// Writes the stance shares of all bots together, weighted by alive time.
pub(super) fn write_stances(f: &mut fmt::Formatter<'_>, bots: &[BotFigures]) -> fmt::Result {
    let mut sum = std::collections::BTreeMap::<String, f64>::new();
    let mut weight = 0.0;
    for b in bots.iter().filter(|b| !b.stance_pct.is_empty()) {
        weight += b.alive_s;
        for (k, v) in &b.stance_pct {
            *sum.entry(k.clone()).or_default() += v * b.alive_s;
        }
    }
    if weight <= 0.0 {
        return Ok(());
    }
    let parts: Vec<String> = crate::tactics::Stance::ALL
        .iter()
        .map(|s| format!("{} {:.1}%", s.name(), sum.get(s.name()).copied().unwrap_or(0.0) / weight))
        .collect();
    let mut suppressed = std::collections::BTreeMap::<&str, u64>::new();
    for b in bots {
        for (k, v) in &b.suppressed {
            *suppressed.entry(k.as_str()).or_default() += v;
        }
    }
    let sum = |get: fn(&BotFigures) -> u64| -> u64 { bots.iter().map(get).sum() };
    let breakoffs = sum(|b| b.breakoffs);
    let held: Vec<String> = suppressed.iter().map(|(k, v)| format!("{k} {v}")).collect();
    writeln!(
        f,
        "stances (bot_tactical): {}; engagements not taken: {}; fights broken off: {breakoffs}",
        parts.join(", "),
        if held.is_empty() { "none".to_owned() } else { held.join(", ") }
    )?;
    writeln!(
        f,
        "tactics: retreats {}, cover moves {}, repositions {}, matchup switches {}, matchup pickups {}, stance calls {}",
        sum(|b| b.retreats),
        sum(|b| b.cover_moves),
        sum(|b| b.repositions),
        sum(|b| b.matchup_switches),
        sum(|b| b.matchup_pickups),
        sum(|b| b.stance_calls),
    )
}
