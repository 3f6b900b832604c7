//! What bots know of items comes from what they saw, heard or were told:
//! checked against the real match every tick of a team game on the
//! shipped map with the shipped characters (their team calls included).

mod support;

use std::collections::BTreeMap;

use quarry_bots::AddBot;
use quarry_bots::item_memory::ItemState;
use quarry_bots::view::{BotView, ViewCache};
use quarry_sim::rules::GameType;
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match};

/// Every timed belief is the item's real respawn tick (nothing invented,
/// nothing misread), an item seen missing comes back by the bound believed
/// when it was seen, and bots do not know what they did not see: some
/// believe taken items there. Teammates time items from each other's calls.
#[test]
fn a_bot_knows_an_items_state_only_from_sight_sound_or_word() {
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings { gametype: GameType::Tdm, ..support::test_settings() };
    let mut game = Match::new(map, &GameData::default(), settings, 7, Slots::new(8), 60).expect("match");
    let mut bots = support::manager(3.0);
    let botfiles = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles");
    bots.set_content(quarry_bots::ContentTraitSource::load(&botfiles).expect("content").with_seed(7));
    for _ in 0..8 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let mut cache = ViewCache::default();
    let mut before = BTreeMap::new();
    let (mut timed, mut bounded, mut unaware) = (0u64, 0u64, 0u64);
    for _ in 0..60 * 150 {
        bots.think(&mut game);
        game.step();
        let view = BotView::build(&game, &mut cache);
        let truth: BTreeMap<_, _> = view.items.iter().filter(|i| !i.dropped).map(|i| (i.id, (i.available, i.respawn_at))).collect();
        let tick = view.clock.tick;
        // The quad first appears 30 to 60 s after play goes live, as every
        // player knows: nobody runs for it at the start.
        if tick == 120 {
            let quad = view.items.iter().find(|i| i.classname == "item_quad").expect("q_dm1 has a quad");
            for slot in bots.slots() {
                let beliefs = bots.item_beliefs(slot).expect("a bot");
                let state = beliefs.iter().find(|(id, _)| *id == quad.id).map(|(_, s)| *s);
                let first = quad.first_spawn_ticks;
                assert!(
                    matches!(state, Some(ItemState::Gone { back_at, exact: false }) if back_at <= tick + first),
                    "bot {slot:?} believes the quad {state:?} at the start; it appears within {first} ticks"
                );
            }
        }
        for slot in bots.slots() {
            for (id, state) in bots.item_beliefs(slot).expect("a bot") {
                let &(available, respawn_at) = truth.get(&id).expect("a belief is about a map item");
                match state {
                    ItemState::Gone { back_at, exact: true } if back_at > tick => {
                        timed += 1;
                        assert!(!available && respawn_at == back_at, "tick {tick}: bot {slot:?} times item {id:?} back at {back_at}; it is {available} back at {respawn_at}");
                    }
                    // Checked when seen missing: it may be taken again later
                    // without the bot knowing.
                    ItemState::Gone { back_at, exact: false } if before.get(&(slot, id)) != Some(&state) => {
                        bounded += 1;
                        assert!(available || respawn_at <= back_at, "tick {tick}: bot {slot:?} believes item {id:?} back by {back_at}; it comes back at {respawn_at}");
                    }
                    ItemState::There if !available => unaware += 1,
                    _ => {}
                }
                before.insert((slot, id), state);
            }
        }
    }
    let report = bots.report(&game);
    let told = report.team.as_ref().and_then(|t| t.figures.queued.get("teamItemTimed").copied()).unwrap_or(0);
    eprintln!("bot-ticks: timed {timed}, bounded {bounded}, unaware of a pickup {unaware}; item timings said {told}");
    assert!(timed > 0 && bounded > 0, "pickups are timed and items seen missing are bounded");
    assert!(unaware > 0, "a pickup nobody saw or heard is not known");
    assert!(told > 0, "bots tell their team when an item comes back");
}
