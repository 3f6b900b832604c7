//! Helpers for in-crate tests: synthetic map text.

/// A Quake 1 standard axial brush from `lo` to `hi` with texture `tex`,
/// faces wound the Quake way (normals out).
pub(crate) fn block(lo: [i32; 3], hi: [i32; 3], tex: &str) -> String {
    let [x0, y0, z0] = lo;
    let [x1, y1, z1] = hi;
    let face = |p0: [i32; 3], p1: [i32; 3], p2: [i32; 3]| {
        let f = |p: [i32; 3]| format!("( {} {} {} )", p[0], p[1], p[2]);
        format!("{} {} {} {tex} 0 0 0 1 1\n", f(p0), f(p1), f(p2))
    };
    let mut s = String::from("{\n");
    s += &face([x0, y0 + 1, z0], [x0, y0, z0], [x0 + 1, y0, z0]);
    s += &face([x0 + 1, y0, z1], [x0, y0, z1], [x0, y0 + 1, z1]);
    s += &face([x0, y0, z0 + 1], [x0, y0, z0], [x0, y0 + 1, z0]);
    s += &face([x1, y0 + 1, z0], [x1, y0, z0], [x1, y0, z0 + 1]);
    s += &face([x0 + 1, y0, z0], [x0, y0, z0], [x0, y0, z0 + 1]);
    s += &face([x0, y1, z0 + 1], [x0, y1, z0], [x0 + 1, y1, z0]);
    s += "}\n";
    s
}

/// A map with a worldspawn holding `world_brushes` and then `rest` verbatim.
pub(crate) fn map_with(world_brushes: &[String], rest: &str) -> String {
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{rest}", world_brushes.concat())
}
