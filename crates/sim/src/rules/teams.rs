//! Team placement and balance.

use crate::slots::{SlotId, SlotState, Slots, Team};

use super::GameType;

/// Players on red and blue, counting clients still connecting (they have a
/// team already), so several joins in one tick alternate teams.
pub fn team_counts(slots: &Slots) -> (usize, usize) {
    let mut red = 0;
    let mut blue = 0;
    for (_, s) in slots.iter() {
        match s.team {
            Team::Red => red += 1,
            Team::Blue => blue += 1,
            _ => {}
        }
    }
    (red, blue)
}

/// Whether the client in `id` plays beside a teammate: it is attached to a
/// client on its team, or a client on its team is attached to it
/// ([`crate::Match::attach`]). The automatic balance moves neither of
/// such a pair: moving one would set them against each other.
pub fn held_together(slots: &Slots, id: SlotId) -> bool {
    let Some(me) = slots.get(id) else { return false };
    let mate = |other: Option<SlotId>| other.and_then(|o| slots.get(o)).is_some_and(|o| o.team == me.team);
    mate(me.attached_to) || slots.iter().any(|(o, s)| s.attached_to == Some(id) && mate(Some(o)))
}

/// Why a team change was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamChangeError {
    /// The game type has no such team.
    #[error("{0} is not a team in this game type")]
    NoSuchTeam(&'static str),
    /// Joining would make the teams uneven by more than one.
    #[error("{0} team has too many players")]
    Unbalanced(&'static str),
    /// Duel has two players; join the queue as a spectator.
    #[error("the duel is full; you are in the queue")]
    DuelFull,
}

/// The team a joining client gets: its preference when the rules allow it,
/// otherwise the smaller team (ties go to the team with the lower score,
/// then red). Free-for-all and Duel put players on `Free` (Duel: up to two).
pub fn choose_team(
    gametype: GameType,
    slots: &Slots,
    preference: Option<Team>,
    scores: (i32, i32),
) -> Team {
    if preference == Some(Team::Spectator) {
        return Team::Spectator;
    }
    match gametype {
        GameType::Ffa => Team::Free,
        GameType::Duel => {
            let playing = slots.iter().filter(|(_, s)| s.team == Team::Free).count();
            if playing < 2 { Team::Free } else { Team::Spectator }
        }
        GameType::Tdm | GameType::Ctf | GameType::OneFlag | GameType::FreezeTag | GameType::ClanArena => {
            let (red, blue) = team_counts(slots);
            if let Some(pref @ (Team::Red | Team::Blue)) = preference {
                let (mine, theirs) = if pref == Team::Red { (red, blue) } else { (blue, red) };
                if mine <= theirs {
                    return pref;
                }
            }
            if red != blue {
                return if red < blue { Team::Red } else { Team::Blue };
            }
            if scores.1 < scores.0 { Team::Blue } else { Team::Red }
        }
    }
}

/// Checks a requested team switch for `slot_team` -> `to`.
pub fn check_team_change(
    gametype: GameType,
    slots: &Slots,
    from: Team,
    to: Team,
    force_balance: bool,
) -> Result<(), TeamChangeError> {
    match (gametype, to) {
        (_, Team::Spectator) => Ok(()),
        (GameType::Ffa, Team::Free) => Ok(()),
        (GameType::Duel, Team::Free) => {
            let playing = slots.iter().filter(|(_, s)| s.team == Team::Free && s.state == SlotState::InGame).count();
            if from == Team::Free || playing < 2 { Ok(()) } else { Err(TeamChangeError::DuelFull) }
        }
        (GameType::Tdm | GameType::Ctf | GameType::OneFlag | GameType::FreezeTag | GameType::ClanArena, Team::Red | Team::Blue) => {
            if !force_balance {
                return Ok(());
            }
            let (mut red, mut blue) = team_counts(slots);
            match from {
                Team::Red => red -= 1,
                Team::Blue => blue -= 1,
                _ => {}
            }
            let (mine, theirs) = if to == Team::Red { (red, blue) } else { (blue, red) };
            if mine + 1 > theirs + 1 { Err(TeamChangeError::Unbalanced(to.name())) } else { Ok(()) }
        }
        (_, t) => Err(TeamChangeError::NoSuchTeam(t.name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::{ClientKind, UserInfo};

    fn join(slots: &mut Slots, gt: GameType, pref: Option<Team>) -> Team {
        let team = choose_team(gt, slots, pref, (0, 0));
        let id = slots.allocate(ClientKind::Bot, UserInfo { name: "b".into(), ..UserInfo::default() }, 0).expect("slot");
        if let Some(s) = slots.get_mut(id) {
            s.team = team;
        }
        team
    }

    #[test]
    fn batch_of_joins_alternates_teams() {
        let mut slots = Slots::new(16);
        let teams: Vec<Team> = (0..4).map(|_| join(&mut slots, GameType::Tdm, None)).collect();
        assert_eq!(teams, [Team::Red, Team::Blue, Team::Red, Team::Blue]);
        assert_eq!(team_counts(&slots), (2, 2));
    }

    #[test]
    fn preference_is_honoured_only_when_it_does_not_unbalance() {
        let mut slots = Slots::new(16);
        assert_eq!(join(&mut slots, GameType::Tdm, Some(Team::Blue)), Team::Blue);
        assert_eq!(join(&mut slots, GameType::Tdm, Some(Team::Blue)), Team::Red);
    }

    #[test]
    fn duel_has_two_players_then_spectators() {
        let mut slots = Slots::new(16);
        let teams: Vec<Team> = (0..3).map(|_| join(&mut slots, GameType::Duel, None)).collect();
        assert_eq!(teams, [Team::Free, Team::Free, Team::Spectator]);
    }

    #[test]
    fn an_attached_pair_is_held_only_while_it_shares_a_team() {
        let mut slots = Slots::new(16);
        for _ in 0..3 {
            join(&mut slots, GameType::Tdm, None);
        }
        // Slots 0 and 2 are red, 1 is blue; 2 plays beside 0.
        if let Some(s) = slots.get_mut(SlotId(2)) {
            s.attached_to = Some(SlotId(0));
        }
        let held: Vec<bool> = (0..3).map(|i| held_together(&slots, SlotId(i))).collect();
        assert_eq!(held, [true, false, true]);
        // Attached across teams: nothing to keep together.
        if let Some(s) = slots.get_mut(SlotId(2)) {
            s.attached_to = Some(SlotId(1));
        }
        assert!((0..3).all(|i| !held_together(&slots, SlotId(i))));
    }

    #[test]
    fn forced_balance_refuses_stacking() {
        let mut slots = Slots::new(16);
        for _ in 0..4 {
            join(&mut slots, GameType::Tdm, None);
        }
        // Red 2, Blue 2: a blue player moving to red makes 3-1.
        assert!(check_team_change(GameType::Tdm, &slots, Team::Blue, Team::Red, true).is_err());
        assert!(check_team_change(GameType::Tdm, &slots, Team::Spectator, Team::Red, true).is_ok());
        assert!(check_team_change(GameType::Tdm, &slots, Team::Blue, Team::Red, false).is_ok());
        assert!(check_team_change(GameType::Ffa, &slots, Team::Free, Team::Red, true).is_err());
    }
}
