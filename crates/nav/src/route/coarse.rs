//! Routing through the region layer ([`crate::regions`]): locate both ends
//! in their regions (a point standing in a rectangle's cell needs no
//! probe; elsewhere the cell snap with its walkability proofs), search
//! the regions, re-check the corridor's links near movers against the
//! live world (excluding stale ones and searching again, as the cell
//! router does), then pull the string through the corridor.

use glam::Vec3;

use super::memo::{LineMemo, LinkMemo};
use super::pull::drop_walk_corners;
use super::snap::Toward;
use super::{Corner, Route, RouteOptions};
use crate::generate::probe::Prober;
use crate::error::RouteError;
use crate::graph::{LinkKind, NodeId};
use crate::mesh::NavMesh;
use crate::regions::funnel::{Gate, pull};
use crate::regions::search::{End, follow_table, search};
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
        doors: &[quarry_map::EntityId],
    ) -> Result<Route, RouteError> {
        let prober = self.prober_seeing_through(world, doors);
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
        // Crossings earlier routes found barred by movers that have not
        // moved since: left out from the start, and when they cut the goal
        // off, the route fails here.
        scratch.memo.begin(self, doors);
        let mut rejected: Vec<u32> = if options.validate { scratch.memo.barred_edges(self, &prober) } else { Vec::new() };
        let mut table = regions.table.clone();
        if s.region != g.region && !rejected.is_empty() {
            let (reachable, without) = scratch.memo.reachable(self, &rejected, s.region, g.region);
            if !reachable {
                return Err(RouteError::Blocked);
            }
            // The way round what is barred, from the table without it.
            table = without.unwrap_or(table);
        }
        let edges = loop {
            let from = End { region: s.region, pos: s.pos };
            let to = End { region: g.region, pos: g.pos };
            route.searches += 1;
            let clear = |corridor: &[u32]| corridor.iter().all(|e| rejected.binary_search(e).is_err());
            // The table knows no exposure weight: with one, search.
            let weighted = options.exposure_weight > 0.0;
            let found = if s.region == g.region {
                Some(Vec::new())
            } else if !weighted
                && let Some(corridor) = follow_table(regions, &table, from, to)
                && clear(&corridor)
            {
                route.expansions += corridor.len() as u32;
                Some(corridor)
            } else {
                search(self, regions, &mut scratch.regions, from, to, &rejected, options.exposure_weight, &mut route.expansions)
            };
            let Some(edges) = found else {
                return Err(if rejected.is_empty() { RouteError::NoPath } else { RouteError::Blocked });
            };
            let stale = if options.validate { self.stale_crossings(&prober, &edges, &mut scratch.memo) } else { Vec::new() };
            if stale.is_empty() {
                break edges;
            }
            if route.searches > options.max_repairs {
                return Err(RouteError::Blocked);
            }
            rejected.extend(stale);
            rejected.sort_unstable();
            rejected.dedup();
        };
        self.pull_corridor(&prober, &mut route, (s, g), &edges, options.string_pull, &mut scratch.lines);
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
    /// Lines between two nodes' origins are remembered in `lines`.
    fn straighten(&self, start: (Vec3, u32), corners: Vec<Corner>, lines: &mut LineMemo) -> Vec<Corner> {
        let at_origin = |n: Option<NodeId>, p: Vec3| n.filter(|n| self.graph.nodes.get(n.index()).is_some_and(|node| node.origin == p));
        drop_walk_corners((start.0, Some(NodeId(start.1))), corners, |(a, a_node), (b, b_node)| {
            // Between two nodes' origins the answer depends on the mesh alone.
            let key = at_origin(a_node, a).zip(at_origin(b_node, b)).map(|(x, y)| (x.0, y.0));
            if let Some(known) = key.and_then(|k| lines.get(self, k)) {
                return known;
            }
            let joined = self.along_rectangles((a, a_node.map_or(NONE, |n| n.0)), b);
            if let Some(k) = key {
                lines.insert(k, joined);
            }
            joined
        })
    }

    /// Whether the straight line `a` -> `b` runs over rectangle nodes only
    /// (`a`'s node is looked up unless `hint` is it),
    /// each cell it enters joined to the one before by walk links both ways
    /// (the links whose sweeps proved the floor between), so it is walkable
    /// without a probe. The cells are visited in the order the line crosses
    /// them (Amanatides and Woo's traversal), one axis step at a time;
    /// inside one rectangle a cell's node is found by its place in the
    /// block, and a step out of it by the rectangle's sides.
    fn along_rectangles(&self, (a, hint): (Vec3, u32), b: Vec3) -> bool {
        let step = self.agent.step_height + 1.0;
        let regions = &self.regions;
        let stands_at_a = |n: u32| {
            regions.is_rectangle(regions.of(n))
                && self.graph.nodes.get(n as usize).is_some_and(|node| node.cell == self.cell_of(a) && (node.origin.z - a.z).abs() <= step)
        };
        let start = if stands_at_a(hint) {
            Some(hint)
        } else {
            self.cells.nodes_in(self.cell_of(a)).iter().copied().find(|&n| stands_at_a(n))
        };
        let Some(start) = start else { return false };
        let mut region = regions.of(start);
        let line = LineCells::new(self, a, b);
        let (mut cell, last, dir) = (line.first, line.last, line.dir);
        let (tx, ty) = (|k: i32| line.crossing(0, k), |k: i32| line.crossing(1, k));
        // Boundaries crossed so far on each axis.
        let (mut ix, mut iy) = (0i32, 0i32);
        let most = (last[0] - cell[0]).abs() + (last[1] - cell[1]).abs();
        // Each pass crosses one rectangle: a line between two cells of a
        // block stays in it, so only its exit needs working out.
        for _ in 0..=most {
            let Some(rect) = regions.regions.get(region as usize) else { return false };
            if rect.member_index(last).is_some() {
                let end = regions.member_at(region, last).and_then(|n| self.graph.nodes.get(n as usize));
                return end.is_some_and(|node| (node.origin.z - b.z).abs() <= step);
            }
            // Boundary crossings left on each axis before the line is out.
            let left = |i: usize| match dir[i] {
                1 => rect.corner[i] + rect.size[i] - cell[i],
                -1 => cell[i] - rect.corner[i] + 1,
                // Never: a line along the other axis stays in the column.
                _ => 1 << 20,
            };
            let (nx, ny) = (left(0), left(1));
            let (out_x, out_y) = (tx(ix + nx - 1), ty(iy + ny - 1));
            if !out_x.is_finite() && !out_y.is_finite() {
                return false;
            }
            // The traversal steps along x while the next x crossing comes
            // strictly first, else along y: count the other axis's steps
            // before the exit, then take the exit step.
            let x_exits = out_x < out_y;
            let (steps_x, steps_y) = if x_exits {
                let before = |k: i32| ty(iy + k) <= out_x;
                (nx - 1, count_while(ny - 1, ((out_x - ty(iy)) / line.dt[1]) as i32 + 1, before))
            } else {
                let before = |k: i32| tx(ix + k) < out_y;
                (count_while(nx - 1, ((out_y - tx(ix)) / line.dt[0]).ceil() as i32, before), ny - 1)
            };
            ix += steps_x;
            iy += steps_y;
            cell = [cell[0] + dir[0] * steps_x, cell[1] + dir[1] * steps_y];
            let before = cell;
            let side = line.step(usize::from(!x_exits), &mut cell, [&mut ix, &mut iy]);
            let Some(next) = regions.across(region, before, side) else { return false };
            region = regions.of(next);
        }
        false
    }

    /// The corridor's edge indices whose link a mover can reach and the
    /// live world no longer allows, with every other edge crossing a stale
    /// link of the same movers (see [`NavMesh::stale_links_grouped`]).
    fn stale_crossings(&self, prober: &Prober<'_>, edges: &[u32], memo: &mut LinkMemo) -> Vec<u32> {
        let links: Vec<u32> = edges
            .iter()
            .filter_map(|&ei| match self.regions.edges.get(ei as usize).map(|e| e.crossing) {
                Some(Crossing::Link { link, .. }) => Some(link),
                _ => None,
            })
            .collect();
        let stale = self.stale_links_grouped(prober, &links, memo);
        let mut out: Vec<u32> = stale.iter().flat_map(|&li| memo.edges_crossing(li).iter().copied()).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Fills the route's corners, nodes and cost from the corridor.
    fn pull_corridor(&self, prober: &Prober<'_>, route: &mut Route, (s, g): (Located, Located), edges: &[u32], string_pull: bool, lines: &mut LineMemo) {
        let origin = |n: u32| self.graph.nodes.get(n as usize).map_or(Vec3::ZERO, |n| n.origin);
        let mut corners: Vec<Corner> = Vec::with_capacity(edges.len() + 2);
        let mut gates: Vec<Gate> = Vec::with_capacity(2 * edges.len() + 2);
        route.nodes.reserve(2 * edges.len() + 2);
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
                Crossing::Portal { near, far, at } => {
                    // Crossed from the near side to the far side.
                    let dir = (at[2] + at[3]) - (at[0] + at[1]);
                    gates.push(Gate::segment(at[0], at[1], near[0], near[1], dir));
                    gates.push(Gate::segment(at[2], at[3], far[0], far[1], dir));
                }
                Crossing::Link { link, .. } => {
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
            corners = self.straighten((s.pos, s.node), corners, lines);
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

/// The cells a straight line crosses, as Amanatides and Woo traverse
/// them: its first and last cell, which way it goes on each axis, and when
/// (as a share of the line) it crosses each cell boundary.
struct LineCells {
    first: [i32; 2],
    last: [i32; 2],
    /// -1, 0 or 1 per axis (0 for a line parallel to the other axis).
    dir: [i32; 2],
    /// Per axis: when the first boundary is crossed, and between two.
    t0: [f32; 2],
    dt: [f32; 2],
}

impl LineCells {
    fn new(mesh: &NavMesh, a: Vec3, b: Vec3) -> Self {
        let cs = mesh.cell_size();
        let (first, last) = (mesh.cell_of(a), mesh.cell_of(b));
        let d = (b - a).truncate();
        // `signum` would say 1 for 0.
        let sign = |v: f32| if v.abs() < 1e-6 { 0 } else { v.signum() as i32 };
        let dir = [sign(d.x), sign(d.y)];
        let (mut t0, mut dt) = ([f32::INFINITY; 2], [f32::INFINITY; 2]);
        for i in 0..2 {
            if dir[i] != 0 {
                let edge = if dir[i] > 0 { (first[i] + 1) as f32 * cs } else { first[i] as f32 * cs };
                (t0[i], dt[i]) = ((edge - a.truncate()[i]) / d[i], cs / d[i].abs());
            }
        }
        LineCells { first, last, dir, t0, dt }
    }

    /// One step across a cell boundary on `axis` (0 x, 1 y): moves `cell`,
    /// counts the crossing, and returns the side of the cell left (0 east,
    /// 1 north, 2 west, 3 south).
    fn step(&self, axis: usize, cell: &mut [i32; 2], crossed: [&mut i32; 2]) -> usize {
        let [ix, iy] = crossed;
        *(if axis == 0 { ix } else { iy }) += 1;
        cell[axis] += self.dir[axis];
        match (axis, self.dir[axis] > 0) {
            (0, true) => 0,
            (1, true) => 1,
            (0, false) => 2,
            _ => 3,
        }
    }

    /// When the line crosses its `k`th boundary (from 0) on `axis`:
    /// worked out from the count every time, so every traversal decides
    /// a tie the same way; never on an axis the line does not move along.
    #[inline]
    fn crossing(&self, axis: usize, k: i32) -> f32 {
        if self.dir[axis] == 0 { f32::INFINITY } else { self.t0[axis] + k as f32 * self.dt[axis] }
    }
}

/// How many of the steps `0..most` pass `passes` (which holds for a prefix
/// of them), starting the count from `guess` and correcting it by the test
/// itself, so rounding in the guess never decides.
fn count_while(most: i32, guess: i32, passes: impl Fn(i32) -> bool) -> i32 {
    if most <= 0 {
        return 0;
    }
    let mut k = guess.clamp(0, most);
    while k > 0 && !passes(k - 1) {
        k -= 1;
    }
    while k < most && passes(k) {
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use rand::{RngExt, SeedableRng};

    use crate::mesh::NavMesh;
    use crate::regions::NONE;

    /// [`NavMesh::along_rectangles`] one cell at a time, as it was before
    /// it learnt to cross whole rectangles: the reference it must agree with.
    fn along_cells(mesh: &NavMesh, a: Vec3, b: Vec3) -> bool {
        let step = mesh.agent.step_height + 1.0;
        let regions = &mesh.regions;
        let start = mesh.cells.nodes_in(mesh.cell_of(a)).iter().copied().find(|&n| {
            regions.is_rectangle(regions.of(n)) && mesh.graph.nodes.get(n as usize).is_some_and(|node| (node.origin.z - a.z).abs() <= step)
        });
        let Some(mut at) = start else { return false };
        let line = super::LineCells::new(mesh, a, b);
        let (mut cell, last) = (line.first, line.last);
        let (mut ix, mut iy) = (0i32, 0i32);
        for _ in 0..(last[0] - cell[0]).abs() + (last[1] - cell[1]).abs() {
            let before = cell;
            let (tx, ty) = (line.crossing(0, ix), line.crossing(1, iy));
            let side = line.step(usize::from(tx >= ty), &mut cell, [&mut ix, &mut iy]);
            let region = regions.of(at);
            at = match regions.member_at(region, cell) {
                Some(n) => n,
                None => match regions.across(region, before, side) {
                    Some(n) => n,
                    None => return false,
                },
            };
        }
        cell == last && mesh.graph.nodes.get(at as usize).is_some_and(|node| (node.origin.z - b.z).abs() <= step)
    }

    #[test]
    fn crossing_whole_rectangles_agrees_with_walking_every_cell() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
        for name in ["q_duel1.map", "q_dm1.map", "q_ctf1.map"] {
            let map = quarry_map::load(root.join(name), &quarry_map::LoadOptions::default()).expect("map loads");
            let world = crate::match_start_world(&map);
            let mesh = NavMesh::build_for_map(&map, &world, &[], &crate::Agent::default(), &crate::BuildOptions::default()).expect("mesh builds");
            let nodes = mesh.nodes();
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
            let (mut agree, mut walkable) = (0, 0);
            for _ in 0..4000 {
                let a = nodes[rng.random_range(0..nodes.len())].origin;
                // Mostly short lines (as straightening asks), some long.
                let b = if rng.random_range(0..4) == 0 {
                    nodes[rng.random_range(0..nodes.len())].origin
                } else {
                    a + Vec3::new(rng.random_range(-300.0..300.0), rng.random_range(-300.0..300.0), 0.0)
                };
                let fast = mesh.along_rectangles((a, NONE), b);
                assert_eq!(fast, along_cells(&mesh, a, b), "{name}: {a} -> {b}");
                agree += 1;
                walkable += usize::from(fast);
            }
            assert!(walkable * 10 > agree, "{name}: only {walkable} of {agree} lines walkable");
        }
    }
}
