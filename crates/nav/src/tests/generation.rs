//! Generation on synthetic worlds: which nodes and links the flood makes.

use glam::Vec3;

use super::{LAVA, TestMap, floor, node_near, route, route_cells, stand};
use crate::{Agent, BuildOptions, LinkKind, NavError, NavInput, NavMesh};

/// A 512 x 512 room with 128-high walls and one spawn in the middle.
pub(crate) fn room() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -256.0], [256.0, 256.0]);
    m.solid([-272.0, -272.0, -16.0], [-256.0, 272.0, 128.0]);
    m.solid([256.0, -272.0, -16.0], [272.0, 272.0, 128.0]);
    m.solid([-272.0, -272.0, -16.0], [272.0, -256.0, 128.0]);
    m.solid([-272.0, 256.0, -16.0], [272.0, 272.0, 128.0]);
    m.spawn([0.0, 0.0, 0.0]);
    m
}

#[test]
fn flat_room_fills_every_cell_the_box_fits_with_walk_links() {
    let (map, mesh) = room().build(16.0);
    // Cell centres from -232 to 232: the box (half width 15) fits 30 per axis.
    assert_eq!(mesh.node_count(), 900);
    let info = mesh.info();
    assert_eq!(info.links, info.links_by_kind.walk, "{info}");
    assert_eq!(info.areas, 1);
    assert!(
        mesh.nodes().iter().all(|n| (n.origin.z - 24.0).abs() < 0.1),
        "nodes stand on the floor"
    );
    let interior = node_near(&mesh, [8.0, 8.0, 24.0]).0;
    assert_eq!(mesh.links_from(interior).len(), 8);
    let r = route(
        &map,
        &mesh,
        stand([-200.0, -200.0, 0.0]),
        stand([200.0, 180.0, 0.0]),
    )
    .expect("routes");
    assert_eq!(
        r.corners.len(),
        1,
        "open floor pulls straight to the goal: {r}"
    );
}

#[test]
fn stairs_walk_up_and_down() {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -128.0], [512.0, 128.0]);
    m.stairs_x(0.0, (-128.0, 128.0), 0.0, 4, 16.0, 32.0);
    m.solid([128.0, -128.0, -16.0], [512.0, 128.0, 64.0]);
    m.spawn([-128.0, 0.0, 0.0]).item([300.0, 0.0, 64.0]);
    let (map, mesh) = m.build(16.0);
    assert_eq!(
        mesh.info().links_by_kind.jump,
        0,
        "16-unit steps never need a jump"
    );
    let (bottom, top) = (stand([-128.0, 0.0, 0.0]), stand([300.0, 0.0, 64.0]));
    for (a, b) in [(bottom, top), (top, bottom)] {
        let r = route(&map, &mesh, a, b).expect("stairs route both ways");
        assert!(r.corners.iter().all(|c| c.kind == LinkKind::Walk), "{r}");
    }
}

#[test]
fn ramps_up_to_the_slope_limit_are_walked() {
    for (rise, run) in [(64.0, 128.0), (120.0, 128.0)] {
        let mut m = TestMap::new();
        floor(&mut m, [-256.0, -128.0], [512.0, 128.0]);
        m.ramp_x([0.0, -128.0, 0.0], [run, 128.0, rise]);
        m.solid([run, -128.0, -16.0], [512.0, 128.0, rise]);
        m.spawn([-128.0, 0.0, 0.0]).item([400.0, 0.0, rise]);
        let (map, mesh) = m.build(16.0);
        let (bottom, top) = (stand([-128.0, 0.0, 0.0]), stand([400.0, 0.0, rise]));
        for (a, b) in [(bottom, top), (top, bottom)] {
            let r = route(&map, &mesh, a, b).unwrap_or_else(|e| panic!("ramp {rise}/{run}: {e}"));
            assert!(
                r.corners.iter().all(|c| c.kind == LinkKind::Walk),
                "ramp {rise}/{run}: {r}"
            );
        }
    }
}

/// Floor at 0 and a block `height` high from x 128 on; spawn below, item on top.
fn ledge(height: f32) -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -128.0], [512.0, 128.0]);
    m.solid([128.0, -128.0, -16.0], [512.0, 128.0, height]);
    m.spawn([-128.0, 0.0, 0.0]).item([300.0, 0.0, height]);
    m
}

#[test]
fn a_high_ledge_is_a_one_way_drop() {
    let (map, mesh) = ledge(96.0).build(16.0);
    let (bottom, top) = (stand([-128.0, 0.0, 0.0]), stand([300.0, 0.0, 96.0]));
    let info = mesh.info();
    assert!(info.links_by_kind.drop > 0, "{info}");
    let up = |i: usize, l: &crate::Link| {
        mesh.node(l.to)
            .is_some_and(|to| to.origin.z > mesh.nodes()[i].origin.z + 1.0)
    };
    let climbs = (0..mesh.node_count()).flat_map(|i| {
        mesh.links_from(crate::NodeId(i as u32))
            .iter()
            .map(move |l| (i, l))
    });
    assert_eq!(
        climbs.filter(|(i, l)| up(*i, l)).count(),
        0,
        "nothing leads up the ledge"
    );
    assert_eq!(info.areas, 1, "the drop joins both floors into one area");
    let mut scratch = crate::SearchScratch::new();
    assert!(mesh.is_reachable(map.world(), &mut scratch, top, bottom));
    assert!(
        !mesh.is_reachable(map.world(), &mut scratch, bottom, top),
        "directed: no way back up"
    );
    assert_eq!(
        route(&map, &mesh, bottom, top).err(),
        Some(crate::RouteError::NoPath)
    );
    let r = route(&map, &mesh, top, bottom).expect("drops down");
    let i = r
        .corners
        .iter()
        .position(|c| c.kind == LinkKind::Drop)
        .expect("a drop corner");
    assert!(i >= 1, "the drop's entry corner is kept: {r}");
    let (entry, exit) = (r.corners[i - 1].origin, r.corners[i].origin);
    assert!(
        (entry.z - 120.0).abs() < 1.0 && (exit.z - 24.0).abs() < 1.0,
        "{r}"
    );
    assert!(
        (entry - exit).truncate().length() < 24.0,
        "entry at the edge, exit below it: {r}"
    );
}

#[test]
fn a_ledge_below_jump_height_is_a_jump_up() {
    let (map, mesh) = ledge(40.0).build(16.0);
    let r = route(
        &map,
        &mesh,
        stand([-128.0, 0.0, 0.0]),
        stand([300.0, 0.0, 40.0]),
    )
    .expect("jumps up");
    let i = r
        .corners
        .iter()
        .position(|c| c.kind == LinkKind::Jump)
        .expect("a jump corner");
    assert!(
        i >= 1 && (r.corners[i - 1].origin.z - 24.0).abs() < 1.0,
        "entry kept below: {r}"
    );
    assert!(
        (r.corners[i].origin.z - 64.0).abs() < 1.0,
        "exit on top: {r}"
    );
    // 46 units is above the jump height (45.6): no way up.
    let (map, mesh) = ledge(46.0).build(16.0);
    assert!(
        route(
            &map,
            &mesh,
            stand([-128.0, 0.0, 0.0]),
            stand([300.0, 0.0, 46.0])
        )
        .is_err()
    );
}

#[test]
fn catwalk_over_corridor_gives_two_routable_nodes_in_one_column() {
    let mut m = TestMap::new();
    floor(&mut m, [-512.0, -512.0], [512.0, 512.0]);
    m.solid([-32.0, -64.0, 112.0], [32.0, 64.0, 128.0]);
    m.solid([-96.0, 64.0, -16.0], [96.0, 256.0, 128.0]);
    m.solid([-96.0, -256.0, -16.0], [96.0, -64.0, 128.0]);
    m.stairs_x(-352.0, (64.0, 256.0), 0.0, 8, 16.0, 32.0);
    m.spawn([300.0, 0.0, 0.0]).item([0.0, 0.0, 128.0]);
    let (map, mesh) = m.build(16.0);
    let column = mesh.nodes_in_cell(mesh.cell_of(Vec3::new(8.0, 8.0, 0.0)));
    let heights: Vec<f32> = column
        .iter()
        .filter_map(|&n| mesh.node(n))
        .map(|n| n.origin.z.round())
        .collect();
    assert_eq!(
        heights,
        vec![24.0, 152.0],
        "corridor node under the catwalk node"
    );
    let (low, high) = (stand([8.0, 8.0, 0.0]), stand([8.0, 8.0, 128.0]));
    let spawn = stand([300.0, 0.0, 0.0]);
    for (a, b) in [(spawn, high), (high, spawn), (spawn, low), (low, high)] {
        let r = route(&map, &mesh, a, b).unwrap_or_else(|e| panic!("{a} -> {b}: {e}"));
        assert!(r.routed_goal.distance(b) < 1.0, "{r}");
    }
}

#[test]
fn lava_gets_no_nodes_and_a_moat_is_jumped() {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -128.0], [0.0, 128.0]);
    floor(&mut m, [128.0, -128.0], [384.0, 128.0]);
    m.solid([0.0, -128.0, -80.0], [128.0, 128.0, -64.0]);
    m.textured([0.0, -128.0, -64.0], [128.0, 128.0, -8.0], LAVA);
    m.spawn([-128.0, 0.0, 0.0]).item([300.0, 0.0, 0.0]);
    let (map, mesh) = m.build(16.0);
    assert!(
        mesh.nodes().iter().all(|n| n.origin.z > 0.0),
        "no node down in the lava"
    );
    let r = route(
        &map,
        &mesh,
        stand([-128.0, 0.0, 0.0]),
        stand([300.0, 0.0, 0.0]),
    )
    .expect("jumps the moat");
    assert!(r.uses(LinkKind::Jump) && !r.uses(LinkKind::Drop), "{r}");
}

#[test]
fn a_gap_over_the_void_is_crossed_only_by_jumping() {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -128.0], [0.0, 128.0]);
    floor(&mut m, [96.0, -128.0], [352.0, 128.0]);
    m.spawn([-128.0, 0.0, 0.0]).item([250.0, 0.0, 0.0]);
    let (map, mesh) = m.build(16.0);
    let (a, b) = (stand([-128.0, 0.0, 0.0]), stand([250.0, 0.0, 0.0]));
    for (from, to) in [(a, b), (b, a)] {
        let r = route(&map, &mesh, from, to).expect("jumps the gap both ways");
        assert_eq!(
            r.corners
                .iter()
                .filter(|c| c.kind == LinkKind::Jump)
                .count(),
            1,
            "{r}"
        );
    }
    let map = m.load();
    let no_gaps = BuildOptions {
        cell_size: 16.0,
        gap_jumps: false,
        ..BuildOptions::default()
    };
    let mesh = NavMesh::build_for_map(&map, map.world(), &[], &Agent::default(), &no_gaps)
        .expect("builds");
    assert_eq!(
        mesh.area_count(),
        2,
        "without running jumps the platforms are apart"
    );
}

#[test]
fn node_cap_stops_the_flood_with_a_warning() {
    let map = room().load();
    let options = BuildOptions {
        cell_size: 16.0,
        max_nodes: 100,
        ..BuildOptions::default()
    };
    let mesh = NavMesh::build_for_map(&map, map.world(), &[], &Agent::default(), &options)
        .expect("builds");
    assert_eq!(mesh.node_count(), 100);
    assert!(mesh.capped() && mesh.info().capped);
    assert!(
        mesh.warnings().iter().any(|w| w.contains("unnavigable")),
        "{:?}",
        mesh.warnings()
    );
    // Nodes at the edge of the flood still link to each other.
    assert!(
        mesh.nodes()
            .iter()
            .enumerate()
            .all(|(i, _)| !mesh.links_from(crate::NodeId(i as u32)).is_empty())
    );
}

#[test]
fn no_seeds_and_no_floor_are_errors() {
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -256.0], [256.0, 256.0]);
    let map = m.load();
    let built = NavMesh::build_for_map(
        &map,
        map.world(),
        &[],
        &Agent::default(),
        &BuildOptions::default(),
    );
    let err = built.expect_err("no seeds");
    assert_eq!(err, NavError::NoSeeds);
    assert_eq!(
        err.to_string(),
        "map cannot host bots: no spawn points or items"
    );
    let mut input = NavInput::from_map(&map);
    input.add_players([Vec3::new(0.0, 0.0, 2000.0)]);
    let built = NavMesh::build(
        map.world(),
        &input,
        &Agent::default(),
        &BuildOptions::default(),
    );
    assert_eq!(built.err(), Some(NavError::NoFloor { seeds: 1 }));
    let bad = Agent {
        half_width: -1.0,
        ..Agent::default()
    };
    assert!(matches!(
        NavMesh::build(map.world(), &input, &bad, &BuildOptions::default()),
        Err(NavError::InvalidAgent(_))
    ));
}

#[test]
fn builds_are_the_same_on_any_thread_count() {
    let map = room().load();
    let build = |threads| {
        let options = BuildOptions {
            cell_size: 16.0,
            threads,
            ..BuildOptions::default()
        };
        NavMesh::build_for_map(&map, map.world(), &[], &Agent::default(), &options).expect("builds")
    };
    let (one, two) = (build(1), build(2));
    assert_eq!(one.nodes(), two.nodes());
    assert_eq!(one.graph.links, two.graph.links);
}

#[test]
fn a_passage_between_cell_centres_is_found_off_centre() {
    // Cell 24 puts centres at x = 12 + 24 i. The corridor (x 22..66) lets
    // the box (half width 15) stand only at x 37..51, which holds none.
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -256.0], [256.0, 512.0]);
    m.solid([-256.0, 0.0, -16.0], [22.0, 256.0, 128.0]);
    m.solid([66.0, 0.0, -16.0], [256.0, 256.0, 128.0]);
    m.spawn([0.0, -128.0, 0.0]).item([0.0, 400.0, 0.0]);
    let (map, mesh) = m.build(24.0);
    assert_eq!(mesh.area_count(), 1, "the corridor joins the rooms");
    let coarse = route(&map, &mesh, stand([0.0, -128.0, 0.0]), stand([0.0, 400.0, 0.0])).expect("through the corridor");
    let mut prev = coarse.routed_start;
    for c in &coarse.corners {
        // Where the leg meets the corridor's middle (y 128), it is inside.
        if (prev.y - 128.0) * (c.origin.y - 128.0) <= 0.0 && (c.origin.y - prev.y).abs() > 1e-3 {
            let x = prev.x + (c.origin.x - prev.x) * (128.0 - prev.y) / (c.origin.y - prev.y);
            assert!((37.0..=51.0).contains(&x), "{coarse}");
        }
        prev = c.origin;
    }
    let r = route_cells(
        &map,
        &mesh,
        stand([0.0, -128.0, 0.0]),
        stand([0.0, 400.0, 0.0]),
    )
    .expect("through the corridor");
    let inside: Vec<f32> = r
        .nodes
        .iter()
        .filter_map(|&n| mesh.node(n))
        .filter(|n| n.origin.y > 24.0 && n.origin.y < 232.0)
        .map(|n| n.origin.x)
        .collect();
    assert!(
        !inside.is_empty() && inside.iter().all(|x| (37.0..=51.0).contains(x)),
        "{inside:?}"
    );
}

/// A world that hides its [`quarry_map::Nearby`] view: every probe walks
/// the whole tree.
struct WholeWorld<'a>(&'a quarry_map::CollisionWorld);

impl quarry_map::Trace for WholeWorld<'_> {
    fn trace(
        &self,
        a: Vec3,
        b: Vec3,
        mins: Vec3,
        maxs: Vec3,
        mask: quarry_map::Contents,
    ) -> quarry_map::TraceResult {
        self.0.trace(a, b, mins, maxs, mask)
    }

    fn point_contents(&self, p: Vec3) -> quarry_map::Contents {
        self.0.point_contents(p)
    }
}

#[test]
fn focused_probes_build_the_same_mesh_as_whole_world_probes() {
    // The flood traces through views focused on each node; the mesh must be
    // the one whole-world traces make, link for link: stairs, a ramp, a
    // gap to jump, a ledge to drop from, a low beam to crouch under.
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -256.0], [256.0, 256.0]);
    floor(&mut m, [320.0, -128.0], [500.0, 128.0]);
    m.stairs_x(-200.0, (-200.0, -120.0), 0.0, 6, 12.0, 24.0);
    m.ramp_x([-60.0, -240.0, 0.0], [60.0, -160.0, 40.0]);
    m.solid([120.0, -240.0, 0.0], [240.0, -120.0, 40.0]);
    m.solid([-250.0, 120.0, 44.0], [-100.0, 200.0, 64.0]);
    m.spawn([0.0, 0.0, 0.0]);
    let map = m.load();
    let input = NavInput::from_map(&map);
    let open = crate::doors_open_world(map.world(), &map);
    let options = BuildOptions {
        cell_size: 16.0,
        ..BuildOptions::default()
    };
    let focused = NavMesh::build(&open, &input, &Agent::default(), &options).expect("builds");
    let whole =
        NavMesh::build(&WholeWorld(&open), &input, &Agent::default(), &options).expect("builds");
    assert!(focused.node_count() > 500, "{} nodes", focused.node_count());
    assert_eq!(focused.nodes(), whole.nodes());
    assert_eq!(focused.graph.links, whole.graph.links);
    let kinds = |k| focused.graph.links.iter().filter(|l| l.kind == k).count();
    assert!(
        kinds(LinkKind::Drop) > 0 && kinds(LinkKind::Jump) > 0 && kinds(LinkKind::Crouch) > 0,
        "drops {} jumps {} crouches {}",
        kinds(LinkKind::Drop),
        kinds(LinkKind::Jump),
        kinds(LinkKind::Crouch)
    );
}

#[test]
fn a_landing_beside_lava_or_the_void_is_precarious_and_one_by_a_wall_is_not() {
    use crate::generate::flood::PRECARIOUS_MARGIN;
    use crate::generate::probe::Prober;
    let mut m = TestMap::new();
    floor(&mut m, [-256.0, -256.0], [256.0, 256.0]);
    // A pool of lava east of the floor, with a 128-unit stone in it.
    m.solid([256.0, -256.0, -144.0], [768.0, 256.0, -128.0]);
    m.textured([256.0, -256.0, -128.0], [768.0, 256.0, -64.0], LAVA);
    m.solid([384.0, -64.0, -128.0], [512.0, 64.0, 0.0]);
    // A wall along the floor's south edge; west of the floor, nothing.
    // A landing is precarious when its floor ends within the margin (16)
    // of its centre.
    m.solid([-256.0, -272.0, 0.0], [256.0, -256.0, 128.0]);
    let map = m.load();
    let agent = Agent::default();
    let p = Prober::new(map.world(), &agent, 16.0, &[]);
    let edgy = |x: f32, y: f32| p.deadly_edge_near(stand([x, y, 0.0]), PRECARIOUS_MARGIN);
    assert!(!edgy(0.0, 0.0), "the floor's middle");
    assert!(!edgy(200.0, 0.0), "56 units from the lava");
    assert!(edgy(246.0, 0.0), "10 units from the floor's edge over the lava");
    assert!(!edgy(448.0, 0.0), "the stone's middle");
    assert!(edgy(394.0, 0.0), "10 units from the stone's edge");
    assert!(edgy(378.0, 0.0), "off the stone's edge, the box half on it");
    assert!(!edgy(0.0, -246.0), "beside the wall");
    assert!(edgy(-246.0, 0.0), "10 units from the floor's west edge over the void");
}
