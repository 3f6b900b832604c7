//! SWIM links on a synthetic world: a pool whose walls stand higher than
//! a jump, its water's surface a little below the floor around it.

use super::{TestMap, floor, route, stand};
use crate::LinkKind;

/// Floor at z 0 for x < 0 and x > 256; between them a pool 128 deep
/// (floor at -128) filled with water to 8 below the floor around it; an
/// item on the pool's floor.
fn pool_map() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -128.0], [0.0, 128.0]);
    floor(&mut m, [256.0, -128.0], [512.0, 128.0]);
    m.solid([0.0, -128.0, -144.0], [256.0, 128.0, -128.0]);
    m.solid([0.0, -144.0, -144.0], [256.0, -128.0, 0.0]);
    m.solid([0.0, 128.0, -144.0], [256.0, 144.0, 0.0]);
    m.textured([0.0, -128.0, -128.0], [256.0, 128.0, -8.0], "liquids/water");
    m.spawn([-300.0, 0.0, 0.0]).item([128.0, 0.0, -128.0]);
    m
}

#[test]
fn the_floor_of_a_pool_gets_swim_links_up_and_out_onto_its_rims() {
    let (map, mesh) = pool_map().build(24.0);
    let swims = mesh.info().links_by_kind.swim;
    assert!(swims > 0, "swim links: {}", mesh.info());
    // Into the pool by dropping; out by swimming.
    let down = route(&map, &mesh, stand([-300.0, 0.0, 0.0]), stand([128.0, 0.0, -128.0])).expect("into the pool");
    assert!(!down.uses(LinkKind::Swim), "{down}");
    let up = route(&map, &mesh, stand([128.0, 0.0, -128.0]), stand([-300.0, 0.0, 0.0])).expect("out of the pool");
    let i = up.corners.iter().position(|c| c.kind == LinkKind::Swim).unwrap_or_else(|| panic!("swims out: {up}"));
    let exit = up.corners[i].origin;
    assert!((exit.z - 24.0).abs() < 1.0 && (exit.x < 24.0 || exit.x > 232.0), "onto a rim: {exit}");
    // Every swim link leaves a node under water and lands on dry floor.
    for (i, n) in mesh.nodes().iter().enumerate() {
        for l in mesh.links_from(crate::NodeId(i as u32)).iter().filter(|l| l.kind == LinkKind::Swim) {
            let to = mesh.node(l.to).expect("node");
            assert!(n.origin.z < -80.0 && (to.origin.z - 24.0).abs() < 1.0, "{} -> {}", n.origin, to.origin);
        }
    }
}

#[test]
fn a_dry_pit_gets_no_swim_links() {
    let mut m = pool_map();
    m.world.retain(|b| !b.contains("liquids/water"));
    let (_, mesh) = m.build(24.0);
    assert_eq!(mesh.info().links_by_kind.swim, 0);
}
