//! Match figures for tuning and for the headless summary: per bot (kills,
//! deaths, time stuck, longest idle, pads and teleporters used, accuracy,
//! reaction), per weapon and skill (accuracy), and which item classes were
//! picked up out of those the map has.
//!
//! "Stuck" is the share of alive time with a route and no corner progress
//! for 2 s; "idle" the longest run alive, not moving and not waiting on
//! purpose. Stuck hotspots gather the stuck episodes of every bot by place
//! ([`crate::stuck`]). Reaction is the rolled delay of fresh acquisitions without the
//! peripheral penalty, comparable to the skill table.
//!
//! Chat: lines bots said (per event kind, replies), lines per simulated
//! minute, and how often a bot said the same line twice in a row (should be
//! 0), so a headless run shows whether the chat reads like people or spam.

mod team;

use std::collections::BTreeMap;
use std::fmt;

pub use team::{SenseRow, TeamReport, sense_rows};

use quarry_sim::{Match, SlotId};

use crate::brain::BotStats;
use crate::stuck::{Hotspot, StuckEpisode, StuckLog, hotspots};

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
    /// Lifts ridden.
    pub lifts: u64,
    /// Swims (went into a liquid over the waist; lava counts).
    pub swims: u64,
    /// Gates opened on the way to a goal (triggers, buttons, shots).
    pub gates: u64,
    /// Items picked up.
    pub pickups: u32,
    /// Shots and hits per weapon number: `(weapon, shots, hits)`.
    pub shots_hits: Vec<(u8, u32, u32)>,
    /// Mean fresh reaction, ms.
    pub reaction_ms: Option<f64>,
    /// The character it plays, if any.
    pub character: Option<String>,
    /// That character's play style, if any.
    pub style: Option<String>,
    /// Mean distance at which it hurt enemies, units.
    pub engagement_range: Option<f64>,
    /// Items picked up per minute alive.
    pub pickups_per_min: Option<f64>,
    /// Enemies noticed after coming into view.
    pub noticed: u64,
    /// Mean time from an enemy's first tick in view to noticing it, ms.
    pub notice_ms: Option<f64>,
    /// First shots at an enemy after it came into view.
    pub first_shots: u64,
    /// Mean time from an enemy's first tick in view to the first shot, ms.
    pub first_shot_ms: Option<f64>,
    /// First hits on an enemy after it came into view.
    pub first_hits: u64,
    /// Mean time from an enemy's first tick in view to the first hit, ms.
    pub first_hit_ms: Option<f64>,
    /// The fastest the view turned in any tick, degrees/s.
    pub peak_turn_deg_s: f64,
    /// Noises and reports it went to look into.
    pub investigations: u64,
    /// Teammates' facts it took in.
    pub reports_heard: u64,
    /// Investigations of a teammate's report that found that enemy.
    pub report_finds: u64,
    /// Orders it took.
    pub orders_taken: u64,
    /// Share of its alive time in each stance, percent (`bot_tactical` 1
    /// and up; empty when tactics were off).
    pub stance_pct: BTreeMap<String, f64>,
    /// Enemies in sight it chose not to engage, per reason (`bot_tactical`
    /// 3 and up).
    pub suppressed: BTreeMap<String, u64>,
    /// Fights it broke off.
    pub breakoffs: u64,
    /// Share of its time in stealth spent walking, percent.
    pub stealth_walk_pct: Option<f64>,
    /// Times it fell back (`bot_tactical` 2 and up).
    pub retreats: u64,
    /// Moves into cover it started.
    pub cover_moves: u64,
    /// Fights where it changed range for the weapon matchup.
    pub repositions: u64,
    /// Weapon switches the matchup asked for.
    pub matchup_switches: u64,
    /// Dropped weapons and ammo it went for to win a matchup.
    pub matchup_pickups: u64,
    /// Stance calls it made in team chat.
    pub stance_calls: u64,
    /// Its stuck episodes (gathered into the report's hotspots).
    #[serde(skip)]
    pub stuck_episodes: Vec<StuckEpisode>,
    /// Stuck episodes past the log's bound, not kept.
    pub stuck_overflow: u64,
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
            lifts: s.lifts,
            swims: s.swims,
            gates: s.gates_opened,
            pickups: s.pickups,
            shots_hits,
            reaction_ms: s.mean_fresh_reaction_ms(),
            character: None,
            style: None,
            engagement_range: s.mean_engagement_range(),
            pickups_per_min: s.pickups_per_minute(hz),
            noticed: s.noticed,
            notice_ms: s.mean_notice_ms(),
            first_shots: s.first_shots,
            first_shot_ms: s.mean_first_shot_ms(),
            first_hits: s.first_hits,
            first_hit_ms: s.mean_first_hit_ms(),
            peak_turn_deg_s: s.peak_turn_deg_s,
            investigations: s.investigations,
            reports_heard: s.reports_heard,
            report_finds: s.report_finds,
            orders_taken: s.orders_taken,
            stance_pct: team::stance_shares(&s.stance_ticks),
            suppressed: crate::tactics::Suppress::ALL
                .iter()
                .zip(s.suppressed)
                .filter(|(_, n)| *n > 0)
                .map(|(r, n)| (r.name().to_owned(), n))
                .collect(),
            breakoffs: s.breakoffs,
            stealth_walk_pct: (s.stealth_ticks > 0).then(|| 100.0 * s.stealth_walk_ticks as f64 / s.stealth_ticks as f64),
            retreats: s.retreats,
            cover_moves: s.cover_moves,
            repositions: s.repositions,
            matchup_switches: s.matchup_switches,
            matchup_pickups: s.matchup_pickups,
            stance_calls: s.stance_calls,
            stuck_episodes: Vec::new(),
            stuck_overflow: 0,
        }
    }

    /// The figures with the bot's stuck episodes.
    pub fn with_stuck(mut self, log: &StuckLog) -> Self {
        self.stuck_episodes = log.episodes().copied().collect();
        self.stuck_overflow = log.overflow;
        self
    }

    /// The figures with the bot's character and style.
    pub fn with_character(mut self, character: Option<String>, style: Option<String>) -> Self {
        self.character = character;
        self.style = style;
        self
    }
}

/// How the bots of one play style played, all of them together: what makes
/// styles measurably different.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StyleRow {
    /// The style (`-` for bots without one).
    pub style: String,
    /// Bots of that style.
    pub bots: usize,
    /// Mean distance at which they hurt enemies, weighted by hits, units.
    pub engagement_range: Option<f64>,
    /// Items picked up per minute alive, all of them together.
    pub pickups_per_min: Option<f64>,
    /// Kills per minute alive.
    pub kills_per_min: Option<f64>,
}

/// Groups `bots` by style (sorted by name).
pub fn style_rows(bots: &[BotFigures]) -> Vec<StyleRow> {
    let mut by: BTreeMap<String, Vec<&BotFigures>> = BTreeMap::new();
    for b in bots {
        by.entry(b.style.clone().unwrap_or_else(|| "-".into())).or_default().push(b);
    }
    by.into_iter()
        .map(|(style, bs)| {
            let minutes: f64 = bs.iter().map(|b| b.alive_s).sum::<f64>() / 60.0;
            let per_min = |n: f64| (minutes > 0.0).then(|| n / minutes);
            let (mut range_sum, mut hits) = (0.0, 0.0);
            for b in &bs {
                if let Some(r) = b.engagement_range {
                    let h: u32 = b.shots_hits.iter().map(|x| x.2).sum();
                    range_sum += r * f64::from(h);
                    hits += f64::from(h);
                }
            }
            StyleRow {
                style,
                bots: bs.len(),
                engagement_range: (hits > 0.0).then(|| range_sum / hits),
                pickups_per_min: per_min(bs.iter().map(|b| f64::from(b.pickups)).sum()),
                kills_per_min: per_min(bs.iter().map(|b| f64::from(b.kills)).sum()),
            }
        })
        .collect()
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
    /// Every item the map placed, with how many times bots took it (so a
    /// run shows which items bots never reached).
    pub item_spots: Vec<ItemSpot>,
    /// Accuracy per rounded skill and weapon.
    pub accuracy: Vec<AccuracyRow>,
    /// The navmesh line.
    pub navmesh: String,
    /// What bots said.
    pub chat: ChatReport,
    /// Objective play: role time shares and objective events by bots.
    pub objective: Option<crate::objective::ObjectiveReport>,
    /// Where bots got stuck, most time first.
    pub stuck_hotspots: Vec<Hotspot>,
    /// How fast each skill noticed enemies and shot at them.
    pub senses: Vec<SenseRow>,
    /// Team calls and orders (team games).
    pub team: Option<TeamReport>,
}

/// One item the map placed, and how often bots took it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ItemSpot {
    /// Its class.
    pub class: String,
    /// The middle of its pickup box, to the unit.
    pub origin: [i32; 3],
    /// Pickups by bots this match.
    pub taken: u32,
}

/// An item's place to the unit, as pickups and the report key it.
pub fn spot_key(origin: glam::Vec3) -> [i32; 3] {
    [origin.x.round() as i32, origin.y.round() as i32, origin.z.round() as i32]
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
    pub fn new(
        game: &Match,
        bots: Vec<BotFigures>,
        pickups: &BTreeMap<&'static str, u32>,
        spots: &BTreeMap<(&'static str, [i32; 3]), u32>,
        navmesh: String,
    ) -> Self {
        let mut items: BTreeMap<String, u32> = BTreeMap::new();
        let mut item_spots = Vec::new();
        let world = game.world();
        if let Some(mut q) = world.try_query::<&quarry_sim::items::Item>() {
            for item in q.iter(world) {
                items.entry(item.classname.to_owned()).or_default();
                let key = spot_key(item.origin);
                let taken = spots.get(&(item.classname, key)).copied().unwrap_or(0);
                item_spots.push(ItemSpot { class: item.classname.to_owned(), origin: key, taken });
            }
        }
        item_spots.sort_by(|a, b| (&a.class, a.origin).cmp(&(&b.class, b.origin)));
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
        // Items by their class ("item#12 (item_armor_body)").
        let mut classes: BTreeMap<u32, &'static str> = BTreeMap::new();
        if let Some(mut q) = world.try_query::<(&quarry_sim::components::NetId, &quarry_sim::items::Item)>() {
            for (id, item) in q.iter(world) {
                classes.insert(id.0, item.classname);
            }
        }
        let goal_name = |g: crate::decide::GoalKind| match g {
            crate::decide::GoalKind::Item(id) => classes.get(&id.0).map_or_else(|| g.describe(), |c| format!("{} ({c})", g.describe())),
            _ => g.describe(),
        };
        let episodes = bots.iter().flat_map(|b| b.stuck_episodes.iter().map(|e| (u32::from(b.slot.0), e)));
        let stuck_hotspots = hotspots(episodes, game.hz(), &goal_name);
        let senses = sense_rows(&bots);
        Self {
            map: game.map().name().to_owned(),
            seconds: f64::from(game.tick()) / f64::from(game.hz().max(1)),
            bots,
            items,
            item_spots,
            accuracy,
            navmesh,
            chat: ChatReport::default(),
            objective: None,
            stuck_hotspots,
            senses,
            team: None,
        }
    }

    /// The report with the team figures of the match (team games only).
    pub fn with_team(mut self, figures: crate::team::TeamFigures, team_game: bool) -> Self {
        self.team = team_game.then(|| TeamReport::new(figures, &self.bots, self.seconds));
        self
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
        self.write_bots(f)?;
        self.write_styles(f)?;
        self.write_accuracy(f)?;
        team::write_senses(f, &self.senses)?;
        team::write_stances(f, &self.bots)?;
        self.write_chat(f)?;
        if let Some(t) = &self.team {
            writeln!(f, "{t}")?;
        }
        if let Some(o) = &self.objective {
            writeln!(f, "{o}")?;
        }
        self.write_hotspots(f)?;
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

/// The text report's sections, in the order [`fmt::Display`] prints them.
impl MatchReport {
    /// One row per bot.
    fn write_bots(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<14} {:<10} {:>5} {:>5} {:>6} {:>7} {:>7} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6} {:>8} {:>7} {:>9}",
            "bot", "style", "skill", "kills", "deaths", "stuck%", "idle s", "pads", "tele", "lifts", "swims", "gates", "items", "acc%", "react ms", "range", "items/min"
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
                "{:<14} {:<10} {:>5.2} {:>5} {:>6} {:>7.2} {:>7.1} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6.1} {:>8} {:>7} {:>9}",
                b.name,
                b.style.as_deref().unwrap_or("-"),
                b.skill,
                b.kills,
                b.deaths,
                b.stuck_pct,
                b.max_idle_s,
                b.jump_pads,
                b.teleports,
                b.lifts,
                b.swims,
                b.gates,
                b.pickups,
                acc,
                b.reaction_ms.map_or_else(|| "-".to_owned(), |r| format!("{r:.0}")),
                b.engagement_range.map_or_else(|| "-".to_owned(), |r| format!("{r:.0}")),
                b.pickups_per_min.map_or_else(|| "-".to_owned(), |r| format!("{r:.2}"))
            )?;
        }
        Ok(())
    }

    /// The figures by play style, when there is more than one.
    fn write_styles(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let styles = style_rows(&self.bots);
        if styles.len() > 1 {
            writeln!(f, "by style:")?;
            let opt = |v: Option<f64>, p: usize| v.map_or_else(|| "-".to_owned(), |x| format!("{x:.p$}"));
            for r in &styles {
                writeln!(
                    f,
                    "  {:<10} {} bots  engagement range {:>5}  items/min {:>5}  kills/min {:>5}",
                    r.style,
                    r.bots,
                    opt(r.engagement_range, 0),
                    opt(r.pickups_per_min, 2),
                    opt(r.kills_per_min, 2)
                )?;
            }
        }
        Ok(())
    }

    /// Hits and shots by skill and weapon.
    fn write_accuracy(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
        Ok(())
    }

    /// The bots' chat figures.
    fn write_chat(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
        )
    }

    /// The places bots were stuck longest.
    fn write_hotspots(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stuck_hotspots.is_empty() {
            return Ok(());
        }
        writeln!(f, "stuck hotspots (most time first):")?;
        for h in &self.stuck_hotspots {
            let ended: Vec<String> = h.ended.iter().map(|(e, n)| format!("{} {n}", e.name())).collect();
            writeln!(
                f,
                "  ({:.0} {:.0} {:.0}) {:>6.1} s, {} episodes, {} bots; goal {}, link {}; ended: {}",
                h.pos[0],
                h.pos[1],
                h.pos[2],
                h.seconds,
                h.episodes,
                h.bots,
                h.goal,
                h.link,
                ended.join(", ")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(slot: u8, style: Option<&str>, alive_s: f64, range: Option<f64>, hits: u32, pickups: u32, kills: u32) -> BotFigures {
        BotFigures {
            slot: SlotId(slot),
            name: format!("b{slot}"),
            skill: 3.0,
            kills,
            deaths: 0,
            alive_s,
            stuck_pct: 0.0,
            max_idle_s: 0.0,
            jump_pads: 0,
            teleports: 0,
            lifts: 0,
            swims: 0,
            gates: 0,
            pickups,
            shots_hits: vec![(2, hits * 2, hits)],
            reaction_ms: None,
            character: None,
            style: style.map(str::to_owned),
            engagement_range: range,
            pickups_per_min: None,
            noticed: 4,
            notice_ms: Some(100.0 * f64::from(slot)),
            first_shots: 2,
            first_shot_ms: Some(500.0),
            first_hits: 1,
            first_hit_ms: Some(700.0),
            peak_turn_deg_s: 400.0,
            investigations: 0,
            reports_heard: 0,
            report_finds: 0,
            orders_taken: 0,
            stance_pct: BTreeMap::new(),
            suppressed: BTreeMap::new(),
            breakoffs: 0,
            stealth_walk_pct: None,
            retreats: 0,
            cover_moves: 0,
            repositions: 0,
            matchup_switches: 0,
            matchup_pickups: 0,
            stance_calls: 0,
            stuck_episodes: Vec::new(),
            stuck_overflow: 0,
        }
    }

    #[test]
    fn sense_rows_weight_delays_by_counts_per_skill() {
        let mut a = bot(1, None, 60.0, None, 1, 0, 0);
        let mut b = bot(3, None, 60.0, None, 1, 0, 0);
        b.noticed = 12;
        a.skill = 2.8;
        b.skill = 3.2;
        let rows = sense_rows(&[a, b]);
        assert_eq!(rows.len(), 1, "2.8 and 3.2 both round to 3");
        let r = &rows[0];
        assert_eq!((r.skill, r.bots, r.noticed, r.first_shots), (3, 2, 16, 4));
        // (4 x 100 + 12 x 300) / 16 = 250.
        assert_eq!(r.notice_ms, Some(250.0));
        assert_eq!(r.first_shot_ms, Some(500.0));
    }

    #[test]
    fn style_rows_weight_range_by_hits_and_rates_by_alive_time() {
        let bots = [
            bot(0, Some("sniper"), 60.0, Some(1000.0), 3, 2, 1),
            bot(1, Some("sniper"), 60.0, Some(600.0), 1, 4, 1),
            bot(2, Some("rusher"), 120.0, Some(200.0), 5, 12, 6),
            bot(3, None, 30.0, None, 0, 0, 0),
        ];
        let rows = style_rows(&bots);
        let names: Vec<&str> = rows.iter().map(|r| r.style.as_str()).collect();
        assert_eq!(names, ["-", "rusher", "sniper"]);
        let sniper = &rows[2];
        assert_eq!(sniper.bots, 2);
        // (1000 * 3 + 600 * 1) / 4 hits.
        assert_eq!(sniper.engagement_range, Some(900.0));
        // 6 items over 2 alive minutes.
        assert_eq!(sniper.pickups_per_min, Some(3.0));
        assert_eq!(rows[1].kills_per_min, Some(3.0));
        assert_eq!(rows[0].engagement_range, None);
    }
}
