//! The three `.map` dialects the loader reads, and how a box is written in
//! each: Quake's standard faces, Valve 220 faces (texture axes in
//! brackets, `mapversion 220`) and Quake 3's `brushDef` (a texture matrix
//! per face). Only the text differs: the same map in any dialect has the
//! same solids, entities and answer.
//!
//! Planes follow the Quake convention: for a face's three points
//! `p0, p1, p2`, `(p2 - p0) × (p1 - p0)` points out of the brush.

use serde::Serialize;

use crate::shape::{Cuboid, Entity, Surface, Top};

/// A `.map` dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Dialect {
    /// Quake's standard faces, Quake 1 texture and class names.
    Quake,
    /// Valve 220 faces, Quake 1 texture and class names.
    Valve220,
    /// Quake 3 `brushDef`, Quake 3 texture and class names.
    Quake3,
}

impl Dialect {
    /// Every dialect, in a fixed order.
    pub const ALL: [Dialect; 3] = [Self::Quake, Self::Valve220, Self::Quake3];

    /// A short name for file names.
    pub fn name(self) -> &'static str {
        match self {
            Self::Quake => "q1",
            Self::Valve220 => "v220",
            Self::Quake3 => "q3",
        }
    }

    /// Whether the dialect's game is Quake 3 (its item and class names).
    pub fn is_quake3(self) -> bool {
        self == Self::Quake3
    }

    /// The texture a surface gets in this dialect.
    pub fn texture(self, s: Surface) -> &'static str {
        let q3 = self.is_quake3();
        match s {
            Surface::Floor => if q3 { "mapgen/floor" } else { "mgen_floor" },
            Surface::Wall => if q3 { "mapgen/wall" } else { "mgen_wall" },
            Surface::Ceiling => if q3 { "mapgen/ceiling" } else { "mgen_ceiling" },
            Surface::Door => if q3 { "mapgen/door" } else { "mgen_door" },
            Surface::Button => if q3 { "mapgen/button" } else { "mgen_button" },
            Surface::Metal => if q3 { "mapgen/metal" } else { "mgen_metal" },
            Surface::Trigger => if q3 { "common/trigger" } else { "trigger" },
            Surface::Water => if q3 { "liquids/water" } else { "*water1" },
            Surface::Lava => if q3 { "liquids/lavahell" } else { "*lava1" },
        }
    }

    /// A whole map: worldspawn with `world` brushes, then `entities`.
    pub fn write(self, comment: &[String], world: &[Cuboid], entities: &[Entity]) -> String {
        let mut out = String::new();
        for line in comment {
            out.push_str(&format!("// {line}\n"));
        }
        out.push_str("{\n\"classname\" \"worldspawn\"\n");
        if self == Self::Valve220 {
            out.push_str("\"mapversion\" \"220\"\n");
        }
        for c in world {
            self.write_brush(&mut out, c);
        }
        out.push_str("}\n");
        for e in entities {
            out.push_str("{\n");
            out.push_str(&format!("\"classname\" \"{}\"\n", e.class));
            for (k, v) in &e.keys {
                out.push_str(&format!("\"{k}\" \"{v}\"\n"));
            }
            for c in &e.brushes {
                self.write_brush(&mut out, c);
            }
            out.push_str("}\n");
        }
        out
    }

    fn write_brush(self, out: &mut String, c: &Cuboid) {
        let tex = self.texture(c.surface);
        out.push_str("{\n");
        if self == Self::Quake3 {
            out.push_str("brushDef\n{\n");
        }
        for (p0, p1, p2) in faces(c) {
            let pts = format!("( {} {} {} ) ( {} {} {} ) ( {} {} {} )", p0[0], p0[1], p0[2], p1[0], p1[1], p1[2], p2[0], p2[1], p2[2]);
            let line = match self {
                Self::Quake => format!("{pts} {tex} 0 0 0 1 1"),
                Self::Valve220 => {
                    let (u, v) = valve_axes(p0, p1, p2);
                    format!("{pts} {tex} [ {} {} {} 0 ] [ {} {} {} 0 ] 0 1 1", u[0], u[1], u[2], v[0], v[1], v[2])
                }
                Self::Quake3 => format!("{pts} ( ( 0.0078125 0 0 ) ( 0 0.0078125 0 ) ) {tex} 0 0 0"),
            };
            out.push_str(&line);
            out.push('\n');
        }
        if self == Self::Quake3 {
            out.push_str("}\n");
        }
        out.push_str("}\n");
    }
}

/// The faces of a box (six) or a ramp's wedge (five: the ramp in place of
/// the top, no -x face) as three points each, `(p2 - p0) × (p1 - p0)`
/// pointing out.
fn faces(c: &Cuboid) -> Vec<([i32; 3], [i32; 3], [i32; 3])> {
    let (a, b) = (c.min, c.max);
    // For an outward normal n, axes u and v with u × v = n: p1 = p0 + v, p2 = p0 + u.
    let face = |p0: [i32; 3], u: [i32; 3], v: [i32; 3]| {
        let add = |p: [i32; 3], d: [i32; 3]| [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
        (p0, add(p0, v), add(p0, u))
    };
    let (x, y, z) = ([64, 0, 0], [0, 64, 0], [0, 0, 64]);
    let plus_x = face([b[0], a[1], a[2]], y, z);
    let plus_y = face([a[0], b[1], a[2]], z, x);
    let minus_y = face([a[0], a[1], a[2]], x, z);
    let minus_z = face([a[0], a[1], a[2]], y, x);
    match c.top {
        Top::Flat => {
            let minus_x = face([a[0], a[1], a[2]], z, y);
            let plus_z = face([a[0], a[1], b[2]], x, y);
            vec![plus_x, minus_x, plus_y, minus_y, plus_z, minus_z]
        }
        // Up the slope (u) and across it (v): u × v points up and back.
        Top::RampX => vec![plus_x, plus_y, minus_y, minus_z, face([a[0], a[1], a[2]], [b[0] - a[0], 0, b[2] - a[2]], y)],
    }
}

/// TrenchBroom's default texture axes for a face through these points.
fn valve_axes(p0: [i32; 3], p1: [i32; 3], p2: [i32; 3]) -> ([i32; 3], [i32; 3]) {
    let d1 = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]];
    let d2 = [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]];
    let n = [d2[1] * d1[2] - d2[2] * d1[1], d2[2] * d1[0] - d2[0] * d1[2], d2[0] * d1[1] - d2[1] * d1[0]];
    let (ax, ay, az) = (n[0].abs(), n[1].abs(), n[2].abs());
    if az >= ax && az >= ay {
        ([1, 0, 0], [0, -1, 0])
    } else if ax >= ay {
        ([0, 1, 0], [0, 0, -1])
    } else {
        ([1, 0, 0], [0, 0, -1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cross(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }

    #[test]
    fn every_face_points_out_of_its_box() {
        let c = Cuboid::new([0, 0, 0], [10, 20, 30], Surface::Wall);
        let centre = [5, 10, 15];
        for (p0, p1, p2) in faces(&c) {
            let n = cross([p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]], [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]]);
            let out = [p0[0] - centre[0], p0[1] - centre[1], p0[2] - centre[2]];
            assert!(n[0] * out[0] + n[1] * out[1] + n[2] * out[2] > 0, "{p0:?} {p1:?} {p2:?}");
            assert_eq!(n.iter().filter(|v| **v != 0).count(), 1, "axis-aligned");
        }
    }

    #[test]
    fn a_ramp_is_a_wedge_of_five_faces_pointing_out() {
        let c = Cuboid::ramp([0, 0, 0], [30, 20, 30], Surface::Floor);
        // Inside the wedge: its centroid.
        let centre = [20, 10, 10];
        let f = faces(&c);
        assert_eq!(f.len(), 5);
        for (p0, p1, p2) in f {
            let n = cross([p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]], [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]]);
            let out = [p0[0] - centre[0], p0[1] - centre[1], p0[2] - centre[2]];
            assert!(n[0] * out[0] + n[1] * out[1] + n[2] * out[2] > 0, "{p0:?} {p1:?} {p2:?}");
        }
        // A box keeps its six faces in their order (maps written before
        // ramps keep their bytes).
        assert_eq!(faces(&Cuboid::new([0, 0, 0], [1, 1, 1], Surface::Wall)).len(), 6);
    }

    #[test]
    fn each_dialect_has_its_marks() {
        let world = [Cuboid::new([0, 0, 0], [64, 64, 16], Surface::Floor)];
        assert!(Dialect::Valve220.write(&[], &world, &[]).contains("\"mapversion\" \"220\""));
        assert!(Dialect::Valve220.write(&[], &world, &[]).contains(" [ 1 0 0 0 ] [ 0 -1 0 0 ] 0 1 1"));
        assert!(Dialect::Quake3.write(&[], &world, &[]).contains("brushDef"));
        assert!(Dialect::Quake.write(&[], &world, &[]).contains(" mgen_floor 0 0 0 1 1"));
    }
}
