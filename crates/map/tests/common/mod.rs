//! Shared helpers for the integration tests: synthetic map text, the shared
//! maps directory, and an independent brush counter.
#![allow(dead_code, reason = "each test binary uses a subset of the helpers")]

use std::path::PathBuf;

use glam::Vec3;

/// The Quake 3 default player box.
pub(crate) const PLAYER_MINS: Vec3 = Vec3::new(-15.0, -15.0, -24.0);
/// The Quake 3 default player box.
pub(crate) const PLAYER_MAXS: Vec3 = Vec3::new(15.0, 15.0, 32.0);

/// An axis-aligned brush.
pub(crate) fn block(lo: Vec3, hi: Vec3, tex: &str) -> String {
    quarry_map::source::box_brush(lo, hi, tex)
}

/// An axis-aligned brush cut by extra planes `(outward normal, point)`.
pub(crate) fn block_cut(lo: Vec3, hi: Vec3, cuts: &[(Vec3, Vec3)], tex: &str) -> String {
    quarry_map::source::box_brush_cut(lo, hi, cuts, tex)
}

/// A 3x3 `patchDef2` from a control grid given row by row.
pub(crate) fn patch(texture: &str, rows: [[Vec3; 3]; 3]) -> String {
    let mut s = format!("{{\npatchDef2\n{{\n{texture}\n( 3 3 0 0 0 )\n(\n");
    // The file lists `width` lines of `height` points: line j holds column j.
    for j in 0..3 {
        s += "( ";
        for row in &rows {
            let p = row[j];
            s += &format!("( {} {} {} 0 0 ) ", p.x, p.y, p.z);
        }
        s += ")\n";
    }
    s += ")\n}\n}\n";
    s
}

/// A map whose worldspawn holds `brushes`, followed by `rest` verbatim.
pub(crate) fn map_with(brushes: &[String], rest: &str) -> String {
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{rest}", brushes.concat())
}

/// A point entity.
pub(crate) fn point_entity(classname: &str, origin: Vec3) -> String {
    format!("{{\n\"classname\" \"{classname}\"\n\"origin\" \"{} {} {}\"\n}}\n", origin.x, origin.y, origin.z)
}

/// The shared maps directory: `QUARRY_SHARED_MAPS`, else
/// `<workspace>/../shared/maps`. `None` (after printing a skip line) when
/// absent, unless `QUARRY_REQUIRE_SHARED_MAPS=1`, which makes it a failure.
pub(crate) fn shared_maps_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps"));
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("QUARRY_REQUIRE_SHARED_MAPS").is_ok_and(|v| v == "1");
    assert!(!required, "QUARRY_REQUIRE_SHARED_MAPS=1 but {} is not a directory", dir.display());
    eprintln!("skip {test}: shared maps not found at {} (set QUARRY_SHARED_MAPS)", dir.display());
    None
}

/// Every `*.map` one level below `dir` (the shared maps are grouped by dialect).
pub(crate) fn maps_below(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir).expect("read shared maps dir").flatten() {
        if sub.path().is_dir() {
            for f in std::fs::read_dir(sub.path()).expect("read dialect dir").flatten() {
                if f.path().extension().is_some_and(|e| e.eq_ignore_ascii_case("map")) {
                    out.push(f.path());
                }
            }
        }
    }
    out.sort();
    out
}

/// Brushes and patches in a map file, counted independently of the loader:
/// editors put structural braces on lines of their own, so count lines that
/// are exactly `{` opening depth 2, and call it a patch if the next
/// non-comment line starts with `patchDef`.
pub(crate) fn count_primitives(text: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).collect();
    let (mut depth, mut brushes, mut patches) = (0usize, 0, 0);
    for (i, line) in lines.iter().enumerate() {
        match *line {
            "{" => {
                depth += 1;
                if depth == 2 {
                    if lines.get(i + 1).is_some_and(|l| l.starts_with("patchDef")) {
                        patches += 1;
                    } else {
                        brushes += 1;
                    }
                }
            }
            "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (brushes, patches)
}
