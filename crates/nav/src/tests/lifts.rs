//! LIFT links on a synthetic world: a plat in a pit between a low floor
//! and a ledge 128 units up, which no walk, drop or jump climbs.

use super::{SOLID, TestMap, floor, stand};
use crate::{Agent, BuildOptions, LinkKind, NavMesh, match_start_world};

/// Low floor at z 0 for x < 0; a pit x 0..64 (floor at -160) holding a
/// plat drawn at the top (z 0..128, its top flush with the ledge) that
/// rests 128 lower (its top flush with the low floor); the ledge from x 64
/// at z 128 with an item on it.
fn lift_map() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -128.0], [0.0, 128.0]);
    m.solid([0.0, -128.0, -176.0], [64.0, 128.0, -160.0]);
    m.solid([64.0, -128.0, -16.0], [512.0, 128.0, 128.0]);
    m.brush_entity("func_plat", [0.0, -128.0, 0.0], [64.0, 128.0, 128.0], SOLID, &[("height", "128")]);
    m.spawn([-300.0, 0.0, 0.0]).item([400.0, 0.0, 128.0]);
    m
}

fn build(m: &TestMap) -> (quarry_map::LoadedMap, NavMesh) {
    let map = m.load();
    let world = match_start_world(&map);
    let mesh = NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &BuildOptions::default()).unwrap_or_else(|e| panic!("builds: {e}"));
    (map, mesh)
}

#[test]
fn a_plat_gets_lift_links_from_its_lowered_top_to_the_floor_at_its_raised_top() {
    let (map, mesh) = build(&lift_map());
    let lifts: Vec<_> = mesh.off_mesh_links().iter().filter(|l| l.kind == LinkKind::Lift).collect();
    assert_eq!(lifts.len(), 1, "{:?}", mesh.warnings());
    let lift = lifts[0];
    for &e in &lift.entries {
        let n = mesh.node(e).expect("entry");
        assert!((n.origin.z - 24.0).abs() < 1.0 && (0.0..64.0).contains(&n.origin.x), "boards on the lowered top: {}", n.origin);
    }
    for &x in &lift.exits {
        let n = mesh.node(x).expect("exit");
        // Standing on the ledge (the box over its edge at x 64), within
        // a cell and a half of the plat.
        let on_ledge = n.origin.x + 15.0 > 64.0 && n.origin.x < 64.0 + 15.0 + 36.0;
        assert!((n.origin.z - 152.0).abs() < 1.0 && on_ledge, "steps off onto the ledge: {}", n.origin);
    }
    let world = match_start_world(&map);
    let up = mesh
        .route(&world, &mut crate::SearchScratch::new(), stand([-300.0, 0.0, 0.0]), stand([400.0, 0.0, 128.0]), &crate::RouteOptions::default())
        .expect("rides up");
    let i = up.corners.iter().position(|c| c.kind == LinkKind::Lift).unwrap_or_else(|| panic!("a lift corner: {up}"));
    assert!(i > 0 && up.corners[i - 1].node.is_some_and(|n| lift.entries.contains(&n)), "boards first: {up}");
    assert_eq!(up.corners[i].entity, Some(lift.entity));
    let ride = up.corners[i].origin.distance(up.corners[i - 1].origin);
    assert!(up.cost > ride + 128.0 / 200.0 * 320.0, "the ride costs its time: {up}");
    // Down again by dropping off the ledge, never by the lift.
    let down = mesh
        .route(&world, &mut crate::SearchScratch::new(), stand([400.0, 0.0, 128.0]), stand([-300.0, 0.0, 0.0]), &crate::RouteOptions::default())
        .expect("drops back");
    assert!(!down.uses(LinkKind::Lift), "{down}");
}

#[test]
fn a_plat_a_trigger_raises_is_not_a_lift_bots_call() {
    let mut m = lift_map();
    m.entities.retain(|e| !e.contains("func_plat"));
    m.brush_entity("func_plat", [0.0, -128.0, 0.0], [64.0, 128.0, 128.0], SOLID, &[("height", "128"), ("targetname", "up")]);
    let (_, mesh) = build(&m);
    assert!(mesh.off_mesh_links().iter().all(|l| l.kind != LinkKind::Lift));
}
