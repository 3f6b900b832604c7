//! Generation: from a trace and a [`NavInput`] to a [`NavMesh`].
//!
//! Order: check the agent and options, flood from the seeds
//! ([`flood`](self::flood)), add off-mesh links (pads, teleporters), flag
//! links movers may block, freeze the graph, assign areas, index cells,
//! measure each node's exposure ([`exposure`](self::exposure)), build the
//! region layer (landmarks are picked on first use). Each phase's time is kept in [`BuildTimes`].

pub(crate) mod areas;
pub(crate) mod crouch;
pub(crate) mod exposure;
pub(crate) mod flood;
pub(crate) mod input;
pub(crate) mod landmarks;
pub(crate) mod lift;
pub(crate) mod swim;
pub(crate) mod offmesh;
pub(crate) mod pool;
pub(crate) mod probe;

use std::time::Instant;

use glam::Vec3;
use quarry_map::{CollisionWorld, LoadedMap, Trace};
use serde::Serialize;

use crate::agent::Agent;
use crate::cells::{CellGrid, Grid};
use crate::error::NavError;
use crate::graph::Graph;
use crate::mesh::NavMesh;
use input::{MoverSpec, NavInput};
use probe::Prober;

/// Default grid cell size, units: see [`BuildOptions::cell_size`].
pub const DEFAULT_CELL_SIZE: f32 = 24.0;
/// Smallest and largest cell size accepted (`bot_navCellSize` range).
pub const CELL_SIZE_RANGE: (f32, f32) = (8.0, 64.0);
/// Default node cap (the reference's `NAV_MAX_NODES`).
pub const DEFAULT_MAX_NODES: usize = 65536;
/// Default number of ALT landmarks.
pub const DEFAULT_LANDMARKS: usize = 8;

/// How to build a navmesh. Start from [`BuildOptions::default`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BuildOptions {
    /// Grid cell size in units (`bot_navCellSize`), clamped to
    /// [`CELL_SIZE_RANGE`]. The default, 24 (0.8 of the default player
    /// width), was chosen by measuring the shipped and shared maps
    /// (`examples/nav_survey.rs --coverage`): at 24 every map reaches all
    /// of 400 sampled spots an 8-unit grid reaches from its first spawn,
    /// and every spawn and item pair a 16-unit grid routes, with 2.2 times
    /// fewer nodes, building and searching 2 to 3 times faster than at 16;
    /// at 32 one map (dm6) loses 7 % of its reachable floor (and 14 spawn
    /// to item pairs) behind a passage the coarser grid misses.
    pub cell_size: f32,
    /// Most nodes; past it the flood stops adding ground (with a warning).
    pub max_nodes: usize,
    /// ALT landmarks (0: none, [`Heuristic::Alt`](crate::Heuristic) falls back to Euclid).
    pub landmarks: usize,
    /// Probe threads; 0 picks the machine's parallelism (at most 8).
    pub threads: usize,
    /// Look for running jumps across gaps no neighbour step crosses.
    pub gap_jumps: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            cell_size: DEFAULT_CELL_SIZE,
            max_nodes: DEFAULT_MAX_NODES,
            landmarks: DEFAULT_LANDMARKS,
            threads: 0,
            gap_jumps: true,
        }
    }
}

impl BuildOptions {
    fn sanitized(mut self) -> BuildOptions {
        let (lo, hi) = CELL_SIZE_RANGE;
        self.cell_size = if self.cell_size.is_finite() {
            self.cell_size.clamp(lo, hi)
        } else {
            DEFAULT_CELL_SIZE
        };
        if self.threads == 0 {
            self.threads = std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
                .min(8);
        }
        self.landmarks = self.landmarks.min(64);
        self
    }
}

/// Milliseconds spent in each build phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct BuildTimes {
    /// Seeds and flood.
    pub flood_ms: f64,
    /// Off-mesh links and mover flags.
    pub links_ms: f64,
    /// Areas and the cell index.
    pub areas_ms: f64,
    /// Landmark selection and tables: 0 at the build (they are chosen on
    /// first use); [`NavMesh::info`](crate::NavMesh::info) reports the time
    /// they took then.
    pub landmarks_ms: f64,
    /// The region layer.
    pub regions_ms: f64,
    /// Each node's exposure (sight lines from sampled observers): at the
    /// build, the time to start it (a map's build measures it on a thread
    /// of its own); [`NavMesh::info`](crate::NavMesh::info) reports the
    /// time measuring took once it is done.
    pub exposure_ms: f64,
    /// The whole build: what a bot needs before it can move (the region
    /// table's rows and the exposure follow in the background).
    pub total_ms: f64,
}

impl NavMesh {
    /// Builds a navmesh by probing `world` with `agent`'s box from
    /// `input`'s seeds. Any [`Trace`] works (tests use synthetic worlds);
    /// the world should have touch-open doors open ([`NavMesh::build_for_map`]
    /// arranges that for a loaded map).
    pub fn build(
        world: &(dyn Trace + Sync),
        input: &NavInput,
        agent: &Agent,
        options: &BuildOptions,
    ) -> Result<NavMesh, NavError> {
        Self::build_with(world, None, input, agent, options)
    }

    /// [`NavMesh::build`]; with `shared` (the same world, held), the
    /// exposure is measured in the background.
    fn build_with(
        world: &(dyn Trace + Sync),
        shared: Option<std::sync::Arc<dyn Trace + Send + Sync>>,
        input: &NavInput,
        agent: &Agent,
        options: &BuildOptions,
    ) -> Result<NavMesh, NavError> {
        let t0 = Instant::now();
        let agent = agent.validated()?;
        let options = options.sanitized();
        if input.seeds.is_empty() {
            return Err(NavError::NoSeeds);
        }
        let flood = flood::flood(world, &agent, &options, input);
        if flood.graph.nodes.is_empty() {
            return Err(NavError::NoFloor {
                seeds: input.seeds.len(),
            });
        }
        let mut warnings = Vec::new();
        if flood.capped {
            let w = format!(
                "node cap {} reached: part of the map is unnavigable (raise the cap or the cell size)",
                options.max_nodes
            );
            tracing::warn!(target: "quarry_nav", "{w}");
            warnings.push(w);
        }
        let t1 = Instant::now();
        let mut builder = flood.graph;
        let grid = Grid {
            size: options.cell_size,
        };
        let prober = Prober::new(world, &agent, grid.size, &[]);
        let mut off_mesh = offmesh::add_off_mesh(&mut builder, &prober, &grid, input, &mut warnings);
        off_mesh.extend(lift::add_lifts(&mut builder, &prober, &grid, input, &mut warnings));
        swim::add_swims(&mut builder, world, &prober, &grid);
        crouch::add_crouches(&mut builder, world, &agent, &grid, options.threads);
        let mut graph = builder.finish();
        flag_mover_links(&mut graph, &agent, &input.movers);
        let t2 = Instant::now();
        let area_sizes = areas::assign_areas(&mut graph);
        let cells = CellGrid::new(&graph.nodes);
        // Landmarks are chosen on first use (the exact cell router only).
        let t3 = Instant::now();
        let regions = crate::regions::build::build(&graph, agent.step_height, options.cell_size);
        let t4 = Instant::now();
        // Not needed for a first move: with a world to keep, measured on a
        // thread of its own (a route that needs it first waits for it).
        let origins: Vec<Vec3> = graph.nodes.iter().map(|n| n.origin).collect();
        let region_count = regions.regions.len();
        let exposure = match shared {
            Some(world) => exposure::LazyExposure::in_background(world, origins, regions.region_of.clone(), region_count, options.threads),
            None => std::sync::Arc::new(exposure::LazyExposure::now(world, &origins, &regions.region_of, region_count, options.threads)),
        };
        let t5 = Instant::now();
        // The table's rows are filled after the build; a route that comes
        // first computes the rows it needs itself, with the same result.
        regions.table.fill_in_background();
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        let times = BuildTimes {
            flood_ms: ms(t0, t1),
            links_ms: ms(t1, t2),
            areas_ms: ms(t2, t3),
            landmarks_ms: 0.0,
            regions_ms: ms(t3, t4),
            exposure_ms: ms(t4, t5),
            total_ms: ms(t0, t5),
        };
        for w in &warnings[usize::from(flood.capped)..] {
            tracing::warn!(target: "quarry_nav", "{w}");
        }
        let heuristic_scale = heuristic_scale(&graph);
        static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Ok(NavMesh {
            id: BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            agent,
            options,
            graph,
            regions,
            cells,
            area_sizes,
            exposure,
            landmarks: std::sync::OnceLock::new(),
            heuristic_scale,
            passable_doors: std::array::from_fn(|keys| input.passable_doors(quarry_map::entities::items::KeySet(keys as u8))),
            warps: input.jump_pads.iter().map(|p| p.bounds).chain(input.teleporters.iter().map(|t| t.bounds)).collect(),
            off_mesh,
            seeds: input.seeds.len(),
            seeds_used: flood.seeds_used,
            capped: flood.capped,
            hazards: flood.hazards,
            warnings,
            times,
        })
    }

    /// Builds the navmesh of a loaded map: seeds, pads, teleporters and
    /// movers from `map`'s entities plus the `players` already in it,
    /// geometry from `world` (the live collision world, movers where they
    /// are now) with every touch-open door opened in a private copy.
    pub fn build_for_map(
        map: &LoadedMap,
        world: &CollisionWorld,
        players: &[Vec3],
        agent: &Agent,
        options: &BuildOptions,
    ) -> Result<NavMesh, NavError> {
        let mut input = NavInput::from_map(map);
        input.add_players(players.iter().copied());
        let open = std::sync::Arc::new(input::doors_open_world(world, map));
        let shared: std::sync::Arc<dyn Trace + Send + Sync> = open.clone();
        NavMesh::build_with(&*open, Some(shared), &input, agent, options)
    }
}

/// Marks walk, drop and jump links whose swept volume a mover (other than a
/// touch-open door) can reach, so routes re-check them, and lists each
/// mover's links.
fn flag_mover_links(graph: &mut Graph, agent: &Agent, movers: &[MoverSpec]) {
    let reach: Vec<(Vec3, Vec3)> = movers
        .iter()
        .filter(|m| !m.passable)
        .map(|m| m.reach)
        .collect();
    graph.mover_links = movers.iter().filter(|m| !m.passable).map(|m| (m.entity, Vec::new())).collect();
    if reach.is_empty() {
        return;
    }
    let (mins, maxs) = (
        agent.mins(),
        agent.maxs() + Vec3::Z * (agent.jump_height + 1.0),
    );
    let nodes = &graph.nodes;
    for (li, link) in graph.links.iter_mut().enumerate() {
        if !link.kind.is_probed() {
            continue;
        }
        let from = graph.source.get(li).and_then(|&s| nodes.get(s as usize));
        let (Some(a), Some(b)) = (from, nodes.get(link.to.index())) else {
            continue;
        };
        let lo = a.origin.min(b.origin) + mins;
        let hi = a.origin.max(b.origin) + maxs;
        for (mi, (rl, rh)) in reach.iter().enumerate() {
            if lo.cmple(*rh).all() && rl.cmple(hi).all() {
                link.near_mover = true;
                if let Some((_, list)) = graph.mover_links.get_mut(mi) {
                    list.push(li as u32);
                }
            }
        }
    }
}

/// The smallest cost per unit of straight-line distance over all links
/// (at most 1): scaling Euclidean distance by it keeps A* admissible even
/// with cheap long teleporters.
fn heuristic_scale(graph: &Graph) -> f32 {
    let mut scale = 1.0f32;
    for (li, link) in graph.links.iter().enumerate() {
        let from = graph
            .source
            .get(li)
            .and_then(|&s| graph.nodes.get(s as usize));
        let (Some(a), Some(b)) = (from, graph.nodes.get(link.to.index())) else {
            continue;
        };
        let d = a.origin.distance(b.origin);
        if d > 1.0 {
            scale = scale.min(link.cost / d);
        }
    }
    scale.max(0.0)
}
