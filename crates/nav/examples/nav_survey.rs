//! Builds the navmesh of every map given (default: `maps/*.map` and the
//! shared maps) at one or more cell sizes and prints one line per map and
//! size: nodes, links, build time, floor covered, spawn and item
//! reachability, ALT against Euclid and Dijkstra. How the default cell
//! size was chosen.
//!
//! ```text
//! cargo run --release -p quarry-nav --example nav_survey -- [--cells 8,16,24,32] [--queries N] [--landmarks K]
//!     [--unreachable] [--coverage] [--build-only] [MAP.map ...]
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::sync::atomic::{AtomicU64, Ordering};

use glam::Vec3;
use quarry_map::{Contents, LoadOptions, Trace, TraceResult};
use quarry_nav::{
    Agent, BuildOptions, NavInput, NavMesh, RouteOptions, SearchScratch, doors_open_world,
    heuristic_comparison, match_start_world, reachability_report_in,
};
use rand::{RngExt, SeedableRng};

/// Counts the traces and contents queries a build makes.
struct Counting<'a> {
    inner: &'a (dyn Trace + Sync),
    traces: AtomicU64,
    contents: AtomicU64,
}

impl Trace for Counting<'_> {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        self.traces.fetch_add(1, Ordering::Relaxed);
        self.inner.trace(start, end, mins, maxs, mask)
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.contents.fetch_add(1, Ordering::Relaxed);
        self.inner.point_contents(point)
    }

    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        self.contents.fetch_add(1, Ordering::Relaxed);
        self.inner.point_contents_in(point, mask)
    }
}

fn maps_in(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() {
            maps_in(&p, out);
        } else if p.extension().is_some_and(|e| e == "map") {
            out.push(p);
        }
    }
}

fn main() -> ExitCode {
    let mut cells = vec![16.0f32];
    let mut queries = 1000usize;
    let mut show_unreachable = false;
    let mut coverage = false;
    let mut build_only = false;
    let mut landmarks = quarry_nav::DEFAULT_LANDMARKS;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--cells" => {
                cells = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|s| s.parse().ok())
                    .collect()
            }
            "--queries" => queries = args.next().and_then(|s| s.parse().ok()).unwrap_or(queries),
            "--unreachable" => show_unreachable = true,
            "--coverage" => coverage = true,
            "--build-only" => build_only = true,
            "--landmarks" => {
                landmarks = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(landmarks)
            }
            _ => paths.push(PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        maps_in(&root.join("maps"), &mut paths);
        let shared = std::env::var_os("QUARRY_SHARED_MAPS")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("../shared/maps"));
        maps_in(&shared, &mut paths);
        paths.sort();
    }
    println!(
        "{:<22} {:>4} {:>7} {:>8} {:>6} {:>6} {:>5} {:>8} {:>10} {:>13} {:>13} {:>9} {:>9} {:>8} {:>7} {:>7}",
        "map",
        "cell",
        "nodes",
        "links",
        "areas",
        "offm",
        "capd",
        "build_ms",
        "floor_u2",
        "spawn",
        "item",
        "alt/euc",
        "alt/dij",
        "alt_p50",
        "tr/node",
        "pc/node"
    );
    for path in &paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let map = match quarry_map::load(path, &LoadOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let world = match_start_world(&map);
        // Reference: the standing spots an uncapped 8-unit grid reaches from
        // the first spawn point (its directed closure), sampled.
        let first_spawn = map
            .spawn_points()
            .find(|(_, s)| s.fits)
            .map(|(_, s)| s.spawn_origin);
        let reference: Vec<Vec3> = match (coverage, first_spawn) {
            (true, Some(from)) => {
                let fine = BuildOptions {
                    cell_size: 8.0,
                    max_nodes: 1 << 22,
                    landmarks: 4,
                    ..BuildOptions::default()
                };
                match NavMesh::build_for_map(&map, &world, &[], &Agent::default(), &fine) {
                    Ok(m) => {
                        let mut scratch = SearchScratch::new();
                        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
                        let options = RouteOptions {
                            string_pull: false,
                            ..RouteOptions::default()
                        };
                        let mut spots = Vec::new();
                        for _ in 0..4000 {
                            if spots.len() >= 400 {
                                break;
                            }
                            let p = m.nodes()[rng.random_range(0..m.node_count())].origin;
                            if m.route(&world, &mut scratch, from, p, &options).is_ok() {
                                spots.push(p);
                            }
                        }
                        spots
                    }
                    Err(_) => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        for &cell in &cells {
            let options = BuildOptions {
                cell_size: cell,
                landmarks,
                ..BuildOptions::default()
            };
            let open = doors_open_world(&world, &map);
            let counting = Counting {
                inner: &open,
                traces: AtomicU64::new(0),
                contents: AtomicU64::new(0),
            };
            let mesh = match NavMesh::build(
                &counting,
                &NavInput::from_map(&map),
                &Agent::default(),
                &options,
            ) {
                Ok(m) => m,
                Err(e) => {
                    println!("{name:<22} {cell:>4} {e}");
                    continue;
                }
            };
            let info = mesh.info();
            if build_only {
                println!(
                    "{name:<22} {cell:>4} {:>7} {:>8} build {:.1} ms, {:.1} traces and {:.1} contents queries per node, {:?}",
                    info.nodes,
                    info.links,
                    info.build_ms,
                    counting.traces.load(Ordering::Relaxed) as f64 / info.nodes as f64,
                    counting.contents.load(Ordering::Relaxed) as f64 / info.nodes as f64,
                    info.build_times
                );
                continue;
            }
            let reach = reachability_report_in(&world, &map, &mesh);
            let h = heuristic_comparison(&mesh, 1, queries);
            println!(
                "{:<22} {:>4} {:>7} {:>8} {:>6} {:>6} {:>5} {:>8.1} {:>10.0} {:>6}/{:<6} {:>6}/{:<6} {:>9.1} {:>9.1} {:>8.1} {:>7.1} {:>7.1}",
                name,
                cell,
                info.nodes,
                info.links,
                info.areas,
                info.off_mesh_links,
                info.capped,
                info.build_ms,
                info.floor_area,
                reach.spawn_pairs_routed,
                reach.spawn_pairs,
                reach.item_pairs_routed,
                reach.item_pairs,
                h.alt_vs_euclid(),
                h.alt_vs_dijkstra(),
                h.alt_us.0,
                counting.traces.load(Ordering::Relaxed) as f64 / info.nodes as f64,
                counting.contents.load(Ordering::Relaxed) as f64 / info.nodes as f64,
            );
            if let (false, Some(from)) = (reference.is_empty(), first_spawn) {
                let mut scratch = SearchScratch::new();
                let covered = reference
                    .iter()
                    .filter(|&&p| mesh.is_reachable(&world, &mut scratch, from, p))
                    .count();
                println!(
                    "    coverage: {:.1} % of {} spots an 8-unit grid reaches from the first spawn are reached",
                    100.0 * covered as f64 / reference.len() as f64,
                    reference.len()
                );
            }
            if show_unreachable {
                for u in &reach.unreachable {
                    println!(
                        "    {} -> {} {} {:?}: {}",
                        u.from.0, u.to_class, u.to.0, u.positions, u.reason
                    );
                }
                for w in mesh.warnings() {
                    println!("    warning: {w}");
                }
            }
        }
    }
    ExitCode::SUCCESS
}
