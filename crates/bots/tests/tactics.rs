//! `bot_tactical`: level 1 works out the force ratio and the stance and
//! reports them, and acts on nothing: a match plays out the same, hash for
//! hash, at levels 0 and 1.

mod support;

use quarry_bots::{AddBot, BotManager, BotSettings};

/// A 4v4 TDM minute on q_dm1 at `level`: the final state hash and the
/// report's stance shares of the first bot.
fn minute(level: u8) -> (u64, std::collections::BTreeMap<String, f64>) {
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings { gametype: quarry_sim::rules::GameType::Tdm, ..support::test_settings() };
    let mut game = quarry_sim::Match::new(map, &quarry_sim::GameData::default(), settings, 8, quarry_sim::slots::Slots::new(8), 60).expect("match");
    let mut bots = BotManager::new(BotSettings { tactical: level, ..BotSettings::default() });
    for _ in 0..8 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    support::run(&mut game, &mut bots, 60 * 60);
    let report = bots.report(&game);
    (game.state_hash(), report.bots.first().map(|b| b.stance_pct.clone()).unwrap_or_default())
}

#[test]
fn level_one_reports_stances_and_changes_nothing() {
    let (off, none) = minute(0);
    let (on, shares) = minute(1);
    assert_eq!(off, on, "level 1 must not change play");
    assert!(none.is_empty(), "level 0 computes nothing");
    let total: f64 = shares.values().sum();
    assert!((total - 100.0).abs() < 0.01, "shares add up: {shares:?}");
    assert!(shares.len() == 5 && shares.values().filter(|v| **v > 0.0).count() >= 2, "more than one stance in a minute of 4v4: {shares:?}");
}
