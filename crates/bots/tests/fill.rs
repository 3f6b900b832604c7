//! `bot_minPlayers`: the server is topped up one bot per pass (a pass every
//! two seconds), bots leave one by one as humans arrive, a human joining a
//! full server takes a bot's slot, and bots survive a map change.

mod support;

use quarry_bots::{BotManager, BotSettings};
use quarry_sim::slots::Slots;
use quarry_sim::{ClientKind, GameData, Match, UserInfo};

fn human(game: &mut Match, name: &str) -> quarry_sim::SlotId {
    let info = UserInfo {
        name: name.into(),
        ..UserInfo::default()
    };
    let slot = game
        .connect(ClientKind::Remote { latency_ms: 30 }, info)
        .expect("human slot");
    game.enter_game(slot).expect("enter");
    slot
}

#[test]
fn fills_one_bot_per_pass_and_makes_way_for_humans() {
    let mut game = support::match_on("q_duel1", 9, 8);
    let mut bots = BotManager::new(BotSettings {
        min_players: 4,
        ..BotSettings::default()
    });
    let mut counts = Vec::new();
    for _ in 0..5 {
        // One pass every 2 s (120 ticks): count after each.
        support::run(&mut game, &mut bots, 120);
        counts.push(game.slots().bots());
    }
    assert_eq!(counts, [1, 2, 3, 4, 4], "one bot per pass up to the target");
    // A human arrives: one bot leaves at the next pass, not more.
    human(&mut game, "Visitor");
    support::run(&mut game, &mut bots, 120);
    assert_eq!((game.slots().humans(), game.slots().bots()), (1, 3));
    support::run(&mut game, &mut bots, 240);
    assert_eq!(game.slots().bots(), 3, "bots never count as humans toward the target");
}

#[test]
fn a_human_joining_a_full_server_takes_a_bots_slot() {
    let mut game = support::match_on("q_duel1", 9, 3);
    let mut bots = BotManager::new(BotSettings {
        min_players: 3,
        ..BotSettings::default()
    });
    support::run(&mut game, &mut bots, 3 * 120);
    assert_eq!(game.slots().bots(), 3);
    let info = UserInfo {
        name: "Late".into(),
        ..UserInfo::default()
    };
    assert!(
        game.connect(ClientKind::Remote { latency_ms: 0 }, info.clone())
            .is_err(),
        "full"
    );
    let freed = bots.make_room_for_human(&mut game).expect("a bot makes way");
    let slot = game
        .connect(ClientKind::Remote { latency_ms: 0 }, info)
        .expect("now there is room");
    assert_eq!(slot, freed);
    game.enter_game(slot).expect("enter");
    support::run(&mut game, &mut bots, 240);
    assert_eq!(
        (game.slots().humans(), game.slots().bots()),
        (1, 2),
        "the fill does not push the human out"
    );
    assert_eq!(bots.len(), 2);
}

#[test]
fn bots_survive_a_map_change() {
    let mut game = support::match_on("q_duel1", 9, 8);
    let mut bots = support::manager(2.0);
    let a = bots
        .add_bot(
            &mut game,
            quarry_bots::AddBot {
                name: Some("Stayer".into()),
                skill: Some(4.5),
                exact: false,
            },
        )
        .expect("bot");
    let b = bots.add_bot(&mut game, quarry_bots::AddBot::default()).expect("bot");
    support::run(&mut game, &mut bots, 300);
    let before: Vec<_> = bots
        .list(Some(&game))
        .into_iter()
        .map(|r| (r.slot, r.name, r.skill))
        .collect();
    assert!(bots.nav_status().contains("q_duel1"));
    // The server's map change: slots carry over into a new match on another map.
    let slots: Slots = game.into_slots();
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let mut game = Match::new(map, &GameData::default(), support::test_settings(), 77, slots, 60).expect("new match");
    support::run(&mut game, &mut bots, 300);
    let after: Vec<_> = bots
        .list(Some(&game))
        .into_iter()
        .map(|r| (r.slot, r.name, r.skill))
        .collect();
    assert_eq!(before, after, "same slots, names and skills");
    assert!(
        bots.nav_status().contains("q_dm1"),
        "navmesh rebuilt for the new map: {}",
        bots.nav_status()
    );
    for s in [a, b] {
        assert!(
            game.player_view(s).is_some_and(|p| p.alive),
            "slot {} plays on the new map",
            s.0
        );
    }
    let moved = bots.stats(a).is_some_and(|s| s.alive_ticks > 200);
    assert!(moved);
}
