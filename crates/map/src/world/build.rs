//! Building the collision world from parsed primitives and entity classes.
//!
//! Every brush ends up in exactly one of four places: a hull (in the solid
//! set, the volume set or a mover), non-solid by design (hint, skip, origin,
//! `func_illusionary`), or skipped with a reason. So
//! `brushes == hulls + nonsolid + skipped brushes` always holds.

use glam::{DVec3, Vec3};
use parry3d::shape::SharedShape;
use serde::Serialize;

use super::hull_set::HullSet;
use super::{CollisionWorld, MoverBody};
use crate::contents::{Contents, brush_contents, texture_contents};
use crate::entities::{BrushRole, Class, EntityId};
use crate::geometry::bevel::triangle_planes;
use crate::geometry::hull::build_brush;
use crate::geometry::patch_mesh::{Tessellation, tessellate};
use crate::geometry::{ConvexSolid, DPlane};
use crate::options::{LoadOptions, within_world};
use crate::surfaces::{Owner, Surfaces};
use crate::parse::{Primitive, RawBrush, RawMap, RawPatch};
use crate::warning::{Budget, SkipReason, SourceLocation};

/// A brush or patch that produced no geometry, with why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedPrimitive {
    /// Where it is.
    pub location: SourceLocation,
    /// Whether it was a patch rather than a brush.
    pub is_patch: bool,
    /// Why it was skipped.
    pub reason: SkipReason,
}

/// Counts from building the world.
#[derive(Debug, Clone, Default)]
pub(crate) struct BuildReport {
    pub(crate) brushes: usize,
    pub(crate) patches: usize,
    pub(crate) hulls: usize,
    pub(crate) nonsolid_brushes: usize,
    pub(crate) nonsolid_patches: usize,
    pub(crate) patch_triangles: usize,
    pub(crate) skipped: Vec<SkippedPrimitive>,
    pub(crate) entity_bounds: Vec<Option<(Vec3, Vec3)>>,
    /// Drawable surfaces, when [`LoadOptions::keep_surfaces`] asked.
    pub(crate) surfaces: Option<Surfaces>,
}

/// Where a built hull goes.
struct Sink {
    solid: HullSet,
    volumes: HullSet,
    movers: Vec<MoverBody>,
    patch_triangles_in_solid: usize,
}

impl Sink {
    fn push(&mut self, role: BrushRole, entity: EntityId, solid: ConvexSolid, contents: Contents, is_triangle: bool) {
        let owner = (role != BrushRole::World).then_some(entity);
        match role {
            BrushRole::Mover => {
                // An entity's primitives are contiguous, so its body is the last one.
                let body = match self.movers.iter().rposition(|m| m.entity == entity) {
                    Some(i) => &mut self.movers[i],
                    None => {
                        self.movers.push(MoverBody { entity, hulls: HullSet::default(), offset: Vec3::ZERO });
                        let last = self.movers.len() - 1;
                        &mut self.movers[last]
                    }
                };
                body.hulls.push(solid, contents, owner);
            }
            _ if contents.is_blocking() => {
                self.patch_triangles_in_solid += usize::from(is_triangle);
                self.solid.push(solid, contents, owner);
            }
            _ => self.volumes.push(solid, contents, owner),
        }
    }
}

/// Builds the world. `classes[i]` is entity `i`'s class (`None` if unknown),
/// `classnames[i]` its class name.
pub(crate) fn build_world(
    map: &RawMap,
    classes: &[Option<Class>],
    classnames: &[&str],
    file: &str,
    options: &LoadOptions,
) -> (CollisionWorld, BuildReport) {
    let texture_contents: Vec<Contents> = map.textures.iter().map(|t| texture_contents(t)).collect();
    let tess = Tessellation {
        max_steps: options.patch_subdivisions.max(1),
        tolerance: f64::from(options.patch_tolerance.max(0.0)),
    };
    let mut sink = Sink { solid: HullSet::default(), volumes: HullSet::default(), movers: Vec::new(), patch_triangles_in_solid: 0 };
    let mut report = BuildReport { entity_bounds: vec![None; map.entities.len()], ..BuildReport::default() };
    let mut surfaces = options.keep_surfaces.then(|| Surfaces { textures: map.textures.clone(), surfaces: Vec::new() });
    let mut brush_work = 0u64;
    for (i, ent) in map.entities.iter().enumerate() {
        let entity = EntityId(i as u32);
        let role = match classes.get(i).copied().flatten() {
            Some(class) => class.brush_role(),
            // Unknown classes: triggers by name, otherwise solid and owned.
            None if classnames.get(i).is_some_and(|c| c.to_ascii_lowercase().starts_with("trigger_")) => BrushRole::Trigger,
            None => BrushRole::Owned,
        };
        // Past the mover budget a new mover's brushes are all skipped.
        let mover_refused = role == BrushRole::Mover
            && sink.movers.len() >= options.max_movers
            && !sink.movers.iter().any(|m| m.entity == entity);
        let owner = Owner { entity: (role != BrushRole::World).then_some(entity), mover: role == BrushRole::Mover };
        // Triggers are never drawn; everything else that has a hull is.
        let mut drawn = surfaces.as_mut().filter(|_| role != BrushRole::Trigger);
        for (j, prim) in ent.primitives.iter().enumerate() {
            let location = |line| SourceLocation { file: file.to_owned(), line, entity: Some(i), primitive: Some(j) };
            if prim.is_brush() {
                report.brushes += 1;
            } else {
                report.patches += 1;
            }
            if mover_refused {
                let line = match prim {
                    Primitive::Brush(b) => b.line,
                    Primitive::Patch(p) => p.line,
                    Primitive::Skipped { line, .. } => *line,
                };
                let reason = SkipReason::OverBudget { budget: Budget::Movers, limit: options.max_movers };
                report.skipped.push(SkippedPrimitive { location: location(line), is_patch: !prim.is_brush(), reason });
                continue;
            }
            let mut bounds = report.entity_bounds[i];
            let mut add = |sink: &mut Sink, solid: ConvexSolid, contents, tri| {
                bounds = Some(match bounds {
                    None => (solid.mins, solid.maxs),
                    Some((lo, hi)) => (lo.min(solid.mins), hi.max(solid.maxs)),
                });
                sink.push(role, entity, solid, contents, tri);
            };
            match prim {
                Primitive::Skipped { line, reason, is_patch } => {
                    report.skipped.push(SkippedPrimitive { location: location(*line), is_patch: *is_patch, reason: reason.clone() });
                }
                Primitive::Brush(b) => {
                    let contents = match role {
                        BrushRole::Trigger => Contents::TRIGGER,
                        BrushRole::None => Contents::empty(),
                        _ => brush_contents(b.faces.iter().map(|f| texture_contents.get(f.texture as usize).copied().unwrap_or(Contents::SOLID))),
                    };
                    if contents.is_empty() {
                        report.nonsolid_brushes += 1;
                        // A brush with no collision by its class (an illusionary wall) is still seen.
                        if let (Some(drawn), BrushRole::None) = (drawn.as_deref_mut(), role)
                            && let Ok(solid) = brush_solid(b, options)
                        {
                            drawn.add_brush(b, &solid, owner, &texture_contents);
                        }
                        continue;
                    }
                    // Building a brush costs about the cube of its faces.
                    let work = (b.faces.len() as u64).pow(3);
                    if b.faces.len() <= options.max_brush_faces {
                        if brush_work.saturating_add(work) > options.max_brush_work {
                            let reason = SkipReason::OverBudget { budget: Budget::BrushWork, limit: options.max_brush_work as usize };
                            report.skipped.push(SkippedPrimitive { location: location(b.line), is_patch: false, reason });
                            continue;
                        }
                        brush_work += work;
                    }
                    match brush_solid(b, options) {
                        Ok(solid) => {
                            report.hulls += 1;
                            if let Some(drawn) = drawn.as_deref_mut() {
                                drawn.add_brush(b, &solid, owner, &texture_contents);
                            }
                            add(&mut sink, solid, contents, false);
                        }
                        Err(reason) => report.skipped.push(SkippedPrimitive { location: location(b.line), is_patch: false, reason }),
                    }
                }
                Primitive::Patch(p) => {
                    let contents = match role {
                        BrushRole::Trigger => Contents::TRIGGER,
                        BrushRole::None => Contents::empty(),
                        _ => texture_contents.get(p.texture as usize).copied().unwrap_or(Contents::SOLID),
                    };
                    if contents.is_empty() {
                        report.nonsolid_patches += 1;
                        continue;
                    }
                    let triangles = match patch_solids(p, tess, options, report.patch_triangles) {
                        Ok(t) => t,
                        Err(reason) => {
                            report.skipped.push(SkippedPrimitive { location: location(p.line), is_patch: true, reason });
                            continue;
                        }
                    };
                    report.patch_triangles += triangles.len();
                    for t in triangles {
                        if let Some(drawn) = drawn.as_deref_mut() {
                            drawn.add_triangle(&t, p.texture, owner, &texture_contents);
                        }
                        add(&mut sink, t, contents, true);
                    }
                }
            }
            report.entity_bounds[i] = bounds;
        }
    }
    report.surfaces = surfaces;
    sink.solid.rebuild();
    sink.volumes.rebuild();
    for m in &mut sink.movers {
        m.hulls.rebuild();
    }
    let world = CollisionWorld { solid: sink.solid, volumes: sink.volumes, movers: sink.movers, patch_triangles: sink.patch_triangles_in_solid };
    (world, report)
}

/// The convex solid of one brush: at most `max_brush_faces` faces, inside
/// the world limit.
fn brush_solid(b: &RawBrush, options: &LoadOptions) -> Result<ConvexSolid, SkipReason> {
    if b.faces.len() > options.max_brush_faces {
        return Err(SkipReason::TooManyFaces { faces: b.faces.len(), limit: options.max_brush_faces });
    }
    let mut planes = Vec::with_capacity(b.faces.len());
    for (k, f) in b.faces.iter().enumerate() {
        if !f.points.iter().all(|p| p.is_finite()) {
            return Err(SkipReason::NonFinite);
        }
        let plane = DPlane::from_points(f.points).ok_or_else(|| {
            // Finite points so large that the plane's normal or distance overflows.
            let [p0, p1, p2] = f.points;
            let n = (p0 - p1).cross(p2 - p1);
            if n.length().is_finite() && n.dot(p1).is_finite() { SkipReason::DegenerateFace { face: k } } else { SkipReason::NonFinite }
        })?;
        planes.push(plane);
    }
    let solid = build_brush(&planes)?;
    // The corners, not the plane points, say where a brush is: editors may
    // write plane points far outside a small brush.
    let extent = solid.mins.abs().max(solid.maxs.abs()).max_element();
    if !within_world(f64::from(extent), options.world_limit) {
        return Err(SkipReason::OutsideWorld { extent, limit: options.world_limit });
    }
    Ok(solid)
}

/// One zero-thickness solid per non-degenerate triangle of a patch; OBJ
/// faces are wound so their normal points up (walkable for nav tools).
///
/// Skipped when a control point lies beyond the world limit (the curve
/// stays inside its control points' hull), when no triangle has area, or
/// when it would take the map's `used` triangles past the budget.
fn patch_solids(p: &RawPatch, tess: Tessellation, options: &LoadOptions, used: usize) -> Result<Vec<ConvexSolid>, SkipReason> {
    let limit = options.world_limit;
    let extent = p.points.iter().map(|q| q.abs().max_element()).fold(0.0, f64::max);
    if !within_world(extent, limit) {
        return Err(SkipReason::OutsideWorld { extent: extent as f32, limit });
    }
    let budget = options.max_patch_triangles;
    let over = SkipReason::OverBudget { budget: Budget::PatchTriangles, limit: budget };
    if used >= budget {
        return Err(over);
    }
    let mesh = tessellate(p.width, p.height, &p.points, tess);
    if used + mesh.triangles.len() > budget {
        return Err(over);
    }
    let mut out = Vec::with_capacity(mesh.triangles.len());
    for tri in &mesh.triangles {
        let corners: [DVec3; 3] = tri.map(|i| mesh.vertices.get(i as usize).copied().unwrap_or(DVec3::ZERO));
        let Some((planes, mins, maxs)) = triangle_planes(corners) else { continue };
        let normal = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
        let face = if normal.z >= 0.0 { vec![0, 1, 2] } else { vec![0, 2, 1] };
        let [a, b, c] = corners.map(|c| c.as_vec3());
        let shape = SharedShape::triangle(a, b, c);
        out.push(ConvexSolid { vertices: vec![a, b, c], faces: vec![face], planes, shape, mins, maxs });
    }
    if out.is_empty() {
        return Err(SkipReason::FlatPatch);
    }
    Ok(out)
}
