//! Team placement in every team game type: a batch of joins in one tick
//! alternates teams (2-2), a human already on a team then four bots gives
//! 3-2, and `g_teamAutoBalance` evens the teams after leaves, never by
//! splitting a pair attached to each other.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use items_support::{HUMAN, arena, step};
use quarry_sim::rules::{GameType, team_counts};
use quarry_sim::slots::Team;
use quarry_sim::{ClientKind, Match, Settings, SlotId, UserCmd};
use support::{entity, join, match_on, test_settings};

const TEAM_GAMES: [GameType; 5] = [GameType::Tdm, GameType::Ctf, GameType::OneFlag, GameType::FreezeTag, GameType::ClanArena];

/// A map every team game type can use: spawns and all three flags.
fn new_match(gametype: GameType, settings: Settings) -> Match {
    let flags = [
        entity("team_CTF_redflag", glam::Vec3::new(-600.0, 0.0, 16.0), &[]),
        entity("team_CTF_blueflag", glam::Vec3::new(600.0, 0.0, 16.0), &[]),
        entity("team_CTF_neutralflag", glam::Vec3::new(0.0, 0.0, 16.0), &[]),
    ];
    let spots = [(-800.0, -800.0), (800.0, 800.0), (-800.0, 800.0), (800.0, -800.0), (0.0, -800.0), (0.0, 800.0)];
    match_on(&arena(&spots, &[], &flags), Settings { gametype, ..settings }, 9)
}

#[test]
fn a_batch_of_four_bots_gives_two_two_in_every_team_game() {
    for gt in TEAM_GAMES {
        let mut m = new_match(gt, test_settings());
        let bots: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("bot{i}"), ClientKind::Bot)).collect();
        let teams: Vec<Team> = bots.iter().map(|s| m.slots().get(*s).expect("slot").team).collect();
        assert_eq!(teams, [Team::Red, Team::Blue, Team::Red, Team::Blue], "{gt:?}");
        assert_eq!(team_counts(m.slots()), (2, 2), "{gt:?}");
    }
}

#[test]
fn a_human_on_a_team_then_four_bots_gives_three_two_in_every_team_game() {
    for gt in TEAM_GAMES {
        let mut m = new_match(gt, test_settings());
        let human = join(&mut m, "human", HUMAN);
        for i in 0..4 {
            join(&mut m, &format!("bot{i}"), ClientKind::Bot);
        }
        assert_eq!(m.slots().get(human).map(|s| s.team), Some(Team::Red), "{gt:?}");
        assert_eq!(team_counts(m.slots()), (3, 2), "{gt:?}");
    }
}

#[test]
fn auto_balance_applies_to_the_new_modes() {
    for gt in [GameType::OneFlag, GameType::FreezeTag, GameType::ClanArena] {
        let mut m = new_match(gt, test_settings());
        let s: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
        step(&mut m, &s, 10, &mut |_, _| UserCmd::default());
        m.disconnect(s[1]);
        m.disconnect(s[3]);
        assert_eq!(team_counts(m.slots()), (1, 1), "{gt:?}");
        assert_eq!(m.slots().get(s[2]).map(|x| x.team), Some(Team::Blue), "{gt:?}: the latest red joiner moved");
        step(&mut m, &[s[0], s[2]], 10, &mut |_, _| UserCmd::default());
        // One Flag respawns the moved player at once; in the round types
        // blue's only member sits out, so the round starts again, unscored,
        // with everyone.
        assert!(m.player_view(s[2]).is_some(), "{gt:?}");
        assert_eq!(m.rules().team_scores, (0, 0), "{gt:?}");
    }
}

/// Red: the owner, then two others, then the client attached to the owner
/// (the latest joiner, whom the balance took before); blue: two, who leave.
/// The balance moves one of the others; the pair stays on red. Attached
/// the other way round (the owner to the latest joiner) it is the same.
#[test]
fn auto_balance_moves_someone_else_than_an_attached_pair() {
    for gt in TEAM_GAMES {
        for owner_attached in [false, true] {
            let mut m = new_match(gt, Settings { team_force_balance: false, ..test_settings() });
            let s: Vec<SlotId> = (0..6).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
            // Red: p0, p2, p4; blue: p1, p3, p5. p5 goes to red beside p0.
            let (owner, pal) = (s[0], s[5]);
            m.set_team(pal, Team::Red).expect("p5 to red: 4-2 is allowed without forced balance");
            let (a, b) = if owner_attached { (owner, pal) } else { (pal, owner) };
            m.attach(a, Some(b)).expect("attach");
            step(&mut m, &s, 10, &mut |_, _| UserCmd::default());
            m.disconnect(s[1]);
            assert_eq!(team_counts(m.slots()), (3, 2), "{gt:?}: red had four, one moved");
            for p in [owner, pal] {
                assert_eq!(m.slots().get(p).map(|x| x.team), Some(Team::Red), "{gt:?}: the pair stays on red");
            }
            assert_eq!(m.slots().get(s[4]).map(|x| x.team), Some(Team::Blue), "{gt:?}: the latest other red joiner moved");
        }
    }
}

/// A pair that is all of the larger team stays: moving either would set
/// them against each other, and moving both would only swap the sides.
#[test]
fn auto_balance_leaves_the_teams_when_only_a_pair_could_move() {
    let mut m = new_match(GameType::Tdm, test_settings());
    let s: Vec<SlotId> = (0..4).map(|i| join(&mut m, &format!("p{i}"), HUMAN)).collect();
    m.attach(s[2], Some(s[0])).expect("attach");
    m.disconnect(s[1]);
    m.disconnect(s[3]);
    assert_eq!(team_counts(m.slots()), (2, 0));
    // The owner leaves: the one left beside it is free again.
    m.disconnect(s[0]);
    assert_eq!(m.slots().get(s[2]).and_then(|x| x.attached_to), None);
    assert_eq!(m.attach(s[2], Some(s[0])), Err(quarry_sim::slots::AttachError::NoSuchSlot(s[0].0)));
    assert_eq!(m.attach(s[2], Some(s[2])), Err(quarry_sim::slots::AttachError::Itself(s[2].0)));
}
