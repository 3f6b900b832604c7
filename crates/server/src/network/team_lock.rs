//! Locked teams: `lock red|blue` stops players joining a team by their own
//! choice (a `team` command, or being placed on it as they enter) until
//! `unlock`. The operator's own moves (`forceteam`) and the bots the
//! server adds are not held by a lock: it stops strangers, not the operator.
//! A lock is on the network's side because only remote players choose;
//! it lasts until unlocked or the server stops (a map change keeps it).

use quarry_sim::{Match, SlotId, Team};

/// Which of the two teams are locked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TeamLocks {
    red: bool,
    blue: bool,
}

/// Why a lock could not be set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamLockError {
    /// Only red and blue are locked.
    #[error("only red and blue can be locked, not {0}")]
    NotATeam(&'static str),
}

impl TeamLocks {
    /// Locks or unlocks `team` (red or blue).
    pub fn set(&mut self, team: Team, locked: bool) -> Result<(), TeamLockError> {
        match team {
            Team::Red => self.red = locked,
            Team::Blue => self.blue = locked,
            other => return Err(TeamLockError::NotATeam(other.name())),
        }
        Ok(())
    }

    /// Whether `team` is locked.
    pub fn is_locked(&self, team: Team) -> bool {
        match team {
            Team::Red => self.red,
            Team::Blue => self.blue,
            _ => false,
        }
    }

    /// The refusal for a player's command line, if it asks to join a
    /// locked team (`team red` while red is locked).
    pub fn refusal(&self, line: &str) -> Option<String> {
        let mut words = line.split_whitespace();
        if words.next() != Some("team") {
            return None;
        }
        let team = Team::parse(words.next()?)?;
        self.is_locked(team).then(|| format!("the {} team is locked (an operator locked it; try the other team or spectate)", team.name()))
    }

    /// After a player entered the game on `team`: when that team is
    /// locked, moves them to the other team if it is open, else to the
    /// spectators. Returns the team they end up on.
    pub fn place(&self, game: &mut Match, slot: SlotId, team: Team) -> Team {
        if !self.is_locked(team) {
            return team;
        }
        let other = if team == Team::Red { Team::Blue } else { Team::Red };
        for to in [other, Team::Spectator] {
            if !self.is_locked(to) && game.set_team(slot, to).is_ok() {
                return to;
            }
        }
        team
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locked_team_refuses_team_commands_only() {
        let mut locks = TeamLocks::default();
        locks.set(Team::Red, true).expect("red");
        assert!(locks.refusal("team red").is_some_and(|r| r.contains("red team is locked")));
        assert!(locks.refusal("team r").is_some());
        assert_eq!(locks.refusal("team blue"), None);
        assert_eq!(locks.refusal("kill"), None);
        assert_eq!(locks.set(Team::Free, true), Err(TeamLockError::NotATeam("free")));
        locks.set(Team::Red, false).expect("unlock");
        assert_eq!(locks.refusal("team red"), None);
    }
}
