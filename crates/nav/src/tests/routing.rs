//! Routing on synthetic worlds: off-mesh links, string pulling, snapping,
//! path length and roaming.

use glam::Vec3;
use rand::SeedableRng;

use super::generation::room;
use super::{TestMap, floor, route, route_cells, stand};
use crate::{LinkKind, NodeId, RouteError, RouteOptions, SearchScratch};

/// Ground at 0 for x < 0; a 192-high platform from x 256; a pad at x -96..-32 aimed over the platform.
fn pad_map() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -128.0], [256.0, 128.0]);
    m.solid([256.0, -128.0, -16.0], [640.0, 128.0, 192.0]);
    m.jump_pad(
        "pad1",
        [-96.0, -32.0, 0.0],
        [-32.0, 32.0, 16.0],
        [320.0, 0.0, 260.0],
    );
    m.spawn([-300.0, 0.0, 0.0]).item([450.0, 0.0, 192.0]);
    m
}

#[test]
fn jump_pad_is_a_one_way_link_that_keeps_entry_and_exit() {
    let (map, mesh) = pad_map().build(16.0);
    let pads = mesh.off_mesh_links();
    assert_eq!(pads.len(), 1);
    assert_eq!(pads[0].kind, LinkKind::JumpPad);
    assert!(
        pads[0].landing.x > 320.0 && (pads[0].landing.z - 216.0).abs() < 1.0,
        "lands past the apex: {:?}",
        pads[0]
    );
    for &e in &pads[0].entries {
        let out = mesh.links_from(e);
        assert!(
            !out.is_empty() && out.iter().all(|l| l.kind == LinkKind::JumpPad),
            "a node in the pad only flies"
        );
    }
    let r = route(
        &map,
        &mesh,
        stand([-300.0, 0.0, 0.0]),
        stand([450.0, 0.0, 192.0]),
    )
    .expect("flies up");
    let i = r
        .corners
        .iter()
        .position(|c| c.kind == LinkKind::JumpPad)
        .expect("pad corner");
    let entry = r.corners[i - 1].node.expect("entry node");
    assert!(
        pads[0].entries.contains(&entry),
        "entry corner is in the pad: {r}"
    );
    assert!(
        r.corners[i]
            .node
            .is_some_and(|n| pads[0].exits.contains(&n)),
        "{r}"
    );
    assert!(r.corners[i].entity.is_some());
    // Down again by dropping off the platform (192 is within the safe drop).
    let back = route(
        &map,
        &mesh,
        stand([450.0, 0.0, 192.0]),
        stand([-300.0, 0.0, 0.0]),
    )
    .expect("drops back");
    assert!(
        back.uses(LinkKind::Drop) && !back.uses(LinkKind::JumpPad),
        "{back}"
    );
}

/// Two rooms with a wall between; a teleporter in the west room to the east room.
fn teleporter_map() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -128.0], [512.0, 128.0]);
    m.solid([-16.0, -128.0, -16.0], [16.0, 128.0, 256.0]);
    m.teleporter(
        "t1",
        [-300.0, -32.0, 0.0],
        [-236.0, 32.0, 64.0],
        [300.0, 0.0, 32.0],
    );
    m.spawn([-420.0, 0.0, 0.0]).item([420.0, 0.0, 0.0]);
    m
}

#[test]
fn teleporter_is_one_way_and_keeps_entry_and_exit_even_as_first_link() {
    let (map, mesh) = teleporter_map().build(16.0);
    let (west, east) = (stand([-420.0, 0.0, 0.0]), stand([420.0, 0.0, 0.0]));
    let r = route(&map, &mesh, west, east).expect("teleports");
    let i = r
        .corners
        .iter()
        .position(|c| c.kind == LinkKind::Teleport)
        .expect("teleport corner");
    assert!(
        i >= 1 && r.corners[i - 1].origin.x < -230.0 && r.corners[i].origin.x > 250.0,
        "{r}"
    );
    assert_eq!(
        route(&map, &mesh, east, west).err(),
        Some(RouteError::NoPath)
    );
    // Starting inside the teleporter: the teleport is the first link and keeps its entry corner.
    let inside = stand([-268.0, 0.0, 0.0]);
    let r = route(&map, &mesh, inside, east).expect("teleports");
    assert_eq!(r.corners[0].kind, LinkKind::Walk);
    assert_eq!(r.corners[1].kind, LinkKind::Teleport, "{r}");
}

#[test]
fn string_pulling_never_shortcuts_over_a_pit() {
    // A U-shaped walkway round a pit 256 deep (deeper than a drop is worth).
    let mut m = TestMap::new();
    m.solid([-256.0, -256.0, -16.0], [-128.0, 256.0, 0.0]);
    m.solid([128.0, -256.0, -16.0], [256.0, 256.0, 0.0]);
    m.solid([-256.0, 128.0, -16.0], [256.0, 256.0, 0.0]);
    m.solid([-256.0, -256.0, -400.0], [256.0, 256.0, -384.0]);
    m.spawn([-192.0, -200.0, 0.0]).item([192.0, -200.0, 0.0]);
    let (map, mesh) = m.build(16.0);
    let r = route(
        &map,
        &mesh,
        stand([-192.0, -200.0, 0.0]),
        stand([192.0, -200.0, 0.0]),
    )
    .expect("walks round");
    let mut prev = r.routed_start;
    for c in &r.corners {
        for t in 1..16 {
            let p = prev.lerp(c.origin, t as f32 / 16.0);
            // The box may cut the pit's inner corners by less than a
            // probe spacing (a running player does not fall there), never more.
            let over_pit = p.x.abs() + 15.0 < 128.0 - 16.0 && p.y + 15.0 < 128.0 - 16.0;
            assert!(
                !over_pit,
                "segment {prev} -> {} crosses the pit: {r}",
                c.origin
            );
        }
        prev = c.origin;
    }
    assert!(
        r.corners.len() >= 3,
        "at least two corners round the pit: {r}"
    );
    assert!(r.corners.iter().all(|c| c.kind == LinkKind::Walk));
}

#[test]
fn a_pillar_between_two_points_in_one_cell_routes_via_the_node() {
    // Cell (2, 2) spans 128..192; its node stands at (160, 160).
    let mut m = room();
    m.solid([156.0, 116.0, 0.0], [164.0, 134.0, 128.0]);
    let map = m.load();
    let options = crate::BuildOptions {
        cell_size: 64.0,
        ..crate::BuildOptions::default()
    };
    let mesh =
        crate::NavMesh::build_for_map(&map, map.world(), &[], &crate::Agent::default(), &options)
            .expect("builds");
    let (a, b) = (stand([136.0, 148.0, 0.0]), stand([184.0, 148.0, 0.0]));
    let r = route(&map, &mesh, a, b).expect("routes round the pillar");
    assert_eq!(r.nodes.len(), 1, "both ends snap to one node: {r}");
    assert_eq!(r.corners.len(), 2, "via the node origin: {r}");
    assert_eq!(r.corners[0].node, Some(r.nodes[0]));
    // Without the pillar the direct line is enough.
    let (map, mesh) = room().build(64.0);
    assert_eq!(route(&map, &mesh, a, b).expect("routes").corners.len(), 1);
}

#[test]
fn path_length_includes_access_and_exit_legs_and_airborne_ends_project() {
    let (map, mesh) = room().build(16.0);
    let (a, b) = (Vec3::new(-201.0, -3.0, 24.0), Vec3::new(197.0, 5.0, 24.0));
    let coarse = route(&map, &mesh, a, b).expect("routes");
    assert!((coarse.cost - a.distance(b)).abs() < 0.5, "open floor: one straight line: {coarse}");
    let r = route_cells(&map, &mesh, a, b).expect("routes");
    let first = mesh.node(r.nodes[0]).expect("start node").origin;
    let last = mesh
        .node(*r.nodes.last().expect("nodes"))
        .expect("goal node")
        .origin;
    assert!(
        r.cost >= a.distance(first) + first.distance(last) - 0.01,
        "{r}"
    );
    assert!((r.length_from(a) - r.cost).abs() < 1e-3);
    let later = Vec3::new(0.0, 0.0, 24.0);
    assert!(
        (r.length_from(later) - later.distance(b)).abs() < 1.0,
        "straight corners from elsewhere"
    );
    // A bot 120 units up in the air routes from the floor under it.
    let air = Vec3::new(-201.0, -3.0, 144.0);
    let r = route(&map, &mesh, air, b).expect("airborne start");
    assert!((r.routed_start.z - 24.0).abs() < 0.1);
    assert!(r.cost >= 119.0 + a.distance(b) - 1.0);
    // Off the mesh entirely.
    let far = Vec3::new(5000.0, 0.0, 24.0);
    assert_eq!(
        route(&map, &mesh, far, b).err(),
        Some(RouteError::StartOffMesh)
    );
    assert_eq!(
        route(&map, &mesh, a, far).err(),
        Some(RouteError::GoalOffMesh)
    );
}

#[test]
fn unpulled_routes_list_every_node_and_exports_draw_them() {
    let (map, mesh) = teleporter_map().build(16.0);
    let options = RouteOptions {
        string_pull: false,
        coarse: false,
        ..RouteOptions::default()
    };
    let r = mesh
        .route(
            map.world(),
            &mut SearchScratch::new(),
            stand([-420.0, 0.0, 0.0]),
            stand([420.0, 0.0, 0.0]),
            &options,
        )
        .expect("routes");
    assert_eq!(r.corners.len(), r.nodes.len() + 1);
    let svg = mesh.export_svg(Some(&r));
    assert!(svg.starts_with("<svg") && svg.contains("arrow-teleport") && svg.contains("<polyline"));
    assert_eq!(svg.matches("<rect x=").count(), mesh.node_count());
    let text = format!("{}\n{r}", mesh.info());
    assert!(
        text.contains("off-mesh links: 1") && text.contains("teleport"),
        "{text}"
    );
    let entries = mesh.off_mesh_links()[0].entries.len();
    let json = serde_json::to_value(mesh.info()).expect("json");
    assert_eq!(
        json["links_by_kind"]["teleport"], entries,
        "one link per node in the trigger"
    );
}

#[test]
fn random_reachable_points_respect_one_way_links() {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -128.0], [512.0, 128.0]);
    m.solid([128.0, -128.0, -16.0], [512.0, 128.0, 96.0]);
    m.spawn([-128.0, 0.0, 0.0]).item([300.0, 0.0, 96.0]);
    let (map, mesh) = m.build(16.0);
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(42);
    let mut scratch = SearchScratch::new();
    let options = RouteOptions::default();
    let mut seen_low = 0;
    for _ in 0..40 {
        let (goal, r) = mesh
            .random_reachable_point(
                map.world(),
                &mut scratch,
                stand([-128.0, 0.0, 0.0]),
                &mut rng,
                &options,
            )
            .expect("somewhere to roam");
        assert!(goal.z < 30.0, "never up the ledge from below: {goal}");
        assert!(r.routed_goal.distance(goal) < 1.0);
        seen_low += 1;
    }
    assert_eq!(seen_low, 40);
    let from_top = mesh.random_reachable_point(
        map.world(),
        &mut scratch,
        stand([300.0, 0.0, 96.0]),
        &mut rng,
        &options,
    );
    assert!(from_top.is_some());
    let start = mesh
        .nearest_node(map.world(), stand([-128.0, 0.0, 0.0]), 256.0)
        .expect("on the mesh");
    let closure = mesh.closure(&mut scratch, start.0);
    assert!(
        closure
            .iter()
            .all(|&n| mesh.node(NodeId(n)).is_some_and(|n| n.origin.z < 30.0))
    );
}

/// Without a distance table (a map with more regions than one is built
/// for) routes search the regions instead, and reach what the table's
/// corridors reach at about the same cost.
#[test]
fn routes_search_the_regions_when_there_is_no_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("q_dm1 loads");
    let world = crate::match_start_world(&map);
    let mut mesh = crate::NavMesh::build_for_map(&map, &world, &[], &crate::Agent::default(), &crate::BuildOptions::default()).expect("mesh builds");
    let nodes: Vec<Vec3> = mesh.nodes().iter().step_by(97).map(|n| n.origin).collect();
    let pairs: Vec<(Vec3, Vec3)> = nodes.iter().zip(nodes.iter().rev()).map(|(&a, &b)| (a, b)).take(40).collect();
    let mut scratch = SearchScratch::new();
    let options = RouteOptions::default();
    let table: Vec<Option<f32>> = pairs.iter().map(|&(a, b)| mesh.route(&world, &mut scratch, a, b, &options).ok().map(|r| r.cost)).collect();
    mesh.regions.table = crate::regions::table::DistanceTable::default();
    let (mut sum_table, mut sum_search) = (0.0, 0.0);
    for (&(a, b), with_table) in pairs.iter().zip(&table) {
        let searched = mesh.route(&world, &mut scratch, a, b, &options).ok();
        assert_eq!(searched.is_some(), with_table.is_some(), "{a} -> {b}");
        if let (Some(r), Some(c)) = (searched, with_table) {
            assert!(r.expansions > 0 || r.corners.len() <= 2, "{a} -> {b}: {r:?}");
            sum_table += c;
            sum_search += r.cost;
        }
    }
    assert!(sum_table > 0.0);
    assert!((sum_search / sum_table - 1.0).abs() < 0.1, "table {sum_table}, search {sum_search}");
}

/// The distance table's rows fill after the build; a route that comes
/// first computes the rows it needs, and gets what it would on a full
/// table. A mesh's clones share the rows.
#[test]
fn routes_before_the_table_is_full_match_routes_after() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("q_dm1 loads");
    let world = crate::match_start_world(&map);
    let mesh = crate::NavMesh::build_for_map(&map, &world, &[], &crate::Agent::default(), &crate::BuildOptions::default()).expect("mesh builds");
    let nodes: Vec<Vec3> = mesh.nodes().iter().step_by(61).map(|n| n.origin).collect();
    let pairs: Vec<(Vec3, Vec3)> = nodes.iter().zip(nodes.iter().rev()).map(|(&a, &b)| (a, b)).take(60).collect();
    let mut scratch = SearchScratch::new();
    let options = RouteOptions::default();
    let early: Vec<_> = pairs.iter().map(|&(a, b)| mesh.route(&world, &mut scratch, a, b, &options).ok()).collect();
    let copy = mesh.clone();
    mesh.fill_region_table();
    let (filled, rows) = mesh.info().table_rows;
    assert!(rows > 0, "q_dm1 has a table");
    assert_eq!(filled, rows, "every row filled");
    assert_eq!(copy.info().table_rows, (rows, rows), "a clone shares the rows");
    let late: Vec<_> = pairs.iter().map(|&(a, b)| mesh.route(&world, &mut scratch, a, b, &options).ok()).collect();
    assert!(early.iter().filter(|r| r.is_some()).count() > pairs.len() / 2);
    for ((a, b), (e, l)) in pairs.iter().zip(early.iter().zip(&late)) {
        assert_eq!(e.as_ref().map(|r| (&r.corners, r.cost)), l.as_ref().map(|r| (&r.corners, r.cost)), "{a} -> {b}");
    }
}

/// A room split by a wall along y = 0 with a doorway at x 56..120: 64
/// wide, so with 24-unit cells only the cell centred at x 84 fits the box
/// and the cells at 60 and 108 get nodes moved off their centres.
fn narrow_doorway() -> TestMap {
    let mut m = room();
    m.solid([-256.0, -8.0, 0.0], [56.0, 8.0, 128.0]);
    m.solid([120.0, -8.0, 0.0], [256.0, 8.0, 128.0]);
    m.item([108.0, -100.0, 0.0]);
    m
}

#[test]
fn routes_through_a_narrow_doorway_never_cut_its_jamb() {
    let (map, mesh) = narrow_doorway().build(24.0);
    let prober = mesh.prober(map.world());
    // Starts beside the doorway, where the straight line to the far side
    // passes the jamb: the first leg must bend into the doorway.
    for start in [[112.0, 24.0, 0.0], [112.0, 60.0, 0.0], [40.0, 30.0, 0.0], [130.0, 40.0, 0.0]] {
        let (a, b) = (stand(start), stand([108.0, -100.0, 0.0]));
        for (name, r) in [("coarse", route(&map, &mesh, a, b)), ("cells", route_cells(&map, &mesh, a, b))] {
            let r = r.unwrap_or_else(|e| panic!("{name} from {start:?}: {e}"));
            let mut prev = r.routed_start;
            for c in &r.corners {
                assert!(prober.walkable_line(prev, c.origin), "{name} from {start:?}: leg {prev} -> {} is blocked: {r}", c.origin);
                prev = c.origin;
            }
        }
    }
}

/// An open floor with a pillar in the middle: cover from a threat at the
/// west end is the pillar's east side, and an open floor gives none.
#[test]
fn cover_spot_is_behind_the_pillar_from_the_threat() {
    let mut m = TestMap::new();
    floor(&mut m, [-768.0, -384.0], [768.0, 384.0]);
    m.solid([-64.0, -64.0, 0.0], [64.0, 64.0, 256.0]);
    m.spawn([-600.0, 0.0, 0.0]);
    let (map, mesh) = m.build(16.0);
    let threat_eye = stand([-600.0, 0.0, 0.0]) + Vec3::Z * 26.0;
    let bot = stand([-100.0, 200.0, 0.0]);
    let cover = mesh
        .cover_spot(map.world(), bot, threat_eye, 800.0)
        .unwrap_or_else(|| panic!("the pillar hides something"));
    // The shadow of the pillar's west corners, seen from x -600: |y| under
    // 64 + 64 (x + 64) / 536, less half a body.
    let shadow = 64.0 + 64.0 * (cover.spot.x + 64.0) / 536.0 - 15.0;
    assert!(cover.spot.x > 64.0 && cover.spot.y.abs() <= shadow, "east of the pillar, in its shadow: {cover:?}");
    assert!(cover.distance >= crate::route::cover::MIN_MOVE && cover.distance < 800.0, "{cover:?}");
    assert!(cover.lines <= crate::route::cover::MAX_LINES);
    // Hidden for real: the line from the threat stops on the pillar.
    let chest = cover.spot + Vec3::Z * 8.0;
    let tr = map.world().trace(threat_eye, chest, Vec3::ZERO, Vec3::ZERO, quarry_map::Contents::MASK_SHOT);
    assert!(tr.fraction < 1.0);
    let mut open = TestMap::new();
    floor(&mut open, [-768.0, -384.0], [768.0, 384.0]);
    open.spawn([-600.0, 0.0, 0.0]);
    let (map, mesh) = open.build(16.0);
    assert_eq!(mesh.cover_spot(map.world(), bot, threat_eye, 800.0), None, "nothing hides on an open floor");
}
