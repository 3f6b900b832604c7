//! The per-hull math of a Quake trace: an axis-aligned box swept against one
//! convex hull given as clip planes (faces plus bevels), after Quake 3's
//! `CM_TraceThroughBrush` and `CM_TestBoxInBrush`.
//!
//! The box is made symmetric by moving the trace to the box's centre; each
//! plane is then pushed out by the box's extent along its normal
//! (`|n| · half`), which turns the box sweep into a point sweep against the
//! Minkowski sum.

use glam::Vec3;

use crate::geometry::Plane;

/// How far short of a surface a trace stops, in units along the surface
/// normal, so the end position never touches solid and the next trace from
/// it does not start solid. Quake 1's `DIST_EPSILON` (1/32); Quake 3 uses
/// 1/8, which makes movement visibly hover over floors at Quake 1 scale.
pub const SURFACE_CLIP_EPSILON: f32 = 0.03125;

/// A box sweep prepared for clipping.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sweep {
    /// Centre of the box at the start.
    pub(crate) start: Vec3,
    /// Centre of the box at the end.
    pub(crate) end: Vec3,
    /// Half extents of the box.
    pub(crate) half: Vec3,
}

impl Sweep {
    /// The sweep of box `mins..maxs` (relative to the traced point) from `start` to `end`.
    pub(crate) fn new(start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> Sweep {
        let centre = (mins + maxs) * 0.5;
        Sweep { start: start + centre, end: end + centre, half: ((maxs - mins) * 0.5).abs() }
    }

    /// The same sweep seen from a frame moved by `offset` (for movers).
    pub(crate) fn shifted(&self, offset: Vec3) -> Sweep {
        Sweep { start: self.start - offset, end: self.end - offset, half: self.half }
    }

    /// Bounds of everything the box touches from the start to `fraction` of
    /// the way, padded so a hull within the clip epsilon of the end is kept.
    pub(crate) fn bounds(&self, fraction: f32) -> (Vec3, Vec3) {
        let end = self.start + (self.end - self.start) * fraction;
        let pad = self.pad();
        (self.start.min(end) - pad, self.start.max(end) + pad)
    }

    /// How far beyond the box anything it may touch can lie: the half
    /// extents plus a unit, so a hull within the clip epsilon is kept.
    fn pad(&self) -> Vec3 {
        self.half + Vec3::splat(1.0)
    }

    /// The sweep's path for [`SweepPath::may_touch`] tests, or `None` when
    /// it is short enough that the overlap test against its bounds already
    /// rejects about as much (the path test would only cost time).
    pub(crate) fn long_path(&self) -> Option<SweepPath> {
        let d = self.end - self.start;
        (d.length_squared() > LONG_SWEEP * LONG_SWEEP).then(|| SweepPath {
            start: self.start,
            inv_d: Vec3::new(inverse(d.x), inverse(d.y), inverse(d.z)),
            pad: self.pad(),
        })
    }
}

/// Sweeps longer than this (units) test tree nodes against their path, not
/// only against their bounds.
const LONG_SWEEP: f32 = 96.0;

/// 1/x, or infinity for (near) zero: the slab test then treats the axis as
/// parallel.
fn inverse(x: f32) -> f32 {
    if x.abs() < 1e-9 { f32::INFINITY.copysign(x) } else { 1.0 / x }
}

/// A sweep's path with its inverse direction, for quick slab tests.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SweepPath {
    start: Vec3,
    inv_d: Vec3,
    pad: Vec3,
}

impl SweepPath {
    /// Whether the box, swept from the start to `fraction` of the way, may
    /// touch anything inside the box `min..max` (padded like
    /// [`Sweep::bounds`]): a slab test of the centre's path against the
    /// box grown by the half extents. Unlike an overlap test against the
    /// sweep's bounds, it rejects most of what a long diagonal trace's
    /// bounds cover but its path does not.
    pub(crate) fn may_touch(&self, min: Vec3, max: Vec3, fraction: f32) -> bool {
        let (lo, hi) = (min - self.pad, max + self.pad);
        let (mut t0, mut t1) = (0.0f32, fraction);
        for axis in 0..3 {
            let (s, inv) = (self.start[axis], self.inv_d[axis]);
            if inv.is_infinite() {
                // Parallel to this axis: inside the slab throughout or never.
                if s < lo[axis] || s > hi[axis] {
                    return false;
                }
                continue;
            }
            let (a, b) = ((lo[axis] - s) * inv, (hi[axis] - s) * inv);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        t0 <= t1
    }
}

/// What clipping against one hull found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Clip {
    /// The sweep does not enter the hull before `fraction`.
    Miss,
    /// The sweep enters the hull at `fraction` through the plane with `normal`.
    Hit { fraction: f32, normal: Vec3 },
    /// The box overlaps the hull at the start; `all_solid` if it never gets out.
    StartSolid { all_solid: bool },
}

/// Clips `sweep` against the hull bounded by `planes`; only hits closer than
/// `best` (the current fraction) are reported.
#[inline]
pub(crate) fn clip(planes: &[Plane], sweep: &Sweep, best: f32) -> Clip {
    let mut enter = -1.0f32;
    let mut leave = 1.0f32;
    let mut normal = Vec3::ZERO;
    let mut start_out = false;
    let mut get_out = false;
    for p in planes {
        let dist = p.dist + p.normal.abs().dot(sweep.half);
        let d1 = p.normal.dot(sweep.start) - dist;
        let d2 = p.normal.dot(sweep.end) - dist;
        get_out |= d2 > 0.0;
        start_out |= d1 > 0.0;
        // Entirely in front of this plane (or ending within the epsilon while
        // moving away from it): the sweep never enters the hull.
        if d1 > 0.0 && (d2 >= SURFACE_CLIP_EPSILON || d2 >= d1) {
            return Clip::Miss;
        }
        if d1 <= 0.0 && d2 <= 0.0 {
            continue;
        }
        if d1 > d2 {
            let f = ((d1 - SURFACE_CLIP_EPSILON) / (d1 - d2)).max(0.0);
            if f > enter {
                enter = f;
                normal = p.normal;
            }
        } else {
            let f = ((d1 + SURFACE_CLIP_EPSILON) / (d1 - d2)).min(1.0);
            leave = leave.min(f);
        }
    }
    if !start_out {
        return Clip::StartSolid { all_solid: !get_out };
    }
    if enter < leave && enter > -1.0 && enter < best {
        Clip::Hit { fraction: enter.max(0.0), normal }
    } else {
        Clip::Miss
    }
}

/// Whether the box `centre ± half` overlaps the hull (touching counts).
#[inline]
pub(crate) fn overlaps(planes: &[Plane], centre: Vec3, half: Vec3) -> bool {
    planes.iter().all(|p| p.normal.dot(centre) - p.dist - p.normal.abs().dot(half) <= 0.0)
}

/// Whether two axis-aligned boxes overlap (touching counts).
#[inline]
pub(crate) fn aabb_overlap(amin: Vec3, amax: Vec3, bmin: Vec3, bmax: Vec3) -> bool {
    amin.cmple(bmax).all() && bmin.cmple(amax).all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_diagonal_sweep_may_touch_only_boxes_on_its_path() {
        let sweep = Sweep::new(Vec3::ZERO, Vec3::new(1000.0, 1000.0, 0.0), Vec3::splat(-4.0), Vec3::splat(4.0)).long_path().expect("long");
        // Inside the sweep's bounds, far from its path.
        assert!(!sweep.may_touch(Vec3::new(900.0, 0.0, -10.0), Vec3::new(950.0, 50.0, 10.0), 1.0));
        // On the path, and just beside it within the half extents and pad.
        assert!(sweep.may_touch(Vec3::new(490.0, 490.0, -10.0), Vec3::new(510.0, 510.0, 10.0), 1.0));
        assert!(sweep.may_touch(Vec3::new(497.0, 490.0, -10.0), Vec3::new(498.0, 491.0, 10.0), 1.0));
        assert!(!sweep.may_touch(Vec3::new(505.0, 490.0, -10.0), Vec3::new(506.0, 491.0, 10.0), 1.0));
        // Beyond the fraction already reached.
        assert!(!sweep.may_touch(Vec3::new(900.0, 900.0, -10.0), Vec3::new(950.0, 950.0, 10.0), 0.5));
        // A sweep along one axis and a box off that axis.
        let straight = Sweep::new(Vec3::ZERO, Vec3::new(0.0, 0.0, -100.0), Vec3::ZERO, Vec3::ZERO).long_path().expect("long");
        assert!(!straight.may_touch(Vec3::new(2.0, -1.0, -50.0), Vec3::new(3.0, 1.0, -40.0), 1.0));
        assert!(straight.may_touch(Vec3::new(0.5, -1.0, -50.0), Vec3::new(3.0, 1.0, -40.0), 1.0));
        // Starting exactly on a padded face of the box, moving along it.
        assert!(straight.may_touch(Vec3::new(1.0, -1.0, -50.0), Vec3::new(3.0, 1.0, -40.0), 1.0));
        assert!(Sweep::new(Vec3::ZERO, Vec3::X * 50.0, Vec3::ZERO, Vec3::ZERO).long_path().is_none(), "short sweeps test bounds only");
    }

    /// A 64-unit cube from the origin, as planes.
    fn cube() -> Vec<Plane> {
        let mut out = Vec::new();
        for n in [Vec3::X, Vec3::Y, Vec3::Z] {
            out.push(Plane { normal: n, dist: 64.0 });
            out.push(Plane { normal: -n, dist: 0.0 });
        }
        out
    }

    #[test]
    fn point_hits_face_short_by_epsilon() {
        let s = Sweep::new(Vec3::new(-64.0, 32.0, 32.0), Vec3::new(32.0, 32.0, 32.0), Vec3::ZERO, Vec3::ZERO);
        let Clip::Hit { fraction, normal } = clip(&cube(), &s, 1.0) else { panic!("expected a hit") };
        assert_eq!(normal, -Vec3::X);
        let x = -64.0 + 96.0 * fraction;
        assert!((x + SURFACE_CLIP_EPSILON).abs() < 1e-4, "{x}");
    }

    #[test]
    fn box_extent_is_added() {
        let s = Sweep::new(Vec3::new(32.0, 32.0, 200.0), Vec3::new(32.0, 32.0, 0.0), Vec3::splat(-16.0), Vec3::splat(16.0));
        let Clip::Hit { fraction, normal } = clip(&cube(), &s, 1.0) else { panic!("expected a hit") };
        assert_eq!(normal, Vec3::Z);
        let z = 200.0 - 200.0 * fraction;
        assert!((z - (80.0 + SURFACE_CLIP_EPSILON)).abs() < 1e-3, "{z}");
    }

    #[test]
    fn misses_and_parallel_slides() {
        let planes = cube();
        let s = Sweep::new(Vec3::new(-10.0, -10.0, 100.0), Vec3::new(100.0, 100.0, 100.0), Vec3::ZERO, Vec3::ZERO);
        assert_eq!(clip(&planes, &s, 1.0), Clip::Miss);
        // Resting on the top face within the epsilon and sliding along it.
        let z = 64.0 + SURFACE_CLIP_EPSILON * 0.5;
        let s = Sweep::new(Vec3::new(10.0, 10.0, z), Vec3::new(50.0, 10.0, z), Vec3::ZERO, Vec3::ZERO);
        assert_eq!(clip(&planes, &s, 1.0), Clip::Miss);
    }

    #[test]
    fn start_solid_and_all_solid() {
        let planes = cube();
        let inside = Sweep::new(Vec3::splat(32.0), Vec3::splat(40.0), Vec3::ZERO, Vec3::ZERO);
        assert_eq!(clip(&planes, &inside, 1.0), Clip::StartSolid { all_solid: true });
        let out = Sweep::new(Vec3::splat(32.0), Vec3::new(32.0, 32.0, 200.0), Vec3::ZERO, Vec3::ZERO);
        assert_eq!(clip(&planes, &out, 1.0), Clip::StartSolid { all_solid: false });
    }

    #[test]
    fn overlap_counts_touching() {
        let planes = cube();
        assert!(overlaps(&planes, Vec3::new(80.0, 32.0, 32.0), Vec3::splat(16.0)));
        assert!(!overlaps(&planes, Vec3::new(80.1, 32.0, 32.0), Vec3::splat(16.0)));
        assert!(aabb_overlap(Vec3::ZERO, Vec3::ONE, Vec3::ONE, Vec3::splat(2.0)));
        assert!(!aabb_overlap(Vec3::ZERO, Vec3::ONE, Vec3::splat(1.5), Vec3::splat(2.0)));
    }
}
