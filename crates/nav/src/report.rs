//! Reports over a whole map, for `quarry-server nav-info`, benchmarks
//! and tests: reachability between spawn points and items
//! ([`reachability_report`]), ALT against Euclidean and Dijkstra search
//! ([`heuristic_comparison`]), and both with the mesh's figures
//! ([`nav_info`]).

use std::fmt;
use std::time::Instant;

use glam::Vec3;
use quarry_map::entities::items::{Item, ItemKind, KeyKind, KeySet};
use quarry_map::{CollisionWorld, EntityId, EntityKind, LoadedMap};
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::agent::Agent;
use crate::generate::BuildOptions;
use crate::generate::input::{doors_open_world, item_spot, match_start_world};
use crate::generate::landmarks::{dijkstra, dijkstra_ranked};
use crate::error::{NavError, RouteError};
use crate::explain::{UnreachableGoal, explain_unreachable};
use crate::mesh::NavMesh;
use crate::route::RouteOptions;
use crate::route::astar::{SearchScratch, astar};
use crate::route::heuristic::Heuristic;
use crate::route::snap::Toward;
use crate::stats::NavInfo;

/// Seed of the random queries `nav-info` compares heuristics on.
pub const NAV_INFO_SEED: u64 = 0x5175_6172_7279;
/// Number of random queries `nav-info` compares heuristics on.
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
    /// Spawn points routed from (those the player box fits at).
    pub spawns: usize,
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
///
/// Each spawn point and item is snapped to the mesh once, as a route query
/// snaps its ends; then one search from each spawn point's node settles
/// every node it can reach, which answers all its pairs at once (a route
/// query per pair would repeat the same search thousands of times).
///
/// Behind a gate that bots open (built open), a goal counts as reachable
/// only if, with the gates as `world` has them, it routes or the bot can
/// reach what opens the gate in its way ([`crate::gates::plan`]): a gate
/// opened by a trigger that stands behind another locked door does not
/// count.
pub fn reachability_report_in(
    world: &CollisionWorld,
    map: &LoadedMap,
    mesh: &NavMesh,
) -> ReachabilityReport {
    let gates = crate::gates::gates(map);
    let gated = gates.iter().any(|g| g.bots_open() && crate::gates::is_closed(world, g));
    let mut scratch = SearchScratch::new();
    let spawns: Vec<(EntityId, Vec3, String)> = map
        .spawn_points()
        .filter(|(_, s)| s.fits)
        .map(|(id, s)| {
            (
                id,
                s.spawn_origin,
                map.entity(id)
                    .map_or_else(String::new, |e| e.classname.clone()),
            )
        })
        .collect();
    // Items rest where they land with the gates open: one set down on a
    // trapdoor a trigger opens is taken where it falls.
    let open = doors_open_world(world, map);
    let items: Vec<(EntityId, Vec3, String)> = map
        .entities()
        .iter()
        .filter_map(|e| item_spot(&open, e).map(|spot| (e.id, spot, e.classname.clone())))
        .collect();
    let lying: Vec<(KeyKind, Vec3)> = map
        .entities()
        .iter()
        .filter_map(|e| match e.kind {
            EntityKind::Item(Item { kind: ItemKind::Key(k), .. }) => Some((k, item_spot(&open, e)?)),
            _ => None,
        })
        .collect();
    let keys = crate::gates::KeyKnowledge { held: KeySet::NONE, lying: &lying };
    let prober = mesh.prober(world);
    let radius = RouteOptions::default().snap_radius;
    let snap = |p: Vec3, toward| mesh.snap_end(&prober, p, toward, radius).map(|(n, _)| n);
    let goals: Vec<Option<u32>> = spawns
        .iter()
        .chain(&items)
        .map(|(_, p, _)| snap(*p, Toward::Point))
        .collect();
    let mut report = ReachabilityReport { spawns: spawns.len(), ..ReachabilityReport::default() };
    for (i, (from, a, _)) in spawns.iter().enumerate() {
        let start = snap(*a, Toward::Node);
        let dist = start.map(|s| dijkstra(&mesh.graph, s, false));
        for (j, ((to, b, class), goal)) in spawns.iter().chain(&items).zip(&goals).enumerate() {
            if j == i {
                continue;
            }
            let is_spawn = j < spawns.len();
            let reason = match (start, *goal, &dist) {
                (None, _, _) => Some(RouteError::StartOffMesh),
                (_, None, _) => Some(RouteError::GoalOffMesh),
                (Some(s), Some(g), Some(d)) => {
                    let area = |n: u32| mesh.graph.nodes.get(n as usize).map(|n| n.area);
                    if d.get(g as usize).is_some_and(|x| x.is_finite()) {
                        let opens = |scratch: &mut SearchScratch| {
                            mesh.route(world, scratch, *a, *b, &RouteOptions::default()).is_ok()
                                || crate::gates::plan(mesh, world, scratch, &gates, *a, *b, &keys).is_some()
                        };
                        if gated && !opens(&mut scratch) { Some(RouteError::Blocked) } else { None }
                    } else if area(s) != area(g) {
                        Some(RouteError::DifferentAreas)
                    } else {
                        Some(RouteError::NoPath)
                    }
                }
                _ => Some(RouteError::NoPath),
            };
            let (pairs, routed) = if is_spawn {
                (&mut report.spawn_pairs, &mut report.spawn_pairs_routed)
            } else {
                (&mut report.item_pairs, &mut report.item_pairs_routed)
            };
            *pairs += 1;
            match reason {
                None => *routed += 1,
                Some(reason) => report.unreachable.push(UnreachablePair {
                    from: *from,
                    to: *to,
                    to_class: class.clone(),
                    positions: (*a, *b),
                    reason,
                }),
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

/// Node pairs drawn per source node in [`heuristic_comparison`]: one full
/// Dijkstra per source answers all of them, so thousands of queries cost
/// only dozens of Dijkstra searches.
const TARGETS_PER_SOURCE: usize = 40;

/// Runs `queries` random node-to-node searches (seeded by `seed`; both
/// ends in one area) with ALT and Euclid and compares their expansions and
/// costs with Dijkstra's (from one full search per source node).
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
    let same = |x: Option<f32>, y: f32| match x {
        Some(x) => (x - y).abs() <= 1e-3 * y.max(1.0),
        None => !y.is_finite(),
    };
    while out.queries < queries {
        let a = rng.random_range(0..n) as u32;
        let area = mesh.graph.nodes.get(a as usize).map_or(0, |n| n.area);
        let (dist, rank) = dijkstra_ranked(&mesh.graph, a);
        for _ in 0..TARGETS_PER_SOURCE.min(queries - out.queries) {
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
            let mut timed = |h| {
                let t = Instant::now();
                let s = astar(mesh, &mut scratch, a, b, h, &[]);
                (s, t.elapsed().as_secs_f64() * 1e6)
            };
            let (alt, ta) = timed(Heuristic::Alt);
            let (euc, te) = timed(Heuristic::Euclid);
            alt_t.push(ta);
            euc_t.push(te);
            alt_x += u64::from(alt.expansions);
            euc_x += u64::from(euc.expansions);
            let truth = dist.get(b as usize).copied().unwrap_or(f32::INFINITY);
            // Dijkstra stopping at `b` expands every node settled before it.
            let settled = rank
                .get(b as usize)
                .copied()
                .filter(|&r| r != u32::MAX)
                .map_or(n as u64, |r| u64::from(r) + 1);
            dij_x += settled;
            let cost = |s: &crate::route::astar::Search| s.path.as_ref().map(|p| p.cost);
            if !same(cost(&alt), truth) || !same(cost(&euc), truth) {
                out.cost_mismatches += 1;
            }
            out.routed += usize::from(truth.is_finite());
        }
        if out.queries == 0 && alt_t.is_empty() {
            break;
        }
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

/// Everything `quarry-server nav-info FILE` prints.
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
    /// Each goal some spawn point cannot reach, once, with the reason.
    pub unreachable_goals: Vec<UnreachableGoal>,
    /// Each gate (a door touching does not open) and what opens it: goals
    /// behind a gate something opens count as reachable (bots open it).
    pub gates: Vec<String>,
    /// Each item whose way from the first spawn point takes more than a
    /// walk, with the steps in order ([`crate::gates::chain`]).
    pub chains: Vec<ItemChain>,
}

/// The way to one item: what a player does on it, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemChain {
    /// The item.
    pub item: EntityId,
    /// Its class name.
    pub class: String,
    /// Where it rests.
    pub position: Vec3,
    /// The steps from the first spawn point that fits.
    pub steps: Vec<crate::gates::Step>,
}

/// The way from `map`'s first fitting spawn point to each item reached by
/// more than a walk (items no way leads to are left to
/// [`explain_unreachable`]).
pub fn item_chains(world: &CollisionWorld, map: &LoadedMap, mesh: &NavMesh) -> Vec<ItemChain> {
    let Some((_, spawn)) = map.spawn_points().find(|(_, s)| s.fits) else { return Vec::new() };
    let open = doors_open_world(world, map);
    let planner = crate::gates::ChainPlanner::new(mesh, world, map);
    map.entities()
        .iter()
        .filter_map(|e| {
            if !matches!(e.kind, EntityKind::Item(_)) {
                return None;
            }
            let position = item_spot(&open, e)?;
            let steps = planner.chain(spawn.spawn_origin, position)?;
            (!steps.is_empty()).then(|| ItemChain { item: e.id, class: e.classname.clone(), position, steps })
        })
        .collect()
}

/// Builds `map`'s navmesh on its match-start world and reports on it: the
/// entry point of `quarry-server nav-info`. Returns the mesh too, for
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
    let unreachable_goals = explain_unreachable(&world, map, &mesh, &reachability);
    let report = NavInfoReport {
        map: map.name().to_owned(),
        info: mesh.info(),
        reachability,
        heuristics,
        unreachable_goals,
        gates: crate::gates::describe_gates(map),
        chains: item_chains(&world, map, &mesh),
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
        // Each goal once (every failing pair is in the JSON report).
        for g in &self.unreachable_goals {
            let p = g.position;
            writeln!(
                f,
                "  unreachable from {} of {} spawn points: {} {} ({:.0} {:.0} {:.0}): {}",
                g.from_spawns, r.spawns, g.to_class, g.to.0, p.x, p.y, p.z, g.why
            )?;
        }
        if !self.gates.is_empty() {
            writeln!(f, "gates (doors touching does not open; goals behind one bots open count as reachable): {}", self.gates.len())?;
            for g in &self.gates {
                writeln!(f, "  {g}")?;
            }
        }
        if !self.chains.is_empty() {
            writeln!(f, "items reached by more than a walk (from the first spawn point): {}", self.chains.len())?;
            for c in &self.chains {
                let p = c.position;
                writeln!(f, "  {} {} ({:.0} {:.0} {:.0}): {}", c.class, c.item.0, p.x, p.y, p.z, crate::gates::describe_steps(&c.steps))?;
            }
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
