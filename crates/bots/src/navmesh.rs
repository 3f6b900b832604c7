//! The runtime navmesh behind the [`Navigator`] trait: built for the
//! running map (on the first `addbot`, or the first tick with bots after a
//! map change), from the live movement cvars, and queried through a
//! per-tick [`MeshNavigator`] that pairs the read-only mesh with the live
//! collision world and one reusable search scratch.
//!
//! Where the build runs: by default on the calling thread, so a match with
//! the same seed and inputs always gets its mesh at the same tick (headless
//! `--fast` runs and tests rely on it). With [`NavService::set_background`]
//! (a live server) [`NavService::ensure`] prepares the build's inputs and
//! hands them to a worker thread ([`background`]); the tick loop goes on,
//! bots fight without routes ([`NavService::is_building`]), and
//! [`NavService::poll`] picks the finished mesh up at a tick boundary. Every
//! started build has a generation; a result for an older generation (the
//! map changed again meanwhile) is discarded.

pub mod background;

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;
use quarry_map::CollisionWorld;
use quarry_map::entities::items::KeyKind;
use quarry_nav::{Agent, BuildOptions, NavInput, NavMesh, RouteOptions, SearchScratch};
use quarry_sim::Match;
use quarry_sim::pmove::MoveParams;

pub use background::NavBuildError;
use background::{BuildJob, Workers};

use crate::navigate::{Corner, Navigator, Route, Traveller};
use crate::rng::BotRng;

/// A point settles onto the mesh node this close to it, units.
const SETTLE_RADIUS: f32 = 48.0;

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
    /// Building on a worker thread.
    Building { key: MeshKey, generation: u64, started: Instant, world: Arc<CollisionWorld> },
    /// Built, with the doors-open world it was built on.
    Ready { key: MeshKey, mesh: Arc<NavMesh>, world: Arc<CollisionWorld> },
    /// The map could not be navigated; not retried until the key changes.
    Failed { key: MeshKey, error: NavBuildError },
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
    /// Builds run on worker threads (a live server) instead of the caller's.
    background: bool,
    /// The generation of the last build started; results of older ones are dropped.
    generation: u64,
    workers: Workers,
    discarded: u32,
    /// The gates of the map the last build was for.
    gates: Arc<[quarry_nav::gates::Gate]>,
}

impl Default for NavService {
    fn default() -> Self {
        Self {
            max_nodes: quarry_nav::DEFAULT_MAX_NODES,
            state: MeshState::Empty,
            scratch: SearchScratch::new(),
            builds: 0,
            stats: QueryStats::default(),
            background: false,
            generation: 0,
            workers: Workers::default(),
            discarded: 0,
            gates: Arc::from(Vec::new()),
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
    /// What a mesh for `game`'s map with the live movement cvars is built for.
    fn key(&self, game: &Match, agent: &Agent, cell_size: f32) -> MeshKey {
        let map = game.map();
        MeshKey {
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
        }
    }

    /// The build's inputs, owned: the map's seeds and specials plus the
    /// players standing now, and the world with touch doors open (a clone of
    /// the collision world, the only copy made on the calling thread).
    fn job(&mut self, game: &Match, key: &MeshKey, agent: Agent, cell_size: f32) -> BuildJob {
        let map = game.map();
        let mut input = NavInput::from_map(map);
        input.add_players(
            game.slots()
                .iter()
                .filter_map(|(id, _)| game.player_view(id).filter(|p| p.alive).map(|p| p.origin)),
        );
        self.generation += 1;
        self.builds += 1;
        self.gates = Arc::from(quarry_nav::gates::gates(map));
        BuildJob {
            generation: self.generation,
            map: key.map.clone(),
            world: Arc::new(quarry_nav::doors_open_world(map.world(), map)),
            input,
            agent,
            options: BuildOptions {
                cell_size,
                max_nodes: self.max_nodes,
                ..BuildOptions::default()
            },
        }
    }

    /// Makes sure a mesh for `game`'s map exists or is being built (starting
    /// a build if the map, the cell size or the movement cvars changed).
    /// `Err` says why the map cannot be navigated. In the background mode
    /// `Ok` may mean "building": see [`NavService::is_building`].
    pub fn ensure(&mut self, game: &Match, cell_size: f32) -> Result<(), NavBuildError> {
        let agent = agent_for(&game.settings().movement);
        let key = self.key(game, &agent, cell_size);
        match &self.state {
            MeshState::Ready { key: k, .. } | MeshState::Building { key: k, .. } if *k == key => return Ok(()),
            MeshState::Failed { key: k, error } if *k == key => return Err(error.clone()),
            _ => {}
        }
        let prepared = Instant::now();
        let job = self.job(game, &key, agent, cell_size);
        let world = Arc::clone(&job.world);
        if !self.background {
            let result = job.run();
            return self.finish(key, world, result);
        }
        let generation = job.generation;
        tracing::info!(
            target: "quarry_bots",
            "navmesh for {}: building in the background (inputs prepared in {:.1} ms)",
            key.map,
            prepared.elapsed().as_secs_f64() * 1000.0
        );
        match self.workers.spawn(job) {
            Ok(()) => {
                self.state = MeshState::Building { key, generation, started: Instant::now(), world };
                Ok(())
            }
            Err(e) => self.finish(key, world, Err(e)),
        }
    }

    /// Rebuilds the mesh for `game`'s map now, on the calling thread, in
    /// either mode (`navmesh build`); a build running in the background is
    /// discarded.
    pub fn build_now(&mut self, game: &Match, cell_size: f32) -> Result<(), NavBuildError> {
        let agent = agent_for(&game.settings().movement);
        let key = self.key(game, &agent, cell_size);
        let job = self.job(game, &key, agent, cell_size);
        let result = job.run();
        self.finish(key, Arc::clone(&job.world), result)
    }

    /// Stores a build's result and logs it.
    fn finish(&mut self, key: MeshKey, world: Arc<CollisionWorld>, result: Result<NavMesh, NavBuildError>) -> Result<(), NavBuildError> {
        match result {
            Ok(mesh) => {
                tracing::info!(target: "quarry_bots", "navmesh for {}: {} nodes, {} links, {:.0} ms", key.map, mesh.node_count(), mesh.link_count(), mesh.build_times().total_ms);
                self.state = MeshState::Ready {
                    key,
                    mesh: Arc::new(mesh),
                    world,
                };
                Ok(())
            }
            Err(error) => {
                tracing::warn!(target: "quarry_bots", "navmesh: {error}");
                self.state = MeshState::Failed { key, error: error.clone() };
                Err(error)
            }
        }
    }

    /// Picks up a background build that finished (call at a tick boundary).
    /// Returns a line for the console when the wanted build finished: the
    /// mesh is ready, or why there is none. Results of builds no longer
    /// wanted are discarded.
    pub fn poll(&mut self) -> Option<String> {
        let mut line = None;
        while let Some(outcome) = self.workers.try_take() {
            let wanted = match &self.state {
                MeshState::Building { generation, .. } => *generation == outcome.generation,
                _ => false,
            };
            if !wanted {
                self.discarded += 1;
                tracing::debug!(target: "quarry_bots", "navmesh: discarded the result of build {} (a newer one is wanted)", outcome.generation);
                continue;
            }
            let MeshState::Building { key, started, world, .. } = std::mem::replace(&mut self.state, MeshState::Empty) else {
                continue;
            };
            let waited = started.elapsed().as_secs_f64() * 1000.0;
            let map = key.map.clone();
            line = Some(match self.finish(key, world, outcome.result) {
                Ok(()) => format!("navmesh for {map} ready after {waited:.0} ms (built off the tick thread); bots route from now"),
                Err(e) => format!("navmesh: {e}; bots keep fighting without routes"),
            });
        }
        line
    }

    /// Runs builds on worker threads (`true`, a live server) or on the
    /// calling thread (`false`, the default: deterministic).
    pub fn set_background(&mut self, on: bool) {
        self.background = on;
    }

    /// Whether builds run on worker threads.
    pub fn background(&self) -> bool {
        self.background
    }

    /// Whether the wanted mesh is being built in the background (bots have
    /// no routes meanwhile).
    pub fn is_building(&self) -> bool {
        matches!(self.state, MeshState::Building { .. })
    }

    /// Results of background builds dropped because a newer build was
    /// wanted by the time they finished.
    pub fn discarded(&self) -> u32 {
        self.discarded
    }

    /// Sets the node cap used by the next build (`bot_navMaxNodes`).
    pub fn set_max_nodes(&mut self, max_nodes: usize) {
        self.max_nodes = max_nodes;
    }

    /// Forgets the mesh (the next `ensure` rebuilds); a build running in
    /// the background is discarded when it finishes.
    pub fn invalidate(&mut self) {
        self.state = MeshState::Empty;
        self.generation += 1;
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

    /// Which build the ready mesh is (a new build, a new number); `None`
    /// while there is none.
    pub fn ready_generation(&self) -> Option<u64> {
        matches!(self.state, MeshState::Ready { .. }).then_some(self.generation)
    }

    /// A navigator that owns what it reads (the mesh, the doors-open world
    /// it was built on, the gates, its own search scratch), for a caller
    /// that cannot borrow the match: a scripted brain's queries. Traces see
    /// the map's brushes with touch doors open, not the movers' live
    /// positions.
    pub fn shared(&self) -> Option<SharedNavigator> {
        match &self.state {
            MeshState::Ready { mesh, world, .. } => Some(SharedNavigator {
                mesh: Arc::clone(mesh),
                world: Arc::clone(world),
                gates: Arc::clone(&self.gates),
                scratch: SearchScratch::new(),
                stats: QueryStats::default(),
            }),
            _ => None,
        }
    }

    /// A navigator over the mesh and the live `world`, for one tick.
    pub fn navigator<'a>(&'a mut self, world: &'a CollisionWorld) -> Option<MeshNavigator<'a>> {
        match &self.state {
            MeshState::Ready { mesh, .. } => Some(MeshNavigator {
                mesh,
                world,
                scratch: &mut self.scratch,
                stats: &mut self.stats,
                gates: &self.gates,
            }),
            _ => None,
        }
    }

    /// One line for `botlist`.
    pub fn describe(&self) -> String {
        match &self.state {
            MeshState::Empty => "navmesh: not built (built when the first bot needs it)".to_owned(),
            MeshState::Ready { key, mesh, .. } => format!(
                "navmesh: {} ready, cell {}, {} nodes, {} links, {} areas, {} off-mesh links, built in {:.0} ms",
                key.map,
                key.cell_size,
                mesh.node_count(),
                mesh.link_count(),
                mesh.area_count(),
                mesh.off_mesh_links().len(),
                mesh.build_times().total_ms
            ),
            MeshState::Building { key, started, .. } => format!(
                "navmesh: building {} in the background ({:.0} ms so far; bots fight without routes until it is ready)",
                key.map,
                started.elapsed().as_secs_f64() * 1000.0
            ),
            MeshState::Failed { error, .. } => format!("navmesh: failed ({error})"),
        }
    }
}

/// The navigator while the mesh is being built in the background: not
/// ready, no routes, no standing spots. Bots plan nothing with it (their
/// planning waits for the mesh) and still aim, fight and dodge.
#[derive(Debug, Clone, Copy, Default)]
pub struct PendingNavigator;

impl Navigator for PendingNavigator {
    fn ready(&self) -> bool {
        false
    }

    fn route(&mut self, _from: Vec3, _to: Vec3, _traveller: Traveller) -> Option<Route> {
        None
    }

    fn nearest(&mut self, _point: Vec3, _radius: f32) -> Option<Vec3> {
        None
    }

    fn random_route(&mut self, _from: Vec3, _traveller: Traveller, _rng: &mut BotRng) -> Option<Route> {
        None
    }

    fn describe(&self) -> String {
        "navmesh: building".to_owned()
    }
}

/// The navmesh plus the live world and a search scratch: a [`Navigator`] for one tick.
pub struct MeshNavigator<'a> {
    mesh: &'a NavMesh,
    world: &'a CollisionWorld,
    scratch: &'a mut SearchScratch,
    stats: &'a mut QueryStats,
    gates: &'a [quarry_nav::gates::Gate],
}

/// A navigator owning shared handles on a built mesh: see
/// [`NavService::shared`].
pub struct SharedNavigator {
    mesh: Arc<NavMesh>,
    world: Arc<CollisionWorld>,
    gates: Arc<[quarry_nav::gates::Gate]>,
    scratch: SearchScratch,
    stats: QueryStats,
}

impl std::fmt::Debug for SharedNavigator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedNavigator").field("nodes", &self.mesh.node_count()).finish_non_exhaustive()
    }
}

impl SharedNavigator {
    /// Whether this navigator reads `other`'s mesh (the same build).
    pub fn same_mesh(&self, mesh: &SharedNavigator) -> bool {
        Arc::ptr_eq(&self.mesh, &mesh.mesh)
    }

    /// The borrowing navigator over these handles.
    fn borrow(&mut self) -> MeshNavigator<'_> {
        MeshNavigator {
            mesh: &self.mesh,
            world: &self.world,
            scratch: &mut self.scratch,
            stats: &mut self.stats,
            gates: &self.gates,
        }
    }
}

impl Navigator for SharedNavigator {
    fn ready(&self) -> bool {
        true
    }
    fn route(&mut self, from: Vec3, to: Vec3, traveller: Traveller) -> Option<Route> {
        self.borrow().route(from, to, traveller)
    }
    fn nearest(&mut self, point: Vec3, radius: f32) -> Option<Vec3> {
        self.borrow().nearest(point, radius)
    }
    fn random_route(&mut self, from: Vec3, traveller: Traveller, rng: &mut BotRng) -> Option<Route> {
        self.borrow().random_route(from, traveller, rng)
    }
    fn settle(&mut self, point: Vec3) -> Vec3 {
        self.borrow().settle(point)
    }
    fn clear_line(&mut self, from: Vec3, to: Vec3) -> bool {
        self.borrow().clear_line(from, to)
    }
    fn describe(&self) -> String {
        format!("navmesh: {} nodes, {} links (shared)", self.mesh.node_count(), self.mesh.link_count())
    }
    fn queries(&self) -> u64 {
        self.stats.routes + self.stats.nearest
    }
}

fn convert(route: quarry_nav::Route) -> Route {
    Route {
        corners: route
            .corners
            .iter()
            .map(|c| Corner {
                pos: c.origin,
                link: c.kind,
                entity: c.entity,
            })
            .collect(),
        cost: route.cost,
    }
}

/// The navmesh's route options for `traveller`: the defaults with its keys
/// and its caution (open ground weighed by the navmesh's exposure figure).
fn options(traveller: Traveller) -> RouteOptions {
    RouteOptions { keys: traveller.keys, exposure_weight: traveller.caution, ..RouteOptions::default() }
}

impl Navigator for MeshNavigator<'_> {
    fn ready(&self) -> bool {
        true
    }

    fn route(&mut self, from: Vec3, to: Vec3, traveller: Traveller) -> Option<Route> {
        let t = std::time::Instant::now();
        let r = self
            .mesh
            .route(self.world, self.scratch, from, to, &options(traveller))
            .ok()
            .map(convert);
        self.stats.routes += 1;
        self.stats.record(t);
        r
    }

    fn gate_opening(&mut self, from: Vec3, to: Vec3, traveller: Traveller, keys: &[(KeyKind, Vec3)]) -> Option<crate::navigate::GatePlan> {
        let t = std::time::Instant::now();
        let knowledge = quarry_nav::gates::KeyKnowledge { held: traveller.keys, lying: keys };
        let plan = quarry_nav::gates::plan(self.mesh, self.world, self.scratch, self.gates, from, to, &knowledge);
        self.stats.routes += 1;
        self.stats.record(t);
        plan
    }

    fn nearest(&mut self, point: Vec3, radius: f32) -> Option<Vec3> {
        let t = std::time::Instant::now();
        let id = self.mesh.nearest_node(self.world, point, radius);
        self.stats.nearest += 1;
        self.stats.record(t);
        self.mesh.node(id?).map(|n| n.origin)
    }

    fn settle(&mut self, point: Vec3) -> Vec3 {
        let t = std::time::Instant::now();
        let mut at = self.mesh.nearest_node(self.world, point, SETTLE_RADIUS);
        let mut out = point;
        // A pad may land on another pad: follow a few hops.
        for _ in 0..3 {
            let Some(id) = at else { break };
            let sends = self
                .mesh
                .links_from(id)
                .iter()
                .find(|l| matches!(l.kind, quarry_nav::LinkKind::JumpPad | quarry_nav::LinkKind::Teleport));
            let Some(link) = sends else { break };
            let Some(node) = self.mesh.node(link.to) else { break };
            out = node.origin;
            at = Some(link.to);
        }
        self.stats.nearest += 1;
        self.stats.record(t);
        out
    }

    fn clear_line(&mut self, from: Vec3, to: Vec3) -> bool {
        self.world.line_reaches(from, to, quarry_map::Contents::MASK_SHOT)
    }

    fn cover(&mut self, from: Vec3, threat_eye: Vec3, max_distance: f32) -> Option<Vec3> {
        let t = std::time::Instant::now();
        let cover = self.mesh.cover_spot(self.world, from, threat_eye, max_distance);
        self.stats.nearest += 1;
        self.stats.record(t);
        cover.map(|c| c.spot)
    }

    fn random_route(&mut self, from: Vec3, traveller: Traveller, rng: &mut BotRng) -> Option<Route> {
        let t = std::time::Instant::now();
        let r = self
            .mesh
            .random_reachable_point(self.world, self.scratch, from, rng.inner(), &options(traveller))
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

#[cfg(test)]
mod tests;
