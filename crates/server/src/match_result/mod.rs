//! `sv_matchResultDir DIR`: when a match ends, its result is written into
//! `DIR` as one JSON file (`20261206-171500-q_dm1-ffa.json`: its end time
//! in UTC, map and game type), atomically, for a league's scripts, a
//! tournament bracket or a webhook relay to pick up. Empty = off.
//!
//! The file holds the match's identity (map, game type, seed, the state
//! hash it ended on), how long it ran, why it ended, the winner, and the
//! scoreboard with each player's score card. It is written only for a
//! match that ended on its own rules (not for one cut short by a map
//! change or a shutdown). A folder that cannot be made or written is
//! reported on the operator log and the match goes on.

use std::path::{Path, PathBuf};

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId};
use quarry_sim::{Scoreboard, Team};
use serde::Serialize;

use crate::feature::{MatchView, Observer, TickReport};
use crate::headless::HeadlessSummary;

/// The cvar naming the folder.
pub const DIR_CVAR: &str = "sv_matchResultDir";

/// Writes each finished match's result (see the module doc).
#[derive(Debug)]
pub struct MatchResults {
    dir: CvarId,
}

/// What a result file holds.
#[derive(Debug, Serialize)]
pub struct MatchResult<'a> {
    /// When the match ended, RFC 3339 UTC.
    pub ended_at: String,
    /// The map's name.
    pub map: &'a str,
    /// The game type.
    pub gametype: &'a str,
    /// The match seed.
    pub seed: u64,
    /// The state hash the match ended on (a replay ends on the same).
    pub final_hash: &'a str,
    /// Match time played, seconds.
    pub duration_s: f64,
    /// Why the match ended (`fraglimit hit`, `timelimit hit`, ...).
    pub end_reason: Option<&'a str>,
    /// The winner: `red`/`blue` in team games, a player's name otherwise;
    /// none for a draw.
    pub winner: Option<String>,
    /// Red's and blue's scores in team games.
    pub team_scores: Option<(i32, i32)>,
    /// Every player, best first.
    pub players: Vec<PlayerResult<'a>>,
}

/// One player's line in a result.
#[derive(Debug, Serialize)]
pub struct PlayerResult<'a> {
    /// The name they played under.
    pub name: &'a str,
    /// Their team (`free` outside team games).
    pub team: &'a str,
    /// Whether a bot held the slot.
    pub bot: bool,
    /// Their score card (frags, deaths, captures, ...).
    pub score: &'a quarry_sim::slots::ScoreCard,
}

impl MatchResults {
    /// Registers `sv_matchResultDir`.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let dir = console.register_cvar(
            CvarDef::string(DIR_CVAR, "", "folder each finished match's result is written into as one JSON file (map, game type, seed, winner, scoreboard); empty = off")
                .flags(CvarFlags::ARCHIVE),
        )?;
        Ok(Self { dir })
    }
}

impl Observer for MatchResults {
    fn after_tick(&mut self, _report: &TickReport<'_>) {}

    fn match_over(&mut self, view: &MatchView<'_>, summary: Option<&HeadlessSummary>) {
        let dir = view.cvars.string(self.dir);
        let Some(summary) = summary.filter(|_| !dir.trim().is_empty()) else { return };
        let ended = crate::utc::now_ms();
        let result = result_of(summary, view.map_name, crate::utc::rfc3339_utc(ended));
        match write(Path::new(dir.trim()), &result, ended) {
            Ok(path) => tracing::info!("match result written to {}", path.display()),
            Err(e) => tracing::warn!("{DIR_CVAR} {dir}: couldn't write the match result: {e}"),
        }
    }
}

/// The result of the match `summary` describes.
pub fn result_of<'a>(summary: &'a HeadlessSummary, map: &'a str, ended_at: String) -> MatchResult<'a> {
    let board = &summary.scoreboard;
    MatchResult {
        ended_at,
        map,
        gametype: &summary.gametype,
        seed: summary.seed,
        final_hash: &summary.final_hash,
        duration_s: summary.simulated_seconds,
        end_reason: board.end_reason.as_deref(),
        winner: winner(board),
        team_scores: board.team_scores,
        players: board.rows.iter().map(|r| PlayerResult { name: &r.name, team: r.team.name(), bot: r.bot, score: &r.score }).collect(),
    }
}

/// The winning team by score, or the player alone at the top by frags.
fn winner(board: &Scoreboard) -> Option<String> {
    if let Some((red, blue)) = board.team_scores {
        return match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Some(Team::Red.name().to_owned()),
            std::cmp::Ordering::Less => Some(Team::Blue.name().to_owned()),
            std::cmp::Ordering::Equal => None,
        };
    }
    let [first, rest @ ..] = board.rows.as_slice() else { return None };
    let tied = rest.first().is_some_and(|second| second.score.frags == first.score.frags);
    (!tied).then(|| first.name.clone())
}

/// Writes `result` into `dir` (made if missing) under a name free there.
fn write(dir: &Path, result: &MatchResult<'_>, ended_ms: u64) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = crate::utc::file_stem(ended_ms, result.map, result.gametype);
    let path = (1..).map(|n| dir.join(if n == 1 { format!("{stem}.json") } else { format!("{stem}-{n}.json") })).find(|p| !p.exists()).unwrap_or_else(|| dir.join(format!("{stem}.json")));
    let text = serde_json::to_string_pretty(result).map_err(|e| e.to_string())?;
    quarry_console::write_atomic(&path, &(text + "\n")).map_err(|e| e.to_string())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_sim::slots::ScoreCard;
    use quarry_sim::rules::{GameType, Phase};
    use quarry_sim::{ScoreRow, SlotId};

    fn row(name: &str, team: Team, frags: i32) -> ScoreRow {
        ScoreRow { slot: SlotId(0), name: name.to_owned(), team, bot: true, score: ScoreCard { frags, ..ScoreCard::default() } }
    }

    fn board(team_scores: Option<(i32, i32)>, rows: Vec<ScoreRow>) -> Scoreboard {
        Scoreboard { gametype: GameType::Ffa, phase: Phase::Over, team_scores, end_reason: None, rows }
    }

    #[test]
    fn the_winner_is_the_better_team_or_the_player_alone_at_the_top() {
        assert_eq!(winner(&board(Some((3, 1)), vec![])).as_deref(), Some("red"));
        assert_eq!(winner(&board(Some((0, 2)), vec![])).as_deref(), Some("blue"));
        assert_eq!(winner(&board(Some((2, 2)), vec![])), None, "a team draw");
        assert_eq!(winner(&board(None, vec![row("Wren", Team::Free, 5), row("Rook", Team::Free, 3)])).as_deref(), Some("Wren"));
        assert_eq!(winner(&board(None, vec![row("Wren", Team::Free, 5), row("Rook", Team::Free, 5)])), None, "tied at the top");
        assert_eq!(winner(&board(None, vec![])), None);
    }
}
