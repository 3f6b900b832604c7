//! Doors and live validation: touch-open doors are walked through, locked
//! ones are walls, and a door that closes after a route was planned makes
//! the route repair itself.

use glam::Vec3;
use quarry_map::LoadedMap;

use super::{TestMap, crosses_x, floor, route, route_cells, stand};
use crate::{Agent, BuildOptions, LinkKind, NavMesh, RouteError, RouteOptions, SearchScratch};

/// West and east halves split by a wall at x = 0 with a door at y -48..48;
/// with `detour`, the wall stops at y 400 so the long way round is open.
fn door_map(locked: bool, detour: bool) -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -128.0], [512.0, 512.0]);
    let wall_end = if detour { 400.0 } else { 512.0 };
    m.solid([-16.0, -128.0, -16.0], [16.0, -48.0, 256.0]);
    m.solid([-16.0, 48.0, -16.0], [16.0, wall_end, 256.0]);
    m.solid([-16.0, -48.0, 128.0], [16.0, 48.0, 256.0]);
    m.door([-8.0, -48.0, 0.0], [8.0, 48.0, 128.0], locked);
    m.spawn([-300.0, 0.0, 0.0]).item([300.0, 0.0, 0.0]);
    m
}

fn build(map: &LoadedMap) -> NavMesh {
    let options = BuildOptions {
        cell_size: 16.0,
        ..BuildOptions::default()
    };
    NavMesh::build_for_map(map, map.world(), &[], &Agent::default(), &options).expect("builds")
}

const WEST: [f32; 3] = [-300.0, 0.0, 0.0];
const EAST: [f32; 3] = [300.0, 0.0, 0.0];

#[test]
fn an_unlocked_door_is_walked_through_even_while_closed() {
    let map = door_map(false, false).load();
    let mesh = build(&map);
    assert_eq!(mesh.area_count(), 1);
    assert_eq!(
        mesh.info().mover_links,
        0,
        "touch doors are never re-checked"
    );
    let r = route(&map, &mesh, stand(WEST), stand(EAST)).expect("through the door");
    assert!(r.corners.iter().all(|c| c.kind == LinkKind::Walk), "{r}");
    assert!(crosses_x(&r, 0.0, -33.0..33.0), "crosses the doorway: {r}");
    let r = route_cells(&map, &mesh, stand(WEST), stand(EAST)).expect("through the door");
    assert!(
        r.nodes
            .iter()
            .filter_map(|&n| mesh.node(n))
            .any(|n| n.origin.x.abs() < 16.0),
        "crosses the doorway"
    );
}

#[test]
fn a_locked_door_is_a_wall() {
    let map = door_map(true, false).load();
    let mesh = build(&map);
    assert_eq!(mesh.area_count(), 2);
    assert_eq!(
        route(&map, &mesh, stand(WEST), stand(EAST)).err(),
        Some(RouteError::DifferentAreas)
    );
}

#[test]
fn a_door_that_closes_after_the_build_is_routed_round() {
    let mut map = door_map(true, true).load();
    let door = map
        .world()
        .movers()
        .next()
        .map(|(id, _)| id)
        .expect("a door");
    map.world_mut().set_mover_offset(door, Vec3::Z * 120.0);
    let mesh = build(&map);
    assert!(
        mesh.info().mover_links > 0,
        "links through the doorway are re-checked"
    );
    let mut scratch = SearchScratch::new();
    let options = RouteOptions::default();
    let (a, b) = (stand(WEST), stand(EAST));
    let open = mesh
        .route(map.world(), &mut scratch, a, b, &options)
        .expect("through the open door");
    assert_eq!(open.searches, 1);
    assert!(
        open.corners.iter().all(|c| c.origin.y < 100.0),
        "short way: {open}"
    );
    map.world_mut().set_mover_offset(door, Vec3::ZERO);
    let closed = mesh
        .route(map.world(), &mut scratch, a, b, &options)
        .expect("round the wall");
    assert!(closed.searches >= 2, "repaired: {closed}");
    assert!(
        closed.corners.iter().any(|c| c.origin.y > 400.0),
        "long way: {closed}"
    );
    assert!(closed.cost > open.cost + 300.0);
    let once = RouteOptions {
        max_repairs: 0,
        ..options
    };
    // A scratch that never saw the door closed must repair, and may not.
    assert_eq!(
        mesh.route(map.world(), &mut SearchScratch::new(), a, b, &once).err(),
        Some(RouteError::Blocked)
    );
    // One that did remembers it while the door stays put: the way round at once.
    let remembered = mesh
        .route(map.world(), &mut scratch, a, b, &once)
        .expect("round the wall, remembered");
    assert_eq!(remembered.searches, 1, "{remembered}");
    assert!(remembered.corners.iter().any(|c| c.origin.y > 400.0), "long way: {remembered}");
    // Opened again, the door is probed anew: the short way.
    map.world_mut().set_mover_offset(door, Vec3::Z * 120.0);
    let reopened = mesh
        .route(map.world(), &mut scratch, a, b, &options)
        .expect("through the open door again");
    assert!(reopened.corners.iter().all(|c| c.origin.y < 100.0), "short way: {reopened}");
}

/// `nav-info`'s reasons: an item behind a door a trigger opens names the
/// door and what opens it; an item on a platform nothing leads to is on an
/// island; a reachable item is not listed.
#[test]
fn unreachable_goals_say_why() {
    let map = door_map(true, false).load();
    let mesh = build(&map);
    let world = crate::match_start_world(&map);
    let report = crate::reachability_report_in(&world, &map, &mesh);
    let goals = crate::explain_unreachable(&world, &map, &mesh, &report);
    assert_eq!(goals.len(), 1, "{goals:?}");
    let why = &goals[0].why;
    assert_eq!(goals[0].to_class, "item_health");
    assert!(why.contains("func_door") && why.contains("trigger"), "{why}");

    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -256.0], [256.0, 256.0]);
    m.solid([600.0, -64.0, 384.0], [728.0, 64.0, 400.0]);
    m.spawn([0.0, 0.0, 0.0]).item([0.0, 100.0, 0.0]).item([664.0, 0.0, 400.0]);
    let map = m.load();
    let mesh = build(&map);
    let world = crate::match_start_world(&map);
    let report = crate::reachability_report_in(&world, &map, &mesh);
    let goals = crate::explain_unreachable(&world, &map, &mesh, &report);
    assert_eq!(goals.len(), 1, "only the platform's item: {goals:?}");
    assert!(goals[0].position.x > 600.0);
    assert!(goals[0].why.starts_with("on an island"), "{}", goals[0].why);
}

/// A gate (a door a trigger opens) is built open: its far side counts as
/// reachable, its links are re-checked live, so a route is barred while
/// it is closed and goes through once it opens.
#[test]
fn a_gate_a_trigger_opens_is_built_open_and_barred_while_closed() {
    let mut m = door_map(true, false);
    m.brush_entity("trigger_once", [-300.0, 200.0, 0.0], [-200.0, 300.0, 96.0], "common/trigger", &[("target", "button1")]);
    let mut map = m.load();
    let gates = crate::gates::gates(&map);
    assert_eq!(gates.len(), 1);
    assert_eq!(gates[0].openings.len(), 1, "the trigger opens it: {gates:?}");
    let mesh = build(&map);
    assert!(mesh.info().mover_links > 0, "links through the gate are re-checked");
    let world = crate::match_start_world(&map);
    let report = crate::reachability_report_in(&world, &map, &mesh);
    assert!(report.unreachable.is_empty(), "behind a gate something opens counts as reachable: {:?}", report.unreachable);
    let mut scratch = SearchScratch::new();
    let options = RouteOptions::default();
    let closed = mesh.route(map.world(), &mut scratch, stand(WEST), stand(EAST), &options);
    assert!(closed.is_err(), "barred while closed: {closed:?}");
    let door = map.entities().iter().find(|e| e.classname == "func_door").and_then(|e| map.world().mover_of(e.id)).expect("door");
    map.world_mut().set_mover_offset(door, Vec3::new(0.0, 0.0, 120.0));
    let open = mesh.route(map.world(), &mut scratch, stand(WEST), stand(EAST), &options).expect("through once open");
    assert!(crosses_x(&open, 0.0, -48.0..48.0), "{open}");
}

/// A Quake 1 key door (silver, spawnflags 16) with the key lying on the
/// near side: built open and re-checked live; it bars the routes of a
/// player without the key, who is sent to fetch it, and never bars one
/// carrying it (the door opens to that player's touch).
#[test]
fn a_key_door_bars_routes_until_the_key_is_carried_and_the_plan_fetches_it() {
    use quarry_map::entities::items::{KeyKind, KeySet};
    let mut m = door_map(false, false);
    m.entities.retain(|e| !e.contains("func_door"));
    m.brush_entity("func_door", [-8.0, -48.0, 0.0], [8.0, 48.0, 128.0], "door", &[("angle", "-1"), ("spawnflags", "16")]);
    m.point("item_key1", [-300.0, 300.0, 28.0], &[]);
    let text = m.text().replace("quarry/", "q_").replace("common/", "");
    let map = quarry_map::load_str(&text, "keys.map", &quarry_map::LoadOptions::default()).expect("loads");
    assert_eq!(map.game(), quarry_map::Game::Quake1);
    let gates = crate::gates::gates(&map);
    assert_eq!(gates.len(), 1, "{gates:?}");
    assert!(gates[0].bots_open(), "a key opens it");
    let mesh = build(&map);
    let world = crate::match_start_world(&map);
    let report = crate::reachability_report_in(&world, &map, &mesh);
    assert!(report.unreachable.is_empty(), "behind a key door with its key about: {:?}", report.unreachable);
    let mut scratch = SearchScratch::new();
    let without = mesh.route(&world, &mut scratch, stand(WEST), stand(EAST), &RouteOptions::default());
    assert!(without.is_err(), "barred without the key: {without:?}");
    let carrying = RouteOptions { keys: KeySet::NONE.with(KeyKind::Silver), ..RouteOptions::default() };
    let with = mesh.route(&world, &mut scratch, stand(WEST), stand(EAST), &carrying).expect("the key opens the way");
    assert!(crosses_x(&with, 0.0, -48.0..48.0), "through the door: {with}");
    let gold = RouteOptions { keys: KeySet::NONE.with(KeyKind::Gold), ..RouteOptions::default() };
    assert!(mesh.route(&world, &mut scratch, stand(WEST), stand(EAST), &gold).is_err(), "the other key does not");
    let spot = Vec3::new(-300.0, 300.0, 24.0);
    let lying = [(KeyKind::Silver, spot)];
    let knows = crate::gates::KeyKnowledge { held: KeySet::NONE, lying: &lying };
    let plan = crate::gates::plan(&mesh, &world, &mut scratch, &gates, stand(WEST), stand(EAST), &knows).expect("a plan");
    assert_eq!((plan.target, plan.key, plan.gate), (spot, Some(KeyKind::Silver), gates[0].entity), "fetch the key");
    let nothing_lying = crate::gates::KeyKnowledge { held: KeySet::NONE, lying: &[] };
    assert!(crate::gates::plan(&mesh, &world, &mut scratch, &gates, stand(WEST), stand(EAST), &nothing_lying).is_none(), "no key to fetch");
}

/// A gate whose trigger stands behind a key door: the plan looks through
/// both (keeping the gate shut while it plans the way to the trigger) and
/// its first step is fetching the key; the item behind both counts as
/// reachable.
#[test]
fn a_trigger_behind_a_key_door_is_planned_through_starting_with_the_key() {
    use quarry_map::entities::items::{KeyKind, KeySet};
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -256.0], [512.0, 256.0]);
    // Two walls across the map, each with a 96-wide doorway at y -48..48:
    // the key door in the one at x 0, the gate in the one at x 256.
    for x in [0.0, 256.0] {
        m.solid([x - 16.0, -256.0, 0.0], [x + 16.0, -48.0, 256.0]);
        m.solid([x - 16.0, 48.0, 0.0], [x + 16.0, 256.0, 256.0]);
        m.solid([x - 16.0, -48.0, 128.0], [x + 16.0, 48.0, 256.0]);
    }
    m.brush_entity("func_door", [-8.0, -48.0, 0.0], [8.0, 48.0, 128.0], "door", &[("angle", "-1"), ("spawnflags", "16")]);
    m.brush_entity("func_door", [248.0, -48.0, 0.0], [264.0, 48.0, 128.0], "door", &[("angle", "-1"), ("targetname", "gate")]);
    m.brush_entity("trigger_once", [96.0, 150.0, 0.0], [160.0, 230.0, 96.0], "trigger", &[("target", "gate")]);
    m.spawn([-300.0, 0.0, 0.0]).item([400.0, 0.0, 0.0]);
    m.point("item_key1", [-300.0, 200.0, 28.0], &[]);
    let text = m.text().replace("quarry/", "q_").replace("common/", "");
    let map = quarry_map::load_str(&text, "nested.map", &quarry_map::LoadOptions::default()).expect("loads");
    let mesh = build(&map);
    let world = crate::match_start_world(&map);
    let gates = crate::gates::gates(&map);
    assert_eq!(gates.len(), 2, "{gates:?}");
    let key_door = gates.iter().find(|g| g.openings.iter().any(|o| matches!(o, crate::gates::Opening::Key(_)))).expect("the key door");
    let report = crate::reachability_report_in(&world, &map, &mesh);
    assert!(report.unreachable.is_empty(), "{:?}", report.unreachable);
    let spot = Vec3::new(-300.0, 200.0, 24.0);
    let lying = [(KeyKind::Silver, spot)];
    let mut scratch = SearchScratch::new();
    let east = stand([400.0, 0.0, 0.0]);
    let knows = crate::gates::KeyKnowledge { held: KeySet::NONE, lying: &lying };
    let plan = crate::gates::plan(&mesh, &world, &mut scratch, &gates, stand(WEST), east, &knows).expect("a plan");
    assert_eq!((plan.gate, plan.key, plan.target), (key_door.entity, Some(KeyKind::Silver), spot), "the key first: {plan:?}");
    // Carrying the key: the trigger next (the key door no longer bars).
    let carrying = crate::gates::KeyKnowledge { held: KeySet::NONE.with(KeyKind::Silver), lying: &[] };
    let plan = crate::gates::plan(&mesh, &world, &mut scratch, &gates, stand(WEST), east, &carrying).expect("a plan");
    assert!(plan.key.is_none() && plan.gate != key_door.entity, "then the gate's trigger: {plan:?}");
    assert!((96.0..=160.0).contains(&plan.target.x) && (150.0..=230.0).contains(&plan.target.y), "{plan:?}");
}

#[test]
fn a_goal_behind_a_door_known_closed_fails_without_searching() {
    // Built with the door open, then closed: the only way east is shut.
    let mut map = door_map(true, false).load();
    let door = map.world().movers().next().map(|(id, _)| id).expect("a door");
    map.world_mut().set_mover_offset(door, Vec3::Z * 120.0);
    let mesh = build(&map);
    map.world_mut().set_mover_offset(door, Vec3::ZERO);
    let mut scratch = SearchScratch::new();
    let (a, b) = (stand(WEST), stand(EAST));
    let options = RouteOptions::default();
    assert_eq!(mesh.route(map.world(), &mut scratch, a, b, &options).err(), Some(RouteError::Blocked));
    // What the first route learnt: the doorway's crossings are barred and
    // nothing else leads east.
    let prober = mesh.prober(map.world());
    scratch.memo.begin(&mesh, mesh.doors_opening_to(options.keys));
    let barred = scratch.memo.barred_edges(&mesh, &prober);
    assert!(!barred.is_empty());
    let region = |p: Vec3| mesh.regions.of(super::node_near(&mesh, [p.x, p.y, p.z - 24.0]).0.0);
    let (reachable, _) = scratch.memo.reachable(&mesh, &barred, region(a), region(b));
    assert!(!reachable, "east is cut off");
    let (back, _) = scratch.memo.reachable(&mesh, &barred, region(a), region(stand([-100.0, 200.0, 0.0])));
    assert!(back, "the west half still reaches itself");
    assert_eq!(mesh.route(map.world(), &mut scratch, a, b, &options).err(), Some(RouteError::Blocked));
    // Open again, the memory no longer holds: through the doorway.
    map.world_mut().set_mover_offset(door, Vec3::Z * 120.0);
    assert!(mesh.route(map.world(), &mut scratch, a, b, &options).is_ok());
}
