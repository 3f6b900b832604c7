//! Exposure: a node in an open hall is more exposed than one in a walled
//! corridor beside it, routes with a weight take the corridor (both
//! routers), and the figure does not depend on the build.

use super::{TestMap, crosses_x, floor, node_near, stand};
use crate::{BuildOptions, NavMesh, Route, RouteOptions, SearchScratch};

/// A hall (x 0..1536, y 0..1024) and a walled corridor (y -192..-64)
/// beside it, between two lobbies (x -320..0 and 1536..1856) open to both:
/// from the west lobby to the east one, the corridor is about 10 % longer.
fn hall_and_corridor() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-320.0, -192.0], [1856.0, 1024.0]);
    // Between the hall and the corridor.
    m.solid([0.0, -64.0, 0.0], [1536.0, 0.0, 256.0]);
    // The outer walls.
    m.solid([-320.0, -256.0, -16.0], [1856.0, -192.0, 256.0]);
    m.solid([-320.0, 1024.0, -16.0], [1856.0, 1088.0, 256.0]);
    m.spawn([-160.0, 64.0, 0.0]);
    m.spawn([1696.0, 64.0, 0.0]);
    m
}

const START: [f32; 3] = [-160.0, 64.0, 0.0];
const GOAL: [f32; 3] = [1696.0, 64.0, 0.0];

fn route_with(map: &quarry_map::LoadedMap, mesh: &NavMesh, coarse: bool, weight: f32) -> Route {
    let options = RouteOptions { coarse, exposure_weight: weight, ..RouteOptions::default() };
    mesh.route(map.world(), &mut SearchScratch::new(), stand(START), stand(GOAL), &options)
        .unwrap_or_else(|e| panic!("coarse {coarse}, weight {weight}: {e}"))
}

/// Whether the route goes along the corridor (and never into the hall's
/// middle), by its legs and by the nodes it lists.
fn in_corridor(mesh: &NavMesh, r: &Route) -> bool {
    let through_hall = r.nodes.iter().filter_map(|&n| mesh.node(n)).any(|n| n.origin.y > 0.0 && (200.0..1336.0).contains(&n.origin.x));
    crosses_x(r, 768.0, -192.0..-64.0) && !crosses_x(r, 768.0, 0.0..1024.0) && !through_hall
}

#[test]
fn hall_is_more_exposed_than_the_corridor_and_cautious_routes_take_the_corridor() {
    let (map, mesh) = hall_and_corridor().build(32.0);
    let (hall, _) = node_near(&mesh, [728.0, 500.0, 24.0]);
    let (corridor, _) = node_near(&mesh, [728.0, -112.0, 24.0]);
    let (e_hall, e_corridor) = (mesh.exposure(hall), mesh.exposure(corridor));
    assert!(e_hall > e_corridor + 0.3, "hall {e_hall}, corridor {e_corridor}");
    assert!((0.0..=1.0).contains(&e_hall) && (0.0..=1.0).contains(&e_corridor));
    assert_eq!(mesh.exposure_at(stand([728.0, 500.0, 0.0])), Some(e_hall));
    let stats = *mesh.exposure_stats();
    assert!(stats.lines > 0 && stats.lines <= crate::EXPOSURE_MAX_LINES, "{stats:?}");
    assert!(stats.min <= e_corridor && stats.max >= e_hall, "{stats:?}");
    for coarse in [true, false] {
        let bold = route_with(&map, &mesh, coarse, 0.0);
        assert!(crosses_x(&bold, 768.0, 0.0..1024.0), "coarse {coarse}: weight 0 crosses the hall: {bold}");
        let cautious = route_with(&map, &mesh, coarse, 4.0);
        assert!(in_corridor(&mesh, &cautious), "coarse {coarse}: weight 4 takes the corridor: {cautious}");
        assert!(cautious.cost > bold.cost, "coarse {coarse}: the corridor is longer ({} vs {})", cautious.cost, bold.cost);
        assert!(
            mesh.route_exposure(&cautious) < mesh.route_exposure(&bold),
            "coarse {coarse}: the cautious route is less exposed"
        );
    }
}

#[test]
fn a_zero_weight_routes_exactly_as_the_default() {
    let (map, mesh) = hall_and_corridor().build(32.0);
    for coarse in [true, false] {
        let default = RouteOptions { coarse, ..RouteOptions::default() };
        let mut scratch = SearchScratch::new();
        for (a, b) in [(START, GOAL), ([-160.0, 900.0, 0.0], [1700.0, -128.0, 0.0]), ([768.0, -128.0, 0.0], [768.0, 900.0, 0.0])] {
            let plain = mesh.route(map.world(), &mut scratch, stand(a), stand(b), &default).expect("routes");
            let zero = RouteOptions { exposure_weight: 0.0, ..default };
            assert_eq!(mesh.route(map.world(), &mut scratch, stand(a), stand(b), &zero).as_ref(), Ok(&plain));
            assert_eq!(plain.cost.to_bits(), mesh.route(map.world(), &mut SearchScratch::new(), stand(a), stand(b), &default).expect("routes").cost.to_bits());
            // A weight never finds a way shorter than the optimum.
            if !coarse {
                let weighted = RouteOptions { exposure_weight: 2.0, ..default };
                let w = mesh.route(map.world(), &mut scratch, stand(a), stand(b), &weighted).expect("routes");
                assert!(w.cost >= plain.cost - 1e-3, "{} < {}", w.cost, plain.cost);
            }
        }
    }
}

/// A map's build measures the exposure on a thread of its own; the
/// figures are those measured at the build, whoever asks first.
#[test]
fn exposure_is_the_same_on_every_build_and_thread_count() {
    let map = hall_and_corridor().load();
    let build = |threads: usize| {
        let options = BuildOptions { cell_size: 32.0, threads, ..BuildOptions::default() };
        NavMesh::build_for_map(&map, map.world(), &[], &crate::Agent::default(), &options).expect("builds")
    };
    let (a, b, c) = (build(0), build(0), build(1));
    let bits = |m: &NavMesh| m.exposures().iter().map(|e| e.to_bits()).collect::<Vec<u32>>();
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(bits(&a), bits(&c));
    assert_eq!(a.exposure_stats(), c.exposure_stats());
    assert_eq!(a.exposures().len(), a.node_count());
    assert!(a.exposure_ms().is_some_and(|ms| ms > 0.0), "measured once asked for");
    // Measured at the build (no world kept): the same figures.
    let options = BuildOptions { cell_size: 32.0, ..BuildOptions::default() };
    let at_build = NavMesh::build(map.world(), &crate::NavInput::from_map(&map), &crate::Agent::default(), &options).expect("builds");
    assert!(at_build.exposure_ms().is_some(), "measured before the build returns");
    assert_eq!(bits(&a), bits(&at_build));
    assert!(a.info().to_string().contains("exposure"));
}
