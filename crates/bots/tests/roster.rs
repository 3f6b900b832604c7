//! The roster in team games, on a real TDM match on q_dm1 with the team
//! balance on: a companion (`addbot ... brain=companion owner=NAME`) joins
//! its owner's team, or is refused when that team is full, and the balance
//! never moves it away from its owner; a human joining a full server takes
//! the slot of a fill bot from the team the human then joins, so nobody is
//! moved. (The fill's side of it, through the binary:
//! `crates/server/tests/roster.rs`.)

mod support;

use std::path::PathBuf;

use quarry_bots::{AddBot, AddBotError, BotManager, BotSettings};
use quarry_sim::rules::{GameType, team_counts};
use quarry_sim::slots::Slots;
use quarry_sim::{ClientKind, GameData, Match, SlotId, Team, UserInfo};

/// A TDM match on q_dm1 with `slots` slots, the team balance on (forced
/// and automatic, as shipped).
fn tdm(seed: u64, slots: usize) -> Match {
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings { gametype: GameType::Tdm, ..support::test_settings() };
    assert!(settings.team_force_balance && settings.team_auto_balance, "the shipped balance");
    Match::new(map, &GameData::default(), settings, seed, Slots::new(slots), 60).expect("match")
}

/// A manager with the shipped brains loaded and `settings`.
fn manager(settings: BotSettings) -> BotManager {
    let mut bots = BotManager::new(settings);
    bots.set_botfiles_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles"));
    let report = bots.load_brains().expect("the shipped botfiles");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    bots
}

fn human(game: &mut Match, name: &str) -> SlotId {
    let info = UserInfo { name: name.into(), ..UserInfo::default() };
    let slot = game.connect(ClientKind::Remote { latency_ms: 20 }, info).expect("slot");
    game.enter_game(slot).expect("enter");
    slot
}

fn named(name: &str) -> AddBot {
    AddBot { name: Some(name.into()), exact: true, ..AddBot::default() }
}

fn companion_of(owner: &str) -> AddBot {
    AddBot { brain: Some("companion".into()), owner: Some(owner.into()), ..named("Buddy") }
}

fn team(game: &Match, slot: SlotId) -> Option<Team> {
    game.slots().get(slot).map(|s| s.team)
}

/// Bots that stand still (`bot_pause`): nobody dies or scores, so every
/// tie of the teams goes to red and nobody is dead when the balance picks.
fn paused() -> BotSettings {
    BotSettings { pause: true, ..BotSettings::default() }
}

/// Alice (red) and three bots, 2-2; her companion joins red, 3-2, the
/// latest joiner there. A blue bot leaves: 3-1, and the balance used to
/// move the companion, which then fought its owner's team. Now it moves
/// the other red bot, and the companion stays beside Alice.
#[test]
fn a_companion_stays_with_its_owner_across_a_balance() {
    let mut game = tdm(31, 8);
    let mut bots = manager(paused());
    let alice = human(&mut game, "Alice");
    assert_eq!(team(&game, alice), Some(Team::Red));
    let others: Vec<SlotId> = ["Blue1", "Red2", "Blue3"].iter().map(|n| bots.add_bot(&mut game, named(n)).expect("bot")).collect();
    assert_eq!(team_counts(game.slots()), (2, 2));
    support::run(&mut game, &mut bots, 120);
    let buddy = bots.add_bot(&mut game, companion_of("Alice")).expect("companion");
    assert_eq!(team(&game, buddy), Some(Team::Red), "on its owner's side");
    support::run(&mut game, &mut bots, 120);
    bots.remove_bot(&mut game, Some("Blue1")).expect("a blue bot leaves");
    assert_eq!(team_counts(game.slots()), (2, 2), "the balance evened 3-1");
    assert_eq!(team(&game, others[1]), Some(Team::Blue), "the other red bot moved");
    support::run(&mut game, &mut bots, 10 * 60);
    assert_eq!((team(&game, alice), team(&game, buddy)), (Some(Team::Red), Some(Team::Red)));
}

/// Red is larger (Alice and a bot against one): the shipped forced balance
/// would put her companion on blue, against her. `addbot` refuses it,
/// saying why, and nobody joins.
#[test]
fn a_companion_is_refused_when_its_owners_team_is_full() {
    let mut game = tdm(32, 8);
    let mut bots = manager(paused());
    human(&mut game, "Alice");
    for n in ["Blue1", "Red2"] {
        bots.add_bot(&mut game, named(n)).expect("bot");
    }
    assert_eq!(team_counts(game.slots()), (2, 1));
    let e = bots.add_bot(&mut game, companion_of("Alice")).expect_err("no room beside Alice");
    assert_eq!(e, AddBotError::TeamFull { team: "red", owner: "Alice".into() });
    assert!(e.to_string().starts_with("red team is full"), "{e}");
    assert_eq!((team_counts(game.slots()), bots.len()), ((2, 1), 2), "nobody joined");
    // Once blue has caught up there is room.
    bots.add_bot(&mut game, named("Blue3")).expect("bot");
    let buddy = bots.add_bot(&mut game, companion_of("Alice")).expect("room now");
    assert_eq!(team(&game, buddy), Some(Team::Red));
}

/// A full server of five (`bot_minPlayers 5`): four fill bots (red, blue,
/// red, blue) and one added by hand (red) before the fifth, 3-2. A human joining takes the slot of the last
/// fill bot on red, the larger team, and joins red in it: 3-2 again. It
/// used to be the last fill bot added (blue): 3-1, and the balance moved
/// the hand-added bot to blue before the human was put on red.
#[test]
fn a_human_joining_a_full_server_takes_a_fill_bots_slot_on_its_own_team() {
    let mut game = tdm(33, 5);
    let mut bots = manager(BotSettings { min_players: 5, ..paused() });
    support::run(&mut game, &mut bots, 4 * 120);
    assert_eq!(game.slots().bots(), 4);
    let hand = bots.add_bot(&mut game, named("ByHand")).expect("bot");
    assert_eq!((team(&game, hand), team_counts(game.slots())), (Some(Team::Red), (3, 2)));
    let freed = bots.make_room_for_human(&mut game).expect("a bot makes way");
    assert_eq!(team_counts(game.slots()), (2, 2), "a red bot left");
    assert_eq!(team(&game, hand), Some(Team::Red), "nobody was moved");
    let late = human(&mut game, "Late");
    assert_eq!(late, freed);
    assert_eq!(team(&game, late), Some(Team::Red), "the joiner is on the team the bot left");
    support::run(&mut game, &mut bots, 4 * 120);
    assert_eq!((team(&game, late), team(&game, hand)), (Some(Team::Red), Some(Team::Red)));
    assert_eq!(team_counts(game.slots()), (3, 2));
}
