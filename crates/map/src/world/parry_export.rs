//! The world's hulls as parry3d shapes, for code that wants rapier or parry
//! queries on exactly Quarry's geometry (the trace benchmark compares
//! against rapier this way).

use glam::Vec3;
use parry3d::math::Pose;
use parry3d::shape::SharedShape;

use super::CollisionWorld;
use super::hull_set::HullSet;
use crate::contents::Contents;
use crate::entities::EntityId;

/// One hull as a parry3d shape.
#[derive(Clone)]
pub struct ParryHull {
    /// A `ConvexPolyhedron` for brushes (built with parry3d's convex hull of
    /// the brush corners), a `Triangle` for patch triangles.
    pub shape: SharedShape,
    /// World pose (identity, or a mover's current offset).
    pub pose: Pose,
    /// Contents of the hull.
    pub contents: Contents,
    /// Owning entity, `None` for worldspawn geometry.
    pub entity: Option<EntityId>,
}

impl std::fmt::Debug for ParryHull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParryHull").field("contents", &self.contents).field("entity", &self.entity).finish_non_exhaustive()
    }
}

impl CollisionWorld {
    /// Every hull whose contents intersect `mask`, as parry3d shapes (shared,
    /// cheap to clone), with movers at their current offset.
    pub fn parry_hulls(&self, mask: Contents) -> Vec<ParryHull> {
        let mut out = Vec::new();
        collect(&self.solid, Vec3::ZERO, mask, &mut out);
        collect(&self.volumes, Vec3::ZERO, mask, &mut out);
        for m in &self.movers {
            collect(&m.hulls, m.offset, mask, &mut out);
        }
        out
    }
}

fn collect(set: &HullSet, offset: Vec3, mask: Contents, out: &mut Vec<ParryHull>) {
    for (r, s) in set.records().iter().zip(set.shapes()) {
        if !r.contents.intersects(mask) {
            continue;
        }
        out.push(ParryHull { shape: s.shape.clone(), pose: Pose::from_translation(offset), contents: r.contents, entity: r.entity });
    }
}
