//! Collision planes of a convex solid for axis-aligned box traces.
//!
//! Sweeping a box against a convex solid is sweeping a point against their
//! Minkowski sum. That sum is bounded exactly by planes with the solid's face
//! normals, the box's face normals (the six axes) and the cross products of
//! the solid's edges with the axes, each pushed out by the box's extent along
//! the normal (see `world::clip`). Quake 3 calls the extra planes "bevels"
//! (`CM_AddFacetBevels`); without them a box corner snags on the air beside a
//! sloped edge.
//!
//! Every plane produced here supports the solid (all corners behind it,
//! some on it), so adding a plane never cuts the Minkowski sum: extras only
//! cost time, a missing one makes the trace slightly too eager.

use glam::{DVec3, Vec3};

use super::{DPlane, Plane};

/// Two normals closer than this (dot product) are the same plane direction.
const SAME_NORMAL: f64 = 1.0 - 1e-6;

/// A corner within this of a candidate bevel plane lies on it.
const ON_EPSILON: f64 = 0.01;

/// The clip planes of a convex solid: its faces, then the six axial planes
/// and the edge-axis bevels that are not already present.
///
/// Axial planes come right after the faces so the common rejection (box
/// outside the solid's bounds) is found early in the clip loop.
pub(crate) fn collision_planes(corners: &[DVec3], faces: &[DPlane], edges: &[(u32, u32)]) -> Vec<Plane> {
    let mut out: Vec<DPlane> = Vec::with_capacity(faces.len() + 6);
    for f in faces {
        push_unique(&mut out, *f);
    }
    for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
        for n in [axis, -axis] {
            push_unique(&mut out, support_plane(corners, n));
        }
    }
    for &(a, b) in edges {
        let (Some(&pa), Some(&pb)) = (corners.get(a as usize), corners.get(b as usize)) else {
            continue;
        };
        let dir = (pb - pa).normalize_or_zero();
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            let n = dir.cross(axis);
            if n.length_squared() < 1e-6 {
                // The edge is (nearly) parallel to this axis: the axial planes cover it.
                continue;
            }
            let n = n.normalize();
            for n in [n, -n] {
                let plane = support_plane(corners, n);
                // Only a plane through this edge is a bevel of it.
                if plane.distance(pa).abs() < ON_EPSILON {
                    push_unique(&mut out, plane);
                }
            }
        }
    }
    out.into_iter().map(DPlane::to_f32).collect()
}

/// The supporting plane of `corners` with outward normal `n`.
fn support_plane(corners: &[DVec3], n: DVec3) -> DPlane {
    let dist = corners.iter().map(|c| n.dot(*c)).fold(f64::MIN, f64::max);
    DPlane { normal: n, dist }
}

fn push_unique(out: &mut Vec<DPlane>, p: DPlane) {
    if !out.iter().any(|q| q.normal.dot(p.normal) > SAME_NORMAL && (q.dist - p.dist).abs() < ON_EPSILON) {
        out.push(p);
    }
}

/// Half the thickness given to patch triangles, in units.
///
/// A zero-thickness solid never stops a point trace: the enter and leave
/// fractions of its two faces are equal and the clip needs `enter < leave`.
/// Pushing each face out by 1/16 unit (far below anything a player could
/// notice, far above `f32` rounding at map scale) makes patches two-sided
/// for shots as well as for boxes.
pub(crate) const PATCH_HALF_THICKNESS: f64 = 0.0625;

/// The clip planes of one patch triangle, a slab `PATCH_HALF_THICKNESS`
/// either side of its plane: both faces, the axial planes and the edge
/// bevels (computed on the flat triangle, then pushed out like the faces).
pub(crate) fn triangle_planes(tri: [DVec3; 3]) -> Option<(Vec<Plane>, Vec3, Vec3)> {
    let [a, b, c] = tri;
    let n = (b - a).cross(c - a);
    if n.length_squared() < 1e-6 {
        return None;
    }
    let n = n.normalize();
    let d = n.dot(a);
    let faces = [DPlane { normal: n, dist: d }, DPlane { normal: -n, dist: -d }];
    let mut planes = collision_planes(&tri, &faces, &[(0, 1), (1, 2), (0, 2)]);
    // The slab is the Minkowski sum of the triangle and a segment along n:
    // each supporting plane moves out by the segment's support, h |m . n|.
    for p in &mut planes {
        p.dist += (PATCH_HALF_THICKNESS * p.normal.as_dvec3().dot(n).abs()) as f32;
    }
    let v = tri.map(|p| p.as_vec3());
    let pad = (n.abs() * PATCH_HALF_THICKNESS).as_vec3();
    Some((planes, v[0].min(v[1]).min(v[2]) - pad, v[0].max(v[1]).max(v[2]) + pad))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plane_supports_the_corners() {
        let corners = [DVec3::ZERO, DVec3::new(64.0, 0.0, 0.0), DVec3::new(0.0, 64.0, 32.0), DVec3::new(10.0, 5.0, 90.0)];
        let edges = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let planes = collision_planes(&corners, &[], &edges);
        assert!(planes.len() > 6, "a skewed tetrahedron needs bevels");
        for p in &planes {
            let max = corners.iter().map(|c| p.normal.as_dvec3().dot(*c) - p.dist as f64).fold(f64::MIN, f64::max);
            assert!(max.abs() < 1e-3, "plane {p:?} must touch the solid");
        }
    }

    #[test]
    fn triangle_has_both_sides() {
        let (planes, mins, maxs) =
            triangle_planes([DVec3::ZERO, DVec3::new(64.0, 0.0, 0.0), DVec3::new(0.0, 64.0, 0.0)]).expect("triangle");
        assert_eq!(planes[0].normal, Vec3::Z);
        assert_eq!(planes[1].normal, -Vec3::Z);
        assert_eq!(planes[0].dist, PATCH_HALF_THICKNESS as f32);
        assert_eq!(planes[2].dist, 64.0, "side planes are not thickened");
        let h = PATCH_HALF_THICKNESS as f32;
        assert_eq!((mins, maxs), (Vec3::new(0.0, 0.0, -h), Vec3::new(64.0, 64.0, h)));
        // +-z, +-x, +-y and the hypotenuse bevel.
        assert_eq!(planes.len(), 6 + 1);
        assert!(triangle_planes([DVec3::ZERO, DVec3::X, DVec3::X * 2.0]).is_none());
    }
}
