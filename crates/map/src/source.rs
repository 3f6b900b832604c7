//! Writing map source: brushes and entities as Quake 1 standard `.map`
//! text, for tests of every crate and for tools that generate maps. The
//! loader reads what these write; nothing here is used to load a map.

use glam::Vec3;

/// One face line through three points; `(p0 - p1) x (p2 - p1)` is its
/// outward normal (the Quake winding).
pub fn face_line(p0: Vec3, p1: Vec3, p2: Vec3, texture: &str) -> String {
    let f = |q: Vec3| format!("( {} {} {} )", q.x, q.y, q.z);
    format!("{} {} {} {texture} 0 0 0 1 1\n", f(p0), f(p1), f(p2))
}

/// The face on the plane with outward normal `normal` through `point`.
pub fn plane_face(normal: Vec3, point: Vec3, texture: &str) -> String {
    let n = normal.normalize();
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    face_line(point + u * 64.0, point, point + v * 64.0, texture)
}

/// An axis-aligned brush from `lo` to `hi`, cut by extra planes
/// `(outward normal, point)` (ramps, wedges).
pub fn box_brush_cut(lo: Vec3, hi: Vec3, cuts: &[(Vec3, Vec3)], texture: &str) -> String {
    let mut s = String::from("{\n");
    for (n, p) in [
        (Vec3::NEG_X, lo),
        (Vec3::X, hi),
        (Vec3::NEG_Y, lo),
        (Vec3::Y, hi),
        (Vec3::NEG_Z, lo),
        (Vec3::Z, hi),
    ] {
        s += &plane_face(n, p, texture);
    }
    for &(n, p) in cuts {
        s += &plane_face(n, p, texture);
    }
    s += "}\n";
    s
}

/// An axis-aligned brush from `lo` to `hi`.
pub fn box_brush(lo: Vec3, hi: Vec3, texture: &str) -> String {
    box_brush_cut(lo, hi, &[], texture)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Contents, LoadOptions, load_str};

    #[test]
    fn a_written_box_loads_as_that_box() {
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}}}\n",
            box_brush(Vec3::new(-64.0, -32.0, -16.0), Vec3::new(64.0, 32.0, 0.0), "quarry/floor")
        );
        let map = load_str(&text, "box.map", &LoadOptions::default()).expect("loads");
        let solid = |p: Vec3| map.world().point_contents(p).contains(Contents::SOLID);
        assert!(solid(Vec3::new(60.0, 30.0, -1.0)));
        assert!(solid(Vec3::new(-60.0, -30.0, -15.0)));
        assert!(!solid(Vec3::new(0.0, 0.0, 1.0)));
        assert!(!solid(Vec3::new(70.0, 0.0, -8.0)));
    }

    #[test]
    fn a_cut_removes_the_corner_beyond_it() {
        // A ramp: the +x top corner is cut away by a 45-degree plane.
        let cut = (Vec3::new(1.0, 0.0, 1.0), Vec3::new(64.0, 0.0, -64.0));
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}}}\n",
            box_brush_cut(Vec3::new(-64.0, -64.0, -64.0), Vec3::new(64.0, 64.0, 0.0), &[cut], "quarry/floor")
        );
        let map = load_str(&text, "ramp.map", &LoadOptions::default()).expect("loads");
        let solid = |p: Vec3| map.world().point_contents(p).contains(Contents::SOLID);
        assert!(solid(Vec3::new(-60.0, 0.0, -4.0)));
        assert!(!solid(Vec3::new(60.0, 0.0, -4.0)), "beyond the cut");
        assert!(solid(Vec3::new(60.0, 0.0, -60.0)));
    }
}
