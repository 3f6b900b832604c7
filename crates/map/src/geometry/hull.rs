//! Brush planes to a convex solid.
//!
//! The corners are the intersections of every plane triple (in `f64`) that
//! lie inside all planes; each plane's face is the corners on it, sorted
//! around their centroid; parry3d builds the convex hull of the corners
//! (kept for rapier/parry queries and as a cross-check). A brush is skipped with a [`SkipReason`] when its
//! planes enclose no volume or do not close (some face edge belongs to only
//! one face).

use glam::{DVec3, Vec3};
use parry3d::shape::SharedShape;

use super::bevel::collision_planes;
use super::{ConvexSolid, DPlane};
use crate::warning::SkipReason;

/// How far outside a plane a corner may be and still count as inside, and
/// how close to a plane it must be to lie on it (Quake units).
///
/// Map coordinates are usually integers or multiples of 1/8; plane triple
/// intersections of real maps are off by ~1e-9, so 0.01 is generous without
/// merging genuinely distinct corners (editors snap to at least 1/8 unit).
const ON_EPSILON: f64 = 0.01;

/// Corners closer than this are one corner.
const MERGE_EPSILON: f64 = 0.01;

/// A brush thinner than this (on every corner behind some face) has no volume.
const MIN_THICKNESS: f64 = 0.05;

/// Most distinct planes a brush may have. Corner finding is cubic in the
/// plane count, so a corrupt file with a 10,000-sided brush must not stall
/// the loader; real brushes have well under 50 (q3map2 allows 300 sides
/// before merging duplicates, qbsp far fewer).
pub(crate) const MAX_BRUSH_PLANES: usize = 128;

/// Builds the convex solid bounded by `planes` (normals pointing out).
pub(crate) fn build_brush(planes: &[DPlane]) -> Result<ConvexSolid, SkipReason> {
    let planes = distinct_planes(planes);
    if planes.len() < 4 {
        return Err(SkipReason::TooFewPlanes { planes: planes.len() });
    }
    if planes.len() > MAX_BRUSH_PLANES {
        return Err(SkipReason::TooManyPlanes { planes: planes.len() });
    }
    if is_unbounded(&planes) {
        return Err(SkipReason::Open);
    }
    let corners = corners(&planes);
    if corners.len() < 4 {
        return Err(SkipReason::NoVolume { vertices: corners.len() });
    }
    let mut faces = Vec::with_capacity(planes.len());
    let mut face_planes = Vec::with_capacity(planes.len());
    for plane in &planes {
        let on: Vec<u32> = (0..corners.len() as u32)
            .filter(|&i| plane.distance(corners[i as usize]).abs() < ON_EPSILON)
            .collect();
        if on.len() >= 3 {
            faces.push(sort_around(plane.normal, &corners, on));
            face_planes.push(*plane);
        }
    }
    if faces.len() < 4 || is_flat(&face_planes, &corners) {
        return Err(SkipReason::NoVolume { vertices: corners.len() });
    }
    if !is_closed(&faces) {
        return Err(SkipReason::Open);
    }
    let vertices: Vec<Vec3> = corners.iter().map(|c| c.as_vec3()).collect();
    let shape = SharedShape::convex_hull(&vertices).ok_or(SkipReason::HullFailed)?;
    let edges = unique_edges(&faces);
    let planes = collision_planes(&corners, &face_planes, &edges);
    let (mins, maxs) = bounds(&vertices);
    Ok(ConvexSolid { vertices, faces, planes, shape, mins, maxs })
}

/// Drops exact and near duplicates (same normal and distance).
fn distinct_planes(planes: &[DPlane]) -> Vec<DPlane> {
    let mut out: Vec<DPlane> = Vec::with_capacity(planes.len());
    for p in planes {
        let dup = out.iter().any(|q| q.normal.dot(p.normal) > 1.0 - 1e-9 && (q.dist - p.dist).abs() < ON_EPSILON);
        if !dup {
            out.push(*p);
        }
    }
    out
}

/// Whether the planes leave a direction to infinity open: some `u` with
/// `n · u <= 0` for every normal. If such directions exist, one lies along
/// the intersection line of two of the planes (an extreme ray or the
/// lineality of the recession cone), so testing `±(nᵢ × nⱼ)` is enough.
fn is_unbounded(planes: &[DPlane]) -> bool {
    for (i, a) in planes.iter().enumerate() {
        for b in &planes[i + 1..] {
            let u = a.normal.cross(b.normal);
            if u.length_squared() < 1e-12 {
                continue;
            }
            let u = u.normalize();
            for dir in [u, -u] {
                if planes.iter().all(|p| p.normal.dot(dir) <= 1e-9) {
                    return true;
                }
            }
        }
    }
    false
}

/// Every plane-triple intersection inside all planes, merged.
fn corners(planes: &[DPlane]) -> Vec<DVec3> {
    let mut out: Vec<DVec3> = Vec::new();
    let n = planes.len();
    for i in 0..n {
        for j in i + 1..n {
            let nij = planes[i].normal.cross(planes[j].normal);
            if nij.length_squared() < 1e-18 {
                continue;
            }
            for k in j + 1..n {
                let det = nij.dot(planes[k].normal);
                if det.abs() < 1e-9 {
                    continue;
                }
                let (a, b, c) = (&planes[i], &planes[j], &planes[k]);
                let p = (b.normal.cross(c.normal) * a.dist + c.normal.cross(a.normal) * b.dist + nij * c.dist) / det;
                if !p.is_finite() || planes.iter().any(|q| q.distance(p) > ON_EPSILON) {
                    continue;
                }
                if !out.iter().any(|q| q.distance_squared(p) < MERGE_EPSILON * MERGE_EPSILON) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// Sorts the corner indices of one face counter-clockwise around `normal`.
fn sort_around(normal: DVec3, corners: &[DVec3], mut idx: Vec<u32>) -> Vec<u32> {
    let centroid = idx.iter().map(|&i| corners[i as usize]).sum::<DVec3>() / idx.len() as f64;
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let angle = |i: &u32| {
        let d = corners[*i as usize] - centroid;
        d.dot(v).atan2(d.dot(u))
    };
    idx.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    idx
}

/// Whether every face has all corners within `MIN_THICKNESS` of its plane.
fn is_flat(planes: &[DPlane], corners: &[DVec3]) -> bool {
    planes.iter().any(|p| corners.iter().map(|&c| -p.distance(c)).fold(0.0, f64::max) < MIN_THICKNESS)
}

/// Whether every face edge is shared by exactly two faces.
fn is_closed(faces: &[Vec<u32>]) -> bool {
    let mut edges: Vec<(u32, u32)> = faces.iter().flat_map(|f| polygon_edges(f)).collect();
    edges.sort_unstable();
    let mut i = 0;
    while i < edges.len() {
        let run = edges[i..].iter().take_while(|&&e| e == edges[i]).count();
        if run != 2 {
            return false;
        }
        i += run;
    }
    true
}

/// The edges of a polygon as (low, high) index pairs.
pub(crate) fn polygon_edges(face: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    let n = face.len();
    (0..n).map(move |i| {
        let (a, b) = (face[i], face[(i + 1) % n]);
        (a.min(b), a.max(b))
    })
}

fn unique_edges(faces: &[Vec<u32>]) -> Vec<(u32, u32)> {
    let mut edges: Vec<(u32, u32)> = faces.iter().flat_map(|f| polygon_edges(f)).collect();
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// Axis-aligned bounds of points.
pub(crate) fn bounds(points: &[Vec3]) -> (Vec3, Vec3) {
    points.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), &p| (lo.min(p), hi.max(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quake-style planes of an axis-aligned box.
    pub(crate) fn box_planes(mins: DVec3, maxs: DVec3) -> Vec<DPlane> {
        let mut out = Vec::new();
        for axis in 0..3 {
            let mut n = DVec3::ZERO;
            n[axis] = 1.0;
            out.push(DPlane { normal: n, dist: maxs[axis] });
            out.push(DPlane { normal: -n, dist: -mins[axis] });
        }
        out
    }

    #[test]
    fn cube_has_8_corners_6_faces_6_planes() {
        let s = build_brush(&box_planes(DVec3::splat(-8.0), DVec3::splat(8.0))).expect("cube");
        assert_eq!(s.vertices.len(), 8);
        assert_eq!(s.faces.len(), 6);
        assert!(s.faces.iter().all(|f| f.len() == 4));
        assert_eq!(s.planes.len(), 6, "an axial box needs no bevels");
        assert_eq!((s.mins, s.maxs), (Vec3::splat(-8.0), Vec3::splat(8.0)));
    }

    #[test]
    fn faces_wind_counter_clockwise_from_outside() {
        let s = build_brush(&box_planes(DVec3::ZERO, DVec3::ONE * 16.0)).expect("cube");
        for f in &s.faces {
            let [a, b, c] = [0, 1, 2].map(|i| s.vertices[f[i] as usize]);
            let n = (b - a).cross(c - a).normalize();
            let centre = Vec3::splat(8.0);
            assert!(n.dot(a - centre) > 0.0, "face normal points out");
        }
    }

    #[test]
    fn wedge_gets_bevels() {
        let mut planes = box_planes(DVec3::ZERO, DVec3::new(64.0, 64.0, 64.0));
        // Cut the top off with a 45-degree slope rising along +x.
        let n = DVec3::new(-1.0, 0.0, 1.0).normalize();
        planes.push(DPlane { normal: n, dist: 0.0 });
        let s = build_brush(&planes).expect("wedge");
        assert_eq!(s.faces.len(), 5, "the top plane is redundant");
        assert_eq!(s.vertices.len(), 6);
        assert!(s.planes.len() >= 5);
    }

    #[test]
    fn degenerate_brushes_are_rejected_with_reasons() {
        let cube = box_planes(DVec3::ZERO, DVec3::splat(16.0));
        assert_eq!(build_brush(&cube[..3]).unwrap_err(), SkipReason::TooFewPlanes { planes: 3 });
        // Zero thickness: top and bottom at the same height.
        let flat = box_planes(DVec3::ZERO, DVec3::new(16.0, 16.0, 0.0));
        assert!(matches!(build_brush(&flat).unwrap_err(), SkipReason::NoVolume { .. }));
        // Open: a box missing its top.
        let open: Vec<_> = cube.iter().copied().filter(|p| p.normal != DVec3::Z).collect();
        assert_eq!(build_brush(&open).unwrap_err(), SkipReason::Open);
        // Contradictory planes: nothing is inside all of them.
        let mut empty = cube.clone();
        empty.push(DPlane { normal: DVec3::Z, dist: -5.0 });
        assert!(matches!(build_brush(&empty).unwrap_err(), SkipReason::NoVolume { .. }));
    }

    #[test]
    fn too_many_planes_are_refused() {
        let planes: Vec<DPlane> = (0..200)
            .map(|i| {
                let a = i as f64 * 0.1;
                DPlane { normal: DVec3::new(a.cos(), a.sin(), (i % 3) as f64 - 1.0).normalize(), dist: 64.0 }
            })
            .collect();
        assert!(matches!(build_brush(&planes), Err(SkipReason::TooManyPlanes { .. })));
    }

    #[test]
    fn duplicate_planes_are_merged() {
        let mut planes = box_planes(DVec3::ZERO, DVec3::splat(16.0));
        planes.push(planes[0]);
        let s = build_brush(&planes).expect("cube with a duplicate face");
        assert_eq!(s.faces.len(), 6);
    }
}
