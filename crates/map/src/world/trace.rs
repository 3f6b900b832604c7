//! The trace: the one box sweep player movement, weapons, the navmesh and
//! bots use, with Quake semantics, and the [`Trace`] trait they take it
//! through.

use glam::Vec3;

use super::{CollisionWorld, MoverBody};
use super::clip::{Sweep, aabb_overlap};
use super::hull_set::TraceState;
use super::nearby::{Nearby, NearbyHulls};
use crate::contents::Contents;
use crate::entities::EntityId;

/// The result of sweeping a box from `start` toward `end`.
///
/// Positions are world space, Quake units, Z up. Semantics follow Quake 3's
/// `trace_t`: the box stops [`SURFACE_CLIP_EPSILON`](crate::SURFACE_CLIP_EPSILON)
/// short of the first surface it would touch (along that surface's normal),
/// so `end` never touches solid and a trace starting there is not
/// `start_solid`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TraceResult {
    /// How much of the move was completed, 0 to 1; 1 means nothing was hit.
    pub fraction: f32,
    /// Where the box's origin ended: `start + fraction * (end - start)`.
    pub end: Vec3,
    /// Unit normal of the surface hit, pointing out of it toward the box;
    /// zero when nothing was hit or when `all_solid`.
    pub normal: Vec3,
    /// The box at `start` already overlaps something in the mask (touching
    /// counts). The trace still moves if it gets out.
    pub start_solid: bool,
    /// The box never leaves solid: `fraction` is 0 and `end` is `start`.
    pub all_solid: bool,
    /// Contents of the hull hit (empty if nothing was hit).
    pub contents: Contents,
    /// The entity whose brush was hit (a mover, `func_wall`, trigger…);
    /// `None` for worldspawn geometry or when nothing was hit.
    pub entity: Option<EntityId>,
}

impl TraceResult {
    /// Whether the sweep hit something before reaching `end`.
    pub fn hit(&self) -> bool {
        self.fraction < 1.0
    }

    /// A trace that moved all the way without hitting anything.
    pub fn clear(end: Vec3) -> TraceResult {
        TraceResult {
            fraction: 1.0,
            end,
            normal: Vec3::ZERO,
            start_solid: false,
            all_solid: false,
            contents: Contents::empty(),
            entity: None,
        }
    }
}

/// Anything that can be traced against: the loaded world, or a synthetic one
/// in tests. Player movement, the navmesh and bots take `&dyn Trace`.
pub trait Trace {
    /// Sweeps the box `mins..maxs` (relative to the moving point) from
    /// `start` to `end`, stopping at anything whose contents intersect `mask`.
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult;

    /// The union of the contents of every volume containing `point`.
    fn point_contents(&self, point: Vec3) -> Contents;

    /// [`Trace::point_contents`] limited to `mask`: the same answer where
    /// it matters, and a world can skip every hull outside the mask (a map
    /// without lava answers a lava query at once).
    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        self.point_contents(point) & mask
    }

    /// Whether the box `mins..maxs` at `origin` overlaps nothing in `mask`.
    fn fits(&self, origin: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> bool {
        !self.trace(origin, origin, mins, maxs, mask).start_solid
    }

    /// Where the mover built from `entity`'s brushes stands now, as an
    /// offset from where the map placed it; `None` when this world does not
    /// say (or `entity` is no mover). Lets a caller tell whether what it
    /// learnt by tracing near a mover still holds.
    fn mover_offset_of(&self, entity: EntityId) -> Option<Vec3> {
        let _ = entity;
        None
    }

    /// Whether a point-sized line from `a` to `b` crosses nothing in
    /// `mask`: the answer of `!start_solid && fraction >= 1.0` for the same
    /// [`Trace::trace`], which a world may give faster (it can stop at the
    /// first thing in the way instead of looking for the nearest). For line
    /// of sight, where only yes or no matters.
    fn line_is_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        let tr = self.trace(a, b, Vec3::ZERO, Vec3::ZERO, mask);
        !tr.start_solid && tr.fraction >= 1.0
    }

    /// Whether a point-sized line from `a` to `b` gets all the way: the
    /// answer of `fraction >= 1.0` for the same [`Trace::trace`] (a line
    /// that starts inside something and gets out counts), which a world
    /// may give faster, as [`Trace::line_is_clear`].
    fn line_reaches(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.trace(a, b, Vec3::ZERO, Vec3::ZERO, mask).fraction >= 1.0
    }

    /// A view of this world for many traces around one spot
    /// ([`Nearby`]), where the world has one; `None` (the default) means
    /// trace this world directly.
    fn nearby(&self) -> Option<Nearby<'_>> {
        None
    }
}

impl CollisionWorld {
    /// Sweeps a box through the world; see [`Trace::trace`] and [`TraceResult`].
    ///
    /// A non-finite input returns an `all_solid` result at `start` rather than
    /// garbage: nothing moves.
    pub fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        self.trace_among(start, end, mins, maxs, mask, None)
    }

    /// [`CollisionWorld::trace`] against every hull (`near` is `None`), or
    /// against the hulls `near` gathered when the sweep stays inside its box.
    pub(crate) fn trace_among(
        &self,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
        mask: Contents,
        near: Option<&NearbyHulls>,
    ) -> TraceResult {
        if !(start.is_finite() && end.is_finite() && mins.is_finite() && maxs.is_finite()) {
            return TraceResult { fraction: 0.0, all_solid: true, start_solid: true, ..TraceResult::clear(start) };
        }
        let sweep = Sweep::new(start, end, mins, maxs);
        let near = near.filter(|n| n.covers(&sweep));
        let mut state = TraceState::new();
        match near {
            Some(n) => self.solid.trace_listed(&n.solid, &sweep, mask, &mut state),
            None => self.solid.trace(&sweep, mask, &mut state),
        }
        if !state.all_solid {
            match near {
                Some(n) => self.volumes.trace_listed(&n.volumes, &sweep, mask, &mut state),
                None => self.volumes.trace(&sweep, mask, &mut state),
            }
        }
        if !state.all_solid && !self.movers.is_empty() {
            // One world-space bounds test per mover before shifting into its
            // frame: maps have dozens of doors and a trace touches few.
            let (lo, hi) = sweep.bounds(state.fraction);
            let mut each = |mover: &MoverBody, leaves: Option<&[u32]>| {
                let Some((min, max)) = mover.hulls.bounds() else { return true };
                if !aabb_overlap(min + mover.offset, max + mover.offset, lo, hi) {
                    return true;
                }
                let shifted = sweep.shifted(mover.offset);
                match leaves {
                    Some(leaves) => mover.hulls.trace_listed(leaves, &shifted, mask, &mut state),
                    None => mover.hulls.trace(&shifted, mask, &mut state),
                }
                !state.all_solid
            };
            match near {
                // The movers with hulls near, in the same order.
                Some(n) => {
                    for (i, leaves) in &n.movers {
                        if let Some(mover) = self.movers.get(*i as usize)
                            && !each(mover, Some(leaves))
                        {
                            break;
                        }
                    }
                }
                None => {
                    for mover in &self.movers {
                        if !each(mover, None) {
                            break;
                        }
                    }
                }
            }
        }
        let fraction = if state.all_solid { 0.0 } else { state.fraction };
        let end = if fraction >= 1.0 { end } else { start + (end - start) * fraction };
        TraceResult {
            fraction,
            end,
            normal: if state.all_solid { Vec3::ZERO } else { state.normal },
            start_solid: state.start_solid,
            all_solid: state.all_solid,
            contents: state.contents,
            entity: state.entity,
        }
    }

    /// [`Trace::line_is_clear`]: the same answer as a point trace's
    /// `!start_solid && fraction >= 1.0`, stopping at the first hull in the
    /// way (every hull set and mover is asked, none needs the nearest hit).
    /// A non-finite end is never clear, as the trace gives `all_solid`.
    pub fn line_is_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        !self.line_blocked(a, b, mask, true)
    }

    /// [`Trace::line_reaches`]: the same answer as a point trace's
    /// `fraction >= 1.0` (a line that starts inside a hull and gets out
    /// reaches), stopping at the first hull in the way.
    pub fn line_reaches(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        !self.line_blocked(a, b, mask, false)
    }

    /// Whether a point-sized line from `a` to `b` is stopped by a hull in
    /// `mask` (or, with `start_blocks`, starts inside one).
    fn line_blocked(&self, a: Vec3, b: Vec3, mask: Contents, start_blocks: bool) -> bool {
        if !(a.is_finite() && b.is_finite()) {
            return true;
        }
        let sweep = Sweep::new(a, b, Vec3::ZERO, Vec3::ZERO);
        if self.solid.blocks(&sweep, mask, start_blocks) || self.volumes.blocks(&sweep, mask, start_blocks) {
            return true;
        }
        let (lo, hi) = sweep.bounds(1.0);
        self.movers.iter().any(|mover| {
            mover.hulls.bounds().is_some_and(|(min, max)| aabb_overlap(min + mover.offset, max + mover.offset, lo, hi))
                && mover.hulls.blocks(&sweep.shifted(mover.offset), mask, start_blocks)
        })
    }

    /// The union of the contents of every hull containing `point`
    /// (solid, clips, liquids, triggers, movers at their current offset).
    pub fn point_contents(&self, point: Vec3) -> Contents {
        self.box_contents(point, point)
    }

    /// [`CollisionWorld::point_contents`] limited to `mask`; hulls outside
    /// the mask are never visited.
    pub fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        let mut out = Contents::empty();
        self.for_each_overlap(point, point, mask, |c, _| out |= c);
        out & mask
    }

    /// The union of the contents of every hull overlapping the box
    /// `mins..maxs` (absolute coordinates; touching counts).
    pub fn box_contents(&self, mins: Vec3, maxs: Vec3) -> Contents {
        let mut out = Contents::empty();
        self.for_each_overlap(mins, maxs, Contents::all(), |c, _| out |= c);
        out
    }

    /// Appends to `out` every entity whose brushes overlap the box
    /// `mins..maxs` (absolute) with contents in `mask`, each once: how the
    /// sim finds the triggers a player touches.
    pub fn overlap_entities(&self, mins: Vec3, maxs: Vec3, mask: Contents, out: &mut Vec<EntityId>) {
        let first = out.len();
        self.for_each_overlap(mins, maxs, mask, |_, e| {
            if let Some(e) = e {
                out.push(e);
            }
        });
        out[first..].sort_unstable();
        let mut tail = out.split_off(first);
        tail.dedup();
        out.extend(tail);
    }

    fn for_each_overlap(&self, mins: Vec3, maxs: Vec3, mask: Contents, mut f: impl FnMut(Contents, Option<EntityId>)) {
        if !(mins.is_finite() && maxs.is_finite()) {
            return;
        }
        let (centre, half) = ((mins + maxs) * 0.5, ((maxs - mins) * 0.5).abs());
        self.solid.for_each_overlap(centre, half, mask, |r| f(r.contents, r.entity));
        self.volumes.for_each_overlap(centre, half, mask, |r| f(r.contents, r.entity));
        for m in &self.movers {
            m.hulls.for_each_overlap(centre - m.offset, half, mask, |r| f(r.contents, r.entity));
        }
    }
}

impl Trace for CollisionWorld {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        CollisionWorld::trace(self, start, end, mins, maxs, mask)
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        CollisionWorld::point_contents(self, point)
    }

    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        CollisionWorld::point_contents_in(self, point, mask)
    }

    fn line_is_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        CollisionWorld::line_is_clear(self, a, b, mask)
    }

    fn line_reaches(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        CollisionWorld::line_reaches(self, a, b, mask)
    }

    fn nearby(&self) -> Option<Nearby<'_>> {
        Some(CollisionWorld::nearby(self))
    }

    fn mover_offset_of(&self, entity: EntityId) -> Option<Vec3> {
        self.movers.iter().find(|m| m.entity == entity).map(|m| m.offset)
    }
}
