//! Warnings: content problems contained to one brush, patch, entity or key.
//!
//! Every warning carries its file, line and entity index so a mapper can find
//! it. Warnings are collected on the [`LoadedMap`](crate::LoadedMap) and also
//! logged through `tracing` at `warn` level when the map is loaded.

use std::fmt;

use glam::Vec3;
use serde::Serialize;

/// Which load budget of [`LoadOptions`](crate::LoadOptions) ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// [`LoadOptions::max_entities`](crate::LoadOptions::max_entities).
    Entities,
    /// [`LoadOptions::max_primitives`](crate::LoadOptions::max_primitives).
    Primitives,
    /// [`LoadOptions::max_entity_keys`](crate::LoadOptions::max_entity_keys).
    Keys,
    /// [`LoadOptions::max_patch_triangles`](crate::LoadOptions::max_patch_triangles).
    PatchTriangles,
    /// [`LoadOptions::max_movers`](crate::LoadOptions::max_movers).
    Movers,
    /// [`LoadOptions::max_brush_work`](crate::LoadOptions::max_brush_work).
    BrushWork,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Entities => "entities (max_entities)",
            Budget::Primitives => "brushes and patches (max_primitives)",
            Budget::Keys => "entity keys (max_entity_keys)",
            Budget::PatchTriangles => "patch triangles (max_patch_triangles)",
            Budget::Movers => "moving brush entities (max_movers)",
            Budget::BrushWork => "brush-building work, faces cubed (max_brush_work)",
        })
    }
}

/// Where in a map file something is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceLocation {
    /// The file name as given to the loader (or the name given to `load_str`).
    pub file: String,
    /// 1-based line number.
    pub line: u32,
    /// Index of the entity in file order (0 is normally `worldspawn`).
    pub entity: Option<usize>,
    /// Index of the brush or patch inside its entity, counting both in file
    /// order (the `// brush N` comments editors write).
    pub primitive: Option<usize>,
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if let Some(e) = self.entity {
            write!(f, ": entity {e}")?;
        }
        if let Some(p) = self.primitive {
            write!(f, " brush {p}")?;
        }
        Ok(())
    }
}

/// Why a brush or patch produced no collision geometry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum SkipReason {
    /// Its text could not be parsed; the parser skipped to its closing brace.
    Parse {
        /// What was expected and what was found.
        message: String,
    },
    /// A primitive kind Quarry does not read (`brushDef3`, `patchDef3`, …).
    Unsupported {
        /// The keyword found.
        keyword: String,
    },
    /// Fewer than four distinct planes: cannot enclose a volume.
    TooFewPlanes {
        /// Distinct planes found.
        planes: usize,
    },
    /// More faces than [`LoadOptions::max_brush_faces`](crate::LoadOptions::max_brush_faces).
    TooManyFaces {
        /// Faces written.
        faces: usize,
        /// The limit in force.
        limit: usize,
    },
    /// Reaches beyond [`LoadOptions::world_limit`](crate::LoadOptions::world_limit).
    OutsideWorld {
        /// Its largest absolute coordinate (infinite if unbounded).
        extent: f32,
        /// The limit in force.
        limit: f32,
    },
    /// A budget of [`LoadOptions`](crate::LoadOptions) ran out before it.
    OverBudget {
        /// Which budget.
        budget: Budget,
        /// The limit in force.
        limit: usize,
    },
    /// More distinct planes than a brush may have (a corrupt file).
    TooManyPlanes {
        /// Distinct planes found.
        planes: usize,
    },
    /// A face's three points are collinear, so it defines no plane.
    DegenerateFace {
        /// Index of the face inside the brush.
        face: usize,
    },
    /// A coordinate is not finite.
    NonFinite,
    /// The planes enclose no volume (fewer than four non-coplanar corners, or
    /// zero thickness).
    NoVolume {
        /// Corners found inside every plane.
        vertices: usize,
    },
    /// The planes do not close: the region they bound is unbounded.
    Open,
    /// parry3d could not build a convex hull from the corners.
    HullFailed,
    /// A patch whose control grid size is not odd and at least 3 by 3.
    BadPatchSize {
        /// Control points across.
        width: usize,
        /// Control points down.
        height: usize,
    },
    /// A patch whose every triangle is degenerate (all control points collinear).
    FlatPatch,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::Parse { message } => write!(f, "parse error: {message}"),
            SkipReason::Unsupported { keyword } => write!(f, "unsupported primitive `{keyword}`"),
            SkipReason::TooFewPlanes { planes } => write!(f, "only {planes} distinct planes"),
            SkipReason::TooManyFaces { faces, limit } => write!(f, "{faces} faces, more than the limit of {limit}"),
            SkipReason::OutsideWorld { extent, limit } => {
                write!(f, "reaches {extent} units from the origin, outside the world limit of ±{limit}")
            }
            SkipReason::OverBudget { budget, limit } => write!(f, "over the budget of {limit} {budget}"),
            SkipReason::TooManyPlanes { planes } => write!(f, "{planes} planes, more than a brush may have"),
            SkipReason::DegenerateFace { face } => write!(f, "face {face} has collinear points"),
            SkipReason::NonFinite => write!(f, "non-finite coordinate or plane"),
            SkipReason::NoVolume { vertices } => write!(f, "no volume ({vertices} corners)"),
            SkipReason::Open => write!(f, "open brush (planes do not enclose a volume)"),
            SkipReason::HullFailed => write!(f, "convex hull failed"),
            SkipReason::BadPatchSize { width, height } => write!(f, "bad patch size {width}x{height}"),
            SkipReason::FlatPatch => write!(f, "patch has no area"),
        }
    }
}

/// What a warning is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WarningKind {
    /// A brush or patch was skipped; the rest of the map loads.
    Skipped {
        /// Why.
        reason: SkipReason,
    },
    /// An entity class not in the class table; kept as a generic entity.
    /// Reported once per class name.
    UnknownClass {
        /// The class name.
        classname: String,
    },
    /// A known entity class whose gameplay Quarry does not model (it
    /// belongs to another game's mode); kept as a decoration. Reported
    /// once per class name.
    NotModelled {
        /// The class name.
        classname: String,
        /// What it belongs to.
        mode: &'static str,
    },
    /// An entity without a `classname` key; kept as a generic entity.
    MissingClassname,
    /// A key whose value could not be read (e.g. a non-numeric `speed`);
    /// the default is used.
    BadValue {
        /// The key.
        key: String,
        /// Its value in the file.
        value: String,
    },
    /// A `target` that no entity's `targetname` matches.
    UnresolvedTarget {
        /// The target name.
        target: String,
    },
    /// A spawn point whose player box is inside solid even after the nudge.
    SpawnInSolid,
    /// A point entity whose origin is beyond
    /// [`LoadOptions::world_limit`](crate::LoadOptions::world_limit): it is
    /// dropped (its slot stays, as [`EntityKind::Unknown`](crate::EntityKind)
    /// with no origin, brushes or names, so ids keep file order).
    OutsideWorld {
        /// Its class name.
        classname: String,
        /// Its origin.
        origin: Vec3,
        /// The limit in force.
        limit: f32,
    },
    /// A budget ran out here: this and every later item of its kind was
    /// dropped.
    OverBudget {
        /// Which budget.
        budget: Budget,
        /// The limit in force.
        limit: usize,
        /// How many were dropped.
        dropped: usize,
    },
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::Skipped { reason } => write!(f, "skipped: {reason}"),
            WarningKind::UnknownClass { classname } => write!(f, "unknown entity class `{classname}`"),
            WarningKind::NotModelled { classname, mode } => {
                write!(f, "entity class `{classname}` belongs to {mode}, which Quarry does not model: ignored")
            }
            WarningKind::MissingClassname => write!(f, "entity has no classname"),
            WarningKind::BadValue { key, value } => write!(f, "bad value for `{key}`: `{value}`"),
            WarningKind::UnresolvedTarget { target } => write!(f, "no entity named `{target}`"),
            WarningKind::SpawnInSolid => write!(f, "spawn point's player box is inside solid"),
            WarningKind::OutsideWorld { classname, origin, limit } => write!(
                f,
                "`{classname}` at ({} {} {}) is outside the world limit of ±{limit}: dropped",
                origin.x, origin.y, origin.z
            ),
            WarningKind::OverBudget { budget, limit, dropped } => {
                write!(f, "more {budget} than the limit of {limit}: {dropped} dropped from here on")
            }
        }
    }
}

/// One content problem found while loading, with where it is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapWarning {
    /// Where in the file.
    pub location: SourceLocation,
    /// What is wrong.
    pub kind: WarningKind,
}

impl fmt::Display for MapWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_file_line_entity_brush() {
        let w = MapWarning {
            location: SourceLocation { file: "dm3.map".into(), line: 40, entity: Some(0), primitive: Some(7) },
            kind: WarningKind::Skipped { reason: SkipReason::Open },
        };
        assert_eq!(
            w.to_string(),
            "dm3.map:40: entity 0 brush 7: skipped: open brush (planes do not enclose a volume)"
        );
    }
}
