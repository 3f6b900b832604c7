//! Wavefront OBJ export of the collision geometry, so mesh viewers and
//! navigation tools (Recast) can run on exactly what the trace sees.
//!
//! Faces are triangles (brush polygons fanned), wound counter-clockwise seen
//! from outside; patch triangles face up. One `o` object per static set and
//! per mover (at its current offset).

use std::io::{self, BufWriter, Write};

use glam::Vec3;

use crate::contents::Contents;
use crate::loaded::LoadedMap;
use crate::world::CollisionWorld;
use crate::world::hull_set::HullSet;

/// What to export and in which axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjOptions {
    /// Hulls whose contents intersect this are written.
    pub mask: Contents,
    /// Write Y-up coordinates `(x, z, -y)` for tools that assume Y up
    /// (Recast's demo); otherwise Quake's Z-up coordinates unchanged.
    pub y_up: bool,
}

impl Default for ObjOptions {
    /// What blocks a player, Z up.
    fn default() -> Self {
        ObjOptions { mask: Contents::MASK_PLAYER_SOLID, y_up: false }
    }
}

impl CollisionWorld {
    /// Writes the hulls selected by `options` as OBJ (buffered internally).
    pub fn write_obj(&self, writer: impl Write, options: ObjOptions) -> io::Result<()> {
        let mut w = BufWriter::new(writer);
        writeln!(w, "# quarry-map collision geometry ({} axes)", if options.y_up { "Y-up (x, z, -y)" } else { "Quake Z-up" })?;
        let mut next_index = 1usize;
        write_set(&mut w, "world", &self.solid, Vec3::ZERO, options, &mut next_index)?;
        write_set(&mut w, "volumes", &self.volumes, Vec3::ZERO, options, &mut next_index)?;
        for m in &self.movers {
            write_set(&mut w, &format!("mover_entity_{}", m.entity.0), &m.hulls, m.offset, options, &mut next_index)?;
        }
        w.flush()
    }
}

impl LoadedMap {
    /// Writes the geometry that blocks players (solid, player clip, sky,
    /// movers at their current offset) as OBJ in Quake coordinates.
    pub fn write_obj(&self, writer: impl Write) -> io::Result<()> {
        self.world.write_obj(writer, ObjOptions::default())
    }
}

fn write_set(
    w: &mut impl Write,
    name: &str,
    set: &HullSet,
    offset: Vec3,
    options: ObjOptions,
    next_index: &mut usize,
) -> io::Result<()> {
    let mut wrote_header = false;
    for (r, s) in set.records().iter().zip(set.shapes()) {
        if !r.contents.intersects(options.mask) {
            continue;
        }
        if !wrote_header {
            writeln!(w, "o {name}")?;
            wrote_header = true;
        }
        for v in &s.vertices {
            let p = *v + offset;
            let p = if options.y_up { Vec3::new(p.x, p.z, -p.y) } else { p };
            writeln!(w, "v {} {} {}", p.x, p.y, p.z)?;
        }
        let base = *next_index;
        for face in &s.faces {
            for k in 1..face.len().saturating_sub(1) {
                let [a, b, c] = [face[0], face[k], face[k + 1]].map(|i| i as usize + base);
                writeln!(w, "f {a} {b} {c}")?;
            }
        }
        *next_index += s.vertices.len();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::{LoadOptions, load_str};

    #[test]
    fn cube_exports_12_triangles() {
        let src = crate::test_util::map_with(&[crate::test_util::block([0, 0, 0], [64, 64, 64], "a")], "");
        let map = load_str(&src, "cube.map", &LoadOptions::default()).expect("loads");
        let mut out = Vec::new();
        map.write_obj(&mut out).expect("write");
        let text = String::from_utf8(out).expect("utf8");
        assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 8);
        assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 12);
        assert!(text.contains("o world"));
        let max_index: usize =
            text.lines().filter(|l| l.starts_with("f ")).flat_map(|l| l[2..].split(' ').map(|n| n.parse::<usize>().expect("index"))).max().expect("faces");
        assert_eq!(max_index, 8);
    }
}
