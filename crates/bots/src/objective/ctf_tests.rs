use glam::Vec3;
use quarry_sim::mode::FlagStatus;
use quarry_sim::rules::GameType;
use quarry_sim::{SlotId, Team};

use super::*;
use crate::navigate::StraightNavigator;
use crate::objective::testkit::{BLUE_BASE, Kit, RED_BASE, ctf_flags, flag, player};
use crate::objective::{Mode, plan_all};

/// Red bots 0..4 spread from their base toward the middle, blue 4..8 mirrored.
fn teams() -> Vec<PlayerSnap> {
    let mut v = Vec::new();
    for i in 0..4u8 {
        let x = -1800.0 + 300.0 * f32::from(i);
        v.push(player(i, Team::Red, Vec3::new(x, 100.0 * f32::from(i), 0.0)));
        v.push(player(i + 4, Team::Blue, Vec3::new(-x, -100.0 * f32::from(i), 0.0)));
    }
    v
}

fn all_bots() -> Vec<SlotId> {
    (0..8).map(SlotId).collect()
}

fn plan(view: &BotView<'_>, prev: &[Assignment]) -> Vec<Assignment> {
    let mut nav = StraightNavigator::default();
    plan_all(Mode::Ctf, view, &all_bots(), prev, &mut Perimeters::default(), &mut nav)
}

fn count(plan: &[Assignment], team: Team, view: &BotView<'_>, role: Role) -> usize {
    plan.iter()
        .filter(|a| a.role == role && view.player(a.slot).is_some_and(|p| p.team == team))
        .count()
}

fn home() -> (FlagStatus, Vec3) {
    (FlagStatus::Home, Vec3::ZERO)
}

#[test]
fn both_flags_home_most_attack_the_rest_defend_off_the_flag() {
    let kit = Kit::new();
    let mut view = kit.view(GameType::Ctf, teams());
    ctf_flags(&mut view, (FlagStatus::Home, RED_BASE), (FlagStatus::Home, BLUE_BASE));
    let p = plan(&view, &[]);
    assert_eq!(p.len(), 8);
    for team in [Team::Red, Team::Blue] {
        assert_eq!(count(&p, team, &view, Role::Attack), 3, "{team:?}");
        assert_eq!(count(&p, team, &view, Role::Defend), 1, "{team:?}");
    }
    // Red's defender is the one nearest home (slot 0) and stands on the
    // perimeter facing blue, not on the flag.
    let d = p.iter().find(|a| a.role == Role::Defend && a.slot.0 < 4).expect("red defender");
    assert_eq!(d.slot, SlotId(0));
    let o = d.objective.expect("objective");
    let off = o.origin - RED_BASE;
    assert!(off.x > 150.0 && off.truncate().length() >= 160.0, "perimeter point {:?}", o.origin);
    assert_eq!(o.hold_radius, Some(DEFEND_RADIUS));
    let a = p.iter().find(|a| a.slot == SlotId(3)).and_then(|a| a.objective).expect("attacker");
    assert_eq!((a.origin.x, a.priority), (BLUE_BASE.x, FETCH));
}

#[test]
fn the_same_answer_whichever_order_the_bots_come_in() {
    let kit = Kit::new();
    let mut view = kit.view(GameType::Ctf, teams());
    ctf_flags(
        &mut view,
        (FlagStatus::Dropped { returns_at: 900 }, Vec3::new(-600.0, 0.0, 0.0)),
        (FlagStatus::Carried { by: SlotId(2) }, Vec3::ZERO),
    );
    let a = plan(&view, &[]);
    let mut shuffled: Vec<SlotId> = [5u8, 2, 7, 0, 3, 6, 1, 4].map(SlotId).to_vec();
    let mut nav = StraightNavigator::default();
    let b = plan_all(Mode::Ctf, &view, &shuffled, &[], &mut Perimeters::default(), &mut nav);
    assert_eq!(a, b);
    shuffled.reverse();
    let c = plan_all(Mode::Ctf, &view, &shuffled, &a, &mut Perimeters::default(), &mut nav);
    assert_eq!(a, c, "planning again from its own answer changes nothing");
}

#[test]
fn a_carrier_runs_home_with_escorts_and_a_hurt_one_gets_more() {
    let kit = Kit::new();
    let mut players = teams();
    players[4].velocity = Vec3::new(-300.0, 0.0, 0.0); // red slot 2 is index 4
    let mut view = kit.view(GameType::Ctf, players.clone());
    ctf_flags(&mut view, home_at(RED_BASE), (FlagStatus::Carried { by: SlotId(2) }, Vec3::ZERO));
    let p = plan(&view, &[]);
    let c = p.iter().find(|a| a.slot == SlotId(2)).expect("carrier");
    assert_eq!(c.role, Role::Carrier);
    let o = c.objective.expect("objective");
    assert_eq!((o.origin, o.priority, o.hold_radius), (RED_BASE, CAPTURE, None));
    assert_eq!(count(&p, Team::Red, &view, Role::Escort), 2);
    assert_eq!(count(&p, Team::Red, &view, Role::Attack), 0, "nothing to fetch");
    assert_eq!(count(&p, Team::Red, &view, Role::Defend), 1);
    // Escorts trail: behind the carrier (he runs toward -x), on both sides.
    let carrier_x = players[4].origin.x;
    let slots: Vec<Vec3> = p
        .iter()
        .filter(|a| a.role == Role::Escort)
        .filter_map(|a| a.objective.map(|o| o.origin))
        .collect();
    assert!(slots.iter().all(|s| s.x > carrier_x + 100.0), "{slots:?}");
    assert!(slots[0].y != slots[1].y);
    // Hurt: one more escort (here the last free one).
    if let Some(Some(c)) = view.players.get_mut(2) {
        c.health = 30;
    }
    let p = plan(&view, &[]);
    assert_eq!(count(&p, Team::Red, &view, Role::Escort), 3);
    assert!(p.iter().filter(|a| a.role == Role::Escort).all(|a| a.objective.is_some_and(|o| o.priority == ESCORT_HURT)));
    // Blue: its flag is carried, so most of blue intercepts.
    assert_eq!(count(&p, Team::Blue, &view, Role::Intercept), 3);
}

fn home_at(base: Vec3) -> (FlagStatus, Vec3) {
    (FlagStatus::Home, base)
}

#[test]
fn a_dropped_flag_gets_its_nearest_returner() {
    let kit = Kit::new();
    let mut view = kit.view(GameType::Ctf, teams());
    ctf_flags(
        &mut view,
        (FlagStatus::Dropped { returns_at: 900 }, Vec3::new(-1100.0, 150.0, 0.0)),
        home_at(BLUE_BASE),
    );
    let p = plan(&view, &[]);
    let r: Vec<&Assignment> = p.iter().filter(|a| a.role == Role::Return).collect();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].slot, SlotId(2), "red 2 stands at x -1200");
    assert_eq!(r[0].objective.map(|o| o.priority), Some(RETURN));
    assert_eq!(count(&p, Team::Red, &view, Role::Attack), 3);
    assert_eq!(count(&p, Team::Red, &view, Role::Defend), 0);
    let _ = home();
}

#[test]
fn both_flags_carried_the_carrier_waits_and_the_rest_intercept() {
    let kit = Kit::new();
    let mut view = kit.view(GameType::Ctf, teams());
    // Red 1 carries blue's flag; blue 7 carries red's.
    ctf_flags(
        &mut view,
        (FlagStatus::Carried { by: SlotId(7) }, Vec3::ZERO),
        (FlagStatus::Carried { by: SlotId(1) }, Vec3::ZERO),
    );
    let p = plan(&view, &[]);
    let c = p.iter().find(|a| a.slot == SlotId(1)).and_then(|a| a.objective).expect("carrier");
    assert_eq!((c.origin, c.priority, c.hold_radius), (RED_BASE, CARRIER_WAIT, Some(WAIT_RADIUS)));
    assert_eq!(count(&p, Team::Red, &view, Role::Intercept), 2, "support(4)");
    assert_eq!(count(&p, Team::Red, &view, Role::Escort), 1, "what is left");
    let i = p.iter().find(|a| a.role == Role::Intercept && a.slot.0 < 4).and_then(|a| a.objective);
    assert_eq!(i.map(|o| o.priority), Some(INTERCEPT));
}

#[test]
fn interceptors_chase_near_and_cut_off_far() {
    let carrier = player(7, Team::Blue, Vec3::new(0.0, 0.0, 0.0));
    let near = player(0, Team::Red, Vec3::new(300.0, 0.0, 0.0));
    let ahead = player(1, Team::Red, Vec3::new(1500.0, 0.0, 0.0));
    let behind = player(2, Team::Red, Vec3::new(-1500.0, 0.0, 0.0));
    assert_eq!(intercept_point(&near, &carrier, BLUE_BASE), carrier.origin);
    assert_eq!(intercept_point(&ahead, &carrier, BLUE_BASE), BLUE_BASE);
    assert_eq!(intercept_point(&behind, &carrier, BLUE_BASE), carrier.origin);
}

#[test]
fn roles_do_not_flap_between_close_candidates() {
    let kit = Kit::new();
    let mut players = teams();
    // Red 2 far forward; red 0 and red 1 about as far from blue's flag.
    players[4].origin.x = -500.0;
    players[0].origin.x = -1000.0;
    players[2].origin.x = -990.0;
    let mut view = kit.view(GameType::Ctf, players);
    ctf_flags(&mut view, home_at(RED_BASE), home_at(BLUE_BASE));
    let first = plan(&view, &[]);
    let defender = |p: &[Assignment]| p.iter().find(|a| a.role == Role::Defend && a.slot.0 < 4).map(|a| a.slot);
    assert_eq!(defender(&first), Some(SlotId(0)));
    // Red 0 now slightly nearer the enemy flag than red 1: roles stay.
    if let Some(Some(p)) = view.players.get_mut(0) {
        p.origin.x = -980.0;
    }
    let again = plan(&view, &first);
    assert_eq!(defender(&again), Some(SlotId(0)), "the defender keeps defending");
    assert_eq!(defender(&plan(&view, &[])), Some(SlotId(1)), "a fresh plan would swap them");
}

#[test]
fn one_flag_carrier_goes_to_the_enemy_base_and_the_enemy_intercepts_at_home() {
    let kit = Kit::new();
    let mut view = kit.view(GameType::OneFlag, teams());
    view.mode.flags = vec![flag(Team::Free, Vec3::ZERO, FlagStatus::Carried { by: SlotId(3) }, Vec3::ZERO)];
    view.mode.bases = vec![(Team::Red, RED_BASE), (Team::Blue, BLUE_BASE)];
    let mut nav = StraightNavigator::default();
    let p = plan_all(Mode::OneFlag, &view, &all_bots(), &[], &mut Perimeters::default(), &mut nav);
    let c = p.iter().find(|a| a.slot == SlotId(3)).expect("carrier");
    assert_eq!(c.role, Role::Carrier);
    assert_eq!(c.objective.map(|o| (o.origin, o.priority)), Some((BLUE_BASE, CAPTURE)));
    assert_eq!(count(&p, Team::Red, &view, Role::Return), 0, "nothing to return in One Flag");
    assert_eq!(count(&p, Team::Blue, &view, Role::Intercept), 3);
    assert_eq!(count(&p, Team::Blue, &view, Role::Defend), 1, "the last one defends where he scores");
    // Neutral flag at home: most of both teams go for it.
    view.mode.flags = vec![flag(Team::Free, Vec3::ZERO, FlagStatus::Home, Vec3::ZERO)];
    let p = plan_all(Mode::OneFlag, &view, &all_bots(), &[], &mut Perimeters::default(), &mut nav);
    assert_eq!(count(&p, Team::Red, &view, Role::Attack), 3);
    assert_eq!(count(&p, Team::Blue, &view, Role::Attack), 3);
}

#[test]
fn nothing_before_the_match_is_live_and_nothing_without_bases() {
    let kit = Kit::new();
    let mut view = kit.view(GameType::Ctf, teams());
    view.objectives_live = false;
    ctf_flags(&mut view, home_at(RED_BASE), home_at(BLUE_BASE));
    assert!(plan(&view, &[]).is_empty());
    view.objectives_live = true;
    view.mode.bases.clear();
    let p = plan(&view, &[]);
    assert!(p.iter().all(|a| a.role == Role::Fight && a.objective.is_none()));
}

#[test]
fn a_bot_back_from_the_dead_attacks_and_the_defender_stays() {
    let kit = Kit::new();
    let all = teams();
    // Red 3 is dead: three red bots, two attack, one defends.
    let alive: Vec<PlayerSnap> = all.iter().copied().filter(|p| p.slot != SlotId(3)).collect();
    let mut view = kit.view(GameType::Ctf, alive);
    ctf_flags(&mut view, home_at(RED_BASE), home_at(BLUE_BASE));
    let first = plan(&view, &[]);
    assert_eq!(count(&first, Team::Red, &view, Role::Attack), 2);
    let defender = first.iter().find(|a| a.role == Role::Defend && a.slot.0 < 4).map(|a| a.slot);
    assert_eq!(defender, Some(SlotId(0)));
    // It respawns at home, behind the defender.
    view.players[3] = Some(player(3, Team::Red, Vec3::new(-1900.0, 50.0, 0.0)));
    let next = plan(&view, &first);
    let role = |s: u8| next.iter().find(|a| a.slot == SlotId(s)).map(|a| a.role);
    assert_eq!(role(0), Some(Role::Defend), "the defender keeps its post");
    assert_eq!(role(3), Some(Role::Attack), "the newcomer attacks");
}
