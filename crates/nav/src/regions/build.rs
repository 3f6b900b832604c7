//! Building the region layer from a finished graph: rectangles grown
//! greedily from the lowest row up, then the crossings between regions.
//! Deterministic: nodes are visited in (row, column, height) order.

use glam::Vec3;

use super::table::DistanceTable;
use super::{Crossing, Edge, MAX_SIDE, NONE, Region, Regions};
use crate::graph::{Graph, LinkKind};

/// The most links of one kind kept from one region into another
/// ([`thin_links`]).
const LINKS_PER_PAIR: usize = 4;

/// East, north, west, south, as cell offsets.
const DIRS: [[i32; 2]; 4] = [[1, 0], [0, 1], [-1, 0], [0, -1]];
const EAST: usize = 0;
const NORTH: usize = 1;
const WEST: usize = 2;
const SOUTH: usize = 3;

/// Builds the regions of `graph` (`step` is the agent's step height,
/// `cell_size` the grid's) and their distance table, its rows not filled
/// yet ([`DistanceTable::fill_in_background`]).
pub(crate) fn build(graph: &Graph, step: f32, cell_size: f32) -> Regions {
    let n = graph.nodes.len();
    let eligible = eligible_nodes(graph, cell_size);
    let neighbours = walk_neighbours(graph, &eligible, step);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| {
        let (na, nb) = (&graph.nodes[a as usize], &graph.nodes[b as usize]);
        (na.cell[1], na.cell[0]).cmp(&(nb.cell[1], nb.cell[0])).then(na.origin.z.total_cmp(&nb.origin.z)).then(a.cmp(&b))
    });
    let mut region_of = vec![NONE; n];
    let mut regions: Vec<Region> = Vec::new();
    let mut members: Vec<Vec<u32>> = Vec::new();
    let mut member_count = 0u32;
    let mut side_count = 0u32;
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
        let corner = graph.nodes[s].cell;
        // The first row runs east from the start; the block is full.
        let width = block.iter().take_while(|&&m| graph.nodes[m as usize].cell[1] == corner[1]).count().max(1) as i32;
        let size = [width, block.len() as i32 / width];
        regions.push(Region { area, single, corner, size, first_member: member_count, first_side: side_count });
        side_count += 2 * (size[0] + size[1]) as u32;
        member_count += block.len() as u32;
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
                    _ => {
                        let at = [graph.nodes[from as usize].origin, graph.nodes[to as usize].origin];
                        let crossing = Crossing::Link { link: (base + i) as u32, at, cost: link.cost };
                        edges.push(Edge { to: s, crossing });
                    }
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
                Crossing::Link { link, .. } => {
                    graph.links.get(link as usize).is_some_and(|l| l.kind == LinkKind::Walk) && portal_to.binary_search(&e.to).is_ok()
                }
                Crossing::Portal { .. } => false,
            };
            if !redundant {
                kept.push(e);
            }
        }
        edges.extend(thin_links(graph, kept));
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
                edges.push(Edge {
                    to: first_row.to,
                    crossing: Crossing::Portal {
                        near: [first_row.from, last_row.from],
                        far: [first_row.into, last_row.into],
                        at: [first_row.from, last_row.from, first_row.into, last_row.into].map(|n| graph.nodes[n as usize].origin),
                    },
                });
            }
            i = j;
        }
    }
    first.push(edges.len() as u32);
    let sides = sides(&regions, &members, &neighbours);
    let (first_entering, entering) = entering(regions.len(), &first, &edges);
    let mut out = Regions {
        region_of,
        regions,
        members: members.concat(),
        sides,
        first,
        edges,
        first_entering,
        entering,
        rectangles,
        table: DistanceTable::default(),
    };
    out.table = DistanceTable::new(graph, &out, &members);
    out
}

/// The edges entering each region, compressed (see [`Regions::entering`]).
fn entering(regions: usize, first_out: &[u32], edges: &[Edge]) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut first = vec![0u32; regions + 1];
    for e in edges {
        if let Some(f) = first.get_mut(e.to as usize + 1) {
            *f += 1;
        }
    }
    for r in 0..regions {
        first[r + 1] += first[r];
    }
    let mut fill = first.clone();
    let mut out = vec![(0u32, 0u32); edges.len()];
    let mut source = 0usize;
    for (i, e) in edges.iter().enumerate() {
        // Edges are grouped by the region they leave.
        while first_out.get(source + 1).is_some_and(|&f| f as usize <= i) {
            source += 1;
        }
        if let Some(at) = fill.get_mut(e.to as usize)
            && let Some(slot) = out.get_mut(*at as usize)
        {
            *slot = (i as u32, source as u32);
            *at += 1;
        }
    }
    (first, out)
}

/// Every region's sides (see [`Regions::sides`]): the walk neighbour out
/// of each edge cell of its block.
fn sides(regions: &[Region], members: &[Vec<u32>], nb: &[[u32; 4]]) -> Vec<u32> {
    let mut out = Vec::new();
    for (region, block) in regions.iter().zip(members) {
        let [w, h] = region.size;
        let at = |x: i32, y: i32| block.get((y * w + x) as usize).copied().unwrap_or(NONE);
        let across = |n: u32, d: usize| nb.get(n as usize).map_or(NONE, |x| x[d]);
        out.extend((0..h).map(|y| across(at(w - 1, y), EAST)));
        out.extend((0..w).map(|x| across(at(x, h - 1), NORTH)));
        out.extend((0..h).map(|y| across(at(0, y), WEST)));
        out.extend((0..w).map(|x| across(at(x, 0), SOUTH)));
    }
    out
}

/// `edges` (all leaving one region) with the links of one kind into one
/// region thinned to [`LINKS_PER_PAIR`]: the cheapest, and the rest spread
/// evenly along the line their sources stand on (both ends included). A
/// ledge gives a drop per cell; a route takes the one nearest its way, and
/// a few spread along the ledge serve as well as all of them. Links near a
/// mover are all kept (each is re-checked against the live world).
fn thin_links(graph: &Graph, edges: Vec<Edge>) -> Vec<Edge> {
    let mut out = Vec::with_capacity(edges.len());
    let mut groups: std::collections::BTreeMap<(u32, u8), Vec<Edge>> = std::collections::BTreeMap::new();
    for e in edges {
        match e.crossing {
            Crossing::Link { link, .. } => match graph.links.get(link as usize) {
                Some(l) if !l.near_mover => groups.entry((e.to, l.kind as u8)).or_default().push(e),
                _ => out.push(e),
            },
            Crossing::Portal { .. } => out.push(e),
        }
    }
    let source = |e: &Edge| match e.crossing {
        Crossing::Link { at, .. } => at[0],
        Crossing::Portal { at, .. } => at[0],
    };
    let cost = |e: &Edge| match e.crossing {
        Crossing::Link { cost, .. } => cost,
        Crossing::Portal { .. } => 0.0,
    };
    for (_, mut group) in groups {
        if group.len() <= LINKS_PER_PAIR {
            out.extend(group);
            continue;
        }
        let (lo, hi) = group.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), e| (lo.min(source(e)), hi.max(source(e))));
        let axis = usize::from((hi - lo).y > (hi - lo).x);
        group.sort_by(|a, b| source(a)[axis].total_cmp(&source(b)[axis]));
        let cheapest = (0..group.len()).min_by(|&a, &b| cost(&group[a]).total_cmp(&cost(&group[b]))).unwrap_or(0);
        let spread = LINKS_PER_PAIR - 1;
        let mut keep: Vec<usize> = (0..spread).map(|i| (i * (group.len() - 1) + (spread - 1) / 2) / (spread - 1)).collect();
        keep.push(cheapest);
        keep.sort_unstable();
        keep.dedup();
        out.extend(keep.into_iter().filter_map(|i| group.get(i).copied()));
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
fn eligible_nodes(graph: &Graph, cell_size: f32) -> Vec<bool> {
    // A node moved off its cell's centre (the box fits only nearer a wall
    // or a ledge, as in a doorway narrower than two cells) stands alone:
    // a straight line through a rectangle is taken as walkable without a
    // probe, which holds only where the box fits at every cell's centre.
    let centred = |node: &crate::graph::Node| {
        let c = |k: i32| (k as f32 + 0.5) * cell_size;
        (node.origin.x - c(node.cell[0])).abs() < 0.5 && (node.origin.y - c(node.cell[1])).abs() < 0.5
    };
    let mut ok: Vec<bool> = graph.nodes.iter().map(centred).collect();
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
/// walk links both ways, within a step of its height ([`NONE`] if none;
/// the nearest in height, then the lowest id). Read from the node's own
/// walk links, so no cell lookup.
fn walk_neighbours(graph: &Graph, eligible: &[bool], step: f32) -> Vec<[u32; 4]> {
    let walks = |a: u32, b: u32| graph.links_from(a).1.iter().any(|l| l.to.0 == b && l.kind == LinkKind::Walk && !l.near_mover);
    graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let mut best: [Option<(u32, f32)>; 4] = [None; 4];
            if !eligible[i] {
                return [NONE; 4];
            }
            for l in graph.links_from(i as u32).1 {
                if l.kind != LinkKind::Walk || l.near_mover {
                    continue;
                }
                let m = l.to.0;
                let Some(other) = graph.nodes.get(m as usize) else { continue };
                let Some(d) = DIRS.iter().position(|off| [node.cell[0] + off[0], node.cell[1] + off[1]] == other.cell) else {
                    continue;
                };
                let dz = (other.origin.z - node.origin.z).abs();
                if !eligible[m as usize] || dz > step + 1.0 {
                    continue;
                }
                let better = best[d].is_none_or(|(b, bdz)| dz < bdz || (dz == bdz && m < b));
                if better && walks(m, i as u32) {
                    best[d] = Some((m, dz));
                }
            }
            best.map(|b| b.map_or(NONE, |(m, _)| m))
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
