//! `quarry-nav`: a navigation mesh generated at runtime from the collision
//! world with the player's own box, so bots get around any map without an
//! offline compile step, and routed with A* and landmarks.
//!
//! ```no_run
//! use quarry_nav::{Agent, BuildOptions, NavMesh, RouteOptions, SearchScratch};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let map = quarry_map::load("maps/q_dm1.map", &quarry_map::LoadOptions::default())?;
//! let agent = Agent::default(); // the caller builds it from the live movement cvars
//! let mesh = NavMesh::build_for_map(&map, map.world(), &[], &agent, &BuildOptions::default())?;
//! println!("{}", mesh.info());
//! let mut scratch = SearchScratch::new();
//! let (a, b) = (glam::Vec3::new(0.0, 0.0, 24.0), glam::Vec3::new(512.0, 0.0, 24.0));
//! let route = mesh.route(map.world(), &mut scratch, a, b, &RouteOptions::default())?;
//! println!("{route}");
//! # Ok(()) }
//! ```
//!
//! # Generation ([`NavMesh::build`])
//!
//! 1. Seeds (spawn points, items, jump pads and their targets, teleporter
//!    exits, players already in the map; [`NavInput`]) drop onto the floor
//!    and become nodes. No seeds: [`NavError::NoSeeds`].
//! 2. A breadth-first flood probes the 8 neighbour cells of every node with
//!    swept boxes: flat, lifted by a step, up a ramp, lifted by a jump,
//!    each falling onto the floor below within a bounded drop; the
//!    cheapest that works decides the link ([`LinkKind`]). Where a
//!    neighbour has no usable floor or only a drop, running jumps to cells
//!    further on are tried (across a gap, or down onto a platform across a
//!    void). Nodes are keyed by cell and height (a catwalk over a corridor
//!    gives two nodes in one column); none in lava, slime or hurt volumes.
//!    Probes of one flood level run in parallel.
//! 3. One-way off-mesh links from every node in a jump pad's volume to
//!    where its arc lands, and from every node in a teleporter to its
//!    destination; lift links from a `func_plat`'s lowered top to the floor
//!    at its raised top; swim links from the floor of deep water up and out
//!    onto a ledge at the surface. Touch-open doors (and gates bots open)
//!    are built through as open; key doors are walls.
//! 4. Areas (weak components) to reject unreachable goals without search;
//!    ALT landmarks by farthest-point selection (on first use).
//! 5. Exposure: per coarse group of nodes, the share of sampled observers
//!    in range that see a player standing there ([`NavMesh::exposure`]),
//!    within a fixed budget of sight lines; routes with
//!    [`RouteOptions::exposure_weight`] above 0 pay for it.
//!
//! # Routing ([`NavMesh::route`])
//!
//! Airborne ends are projected onto the floor, both ends snap to a node
//! joined by a provably walkable line, A* runs with [`Heuristic::Alt`] or
//! [`Heuristic::Euclid`] over scratch tagged by a search serial, links a
//! mover can reach are re-probed in the live world (stale ones excluded,
//! search repeated at most [`MAX_ROUTE_REPAIRS`] times), and string
//! pulling drops corners a box sweep proves unnecessary while keeping
//! both ends of every jump, drop, pad and teleport.
//!
//! # Reports and tools
//!
//! [`NavMesh::info`] (`navmesh info`), [`NavMesh::export_svg_with`]
//! (`navmesh export`: the mesh with a legend, a scale bar and the map's
//! [`SvgFeature`]s), [`Route`]'s `Display` (`navmesh route`), and
//! [`nav_info`] for `quarry-server nav-info FILE`: the figures plus
//! [`reachability_report`] (spawn-to-spawn and spawn-to-item pairs, the
//! unreachable ones listed with a reason) and [`heuristic_comparison`]
//! (ALT against Euclid and Dijkstra on seeded random queries).
//! `examples/nav_survey.rs` measures build time, coverage and
//! reachability across cell sizes; `examples/build_navmesh_svg.rs` runs
//! the `nav-info` report on one map and writes its picture.
//!
//! # What this crate must not do
//!
//! Know about ECS, the sim or bots (`map <- nav <- bots`): the world comes
//! in as a [`quarry_map::Trace`] and the agent as plain numbers the caller
//! reads from the movement cvars. It never uses movement constants of its
//! own, never mutates the world, reads no clock or global RNG during a
//! query (randomness comes from the caller's RNG), and panics on no map
//! content.

mod agent;
mod generate;
mod cells;
mod error;
mod explain;
pub mod footing;
pub mod gates;
mod graph;
mod mesh;
mod regions;
mod report;
mod route;
mod stats;
mod svg;
pub use svg::{SvgFeature, SvgFeatureKind, SvgItemKind, SvgMark, SvgOptions, SvgTeam};

pub use agent::{Agent, MAX_PLANNED_JUMP, SAFE_LANDING_SPEED};
pub use generate::input::{
    MoverSpec, NavInput, PadPush, PadSpec, Seed, SeedKind, TeleporterSpec, doors_open_world,
    is_touch_door, item_spot, match_start_world,
};
pub use generate::exposure::{
    EYE_HEIGHT, ExposureStats, GROUP_SIZE as EXPOSURE_GROUP_SIZE, MAX_LINES as EXPOSURE_MAX_LINES,
    MAX_OBSERVERS as EXPOSURE_MAX_OBSERVERS, MIN_OBSERVERS as EXPOSURE_MIN_OBSERVERS, RANGE as EXPOSURE_RANGE,
};
pub use generate::offmesh::{JUMPPAD_COST, OffMeshLink, TELEPORT_COST, jump_pad_velocity};
pub use generate::{
    BuildOptions, BuildTimes, CELL_SIZE_RANGE, DEFAULT_CELL_SIZE, DEFAULT_LANDMARKS,
    DEFAULT_MAX_NODES,
};
pub use error::{NavError, RouteError};
pub use explain::{UnreachableGoal, explain_unreachable};
pub use graph::{Link, LinkKind, Node, NodeId};
pub use mesh::NavMesh;
pub use report::{
    HeuristicComparison, ItemChain, NAV_INFO_QUERIES, NAV_INFO_SEED, NavInfoReport, ReachabilityReport,
    UnreachablePair, heuristic_comparison, item_chains, nav_info, reachability_report, reachability_report_in,
};
pub use regions::quality::{CoarseQuality, coarse_quality};
pub use route::astar::SearchScratch;
pub use route::cover::{Cover, MAX_LINES as COVER_MAX_LINES, MAX_VISITS as COVER_MAX_VISITS, MIN_MOVE as COVER_MIN_MOVE};
pub use route::heuristic::{Heuristic, UnknownHeuristic};
pub use route::snap::{DEFAULT_SNAP_RADIUS, MAX_SNAP_PROOFS};
pub use route::{Corner, MAX_ROUTE_REPAIRS, PULL_LOOKAHEAD, Route, RouteOptions};
pub use stats::{LinkCounts, NavInfo};

/// Drop and jump link penalties (added to the link's length), and the
/// extra for one onto a precarious landing.
pub use generate::flood::{DROP_PENALTY, JUMP_PENALTY, PRECARIOUS_MARGIN, PRECARIOUS_PENALTY};

#[cfg(test)]
mod tests;
