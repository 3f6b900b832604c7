//! A* over the regions, as Detour searches its polygons: each region is
//! entered at one point (where the crossing that reached it first put the
//! route), and the cost of a crossing is the straight distance from that
//! point to where the crossing is taken (the point of a portal nearest the
//! line toward the goal; a link's source node), plus a link's own cost.
//! The heuristic is the landmark (ALT) bound for the whole region (from the
//! region's landmark bounds, computed once per region and search),
//! slightly discounted because routes through regions are straight lines
//! and the landmark distances are grid paths; without landmarks, the
//! mesh's scaled straight-line distance.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::build::crossing_point;
use super::{Crossing, NONE, Regions};
use crate::mesh::NavMesh;


/// Grid paths run up to about 8 % longer than the straight lines routes
/// through regions take; the landmark bound is scaled by this so it stays
/// below the cost actually searched.
const ALT_DISCOUNT: f32 = 0.92;

/// One region's search state.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    g: f32,
    f: f32,
    /// The heuristic of the region, computed when it is first reached.
    h: f32,
    pos: Vec3,
    parent: u32,
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
    /// Its node (for the heuristic).
    pub(crate) node: u32,
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
/// the edges in `rejected`;
/// `None` when the goal cannot be reached. `expansions` counts regions
/// closed, also when nothing is found.
pub(crate) fn search(
    mesh: &NavMesh,
    regions: &Regions,
    s: &mut RegionScratch,
    start: End,
    goal: End,
    rejected: &[u32],
    expansions: &mut u32,
) -> Option<Vec<u32>> {
    let serial = s.begin(regions.regions.len());
    let (open, closed) = (serial * 2, serial * 2 + 1);
    let k = mesh.landmarks.count();
    let (goal_fwd, goal_bwd) = (mesh.landmarks.fwd_row(goal.node), mesh.landmarks.bwd_row(goal.node));
    // The landmark bound for every point of a region, from its bounds.
    let region_h = |r: u32| {
        let (fwd, bwd) = regions.bounds(r, k);
        let mut h = 0.0f32;
        // f32::max ignores NaN (infinity minus infinity: no information).
        for (f, gf) in fwd.iter().zip(goal_fwd) {
            h = h.max(gf - f);
        }
        for (b, gb) in bwd.iter().zip(goal_bwd) {
            h = h.max(b - gb);
        }
        h * ALT_DISCOUNT
    };
    let euclid = |pos: Vec3| pos.distance(goal.pos) * mesh.heuristic_scale;
    let slot = s.slots.get_mut(start.region as usize)?;
    let h0 = if k > 0 { region_h(start.region).max(euclid(start.pos)) } else { euclid(start.pos) };
    let f0 = h0.max(0.0);
    *slot = Slot { g: 0.0, f: f0, h: h0, pos: start.pos, parent: NONE, tag: open };
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
            let seen = next.tag == open || next.tag == closed;
            if !rejected.is_empty() && rejected.contains(&ei) {
                continue;
            }
            let (step, npos) = match e.crossing {
                Crossing::Portal { at, .. } => {
                    let (a, b) = (at[0], at[1]);
                    let q = crossing_point(a, b, pos, goal.pos);
                    // Straight across the gap: the same point of the far side.
                    let t = if a.distance_squared(b) > 1e-6 { (q - a).length() / (b - a).length() } else { 0.0 };
                    let r = at[2].lerp(at[3], t);
                    (pos.distance(q) + q.distance(r), r)
                }
                Crossing::Link { link } => {
                    let graph = &mesh.graph;
                    let (Some(l), Some(&src)) = (graph.links.get(link as usize), graph.source.get(link as usize)) else { continue };
                    let (Some(from), Some(to)) = (graph.nodes.get(src as usize), graph.nodes.get(l.to.index())) else { continue };
                    (pos.distance(from.origin) + l.cost, to.origin)
                }
            };
            let mut ng = g + step;
            // The region's landmark bound, computed once per search.
            let bound = if k == 0 {
                0.0
            } else if seen {
                next.h
            } else {
                region_h(e.to)
            };
            let hv = if e.to == goal.region {
                ng += npos.distance(goal.pos);
                0.0
            } else {
                // The bound or the straight line from this entry point,
                // whichever says more.
                bound.max(euclid(npos))
            };
            // Re-opening a closed region needs a clear gain (positions make
            // costs differ by rounding; no endless churn).
            if !hv.is_finite() || (seen && ng >= next.g - if next.tag == closed { 1.0 } else { 0.0 }) {
                continue;
            }
            let f = (ng + hv).max(0.0);
            if let Some(next) = s.slots.get_mut(e.to as usize) {
                *next = Slot { g: ng, f, h: bound, pos: npos, parent: ei, tag: open };
            }
            s.heap.push(Reverse((f.to_bits(), e.to)));
        }
    }
    *expansions += closed_count;
    None
}

/// The edges from `start` to `goal` by parent edges.
fn trace_back(regions: &Regions, s: &RegionScratch, start: u32, goal: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = goal;
    while at != start && out.len() <= regions.regions.len() {
        let Some(ei) = s.slots.get(at as usize).map(|slot| slot.parent) else { break };
        if ei == NONE {
            break;
        }
        out.push(ei);
        // The region an edge leaves: the one whose edge range holds it.
        let from = regions.first.partition_point(|&f| f <= ei).saturating_sub(1);
        at = from as u32;
    }
    out.reverse();
    out
}
