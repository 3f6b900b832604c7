//! Team placement in every team game type: a batch of joins in one tick
//! alternates teams (2-2), a human already on a team then four bots gives
//! 3-2, and `g_teamAutoBalance` evens the teams after leaves.

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
