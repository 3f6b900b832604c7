//! ALT against Euclid and Dijkstra: same costs, fewer expansions.

use super::{TestMap, floor};
use crate::{Heuristic, SearchScratch, heuristic_comparison};

/// A serpentine of five halls (walls with alternating gaps) and two
/// teleporters joining far ends, so cheap long links exist.
fn serpentine() -> TestMap {
    let mut m = TestMap::new();
    floor(&mut m, [-1280.0, -512.0], [1280.0, 512.0]);
    for (i, x) in [-768.0f32, -256.0, 256.0, 768.0].into_iter().enumerate() {
        let (y0, y1) = if i % 2 == 0 {
            (-512.0, 384.0)
        } else {
            (-384.0, 512.0)
        };
        m.solid([x - 16.0, y0, -16.0], [x + 16.0, y1, 160.0]);
    }
    m.teleporter(
        "east",
        [-1200.0, -400.0, 0.0],
        [-1136.0, -336.0, 64.0],
        [1100.0, 300.0, 32.0],
    );
    m.teleporter(
        "west",
        [1136.0, -400.0, 0.0],
        [1200.0, -336.0, 64.0],
        [-1000.0, 0.0, 32.0],
    );
    m.spawn([-1000.0, 400.0, 0.0]).item([1000.0, -400.0, 0.0]);
    m
}

#[test]
fn alt_costs_equal_dijkstra_and_it_expands_fewer_nodes_than_euclid() {
    let (_, mesh) = serpentine().build(32.0);
    assert!(
        mesh.heuristic_scale < 0.1,
        "teleporters make the Euclid scale tiny: {}",
        mesh.heuristic_scale
    );
    let cmp = heuristic_comparison(&mesh, 7, 400);
    assert!(cmp.queries >= 390, "{cmp:?}");
    // Nodes in the middle of a teleporter cannot be walked to (its rim
    // teleports first): the few pairs that end there do not route.
    assert!(cmp.routed * 100 >= cmp.queries * 98, "{cmp:?}");
    assert_eq!(
        cmp.cost_mismatches, 0,
        "ALT and Euclid are admissible: {cmp:?}"
    );
    assert!(cmp.alt_expansions * 2.0 < cmp.euclid_expansions, "{cmp:?}");
    assert!(cmp.alt_vs_dijkstra() > 3.0, "{cmp:?}");
}

#[test]
fn scratch_serials_do_not_leak_between_searches() {
    let (_, mesh) = serpentine().build(32.0);
    let mut scratch = SearchScratch::new();
    let n = mesh.node_count() as u32;
    let pairs = [(0, n - 1), (n / 2, 3), (0, n - 1)];
    let costs: Vec<Option<f32>> = pairs
        .iter()
        .map(|&(a, b)| {
            crate::route::astar::astar(&mesh, &mut scratch, a, b, Heuristic::Alt, &[])
                .path
                .map(|p| p.cost)
        })
        .collect();
    assert_eq!(
        costs[0], costs[2],
        "same query, same answer after another search"
    );
    let fresh = crate::route::astar::astar(
        &mesh,
        &mut SearchScratch::new(),
        n / 2,
        3,
        Heuristic::Dijkstra,
        &[],
    );
    assert_eq!(fresh.path.map(|p| p.cost), costs[1]);
}
