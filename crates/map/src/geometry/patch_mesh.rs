//! Quake 3 `patchDef2` tessellation: a grid of quadratic bezier segments to
//! triangles.
//!
//! Each 3x3 block of control points (sharing edges with its neighbours) is
//! one biquadratic segment. The number of steps across a segment is chosen so
//! the flattened curve is within a tolerance of the true one, capped by the
//! subdivision level. All segments in one column of segments use the same
//! step count (and likewise for rows), so neighbouring segments meet without
//! cracks a bullet could slip through.

use glam::DVec3;

/// Most triangles one patch may produce; finer requests are coarsened
/// evenly. A real patch yields tens to hundreds; a corrupt 129x129 grid at
/// the full subdivision level would yield half a million.
pub(crate) const MAX_PATCH_TRIANGLES: usize = 16_384;

/// A triangle mesh from one patch.
#[derive(Debug, Clone, Default)]
pub(crate) struct PatchMesh {
    pub(crate) vertices: Vec<DVec3>,
    pub(crate) triangles: Vec<[u32; 3]>,
}

/// How finely to tessellate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tessellation {
    /// Most steps across one bezier segment, in each direction (at least 1).
    pub(crate) max_steps: u32,
    /// Largest allowed distance between curve and triangles; 0 always uses `max_steps`.
    pub(crate) tolerance: f64,
}

/// Steps needed across a quadratic curve a-b-c for the tolerance.
///
/// The curve's greatest distance from its chord is `|b - (a + c) / 2| / 2`,
/// and splitting into `n` pieces divides that error by about `n²`.
fn steps_for(a: DVec3, b: DVec3, c: DVec3, t: Tessellation) -> u32 {
    let max = t.max_steps.max(1);
    if t.tolerance <= 0.0 {
        return max;
    }
    let deviation = (b - (a + c) * 0.5).length() * 0.5;
    let n = (deviation / t.tolerance).sqrt().ceil();
    if n.is_finite() { (n as u32).clamp(1, max) } else { max }
}

fn bezier(a: DVec3, b: DVec3, c: DVec3, t: f64) -> DVec3 {
    let s = 1.0 - t;
    a * (s * s) + b * (2.0 * s * t) + c * (t * t)
}

/// Tessellates a `width` x `height` control grid (`points[row * width + col]`,
/// both sides odd and at least 3; anything else yields an empty mesh).
pub(crate) fn tessellate(width: usize, height: usize, points: &[DVec3], t: Tessellation) -> PatchMesh {
    if width < 3 || height < 3 || width.is_multiple_of(2) || height.is_multiple_of(2) || points.len() != width * height {
        return PatchMesh::default();
    }
    let at = |row: usize, col: usize| points[row * width + col];
    let (seg_cols, seg_rows) = ((width - 1) / 2, (height - 1) / 2);
    // Steps across each column of segments (along a row) and each row of segments.
    let col_steps: Vec<u32> = (0..seg_cols)
        .map(|sc| {
            (0..height).map(|r| steps_for(at(r, 2 * sc), at(r, 2 * sc + 1), at(r, 2 * sc + 2), t)).max().unwrap_or(1)
        })
        .collect();
    let row_steps: Vec<u32> = (0..seg_rows)
        .map(|sr| {
            (0..width).map(|c| steps_for(at(2 * sr, c), at(2 * sr + 1, c), at(2 * sr + 2, c), t)).max().unwrap_or(1)
        })
        .collect();
    let (mut col_steps, mut row_steps) = (col_steps, row_steps);
    let triangles = |c: &[u32], r: &[u32]| 2 * c.iter().sum::<u32>() as usize * r.iter().sum::<u32>() as usize;
    while triangles(&col_steps, &row_steps) > MAX_PATCH_TRIANGLES && col_steps.iter().chain(&row_steps).any(|&n| n > 1) {
        for n in col_steps.iter_mut().chain(row_steps.iter_mut()) {
            *n = (*n / 2).max(1);
        }
    }
    // Parameter samples: (segment, t) pairs along each direction, shared edges once.
    let samples = |steps: &[u32]| -> Vec<(usize, f64)> {
        let mut out = vec![(0, 0.0)];
        for (seg, &n) in steps.iter().enumerate() {
            out.extend((1..=n).map(|i| (seg, f64::from(i) / f64::from(n))));
        }
        out
    };
    let (us, vs) = (samples(&col_steps), samples(&row_steps));
    let mut mesh = PatchMesh { vertices: Vec::with_capacity(us.len() * vs.len()), triangles: Vec::new() };
    for &(sr, tv) in &vs {
        for &(sc, tu) in &us {
            let row = |r: usize| bezier(at(2 * sr + r, 2 * sc), at(2 * sr + r, 2 * sc + 1), at(2 * sr + r, 2 * sc + 2), tu);
            mesh.vertices.push(bezier(row(0), row(1), row(2), tv));
        }
    }
    let stride = us.len() as u32;
    for r in 0..vs.len() as u32 - 1 {
        for c in 0..stride - 1 {
            let (i00, i01, i10, i11) = (r * stride + c, r * stride + c + 1, (r + 1) * stride + c, (r + 1) * stride + c + 1);
            mesh.triangles.push([i00, i01, i11]);
            mesh.triangles.push([i00, i11, i10]);
        }
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid3(f: impl Fn(usize, usize) -> DVec3) -> Vec<DVec3> {
        (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).map(|(r, c)| f(r, c)).collect()
    }

    const FINE: Tessellation = Tessellation { max_steps: 8, tolerance: 0.5 };

    #[test]
    fn flat_patch_is_two_triangles() {
        let pts = grid3(|r, c| DVec3::new(c as f64 * 32.0, r as f64 * 32.0, 0.0));
        let m = tessellate(3, 3, &pts, FINE);
        assert_eq!(m.triangles.len(), 2);
        assert_eq!(m.vertices.len(), 4);
    }

    #[test]
    fn curved_patch_follows_the_curve() {
        // An arch along the columns: z bulges at the middle control column.
        let pts = grid3(|r, c| DVec3::new(c as f64 * 64.0, r as f64 * 64.0, if c == 1 { 64.0 } else { 0.0 }));
        let m = tessellate(3, 3, &pts, FINE);
        let steps = m.vertices.len() / 2 - 1;
        assert!(steps > 1 && steps <= 8, "{steps} steps");
        assert_eq!(m.triangles.len(), steps * 2);
        // The top of the arch is at z = 32 (half the control height).
        let top = m.vertices.iter().map(|v| v.z).fold(f64::MIN, f64::max);
        assert!((top - 32.0).abs() < 1.0, "{top}");
        // Corners are interpolated exactly.
        assert!(m.vertices.contains(&DVec3::new(128.0, 128.0, 0.0)));
    }

    #[test]
    fn max_steps_caps_and_zero_tolerance_uses_it() {
        let pts = grid3(|r, c| DVec3::new(c as f64 * 64.0, r as f64 * 64.0, if c == 1 { 640.0 } else { 0.0 }));
        let m = tessellate(3, 3, &pts, Tessellation { max_steps: 4, tolerance: 0.0 });
        assert_eq!(m.vertices.len(), 5 * 5);
        assert_eq!(m.triangles.len(), 4 * 4 * 2);
    }

    #[test]
    fn wide_patch_has_shared_seams() {
        let pts: Vec<DVec3> =
            (0..3).flat_map(|r| (0..5).map(move |c| DVec3::new(c as f64 * 16.0, r as f64 * 16.0, 0.0))).collect();
        let m = tessellate(5, 3, &pts, FINE);
        assert_eq!(m.vertices.len(), 3 * 2, "two flat segments share one seam column");
        assert_eq!(m.triangles.len(), 4);
    }

    #[test]
    fn huge_grids_are_capped() {
        let (w, h) = (129, 129);
        let pts: Vec<DVec3> =
            (0..h).flat_map(|r| (0..w).map(move |c| DVec3::new(c as f64, r as f64, ((c + r) % 2) as f64 * 50.0))).collect();
        let m = tessellate(w, h, &pts, Tessellation { max_steps: 64, tolerance: 0.0 });
        assert!(m.triangles.len() <= MAX_PATCH_TRIANGLES, "{}", m.triangles.len());
        assert!(!m.triangles.is_empty());
    }

    #[test]
    fn bad_sizes_give_nothing() {
        assert!(tessellate(2, 3, &[DVec3::ZERO; 6], FINE).triangles.is_empty());
        assert!(tessellate(3, 3, &[DVec3::ZERO; 4], FINE).triangles.is_empty());
    }
}
