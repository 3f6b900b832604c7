//! The region distance table: for every pair of regions, the cost of the
//! cheapest way between them through the region graph and the first
//! crossing that way takes. Routes read their corridor from the next hops
//! (see [`super::search::follow_table`]); the A* that repairs around stale
//! links uses the distances as its heuristic.
//!
//! Each region has a centre (its node nearest the mean of its nodes). One
//! Dijkstra per goal region over the reversed edges fills a row: the
//! distance from every region's centre to the goal's, and which of the
//! region's edges the way starts with. A region's way on is costed from
//! the point its best way leaves it by (a portal's middle, a link's
//! source), not through the centres of the regions on the way, so a row
//! follows the straight legs a route would walk. Distances are stored as
//! 16-bit steps of [`UNIT`] game units, rounded down, hops as 16-bit edge
//! numbers.
//!
//! The build makes only the reversed graph; the rows are filled after it,
//! on a background thread ([`DistanceTable::fill_in_background`]), and a
//! route that needs a row not filled yet computes it on the spot. A row is
//! the same whoever computes it and whenever, so routes do not depend on
//! the timing. The table is made only while it stays small
//! ([`MAX_REGIONS`] regions: 16 MB when full); past that routes search the
//! regions with the straight-line bound.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use glam::Vec3;

use super::{Crossing, Regions};
use crate::graph::Graph;

/// Game units per step of a stored distance.
pub(crate) const UNIT: f32 = 2.0;
/// A stored distance meaning "cannot reach".
pub(crate) const UNREACHABLE: u16 = u16::MAX;
/// A stored next hop meaning "none".
pub(crate) const NO_HOP: u16 = u16::MAX;
/// The most regions a table is made for (the table has the square of this
/// many entries).
pub(crate) const MAX_REGIONS: usize = 2048;

/// Region-to-region distances, one row per goal region, filled on demand
/// and in the background. Clones share the rows.
#[derive(Debug, Clone, Default)]
pub(crate) struct DistanceTable {
    /// `None`: no table (no regions, or too many).
    data: Option<Arc<TableData>>,
}

/// The reversed region graph the rows are computed from, and the rows.
#[derive(Debug)]
struct TableData {
    /// `reversed[first_in[r]..first_in[r + 1]]` enter region `r`.
    first_in: Vec<u32>,
    reversed: Vec<Reversed>,
    /// Each region's centre, where its distances are measured from.
    centres: Vec<Vec3>,
    /// One row per goal region, once computed.
    rows: Vec<OnceLock<Row>>,
    /// How many rows have been computed.
    computed: AtomicUsize,
}

/// The distances and next hops toward one goal region, indexed by the
/// region left.
#[derive(Debug)]
struct Row {
    /// In [`UNIT`]s; [`UNREACHABLE`] where the goal cannot be reached.
    steps: Box<[u16]>,
    /// Which of the region's edges (counted from its first) the cheapest
    /// way takes ([`NO_HOP`] at the goal itself and where it cannot be
    /// reached).
    hops: Box<[u16]>,
}

thread_local! {
    /// The Dijkstra queue of this thread, kept between rows.
    static QUEUE: RefCell<BinaryHeap<Reverse<u64>>> = const { RefCell::new(BinaryHeap::new()) };
}

impl DistanceTable {
    /// The table of `regions` over `graph`, its rows not filled yet;
    /// empty when there are more than [`MAX_REGIONS`] regions.
    pub(crate) fn new(graph: &Graph, regions: &Regions, members: &[Vec<u32>]) -> Self {
        let n = regions.regions.len();
        if n == 0 || n > MAX_REGIONS {
            return Self::default();
        }
        let origin = |node: u32| graph.nodes.get(node as usize).map_or(Vec3::ZERO, |x| x.origin);
        let centres: Vec<Vec3> = members.iter().map(|nodes| centre(nodes, &origin)).collect();
        // The reversed graph, compressed: incoming[first_in[r]..first_in[r + 1]]
        // are (region left, cost) of the edges entering r.
        let mut incoming: Vec<(u32, Reversed)> = Vec::with_capacity(regions.edges.len());
        for from in 0..n as u32 {
            let (_, edges) = regions.edges_from(from);
            let c_from = centres[from as usize];
            for (i, e) in edges.iter().enumerate() {
                let Ok(local) = u16::try_from(i) else { continue };
                if local == NO_HOP || e.to as usize >= n {
                    continue;
                }
                // A portal is taken at its middle.
                let (out, land, cross) = match e.crossing {
                    Crossing::Portal { at, .. } => {
                        let (q, l) = ((at[0] + at[1]) * 0.5, (at[2] + at[3]) * 0.5);
                        (q, l, q.distance(l))
                    }
                    Crossing::Link { at, cost, .. } => (at[0], at[1], cost),
                };
                incoming.push((e.to, Reversed { from, local, out, land, cross, lead: c_from.distance(out) }));
            }
        }
        incoming.sort_by_key(|&(to, r)| (to, r.from, r.local));
        let mut first_in = vec![0u32; n + 1];
        for &(to, _) in &incoming {
            first_in[to as usize + 1] += 1;
        }
        for r in 0..n {
            first_in[r + 1] += first_in[r];
        }
        let reversed: Vec<Reversed> = incoming.iter().map(|&(_, r)| r).collect();
        let rows = (0..n).map(|_| OnceLock::new()).collect();
        Self { data: Some(Arc::new(TableData { first_in, reversed, centres, rows, computed: AtomicUsize::new(0) })) }
    }

    /// Fills every row not filled yet on a thread of its own, so the build
    /// does not wait for them. The thread holds the table's data until it
    /// is done (a few tens of milliseconds on the largest maps).
    pub(crate) fn fill_in_background(&self) {
        let Some(data) = self.data.clone() else { return };
        let spawned = std::thread::Builder::new().name("nav-table".into()).spawn(move || {
            for goal in 0..data.rows.len() as u32 {
                // Nobody else holds the table any more: stop.
                if Arc::strong_count(&data) == 1 {
                    return;
                }
                data.row(goal);
            }
        });
        // Without a thread the rows are computed as routes need them.
        drop(spawned);
    }

    /// Fills every row now, on this thread (last first: the background
    /// thread starts at the first, so the two share the work).
    pub(crate) fn fill(&self) {
        if let Some(data) = &self.data {
            for goal in (0..data.rows.len() as u32).rev() {
                data.row(goal);
            }
        }
    }

    /// The same table with the region edges in `barred` (sorted indices
    /// into `regions`' edges) taken out: the ways round closed gates. Its
    /// rows are filled as routes ask for them (a bot asks for the same few
    /// goals again and again), never in the background.
    pub(crate) fn without(&self, regions: &Regions, barred: &[u32]) -> DistanceTable {
        let Some(d) = &self.data else { return Self::default() };
        let n = d.centres.len();
        let is_barred = |r: &Reversed| {
            let first = regions.first.get(r.from as usize).copied().unwrap_or(0);
            barred.binary_search(&(first + u32::from(r.local))).is_ok()
        };
        let mut first_in = Vec::with_capacity(n + 1);
        let mut reversed = Vec::with_capacity(d.reversed.len());
        for to in 0..n {
            first_in.push(reversed.len() as u32);
            let (a, b) = (d.first_in[to] as usize, d.first_in[to + 1] as usize);
            reversed.extend(d.reversed.get(a..b).unwrap_or(&[]).iter().filter(|r| !is_barred(r)).copied());
        }
        first_in.push(reversed.len() as u32);
        let rows = (0..n).map(|_| OnceLock::new()).collect();
        Self { data: Some(Arc::new(TableData { first_in, reversed, centres: d.centres.clone(), rows, computed: AtomicUsize::new(0) })) }
    }

    /// How many rows have been computed so far (a counter: no scan).
    pub(crate) fn rows_computed(&self) -> usize {
        self.data.as_ref().map_or(0, |d| d.computed.load(Ordering::Relaxed))
    }

    /// Rows filled so far, and rows in all.
    pub(crate) fn filled(&self) -> (usize, usize) {
        self.data.as_ref().map_or((0, 0), |d| (d.rows.iter().filter(|r| r.get().is_some()).count(), d.rows.len()))
    }

    /// Region `r`'s centre (the origin without a table).
    #[inline]
    pub(crate) fn centre(&self, r: u32) -> Vec3 {
        self.data.as_ref().and_then(|d| d.centres.get(r as usize)).copied().unwrap_or(Vec3::ZERO)
    }

    /// The next hops toward region `goal` (indexed by the region left),
    /// empty without a table.
    #[inline]
    pub(crate) fn hops(&self, goal: u32) -> &[u16] {
        self.data.as_ref().and_then(|d| d.row(goal)).map_or(&[], |r| &r.hops)
    }

    /// The row of distances to region `goal` (indexed by the region left),
    /// empty without a table.
    #[inline]
    pub(crate) fn row(&self, goal: u32) -> &[u16] {
        self.data.as_ref().and_then(|d| d.row(goal)).map_or(&[], |r| &r.steps)
    }

    /// Approximate heap bytes once every row is filled (the background
    /// fill gets there soon after the build; counting the rows filled so
    /// far would make the figure depend on when it is asked for). A row
    /// holds a step count and a hop per region, two bytes each.
    pub(crate) fn memory_bytes(&self) -> usize {
        let Some(d) = &self.data else { return 0 };
        let rows = d.rows.len() * d.centres.len() * 4;
        rows + d.rows.capacity() * size_of::<OnceLock<Row>>()
            + d.centres.capacity() * size_of::<Vec3>()
            + d.reversed.capacity() * size_of::<Reversed>()
            + d.first_in.capacity() * 4
    }
}

impl TableData {
    /// Row `goal`, computed now unless it was already.
    fn row(&self, goal: u32) -> Option<&Row> {
        let cell = self.rows.get(goal as usize)?;
        Some(cell.get_or_init(|| {
            let g = ReverseGraph { first_in: &self.first_in, reversed: &self.reversed, centres: &self.centres };
            let (steps, hops) = QUEUE.with(|q| row(goal, &g, &mut q.borrow_mut()));
            self.computed.fetch_add(1, Ordering::Relaxed);
            Row { steps: steps.into_boxed_slice(), hops: hops.into_boxed_slice() }
        }))
    }
}

/// The node of `nodes` nearest their mean position.
fn centre(nodes: &[u32], origin: &impl Fn(u32) -> Vec3) -> Vec3 {
    let mean = nodes.iter().map(|&n| origin(n)).sum::<Vec3>() / nodes.len().max(1) as f32;
    nodes
        .iter()
        .map(|&n| origin(n))
        .min_by(|a, b| a.distance_squared(mean).total_cmp(&b.distance_squared(mean)))
        .unwrap_or(mean)
}

/// An edge of the reversed region graph, with the points it is taken at.
#[derive(Debug, Clone, Copy)]
struct Reversed {
    /// The region the edge leaves.
    from: u32,
    /// Its place among that region's edges.
    local: u16,
    /// Where it leaves `from` (a portal's middle, a link's source).
    out: Vec3,
    /// Where it lands.
    land: Vec3,
    /// The cost from `out` to `land`.
    cross: f32,
    /// From `from`'s centre to `out`.
    lead: f32,
}

/// The reversed region graph.
struct ReverseGraph<'a> {
    /// `reversed[first_in[r]..first_in[r + 1]]` enter region `r`.
    first_in: &'a [u32],
    reversed: &'a [Reversed],
    centres: &'a [Vec3],
}

/// One row: the distances and next hops toward `goal`, by Dijkstra over
/// the reversed edges (label correcting: a region whose distance drops
/// after it was expanded is expanded again). The way on from a region is costed
/// from where it is really taken: each region keeps the point its best
/// way leaves it by, and an edge into it is costed from where that edge
/// lands to that point (not through the region's centre), so a row's
/// distances follow the straight legs a route would walk. A region's own
/// distance adds the leg from its centre to its exit. Portals are taken at
/// their middles (choosing the point toward the region's exit doubles the
/// build's cost for no better routes).
fn row(goal: u32, g: &ReverseGraph<'_>, queue: &mut BinaryHeap<Reverse<u64>>) -> (Vec<u16>, Vec<u16>) {
    let n = g.centres.len();
    // From the centre (the queue's order), from the exit on, the exit.
    let mut dist = vec![f32::INFINITY; n];
    let mut onward = vec![0.0f32; n];
    let mut exit = g.centres.to_vec();
    let mut hop = vec![NO_HOP; n];
    // Entries pack the distance's bits (non-negative, so they order as
    // the distances do) above the region: one integer compare each.
    let heap = queue;
    heap.clear();
    dist[goal as usize] = 0.0;
    heap.push(Reverse(u64::from(goal)));
    while let Some(Reverse(entry)) = heap.pop() {
        let (d, r) = (f32::from_bits((entry >> 32) as u32), (entry & 0xffff_ffff) as usize);
        if d > dist[r] {
            continue;
        }
        let (a, b) = (g.first_in[r] as usize, g.first_in[r + 1] as usize);
        let (x_r, on_r) = (exit[r], onward[r]);
        for e in &g.reversed[a..b] {
            let p = e.from as usize;
            let on = e.cross + e.land.distance(x_r) + on_r;
            let nd = e.lead + on;
            if nd < dist[p] {
                (dist[p], onward[p], exit[p], hop[p]) = (nd, on, e.out, e.local);
                heap.push(Reverse(u64::from(nd.to_bits()) << 32 | u64::from(e.from)));
            }
        }
    }
    // Non-negative, so truncating rounds down.
    let steps = dist.iter().map(|&d| if d.is_finite() { ((d / UNIT) as u32).min(u32::from(UNREACHABLE) - 1) as u16 } else { UNREACHABLE }).collect();
    (steps, hop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_holds_the_cheapest_way_to_its_goal_and_marks_the_unreachable() {
        // Regions 0, 1, 2 in a row along x, 100 apart, 3 far off and cut
        // off; links 0 -> 1 and 1 -> 2 (each its region's edge 0), and a
        // costly link 0 -> 2 (0's edge 1).
        let centres = [Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0), Vec3::new(200.0, 0.0, 0.0), Vec3::new(0.0, 900.0, 0.0)];
        // Entering 1: 0's edge 0; entering 2: 0's edge 1, 1's edge 0.
        let edge = |from: u32, local: u16, to: u32, cost: f32| {
            let (out, land) = (centres[from as usize], centres[to as usize]);
            Reversed { from, local, out, land, cross: cost, lead: 0.0 }
        };
        let reversed = [edge(0, 0, 1, 100.0), edge(0, 1, 2, 400.0), edge(1, 0, 2, 100.0)];
        let first_in = [0u32, 0, 1, 3, 3];
        let g = ReverseGraph { first_in: &first_in, reversed: &reversed, centres: &centres };
        let (to_two, hops) = row(2, &g, &mut BinaryHeap::new());
        assert_eq!(to_two, vec![(200.0 / UNIT) as u16, (100.0 / UNIT) as u16, 0, UNREACHABLE]);
        assert_eq!(hops, vec![0, 0, NO_HOP, NO_HOP], "0 goes by 1 (its edge 0), not straight to 2");
    }
}
