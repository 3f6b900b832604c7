//! Stuck episodes and the hotspots they cluster into: where bots get stuck,
//! for how long, going where, on which kind of link, and how it ended.
//!
//! An **episode** is one run of ticks a bot spends stuck by the report's
//! definition (a route and no corner progress for 2 s, see
//! [`crate::navigate::STUCK_STAT_MS`]): it opens where the bot stands when
//! the run starts and closes when the bot makes progress again, its route
//! is dropped or gone, it dies, or the match ends.
//!
//! A **hotspot** gathers the episodes that opened in one navmesh cell
//! ([`HOTSPOT_CELL`] units square) at one height band, over every bot of a
//! match, so the same few places show up at the top of the report.

use std::collections::BTreeMap;

use glam::Vec3;

use crate::decide::GoalKind;
use crate::navigate::LinkKind;

/// Episodes kept per bot and match; later ones are counted, not kept.
pub const MAX_EPISODES: usize = 4096;
/// Side of a hotspot's cell, units (the navmesh's cell size).
pub const HOTSPOT_CELL: f32 = 24.0;
/// Height of a hotspot's band, units (floors of a catwalk and the
/// corridor under it are different places).
pub const HOTSPOT_BAND: f32 = 64.0;
/// Hotspots in a report.
pub const REPORTED_HOTSPOTS: usize = 12;

/// How a stuck episode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StuckEnd {
    /// The bot reached its next corner after all.
    Progressed,
    /// The route follower gave up on the route (stuck or timed out).
    RouteDropped,
    /// The route went away otherwise (a new goal, a goal reached or lost).
    RouteGone,
    /// The bot died (or was frozen).
    Died,
    /// Still stuck when the match ended.
    MatchEnded,
}

impl StuckEnd {
    /// Short name.
    pub fn name(self) -> &'static str {
        match self {
            StuckEnd::Progressed => "progressed",
            StuckEnd::RouteDropped => "route dropped",
            StuckEnd::RouteGone => "route gone",
            StuckEnd::Died => "died",
            StuckEnd::MatchEnded => "match ended",
        }
    }
}

/// One run of stuck ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StuckEpisode {
    /// Where the bot stood when it began.
    pub pos: Vec3,
    /// Tick it began.
    pub start_tick: u32,
    /// Ticks it lasted.
    pub ticks: u32,
    /// The movement goal then.
    pub goal: Option<GoalKind>,
    /// The kind of link to the corner the bot was heading for.
    pub link: Option<LinkKind>,
    /// How it ended (`MatchEnded` while open).
    pub end: StuckEnd,
}

/// A bot's stuck episodes over a match.
#[derive(Debug, Clone, Default)]
pub struct StuckLog {
    episodes: Vec<StuckEpisode>,
    open: Option<StuckEpisode>,
    /// Episodes past [`MAX_EPISODES`], not kept.
    pub overflow: u64,
}

impl StuckLog {
    /// One tick of a living bot: `stuck` by the report's definition now;
    /// if not, `end` says why an open episode closes.
    pub fn tick(&mut self, stuck: bool, tick: u32, pos: Vec3, goal: Option<GoalKind>, link: Option<LinkKind>, end: StuckEnd) {
        match (&mut self.open, stuck) {
            (Some(open), true) => open.ticks += 1,
            (None, true) => self.open = Some(StuckEpisode { pos, start_tick: tick, ticks: 1, goal, link, end: StuckEnd::MatchEnded }),
            (Some(_), false) => self.close(end),
            (None, false) => {}
        }
    }

    /// Closes the open episode, if any, as `end`.
    pub fn close(&mut self, end: StuckEnd) {
        let Some(mut e) = self.open.take() else { return };
        e.end = end;
        if self.episodes.len() < MAX_EPISODES {
            self.episodes.push(e);
        } else {
            self.overflow += 1;
        }
    }

    /// Episodes closed so far, kept or not: grows whenever one closes.
    pub fn closed(&self) -> u64 {
        self.episodes.len() as u64 + self.overflow
    }

    /// Every episode, the open one last (as still going at the match's end).
    pub fn episodes(&self) -> impl Iterator<Item = &StuckEpisode> {
        self.episodes.iter().chain(self.open.as_ref())
    }
}

/// Episodes that opened in one place, over every bot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Hotspot {
    /// The mean of the episodes' positions.
    pub pos: [f32; 3],
    /// Seconds stuck there, all bots together.
    pub seconds: f64,
    /// Episodes.
    pub episodes: u32,
    /// Distinct bots.
    pub bots: u32,
    /// The goal most of the time was spent on (its short name).
    pub goal: String,
    /// The kind of link most of the time was spent heading for.
    pub link: String,
    /// How the episodes ended, with counts, most first.
    pub ended: Vec<(StuckEnd, u32)>,
}

/// The hotspots of a match: episodes of every bot (`(bot, episode)`) grouped
/// by cell and height band, the [`REPORTED_HOTSPOTS`] with the most time
/// first (ties by place, so the order is stable); `goal_name` names a goal
/// for the report (an item by its class, say).
pub fn hotspots<'a>(episodes: impl IntoIterator<Item = (u32, &'a StuckEpisode)>, hz: u32, goal_name: &dyn Fn(GoalKind) -> String) -> Vec<Hotspot> {
    #[derive(Default)]
    struct Acc {
        sum: Vec3,
        ticks: u64,
        episodes: u32,
        bots: Vec<u32>,
        goals: BTreeMap<String, u64>,
        links: BTreeMap<String, u64>,
        ended: BTreeMap<StuckEnd, u32>,
    }
    let key = |p: Vec3| {
        let cell = |v: f32, size: f32| (v / size).floor() as i64;
        (cell(p.x, HOTSPOT_CELL), cell(p.y, HOTSPOT_CELL), cell(p.z, HOTSPOT_BAND))
    };
    let mut places: BTreeMap<(i64, i64, i64), Acc> = BTreeMap::new();
    for (bot, e) in episodes {
        let a = places.entry(key(e.pos)).or_default();
        a.sum += e.pos;
        a.ticks += u64::from(e.ticks);
        a.episodes += 1;
        if !a.bots.contains(&bot) {
            a.bots.push(bot);
        }
        *a.goals.entry(e.goal.map_or_else(|| "none".to_owned(), goal_name)).or_default() += u64::from(e.ticks);
        *a.links.entry(e.link.map_or_else(|| "-".to_owned(), |l| format!("{l:?}").to_lowercase())).or_default() += u64::from(e.ticks);
        *a.ended.entry(e.end).or_default() += 1;
    }
    let most = |m: &BTreeMap<String, u64>| m.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(k, _)| k.clone()).unwrap_or_default();
    let mut out: Vec<((i64, i64, i64), Hotspot)> = places
        .into_iter()
        .map(|(k, a)| {
            let mean = a.sum / a.episodes.max(1) as f32;
            let mut ended: Vec<(StuckEnd, u32)> = a.ended.into_iter().collect();
            ended.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
            let hotspot = Hotspot {
                pos: [mean.x.round(), mean.y.round(), mean.z.round()],
                seconds: a.ticks as f64 / f64::from(hz.max(1)),
                episodes: a.episodes,
                bots: a.bots.len() as u32,
                goal: most(&a.goals),
                link: most(&a.links),
                ended,
            };
            (k, hotspot)
        })
        .collect();
    out.sort_by(|a, b| b.1.seconds.total_cmp(&a.1.seconds).then(a.0.cmp(&b.0)));
    out.into_iter().take(REPORTED_HOTSPOTS).map(|(_, h)| h).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(log: &mut StuckLog, from: u32, ticks: u32, pos: Vec3, end: StuckEnd) {
        for t in from..from + ticks {
            log.tick(true, t, pos + Vec3::X * (t - from) as f32 * 0.1, Some(GoalKind::Roam), Some(LinkKind::Walk), end);
        }
        log.tick(false, from + ticks, pos, None, None, end);
    }

    #[test]
    fn an_episode_opens_where_the_run_starts_and_closes_with_its_reason() {
        let mut log = StuckLog::default();
        run(&mut log, 100, 30, Vec3::new(10.0, 20.0, 0.0), StuckEnd::RouteDropped);
        log.tick(true, 200, Vec3::new(500.0, 0.0, 0.0), None, None, StuckEnd::Progressed);
        let all: Vec<&StuckEpisode> = log.episodes().collect();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].pos, all[0].start_tick, all[0].ticks, all[0].end), (Vec3::new(10.0, 20.0, 0.0), 100, 30, StuckEnd::RouteDropped));
        assert_eq!(all[1].end, StuckEnd::MatchEnded, "the open one is still going");
        log.close(StuckEnd::Died);
        assert_eq!(log.episodes().last().map(|e| e.end), Some(StuckEnd::Died));
    }

    #[test]
    fn the_log_is_bounded() {
        let mut log = StuckLog::default();
        for i in 0..MAX_EPISODES as u32 + 10 {
            run(&mut log, i * 10, 2, Vec3::ZERO, StuckEnd::Progressed);
        }
        assert_eq!(log.episodes().count(), MAX_EPISODES);
        assert_eq!(log.overflow, 10);
    }

    #[test]
    fn hotspots_gather_episodes_by_place_most_time_first() {
        let (mut a, mut b) = (StuckLog::default(), StuckLog::default());
        // Two bots stuck in the same cell; one elsewhere for less time;
        // one above the first place (another floor).
        run(&mut a, 0, 120, Vec3::new(100.0, 100.0, 0.0), StuckEnd::RouteDropped);
        run(&mut b, 0, 60, Vec3::new(105.0, 98.0, 4.0), StuckEnd::Progressed);
        run(&mut b, 500, 90, Vec3::new(-400.0, 0.0, 0.0), StuckEnd::RouteGone);
        run(&mut a, 900, 30, Vec3::new(100.0, 100.0, 200.0), StuckEnd::RouteDropped);
        let spots = hotspots(a.episodes().map(|e| (1, e)).chain(b.episodes().map(|e| (2, e))), 60, &GoalKind::describe);
        assert_eq!(spots.len(), 3);
        assert_eq!((spots[0].episodes, spots[0].bots, spots[0].seconds), (2, 2, 3.0));
        assert_eq!(spots[0].goal, "roam");
        assert_eq!(spots[0].link, "walk");
        assert_eq!(spots[0].ended, vec![(StuckEnd::Progressed, 1), (StuckEnd::RouteDropped, 1)]);
        assert_eq!(spots[1].seconds, 1.5);
        assert_eq!(spots[2].pos[2], 200.0, "another floor is another place");
    }
}
