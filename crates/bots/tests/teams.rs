//! In a team game bots fight the other team: they pick no teammate as a
//! target, and with friendly fire on the line-of-fire check keeps team
//! damage a small share of what they deal.

mod support;

use quarry_bots::AddBot;
use quarry_sim::events::GameEvent;
use quarry_sim::rules::GameType;
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match};

#[test]
fn bots_fight_the_other_team_and_spare_their_own() {
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings {
        gametype: GameType::Tdm,
        friendly_fire: true,
        ..support::test_settings()
    };
    let mut game = Match::new(map, &GameData::default(), settings, 21, Slots::new(8), 60).expect("match");
    let mut bots = support::manager(4.0);
    for _ in 0..6 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let (mut enemy, mut team) = (0i64, 0i64);
    for _ in 0..60 * 60 {
        bots.think(&mut game);
        game.step();
        for ev in game.events() {
            if let GameEvent::Damage {
                target,
                attacker: Some(a),
                amount,
                ..
            } = ev
                && a != target
            {
                let t = |s| game.slots().get(s).map(|s| s.team);
                if t(a) == t(target) {
                    team += i64::from(amount);
                } else {
                    enemy += i64::from(amount);
                }
            }
        }
    }
    eprintln!("enemy damage {enemy}, team damage {team}");
    assert!(enemy > 1000, "they fight: {enemy}");
    assert!(team * 10 < enemy, "team damage stays small: {team} vs {enemy}");
}

/// Team chatter on a real TDM match with the shipped characters (their
/// voices): bots tell their team what they see, every enemy a report places
/// stood there when it was sent, some reports place a group, and teammates
/// take them in.
#[test]
fn every_enemy_a_report_places_stood_there_when_it_was_sent() {
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings { gametype: GameType::Tdm, ..support::test_settings() };
    let mut game = Match::new(map, &GameData::default(), settings, 5, Slots::new(8), 60).expect("match");
    let mut bots = support::manager(3.0);
    let botfiles = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles");
    bots.set_content(quarry_bots::ContentTraitSource::load(&botfiles).expect("content").with_seed(5));
    for _ in 0..8 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    for _ in 0..60 * 180 {
        bots.think(&mut game);
        game.step();
    }
    let report = bots.report(&game);
    let team = report.team.expect("a team game reports its team figures");
    let f = &team.figures;
    assert!(f.checked >= 10, "enemy reports in three minutes: {team}");
    assert_eq!(f.true_reports, f.checked, "only what the speaker saw, where it stood: {team}");
    assert!(f.grouped >= 1, "a group seen together is reported together: {team}");
    assert!(team.reports_heard >= u64::from(f.reports), "each report reaches the living teammates: {team}");
    // A call is bound, not typed: it goes out a reaction time after the
    // sighting (skill 3: about 100 ms + 320 ms x the character's scale).
    let age = team.report_age_ms.expect("enemy reports were delivered");
    assert!(age <= 800.0, "reports are fresh news when taken in: {team}");
    assert!(f.enemy_age_ms_max <= 1500, "no report waits to be typed: {team}");
}
