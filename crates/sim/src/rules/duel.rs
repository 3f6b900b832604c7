//! Duel: two players, everyone else waits in a queue as a spectator.

use crate::slots::{SlotId, SlotState, Slots, Team};

/// Fills the duel from the queue: while fewer than two players are in play,
/// the spectator who has waited longest (earliest `joined_tick`, then
/// lowest slot) comes in. With `loser` given (a finished match), that
/// player goes to the back of the queue first. Returns who came in.
pub fn duel_rotation(slots: &mut Slots, loser: Option<SlotId>, tick: u32) -> Vec<SlotId> {
    if let Some(l) = loser
        && let Some(s) = slots.get_mut(l)
        && s.team == Team::Free
    {
        s.team = Team::Spectator;
        s.joined_tick = tick;
    }
    let mut entered = Vec::new();
    loop {
        let playing = slots.iter().filter(|(_, s)| s.team == Team::Free).count();
        if playing >= 2 {
            break;
        }
        let next = slots
            .iter()
            .filter(|(id, s)| s.team == Team::Spectator && s.state == SlotState::InGame && Some(*id) != loser)
            .min_by_key(|(id, s)| (s.joined_tick, *id))
            .map(|(id, _)| id);
        let Some(id) = next.or_else(|| {
            // Only the loser is left waiting: they play again.
            loser.filter(|l| slots.get(*l).is_some_and(|s| s.team == Team::Spectator && !entered.contains(l)))
        }) else {
            break;
        };
        if let Some(s) = slots.get_mut(id) {
            s.team = Team::Free;
        }
        entered.push(id);
    }
    entered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::{ClientKind, UserInfo};

    fn add(slots: &mut Slots, name: &str, team: Team, tick: u32) -> SlotId {
        let id = slots.allocate(ClientKind::Bot, UserInfo { name: name.into(), ..UserInfo::default() }, tick).expect("slot");
        if let Some(s) = slots.get_mut(id) {
            s.team = team;
            s.state = SlotState::InGame;
        }
        id
    }

    #[test]
    fn loser_goes_to_back_of_queue() {
        let mut slots = Slots::new(8);
        let a = add(&mut slots, "a", Team::Free, 0);
        let b = add(&mut slots, "b", Team::Free, 0);
        let c = add(&mut slots, "c", Team::Spectator, 5);
        let d = add(&mut slots, "d", Team::Spectator, 3);
        assert_eq!(duel_rotation(&mut slots, Some(b), 100), vec![d]);
        assert_eq!(slots.get(b).map(|s| s.team), Some(Team::Spectator));
        // Next time a loses: c (waited since 5) comes before b (since 100).
        assert_eq!(duel_rotation(&mut slots, Some(a), 200), vec![c]);
    }

    #[test]
    fn lone_loser_plays_again() {
        let mut slots = Slots::new(8);
        let a = add(&mut slots, "a", Team::Free, 0);
        let b = add(&mut slots, "b", Team::Free, 0);
        assert_eq!(duel_rotation(&mut slots, Some(a), 10), vec![a]);
        assert_eq!(slots.get(b).map(|s| s.team), Some(Team::Free));
    }
}
