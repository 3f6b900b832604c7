//! Landmarks for the ALT heuristic (A*, landmarks, triangle inequality;
//! Goldberg and Harrelson 2005).
//!
//! A handful of nodes are picked by farthest-point selection; for each,
//! the true graph distances *from* it to every node and *to* it from every
//! node are stored (two tables, because links are directed: drops, pads
//! and teleporters are one-way). The tables are computed with every link
//! at its lowest cost (touch doors open), so links that live validation
//! later rejects only make true distances longer and the heuristic stays
//! admissible and consistent.
//!
//! Selection: only nodes in the core of an area of useful size (its
//! largest strongly connected component) may be landmarks. Start from the core node farthest from the first one, then
//! repeatedly take the core node whose round-trip distance
//! `d(L, v) + d(v, L)` to its nearest landmark is largest; core nodes no
//! landmark reaches both ways count as infinitely far, so every large area
//! gets a landmark before any refinement.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::pool::parallel_map;
use crate::graph::Graph;

/// A distance and a node packed so that plain integer order is distance
/// order: non-negative `f32` bit patterns sort like the numbers they hold.
#[inline]
pub(crate) fn pack(key: f32, node: u32) -> u64 {
    (u64::from(key.max(0.0).to_bits()) << 32) | u64::from(node)
}

/// The inverse of [`pack`].
#[inline]
pub(crate) fn unpack(item: u64) -> (f32, u32) {
    (f32::from_bits((item >> 32) as u32), item as u32)
}

/// Shortest distances from `source` to every node (`backward`: from every
/// node to `source`); unreachable nodes are infinite.
pub(crate) fn dijkstra(graph: &Graph, source: u32, backward: bool) -> Vec<f32> {
    let n = graph.nodes.len();
    let mut dist = vec![f32::INFINITY; n];
    let mut heap = BinaryHeap::with_capacity(1024);
    if let Some(d) = dist.get_mut(source as usize) {
        *d = 0.0;
        heap.push(Reverse(pack(0.0, source)));
    }
    while let Some(Reverse(item)) = heap.pop() {
        let (key, node) = unpack(item);
        if key > dist.get(node as usize).copied().unwrap_or(f32::INFINITY) {
            continue;
        }
        let row = if backward {
            graph.hot_into(node)
        } else {
            graph.hot_from(node).1
        };
        for &(next, cost) in row {
            let nd = key + cost;
            if let Some(d) = dist.get_mut(next as usize)
                && nd < *d
            {
                *d = nd;
                heap.push(Reverse(pack(nd, next)));
            }
        }
    }
    dist
}

/// [`dijkstra`] forward from `source`, also returning each node's settle
/// rank (0 for `source`; `u32::MAX` if unreached): a search stopping at
/// node `v` expands `rank[v] + 1` nodes.
pub(crate) fn dijkstra_ranked(graph: &Graph, source: u32) -> (Vec<f32>, Vec<u32>) {
    let n = graph.nodes.len();
    let mut dist = vec![f32::INFINITY; n];
    let mut rank = vec![u32::MAX; n];
    let mut next_rank = 0;
    let mut heap = BinaryHeap::with_capacity(1024);
    if let Some(d) = dist.get_mut(source as usize) {
        *d = 0.0;
        heap.push(Reverse(pack(0.0, source)));
    }
    while let Some(Reverse(item)) = heap.pop() {
        let (key, node) = unpack(item);
        match rank.get_mut(node as usize) {
            Some(r) if *r == u32::MAX => {
                *r = next_rank;
                next_rank += 1;
            }
            _ => continue,
        }
        for &(to, cost) in graph.hot_from(node).1 {
            let nd = key + cost;
            if let Some(d) = dist.get_mut(to as usize)
                && nd < *d
            {
                *d = nd;
                heap.push(Reverse(pack(nd, to)));
            }
        }
    }
    (dist, rank)
}

/// The landmark tables.
#[derive(Debug, Clone, Default)]
pub(crate) struct Landmarks {
    /// The landmark nodes.
    pub(crate) nodes: Vec<u32>,
    /// Per node `v`, one row of `2k` numbers, interleaved so one query
    /// reads one row: `table[v * 2k + i]` = distance from landmark `i` to
    /// `v`, `table[v * 2k + k + i]` = distance from `v` to landmark `i`.
    table: Vec<f32>,
}

impl Landmarks {
    /// Picks up to `count` landmarks (see the module docs) and fills the tables.
    pub(crate) fn select(
        graph: &Graph,
        eligible: &[bool],
        count: usize,
        threads: usize,
    ) -> Landmarks {
        let n = graph.nodes.len();
        if count == 0 || n < 2 {
            return Landmarks::default();
        }
        let Some(first) = eligible.iter().position(|&e| e) else {
            return Landmarks::default();
        };
        let d0 = dijkstra(graph, first as u32, false);
        let mut pick = farthest(&d0, eligible).unwrap_or(first);
        let mut nearest = vec![f32::INFINITY; n];
        let mut tables: Vec<(Vec<f32>, Vec<f32>)> = Vec::new();
        let mut nodes = Vec::new();
        while nodes.len() < count {
            let mut both = parallel_map(
                &[false, true],
                threads.min(2),
                1,
                || (),
                |_, &back| dijkstra(graph, pick as u32, back),
            );
            let (Some(bwd), Some(fwd)) = (both.pop(), both.pop()) else {
                break;
            };
            for (v, m) in nearest.iter_mut().enumerate() {
                let near = fwd
                    .get(v)
                    .copied()
                    .unwrap_or(f32::INFINITY)
                    .min(bwd.get(v).copied().unwrap_or(f32::INFINITY));
                *m = m.min(near);
            }
            nodes.push(pick as u32);
            tables.push((fwd, bwd));
            match farthest(&nearest, eligible) {
                Some(next)
                    if !nodes.contains(&(next as u32))
                        && nearest.get(next).is_some_and(|d| *d > 0.0) =>
                {
                    pick = next
                }
                _ => break,
            }
        }
        let k = nodes.len();
        let mut table = vec![f32::INFINITY; n * 2 * k];
        for (i, (fwd, bwd)) in tables.iter().enumerate() {
            for v in 0..n {
                if let (Some(f), Some(slot)) = (fwd.get(v), table.get_mut(v * 2 * k + i)) {
                    *slot = *f;
                }
                if let (Some(b), Some(slot)) = (bwd.get(v), table.get_mut(v * 2 * k + k + i)) {
                    *slot = *b;
                }
            }
        }
        Landmarks { nodes, table }
    }

    /// Number of landmarks.
    pub(crate) fn count(&self) -> usize {
        self.nodes.len()
    }

    /// Node `v`'s row: distances from each landmark to `v`, then from `v`
    /// to each landmark.
    pub(crate) fn row(&self, v: u32) -> &[f32] {
        let w = 2 * self.count();
        self.table
            .get(v as usize * w..(v as usize + 1) * w)
            .unwrap_or(&[])
    }

    /// Distances from each landmark to `v`.
    pub(crate) fn fwd_row(&self, v: u32) -> &[f32] {
        self.row(v).get(..self.count()).unwrap_or(&[])
    }

    /// Distances from `v` to each landmark.
    pub(crate) fn bwd_row(&self, v: u32) -> &[f32] {
        self.row(v).get(self.count()..).unwrap_or(&[])
    }

    /// Approximate heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.table.capacity() + self.nodes.capacity()) * 4
    }
}

/// Which nodes may be landmarks: those in the largest strongly connected
/// component of an area of useful size. A landmark in a one-way pocket
/// (the middle of a teleporter, the foot of a drop) would be "infinitely
/// far" from everything and waste its slot.
pub(crate) fn cores(
    graph: &Graph,
    area_sizes: &[u32],
    comp: &[u32],
    comp_sizes: &[u32],
) -> Vec<bool> {
    let n = graph.nodes.len();
    let min_area = (n as u32 / 200).max(16);
    let mut best: Vec<Option<(u32, u32)>> = vec![None; area_sizes.len()];
    for (v, node) in graph.nodes.iter().enumerate() {
        let Some(&c) = comp.get(v) else { continue };
        let size = comp_sizes.get(c as usize).copied().unwrap_or(0);
        if let Some(slot) = best.get_mut(node.area as usize)
            && slot.is_none_or(|(_, s)| size > s)
        {
            *slot = Some((c, size));
        }
    }
    graph
        .nodes
        .iter()
        .enumerate()
        .map(|(v, node)| {
            let big = area_sizes
                .get(node.area as usize)
                .is_some_and(|&s| s >= min_area);
            let main = best
                .get(node.area as usize)
                .copied()
                .flatten()
                .map(|(c, _)| c);
            big && comp.get(v).copied() == main
        })
        .collect()
}

/// The eligible node with the largest distance (infinite first), if any.
fn farthest(dist: &[f32], eligible: &[bool]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (v, &d) in dist.iter().enumerate() {
        if eligible.get(v).copied().unwrap_or(false) && best.is_none_or(|(_, bd)| d > bd) {
            best = Some((v, d));
        }
    }
    best.map(|(v, _)| v)
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

    /// A line of `n` nodes, walk links both ways, plus a one-way shortcut 0 -> n-1.
    fn line(n: u32) -> Graph {
        let mut b = GraphBuilder::default();
        for i in 0..n {
            b.add_node(Vec3::X * i as f32 * 24.0, [i as i32, 0]);
        }
        let link = |to, cost| Link {
            to: NodeId(to),
            cost,
            kind: LinkKind::Walk,
            entity: None,
            near_mover: false,
        };
        for i in 0..n - 1 {
            b.link(i, link(i + 1, 24.0));
            b.link(i + 1, link(i, 24.0));
        }
        b.link(
            0,
            Link {
                kind: LinkKind::Teleport,
                ..link(n - 1, 10.0)
            },
        );
        b.finish()
    }

    #[test]
    fn dijkstra_both_directions() {
        let g = line(40);
        let fwd = dijkstra(&g, 0, false);
        assert_eq!(fwd[39], 10.0);
        assert_eq!(fwd[30], 10.0 + 9.0 * 24.0);
        let bwd = dijkstra(&g, 39, true);
        assert_eq!(bwd[0], 10.0, "from 0 to 39 by the teleporter");
        assert_eq!(bwd[1], 24.0 + 10.0, "back to 0, then the teleporter");
        assert_eq!(bwd[38], 24.0);
    }

    #[test]
    fn farthest_point_selection_spreads_landmarks() {
        let g = line(40);
        let lm = Landmarks::select(&g, &[true; 40], 3, 2);
        assert_eq!(lm.count(), 3);
        let mut nodes = lm.nodes.clone();
        nodes.sort_unstable();
        nodes.dedup();
        assert_eq!(nodes.len(), 3, "distinct landmarks");
        assert_eq!(lm.fwd_row(lm.nodes[0])[0], 0.0);
        assert_eq!(lm.bwd_row(0).len(), 3);
        assert_eq!(Landmarks::select(&g, &[true; 40], 0, 1).count(), 0);
        let only_first: Vec<bool> = (0..40).map(|i| i < 10).collect();
        let lm = Landmarks::select(&g, &only_first, 4, 1);
        assert!(
            lm.nodes.iter().all(|&l| l < 10),
            "landmarks only where eligible"
        );
    }
}
