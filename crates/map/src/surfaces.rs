//! Drawable surfaces: every face polygon of every brush and every patch
//! triangle, with the texture name the file gave it and who owns it.
//!
//! The collision world keeps hulls, not textures; a client that draws the
//! map needs both, from the same convex solids the trace uses, so what a
//! player sees is what stops him. Built only when
//! [`LoadOptions::keep_surfaces`](crate::LoadOptions::keep_surfaces) asks
//! (a server never draws).
//!
//! A hull face is matched to the brush side it came from by its plane
//! (normal within 0.1° and distance within 0.01 unit): duplicated planes
//! were merged when the hull was built, so several sides may share one
//! face, and the first written wins, as in the editors.

use glam::{DVec3, Vec3};

use crate::contents::Contents;
use crate::entities::EntityId;
use crate::geometry::{ConvexSolid, DPlane};
use crate::parse::RawBrush;

/// Index into [`Surfaces::textures`].
pub type TextureIndex = u32;

/// One drawable polygon.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    /// The texture (shader) name, as an index into [`Surfaces::textures`].
    pub texture: TextureIndex,
    /// What the texture's name makes of this face (the brush's own
    /// contents may differ: a caulk side of a water brush).
    pub contents: Contents,
    /// The brush entity it belongs to, `None` for the world's static
    /// geometry. A mover's surfaces are drawn where the snapshot puts it.
    pub entity: Option<EntityId>,
    /// Whether the entity is a mover (door, platform, train).
    pub mover: bool,
    /// Whether both sides are seen (patch triangles, which have no inside).
    pub two_sided: bool,
    /// Outward unit normal.
    pub normal: Vec3,
    /// Corners, counter-clockwise seen from the front; at least 3.
    pub vertices: Vec<Vec3>,
}

/// Every surface of a map and the texture names they use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surfaces {
    /// Texture names as the file wrote them (no `textures/` prefix added).
    pub textures: Vec<String>,
    /// The polygons, in file order.
    pub surfaces: Vec<Surface>,
}

impl Surfaces {
    /// The texture name of `surface`.
    pub fn texture_name(&self, surface: &Surface) -> &str {
        self.textures.get(surface.texture as usize).map_or("", String::as_str)
    }

    /// Triangles if every polygon were fanned.
    pub fn triangle_count(&self) -> usize {
        self.surfaces.iter().map(|s| s.vertices.len().saturating_sub(2)).sum()
    }
}

/// Who owns the surfaces being added.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Owner {
    pub(crate) entity: Option<EntityId>,
    pub(crate) mover: bool,
}

impl Surfaces {
    /// Adds the faces of a brush's hull, each with the texture of the side
    /// whose plane it lies on. `texture_contents[t]` is texture `t`'s.
    pub(crate) fn add_brush(&mut self, brush: &RawBrush, solid: &ConvexSolid, owner: Owner, texture_contents: &[Contents]) {
        let sides: Vec<(DPlane, u32)> =
            brush.faces.iter().filter_map(|f| DPlane::from_points(f.points).map(|p| (p, f.texture))).collect();
        for face in &solid.faces {
            let vertices: Vec<Vec3> = face.iter().filter_map(|&i| solid.vertices.get(i as usize).copied()).collect();
            let Some(normal) = polygon_normal(&vertices) else { continue };
            let Some(texture) = side_texture(&sides, normal, &vertices) else { continue };
            let contents = texture_contents.get(texture as usize).copied().unwrap_or(Contents::SOLID);
            self.surfaces.push(Surface { texture, contents, entity: owner.entity, mover: owner.mover, two_sided: false, normal, vertices });
        }
    }

    /// Adds one patch triangle (both sides visible).
    pub(crate) fn add_triangle(&mut self, solid: &ConvexSolid, texture: u32, owner: Owner, texture_contents: &[Contents]) {
        let Some(face) = solid.faces.first() else { return };
        let vertices: Vec<Vec3> = face.iter().filter_map(|&i| solid.vertices.get(i as usize).copied()).collect();
        let Some(normal) = polygon_normal(&vertices) else { return };
        let contents = texture_contents.get(texture as usize).copied().unwrap_or(Contents::SOLID);
        self.surfaces.push(Surface { texture, contents, entity: owner.entity, mover: owner.mover, two_sided: true, normal, vertices });
    }
}

/// The side whose plane holds the polygon: normal within 0.1° and every
/// corner within 0.01 unit of it, else the closest in normal (a hull face
/// always comes from some side's plane, so this only breaks ties).
fn side_texture(sides: &[(DPlane, u32)], normal: Vec3, vertices: &[Vec3]) -> Option<u32> {
    let n = normal.as_dvec3();
    let centroid = vertices.iter().fold(DVec3::ZERO, |a, v| a + v.as_dvec3()) / vertices.len().max(1) as f64;
    let exact = sides.iter().find(|(p, _)| p.normal.dot(n) > 0.999_998 && p.distance(centroid).abs() < 0.01);
    exact
        .or_else(|| sides.iter().max_by(|a, b| a.0.normal.dot(n).total_cmp(&b.0.normal.dot(n))))
        .map(|(_, t)| *t)
}

/// Newell's normal of a polygon, `None` when it has no area.
fn polygon_normal(vertices: &[Vec3]) -> Option<Vec3> {
    if vertices.len() < 3 {
        return None;
    }
    let mut n = DVec3::ZERO;
    for (i, a) in vertices.iter().enumerate() {
        let b = vertices[(i + 1) % vertices.len()];
        let (a, b) = (a.as_dvec3(), b.as_dvec3());
        n += DVec3::new((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y));
    }
    let len = n.length();
    (len > 1e-9 && len.is_finite()).then(|| (n / len).as_vec3())
}

#[cfg(test)]
mod tests {
    use crate::test_util::{block, map_with};
    use crate::{Contents, LoadOptions, load_str};

    fn options() -> LoadOptions {
        LoadOptions { keep_surfaces: true, ..LoadOptions::default() }
    }

    #[test]
    fn a_box_has_six_faces_each_with_its_sides_texture() {
        let src = map_with(&[block([0, 0, 0], [64, 64, 64], "stone")], "");
        let map = load_str(&src, "box.map", &options()).expect("loads");
        let s = map.surfaces().expect("kept");
        assert_eq!(s.surfaces.len(), 6);
        assert_eq!(s.triangle_count(), 12);
        for f in &s.surfaces {
            assert_eq!(s.texture_name(f), "stone");
            assert_eq!(f.contents, Contents::SOLID);
            assert!(f.entity.is_none() && !f.mover && !f.two_sided);
            // Outward: the normal points away from the box's centre.
            let centroid = f.vertices.iter().copied().sum::<glam::Vec3>() / f.vertices.len() as f32;
            assert!(f.normal.dot(centroid - glam::Vec3::splat(32.0)) > 0.0);
            // Counter-clockwise seen from the front: the fan's normal agrees.
            let [a, b, c] = [f.vertices[0], f.vertices[1], f.vertices[2]];
            assert!((b - a).cross(c - a).dot(f.normal) > 0.0);
        }
    }

    #[test]
    fn surfaces_are_kept_only_when_asked() {
        let src = map_with(&[block([0, 0, 0], [64, 64, 64], "stone")], "");
        let map = load_str(&src, "box.map", &LoadOptions::default()).expect("loads");
        assert!(map.surfaces().is_none());
    }

    #[test]
    fn liquids_and_nonsolid_brushes_have_surfaces() {
        let src = map_with(&[block([0, 0, 0], [64, 64, 64], "*water1")], "");
        let map = load_str(&src, "water.map", &options()).expect("loads");
        let s = map.surfaces().expect("kept");
        assert_eq!(s.surfaces.len(), 6);
        assert!(s.surfaces.iter().all(|f| f.contents.contains(Contents::WATER)));
    }
}
