//! A set of convex hulls with a parry3d BVH over their bounds: the static
//! query structure behind traces, point and box contents.
//!
//! Hot data (bounds, plane ranges, contents) is stored flat so the clip loop
//! walks contiguous memory; the polygon data used only for OBJ export and
//! parry shapes lives in a separate cold array.

use glam::Vec3;
use parry3d::bounding_volume::Aabb;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, TraversalAction};
use parry3d::shape::SharedShape;

use super::clip::{Clip, Sweep, aabb_overlap, clip, overlaps};
use crate::contents::Contents;
use crate::entities::EntityId;
use crate::geometry::{ConvexSolid, Plane};

/// The trace-relevant part of one hull.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HullRecord {
    pub(crate) mins: Vec3,
    pub(crate) maxs: Vec3,
    first_plane: u32,
    plane_count: u32,
    pub(crate) contents: Contents,
    pub(crate) entity: Option<EntityId>,
}

/// Corners, face polygons (counter-clockwise from outside) and the parry3d
/// shape of one hull.
#[derive(Debug, Clone)]
pub(crate) struct HullShape {
    pub(crate) vertices: Vec<Vec3>,
    pub(crate) faces: Vec<Vec<u32>>,
    pub(crate) shape: SharedShape,
}

/// The running result of one trace across several hull sets.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TraceState {
    pub(crate) fraction: f32,
    pub(crate) normal: Vec3,
    pub(crate) start_solid: bool,
    pub(crate) all_solid: bool,
    pub(crate) contents: Contents,
    pub(crate) entity: Option<EntityId>,
}

impl TraceState {
    pub(crate) fn new() -> TraceState {
        TraceState {
            fraction: 1.0,
            normal: Vec3::ZERO,
            start_solid: false,
            all_solid: false,
            contents: Contents::empty(),
            entity: None,
        }
    }
}

/// Hulls plus their BVH.
#[derive(Clone, Default)]
pub(crate) struct HullSet {
    records: Vec<HullRecord>,
    planes: Vec<Plane>,
    shapes: Vec<HullShape>,
    bvh: Bvh,
    contents: Contents,
    /// Bounds of all hulls, cached by `rebuild` for a cheap early-out
    /// (a map has dozens of small mover sets a trace usually misses).
    bounds: Option<(Vec3, Vec3)>,
}

impl std::fmt::Debug for HullSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HullSet").field("hulls", &self.records.len()).field("contents", &self.contents).finish()
    }
}

impl HullSet {
    /// Adds a hull; call [`HullSet::rebuild`] when done adding.
    pub(crate) fn push(&mut self, solid: ConvexSolid, contents: Contents, entity: Option<EntityId>) {
        self.records.push(HullRecord {
            mins: solid.mins,
            maxs: solid.maxs,
            first_plane: self.planes.len() as u32,
            plane_count: solid.planes.len() as u32,
            contents,
            entity,
        });
        self.planes.extend_from_slice(&solid.planes);
        self.shapes.push(HullShape { vertices: solid.vertices, faces: solid.faces, shape: solid.shape });
        self.contents |= contents;
    }

    /// Builds the BVH over the hulls added so far.
    pub(crate) fn rebuild(&mut self) {
        let leaves: Vec<Aabb> = self.records.iter().map(|r| Aabb::new(r.mins, r.maxs)).collect();
        self.bvh = if leaves.is_empty() { Bvh::new() } else { Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves) };
        self.bounds = self.records.iter().fold(None, |acc, r| match acc {
            None => Some((r.mins, r.maxs)),
            Some((lo, hi)) => Some((r.mins.min(lo), r.maxs.max(hi))),
        });
    }

    /// Number of hulls.
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// The hull records.
    pub(crate) fn records(&self) -> &[HullRecord] {
        &self.records
    }

    /// The polygon data of hull `i`.
    pub(crate) fn shapes(&self) -> &[HullShape] {
        &self.shapes
    }

    /// Bounds of all hulls (as of the last `rebuild`), or `None` if empty.
    pub(crate) fn bounds(&self) -> Option<(Vec3, Vec3)> {
        self.bounds
    }

    fn planes_of(&self, r: &HullRecord) -> &[Plane] {
        let start = r.first_plane as usize;
        self.planes.get(start..start + r.plane_count as usize).unwrap_or(&[])
    }

    /// Clips `sweep` against every hull whose contents intersect `mask`,
    /// folding the result into `state`.
    pub(crate) fn trace(&self, sweep: &Sweep, mask: Contents, state: &mut TraceState) {
        let (mut lo, mut hi) = sweep.bounds(state.fraction);
        match self.bounds {
            Some((min, max)) if self.contents.intersects(mask) && aabb_overlap(min, max, lo, hi) => {}
            _ => return,
        }
        let path = sweep.long_path();
        // The node test stays small so the traversal inlines it; a leaf's
        // clip is a call of its own.
        self.bvh.traverse(|node| {
            if !aabb_overlap(node.mins(), node.maxs(), lo, hi) || path.is_some_and(|p| !p.may_touch(node.mins(), node.maxs(), state.fraction)) {
                return TraversalAction::Prune;
            }
            match node.leaf_data() {
                None => TraversalAction::Continue,
                Some(leaf) => self.clip_leaf(leaf, sweep, mask, state, &mut lo, &mut hi),
            }
        });
    }

    /// Whether any hull whose contents intersect `mask` stops `sweep` (or,
    /// with `start_blocks`, holds its start): [`HullSet::trace`] would leave
    /// `state` with a fraction under 1 (or `start_solid`). The first such
    /// hull ends the walk
    /// (a yes or no needs no nearest hit), so the order of the walk cannot
    /// change the answer: each hull is asked as the full trace's first
    /// would be, and a hull the full trace prunes at a smaller fraction is
    /// pruned here only when it cannot stop the sweep at all.
    pub(crate) fn blocks(&self, sweep: &Sweep, mask: Contents, start_blocks: bool) -> bool {
        let (lo, hi) = sweep.bounds(1.0);
        match self.bounds {
            Some((min, max)) if self.contents.intersects(mask) && aabb_overlap(min, max, lo, hi) => {}
            _ => return false,
        }
        let path = sweep.long_path();
        let mut blocked = false;
        self.bvh.traverse(|node| {
            if !aabb_overlap(node.mins(), node.maxs(), lo, hi) || path.is_some_and(|p| !p.may_touch(node.mins(), node.maxs(), 1.0)) {
                return TraversalAction::Prune;
            }
            match node.leaf_data() {
                None => TraversalAction::Continue,
                Some(leaf) if self.leaf_blocks(leaf, sweep, mask, start_blocks) => {
                    blocked = true;
                    TraversalAction::EarlyExit
                }
                Some(_) => TraversalAction::Continue,
            }
        });
        blocked
    }

    /// Whether hull `leaf` stops `sweep` anywhere along it, never lets it
    /// out, or (with `start_blocks`) holds its start.
    #[inline(never)]
    fn leaf_blocks(&self, leaf: u32, sweep: &Sweep, mask: Contents, start_blocks: bool) -> bool {
        let Some(r) = self.records.get(leaf as usize) else {
            return false;
        };
        if !r.contents.intersects(mask) {
            return false;
        }
        match clip(self.planes_of(r), sweep, 1.0) {
            Clip::Miss => false,
            Clip::Hit { .. } => true,
            Clip::StartSolid { all_solid } => all_solid || start_blocks,
        }
    }

    /// Appends to `out` every hull whose bounds overlap `lo..hi` (touching
    /// counts), in the order [`HullSet::trace`] visits them.
    pub(crate) fn gather(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) {
        match self.bounds {
            Some((min, max)) if aabb_overlap(min, max, lo, hi) => {}
            _ => return,
        }
        self.bvh.traverse(|node| {
            if !aabb_overlap(node.mins(), node.maxs(), lo, hi) {
                return TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data() {
                out.push(leaf);
            }
            TraversalAction::Continue
        });
    }

    /// [`HullSet::trace`] against the hulls in `leaves` only (gathered by
    /// [`HullSet::gather`] around the sweep): the same hulls in the same
    /// order under the same tests, so the same result, with no tree walk.
    /// A leaf passes only where every box above it in the tree would have
    /// (each holds the leaf's and the sweep's bounds only narrow), so the
    /// tree's pruning never skips a hull this visits.
    pub(crate) fn trace_listed(
        &self,
        leaves: &[u32],
        sweep: &Sweep,
        mask: Contents,
        state: &mut TraceState,
    ) {
        if !self.contents.intersects(mask) {
            return;
        }
        let (mut lo, mut hi) = sweep.bounds(state.fraction);
        let path = sweep.long_path();
        for &leaf in leaves {
            let Some(r) = self.records.get(leaf as usize) else {
                continue;
            };
            if !aabb_overlap(r.mins, r.maxs, lo, hi)
                || path.is_some_and(|p| !p.may_touch(r.mins, r.maxs, state.fraction))
            {
                continue;
            }
            if let TraversalAction::EarlyExit =
                self.clip_leaf(leaf, sweep, mask, state, &mut lo, &mut hi)
            {
                return;
            }
        }
    }

    /// Clips `sweep` against hull `leaf`, folding a closer hit into `state`
    /// and narrowing the sweep's bounds `lo..hi` to it.
    #[inline(never)]
    fn clip_leaf(&self, leaf: u32, sweep: &Sweep, mask: Contents, state: &mut TraceState, lo: &mut Vec3, hi: &mut Vec3) -> TraversalAction {
        let Some(r) = self.records.get(leaf as usize) else {
            return TraversalAction::Prune;
        };
        if !r.contents.intersects(mask) {
            return TraversalAction::Prune;
        }
        match clip(self.planes_of(r), sweep, state.fraction) {
            Clip::Miss => {}
            Clip::Hit { fraction, normal } => {
                state.fraction = fraction;
                state.normal = normal;
                state.contents = r.contents;
                state.entity = r.entity;
                (*lo, *hi) = sweep.bounds(fraction);
            }
            Clip::StartSolid { all_solid } => {
                state.start_solid = true;
                if all_solid {
                    state.all_solid = true;
                    state.fraction = 0.0;
                    state.contents = r.contents;
                    state.entity = r.entity;
                    return TraversalAction::EarlyExit;
                }
            }
        }
        TraversalAction::Continue
    }

    /// Calls `f` for every hull overlapping the box `centre ± half` (touching
    /// counts) whose contents intersect `mask`.
    pub(crate) fn for_each_overlap(&self, centre: Vec3, half: Vec3, mask: Contents, mut f: impl FnMut(&HullRecord)) {
        let (lo, hi) = (centre - half, centre + half);
        match self.bounds {
            Some((min, max)) if self.contents.intersects(mask) && aabb_overlap(min, max, lo, hi) => {}
            _ => return,
        }
        self.bvh.traverse(|node| {
            if !aabb_overlap(node.mins(), node.maxs(), lo, hi) {
                return TraversalAction::Prune;
            }
            if let Some(leaf) = node.leaf_data()
                && let Some(r) = self.overlapping(leaf, centre, half, mask)
            {
                f(r);
            }
            TraversalAction::Continue
        });
    }

    /// Hull `leaf` if its contents intersect `mask` and it overlaps the box
    /// `centre ± half`: a call of its own, so the traversal's node test
    /// stays small enough to inline.
    #[inline(never)]
    fn overlapping(&self, leaf: u32, centre: Vec3, half: Vec3, mask: Contents) -> Option<&HullRecord> {
        self.records
            .get(leaf as usize)
            .filter(|r| r.contents.intersects(mask) && overlaps(self.planes_of(r), centre, half))
    }
}
