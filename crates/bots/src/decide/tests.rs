//! Decision tests: target choice with stickiness, an objective routed to
//! and held, pursuit lead.

use glam::Vec3;
use quarry_sim::SlotId;

use super::*;
use crate::content::{Traits, WeaponBias};
use crate::memory::Memory;
use crate::navigate::PathFollower;
use crate::rng::BotRng;
use crate::view::BotView;
fn cand(slot: u8, distance: f32) -> TargetCandidate {
    TargetCandidate {
        slot: SlotId(slot),
        distance,
        strength: 1.0,
        attacker: false,
        powered: false,
        firing: false,
        killer: false,
    }
}

#[test]
fn nearest_or_best_with_stickiness() {
    let t = Traits::at_skill(3.0);
    let near = cand(1, 400.0);
    let weak_far = TargetCandidate {
        strength: 0.0,
        attacker: true,
        ..cand(2, 500.0)
    };
    assert_eq!(
        choose_target(&[near, weak_far], None, false, &t),
        Some(SlotId(1)),
        "nearest"
    );
    assert_eq!(
        choose_target(&[near, weak_far], None, true, &t),
        Some(SlotId(2)),
        "weak attacker scores best"
    );
    // Current target slightly worse than the pick: sticky.
    let a = cand(3, 420.0);
    assert_eq!(choose_target(&[near, a], Some(SlotId(3)), false, &t), Some(SlotId(3)));
    // Much worse: switch.
    let far = cand(4, 2000.0);
    assert_eq!(choose_target(&[near, far], Some(SlotId(4)), false, &t), Some(SlotId(1)));
    assert_eq!(choose_target(&[], Some(SlotId(4)), false, &t), None);
}

/// One decision of a bot at `at` offered `objective`, with everything else default.
fn decide_once(
    planner: &mut GoalPlanner,
    follower: &mut PathFollower,
    view: &BotView<'_>,
    objective: Option<Objective>,
) {
    decide_once_restless(planner, follower, view, objective, false);
}

/// [`decide_once`], saying whether the bot is restless.
fn decide_once_restless(
    planner: &mut GoalPlanner,
    follower: &mut PathFollower,
    view: &BotView<'_>,
    objective: Option<Objective>,
    restless: bool,
) {
    let me = view.player(SlotId(0)).copied().expect("bot");
    let t = Traits::at_skill(3.0);
    let bias = WeaponBias::default();
    let mut memory = Memory::default();
    // The items as the view has them (looked at from nowhere: map items
    // believed there).
    memory.items.update(view, None, t.fov);
    let mut nav = crate::navigate::StraightNavigator::default();
    let mut rng = BotRng::for_slot(1, 0, 0);
    let mut cx = GoalContext {
        view,
        me: &me,
        traits: &t,
        bias: &bias,
        memory: &mut memory,
        follower,
        nav: &mut nav,
        traveller: crate::navigate::Traveller::default(),
        rng: &mut rng,
        objective,
        chase: None,
        chase_unseen_s: 0.0,
        investigate: None,
        engage_range: 500.0,
        cover: None,
        retreat: false,
        stack: crate::items::StackWeights::FACE,
        opportunity: None,
        restless,
    };
    planner.decide(&mut cx);
}

#[test]
fn an_objective_is_routed_to_then_held_and_a_new_one_ends_the_hold() {
    use crate::objective::testkit::{Kit, player};
    let kit = Kit::new();
    let mut view = kit.view(quarry_sim::rules::GameType::Ctf, vec![player(0, quarry_sim::Team::Red, Vec3::ZERO)]);
    let defend = Objective {
        key: 7,
        origin: Vec3::new(600.0, 0.0, 24.0),
        priority: 54.0,
        hold_radius: Some(160.0),
    };
    let (mut planner, mut follower) = (GoalPlanner::default(), PathFollower::default());
    decide_once(&mut planner, &mut follower, &view, Some(defend));
    assert_eq!(planner.goal.map(|g| g.kind), Some(GoalKind::Objective(7)));
    assert!(follower.route().is_some(), "routed there");
    assert_eq!(planner.holding(&view.clock), None);
    // Arrived within the radius: the route is dropped and the spot held.
    if let Some(Some(p)) = view.players.get_mut(0) {
        p.origin = Vec3::new(500.0, 50.0, 24.0);
    }
    view.clock.tick += 30;
    decide_once(&mut planner, &mut follower, &view, Some(defend));
    assert_eq!(planner.holding(&view.clock), Some(160.0));
    assert!(follower.route().is_none());
    // An urgent objective elsewhere ends the hold at the next decision.
    view.clock.tick += 3;
    let ret = Objective {
        key: 9,
        origin: Vec3::new(-800.0, 0.0, 24.0),
        priority: 94.0,
        hold_radius: None,
    };
    decide_once(&mut planner, &mut follower, &view, Some(ret));
    assert_eq!(planner.holding(&view.clock), None);
    assert_eq!(planner.goal.map(|g| g.kind), Some(GoalKind::Objective(9)));
    assert!(follower.route().is_some());
}

#[test]
fn pursuit_leads_and_fades() {
    let t = Traits::at_skill(3.0);
    let v = Vec3::new(300.0, 0.0, 500.0);
    let seen = pursuit_point(Vec3::ZERO, v, true, 0.0, &t);
    assert!(seen.x > 100.0 && seen.z == 0.0, "horizontal lead only: {seen:?}");
    let old = pursuit_point(Vec3::ZERO, v, false, 3.0, &t);
    assert_eq!(old, Vec3::ZERO, "no confidence left");
    let huge = pursuit_point(Vec3::ZERO, Vec3::X * 5000.0, true, 0.0, &t);
    assert!((huge.length() - 256.0).abs() < 1e-3);
}

/// What the bot acts on: an enemy noticed only now waits for the reaction
/// ring; one a teammate announced is acted on at once, with the
/// re-acquire share of the reaction; a target known only from a report is
/// let go.
#[test]
fn the_reaction_ring_and_expected_enemies() {
    use crate::objective::testkit::{Kit, player};
    use crate::perception::{Senses, Sighting};
    use quarry_sim::Team;
    use quarry_sim::rules::GameType;
    let kit = Kit::new();
    let view = kit.view(GameType::Tdm, vec![player(0, Team::Red, Vec3::ZERO), player(3, Team::Blue, Vec3::X * 600.0)]);
    let t = Traits::at_skill(3.0);
    let clock = view.clock;
    let mut rng = BotRng::for_slot(1, 0, 0);
    let mut senses = Senses {
        sightings: vec![Sighting { slot: SlotId(3), seen_offset: Vec3::Z * 10.0, distance: 600.0, off_axis: 0.0 }],
        ..Senses::default()
    };
    senses.memory.see(SlotId(3), clock.tick, Vec3::X * 600.0, Vec3::ZERO, Vec3::Z * 10.0);
    let mut targeting = Targeting::default();
    assert_eq!(targeting.choose(&view, &senses, &t, &clock, &mut rng), None, "not noticed a reaction ago yet");
    senses.expected.insert(SlotId(3));
    let acquired = targeting.choose(&view, &senses, &t, &clock, &mut rng).expect("an expected enemy is acted on at once");
    let full = crate::perception::reaction_delay_ms(&t, 0.0, true, 1.0);
    assert!(acquired.delay_ms <= full * t.reacquire_fraction + 1.0, "{} vs {full}", acquired.delay_ms);
    // Out of sight, known only from a teammate's report: the engagement ends.
    senses.sightings.clear();
    senses.memory.begin_scan();
    senses.memory.report(SlotId(3), clock.tick + 5, Vec3::X * 700.0, 100.0);
    let later = crate::view::BotClock { tick: clock.tick + 10, ..clock };
    targeting.choose(&view, &senses, &t, &later, &mut rng);
    assert_eq!(targeting.slot(), None);
}

#[test]
fn a_restless_bot_leaves_the_ammo_around_it_and_hunts_far_off() {
    use crate::objective::testkit::{Kit, player};
    use crate::view::ItemSnap;
    use quarry_sim::components::NetId;
    use quarry_sim::items::Gift;
    let kit = Kit::new();
    let mut view = kit.view(
        quarry_sim::rules::GameType::Tdm,
        vec![player(0, quarry_sim::Team::Red, Vec3::ZERO), player(1, quarry_sim::Team::Blue, Vec3::new(3000.0, 0.0, 0.0))],
    );
    let ammo = |id: u32, x: f32| ItemSnap {
        id: NetId(id),
        classname: "ammo_shells",
        gift: Gift::Ammo { weapon: 3, amount: 10, cap: 200 },
        origin: Vec3::new(x, 0.0, 15.0),
        half: Vec3::splat(15.0),
        available: true,
        respawn_at: 0,
        respawn_ticks: 0,
        first_spawn_ticks: 0,
        dropped: false,
    };
    view.items = vec![ammo(1, 300.0), ammo(2, -300.0), ammo(3, 2400.0)];
    let mut planner = GoalPlanner::default();
    let mut follower = PathFollower::default();
    decide_once_restless(&mut planner, &mut follower, &view, None, false);
    let settled = planner.goal.expect("a goal");
    assert!(matches!(settled.kind, GoalKind::Item(_)), "with news lately it takes the ammo at hand: {:?}", settled.kind);
    assert!(settled.target.distance(Vec3::ZERO) < 400.0, "the near ammo: {:?}", settled.target);
    let mut planner = GoalPlanner::default();
    let mut follower = PathFollower::default();
    decide_once_restless(&mut planner, &mut follower, &view, None, true);
    let hunting = planner.goal.expect("a goal");
    assert_eq!(hunting.kind, GoalKind::Roam, "restless, it roams");
    assert!(hunting.target.distance(Vec3::ZERO) > 1000.0, "far off: {:?}", hunting.target);
}
