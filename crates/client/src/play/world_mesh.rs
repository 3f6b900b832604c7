//! The map's surfaces as one vertex and index buffer, grouped for drawing:
//! the static opaque world, each mover, then the translucent liquids.
//!
//! Shading is baked into the vertex colours: one fixed light and an
//! ambient term per face normal (half-Lambert, so no face is black), which
//! is all an untextured map needs to read its shapes. Fog is applied per
//! fragment from the camera distance ([`super::gpu`]). Polygons are fanned
//! counter-clockwise seen from the front; two-sided surfaces (patches,
//! liquids) get both windings, so back-face culling stays on for all.

use std::ops::Range;

use glam::Vec3;
use quarry_map::{EntityId, Surfaces};

use super::look::{Look, look_of};

/// Where the light comes from (normalised in use): above, a little from +X+Y.
const LIGHT_FROM: Vec3 = Vec3::new(0.35, 0.55, 0.85);
/// The sky's colour (and the fog's).
pub const SKY_COLOUR: [f32; 3] = [0.42, 0.52, 0.68];

/// One vertex: position and colour with alpha.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Vertex {
    /// Quake units, Z up.
    pub pos: [f32; 3],
    /// The face's outward normal (the shader draws a world grid along the face).
    pub normal: [f32; 3],
    /// Linear RGBA.
    pub colour: [f32; 4],
}

/// The indices of one mover's surfaces.
#[derive(Debug, Clone, PartialEq)]
pub struct MoverRange {
    /// The map entity that moves them (a snapshot's mover carries it).
    pub entity: EntityId,
    /// Index range into [`WorldMesh::indices`].
    pub indices: Range<u32>,
}

/// One surface's triangles in the static opaque group, to draw the group
/// nearest first (a software renderer skips what the depth test hides only
/// when the hider came first).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaceRange {
    /// The surface's centre.
    pub centre: [f32; 3],
    /// Its first index in [`WorldMesh::indices`].
    pub start: u32,
    /// How many indices.
    pub len: u32,
}

/// Everything the GPU needs for the map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorldMesh {
    /// All vertices.
    pub vertices: Vec<Vertex>,
    /// Triangles as `u32` triples (a map can exceed 65,536 vertices).
    pub indices: Vec<u32>,
    /// Static opaque triangles (sky included).
    pub opaque: Range<u32>,
    /// The static opaque triangles by surface.
    pub opaque_faces: Vec<FaceRange>,
    /// One range per mover, drawn at the mover's offset.
    pub movers: Vec<MoverRange>,
    /// Static translucent triangles (liquids), drawn last without depth writes.
    pub translucent: Range<u32>,
}

impl WorldMesh {
    /// Builds the mesh from a map's surfaces.
    pub fn build(surfaces: &Surfaces) -> Self {
        let mut mesh = WorldMesh::default();
        let light = LIGHT_FROM.normalize();
        // Static opaque first, then each mover, then liquids: ranges stay contiguous.
        let start = mesh.index_len();
        for s in surfaces.surfaces.iter().filter(|s| !s.mover) {
            let look = look_of(surfaces.texture_name(s), s.contents);
            if !matches!(look, Look::Liquid(_)) {
                let first = mesh.index_len();
                mesh.push(s, look, light);
                let len = mesh.index_len() - first;
                if len > 0 {
                    let centre = s.vertices.iter().copied().sum::<Vec3>() / s.vertices.len().max(1) as f32;
                    mesh.opaque_faces.push(FaceRange { centre: centre.to_array(), start: first, len });
                }
            }
        }
        mesh.opaque = start..mesh.index_len();
        let mut movers: Vec<EntityId> = surfaces.surfaces.iter().filter(|s| s.mover).filter_map(|s| s.entity).collect();
        movers.dedup();
        movers.sort_by_key(|e| e.0);
        movers.dedup();
        for entity in movers {
            let start = mesh.index_len();
            for s in surfaces.surfaces.iter().filter(|s| s.mover && s.entity == Some(entity)) {
                mesh.push(s, look_of(surfaces.texture_name(s), s.contents), light);
            }
            mesh.movers.push(MoverRange { entity, indices: start..mesh.index_len() });
        }
        let start = mesh.index_len();
        for s in surfaces.surfaces.iter().filter(|s| !s.mover) {
            let look = look_of(surfaces.texture_name(s), s.contents);
            if matches!(look, Look::Liquid(_)) {
                mesh.push(s, look, light);
            }
        }
        mesh.translucent = start..mesh.index_len();
        mesh
    }

    fn index_len(&self) -> u32 {
        u32::try_from(self.indices.len()).unwrap_or(u32::MAX)
    }

    /// The static opaque indices with the surfaces nearest `eye` first,
    /// into `out` (cleared first).
    pub fn opaque_near_first(&self, eye: Vec3, order: &mut Vec<(f32, u32)>, out: &mut Vec<u32>) {
        order.clear();
        order.extend(self.opaque_faces.iter().enumerate().map(|(i, f)| (Vec3::from(f.centre).distance_squared(eye), i as u32)));
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        out.clear();
        for &(_, i) in order.iter() {
            let f = self.opaque_faces[i as usize];
            out.extend_from_slice(&self.indices[f.start as usize..(f.start + f.len) as usize]);
        }
    }

    /// Triangles in the mesh.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    fn push(&mut self, s: &quarry_map::Surface, look: Look, light: Vec3) {
        let (rgb, alpha, lit, two_sided) = match look {
            Look::Hidden => return,
            Look::Opaque(rgb) => (rgb, 1.0, true, s.two_sided),
            Look::Sky => (SKY_COLOUR, 1.0, false, s.two_sided),
            Look::Liquid(l) => {
                let [r, g, b, a] = l.rgba();
                ([r, g, b], a, false, true)
            }
        };
        // Floors read brightest, ceilings darkest, walls by where they face.
        let n = s.normal;
        let shade = if lit { 0.3 + 0.45 * (0.5 + 0.5 * n.dot(light)) + 0.25 * n.z.max(0.0) } else { 1.0 };
        let colour = [rgb[0] * shade, rgb[1] * shade, rgb[2] * shade, alpha];
        let Ok(base) = u32::try_from(self.vertices.len()) else { return };
        let normal = if lit { s.normal.to_array() } else { [0.0; 3] };
        self.vertices.extend(s.vertices.iter().map(|v| Vertex { pos: v.to_array(), normal, colour }));
        let n = s.vertices.len() as u32;
        for k in 1..n.saturating_sub(1) {
            self.indices.extend([base, base + k, base + k + 1]);
            if two_sided {
                self.indices.extend([base, base + k + 1, base + k]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::{Contents, Surface};

    fn quad(texture: u32, contents: Contents, entity: Option<EntityId>, mover: bool) -> Surface {
        let v = [[0.0, 0.0, 0.0], [64.0, 0.0, 0.0], [64.0, 64.0, 0.0], [0.0, 64.0, 0.0]];
        Surface {
            texture,
            contents,
            entity,
            mover,
            two_sided: false,
            normal: Vec3::Z,
            vertices: v.iter().map(|p| Vec3::from_array(*p)).collect(),
        }
    }

    #[test]
    fn groups_are_contiguous_and_hidden_faces_are_dropped() {
        let textures = ["floor", "common/caulk", "*water1", "door"].map(String::from).to_vec();
        let surfaces = Surfaces {
            textures,
            surfaces: vec![
                quad(0, Contents::SOLID, None, false),
                quad(1, Contents::SOLID, None, false),
                quad(2, Contents::WATER, None, false),
                quad(3, Contents::SOLID, Some(EntityId(7)), true),
            ],
        };
        let mesh = WorldMesh::build(&surfaces);
        // floor: 2 triangles; caulk: none; door: 2; water: 4 (both sides).
        assert_eq!(mesh.opaque, 0..6);
        assert_eq!(mesh.movers, vec![MoverRange { entity: EntityId(7), indices: 6..12 }]);
        assert_eq!(mesh.translucent, 12..24);
        assert_eq!(mesh.triangle_count(), 8);
        // Nearest first: the same indices as the opaque group, reordered.
        let (mut order, mut out) = (Vec::new(), Vec::new());
        mesh.opaque_near_first(Vec3::new(0.0, 0.0, 100.0), &mut order, &mut out);
        assert_eq!(out, mesh.indices[0..6]);
        assert!(mesh.indices.iter().all(|&i| (i as usize) < mesh.vertices.len()));
        let water = mesh.vertices[mesh.indices[12] as usize].colour;
        assert!(water[3] < 1.0, "liquids are translucent");
    }

    #[test]
    fn every_shipped_and_shared_map_builds_a_mesh() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut options = quarry_map::LoadOptions::default();
        options.keep_surfaces = true;
        let mut maps = 0;
        let shared = std::env::var_os("QUARRY_SHARED_MAPS").map_or_else(|| root.join("../shared/maps"), std::path::PathBuf::from);
        let dirs = ["valve220", "q3", "q3-brushdef", "q1-standard"].map(|d| shared.join(d));
        for dir in std::iter::once(root.join("maps")).chain(dirs) {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for e in entries.flatten() {
                let path = e.path();
                if path.extension().is_none_or(|x| x != "map") {
                    continue;
                }
                let map = quarry_map::load(&path, &options).expect("loads");
                let mesh = WorldMesh::build(map.surfaces().expect("kept"));
                assert!(mesh.triangle_count() > 500, "{}: {} triangles", path.display(), mesh.triangle_count());
                maps += 1;
            }
        }
        assert!(maps >= 3, "found {maps} maps");
    }
}
