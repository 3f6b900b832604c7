//! Accuracy by weapon and range band end to end: every shot goes through
//! the input queue and the figures are read through `Match::accuracy`
//! (the rules are in `quarry_sim::accuracy`). Damage in the book is
//! checked against the published `Damage` events.

#[allow(unreachable_pub, reason = "the shared helpers are written for several test binaries")]
mod support;
#[path = "support/weapons_support.rs"]
mod weapons_support;

use glam::Vec3;
use quarry_sim::accuracy::{BandFigures, RangeBand};
use quarry_sim::rules::GameType;
use quarry_sim::{Match, SlotId, UserCmd};
use weapons_support::*;

fn idle(_: SlotId, _: u32) -> UserCmd {
    UserCmd::default()
}

/// Shooter at the origin, target at `(x, y)`; `w` fired once on tick 31
/// at `point` (the target's centre when `None`); the match after 90 ticks
/// and the damage the target took.
fn fire_once(w: u8, x: f32, y: f32, point: Option<Vec3>, gametype: GameType) -> (Match, SlotId, i32) {
    let settings = quarry_sim::Settings { gametype, team_force_balance: false, ..support::test_settings() };
    let (mut m, s) = start_with(&arena_with(&[(0.0, 0.0), (x, y)], &[]), &[HUMAN, HUMAN], 1, settings);
    if gametype.is_team_game() {
        let team = m.slots().get(s[0]).expect("slot").team;
        m.set_team(s[1], team).expect("same team");
        step_collect(&mut m, &s, 30, &mut idle);
    }
    equip(&mut m, s[0], w, 5);
    let angles = aim(&m, s[0], point.unwrap_or(origin(&m, s[1]) + Vec3::Z * 4.0));
    let (shooter, first) = (s[0], m.tick() + 1);
    let events = step_collect(&mut m, &s, 90, &mut |slot, tick| if slot == shooter && tick == first { fire(angles) } else { idle(slot, tick) });
    let taken = damage_to(&events, s[1]).iter().map(|d| d.1).sum();
    (m, shooter, taken)
}

/// The shooter's figures of `w` in each band, in `RangeBand::ALL` order.
fn bands(m: &Match, shooter: SlotId, w: u8) -> [BandFigures; 4] {
    RangeBand::ALL.map(|b| *m.accuracy(shooter).weapon(w).band(b))
}

fn only(band: RangeBand, figures: BandFigures) -> [BandFigures; 4] {
    let mut all = [BandFigures::ZERO; 4];
    all[band.index()] = figures;
    all
}

#[test]
fn a_shotgun_counts_every_pellet() {
    let (m, shooter, taken) = fire_once(SHOTGUN, 64.0, 0.0, None, GameType::Ffa);
    assert_eq!(taken, 110);
    let want = BandFigures { shots: 11, hits: 11, splash_hits: 0, damage: 110 };
    assert_eq!(bands(&m, shooter, SHOTGUN), only(RangeBand::Close, want));
    let score = m.slots().get(shooter).expect("slot").score;
    assert_eq!((score.shots, score.hits), (1, 1), "the score card still counts the trigger pull once");
}

#[test]
fn damage_is_credited_to_the_band_of_the_shot() {
    for (x, band) in [(200.0, RangeBand::Close), (600.0, RangeBand::Mid), (900.0, RangeBand::Far)] {
        let (m, shooter, taken) = fire_once(RAILGUN, x, 0.0, None, GameType::Ffa);
        assert_eq!(taken, 100, "at {x}");
        assert_eq!(bands(&m, shooter, RAILGUN), only(band, BandFigures { shots: 1, hits: 1, splash_hits: 0, damage: 100 }), "at {x}");
    }
}

#[test]
fn a_rockets_direct_hit_and_its_splash_are_counted_apart() {
    let (m, shooter, taken) = fire_once(ROCKET, 200.0, 0.0, None, GameType::Ffa);
    assert_eq!(taken, 100, "direct only");
    assert_eq!(bands(&m, shooter, ROCKET), only(RangeBand::Close, BandFigures { shots: 1, hits: 1, splash_hits: 0, damage: 100 }));
    // At the floor 20 units short of a target 500 away: splash only.
    let (m, shooter, taken) = fire_once(ROCKET, 500.0, 0.0, Some(Vec3::new(465.0, 0.0, 0.0)), GameType::Ffa);
    assert!(taken > 0, "the splash reached the target");
    let want = BandFigures { shots: 1, hits: 0, splash_hits: 1, damage: u32::try_from(taken).expect("positive") };
    assert_eq!(bands(&m, shooter, ROCKET), only(RangeBand::Mid, want));
}

#[test]
fn a_shot_with_no_enemy_in_the_cone_is_untargeted() {
    // The target 45° off the aim, straight ahead: untargeted, a miss.
    let (m, shooter, taken) = fire_once(RAILGUN, 400.0, 400.0, Some(Vec3::new(1000.0, 0.0, 30.0)), GameType::Ffa);
    assert_eq!(taken, 0);
    assert_eq!(bands(&m, shooter, RAILGUN), only(RangeBand::Untargeted, BandFigures { shots: 1, ..BandFigures::ZERO }));
    // A teammate on the line of fire is no target and no hit.
    let (m, shooter, _) = fire_once(RAILGUN, 400.0, 0.0, None, GameType::Tdm);
    assert_eq!(bands(&m, shooter, RAILGUN), only(RangeBand::Untargeted, BandFigures { shots: 1, ..BandFigures::ZERO }));
}

#[test]
fn melee_is_left_out() {
    let (m, shooter, taken) = fire_once(GAUNTLET, 40.0, 0.0, None, GameType::Ffa);
    assert!(taken > 0, "the gauntlet reached");
    assert!(m.accuracy(shooter).used().next().is_none(), "{:?}", m.accuracy(shooter));
}

#[test]
fn a_slot_starts_over_for_its_next_player() {
    let (mut m, shooter, _) = fire_once(RAILGUN, 200.0, 0.0, None, GameType::Ffa);
    assert!(m.accuracy(shooter).used().next().is_some());
    let started = m.accuracy(shooter).started;
    m.disconnect(shooter);
    let next = m.connect(HUMAN, quarry_sim::UserInfo { name: "next".into(), ..Default::default() }).expect("a slot");
    assert_eq!(next, shooter, "the freed slot is taken again");
    assert!(m.accuracy(next).used().next().is_none(), "the new player starts from zero");
    assert!(m.accuracy(next).started > started);
}

#[test]
fn warmup_shots_do_not_count() {
    let settings = quarry_sim::Settings { warmup: true, countdown_s: 1.0, ..support::test_settings() };
    let (mut m, s) = start_with(&arena_with(&[(0.0, 0.0), (300.0, 0.0)], &[]), &[HUMAN, HUMAN], 1, settings);
    assert!(!m.phase().counts(), "still before the match: {:?}", m.phase());
    equip(&mut m, s[0], MACHINEGUN, 50);
    let angles = aim(&m, s[0], origin(&m, s[1]) + Vec3::Z * 4.0);
    let shooter = s[0];
    step_collect(&mut m, &s, 3, &mut |slot, tick| if slot == shooter { fire(angles) } else { idle(slot, tick) });
    assert!(m.accuracy(shooter).used().next().is_some(), "warmup shots are counted while it lasts");
    step_collect(&mut m, &s, 90, &mut idle);
    assert!(m.phase().counts(), "live after the countdown: {:?}", m.phase());
    assert!(m.accuracy(shooter).used().next().is_none(), "and start over when the match goes live");
}
