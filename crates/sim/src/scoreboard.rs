//! The scoreboard of a match: one row per player, the team scores and the
//! objective columns of the game type (CTF and One Flag: captures, returns,
//! assists, defends; Freeze Tag: thaws), and its text form.

use crate::rules::{GameType, Phase};
use crate::slots::{SlotId, Team};

/// One scoreboard line.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScoreRow {
    /// Slot.
    pub slot: SlotId,
    /// Name.
    pub name: String,
    /// Team.
    pub team: Team,
    /// Whether a bot holds the slot.
    pub bot: bool,
    /// Score.
    pub score: crate::slots::ScoreCard,
}

/// The scoreboard of a match.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Scoreboard {
    /// Game type.
    pub gametype: GameType,
    /// Phase.
    pub phase: Phase,
    /// Red and blue scores in team games.
    pub team_scores: Option<(i32, i32)>,
    /// Why the match ended.
    pub end_reason: Option<String>,
    /// Players by frags.
    pub rows: Vec<ScoreRow>,
}

impl std::fmt::Display for Scoreboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} ({})", self.gametype.name(), self.phase.name())?;
        if let Some((r, b)) = self.team_scores {
            writeln!(f, "red {r}  blue {b}")?;
        }
        if let Some(reason) = &self.end_reason {
            writeln!(f, "{reason}")?;
        }
        let ctf = self.gametype.has_flags();
        let ft = self.gametype == GameType::FreezeTag;
        if ctf {
            write!(f, "{:>4} {:>4} {:>4} {:>4} ", "caps", "ret", "ast", "def")?;
        }
        if ft {
            write!(f, "{:>5} ", "thaws")?;
        }
        writeln!(f, "{:>5} {:>6} {:>5}  {:<6} name", "frags", "deaths", "acc%", "team")?;
        for r in &self.rows {
            if ctf {
                write!(f, "{:>4} {:>4} {:>4} {:>4} ", r.score.captures, r.score.returns, r.score.assists, r.score.defends)?;
            }
            if ft {
                write!(f, "{:>5} ", r.score.thaws)?;
            }
            let acc = if r.score.shots > 0 { 100.0 * r.score.hits as f32 / r.score.shots as f32 } else { 0.0 };
            writeln!(
                f,
                "{:>5} {:>6} {:>5.1}  {:<6} {}{}",
                r.score.frags,
                r.score.deaths,
                acc,
                r.team.name(),
                r.name,
                if r.bot { " (bot)" } else { "" }
            )?;
        }
        Ok(())
    }
}
