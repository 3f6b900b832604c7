//! Building the region layer from a finished graph: rectangles grown
//! greedily from the lowest row up, then the crossings between regions.
//! Deterministic: nodes are visited in (row, column, height) order.

use glam::Vec3;

use super::{Crossing, Edge, MAX_SIDE, NONE, Region, Regions};
use crate::build::landmarks::Landmarks;
use crate::cells::CellGrid;
use crate::graph::{Graph, LinkKind};

/// East, north, west, south, as cell offsets.
const DIRS: [[i32; 2]; 4] = [[1, 0], [0, 1], [-1, 0], [0, -1]];
const EAST: usize = 0;
const NORTH: usize = 1;

/// Builds the regions of `graph` (`cells` indexes its nodes by column;
/// `step` is the agent's step height).
pub(crate) fn build(graph: &Graph, cells: &CellGrid, landmarks: &Landmarks, step: f32) -> Regions {
    let n = graph.nodes.len();
    let eligible = eligible_nodes(graph);
    let neighbours = walk_neighbours(graph, cells, &eligible, step);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| {
        let (na, nb) = (&graph.nodes[a as usize], &graph.nodes[b as usize]);
        (na.cell[1], na.cell[0]).cmp(&(nb.cell[1], nb.cell[0])).then(na.origin.z.total_cmp(&nb.origin.z)).then(a.cmp(&b))
    });
    let mut region_of = vec![NONE; n];
    let mut regions: Vec<Region> = Vec::new();
    let mut members: Vec<Vec<u32>> = Vec::new();
    for &start in &order {
        let s = start as usize;
        if region_of[s] != NONE {
            continue;
        }
        let id = regions.len() as u32;
        let area = graph.nodes[s].area;
        let (block, single) = if eligible[s] { (grow_rectangle(start, &neighbours, &region_of), NONE) } else { (vec![start], start) };
        for &m in &block {
            region_of[m as usize] = id;
        }
        regions.push(Region { area, single });
        members.push(block);
    }
    let rectangles = regions.iter().filter(|r| r.single == NONE).count();
    let mut first = Vec::with_capacity(regions.len() + 1);
    let mut edges = Vec::new();
    let mut portal_rows: Vec<PortalRow> = Vec::new();
    for (r, nodes) in members.iter().enumerate() {
        first.push(edges.len() as u32);
        portal_rows.clear();
        for &from in nodes {
            let (base, links) = graph.links_from(from);
            for (i, link) in links.iter().enumerate() {
                let to = link.to.0;
                let s = region_of.get(to as usize).copied().unwrap_or(NONE);
                if s == NONE || s as usize == r {
                    continue;
                }
                let dir = (0..4).find(|&d| neighbours[from as usize][d] == to);
                let both_rectangles = regions[r].single == NONE && regions[s as usize].single == NONE;
                match dir {
                    Some(d) if both_rectangles && link.kind == LinkKind::Walk => {
                        let cell = graph.nodes[from as usize].cell;
                        // Position along the shared side: the row for east and
                        // west sides, the column for north and south.
                        let along = if d % 2 == 0 { cell[1] } else { cell[0] };
                        portal_rows.push(PortalRow { to: s, dir: d as u8, along, from, into: to });
                    }
                    _ => edges.push(Edge { to: s, crossing: Crossing::Link { link: (base + i) as u32 }, entry_node: to }),
                }
            }
        }
        portal_rows.sort_by_key(|p| (p.to, p.dir, p.along));
        // A diagonal walk into a rectangle this one shares a portal with
        // adds nothing the portal does not give (at a few units more).
        let region_start = first[r] as usize;
        let portal_to: Vec<u32> = portal_rows.iter().map(|p| p.to).collect();
        let mut kept = Vec::with_capacity(edges.len() - region_start);
        for e in edges.drain(region_start..) {
            let redundant = match e.crossing {
                Crossing::Link { link } => {
                    graph.links.get(link as usize).is_some_and(|l| l.kind == LinkKind::Walk) && portal_to.binary_search(&e.to).is_ok()
                }
                Crossing::Portal { .. } => false,
            };
            if !redundant {
                kept.push(e);
            }
        }
        edges.extend(kept);
        let mut i = 0;
        while i < portal_rows.len() {
            let mut j = i + 1;
            while j < portal_rows.len() {
                let (prev, next) = (&portal_rows[j - 1], &portal_rows[j]);
                if next.to != prev.to || next.dir != prev.dir || next.along != prev.along + 1 {
                    break;
                }
                j += 1;
            }
            let run = &portal_rows[i..j];
            if let (Some(first_row), Some(last_row)) = (run.first(), run.last()) {
                let middle = &run[run.len() / 2];
                edges.push(Edge {
                    to: first_row.to,
                    crossing: Crossing::Portal {
                        near: [first_row.from, last_row.from],
                        far: [first_row.into, last_row.into],
                        at: [first_row.from, last_row.from, first_row.into, last_row.into].map(|n| graph.nodes[n as usize].origin),
                    },
                    entry_node: middle.into,
                });
            }
            i = j;
        }
    }
    first.push(edges.len() as u32);
    let landmark_bounds = landmark_bounds(&members, landmarks);
    Regions { region_of, regions, first, edges, rectangles, landmark_bounds }
}

/// Per region, the largest landmark-to-node distance and the smallest
/// node-to-landmark distance over its nodes (see [`Regions::landmark_bounds`]).
fn landmark_bounds(members: &[Vec<u32>], landmarks: &Landmarks) -> Vec<f32> {
    let k = landmarks.count();
    let mut out = Vec::with_capacity(members.len() * 2 * k);
    for nodes in members {
        let (mut fwd, mut bwd) = (vec![f32::NEG_INFINITY; k], vec![f32::INFINITY; k]);
        for &n in nodes {
            for (acc, &d) in fwd.iter_mut().zip(landmarks.fwd_row(n)) {
                *acc = acc.max(d);
            }
            for (acc, &d) in bwd.iter_mut().zip(landmarks.bwd_row(n)) {
                *acc = acc.min(d);
            }
        }
        out.extend(fwd);
        out.extend(bwd);
    }
    out
}

/// One row of a portal: a walk link across the side of a rectangle.
#[derive(Debug, Clone, Copy)]
struct PortalRow {
    to: u32,
    dir: u8,
    along: i32,
    from: u32,
    into: u32,
}

/// Nodes that may join a rectangle: no link into or out of them passes
/// near a mover (those are re-checked against the live world per route).
fn eligible_nodes(graph: &Graph) -> Vec<bool> {
    let mut ok = vec![true; graph.nodes.len()];
    for (li, link) in graph.links.iter().enumerate() {
        if link.near_mover {
            if let Some(&s) = graph.source.get(li) {
                ok[s as usize] = false;
            }
            if let Some(t) = ok.get_mut(link.to.index()) {
                *t = false;
            }
        }
    }
    ok
}

/// For each node, its neighbour in each of the four directions joined by
/// walk links both ways, within a step of its height ([`NONE`] if none).
fn walk_neighbours(graph: &Graph, cells: &CellGrid, eligible: &[bool], step: f32) -> Vec<[u32; 4]> {
    let walks = |a: u32, b: u32| graph.links_from(a).1.iter().any(|l| l.to.0 == b && l.kind == LinkKind::Walk && !l.near_mover);
    graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let mut out = [NONE; 4];
            if !eligible[i] {
                return out;
            }
            for (d, off) in DIRS.iter().enumerate() {
                let cell = [node.cell[0] + off[0], node.cell[1] + off[1]];
                let mut best: Option<(u32, f32)> = None;
                for &m in cells.nodes_in(cell) {
                    let Some(other) = graph.nodes.get(m as usize) else { continue };
                    let dz = (other.origin.z - node.origin.z).abs();
                    if !eligible[m as usize] || dz > step + 1.0 || best.is_some_and(|(_, b)| dz >= b) {
                        continue;
                    }
                    if walks(i as u32, m) && walks(m, i as u32) {
                        best = Some((m, dz));
                    }
                }
                if let Some((m, _)) = best {
                    out[d] = m;
                }
            }
            out
        })
        .collect()
}

/// The largest block grown from `start`: a row east as far as it goes,
/// then rows north while every node of the row above exists, is free and
/// is joined to its own east neighbour. Sides at most [`MAX_SIDE`] cells.
fn grow_rectangle(start: u32, nb: &[[u32; 4]], region_of: &[u32]) -> Vec<u32> {
    let free = |m: u32| m != NONE && region_of.get(m as usize) == Some(&NONE);
    let mut row = vec![start];
    let mut at = start;
    while row.len() < MAX_SIDE as usize {
        let next = nb.get(at as usize).map_or(NONE, |n| n[EAST]);
        // Cells differ along a row and between rows, so no node repeats.
        if !free(next) {
            break;
        }
        row.push(next);
        at = next;
    }
    let mut block = row.clone();
    let mut rows = 1;
    while rows < MAX_SIDE {
        let above: Vec<u32> = row.iter().map(|&m| nb.get(m as usize).map_or(NONE, |n| n[NORTH])).collect();
        let east = |m: u32| nb.get(m as usize).map_or(NONE, |n| n[EAST]);
        if !above.iter().all(|&m| free(m)) || !above.windows(2).all(|w| east(w[0]) == w[1]) {
            break;
        }
        block.extend_from_slice(&above);
        row = above;
        rows += 1;
    }
    block
}

/// The point of segment `a`–`b` where a route from `from` toward `to`
/// best crosses it: where the straight line meets it, else the end that
/// makes the shorter dog-leg.
pub(crate) fn crossing_point(a: Vec3, b: Vec3, from: Vec3, to: Vec3) -> Vec3 {
    let (p, r) = (a.truncate(), (b - a).truncate());
    let (q, s) = (from.truncate(), (to - from).truncate());
    let denom = r.perp_dot(s);
    if denom.abs() > 1e-6 {
        let t = (q - p).perp_dot(s) / denom;
        let u = (q - p).perp_dot(r) / denom;
        if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
            return a + (b - a) * t;
        }
    }
    let via = |e: Vec3| from.distance(e) + e.distance(to);
    if via(a) <= via(b) { a } else { b }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crossing_is_on_the_straight_line_when_it_meets_the_portal() {
        let (a, b) = (Vec3::new(0.0, -100.0, 0.0), Vec3::new(0.0, 100.0, 0.0));
        let p = crossing_point(a, b, Vec3::new(-50.0, -50.0, 0.0), Vec3::new(50.0, 50.0, 0.0));
        assert!(p.distance(Vec3::ZERO) < 1e-3, "{p}");
        // A goal beyond the portal's end: the nearer end.
        let p = crossing_point(a, b, Vec3::new(-50.0, 0.0, 0.0), Vec3::new(50.0, 400.0, 0.0));
        assert_eq!(p, b);
    }
}
