//! Finding the corridor of regions a route takes.
//!
//! Usually no search at all: [`follow_table`] reads the corridor from the
//! distance table's next hops ([`super::table`]), choosing the first and
//! the last crossing from where the route really starts and ends.
//!
//! When links near movers were found stale (excluded from this route), or
//! there is no table (a map with more regions than it is built for),
//! [`search`] runs A* over the regions, as Detour searches its polygons:
//! each region is entered at one point (where the crossing that reached it
//! first put the route), and the cost of a crossing is the straight
//! distance from that point to where the crossing is taken (the point of a
//! portal nearest the line toward the goal; a link's source node), plus a
//! link's own cost. The heuristic is the table's distance, slightly
//! discounted; without a table, the mesh's scaled straight-line distance.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{Vec2, Vec3};

use super::table::{DistanceTable, NO_HOP, UNIT, UNREACHABLE};
use super::{Crossing, NONE, Regions};
use crate::mesh::NavMesh;


/// The table's centre-to-centre distances run longer or shorter than the
/// way from where a route enters a region; scaled by this, the estimate
/// rarely exceeds the cost actually searched.
const TABLE_DISCOUNT: f32 = 0.9;

/// One region's search state.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    g: f32,
    f: f32,
    /// The heuristic of the region, computed when it is first reached.
    h: f32,
    pos: Vec3,
    /// The edge that reached the region, and the region it left.
    parent: u32,
    parent_region: u32,
    tag: u32,
}

/// Reusable memory for region searches (inside a [`crate::SearchScratch`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct RegionScratch {
    slots: Vec<Slot>,
    serial: u32,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

/// One end of a region search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct End {
    /// Its region.
    pub(crate) region: u32,
    /// Where it is.
    pub(crate) pos: Vec3,
}

impl RegionScratch {
    fn begin(&mut self, n: usize) -> u32 {
        if self.slots.len() != n {
            self.slots = vec![Slot::default(); n];
            self.serial = 0;
        }
        self.serial += 1;
        if self.serial >= 0x3fff_fffe {
            self.slots.iter_mut().for_each(|s| s.tag = 0);
            self.serial = 1;
        }
        self.heap.clear();
        self.serial
    }
}

/// The corridor (edge indices, in order) from `start` to `goal`, avoiding
/// the edges in `rejected` (sorted);
/// `None` when the goal cannot be reached. `expansions` counts regions
/// closed, also when nothing is found. With `exposure_weight > 0` each
/// crossing's cost (and the last leg to the goal) is multiplied by
/// `1 + exposure_weight ×` the exposure of the region it enters; costs
/// only grow, so the heuristic stays the lower bound it was.
#[allow(clippy::too_many_arguments, reason = "one search's inputs; a struct would only rename them")]
pub(crate) fn search(
    mesh: &NavMesh,
    regions: &Regions,
    s: &mut RegionScratch,
    start: End,
    goal: End,
    rejected: &[u32],
    exposure_weight: f32,
    expansions: &mut u32,
) -> Option<Vec<u32>> {
    let weighted = exposure_weight > 0.0;
    // Only a weighted search reads (and may wait for) the exposure.
    let region_exposure: &[f32] = if weighted { mesh.region_exposures() } else { &[] };
    let serial = s.begin(regions.regions.len());
    let (open, closed) = (serial * 2, serial * 2 + 1);
    let row = regions.table.row(goal.region);
    // The table's distance from a region to the goal's, discounted: it is
    // measured between region centres, not from where the route stands.
    let region_h = |r: u32| match row.get(r as usize) {
        Some(&UNREACHABLE) => f32::INFINITY,
        Some(&steps) => f32::from(steps) * UNIT * TABLE_DISCOUNT,
        None => 0.0,
    };
    let euclid = |pos: Vec3| pos.distance(goal.pos) * mesh.heuristic_scale;
    let has_table = !row.is_empty();
    let slot = s.slots.get_mut(start.region as usize)?;
    let h0 = region_h(start.region).max(euclid(start.pos));
    let f0 = h0.max(0.0);
    *slot = Slot { g: 0.0, f: f0, h: h0, pos: start.pos, parent: NONE, parent_region: NONE, tag: open };
    s.heap.push(Reverse((f0.to_bits(), start.region)));
    let mut closed_count = 0;
    while let Some(Reverse((f_bits, r))) = s.heap.pop() {
        let Some(slot) = s.slots.get_mut(r as usize) else { continue };
        // A region is expanded again when a cheaper way into it was found
        // after it was expanded (the heuristic is not consistent across
        // entry points); a stale heap entry is skipped.
        if slot.tag == closed || f_bits != slot.f.to_bits() {
            continue;
        }
        slot.tag = closed;
        closed_count += 1;
        let (g, pos) = (slot.g, slot.pos);
        if r == goal.region {
            *expansions += closed_count;
            return Some(trace_back(regions, s, start.region, goal.region));
        }
        let (base, edges) = regions.edges_from(r);
        for (i, e) in edges.iter().enumerate() {
            let ei = (base + i) as u32;
            let Some(next) = s.slots.get(e.to as usize) else { continue };
            if next.tag == closed {
                continue;
            }
            let seen = next.tag == open;
            if !rejected.is_empty() && rejected.binary_search(&ei).is_ok() {
                continue;
            }
            let (step, npos) = crossing_step(e.crossing, pos, goal.pos);
            // (× 1.0 when unweighted: the same sums, bit for bit.)
            let factor = if weighted { 1.0 + exposure_weight * region_exposure.get(e.to as usize).copied().unwrap_or(0.0) } else { 1.0 };
            let mut ng = g + step * factor;
            // The region's table estimate, looked up once per search.
            let bound = if seen { next.h } else { region_h(e.to) };
            let hv = if e.to == goal.region {
                ng += npos.distance(goal.pos) * factor;
                0.0
            } else if has_table {
                bound
            } else {
                euclid(npos)
            };
            // Re-opening a closed region needs a clear gain (positions make
            // costs differ by rounding; no endless churn).
            if !hv.is_finite() || (seen && ng >= next.g - if next.tag == closed { 1.0 } else { 0.0 }) {
                continue;
            }
            let f = (ng + hv).max(0.0);
            if let Some(next) = s.slots.get_mut(e.to as usize) {
                *next = Slot { g: ng, f, h: bound, pos: npos, parent: ei, parent_region: r, tag: open };
            }
            s.heap.push(Reverse((f.to_bits(), e.to)));
        }
    }
    *expansions += closed_count;
    None
}

/// The corridor (edge indices, in order) from `start` to `goal` read from
/// the distance table's next hops, without a search. Both ends are chosen
/// from where the route really starts and ends: the crossing into the
/// goal's region from the table's distance to the region it leaves plus
/// the way from there to the goal, the first crossing from its cost from
/// the start plus the table's distance on; between them the table's hops.
/// `None` without a table, or when the goal cannot be reached.
pub(crate) fn follow_table(regions: &Regions, table: &DistanceTable, start: End, goal: End) -> Option<Vec<u32>> {
    let steps = |from: u32, to: u32| match table.row(to).get(from as usize) {
        Some(&UNREACHABLE) | None => None,
        Some(&s) => Some(f32::from(s) * UNIT),
    };
    // The last crossing: into the goal's region, from region `p`. A way
    // that costs at least the best so far before it even crosses is
    // skipped (the crossing and the rest only add to it).
    let mut last: Option<(f32, u32, u32)> = None;
    for &(ei, p) in regions.edges_into(goal.region) {
        let Some(e) = regions.edges.get(ei as usize) else { continue };
        let before = if p == start.region {
            0.0
        } else {
            match steps(start.region, p) {
                Some(d) => d,
                None => continue,
            }
        };
        if last.is_some_and(|(c, _, _)| before >= c) {
            continue;
        }
        let from = if p == start.region { start.pos } else { table.centre(p) };
        let (step, npos) = crossing_step(e.crossing, from, goal.pos);
        let cost = before + step + npos.distance(goal.pos);
        if last.is_none_or(|(c, _, _)| cost < c) {
            last = Some((cost, ei, p));
        }
    }
    let (_, last, p) = last?;
    let mut out = Vec::with_capacity(32);
    if p != start.region {
        // The first crossing, toward `p`.
        let (base, edges) = regions.edges_from(start.region);
        let target = table.centre(p);
        let mut first: Option<(f32, u32)> = None;
        for (i, e) in edges.iter().enumerate() {
            let rest = if e.to == p { None } else {
                match steps(e.to, p) {
                    Some(d) => Some(d),
                    None => continue,
                }
            };
            if let (Some(r), Some((c, _))) = (rest, first)
                && r >= c
            {
                continue;
            }
            let (step, npos) = crossing_step(e.crossing, start.pos, target);
            let rest = rest.unwrap_or_else(|| npos.distance(target));
            if first.is_none_or(|(c, _)| step + rest < c) {
                first = Some((step + rest, (base + i) as u32));
            }
        }
        let (_, first) = first?;
        out.push(first);
        let hops = table.hops(p);
        let mut at = regions.edges.get(first as usize)?.to;
        while at != p {
            let hop = *hops.get(at as usize)?;
            if hop == NO_HOP || out.len() > regions.regions.len() {
                return None;
            }
            let (base, _) = regions.edges_from(at);
            let ei = (base + usize::from(hop)) as u32;
            out.push(ei);
            at = regions.edges.get(ei as usize)?.to;
        }
    }
    out.push(last);
    Some(out)
}

/// The cost of taking `crossing` from `pos` on the way to `goal`, and
/// where it puts the route.
#[inline]
fn crossing_step(crossing: Crossing, pos: Vec3, goal: Vec3) -> (f32, Vec3) {
    match crossing {
        Crossing::Portal { at, .. } => {
            let t = portal_t(at[0], at[1], pos, goal);
            // Straight across the gap: the same point of the far side.
            let (q, r) = (at[0].lerp(at[1], t), at[2].lerp(at[3], t));
            (pos.distance(q) + q.distance(r), r)
        }
        Crossing::Link { at, cost, .. } => (pos.distance(at[0]) + cost, at[1]),
    }
}

/// Where a route from `from` toward `to` crosses the portal side `a`–`b`
/// (a row or a column of cell centres, so the segment is parallel to an
/// axis), as a share of the way from `a` to `b`: where the straight line
/// meets the side's line, kept within the side.
#[inline]
pub(crate) fn portal_t(a: Vec3, b: Vec3, from: Vec3, to: Vec3) -> f32 {
    // Seen with the side running along the first coordinate.
    let swap = |v: Vec3| Vec2::new(v.y, v.x);
    let (a, b, from, to) = if (b.y - a.y).abs() >= (b.x - a.x).abs() {
        (swap(a), swap(b), swap(from), swap(to))
    } else {
        (a.truncate(), b.truncate(), from.truncate(), to.truncate())
    };
    let length = b.x - a.x;
    if length.abs() < 1e-3 {
        return 0.0;
    }
    let d = to - from;
    let at = if d.y.abs() > 1e-3 {
        let k = ((a.y - from.y) / d.y).clamp(0.0, 1.0);
        from.x + d.x * k
    } else {
        to.x
    };
    ((at - a.x) / length).clamp(0.0, 1.0)
}

/// The edges from `start` to `goal` by parent edges.
fn trace_back(regions: &Regions, s: &RegionScratch, start: u32, goal: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = goal;
    while at != start && out.len() <= regions.regions.len() {
        let Some(slot) = s.slots.get(at as usize) else { break };
        if slot.parent == NONE {
            break;
        }
        out.push(slot.parent);
        at = slot.parent_region;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_portal_is_crossed_where_the_straight_line_meets_it_or_at_its_nearer_end() {
        let (a, b) = (Vec3::new(0.0, -100.0, 0.0), Vec3::new(0.0, 100.0, 0.0));
        let t = portal_t(a, b, Vec3::new(-50.0, -50.0, 0.0), Vec3::new(50.0, 50.0, 0.0));
        assert!((t - 0.5).abs() < 1e-4, "{t}");
        // A goal beyond the portal's end: its nearer end.
        assert_eq!(portal_t(a, b, Vec3::new(-50.0, 0.0, 0.0), Vec3::new(50.0, 400.0, 0.0)), 1.0);
        // A side along x, and a line parallel to it: level with the goal.
        let (c, d) = (Vec3::new(-100.0, 0.0, 0.0), Vec3::new(100.0, 0.0, 0.0));
        assert!((portal_t(c, d, Vec3::new(-50.0, 0.0, 0.0), Vec3::new(50.0, 0.0, 0.0)) - 0.75).abs() < 1e-4);
        // A one-row portal is crossed at its only point.
        assert_eq!(portal_t(a, a, Vec3::ZERO, Vec3::ONE), 0.0);
    }
}
