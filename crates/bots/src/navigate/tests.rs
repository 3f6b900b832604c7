//! Route following tests: corners, overshoot, committed jumps and pads,
//! stuck detection, route length.

use glam::Vec3;
use quarry_map::EntityId;
use quarry_sim::Team;

use super::*;
use crate::rng::BotRng;
use crate::view::{BotClock, PlayerSnap};

fn me(origin: Vec3, on_ground: bool) -> PlayerSnap {
    PlayerSnap { on_ground, ..PlayerSnap::standing(0, Team::Free, origin) }
}

fn walk(x: f32, y: f32) -> Corner {
    Corner {
        pos: Vec3::new(x, y, 0.0),
        link: LinkKind::Walk,
        entity: None,
    }
}

#[test]
fn walks_corner_to_corner_and_arrives() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    f.set_route(
        Route {
            corners: vec![walk(100.0, 0.0), walk(100.0, 100.0)],
            cost: 200.0,
        },
        &clock,
    );
    let s = f.follow(&me(Vec3::ZERO, true), &clock, &mut rng);
    assert!((s.dir - Vec3::X).length() < 1e-4);
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(90.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1, "within the corner radius");
    assert!((s.dir - Vec3::new(0.0, 1.0, 0.0).normalize()).length() < 0.2);
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(100.0, 95.0, 0.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::Arrived);
    assert!(f.route().is_none());
}

#[test]
fn overshooting_a_corner_still_counts() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    f.set_route(
        Route {
            corners: vec![walk(100.0, 0.0), walk(200.0, 0.0), walk(200.0, 200.0)],
            cost: 0.0,
        },
        &clock,
    );
    f.follow(&me(Vec3::new(101.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1);
    // Ran 40 units past the second corner with a little lateral error.
    f.follow(&me(Vec3::new(240.0, 10.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 2);
}

#[test]
fn jump_link_is_committed_and_needs_a_landing() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let up = Corner {
        pos: Vec3::new(64.0, 0.0, 40.0),
        link: LinkKind::Jump,
        entity: None,
    };
    f.set_route(
        Route {
            corners: vec![walk(0.0, 0.0), up],
            cost: 0.0,
        },
        &clock,
    );
    let s = f.follow(&me(Vec3::new(5.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1, "takeoff reached");
    assert!(s.jump && s.committed);
    clock.tick += 1;
    // In the air above the exit: not done until landed.
    let s = f.follow(&me(Vec3::new(60.0, 0.0, 60.0), false), &clock, &mut rng);
    assert!(!s.jump, "never jump in the air");
    assert_eq!(f.index(), 1);
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(62.0, 0.0, 40.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::Arrived);
}

#[test]
fn a_jump_over_a_gap_is_taken_only_at_its_speed() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    // 160 units across a gap to a ledge 24 up: a running jump.
    let over = Corner { pos: Vec3::new(160.0, 0.0, 24.0), link: LinkKind::Jump, entity: None };
    f.set_route(Route { corners: vec![walk(0.0, 0.0), over], cost: 0.0 }, &clock);
    // Standing at the takeoff: no jump; back off for a run-up.
    let s = f.follow(&me(Vec3::new(2.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 0, "a standing jump would fall into the gap");
    assert!(!s.jump && s.dir.x < 0.0, "backs off for a run: {:?}", s.dir);
    // Arriving at a run: the takeoff is reached and the jump taken.
    let s = f.follow(&moving(Vec3::new(2.0, 0.0, 0.0), Vec3::X * 310.0), &clock, &mut rng);
    assert_eq!(f.index(), 1, "at a run the takeoff is reached");
    assert!(s.jump);
}

#[test]
fn no_corner_progress_sidesteps_then_drops_the_route() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(3);
    let mut clock = BotClock { tick: 1, hz: 60 };
    f.set_route(
        Route {
            corners: vec![walk(500.0, 0.0)],
            cost: 500.0,
        },
        &clock,
    );
    let stuck_at = me(Vec3::ZERO, true);
    let mut events = Vec::new();
    let mut sidestepped = false;
    for _ in 0..200 {
        clock.tick += 1;
        let s = f.follow(&stuck_at, &clock, &mut rng);
        sidestepped |= s.jump && s.dir.y.abs() > 0.5;
        if s.event != FollowEvent::None {
            events.push((clock.tick, s.event));
            break;
        }
    }
    assert!(sidestepped, "a missed sample sidesteps with a jump");
    let (tick, ev) = events.first().copied().expect("an event");
    assert_eq!(ev, FollowEvent::Stuck);
    // First sample at 700 ms records the distance, then two misses.
    assert!((120..=130).contains(&tick), "dropped at tick {tick}");
}

#[test]
fn a_jump_that_falls_short_asks_for_a_new_plan() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let up = Corner {
        pos: Vec3::new(64.0, 0.0, 120.0),
        link: LinkKind::Jump,
        entity: None,
    };
    f.set_route(
        Route {
            corners: vec![walk(0.0, 0.0), up],
            cost: 0.0,
        },
        &clock,
    );
    f.follow(&me(Vec3::new(5.0, 0.0, 0.0), true), &clock, &mut rng);
    // A step down a stair on the way is not a flight.
    clock.tick += 1;
    f.follow(&me(Vec3::new(8.0, 0.0, -2.0), false), &clock, &mut rng);
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(10.0, 0.0, -4.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::None);
    for i in 0..20 {
        clock.tick += 1;
        f.follow(&me(Vec3::new(12.0 + i as f32, 0.0, 30.0), false), &clock, &mut rng);
    }
    clock.tick += 1;
    // Back down at the takeoff height after a real flight: the ledge was not reached.
    let s = f.follow(&me(Vec3::new(40.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::Misplaced);
}

#[test]
fn a_pad_flight_landing_elsewhere_asks_for_a_new_plan() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let pad = Corner {
        pos: Vec3::new(0.0, 800.0, 200.0),
        link: LinkKind::JumpPad,
        entity: Some(EntityId(4)),
    };
    f.set_route(
        Route {
            corners: vec![walk(0.0, 0.0), pad],
            cost: 0.0,
        },
        &clock,
    );
    f.follow(&me(Vec3::ZERO, true), &clock, &mut rng);
    clock.tick += 1;
    f.follow(&me(Vec3::new(0.0, 300.0, 300.0), false), &clock, &mut rng);
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(0.0, 500.0, 0.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::Misplaced);
}

#[test]
fn a_pad_flight_over_its_landing_steers_for_the_corner_beyond_and_keeps_that_heading() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    // The landing on a shaft's rim, repeated as the entry of the next
    // link, then the way on across the ledge (toward -x).
    let landing = Vec3::new(0.0, 0.0, 300.0);
    let pad = Corner { pos: landing, link: LinkKind::JumpPad, entity: Some(EntityId(4)) };
    let again = Corner { pos: landing, link: LinkKind::Walk, entity: None };
    let on = Corner { pos: Vec3::new(-100.0, 0.0, 300.0), link: LinkKind::Jump, entity: None };
    f.set_route(Route { corners: vec![walk(20.0, 0.0), pad, again, on], cost: 0.0 }, &clock);
    f.follow(&me(Vec3::new(20.0, 0.0, 0.0), true), &clock, &mut rng);
    // Launched, rising past the landing's height just beside it.
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(10.0, 5.0, 350.0), false), &clock, &mut rng);
    assert!(s.dir.x < -0.9, "heads across the ledge, not back over the landing: {:?}", s.dir);
    // Fallen back below the landing (still in the air): the heading holds.
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(30.0, 5.0, 250.0), false), &clock, &mut rng);
    assert!(s.dir.x < -0.9, "the heading holds for the flight: {:?}", s.dir);
}

#[test]
fn a_jump_is_taken_only_running_along_it_after_a_run_up() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    // The takeoff at the origin, the jump north across a gap.
    let jump = Corner { pos: Vec3::new(0.0, 120.0, 0.0), link: LinkKind::Jump, entity: None };
    f.set_route(Route { corners: vec![walk(0.0, 0.0), jump], cost: 0.0 }, &clock);
    // At the takeoff running east: not reached; back off to the run-up spot.
    let sideways = PlayerSnap { velocity: Vec3::new(300.0, 0.0, 0.0), ..me(Vec3::new(4.0, 0.0, 0.0), true) };
    let s = f.follow(&sideways, &clock, &mut rng);
    assert_eq!(f.index(), 0, "no leap with the momentum of a run from the side");
    assert!(s.dir.y < -0.9 && s.committed, "backs off along the jump's line: {:?}", s.dir);
    // Lined up behind the takeoff: runs at it.
    let behind = PlayerSnap { velocity: Vec3::new(0.0, 300.0, 0.0), ..me(Vec3::new(0.0, -40.0, 0.0), true) };
    let s = f.follow(&behind, &clock, &mut rng);
    assert!(s.dir.y > 0.9, "runs at the takeoff: {:?}", s.dir);
    // At the takeoff running north: the jump is on.
    let along = PlayerSnap { velocity: Vec3::new(0.0, 300.0, 0.0), ..me(Vec3::new(0.0, -4.0, 0.0), true) };
    let s = f.follow(&along, &clock, &mut rng);
    assert_eq!(f.index(), 1);
    assert!(s.jump && s.dir.y > 0.9);
}

#[test]
fn a_high_drop_onto_a_landing_just_past_its_edge_is_stepped_off_at_a_crawl() {
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    let mut speed = |ahead: f32, drop: f32| {
        let mut f = PathFollower::default();
        let landing = Corner { pos: Vec3::new(ahead, 0.0, -drop), link: LinkKind::Drop, entity: None };
        f.set_route(Route { corners: vec![walk(0.0, 0.0), landing], cost: 0.0 }, &clock);
        f.follow(&me(Vec3::new(2.0, 0.0, 0.0), true), &clock, &mut rng).dir.length()
    };
    // 240 down: 0.77 s in the air; the slowest walk that beats friction.
    let high = speed(30.0, 240.0);
    assert!((high - 0.25).abs() < 1e-3, "a crawl: {high}");
    let low = speed(80.0, 40.0);
    assert!((low - 0.5).abs() < 1e-3, "a short drop onto a far landing is taken at half speed: {low}");
}

#[test]
fn a_lift_is_waited_for_while_away_then_ridden_standing_and_stepped_off() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    // Board on the lowered plat at (100, 0, 0); it rises 128; step off at (200, 0, 128).
    let board = walk(100.0, 0.0);
    let top = Corner { pos: Vec3::new(200.0, 0.0, 128.0), link: LinkKind::Lift, entity: Some(EntityId(7)) };
    f.set_route(Route { corners: vec![board, top], cost: 0.0 }, &clock);
    assert_eq!(f.boarding(), Some(board.pos));
    // Away: the bot stands short of the boarding spot, not judged stuck.
    f.lift_away = true;
    for _ in 0..240 {
        let s = f.follow(&me(Vec3::new(0.0, 0.0, 0.0), true), &clock, &mut rng);
        assert_eq!(s.dir, Vec3::ZERO, "waits");
        assert_eq!(s.event, FollowEvent::None, "a wait of 4 s is no failure");
        clock.tick += 1;
    }
    // Down: it steps on.
    f.lift_away = false;
    let s = f.follow(&me(Vec3::new(0.0, 0.0, 0.0), true), &clock, &mut rng);
    assert!(s.dir.x > 0.9, "walks onto the plat: {:?}", s.dir);
    clock.tick += 1;
    let s = f.follow(&me(Vec3::new(98.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1, "on the plat");
    assert!(s.committed && s.dir.length() < 0.6, "stands while it rises: {:?}", s.dir);
    // Riding up, still in the middle.
    for z in [30.0, 60.0, 90.0] {
        clock.tick += 20;
        let s = f.follow(&me(Vec3::new(101.0, 0.0, z), true), &clock, &mut rng);
        assert_eq!(s.event, FollowEvent::None);
        assert!(s.dir.length() < 0.6, "rides at {z}: {:?}", s.dir);
    }
    // At the top: step off to the exit.
    clock.tick += 20;
    let s = f.follow(&me(Vec3::new(101.0, 0.0, 128.0), true), &clock, &mut rng);
    assert!(s.dir.x > 0.9, "steps off: {:?}", s.dir);
    clock.tick += 20;
    let s = f.follow(&me(Vec3::new(195.0, 0.0, 128.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::Arrived);
}

#[test]
fn a_bot_in_the_shaft_a_lift_comes_down_into_steps_out_of_it() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    let top = Corner { pos: Vec3::new(200.0, 0.0, 128.0), link: LinkKind::Lift, entity: Some(EntityId(7)) };
    f.set_route(Route { corners: vec![walk(100.0, 0.0), top], cost: 0.0 }, &clock);
    f.lift_away = true;
    // 8 below the boarding spot, 30 units from it: where the plat rests.
    let s = f.follow(&me(Vec3::new(130.0, 0.0, -8.0), true), &clock, &mut rng);
    assert!(s.dir.x > 0.9, "steps out, away from the spot: {:?}", s.dir);
    assert_eq!(s.event, FollowEvent::None);
}

#[test]
fn under_a_raised_plat_that_rests_a_step_up_the_bot_is_no_rider() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    // The plat rests 16 units above the floor: its boarding spot is 16 up.
    let board = Corner { pos: Vec3::new(100.0, 0.0, 16.0), link: LinkKind::Walk, entity: None };
    let top = Corner { pos: Vec3::new(200.0, 0.0, 176.0), link: LinkKind::Lift, entity: Some(EntityId(7)) };
    f.set_route(Route { corners: vec![board, top], cost: 0.0 }, &clock);
    // Away: on the floor right under the boarding spot (within a corner's
    // height of it) the bot has not boarded; it steps out of the shaft.
    f.lift_away = true;
    let s = f.follow(&me(Vec3::new(110.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 0, "not riding a plat that is not there");
    assert!(s.dir.x > 0.9, "steps out of the shaft: {:?}", s.dir);
    // Waiting there is neither a misplacement nor, for the statistics, stuck.
    let mut later = clock;
    later.tick += 180;
    let s = f.follow(&me(Vec3::new(140.0, 0.0, 0.0), true), &later, &mut rng);
    assert_eq!(s.event, FollowEvent::None, "waits out of the shaft, on its route");
    assert_eq!(f.progress_tick, later.tick, "a wait for the lift is no lack of progress");
    // Down, it boards; on the floor beside the plat after boarding, it is off it.
    f.lift_away = false;
    f.follow(&me(Vec3::new(100.0, 0.0, 16.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1, "on the plat");
    let s = f.follow(&me(Vec3::new(100.0, 40.0, 0.0), true), &clock, &mut rng);
    assert_eq!(s.event, FollowEvent::Misplaced, "fell off beside it");
}

#[test]
fn a_lift_that_never_comes_back_gives_the_route_up() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let top = Corner { pos: Vec3::new(200.0, 0.0, 128.0), link: LinkKind::Lift, entity: Some(EntityId(7)) };
    f.set_route(Route { corners: vec![walk(100.0, 0.0), top], cost: 0.0 }, &clock);
    f.lift_away = true;
    let mut event = FollowEvent::None;
    for _ in 0..(LIFT_WAIT_MS as u32 * 60 / 1000 + 120) {
        event = f.follow(&me(Vec3::ZERO, true), &clock, &mut rng).event;
        if event != FollowEvent::None {
            break;
        }
        clock.tick += 1;
    }
    assert_eq!(event, FollowEvent::TimedOut);
}

#[test]
fn route_remaining_length() {
    let r = Route {
        corners: vec![walk(3.0, 4.0), walk(3.0, 14.0)],
        cost: 15.0,
    };
    assert!((r.remaining(Vec3::ZERO, 0) - 15.0).abs() < 1e-4);
    assert!((r.remaining(Vec3::new(3.0, 4.0, 0.0), 1) - 10.0).abs() < 1e-4);
    assert_eq!(r.goal(), Some(Vec3::new(3.0, 14.0, 0.0)));
}

#[test]
fn a_swimming_bot_dives_toward_a_corner_below_and_rises_toward_one_above() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    let floor = Corner { pos: Vec3::new(200.0, 0.0, -120.0), link: LinkKind::Walk, entity: None };
    f.set_route(Route { corners: vec![floor], cost: 250.0 }, &clock);
    let swimming = |z: f32, level: u8| PlayerSnap { water_level: level, ..me(Vec3::new(0.0, 0.0, z), false) };
    assert_eq!(f.follow(&swimming(0.0, 2), &clock, &mut rng).swim, -1, "the corner is on the pool's floor");
    assert_eq!(f.follow(&swimming(-240.0, 3), &clock, &mut rng).swim, 1, "the corner is above");
    assert_eq!(f.follow(&swimming(-110.0, 3), &clock, &mut rng).swim, 0, "level with it");
    assert_eq!(f.follow(&swimming(0.0, 1), &clock, &mut rng).swim, 0, "wading, not swimming");
    assert_eq!(swim_toward(&swimming(0.0, 2), Vec3::new(0.0, 0.0, -SWIM_MARGIN * 2.0)), -1);
}

#[test]
fn a_drop_into_deep_water_ends_when_the_bot_swims_at_its_exit() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let drop = Corner { pos: Vec3::new(40.0, 0.0, -300.0), link: LinkKind::Drop, entity: None };
    let on = Corner { pos: Vec3::new(300.0, 0.0, -300.0), link: LinkKind::Walk, entity: None };
    f.set_route(Route { corners: vec![drop, on], cost: 400.0 }, &clock);
    // Swimming (never on the ground) within a corner of the drop's exit.
    let swimming = PlayerSnap { water_level: 3, ..me(Vec3::new(45.0, 0.0, -290.0), false) };
    clock.tick += 1;
    f.follow(&swimming, &clock, &mut rng);
    assert_eq!(f.index(), 1, "the drop is done once the bot swims at its exit");
}

#[test]
fn a_bot_carried_far_off_its_leg_replans() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    f.set_route(Route { corners: vec![walk(100.0, 0.0), walk(600.0, 0.0), walk(600.0, 400.0)], cost: 900.0 }, &clock);
    // Reaches the first corner, then walks the leg toward the second.
    f.follow(&me(Vec3::new(95.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1);
    clock.tick += 1;
    let on_leg = f.follow(&me(Vec3::new(300.0, 60.0, 0.0), true), &clock, &mut rng);
    assert_eq!(on_leg.event, FollowEvent::None, "a little off the leg is fine");
    // A teleporter the route did not take puts it far to the side.
    clock.tick += 1;
    let away = f.follow(&me(Vec3::new(300.0, -500.0, 0.0), true), &clock, &mut rng);
    assert_eq!(away.event, FollowEvent::Misplaced);
    assert!(f.route().is_none(), "dropped, to re-plan from here");
    // A fall well below the leg does the same.
    f.set_route(Route { corners: vec![walk(100.0, 0.0), walk(600.0, 0.0)], cost: 600.0 }, &clock);
    f.follow(&me(Vec3::new(95.0, 0.0, 0.0), true), &clock, &mut rng);
    clock.tick += 1;
    assert_eq!(f.follow(&me(Vec3::new(300.0, 0.0, -OFF_ROUTE - 50.0), true), &clock, &mut rng).event, FollowEvent::Misplaced);
}

#[test]
fn a_bot_carried_away_before_a_drop_replans() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let down = Corner {
        pos: Vec3::new(130.0, 0.0, -120.0),
        link: LinkKind::Drop,
        entity: None,
    };
    f.set_route(Route { corners: vec![walk(100.0, 0.0), down], cost: 250.0 }, &clock);
    f.follow(&me(Vec3::new(95.0, 0.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1, "at the ledge, the drop is next");
    // Falling off the ledge toward the landing is the drop itself.
    clock.tick += 1;
    let falling = f.follow(&me(Vec3::new(115.0, 0.0, -60.0), false), &clock, &mut rng);
    assert_eq!(falling.event, FollowEvent::None);
    // A teleporter at the ledge's foot puts it 500 units away: waiting for
    // the drop's timeout would walk it into a wall for seconds.
    clock.tick += 1;
    let away = f.follow(&me(Vec3::new(-100.0, 500.0, 0.0), true), &clock, &mut rng);
    assert_eq!(away.event, FollowEvent::Misplaced);
    assert!(f.route().is_none(), "dropped, to re-plan from here");
}

#[test]
fn a_bot_that_keeps_getting_new_routes_but_never_moves_is_stuck() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let mut clock = BotClock { tick: 1, hz: 60 };
    let here = me(Vec3::new(0.0, 0.0, 0.0), true);
    // A chase re-routes every 750 ms, each route a little different; the
    // bot stands against a wall the whole time.
    let mut events = Vec::new();
    for step in 0..600u32 {
        if step % 45 == 0 {
            let y = if step % 90 == 0 { 0.0 } else { 10.0 };
            f.set_route(Route { corners: vec![walk(400.0, y), walk(800.0, y)], cost: 800.0 }, &clock);
        }
        let s = f.follow(&here, &clock, &mut rng);
        if s.event != FollowEvent::None {
            events.push((step, s.event));
            break;
        }
        clock.tick += 1;
    }
    assert_eq!(events.first().map(|e| e.1), Some(FollowEvent::Stuck), "{events:?}");
    assert!(events[0].0 < 300, "within 5 s: {events:?}");
}

fn moving(origin: Vec3, velocity: Vec3) -> PlayerSnap {
    PlayerSnap { velocity, ..me(origin, true) }
}

/// A route along x to a takeoff at (200, 0, 0) and a drop of 240 units
/// landing 20 units beyond it.
fn drop_route(f: &mut PathFollower, clock: &BotClock) {
    let landing = Corner { pos: Vec3::new(220.0, 0.0, -240.0), link: LinkKind::Drop, entity: None };
    f.set_route(Route { corners: vec![walk(200.0, 0.0), landing, walk(400.0, 0.0)], cost: 0.0 }, clock);
}

#[test]
fn the_run_up_to_a_high_drop_slows_in_time() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    drop_route(&mut f, &clock);
    let far = f.follow(&moving(Vec3::ZERO, Vec3::X * 320.0), &clock, &mut rng);
    assert!(far.dir.length() > 0.99, "far off it runs: {:?}", far.dir);
    let near = f.follow(&moving(Vec3::new(170.0, 0.0, 0.0), Vec3::X * 320.0), &clock, &mut rng);
    assert!(near.dir.length() < 0.8 && near.dir.x > 0.0, "near the takeoff it slows: {:?}", near.dir);
}

#[test]
fn only_slow_last_steps_straight_at_a_drop_go_over_the_lip() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    drop_route(&mut f, &clock);
    let at = Vec3::new(170.0, 0.0, 0.0);
    f.follow(&moving(at, Vec3::X * 90.0), &clock, &mut rng);
    assert!(f.stepping_off(&moving(at, Vec3::X * 90.0)), "slow, straight at it");
    assert!(!f.stepping_off(&moving(at, Vec3::X * 320.0)), "at a run");
    assert!(!f.stepping_off(&moving(at, Vec3::Y * 90.0)), "across the way");
    assert!(!f.stepping_off(&moving(Vec3::new(60.0, 0.0, 0.0), Vec3::X * 90.0)), "still far");
}

#[test]
fn a_short_jump_down_waits_for_its_speed() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    let down = Corner { pos: Vec3::new(280.0, 0.0, -192.0), link: LinkKind::Jump, entity: None };
    f.set_route(Route { corners: vec![walk(200.0, 0.0), down, walk(400.0, -192.0)], cost: 0.0 }, &clock);
    f.follow(&moving(Vec3::new(199.0, 0.0, 0.0), Vec3::X * 100.0), &clock, &mut rng);
    assert_eq!(f.index(), 1, "at the takeoff");
    let fast = f.follow(&moving(Vec3::new(200.0, 0.0, 0.0), Vec3::X * 320.0), &clock, &mut rng);
    assert!(!fast.jump, "too fast to leap yet");
    let slow = f.follow(&moving(Vec3::new(200.0, 0.0, 0.0), Vec3::X * 100.0), &clock, &mut rng);
    assert!(slow.jump, "slow enough: it leaps");
}

#[test]
fn a_bot_off_a_crawls_line_steps_back_onto_it_before_going_in() {
    let mut f = PathFollower::default();
    let mut rng = BotRng::from_seed(1);
    let clock = BotClock { tick: 1, hz: 60 };
    // The crawl runs along y = 0 from x 0 to x -150.
    let crawl = Corner { link: LinkKind::Crouch, ..walk(-150.0, 0.0) };
    f.set_route(Route { corners: vec![walk(0.0, 0.0), crawl], cost: 150.0 }, &clock);
    // The entry reached 9 units aside: toward the line, not straight at
    // the far end (which runs along the mouth's edge).
    let s = f.follow(&me(Vec3::new(3.0, -9.0, 0.0), true), &clock, &mut rng);
    assert_eq!(f.index(), 1, "the entry corner is reached within its radius");
    assert!(s.crouch);
    assert!(s.dir.y > 0.5, "toward the line: {:?}", s.dir);
    // Pushed further off inside: back onto the line, nearly straight across.
    let s = f.follow(&me(Vec3::new(-30.0, -20.0, 0.0), true), &clock, &mut rng);
    assert!(s.dir.y > 0.9, "across to the line: {:?}", s.dir);
    // On the line: straight along it.
    let s = f.follow(&me(Vec3::new(-10.0, 1.0, 0.0), true), &clock, &mut rng);
    assert!(s.dir.x < -0.99, "along the crawl: {:?}", s.dir);
}
