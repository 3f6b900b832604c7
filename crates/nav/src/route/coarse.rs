//! Routing through the region layer ([`crate::regions`]): locate both ends
//! in their regions (a point standing in a rectangle's cell needs no
//! probe; elsewhere the cell snap with its walkability proofs), search
//! the regions, re-check the corridor's links near movers against the
//! live world (excluding stale ones and searching again, as the cell
//! router does), then pull the string through the corridor.

use glam::Vec3;

use super::snap::Toward;
use super::{Corner, Route, RouteOptions};
use crate::build::probe::Prober;
use crate::error::RouteError;
use crate::graph::{LinkKind, NodeId};
use crate::mesh::NavMesh;
use crate::regions::funnel::{Gate, pull};
use crate::regions::search::{End, search};
use crate::regions::{Crossing, NONE};
use crate::route::astar::SearchScratch;

/// Where a route end meets the region layer.
#[derive(Debug, Clone, Copy)]
struct Located {
    region: u32,
    /// The point routed from or to (on the floor).
    pos: Vec3,
    /// Its node.
    node: u32,
    /// The route passes through this node's origin next to the end (the
    /// end was snapped with a proof, not found inside a rectangle).
    via: bool,
}

impl NavMesh {
    /// A route through the region layer; see the module docs.
    pub(crate) fn route_coarse(
        &self,
        world: &dyn quarry_map::Trace,
        scratch: &mut SearchScratch,
        start: Vec3,
        goal: Vec3,
        options: &RouteOptions,
    ) -> Result<Route, RouteError> {
        let prober = self.prober(world);
        let s = self.locate(&prober, start, Toward::Node, options.snap_radius).ok_or(RouteError::StartOffMesh)?;
        let g = self.locate(&prober, goal, Toward::Point, options.snap_radius).ok_or(RouteError::GoalOffMesh)?;
        let area = |n: u32| self.graph.nodes.get(n as usize).map(|n| n.area);
        if area(s.node) != area(g.node) {
            return Err(RouteError::DifferentAreas);
        }
        let regions = &self.regions;
        let mut route = Route {
            start,
            goal,
            routed_start: s.pos,
            routed_goal: g.pos,
            corners: Vec::new(),
            nodes: vec![NodeId(s.node)],
            cost: 0.0,
            expansions: 0,
            searches: 0,
        };
        let mut rejected: Vec<u32> = Vec::new();
        let edges = loop {
            let from = End { region: s.region, pos: s.pos, node: s.node };
            let to = End { region: g.region, pos: g.pos, node: g.node };
            route.searches += 1;
            let found = if s.region == g.region {
                Some(Vec::new())
            } else {
                search(self, regions, &mut scratch.regions, from, to, &rejected, &mut route.expansions)
            };
            let Some(edges) = found else {
                return Err(if rejected.is_empty() { RouteError::NoPath } else { RouteError::Blocked });
            };
            let stale = if options.validate { self.stale_crossings(&prober, &edges) } else { Vec::new() };
            if stale.is_empty() {
                break edges;
            }
            if route.searches > options.max_repairs {
                return Err(RouteError::Blocked);
            }
            rejected.extend(stale);
        };
        self.pull_corridor(&prober, &mut route, s, g, &edges, options.string_pull);
        Ok(route)
    }

    /// The end's region: the node standing in the point's own cell at its
    /// height when that node is in a rectangle (no probe needed), else the
    /// cell snap's node (with its walkability proof).
    fn locate(&self, prober: &Prober<'_>, point: Vec3, toward: Toward, radius: f32) -> Option<Located> {
        let step = self.agent.step_height + 1.0;
        let standing_in_rectangle = |p: Vec3| {
            let (n, _) = self
                .cells
                .nodes_in(self.cell_of(p))
                .iter()
                .copied()
                .filter_map(|n| Some((n, (self.graph.nodes.get(n as usize)?.origin.z - p.z).abs())))
                .filter(|&(_, dz)| dz <= step)
                .min_by(|a, b| a.1.total_cmp(&b.1))?;
            let region = self.regions.of(n);
            self.regions.is_rectangle(region).then_some(Located { region, pos: p, node: n, via: false })
        };
        // A point standing within a step of a rectangle node of its own
        // cell is on its floor already: no projection, no probe.
        if point.is_finite()
            && let Some(found) = standing_in_rectangle(point)
        {
            return Some(found);
        }
        let p = self.project(prober, point);
        if p.is_finite()
            && let Some(found) = standing_in_rectangle(p)
        {
            return Some(found);
        }
        let (n, pos) = self.snap_end(prober, point, toward, radius)?;
        let region = self.regions.of(n);
        (region != NONE).then_some(Located { region, pos, node: n, via: true })
    }

    /// Drops a walk corner whenever the corner before it (or the start)
    /// reaches the one after it along the grid of rectangles
    /// ([`NavMesh::along_rectangles`]): the corridor the search chose may
    /// bend where the straight line runs through neighbouring regions.
    /// Corners of special links are kept.
    fn straighten(&self, start: Vec3, corners: Vec<Corner>) -> Vec<Corner> {
        let mut out: Vec<Corner> = Vec::with_capacity(corners.len());
        for c in corners {
            while c.kind == LinkKind::Walk && out.last().is_some_and(|l| l.kind == LinkKind::Walk) {
                let before = if out.len() >= 2 { out[out.len() - 2].origin } else { start };
                if !self.along_rectangles(before, c.origin) {
                    break;
                }
                out.pop();
            }
            out.push(c);
        }
        out
    }

    /// Whether the straight line `a` -> `b` runs over rectangle nodes only,
    /// each cell it enters joined to the one before by walk links both ways
    /// (the links whose sweeps proved the floor between), so it is walkable
    /// without a probe. The cells are visited in the order the line crosses
    /// them (Amanatides and Woo's traversal), one axis step at a time.
    fn along_rectangles(&self, a: Vec3, b: Vec3) -> bool {
        let step = self.agent.step_height + 1.0;
        let start = self
            .cells
            .nodes_in(self.cell_of(a))
            .iter()
            .copied()
            .filter(|&n| self.graph.nodes.get(n as usize).is_some_and(|node| (node.origin.z - a.z).abs() <= step))
            .find(|&n| self.regions.is_rectangle(self.regions.of(n)));
        let Some(mut at) = start else { return false };
        let cs = self.cell_size();
        let (mut cell, last) = (self.cell_of(a), self.cell_of(b));
        let d = (b - a).truncate();
        let dir = [d.x.signum() as i32, d.y.signum() as i32];
        // Distance (as a fraction of the line) to the next cell boundary on
        // each axis, and between boundaries.
        let axis = |i: usize| {
            let (p, v) = (a.truncate()[i], d[i]);
            if v.abs() < 1e-6 {
                return (f32::INFINITY, f32::INFINITY);
            }
            let edge = if v > 0.0 { (cell[i] + 1) as f32 * cs } else { cell[i] as f32 * cs };
            ((edge - p) / v, cs / v.abs())
        };
        let ((mut tx, dtx), (mut ty, dty)) = (axis(0), axis(1));
        let most = (last[0] - cell[0]).abs() + (last[1] - cell[1]).abs();
        for _ in 0..most {
            if tx < ty {
                cell[0] += dir[0];
                tx += dtx;
            } else {
                cell[1] += dir[1];
                ty += dty;
            }
            let Some(next) = self.grid_step(at, cell) else { return false };
            at = next;
        }
        cell == last && self.graph.nodes.get(at as usize).is_some_and(|node| (node.origin.z - b.z).abs() <= step)
    }

    /// The rectangle node in `cell` joined to node `at` by walk links both
    /// ways (none near a mover), if any.
    fn grid_step(&self, at: u32, cell: [i32; 2]) -> Option<u32> {
        // Inside one rectangle every neighbour is joined by construction.
        let region = self.regions.of(at);
        if let Some(&same) = self.cells.nodes_in(cell).iter().find(|&&n| self.regions.of(n) == region) {
            return Some(same);
        }
        let walks = |x: u32, y: u32| self.graph.links_from(x).1.iter().any(|l| l.to.0 == y && l.kind == LinkKind::Walk && !l.near_mover);
        self.cells
            .nodes_in(cell)
            .iter()
            .copied()
            .find(|&n| self.regions.is_rectangle(self.regions.of(n)) && walks(at, n) && walks(n, at))
    }

    /// The corridor's edge indices whose link a mover can reach and the
    /// live world no longer allows.
    fn stale_crossings(&self, prober: &Prober<'_>, edges: &[u32]) -> Vec<u32> {
        edges
            .iter()
            .copied()
            .filter(|&ei| match self.regions.edges.get(ei as usize).map(|e| e.crossing) {
                Some(Crossing::Link { link }) => !self.link_traversable(prober, link),
                _ => false,
            })
            .collect()
    }

    /// Fills the route's corners, nodes and cost from the corridor.
    fn pull_corridor(&self, prober: &Prober<'_>, route: &mut Route, s: Located, g: Located, edges: &[u32], string_pull: bool) {
        let origin = |n: u32| self.graph.nodes.get(n as usize).map_or(Vec3::ZERO, |n| n.origin);
        let mut corners: Vec<Corner> = Vec::new();
        let mut gates: Vec<Gate> = Vec::new();
        let mut from = s.pos;
        // An end snapped with a proof goes by its node; so do both ends of
        // a route inside one region that a straight line cannot join (a
        // pillar between two points of one cell).
        let direct = edges.is_empty() && (s.via || g.via || prober.walkable_line(s.pos, g.pos));
        if s.via || !direct && edges.is_empty() {
            gates.push(Gate::point(origin(s.node), Some(s.node)));
        }
        let walk_corner = |p: Vec3, node: Option<u32>| Corner { origin: p, kind: LinkKind::Walk, entity: None, node: node.map(NodeId) };
        let flush = |from: Vec3, gates: &mut Vec<Gate>, to: Vec3, corners: &mut Vec<Corner>| {
            if string_pull {
                corners.extend(pull(from, gates, to).into_iter().map(|(p, n)| walk_corner(p, n)));
            } else {
                corners.extend(gates.iter().map(|gt| walk_corner(gt.middle(), gt.left_node)));
                corners.push(walk_corner(to, None));
            }
            gates.clear();
        };
        for &ei in edges {
            let Some(edge) = self.regions.edges.get(ei as usize) else { continue };
            match edge.crossing {
                Crossing::Portal { near, far, .. } => {
                    // Crossed from the near side to the far side.
                    let dir = (origin(far[0]) + origin(far[1])) - (origin(near[0]) + origin(near[1]));
                    for [a, b] in [near, far] {
                        gates.push(Gate::segment(origin(a), origin(b), a, b, dir));
                    }
                }
                Crossing::Link { link } => {
                    let (Some(l), Some(&src)) = (self.graph.links.get(link as usize), self.graph.source.get(link as usize)) else { continue };
                    let (a, b) = (origin(src), origin(l.to.0));
                    route.nodes.push(NodeId(src));
                    route.nodes.push(l.to);
                    if l.kind == LinkKind::Walk {
                        gates.push(Gate::point(a, Some(src)));
                        gates.push(Gate::point(b, Some(l.to.0)));
                    } else {
                        // A committed action: the funnel ends at its entry;
                        // its exit starts the next one.
                        flush(from, &mut gates, a, &mut corners);
                        if let Some(c) = corners.last_mut()
                            && c.origin.distance(a) < 1e-3
                        {
                            c.node = Some(NodeId(src));
                        }
                        corners.push(Corner { origin: b, kind: l.kind, entity: l.entity, node: Some(l.to) });
                        from = b;
                    }
                }
            }
        }
        if (g.via || !direct && edges.is_empty()) && g.node != s.node {
            gates.push(Gate::point(origin(g.node), Some(g.node)));
        }
        flush(from, &mut gates, g.pos, &mut corners);
        if corners.len() >= 2
            && let Some(last) = corners.last()
            && last.kind == LinkKind::Walk
            && last.origin.distance(g.pos) < 1e-3
            && corners[corners.len() - 2].origin.distance(g.pos) < 1e-3
        {
            corners.pop();
        }
        // Straightening proves lines on the grid of cells; a route inside
        // one region, or one that goes by an end's node, keeps its corners.
        if string_pull && !edges.is_empty() && !s.via && !g.via {
            corners = self.straighten(s.pos, corners);
        }
        route.nodes.push(NodeId(g.node));
        route.nodes.dedup();
        // Cost: the access leg, then each leg's length, a special link's own cost.
        let mut cost = route.start.distance(s.pos);
        let mut prev = s.pos;
        let mut prev_node: Option<NodeId> = None;
        for c in &corners {
            cost += match (c.kind, prev_node, c.node) {
                (k, Some(a), Some(b)) if k.is_special() => self.graph.links_from(a.0).1.iter().find(|l| l.to == b).map_or(prev.distance(c.origin), |l| l.cost),
                _ => prev.distance(c.origin),
            };
            prev = c.origin;
            prev_node = c.node;
        }
        route.cost = cost;
        route.corners = corners;
    }
}
