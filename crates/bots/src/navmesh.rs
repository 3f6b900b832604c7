//! The runtime navmesh behind the [`Navigator`] trait: built lazily for the
//! running map (on the first `addbot`, or the first tick with bots after a
//! map change), from the live movement cvars, and queried through a
//! per-tick [`MeshNavigator`] that pairs the read-only mesh with the live
//! collision world and one reusable search scratch.

use glam::Vec3;
use quarry_map::Trace;
use quarry_nav::{Agent, BuildOptions, NavMesh, RouteOptions, SearchScratch};
use quarry_sim::Match;
use quarry_sim::pmove::MoveParams;

use crate::navigate::{Corner, LinkKind, Navigator, Route};
use crate::rng::BotRng;

/// What the mesh was built for; a different key means a rebuild.
#[derive(Debug, Clone, PartialEq)]
struct MeshKey {
    map: String,
    brushes: usize,
    cell_size: f32,
    max_nodes: usize,
    agent: [f32; 8],
}

enum MeshState {
    /// Nothing built yet.
    Empty,
    /// Built.
    Ready { key: MeshKey, mesh: Box<NavMesh> },
    /// The map could not be navigated; not retried until the key changes.
    Failed { key: MeshKey, error: String },
}

/// Counts of the queries answered (for benches and `botlist`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QueryStats {
    /// Route queries (including roam and reachability).
    pub routes: u64,
    /// Nearest-node queries.
    pub nearest: u64,
    /// Time spent in all queries.
    pub total: std::time::Duration,
    /// The slowest query.
    pub slowest: std::time::Duration,
}

impl QueryStats {
    fn record(&mut self, started: std::time::Instant) {
        let d = started.elapsed();
        self.total += d;
        self.slowest = self.slowest.max(d);
    }
}

/// The navmesh of the running map, built on demand.
pub struct NavService {
    max_nodes: usize,
    state: MeshState,
    scratch: SearchScratch,
    builds: u32,
    stats: QueryStats,
}

impl Default for NavService {
    fn default() -> Self {
        Self {
            max_nodes: quarry_nav::DEFAULT_MAX_NODES,
            state: MeshState::Empty,
            scratch: SearchScratch::new(),
            builds: 0,
            stats: QueryStats::default(),
        }
    }
}

impl std::fmt::Debug for NavService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NavService")
            .field("state", &self.describe())
            .finish_non_exhaustive()
    }
}

/// The navmesh agent for the live movement parameters.
pub fn agent_for(p: &MoveParams) -> Agent {
    Agent {
        half_width: p.bbox_half_width,
        min_z: p.bbox_min_z,
        max_z: p.bbox_max_z,
        crouch_max_z: p.crouch_max_z,
        step_height: p.step_size,
        jump_height: p.max_jump_height(),
        max_drop: Agent::safe_drop(p.gravity),
        walkable_normal_z: p.min_walk_normal,
        gravity: p.gravity,
        run_speed: p.speed,
        jump_velocity: p.jump_velocity,
    }
}

impl NavService {
    /// Makes sure a mesh for `game`'s map exists (building it if the map,
    /// the cell size or the movement cvars changed). `Err` says why the map
    /// cannot be navigated.
    pub fn ensure(&mut self, game: &Match, cell_size: f32) -> Result<(), String> {
        let agent = agent_for(&game.settings().movement);
        let map = game.map();
        let key = MeshKey {
            map: map.name().to_owned(),
            brushes: map.brush_count(),
            cell_size,
            max_nodes: self.max_nodes,
            agent: [
                agent.half_width,
                agent.min_z,
                agent.max_z,
                agent.step_height,
                agent.jump_height,
                agent.max_drop,
                agent.walkable_normal_z,
                agent.run_speed,
            ],
        };
        match &self.state {
            MeshState::Ready { key: k, .. } if *k == key => return Ok(()),
            MeshState::Failed { key: k, error } if *k == key => return Err(error.clone()),
            _ => {}
        }
        let players: Vec<Vec3> = game
            .slots()
            .iter()
            .filter_map(|(id, _)| game.player_view(id).filter(|p| p.alive).map(|p| p.origin))
            .collect();
        let options = BuildOptions {
            cell_size,
            max_nodes: self.max_nodes,
            ..BuildOptions::default()
        };
        self.builds += 1;
        match NavMesh::build_for_map(map, map.world(), &players, &agent, &options) {
            Ok(mesh) => {
                tracing::info!(target: "quarry_bots", "navmesh for {}: {} nodes, {} links, {:.0} ms", key.map, mesh.node_count(), mesh.link_count(), mesh.build_times().total_ms);
                self.state = MeshState::Ready {
                    key,
                    mesh: Box::new(mesh),
                };
                Ok(())
            }
            Err(e) => {
                let error = format!("{}: {e}", key.map);
                tracing::warn!(target: "quarry_bots", "navmesh: {error}");
                self.state = MeshState::Failed {
                    key,
                    error: error.clone(),
                };
                Err(error)
            }
        }
    }

    /// Sets the node cap used by the next build (`bot_navMaxNodes`).
    pub fn set_max_nodes(&mut self, max_nodes: usize) {
        self.max_nodes = max_nodes;
    }

    /// Forgets the mesh (the next `ensure` rebuilds).
    pub fn invalidate(&mut self) {
        self.state = MeshState::Empty;
    }

    /// The mesh, when built.
    pub fn mesh(&self) -> Option<&NavMesh> {
        match &self.state {
            MeshState::Ready { mesh, .. } => Some(mesh),
            _ => None,
        }
    }

    /// How many builds ran.
    pub fn builds(&self) -> u32 {
        self.builds
    }

    /// Query counts and times so far.
    pub fn query_stats(&self) -> QueryStats {
        self.stats
    }

    /// A navigator over the mesh and the live `world`, for one tick.
    pub fn navigator<'a>(&'a mut self, world: &'a dyn Trace) -> Option<MeshNavigator<'a>> {
        match &self.state {
            MeshState::Ready { mesh, .. } => Some(MeshNavigator {
                mesh,
                world,
                scratch: &mut self.scratch,
                stats: &mut self.stats,
            }),
            _ => None,
        }
    }

    /// One line for `botlist`.
    pub fn describe(&self) -> String {
        match &self.state {
            MeshState::Empty => "navmesh: not built (built when the first bot needs it)".to_owned(),
            MeshState::Ready { key, mesh } => format!(
                "navmesh: {} ready, cell {}, {} nodes, {} links, {} areas, {} off-mesh links, built in {:.0} ms",
                key.map,
                key.cell_size,
                mesh.node_count(),
                mesh.link_count(),
                mesh.area_count(),
                mesh.off_mesh_links().len(),
                mesh.build_times().total_ms
            ),
            MeshState::Failed { error, .. } => format!("navmesh: failed ({error})"),
        }
    }
}

/// The navmesh plus the live world and a search scratch: a [`Navigator`] for one tick.
pub struct MeshNavigator<'a> {
    mesh: &'a NavMesh,
    world: &'a dyn Trace,
    scratch: &'a mut SearchScratch,
    stats: &'a mut QueryStats,
}

fn link(kind: quarry_nav::LinkKind) -> LinkKind {
    match kind {
        quarry_nav::LinkKind::Walk => LinkKind::Walk,
        quarry_nav::LinkKind::Drop => LinkKind::Drop,
        quarry_nav::LinkKind::Jump => LinkKind::Jump,
        quarry_nav::LinkKind::JumpPad => LinkKind::JumpPad,
        quarry_nav::LinkKind::Teleport => LinkKind::Teleport,
    }
}

fn convert(route: quarry_nav::Route) -> Route {
    Route {
        corners: route
            .corners
            .iter()
            .map(|c| Corner {
                pos: c.origin,
                link: link(c.kind),
                entity: c.entity,
            })
            .collect(),
        cost: route.cost,
    }
}

impl Navigator for MeshNavigator<'_> {
    fn ready(&self) -> bool {
        true
    }

    fn route(&mut self, from: Vec3, to: Vec3) -> Option<Route> {
        let t = std::time::Instant::now();
        let r = self
            .mesh
            .route(self.world, self.scratch, from, to, &RouteOptions::default())
            .ok()
            .map(convert);
        self.stats.routes += 1;
        self.stats.record(t);
        r
    }

    fn nearest(&mut self, point: Vec3, radius: f32) -> Option<Vec3> {
        let t = std::time::Instant::now();
        let id = self.mesh.nearest_node(self.world, point, radius);
        self.stats.nearest += 1;
        self.stats.record(t);
        self.mesh.node(id?).map(|n| n.origin)
    }

    fn random_route(&mut self, from: Vec3, rng: &mut BotRng) -> Option<Route> {
        let t = std::time::Instant::now();
        let r = self
            .mesh
            .random_reachable_point(self.world, self.scratch, from, rng.inner(), &RouteOptions::default())
            .map(|(_, r)| convert(r));
        self.stats.routes += 1;
        self.stats.record(t);
        r
    }

    fn describe(&self) -> String {
        format!(
            "navmesh: {} nodes, {} links",
            self.mesh.node_count(),
            self.mesh.link_count()
        )
    }

    fn queries(&self) -> u64 {
        self.stats.routes
    }
}
