//! Geometry built from raw primitives: brush planes to convex solids
//! ([`hull`]), bezier patches to triangles ([`patch_mesh`]), and the
//! collision planes of a convex solid including bevels ([`bevel`]).
//!
//! Construction runs in `f64` (plane triples are ill-conditioned for long
//! thin brushes); the results are stored in `f32`, which is exact for
//! Quake-scale coordinates to well under the trace epsilon.

pub(crate) mod bevel;
pub(crate) mod hull;
pub(crate) mod patch_mesh;

use glam::{DVec3, Vec3};
use parry3d::shape::SharedShape;

/// A plane `normal · p = dist`; points with `normal · p > dist` are outside.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Plane {
    pub(crate) normal: Vec3,
    pub(crate) dist: f32,
}

/// A plane in `f64`, used while building.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DPlane {
    pub(crate) normal: DVec3,
    pub(crate) dist: f64,
}

impl DPlane {
    /// The plane through three points given clockwise as seen from outside,
    /// the Quake convention: `normal = (p0 - p1) × (p2 - p1)`, pointing out.
    ///
    /// `None` if the points are (nearly) collinear or the plane is not
    /// finite (points so large that the distance overflows).
    pub(crate) fn from_points([p0, p1, p2]: [DVec3; 3]) -> Option<DPlane> {
        let n = (p0 - p1).cross(p2 - p1);
        let len = n.length();
        // Relative test: the cross product's length is the parallelogram area.
        let scale = (p0 - p1).length() * (p2 - p1).length();
        if !len.is_finite() || len <= scale * 1e-9 || len == 0.0 {
            return None;
        }
        let normal = n / len;
        let dist = normal.dot(p1);
        dist.is_finite().then_some(DPlane { normal, dist })
    }

    /// Signed distance of `p` (positive outside).
    pub(crate) fn distance(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.dist
    }

    /// The `f32` plane.
    pub(crate) fn to_f32(self) -> Plane {
        Plane { normal: self.normal.as_vec3(), dist: self.dist as f32 }
    }
}

/// A convex solid ready for the collision world.
#[derive(Debug, Clone)]
pub(crate) struct ConvexSolid {
    /// Corners.
    pub(crate) vertices: Vec<Vec3>,
    /// Face polygons as indices into `vertices`, counter-clockwise seen from
    /// outside (what an OBJ writer wants).
    pub(crate) faces: Vec<Vec<u32>>,
    /// Clip planes for box traces: faces, axial planes and edge bevels.
    pub(crate) planes: Vec<Plane>,
    /// The parry3d shape: the convex hull of `vertices` for brushes (built
    /// by parry3d, which also validates the brush), a triangle for patches.
    pub(crate) shape: SharedShape,
    /// Bounds of `vertices`.
    pub(crate) mins: Vec3,
    /// Bounds of `vertices`.
    pub(crate) maxs: Vec3,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_plane_orientation() {
        // The top face of a dm3 brush: z = 32, normal up.
        let p = DPlane::from_points([
            DVec3::new(384.0, 112.0, 32.0),
            DVec3::new(384.0, 128.0, 32.0),
            DVec3::new(512.0, 192.0, 32.0),
        ])
        .expect("plane");
        assert!((p.normal - DVec3::Z).length() < 1e-12);
        assert!((p.dist - 32.0).abs() < 1e-12);
        assert!(p.distance(DVec3::new(0.0, 0.0, 40.0)) > 0.0);
    }

    #[test]
    fn collinear_points_make_no_plane() {
        let p = DPlane::from_points([DVec3::ZERO, DVec3::X, DVec3::X * 2.0]);
        assert!(p.is_none());
        assert!(DPlane::from_points([DVec3::ZERO, DVec3::ZERO, DVec3::X]).is_none());
        assert!(DPlane::from_points([DVec3::ZERO, DVec3::X, DVec3::splat(f64::NAN)]).is_none());
    }
}
