//! Headless matches (`--fast`): one match with no network and no sleeping,
//! ended by its frag or time limit, then a summary of the result and of how
//! fast it ran. Later issues add their figures to [`HeadlessSummary`].

use std::io::Write;
use std::time::Duration;

use crate::game::GameHost;
use crate::tick_stats::{TickStats, TickSummary};

/// Whether a headless match can start: a map is loaded and the match can end.
pub fn check_ready(host: &GameHost) -> Result<(), String> {
    let Some(game) = host.running.as_ref() else {
        return Err("--fast runs one headless match: give it a map, e.g. +map q_dm1".into());
    };
    let s = game.settings();
    if s.timelimit_min <= 0.0 {
        return Err("a headless match needs a timelimit (e.g. +set timelimit 10) so it is sure to end".into());
    }
    Ok(())
}

/// What a headless match reports.
#[derive(Debug, Clone, serde::Serialize)]
pub struct HeadlessSummary {
    /// The map file.
    pub map: String,
    /// Game type.
    pub gametype: String,
    /// The match seed (replays the match with the same inputs).
    pub seed: u64,
    /// Ticks simulated.
    pub ticks: u32,
    /// Tick rate.
    pub hz: u32,
    /// Simulated seconds.
    pub simulated_seconds: f64,
    /// Wall-clock seconds the run took.
    pub wall_seconds: f64,
    /// Ticks simulated per wall-clock second.
    pub ticks_per_second: f64,
    /// How many times faster than real time.
    pub realtime_factor: f64,
    /// Tick work time over the last ticks.
    pub tick_time: TickSummary,
    /// The state hash after the last tick.
    pub final_hash: String,
    /// The final scoreboard.
    pub scoreboard: quarry_sim::Scoreboard,
    /// What the objective modes counted (team games only): captures,
    /// returns, thaws, rounds and how they ended.
    pub mode: Option<quarry_sim::modes::ModeStats>,
    /// What the bots did: kills, deaths, stuck and idle time, pickups, accuracy.
    pub bots: Option<quarry_bots::report::MatchReport>,
}

/// Builds the summary of the match `host` runs (none without one):
/// `stats` are the tick's figures, `wall` how long the run took.
pub fn summary(host: &GameHost, bots: &quarry_bots::BotManager, stats: &TickStats, wall: Duration) -> Option<HeadlessSummary> {
    let game = host.running.as_ref()?;
    let ticks = game.tick();
    let hz = game.hz();
    let simulated = f64::from(ticks) / f64::from(hz);
    let wall_s = wall.as_secs_f64().max(1e-9);
    Some(HeadlessSummary {
        map: host.map_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
        gametype: game.rules().gametype.name().to_owned(),
        seed: game.seed(),
        ticks,
        hz,
        simulated_seconds: simulated,
        wall_seconds: wall_s,
        ticks_per_second: f64::from(ticks) / wall_s,
        realtime_factor: simulated / wall_s,
        tick_time: stats.summary(),
        final_hash: format!("{:016x}", game.state_hash()),
        scoreboard: game.scoreboard(),
        mode: game.rules().gametype.is_team_game().then(|| game.mode_stats()),
        bots: (game.slots().bots() > 0).then(|| bots.report(game)),
    })
}

/// Prints the summary on stdout: text, or one JSON object with `json`.
pub fn print_summary(summary: Option<&HeadlessSummary>, json: bool) {
    let Some(s) = summary else { return };
    let mut out = std::io::stdout().lock();
    if json {
        match serde_json::to_string(&s) {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
            }
            Err(e) => tracing::error!("couldn't encode the summary: {e}"),
        }
        return;
    }
    let bots = s.bots.as_ref().map(ToString::to_string);
    let _ = write!(out, "{}", summary_text(s, bots.as_deref()));
}

/// The summary as text; `bots` is the bot report's text, if any.
pub fn summary_text(s: &HeadlessSummary, bots: Option<&str>) -> String {
    let mut out = format!("headless match on {} ({}), seed {}\n", s.map, s.gametype, s.seed);
    out.push_str(&s.scoreboard.to_string());
    out.push_str(&format!(
        "simulated {} ticks ({:.1} s at {} Hz) in {:.3} s: {:.0} ticks/s, {:.1}x real time; tick mean {:.4} ms, p99 {:.4} ms\n",
        s.ticks, s.simulated_seconds, s.hz, s.wall_seconds, s.ticks_per_second, s.realtime_factor, s.tick_time.mean_ms, s.tick_time.p99_ms
    ));
    out.push_str(&format!("final state hash {}\n", s.final_hash));
    if let Some(mode) = &s.mode {
        out.push_str(&mode_lines(mode));
    }
    if let Some(bots) = bots {
        out.push_str(bots);
    }
    out
}

/// The objective figures of a team game as summary lines.
fn mode_lines(m: &quarry_sim::modes::ModeStats) -> String {
    let team = |name: &str, t: &quarry_sim::modes::TeamModeStats| {
        format!(
            "  {name:<4}  captures {:>3}  returns {:>3}  freezes {:>3}  thaws {:>3}  rounds won {:>3}\n",
            t.captures, t.returns, t.freezes, t.thaws, t.rounds_won
        )
    };
    let mut out = format!(
        "objectives: {} captures, {} returns, {} flag timeouts; {} thaws, {} auto thaws; {} rounds ({} by elimination, {} by timeout, {} drawn)\n",
        m.captures(),
        m.returns(),
        m.flag_timeouts,
        m.thaws(),
        m.auto_thaws,
        m.rounds_played,
        m.rounds_by_elimination,
        m.rounds_by_timeout,
        m.rounds_drawn
    );
    out.push_str(&team("red", &m.red));
    out.push_str(&team("blue", &m.blue));
    out
}
