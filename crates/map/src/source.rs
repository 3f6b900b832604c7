//! Writing map source: brushes and entities as Quake 1 standard `.map`
//! text, for tests of every crate and for tools that generate maps. The
//! loader reads what these write; nothing here is used to load a map.

use glam::{DVec3, Vec3};

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

/// An axis-aligned brush from `lo` to `hi` written with `f64` coordinates
/// and face points on the corners, exact for integers up to 2^53 (where
/// [`box_brush`]'s `f32` rounds): for far-off geometry in tests of the
/// world limit.
pub fn box_brush_f64(lo: DVec3, hi: DVec3, texture: &str) -> String {
    let (x0, y0, z0, x1, y1, z1) = (lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
    let face = |p0: [f64; 3], p1: [f64; 3], p2: [f64; 3]| {
        let f = |p: [f64; 3]| format!("( {} {} {} )", p[0], p[1], p[2]);
        format!("{} {} {} {texture} 0 0 0 1 1\n", f(p0), f(p1), f(p2))
    };
    let mut s = String::from("{\n");
    s += &face([x0, y1, z0], [x0, y0, z0], [x1, y0, z0]);
    s += &face([x1, y0, z1], [x0, y0, z1], [x0, y1, z1]);
    s += &face([x0, y0, z1], [x0, y0, z0], [x0, y1, z0]);
    s += &face([x1, y1, z0], [x1, y0, z0], [x1, y0, z1]);
    s += &face([x1, y0, z0], [x0, y0, z0], [x0, y0, z1]);
    s += &face([x0, y1, z1], [x0, y1, z0], [x1, y1, z0]);
    s += "}\n";
    s
}

/// A point entity of class `classname` at `origin` (written in `f64`).
pub fn point_entity(classname: &str, origin: DVec3) -> String {
    format!("{{\n\"classname\" \"{classname}\"\n\"origin\" \"{} {} {}\"\n}}\n", origin.x, origin.y, origin.z)
}

/// A `func_group` entity (merged into the world) holding `brushes`.
pub fn group_entity(brushes: &[String]) -> String {
    format!("{{\n\"classname\" \"func_group\"\n{}}}\n", brushes.concat())
}

/// `base` map text plus, centred at `(±distance, ±distance)`, a square
/// floor slab `2 * half` units wide (top at z = 0) with a deathmatch spawn
/// standing on it: the shape of issue 13's map, whose navmesh grid spanned the square
/// between the slabs. Written in `f64`, so `distance` may be far beyond the
/// world.
pub fn with_far_slabs(base: &str, distance: f64, half: f64, texture: &str) -> String {
    let mut s = String::from(base);
    if !s.ends_with('\n') {
        s.push('\n');
    }
    for c in [-distance, distance] {
        let slab = box_brush_f64(DVec3::new(c - half, c - half, -16.0), DVec3::new(c + half, c + half, 0.0), texture);
        s += &group_entity(&[slab]);
        s += &point_entity("info_player_deathmatch", DVec3::new(c, c, 40.0));
    }
    s
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
    fn an_f64_box_is_exact_far_away() {
        let far = 1.0e6;
        let text = with_far_slabs("{\n\"classname\" \"worldspawn\"\n}\n", far, 256.0, "quarry/floor");
        let options = LoadOptions { world_limit: 1.0e7, ..LoadOptions::default() };
        let map = load_str(&text, "slabs.map", &options).expect("loads");
        assert!(map.warnings().is_empty(), "{:?}", map.warnings());
        let solid = |p: Vec3| map.world().point_contents(p).contains(Contents::SOLID);
        assert!(solid(Vec3::new(1.0e6 + 250.0, 1.0e6 + 250.0, -1.0)));
        assert!(!solid(Vec3::new(1.0e6 + 260.0, 1.0e6, -1.0)));
        assert!(solid(Vec3::new(-1.0e6, -1.0e6, -15.0)));
        assert_eq!(map.spawn_points().filter(|(_, s)| s.fits).count(), 2);
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
