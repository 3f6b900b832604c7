//! Navmesh benchmarks: build time per map (shipped `maps/*.map` and the
//! shared maps) and route query time: A* on the cells with ALT and Euclid,
//! and full routes through the region layer (the default).
//!
//! Before the criterion groups it prints a table per map: nodes, links,
//! the median build time (until bots can move), the median time the
//! exposure pass takes on its thread after the build, the median wait
//! after a build until the region distance table is full (both fill in the
//! background), and p50/p99 (of
//! each query's median over five sweeps) microseconds and mean expansions of
//! 500 seeded random route queries: the cell search itself (node to node,
//! no string pulling) with each heuristic, full cell routes (snapping,
//! validation, string pulling), and full coarse routes (snapping,
//! validation, corridor from the region table, funnel, straightening),
//! with the corridor's regions, and the same for the coarse routes' first
//! sweep alone (a fresh scratch: nothing remembered from earlier routes). A second table gives the route quality:
//! over 1,000 seeded node pairs per map, the coarse route's cost over the
//! optimal cell route's (mean, p99, max, min). Both tables' figures are
//! also written to `target/navmesh_figures.tsv` for `scripts/bench.sh`.
//!
//! ```text
//! cargo bench -p quarry-nav --bench navmesh
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec3;
use quarry_map::{CollisionWorld, LoadOptions, LoadedMap};
use quarry_nav::{
    Agent, BuildOptions, Heuristic, NavMesh, RouteOptions, SearchScratch, coarse_quality,
    match_start_world,
};
use rand::{RngExt, SeedableRng};

/// Queries per map in the printed table and in the criterion route groups.
const QUERIES: usize = 500;

fn maps() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    let mut add = |dir: &Path, deep: bool| {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() && deep {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "map") {
                    out.push(p);
                }
            }
        }
    };
    add(&root.join("maps"), false);
    let shared = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/maps"));
    add(&shared, true);
    out.sort();
    out
}

struct Case {
    name: String,
    map: LoadedMap,
    world: CollisionWorld,
    mesh: NavMesh,
    pairs: Vec<(Vec3, Vec3)>,
}

fn load(path: &Path) -> Option<Case> {
    let name = path.file_stem()?.to_string_lossy().into_owned();
    let map = quarry_map::load(path, &LoadOptions::default()).ok()?;
    let world = match_start_world(&map);
    let mesh = NavMesh::build_for_map(
        &map,
        &world,
        &[],
        &Agent::default(),
        &BuildOptions::default(),
    )
    .ok()?;
    // Routes are timed on a full distance table (bots' steady state).
    mesh.fill_region_table();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
    let nodes = mesh.nodes();
    let mut pairs = Vec::new();
    while pairs.len() < QUERIES {
        let a = &nodes[rng.random_range(0..nodes.len())];
        let b = &nodes[rng.random_range(0..nodes.len())];
        if a.area == b.area {
            pairs.push((a.origin, b.origin));
        }
    }
    Some(Case {
        name,
        map,
        world,
        mesh,
        pairs,
    })
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |p: f64| {
        v.get(((v.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (at(0.5), at(0.99))
}

/// Sweeps over every pair per timed column: each query's time is its
/// median over the sweeps, so a moment of CPU stolen by the host moves no
/// percentile (caches are as warm as in one sweep: the other queries run
/// in between).
const SWEEPS: usize = 5;

/// Times every pair in [`SWEEPS`] sweeps with one scratch (as a bot
/// system keeps one: what it remembers of earlier routes counts); returns
/// (p50 µs, p99 µs, mean expansions) over the pairs' median times, and
/// (p50, p99) of the first sweep alone (a fresh scratch).
fn time_queries(c: &Case, options: &RouteOptions) -> (f64, f64, f64, (f64, f64)) {
    let mut scratch = SearchScratch::new();
    let mut times = vec![Vec::with_capacity(SWEEPS); c.pairs.len()];
    let mut expansions = 0u64;
    for sweep in 0..SWEEPS {
        for (i, &(a, b)) in c.pairs.iter().enumerate() {
            let t = Instant::now();
            let r = c.mesh.route(&c.world, &mut scratch, a, b, options);
            times[i].push(t.elapsed().as_secs_f64() * 1e6);
            if sweep == 0 {
                expansions += r.map_or(0, |r| u64::from(r.expansions));
            }
        }
    }
    let first = percentiles(times.iter().filter_map(|t| t.first().copied()).collect());
    let medians = times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            t.get(t.len() / 2).copied().unwrap_or(0.0)
        })
        .collect();
    let (p50, p99) = percentiles(medians);
    (p50, p99, expansions as f64 / c.pairs.len() as f64, first)
}

/// Seeded node pairs per map for the route quality figures.
const QUALITY_PAIRS: usize = 1000;

/// Where the per-map figures go as table rows for `scripts/bench.sh`
/// (tab-separated name, value, unit, command).
fn figures_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("navmesh_figures.tsv")
}

fn print_table(cases: &[Case]) {
    println!(
        "{:<14} {:>6} {:>7} {:>9} {:>9} {:>9} | {:>17} {:>6} | {:>17} {:>6} | {:>17} | {:>17} {:>5} | {:>17}",
        "map",
        "nodes",
        "links",
        "build ms",
        "expo ms",
        "table ms",
        "alt p50/p99 us",
        "exp",
        "euclid p50/p99 us",
        "exp",
        "cell route p50/p99",
        "coarse route p50/p99",
        "exp",
        "first sweep p50/p99"
    );
    let cell_full = RouteOptions {
        coarse: false,
        ..RouteOptions::default()
    };
    let mut rows = Vec::new();
    for c in cases {
        // Each build, then the exposure's own time (measured on a thread
        // of its own after the build) and the wait until its distance
        // table is full (its rows fill in the background after the build;
        // this thread helps).
        let (builds, rest): (Vec<f64>, Vec<(f64, f64)>) = (0..5)
            .filter_map(|_| {
                NavMesh::build_for_map(
                    &c.map,
                    &c.world,
                    &[],
                    &Agent::default(),
                    &BuildOptions::default(),
                )
                .ok()
            })
            .map(|m| {
                let t = Instant::now();
                m.fill_region_table();
                let fill_ms = t.elapsed().as_secs_f64() * 1e3;
                // Waits for the exposure's thread.
                m.exposure_stats();
                (m.build_times().total_ms, (m.exposure_ms().unwrap_or(0.0), fill_ms))
            })
            .unzip();
        let (exposures, fills): (Vec<f64>, Vec<f64>) = rest.into_iter().unzip();
        let (build, _) = percentiles(builds);
        let (exposure, _) = percentiles(exposures);
        let (fill, _) = percentiles(fills);
        let (a50, a99, ax, _) = time_queries(c, &search(Heuristic::Alt));
        let (e50, e99, ex, _) = time_queries(c, &search(Heuristic::Euclid));
        let (f50, f99, _, _) = time_queries(c, &cell_full);
        let (c50, c99, cx, (k50, k99)) = time_queries(c, &RouteOptions::default());
        let command = "cargo bench -p quarry-nav --bench navmesh";
        for (what, value, unit) in [
            ("build", build, "ms"),
            ("exposure_background", exposure, "ms"),
            ("route_coarse_p50", c50, "us"),
            ("route_coarse_p99", c99, "us"),
            ("route_coarse_first_sweep_p50", k50, "us"),
            ("route_coarse_first_sweep_p99", k99, "us"),
        ] {
            rows.push(format!("navmesh/{}/{what}\t{value:.1}\t{unit}\t{command}\n", c.name));
        }
        println!(
            "{:<14} {:>6} {:>7} {:>9.1} {:>9.1} {:>9.1} | {:>8.1}/{:<8.1} {:>6.0} | {:>8.1}/{:<8.1} {:>6.0} | {:>8.1}/{:<8.1} | {:>8.1}/{:<8.1} {:>5.0} | {:>8.1}/{:<8.1}",
            c.name,
            c.mesh.node_count(),
            c.mesh.link_count(),
            build,
            exposure,
            fill,
            a50,
            a99,
            ax,
            e50,
            e99,
            ex,
            f50,
            f99,
            c50,
            c99,
            cx,
            k50,
            k99
        );
    }
    // How close routes through the regions come to the optimal cell route.
    println!("\nroute quality over {QUALITY_PAIRS} seeded pairs per map (coarse cost / optimal cell cost)");
    println!("{:<14} {:>8} {:>7} {:>7} {:>7} {:>7}", "map", "compared", "mean", "p99", "max", "min");
    for c in cases {
        let q = coarse_quality(&c.mesh, &c.world, 7, QUALITY_PAIRS);
        println!("{:<14} {:>8} {:>7.3} {:>7.3} {:>7.3} {:>7.3}", c.name, q.compared, q.ratio_mean, q.ratio_p99, q.ratio_max, q.ratio_min);
        let command = "cargo bench -p quarry-nav --bench navmesh";
        for (what, value) in [("mean", q.ratio_mean), ("p99", q.ratio_p99), ("max", q.ratio_max)] {
            rows.push(format!("navmesh/{}/route_cost_ratio_{what}\t{value:.3}\tcoarse/optimal\t{command}\n", c.name));
        }
    }
    if let Err(e) = std::fs::write(figures_path(), rows.concat()) {
        eprintln!("could not write {}: {e}", figures_path().display());
    }
}

fn search(h: Heuristic) -> RouteOptions {
    RouteOptions {
        heuristic: h,
        string_pull: false,
        coarse: false,
        ..RouteOptions::default()
    }
}

fn benches(cr: &mut Criterion) {
    let cases: Vec<Case> = maps().iter().filter_map(|p| load(p)).collect();
    print_table(&cases);
    let mut build = cr.benchmark_group("navmesh_build");
    build.sample_size(10);
    for c in &cases {
        // Each build alone: the region table a build leaves filling on a
        // background thread is finished, untimed, before the next one
        // (back to back, it would compete with the next build's flood).
        build.bench_function(&c.name, |b| {
            b.iter_custom(|iters| {
                let mut spent = std::time::Duration::ZERO;
                for _ in 0..iters {
                    let t = std::time::Instant::now();
                    let mesh = NavMesh::build_for_map(&c.map, &c.world, &[], &Agent::default(), &BuildOptions::default()).ok();
                    spent += t.elapsed();
                    if let Some(m) = mesh {
                        m.fill_region_table();
                    }
                }
                spent
            })
        });
    }
    build.finish();
    for (group, options) in [
        ("navmesh_route_alt", search(Heuristic::Alt)),
        ("navmesh_route_euclid", search(Heuristic::Euclid)),
        ("navmesh_route_coarse", RouteOptions::default()),
    ] {
        let mut g = cr.benchmark_group(group);
        for c in &cases {
            let mut scratch = SearchScratch::new();
            let mut i = 0;
            g.bench_function(&c.name, |b| {
                b.iter(|| {
                    let (a, z) = c.pairs[i % c.pairs.len()];
                    i += 1;
                    black_box(c.mesh.route(&c.world, &mut scratch, a, z, &options).ok())
                })
            });
        }
        g.finish();
    }
}

criterion_group!(navmesh, benches);
criterion_main!(navmesh);
