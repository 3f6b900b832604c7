//! [`MapInfo`]: the summary `quarry-server map-info` prints, as text
//! ([`Display`](std::fmt::Display)) or JSON (`Serialize`).

use std::collections::BTreeMap;
use std::fmt;

use glam::Vec3;
use serde::Serialize;

use crate::entities::{EntityId, EntityKind, Game, SpawnKind};
use crate::loaded::LoadedMap;
use crate::parse::Dialect;
use crate::warning::MapWarning;
use crate::world::HullCounts;
use crate::world::build::SkippedPrimitive;

/// One spawn point in the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpawnInfo {
    /// The spawn entity.
    pub entity: EntityId,
    /// Which kind.
    pub kind: SpawnKind,
    /// The entity's origin key.
    pub origin: Option<Vec3>,
    /// Where the player box fits (origin plus the nudge).
    pub spawn_origin: Vec3,
    /// Whether it fits at all.
    pub fits: bool,
}

/// A summary of a loaded map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapInfo {
    /// The file name.
    pub name: String,
    /// The worldspawn `message` (the map's title).
    pub title: Option<String>,
    /// The .map dialect.
    pub dialect: Dialect,
    /// Which game's entity semantics applied.
    pub game: Game,
    /// Brushes in the file, including skipped and non-solid ones.
    pub brushes: usize,
    /// Convex hulls built from brushes (solid, clips, liquids, triggers, movers).
    pub hulls: usize,
    /// Brushes without collision by design (hint, skip, origin, illusionary).
    pub nonsolid_brushes: usize,
    /// Brushes and patches skipped, with reasons.
    pub skipped: Vec<SkippedPrimitive>,
    /// `patchDef2` patches in the file.
    pub patches: usize,
    /// Triangles tessellated from collidable patches.
    pub patch_triangles: usize,
    /// Hulls by kind in the collision world.
    pub hull_counts: HullCounts,
    /// Movers (doors, plats, …) with collision.
    pub movers: usize,
    /// Entities in the file.
    pub entities: usize,
    /// Entity count by class name (as written, lower-cased).
    pub entities_by_class: BTreeMap<String, usize>,
    /// Class names not in the class table.
    pub unknown_classes: Vec<String>,
    /// Bounds of all geometry (`[mins, maxs]`), if any.
    pub bounds: Option<[Vec3; 2]>,
    /// Every spawn point.
    pub spawn_points: Vec<SpawnInfo>,
    /// Every warning.
    pub warnings: Vec<MapWarning>,
    /// Load time in milliseconds.
    pub load_time_ms: f64,
}

impl LoadedMap {
    /// The summary of this map.
    pub fn info(&self) -> MapInfo {
        let mut entities_by_class = BTreeMap::new();
        let mut unknown_classes = Vec::new();
        for e in &self.entities {
            let class = e.classname.to_ascii_lowercase();
            if e.kind == EntityKind::Unknown && !class.is_empty() && !unknown_classes.contains(&class) {
                unknown_classes.push(class.clone());
            }
            *entities_by_class.entry(class).or_insert(0) += 1;
        }
        let spawn_points = self
            .spawn_points()
            .map(|(id, s)| SpawnInfo {
                entity: id,
                kind: s.kind,
                origin: self.entity(id).and_then(|e| e.origin),
                spawn_origin: s.spawn_origin,
                fits: s.fits,
            })
            .collect();
        let r = &self.report;
        MapInfo {
            name: self.name.clone(),
            title: self.world_info.message.clone(),
            dialect: self.dialect,
            game: self.game,
            brushes: r.brushes,
            hulls: r.hulls,
            nonsolid_brushes: r.nonsolid_brushes,
            skipped: r.skipped.clone(),
            patches: r.patches,
            patch_triangles: r.patch_triangles,
            hull_counts: self.world.hull_counts(),
            movers: self.world.movers().count(),
            entities: self.entities.len(),
            entities_by_class,
            unknown_classes,
            bounds: self.world.bounds().map(|(lo, hi)| [lo, hi]),
            spawn_points,
            warnings: self.warnings.clone(),
            load_time_ms: self.load_time.as_secs_f64() * 1000.0,
        }
    }
}

impl fmt::Display for MapInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "map:        {}", self.name)?;
        if let Some(t) = &self.title {
            writeln!(f, "title:      {t}")?;
        }
        writeln!(f, "dialect:    {} ({:?} entities)", self.dialect, self.game)?;
        writeln!(
            f,
            "brushes:    {} in file, {} hulls built, {} non-solid, {} skipped",
            self.brushes,
            self.hulls,
            self.nonsolid_brushes,
            self.skipped.iter().filter(|s| !s.is_patch).count()
        )?;
        writeln!(f, "patches:    {} ({} triangles)", self.patches, self.patch_triangles)?;
        let c = &self.hull_counts;
        writeln!(
            f,
            "collision:  {} solid hulls, {} patch triangles, {} volumes, {} movers ({} hulls)",
            c.solid_brushes, c.patch_triangles, c.volumes, self.movers, c.mover_hulls
        )?;
        if let Some([lo, hi]) = self.bounds {
            writeln!(f, "bounds:     ({:.0} {:.0} {:.0}) .. ({:.0} {:.0} {:.0})", lo.x, lo.y, lo.z, hi.x, hi.y, hi.z)?;
        }
        writeln!(f, "entities:   {}", self.entities)?;
        for (class, n) in &self.entities_by_class {
            writeln!(f, "  {n:4}  {class}")?;
        }
        let fitting = self.spawn_points.iter().filter(|s| s.fits).count();
        writeln!(f, "spawns:     {} ({} fit the player box)", self.spawn_points.len(), fitting)?;
        for s in &self.spawn_points {
            let p = s.spawn_origin;
            let state = if s.fits { "" } else { "  IN SOLID" };
            writeln!(f, "  entity {:4}  {:?}  ({:.0} {:.0} {:.0}){state}", s.entity.0, s.kind, p.x, p.y, p.z)?;
        }
        for s in &self.skipped {
            writeln!(f, "skipped:    {}: {}", s.location, s.reason)?;
        }
        if !self.unknown_classes.is_empty() {
            writeln!(f, "unknown:    {}", self.unknown_classes.join(", "))?;
        }
        writeln!(f, "warnings:   {}", self.warnings.len())?;
        write!(f, "load time:  {:.1} ms", self.load_time_ms)
    }
}
