//! Who won a card match, and where one player placed, read from the
//! match's final [`Scoreboard`] (pure functions; the live server and the
//! headless run both use them).
//!
//! Free-for-all and Duel go by frags (the scoreboard's order): the one
//! player with the most wins; a shared top score is a draw. Team games go
//! by the team scores (frags in TDM, captures in CTF and One Flag, rounds in
//! Freeze Tag and Clan Arena); equal scores are a draw. A draw is not a win
//! for progression.

use quarry_sim::{Scoreboard, SlotId, Team};

/// Who won a match.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// One player (free-for-all, duel).
    Player {
        /// Their name.
        name: String,
        /// Their slot.
        slot: SlotId,
    },
    /// A team.
    Team(Team),
    /// Nobody: a shared top score.
    Draw,
}

impl std::fmt::Display for Winner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Player { name, .. } => f.write_str(name),
            Self::Team(t) => write!(f, "{} team", t.name()),
            Self::Draw => f.write_str("draw"),
        }
    }
}

/// How one player's match went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchResult {
    /// Won outright.
    Won,
    /// Shared the top score.
    Draw,
    /// Anything else.
    Lost,
}

impl MatchResult {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Won => "won",
            Self::Draw => "draw",
            Self::Lost => "lost",
        }
    }
}

/// Where one player placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Placing {
    /// 1-based place: among players by frags (free-for-all, duel), or of
    /// the two teams (team games). Tied players share a place.
    pub place: usize,
    /// Places there were: players, or 2 teams.
    pub of: usize,
    /// Whether someone else shares the place.
    pub tied: bool,
    /// The player's frags.
    pub frags: i32,
    /// How the match went for them.
    pub result: MatchResult,
}

impl std::fmt::Display for Placing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}/{}", self.place, if self.tied { "=" } else { "" }, self.of)
    }
}

/// The winner of a finished match.
pub fn winner(board: &Scoreboard) -> Winner {
    if let Some((red, blue)) = board.team_scores {
        return match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Winner::Team(Team::Red),
            std::cmp::Ordering::Less => Winner::Team(Team::Blue),
            std::cmp::Ordering::Equal => Winner::Draw,
        };
    }
    let mut rows = board.rows.iter();
    match (rows.next(), rows.next()) {
        (Some(top), second) if second.is_none_or(|s| s.score.frags < top.score.frags) => Winner::Player { name: top.name.clone(), slot: top.slot },
        (Some(_), _) => Winner::Draw,
        (None, _) => Winner::Draw,
    }
}

/// Where the player in `slot` placed, if they are on the scoreboard.
pub fn placing(board: &Scoreboard, slot: SlotId) -> Option<Placing> {
    let me = board.rows.iter().find(|r| r.slot == slot)?;
    let frags = me.score.frags;
    if let Some((red, blue)) = board.team_scores {
        let (mine, theirs) = match me.team {
            Team::Red => (red, blue),
            Team::Blue => (blue, red),
            _ => return None,
        };
        let (place, tied, result) = match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => (1, false, MatchResult::Won),
            std::cmp::Ordering::Equal => (1, true, MatchResult::Draw),
            std::cmp::Ordering::Less => (2, false, MatchResult::Lost),
        };
        return Some(Placing { place, of: 2, tied, frags, result });
    }
    let place = 1 + board.rows.iter().filter(|r| r.score.frags > frags).count();
    let tied = board.rows.iter().any(|r| r.slot != slot && r.score.frags == frags);
    let result = match (place, tied) {
        (1, false) => MatchResult::Won,
        (1, true) => MatchResult::Draw,
        _ => MatchResult::Lost,
    };
    Some(Placing { place, of: board.rows.len(), tied, frags, result })
}

/// The scores in a few characters: `3-1` (red-blue) for team games, the
/// frags of everyone in order for the others (at most six, then `…`).
pub fn score_line(board: &Scoreboard) -> String {
    if let Some((r, b)) = board.team_scores {
        return format!("{r}-{b}");
    }
    let mut frags: Vec<String> = board.rows.iter().take(6).map(|r| r.score.frags.to_string()).collect();
    if board.rows.len() > 6 {
        frags.push("…".to_owned());
    }
    frags.join("-")
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_sim::rules::{GameType, Phase};
    use quarry_sim::scoreboard::ScoreRow;

    fn board(gametype: GameType, team_scores: Option<(i32, i32)>, rows: &[(u8, &str, Team, i32)]) -> Scoreboard {
        let mut rows: Vec<ScoreRow> = rows
            .iter()
            .map(|&(slot, name, team, frags)| ScoreRow {
                slot: SlotId(slot),
                name: name.to_owned(),
                team,
                bot: true,
                score: quarry_sim::slots::ScoreCard { frags, ..Default::default() },
            })
            .collect();
        rows.sort_by(|a, b| b.score.frags.cmp(&a.score.frags).then(a.slot.cmp(&b.slot)));
        Scoreboard { gametype, phase: Phase::Over, team_scores, end_reason: Some("Timelimit hit.".into()), rows }
    }

    #[test]
    fn free_for_all_goes_by_frags_and_a_shared_top_is_a_draw() {
        let b = board(GameType::Ffa, None, &[(0, "Wren", Team::Free, 7), (1, "Rook", Team::Free, 12), (2, "Pike", Team::Free, 3)]);
        assert_eq!(winner(&b), Winner::Player { name: "Rook".into(), slot: SlotId(1) });
        let p = placing(&b, SlotId(0)).expect("on the board");
        assert_eq!((p.place, p.of, p.tied, p.result), (2, 3, false, MatchResult::Lost));
        assert_eq!(placing(&b, SlotId(1)).map(|p| p.result), Some(MatchResult::Won));
        assert_eq!(score_line(&b), "12-7-3");
        let tie = board(GameType::Ffa, None, &[(0, "Wren", Team::Free, 9), (1, "Rook", Team::Free, 9), (2, "Pike", Team::Free, 3)]);
        assert_eq!(winner(&tie), Winner::Draw);
        let p = placing(&tie, SlotId(0)).expect("on the board");
        assert_eq!((p.place, p.tied, p.result), (1, true, MatchResult::Draw));
        assert_eq!(p.to_string(), "1=/3");
        assert_eq!(placing(&tie, SlotId(9)), None, "not on the board");
    }

    #[test]
    fn team_games_go_by_team_score() {
        let b = board(GameType::Ctf, Some((1, 3)), &[(0, "Wren", Team::Red, 9), (1, "Rook", Team::Blue, 2)]);
        assert_eq!(winner(&b), Winner::Team(Team::Blue));
        assert_eq!(winner(&b).to_string(), "blue team");
        let p = placing(&b, SlotId(0)).expect("on the board");
        assert_eq!((p.place, p.of, p.result, p.frags), (2, 2, MatchResult::Lost, 9), "most frags, losing team");
        assert_eq!(placing(&b, SlotId(1)).map(|p| p.result), Some(MatchResult::Won));
        assert_eq!(score_line(&b), "1-3");
        let even = board(GameType::Tdm, Some((4, 4)), &[(0, "Wren", Team::Red, 4), (1, "Rook", Team::Blue, 4)]);
        assert_eq!(winner(&even), Winner::Draw);
        assert_eq!(placing(&even, SlotId(1)).map(|p| p.result), Some(MatchResult::Draw));
    }
}
