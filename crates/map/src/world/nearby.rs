//! Traces around one spot without the tree walk: [`Nearby`] gathers the
//! hulls overlapping a box once, and every trace that stays inside the box
//! clips against that short list in the order the tree would visit them,
//! with the same tests, so it gets the same answer bit for bit. A trace
//! that leaves the box goes through the whole world as usual.
//!
//! For the navmesh build, which sweeps a dozen short moves out of every
//! standing spot: a walk down the tree per sweep cost more than the
//! clipping itself.

use glam::Vec3;

use super::CollisionWorld;
use super::clip::Sweep;
use super::trace::{Trace, TraceResult};
use crate::contents::Contents;

/// How much wider than asked the hulls are gathered: a mover's hulls are
/// tested in its own frame, where shifting the sweep can round a bound
/// by an ulp; a few extra hulls cost nothing and keep the list complete.
const GATHER_MARGIN: f32 = 1.0;

/// The hulls overlapping one box, per hull set, in tree order.
#[derive(Debug, Clone, Default)]
pub(crate) struct NearbyHulls {
    lo: Vec3,
    hi: Vec3,
    pub(crate) solid: Vec<u32>,
    pub(crate) volumes: Vec<u32>,
    /// Movers with hulls in the box: the mover's index and its hulls.
    pub(crate) movers: Vec<(u32, Vec<u32>)>,
    /// Spare hull lists, kept to be reused by the next focus.
    spare: Vec<Vec<u32>>,
}

impl NearbyHulls {
    /// Whether everything `sweep` may touch lies inside the gathered box.
    pub(crate) fn covers(&self, sweep: &Sweep) -> bool {
        let (lo, hi) = sweep.bounds(1.0);
        self.lo.cmple(lo).all() && hi.cmple(self.hi).all()
    }

    fn gather(&mut self, world: &CollisionWorld, lo: Vec3, hi: Vec3) {
        self.solid.clear();
        self.volumes.clear();
        for (_, mut list) in self.movers.drain(..) {
            list.clear();
            self.spare.push(list);
        }
        if !(lo.is_finite() && hi.is_finite()) || lo.cmpgt(hi).any() {
            // An empty box covers no sweep: every trace takes the whole world.
            (self.lo, self.hi) = (Vec3::INFINITY, Vec3::NEG_INFINITY);
            return;
        }
        (self.lo, self.hi) = (lo, hi);
        let (glo, ghi) = (
            lo - Vec3::splat(GATHER_MARGIN),
            hi + Vec3::splat(GATHER_MARGIN),
        );
        world.solid.gather(glo, ghi, &mut self.solid);
        world.volumes.gather(glo, ghi, &mut self.volumes);
        for (i, mover) in world.movers.iter().enumerate() {
            let mut list = self.spare.pop().unwrap_or_default();
            mover
                .hulls
                .gather(glo - mover.offset, ghi - mover.offset, &mut list);
            if list.is_empty() {
                self.spare.push(list);
            } else {
                self.movers.push((i as u32, list));
            }
        }
    }
}

/// A world seen from one box: see the module docs. Built by
/// [`CollisionWorld::nearby`] (or [`Trace::nearby`]) and moved with
/// [`Nearby::focus`]; its lists are reused from one box to the next.
#[derive(Debug, Clone)]
pub struct Nearby<'w> {
    world: &'w CollisionWorld,
    hulls: NearbyHulls,
}

impl<'w> Nearby<'w> {
    /// Gathers the hulls overlapping `lo..hi` (absolute coordinates):
    /// traces whose box stays inside clip against those only.
    pub fn focus(&mut self, lo: Vec3, hi: Vec3) {
        self.hulls.gather(self.world, lo, hi);
    }

    /// How many hulls the current box holds (for measurements).
    pub fn hull_count(&self) -> usize {
        self.hulls.solid.len()
            + self.hulls.volumes.len()
            + self
                .hulls
                .movers
                .iter()
                .map(|(_, l)| l.len())
                .sum::<usize>()
    }
}

impl CollisionWorld {
    /// A [`Nearby`] view of this world, focused on nothing yet (every
    /// trace takes the whole world until [`Nearby::focus`]).
    pub fn nearby(&self) -> Nearby<'_> {
        let mut hulls = NearbyHulls::default();
        hulls.gather(self, Vec3::INFINITY, Vec3::NEG_INFINITY);
        Nearby { world: self, hulls }
    }
}

impl Trace for Nearby<'_> {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        self.world
            .trace_among(start, end, mins, maxs, mask, Some(&self.hulls))
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }

    fn point_contents_in(&self, point: Vec3, mask: Contents) -> Contents {
        self.world.point_contents_in(point, mask)
    }

    fn line_is_clear(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.world.line_is_clear(a, b, mask)
    }

    fn line_reaches(&self, a: Vec3, b: Vec3, mask: Contents) -> bool {
        self.world.line_reaches(a, b, mask)
    }

    fn nearby(&self) -> Option<Nearby<'_>> {
        Some(self.world.nearby())
    }

    fn mover_offset_of(&self, entity: crate::EntityId) -> Option<Vec3> {
        Trace::mover_offset_of(self.world, entity)
    }
}
