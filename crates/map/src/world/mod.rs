//! The collision world: static solid hulls (brushes and patch triangles),
//! separate non-blocking volumes (liquids, triggers), and movers whose hulls
//! the sim can move; with [`trace`](CollisionWorld::trace),
//! [`point_contents`](CollisionWorld::point_contents) and
//! [`box_contents`](CollisionWorld::box_contents).
//!
//! # Design
//!
//! Each hull is kept as clip planes (faces plus bevels) and traced the Quake
//! 3 way (`clip.rs`), with a parry3d [`Bvh`](parry3d::partitioning::Bvh)
//! over hull bounds as the broad phase. The alternative, rapier's
//! `QueryPipeline::cast_shape` of a cuboid against `ConvexPolyhedron`
//! colliders over the same hulls, measured 3.5 to 7.5 times slower on the
//! shared maps for the same 64-unit moves (`benches/trace.rs` runs both),
//! and it would need its own epsilon handling and start-solid test to give
//! Quake semantics, which the plane clipper gives by construction.
//!
//! A mover is a separate hull set with an offset: moving it is one store,
//! with no broad-phase update, and traces shift into its frame. Movers
//! translate only (doors, plats, bobbing platforms); rotation is not
//! modelled.
//!
//! This module must not know about entity semantics beyond the
//! [`EntityId`] that owns a hull.

pub(crate) mod build;
pub(crate) mod clip;
pub(crate) mod hull_set;
mod nearby;
mod parry_export;
mod trace;

use glam::Vec3;
use serde::Serialize;

pub use parry_export::ParryHull;
pub use nearby::Nearby;
pub use trace::{Trace, TraceResult};

use crate::entities::EntityId;
use hull_set::HullSet;

/// Identifies one mover (a `func_door`, `func_plat`, …) in the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct MoverId(pub u32);

/// The hulls of one moving brush entity and its current offset.
#[derive(Debug, Clone)]
pub(crate) struct MoverBody {
    pub(crate) entity: EntityId,
    pub(crate) hulls: HullSet,
    pub(crate) offset: Vec3,
}

/// How many hulls of each kind a world holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HullCounts {
    /// Static blocking hulls from brushes (solid, clips, sky).
    pub solid_brushes: usize,
    /// Static blocking triangles from patches.
    pub patch_triangles: usize,
    /// Non-blocking volumes (liquids, triggers).
    pub volumes: usize,
    /// Hulls that belong to movers.
    pub mover_hulls: usize,
}

/// The static query structure over a map's geometry; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct CollisionWorld {
    pub(crate) solid: HullSet,
    pub(crate) volumes: HullSet,
    pub(crate) movers: Vec<MoverBody>,
    pub(crate) patch_triangles: usize,
}

impl CollisionWorld {
    /// Hull counts by kind.
    pub fn hull_counts(&self) -> HullCounts {
        HullCounts {
            solid_brushes: self.solid.len() - self.patch_triangles,
            patch_triangles: self.patch_triangles,
            volumes: self.volumes.len(),
            mover_hulls: self.movers.iter().map(|m| m.hulls.len()).sum(),
        }
    }

    /// Bounds of all static and mover geometry (movers at rest), or `None`
    /// for an empty world.
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let sets = std::iter::once(&self.solid).chain(std::iter::once(&self.volumes)).chain(self.movers.iter().map(|m| &m.hulls));
        sets.filter_map(HullSet::bounds).reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
    }

    /// Every mover with the entity it belongs to.
    pub fn movers(&self) -> impl Iterator<Item = (MoverId, EntityId)> + '_ {
        self.movers.iter().enumerate().map(|(i, m)| (MoverId(i as u32), m.entity))
    }

    /// The mover built from `entity`'s brushes, if any.
    pub fn mover_of(&self, entity: EntityId) -> Option<MoverId> {
        self.movers.iter().position(|m| m.entity == entity).map(|i| MoverId(i as u32))
    }

    /// Moves a mover's hulls to `offset` from where the map placed them.
    /// Returns false for an unknown id or a non-finite offset (nothing changes).
    pub fn set_mover_offset(&mut self, mover: MoverId, offset: Vec3) -> bool {
        match self.movers.get_mut(mover.0 as usize) {
            Some(m) if offset.is_finite() => {
                m.offset = offset;
                true
            }
            _ => false,
        }
    }

    /// A mover's current offset from where the map placed it.
    pub fn mover_offset(&self, mover: MoverId) -> Option<Vec3> {
        self.movers.get(mover.0 as usize).map(|m| m.offset)
    }

    /// A mover's bounds where the map placed it (offset zero).
    pub fn mover_bounds(&self, mover: MoverId) -> Option<(Vec3, Vec3)> {
        self.movers.get(mover.0 as usize).and_then(|m| m.hulls.bounds())
    }
}

#[cfg(test)]
mod tests;
