//! CROUCH links on a synthetic world: two rooms joined only by a passage
//! lower than a standing player and higher than a crouching one.

use super::{TestMap, floor, route, stand};
use crate::LinkKind;

/// West and east rooms split by a wall at x -16..16, with a doorway at
/// y -48..48 whose lintel comes down to `opening` above the floor; a
/// spawn in the west room, an item in the east one.
fn low_passage_map(opening: f32) -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -256.0], [512.0, 256.0]);
    m.solid([-16.0, -256.0, 0.0], [16.0, -48.0, 256.0]);
    m.solid([-16.0, 48.0, 0.0], [16.0, 256.0, 256.0]);
    m.solid([-16.0, -48.0, opening], [16.0, 48.0, 256.0]);
    m.spawn([-300.0, 0.0, 0.0]).item([300.0, 0.0, 0.0]);
    m
}

#[test]
fn a_passage_only_a_crouching_player_fits_gets_crouch_links_both_ways() {
    // 44 units: under the standing box's 56, over the crouched box's 40.
    let (map, mesh) = low_passage_map(44.0).build(24.0);
    assert!(mesh.info().links_by_kind.crouch >= 2, "{}", mesh.info());
    assert_eq!(mesh.area_count(), 1, "one area through the passage");
    for (from, to) in [([-300.0, 0.0, 0.0], [300.0, 0.0, 0.0]), ([300.0, 0.0, 0.0], [-300.0, 0.0, 0.0])] {
        let r = route(&map, &mesh, stand(from), stand(to)).expect("through the passage");
        let i = r.corners.iter().position(|c| c.kind == LinkKind::Crouch).unwrap_or_else(|| panic!("crouches: {r}"));
        // The crouched leg runs from one side of the wall to the other.
        let exit = r.corners[i].origin;
        let entry = if i == 0 { r.routed_start } else { r.corners[i - 1].origin };
        assert!(entry.x.signum() != exit.x.signum() && exit.y.abs() < 48.0, "{entry} -> {exit} in {r}");
    }
    // Every crouch link stays on the floor and crosses the wall.
    for (i, n) in mesh.nodes().iter().enumerate() {
        for l in mesh.links_from(crate::NodeId(i as u32)).iter().filter(|l| l.kind == LinkKind::Crouch) {
            let to = mesh.node(l.to).expect("node");
            assert!((n.origin.z - to.origin.z).abs() < 1.0 && n.origin.x.signum() != to.origin.x.signum(), "{} -> {}", n.origin, to.origin);
        }
    }
}

#[test]
fn a_doorway_a_player_stands_in_and_a_crawlspace_too_low_for_anyone_get_none() {
    let (_, open) = low_passage_map(128.0).build(24.0);
    assert_eq!(open.info().links_by_kind.crouch, 0, "walked standing");
    assert_eq!(open.area_count(), 1);
    let (_, shut) = low_passage_map(32.0).build(24.0);
    assert_eq!(shut.info().links_by_kind.crouch, 0, "lower than a crouching player");
    assert_eq!(shut.area_count(), 2);
}
