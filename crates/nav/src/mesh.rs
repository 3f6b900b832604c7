//! [`NavMesh`]: the built graph and what it was built from, shared
//! read-only by every query.

use glam::Vec3;
use quarry_map::entities::items::KeySet;
use quarry_map::{EntityId, Trace};

use crate::generate::probe::Prober;

use crate::agent::Agent;
use std::sync::OnceLock;

use crate::generate::landmarks::Landmarks;
use crate::generate::offmesh::OffMeshLink;
use crate::generate::exposure::{ExposureStats, LazyExposure};
use crate::generate::{BuildOptions, BuildTimes};
use crate::cells::CellGrid;
use crate::graph::{Graph, Link, Node, NodeId};

/// How many [`KeySet`]s there are (two keys, one bit each).
pub(crate) const KEY_SETS: usize = 4;

/// A navigation mesh: standing spots on a grid joined by directed links,
/// generated at runtime from the collision world with the player's box.
///
/// Build one with [`NavMesh::build`] or [`NavMesh::build_for_map`]; query
/// it with [`NavMesh::route`], [`NavMesh::nearest_node`],
/// [`NavMesh::is_reachable`] and [`NavMesh::random_reachable_point`];
/// describe it with [`NavMesh::info`] and [`NavMesh::export_svg`].
/// Positions are player origins (the box's reference point, 24 units above
/// the floor with the default box), world space, Quake units, Z up.
///
/// It holds no mutable state: many bots on many threads can query one
/// mesh, each with its own [`SearchScratch`](crate::SearchScratch).
#[derive(Debug, Clone)]
pub struct NavMesh {
    /// Tells this build from every other in the process (what a
    /// [`SearchScratch`](crate::SearchScratch) remembered about another
    /// mesh is dropped); a clone keeps it, being the same mesh.
    pub(crate) id: u64,
    pub(crate) agent: Agent,
    pub(crate) options: BuildOptions,
    pub(crate) graph: Graph,
    /// The coarse layer routes search.
    pub(crate) regions: crate::regions::Regions,
    pub(crate) cells: CellGrid,
    pub(crate) area_sizes: Vec<u32>,
    /// Per node, how much of the map sees it, 0 to 1, and per region the
    /// mean (the coarse router's term); measured after the build
    /// ([`crate::generate::exposure`]).
    pub(crate) exposure: std::sync::Arc<LazyExposure>,
    /// The ALT landmarks, chosen on first use: only the exact cell router
    /// (`RouteOptions::coarse = false`) and the mesh's reports need them.
    pub(crate) landmarks: OnceLock<LandmarkSet>,
    pub(crate) heuristic_scale: f32,
    /// The doors routes see through, by the keys the player carries
    /// ([`KeySet`] bits): touch-open doors, and key doors with their key.
    pub(crate) passable_doors: [Vec<EntityId>; KEY_SETS],
    /// Jump pad and teleporter volumes, which straight legs must not cross.
    pub(crate) warps: Vec<(Vec3, Vec3)>,
    pub(crate) off_mesh: Vec<OffMeshLink>,
    pub(crate) seeds: usize,
    pub(crate) seeds_used: usize,
    pub(crate) capped: bool,
    /// Whether the build met lava, slime or hurt volumes (routes then check
    /// the ground under straight lines for them).
    pub(crate) hazards: bool,
    pub(crate) warnings: Vec<String>,
    pub(crate) times: BuildTimes,
}

/// The ALT landmarks of a mesh with what choosing them found.
#[derive(Debug, Clone)]
pub(crate) struct LandmarkSet {
    pub(crate) landmarks: Landmarks,
    /// Nodes in the largest strongly connected component of their (large) area.
    pub(crate) core_nodes: usize,
    /// How long choosing them and their distance tables took, ms.
    pub(crate) ms: f64,
}

impl NavMesh {
    /// The ALT landmarks, chosen now if this is the first use.
    pub(crate) fn landmark_set(&self) -> &LandmarkSet {
        self.landmarks.get_or_init(|| {
            let started = std::time::Instant::now();
            let (comp, comp_sizes) = crate::generate::areas::strong_components(&self.graph);
            let core = crate::generate::landmarks::cores(&self.graph, &self.area_sizes, &comp, &comp_sizes);
            let core_nodes = core.iter().filter(|&&c| c).count();
            let landmarks = Landmarks::select(&self.graph, &core, self.options.landmarks, self.options.threads);
            LandmarkSet { landmarks, core_nodes, ms: started.elapsed().as_secs_f64() * 1000.0 }
        })
    }

    /// The ALT landmarks ([`NavMesh::landmark_set`]).
    #[inline]
    pub(crate) fn alt(&self) -> &Landmarks {
        &self.landmark_set().landmarks
    }

    /// The agent it was built for (after validation).
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The options it was built with (after clamping).
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// Grid cell size in units.
    pub fn cell_size(&self) -> f32 {
        self.options.cell_size
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.graph.nodes.len()
    }

    /// Number of links.
    pub fn link_count(&self) -> usize {
        self.graph.links.len()
    }

    /// Every node, indexed by [`NodeId`].
    pub fn nodes(&self) -> &[Node] {
        &self.graph.nodes
    }

    /// One node.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.graph.nodes.get(id.index())
    }

    /// The links leaving a node.
    pub fn links_from(&self, id: NodeId) -> &[Link] {
        self.graph.links_from(id.0).1
    }

    /// The nodes in the grid column of `cell` (a catwalk over a corridor
    /// has two), bottom to top.
    pub fn nodes_in_cell(&self, cell: [i32; 2]) -> Vec<NodeId> {
        let mut ids: Vec<NodeId> = self
            .cells
            .nodes_in(cell)
            .iter()
            .map(|&i| NodeId(i))
            .collect();
        ids.sort_by(|a, b| {
            let z = |n: &NodeId| self.node(*n).map_or(0.0, |n| n.origin.z);
            z(a).total_cmp(&z(b))
        });
        ids
    }

    /// The grid cell containing `point`.
    pub fn cell_of(&self, point: Vec3) -> [i32; 2] {
        let s = self.cell_size();
        [crate::cells::floor_i32(point.x / s), crate::cells::floor_i32(point.y / s)]
    }

    /// Number of areas (weakly connected components).
    pub fn area_count(&self) -> usize {
        self.area_sizes.len()
    }

    /// The jump pad and teleporter links.
    pub fn off_mesh_links(&self) -> &[OffMeshLink] {
        &self.off_mesh
    }

    /// Whether the node cap stopped the flood (part of the map is unnavigable).
    pub fn capped(&self) -> bool {
        self.capped
    }

    /// Warnings from the build (node cap, triggers that got no link).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// How long each build phase took.
    pub fn build_times(&self) -> &BuildTimes {
        &self.times
    }

    /// How exposed `node` is: the share of sampled observers within
    /// [`EXPOSURE_RANGE`](crate::EXPOSURE_RANGE) whose eye sees a player's
    /// chest standing there, from 0 (covered) to 1 (seen from everywhere
    /// sampled). Measured once per coarse group of nodes (see
    /// [`ExposureStats`]); 0 for a node not in the mesh.
    ///
    /// The figures are measured on a thread of their own after a map's
    /// build; the first call before it is done waits for them.
    pub fn exposure(&self, node: NodeId) -> f32 {
        self.exposures().get(node.index()).copied().unwrap_or(0.0)
    }

    /// Every node's [`NavMesh::exposure`], indexed by [`NodeId`].
    pub fn exposures(&self) -> &[f32] {
        &self.exposure.get().nodes
    }

    /// The exposure where a player stands at `point` (an origin): that of
    /// the node in its grid cell nearest in height, within a step and a
    /// jump; `None` off the mesh. No trace: for reading the figure along a
    /// route's corners.
    pub fn exposure_at(&self, point: Vec3) -> Option<f32> {
        let reach = self.agent.step_height + self.agent.jump_height;
        self.cells
            .nodes_in(self.cell_of(point))
            .iter()
            .filter_map(|&n| Some((n, (self.graph.nodes.get(n as usize)?.origin.z - point.z).abs())))
            .filter(|&(_, dz)| dz <= reach)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(n, _)| self.exposure(NodeId(n)))
    }

    /// How much of `route` is in the open: the mean [`NavMesh::exposure_at`]
    /// of points along its legs (from its routed start through every
    /// corner) a cell apart; 0 for a route with no point on the mesh.
    pub fn route_exposure(&self, route: &crate::Route) -> f32 {
        let (sum, n) = route
            .points_along(self.cell_size())
            .into_iter()
            .filter_map(|p| self.exposure_at(p))
            .fold((0.0f32, 0u32), |(s, n), e| (s + e, n + 1));
        if n == 0 { 0.0 } else { sum / n as f32 }
    }

    /// What the build's exposure pass found: groups, sight lines traced,
    /// and the spread of the figure over the nodes.
    pub fn exposure_stats(&self) -> &ExposureStats {
        &self.exposure.get().stats
    }

    /// How long measuring the exposure took, ms, once it is done (`None`
    /// while its thread is still at it).
    pub fn exposure_ms(&self) -> Option<f64> {
        self.exposure.ready().map(|m| m.ms)
    }

    /// Every region's exposure (the mean of its nodes'), for the coarse
    /// router's cost term; waits for the figures like
    /// [`NavMesh::exposures`].
    pub(crate) fn region_exposures(&self) -> &[f32] {
        &self.exposure.get().regions
    }

    /// The landmark nodes of the ALT heuristic.
    pub fn landmarks(&self) -> Vec<NodeId> {
        self.alt().nodes.iter().map(|&n| NodeId(n)).collect()
    }

    /// Fills the region distance table now. After a build its rows fill
    /// on a background thread, and a route needing a row not filled yet
    /// computes it first (the same row either way); a benchmark or a tool
    /// timing routes calls this to time them on a full table.
    pub fn fill_region_table(&self) {
        self.regions.table.fill();
    }

    /// A prober in the live `world` for queries on this mesh.
    pub(crate) fn prober<'a>(&'a self, world: &'a dyn Trace) -> Prober<'a> {
        self.prober_with_keys(world, KeySet::NONE)
    }

    /// A prober for route queries of a player carrying `keys`: key doors
    /// whose key is among them open to its touch, so they never bar it.
    pub(crate) fn prober_with_keys<'a>(&'a self, world: &'a dyn Trace, keys: KeySet) -> Prober<'a> {
        self.prober_seeing_through(world, self.doors_opening_to(keys))
    }

    /// The doors that open to the touch of a player carrying `keys`.
    pub(crate) fn doors_opening_to(&self, keys: KeySet) -> &[EntityId] {
        &self.passable_doors[usize::from(keys.0) % KEY_SETS]
    }

    /// The touch-open doors (routes of every player see through them).
    pub(crate) fn touch_doors(&self) -> &[EntityId] {
        self.doors_opening_to(KeySet::NONE)
    }

    /// A prober to which exactly `doors` open on touch.
    pub(crate) fn prober_seeing_through<'a>(&'a self, world: &'a dyn Trace, doors: &'a [EntityId]) -> Prober<'a> {
        Prober::new(world, &self.agent, self.cell_size(), doors)
            .with_hazards(self.hazards)
            .with_warps(&self.warps)
            .with_line_focus()
    }

    /// Approximate heap bytes held by the mesh.
    pub fn memory_bytes(&self) -> usize {
        self.graph.memory_bytes()
            + self.regions.memory_bytes()
            + self.cells.memory_bytes()
            + self.landmarks.get().map_or(0, |l| l.landmarks.memory_bytes())
            + self.area_sizes.capacity() * 4
            + self.exposure.ready().map_or(0, |m| m.nodes.capacity() * 4 + m.regions.capacity() * 4)
            + self
                .off_mesh
                .iter()
                .map(|l| l.entries.capacity() * 4 + size_of::<OffMeshLink>())
                .sum::<usize>()
    }
}
