//! Routing: snap both ends, reject a goal in another area without search,
//! A* with the chosen heuristic, re-check the route's links against movers
//! (excluding stale links and searching again a bounded number of times),
//! then string-pull the node chain into corners.
//!
//! Every query takes the *live* world (movers where they are now) and a
//! caller-owned [`SearchScratch`]; the mesh itself is read-only.

pub(crate) mod astar;
pub(crate) mod coarse;
pub(crate) mod cover;
pub(crate) mod heuristic;
pub(crate) mod memo;
pub(crate) mod pull;
pub(crate) mod roam;
pub(crate) mod snap;
pub(crate) mod validate;

use std::fmt;

use glam::Vec3;
use quarry_map::entities::items::KeySet;
use quarry_map::{EntityId, Trace};
use serde::Serialize;

use crate::error::RouteError;
use crate::graph::{LinkKind, NodeId};
use crate::mesh::NavMesh;
use astar::{SearchScratch, astar_weighted};
use heuristic::Heuristic;
use snap::{DEFAULT_SNAP_RADIUS, Toward};

/// Most stale links excluded (and searches repeated) before a query gives
/// up (the reference's `NAV_MAX_ROUTE_REPAIRS`).
pub const MAX_ROUTE_REPAIRS: u32 = 16;
/// Most nodes one string-pull step may skip (`NAV_SMOOTH_LOOKAHEAD`): each
/// skip costs a walkability proof.
pub const PULL_LOOKAHEAD: usize = 8;

/// One corner of a route: where to go next and how.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Corner {
    /// The player origin to reach.
    pub origin: Vec3,
    /// How to get here from the previous corner (or the start).
    pub kind: LinkKind,
    /// The jump pad or teleporter used to get here, if any.
    pub entity: Option<EntityId>,
    /// The node here; `None` for the goal itself.
    pub node: Option<NodeId>,
}

/// A route from a start to a goal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Route {
    /// The start as asked.
    pub start: Vec3,
    /// The goal as asked.
    pub goal: Vec3,
    /// The start after projecting it onto the floor (equal if grounded; the
    /// nearest touching node's origin if the box cannot stand there).
    pub routed_start: Vec3,
    /// The goal after projecting it onto the floor (or the nearest node
    /// touching it, if the box cannot stand there).
    pub routed_goal: Vec3,
    /// Where to go, in order; the last is the routed goal.
    pub corners: Vec<Corner>,
    /// Every node on the path, start node first.
    pub nodes: Vec<NodeId>,
    /// Exact cost: the access leg from the start to its node, the graph
    /// path, and the exit leg from the goal node to the routed goal.
    pub cost: f32,
    /// Nodes expanded over all searches of this query (through the region
    /// layer: the regions a search closed, or the corridor's regions when
    /// the distance table gave it).
    pub expansions: u32,
    /// Searches run (1 plus the repairs).
    pub searches: u32,
}

impl Route {
    /// Points along the route from its routed start through every corner,
    /// at most `step` units apart (for testing the route against boxes).
    pub(crate) fn points_along(&self, step: f32) -> Vec<Vec3> {
        let mut points = vec![self.routed_start];
        for c in &self.corners {
            let last = points.last().copied().unwrap_or(c.origin);
            let steps = (last.distance(c.origin) / step).ceil().max(1.0) as usize;
            points.extend((1..=steps).map(|i| last.lerp(c.origin, i as f32 / steps as f32)));
        }
        points
    }

    /// The remaining length from `origin`: the exact [`Route::cost`] when
    /// asked from the start (within 1 unit), else the distance to the first
    /// corner plus the corners' lengths.
    pub fn length_from(&self, origin: Vec3) -> f32 {
        if origin.distance(self.start) <= 1.0 {
            return self.cost;
        }
        let mut prev = origin;
        let mut len = 0.0;
        for c in &self.corners {
            len += prev.distance(c.origin);
            prev = c.origin;
        }
        len
    }

    /// Whether the route uses a link of `kind`.
    pub fn uses(&self, kind: LinkKind) -> bool {
        self.corners.iter().any(|c| c.kind == kind)
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = |v: Vec3| format!("({:.0} {:.0} {:.0})", v.x, v.y, v.z);
        writeln!(
            f,
            "route {} -> {}: cost {:.1}, {} corners, {} nodes, {} expansions, {} searches",
            p(self.start),
            p(self.goal),
            self.cost,
            self.corners.len(),
            self.nodes.len(),
            self.expansions,
            self.searches
        )?;
        for (i, c) in self.corners.iter().enumerate() {
            let entity = c
                .entity
                .map(|e| format!(" entity {}", e.0))
                .unwrap_or_default();
            writeln!(f, "  {i:3} {:8} {}{entity}", c.kind.name(), p(c.origin))?;
        }
        Ok(())
    }
}

/// How to answer a route query. Start from [`RouteOptions::default`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RouteOptions {
    /// The A* heuristic.
    pub heuristic: Heuristic,
    /// Turn the node chain into few corners (costs walkability probes);
    /// without it every node is a corner.
    pub string_pull: bool,
    /// Re-check links near movers against the live world.
    pub validate: bool,
    /// Most searches repeated after finding stale links.
    pub max_repairs: u32,
    /// How far from each end to look for a node.
    pub snap_radius: f32,
    /// Search the region layer and pull the string through its corridor
    /// (fast; [`crate::coarse_quality`] measures how close to the optimum);
    /// `false` runs A* on the cells with `heuristic` (the exact optimum).
    pub coarse: bool,
    /// The keys the player carries: key doors they open never bar the
    /// route (the door opens to the player's touch).
    pub keys: KeySet,
    /// How much a cautious player shuns open ground: above 0, every link's
    /// cost is multiplied by `1 + exposure_weight × exposure` of the node
    /// it enters ([`NavMesh::exposure`]; on the region layer, the region's
    /// mean), so routes prefer covered nodes. 0 (the default) leaves
    /// routes exactly as without the term. Costs only grow, so the
    /// heuristics stay lower bounds. The route's reported
    /// [`Route::cost`] stays its plain length, without the term. With a
    /// weight the region layer is searched rather than read from its
    /// distance table (which knows no weight).
    pub exposure_weight: f32,
}

impl Default for RouteOptions {
    fn default() -> Self {
        RouteOptions {
            heuristic: Heuristic::Alt,
            string_pull: true,
            validate: true,
            max_repairs: MAX_ROUTE_REPAIRS,
            snap_radius: DEFAULT_SNAP_RADIUS,
            coarse: true,
            keys: KeySet::NONE,
            exposure_weight: 0.0,
        }
    }
}

impl NavMesh {
    /// A route from `start` to `goal` (player origins; airborne ends are
    /// projected onto the floor) in the live `world`. See the module docs.
    pub fn route(
        &self,
        world: &dyn Trace,
        scratch: &mut SearchScratch,
        start: Vec3,
        goal: Vec3,
        options: &RouteOptions,
    ) -> Result<Route, RouteError> {
        self.route_seeing_through(world, scratch, start, goal, options, self.doors_opening_to(options.keys))
    }

    /// [`NavMesh::route`] for a player to whose touch exactly `doors` open
    /// (`options.keys` is not looked at): live validation counts a sweep
    /// one of them stops as clear. Gate planning asks this with every gate
    /// open but the ones it is working to open.
    pub(crate) fn route_seeing_through(
        &self,
        world: &dyn Trace,
        scratch: &mut SearchScratch,
        start: Vec3,
        goal: Vec3,
        options: &RouteOptions,
        doors: &[EntityId],
    ) -> Result<Route, RouteError> {
        if options.coarse && !self.regions.regions.is_empty() {
            return self.route_coarse(world, scratch, start, goal, options, doors);
        }
        let prober = self.prober_seeing_through(world, doors);
        scratch.memo.begin(self, doors);
        let (sn, rs) = self
            .snap_end(&prober, start, Toward::Node, options.snap_radius)
            .ok_or(RouteError::StartOffMesh)?;
        let (gn, rg) = self
            .snap_end(&prober, goal, Toward::Point, options.snap_radius)
            .ok_or(RouteError::GoalOffMesh)?;
        let node = |n: u32| {
            self.graph
                .nodes
                .get(n as usize)
                .copied()
                .ok_or(RouteError::NoPath)
        };
        let (s_node, g_node) = (node(sn)?, node(gn)?);
        if s_node.area != g_node.area {
            return Err(RouteError::DifferentAreas);
        }
        let mut route = Route {
            start,
            goal,
            routed_start: rs,
            routed_goal: rg,
            corners: Vec::new(),
            nodes: vec![NodeId(sn)],
            cost: rs.distance(start) + s_node.origin.distance(rs),
            expansions: 0,
            searches: 0,
        };
        if sn == gn {
            let goal_corner = Corner {
                origin: rg,
                kind: LinkKind::Walk,
                entity: None,
                node: None,
            };
            if prober.walkable_line(rs, rg) {
                route.cost = rs.distance(start) + rs.distance(rg);
                route.corners.push(goal_corner);
            } else {
                route.cost += s_node.origin.distance(rg);
                route.corners.push(Corner {
                    origin: s_node.origin,
                    kind: LinkKind::Walk,
                    entity: None,
                    node: Some(NodeId(sn)),
                });
                route.corners.push(goal_corner);
            }
            return Ok(route);
        }
        let mut rejected = Vec::new();
        let path = loop {
            let search = astar_weighted(self, scratch, sn, gn, options.heuristic, &rejected, options.exposure_weight);
            route.searches += 1;
            route.expansions += search.expansions;
            let Some(path) = search.path else {
                return Err(if rejected.is_empty() {
                    RouteError::NoPath
                } else {
                    RouteError::Blocked
                });
            };
            let stale = if options.validate {
                self.stale_links_grouped(&prober, &path.links, &mut scratch.memo)
            } else {
                Vec::new()
            };
            if stale.is_empty() {
                break path;
            }
            if route.searches > options.max_repairs {
                return Err(RouteError::Blocked);
            }
            rejected.extend(stale);
        };
        // With the exposure term the search's cost is weighted; the route
        // reports its length (summed in the search's order: the same bits).
        let path_cost = if options.exposure_weight > 0.0 {
            path.links.iter().filter_map(|&li| self.graph.hot.get(li as usize)).fold(0.0f32, |g, &(_, c)| g + c)
        } else {
            path.cost
        };
        route.cost += path_cost + g_node.origin.distance(rg);
        for &li in &path.links {
            route
                .nodes
                .extend(self.graph.links.get(li as usize).map(|l| l.to));
        }
        let ids: Vec<u32> = route.nodes.iter().map(|n| n.0).collect();
        route.corners = if options.string_pull {
            self.string_pull(&prober, &ids, &path.links, rs, rg)?
        } else {
            let mut corners: Vec<Corner> = Vec::with_capacity(ids.len() + 1);
            corners.extend(s_node_corner(s_node.origin, sn));
            for &li in &path.links {
                let Some(l) = self.graph.links.get(li as usize) else {
                    continue;
                };
                let origin = self.graph.nodes.get(l.to.index()).map_or(rg, |n| n.origin);
                corners.push(Corner {
                    origin,
                    kind: l.kind,
                    entity: l.entity,
                    node: Some(l.to),
                });
            }
            corners.push(Corner {
                origin: rg,
                kind: LinkKind::Walk,
                entity: None,
                node: None,
            });
            corners
        };
        Ok(route)
    }

    /// Whether `goal` can be reached from `start` (a full route query with
    /// validation but without string pulling: directed, so a ledge reached
    /// only by dropping is not reachable from below).
    pub fn is_reachable(
        &self,
        world: &dyn Trace,
        scratch: &mut SearchScratch,
        start: Vec3,
        goal: Vec3,
    ) -> bool {
        let options = RouteOptions {
            string_pull: false,
            ..RouteOptions::default()
        };
        self.route(world, scratch, start, goal, &options).is_ok()
    }
}

fn s_node_corner(origin: Vec3, n: u32) -> Option<Corner> {
    Some(Corner {
        origin,
        kind: LinkKind::Walk,
        entity: None,
        node: Some(NodeId(n)),
    })
}
