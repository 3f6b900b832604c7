//! Reports over a whole map, for `quarry-server --nav-info`, benchmarks
//! and tests: reachability between spawn points and items
//! ([`reachability_report`]), ALT against Euclidean and Dijkstra search
//! ([`heuristic_comparison`]), and both with the mesh's figures
//! ([`nav_info`]).

use std::fmt;
use std::time::Instant;

use glam::Vec3;
use quarry_map::{EntityId, LoadedMap, Trace};
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::agent::Agent;
use crate::build::BuildOptions;
use crate::build::input::{item_spot, match_start_world};
use crate::error::{NavError, RouteError};
use crate::mesh::NavMesh;
use crate::route::RouteOptions;
use crate::route::astar::{SearchScratch, astar};
use crate::route::heuristic::Heuristic;
use crate::stats::NavInfo;

/// Seed of the random queries `--nav-info` compares heuristics on.
pub const NAV_INFO_SEED: u64 = 0x5175_6172_7279;
/// Number of random queries `--nav-info` compares heuristics on.
pub const NAV_INFO_QUERIES: usize = 2000;

/// One pair that did not route.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnreachablePair {
    /// The spawn point routed from.
    pub from: EntityId,
    /// The spawn point or item routed to.
    pub to: EntityId,
    /// Its class name.
    pub to_class: String,
    /// Where the two are.
    pub positions: (Vec3, Vec3),
    /// Why it failed.
    pub reason: RouteError,
}

/// Spawn-to-spawn and spawn-to-item routing over a whole map.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ReachabilityReport {
    /// Ordered pairs of distinct spawn points.
    pub spawn_pairs: usize,
    /// Of those, how many routed.
    pub spawn_pairs_routed: usize,
    /// Spawn point to item (and flag) pairs.
    pub item_pairs: usize,
    /// Of those, how many routed.
    pub item_pairs_routed: usize,
    /// Every pair that did not route, with the reason.
    pub unreachable: Vec<UnreachablePair>,
}

impl ReachabilityReport {
    /// Share of spawn-to-spawn pairs routed, 0 to 1 (1 when there are none).
    pub fn spawn_ratio(&self) -> f64 {
        ratio(self.spawn_pairs_routed, self.spawn_pairs)
    }

    /// Share of spawn-to-item pairs routed, 0 to 1.
    pub fn item_ratio(&self) -> f64 {
        ratio(self.item_pairs_routed, self.item_pairs)
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// Routes every spawn point to every other and to every item on `map`'s
/// match-start world (movers where a match starts them).
pub fn reachability_report(map: &LoadedMap, mesh: &NavMesh) -> ReachabilityReport {
    reachability_report_in(&match_start_world(map), map, mesh)
}

/// [`reachability_report`] in a given live world.
pub fn reachability_report_in(
    world: &dyn Trace,
    map: &LoadedMap,
    mesh: &NavMesh,
) -> ReachabilityReport {
    let spawns: Vec<(EntityId, Vec3)> = map
        .spawn_points()
        .filter(|(_, s)| s.fits)
        .map(|(id, s)| (id, s.spawn_origin))
        .collect();
    let items: Vec<(EntityId, Vec3, String)> = map
        .entities()
        .iter()
        .filter_map(|e| {
            item_spot(world, map.game(), e).map(|spot| (e.id, spot, e.classname.clone()))
        })
        .collect();
    let options = RouteOptions {
        string_pull: false,
        ..RouteOptions::default()
    };
    let mut scratch = SearchScratch::new();
    let mut report = ReachabilityReport::default();
    for &(from, a) in &spawns {
        let targets = spawns
            .iter()
            .filter(|(to, _)| *to != from)
            .map(|&(to, b)| (to, b, "spawn", true));
        let targets = targets.chain(
            items
                .iter()
                .map(|(to, b, class)| (*to, *b, class.as_str(), false)),
        );
        for (to, b, class, is_spawn) in targets {
            let result = mesh.route(world, &mut scratch, a, b, &options);
            let (pairs, routed) = if is_spawn {
                (&mut report.spawn_pairs, &mut report.spawn_pairs_routed)
            } else {
                (&mut report.item_pairs, &mut report.item_pairs_routed)
            };
            *pairs += 1;
            match result {
                Ok(_) => *routed += 1,
                Err(reason) => {
                    let to_class = if is_spawn {
                        map.entity(to).map_or("spawn", |e| e.classname.as_str())
                    } else {
                        class
                    };
                    report.unreachable.push(UnreachablePair {
                        from,
                        to,
                        to_class: to_class.to_owned(),
                        positions: (a, b),
                        reason,
                    });
                }
            }
        }
    }
    report
}

/// ALT against Euclidean A* against Dijkstra over the same random node pairs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HeuristicComparison {
    /// Node pairs drawn (both ends in one area).
    pub queries: usize,
    /// Pairs with a directed path.
    pub routed: usize,
    /// Mean nodes expanded per query with ALT.
    pub alt_expansions: f64,
    /// Mean nodes expanded with scaled Euclid.
    pub euclid_expansions: f64,
    /// Mean nodes expanded by Dijkstra.
    pub dijkstra_expansions: f64,
    /// Queries where ALT's or Euclid's path cost differs from Dijkstra's
    /// (must be 0: both heuristics are admissible).
    pub cost_mismatches: usize,
    /// Search time per query with ALT, p50 and p99, microseconds.
    pub alt_us: (f64, f64),
    /// Search time per query with Euclid, p50 and p99, microseconds.
    pub euclid_us: (f64, f64),
}

impl HeuristicComparison {
    /// How many times fewer nodes ALT expands than Euclid.
    pub fn alt_vs_euclid(&self) -> f64 {
        self.euclid_expansions / self.alt_expansions.max(1e-9)
    }

    /// How many times fewer nodes ALT expands than Dijkstra.
    pub fn alt_vs_dijkstra(&self) -> f64 {
        self.dijkstra_expansions / self.alt_expansions.max(1e-9)
    }
}

/// Runs `queries` random node-to-node searches (seeded by `seed`) with
/// each heuristic and compares expansions, costs and times.
pub fn heuristic_comparison(mesh: &NavMesh, seed: u64, queries: usize) -> HeuristicComparison {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let n = mesh.node_count();
    let mut out = HeuristicComparison::default();
    if n < 2 {
        return out;
    }
    let mut scratch = SearchScratch::new();
    let (mut alt_t, mut euc_t) = (Vec::new(), Vec::new());
    let (mut alt_x, mut euc_x, mut dij_x) = (0u64, 0u64, 0u64);
    for _ in 0..queries {
        let a = rng.random_range(0..n) as u32;
        let area = mesh.graph.nodes.get(a as usize).map_or(0, |n| n.area);
        let b = (0..32).map(|_| rng.random_range(0..n) as u32).find(|&b| {
            b != a
                && mesh
                    .graph
                    .nodes
                    .get(b as usize)
                    .is_some_and(|n| n.area == area)
        });
        let Some(b) = b else { continue };
        out.queries += 1;
        let timed = |scratch: &mut SearchScratch, h| {
            let t = Instant::now();
            let s = astar(mesh, scratch, a, b, h, &[]);
            (s, t.elapsed().as_secs_f64() * 1e6)
        };
        let (alt, ta) = timed(&mut scratch, Heuristic::Alt);
        let (euc, te) = timed(&mut scratch, Heuristic::Euclid);
        let (dij, _) = timed(&mut scratch, Heuristic::Dijkstra);
        alt_t.push(ta);
        euc_t.push(te);
        alt_x += u64::from(alt.expansions);
        euc_x += u64::from(euc.expansions);
        dij_x += u64::from(dij.expansions);
        let cost = |s: &crate::route::astar::Search| s.path.as_ref().map(|p| p.cost);
        let same = |x: Option<f32>, y: Option<f32>| match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() <= 1e-3 * y.max(1.0),
            (None, None) => true,
            _ => false,
        };
        if !same(cost(&alt), cost(&dij)) || !same(cost(&euc), cost(&dij)) {
            out.cost_mismatches += 1;
        }
        out.routed += usize::from(dij.path.is_some());
    }
    let q = out.queries.max(1) as f64;
    out.alt_expansions = alt_x as f64 / q;
    out.euclid_expansions = euc_x as f64 / q;
    out.dijkstra_expansions = dij_x as f64 / q;
    out.alt_us = percentiles(&mut alt_t);
    out.euclid_us = percentiles(&mut euc_t);
    out
}

/// The 50th and 99th percentiles of `v`.
fn percentiles(v: &mut [f64]) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    v.sort_by(f64::total_cmp);
    let at = |p: f64| {
        v.get(((v.len() - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (at(0.5), at(0.99))
}

/// Everything `quarry-server --nav-info FILE` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NavInfoReport {
    /// The map's file name.
    pub map: String,
    /// The mesh's figures.
    pub info: NavInfo,
    /// Spawn and item reachability.
    pub reachability: ReachabilityReport,
    /// ALT against Euclid ([`NAV_INFO_QUERIES`] queries seeded by [`NAV_INFO_SEED`]).
    pub heuristics: HeuristicComparison,
}

/// Builds `map`'s navmesh on its match-start world and reports on it: the
/// entry point of `quarry-server --nav-info`. Returns the mesh too, for
/// `--svg` ([`NavMesh::export_svg`]).
pub fn nav_info(
    map: &LoadedMap,
    agent: &Agent,
    options: &BuildOptions,
) -> Result<(NavMesh, NavInfoReport), NavError> {
    let world = match_start_world(map);
    let mesh = NavMesh::build_for_map(map, &world, &[], agent, options)?;
    let reachability = reachability_report_in(&world, map, &mesh);
    let heuristics = heuristic_comparison(&mesh, NAV_INFO_SEED, NAV_INFO_QUERIES);
    let report = NavInfoReport {
        map: map.name().to_owned(),
        info: mesh.info(),
        reachability,
        heuristics,
    };
    Ok((mesh, report))
}

impl fmt::Display for NavInfoReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "navmesh of {}", self.map)?;
        write!(f, "{}", self.info)?;
        let r = &self.reachability;
        writeln!(
            f,
            "spawn to spawn: {} / {} routed ({:.1} %)",
            r.spawn_pairs_routed,
            r.spawn_pairs,
            100.0 * r.spawn_ratio()
        )?;
        writeln!(
            f,
            "spawn to item: {} / {} routed ({:.1} %)",
            r.item_pairs_routed,
            r.item_pairs,
            100.0 * r.item_ratio()
        )?;
        for u in &r.unreachable {
            let (a, b) = u.positions;
            writeln!(
                f,
                "  unreachable: spawn {} ({:.0} {:.0} {:.0}) -> {} {} ({:.0} {:.0} {:.0}): {}",
                u.from.0, a.x, a.y, a.z, u.to_class, u.to.0, b.x, b.y, b.z, u.reason
            )?;
        }
        let h = &self.heuristics;
        writeln!(
            f,
            "heuristics over {} queries ({} routed): expansions alt {:.0}, euclid {:.0}, dijkstra {:.0}; alt {:.1}x fewer than euclid, {:.1}x fewer than dijkstra; cost mismatches {}",
            h.queries,
            h.routed,
            h.alt_expansions,
            h.euclid_expansions,
            h.dijkstra_expansions,
            h.alt_vs_euclid(),
            h.alt_vs_dijkstra(),
            h.cost_mismatches
        )?;
        writeln!(
            f,
            "search time p50/p99: alt {:.1}/{:.1} us, euclid {:.1}/{:.1} us",
            h.alt_us.0, h.alt_us.1, h.euclid_us.0, h.euclid_us.1
        )
    }
}
