//! Other players' boxes as obstacles for a moving box: the sweep the sim
//! uses when players block each other, shared so that a predicting client
//! is blocked by the boxes it sees exactly as the server's pmove is.

use glam::Vec3;
use quarry_map::{Contents, SURFACE_CLIP_EPSILON, Trace, TraceResult};

/// An obstacle box: its origin and its extent around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxObstacle {
    /// Box origin.
    pub origin: Vec3,
    /// Box mins relative to the origin.
    pub mins: Vec3,
    /// Box maxs relative to the origin.
    pub maxs: Vec3,
}

/// Sweeps box `mins..maxs` from `start` to `end` against one obstacle
/// (slab test on the Minkowski sum). Stops [`SURFACE_CLIP_EPSILON`] short,
/// like a map trace. `None` when it does not touch.
pub fn sweep_box(start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, o: &BoxObstacle) -> Option<TraceResult> {
    let lo = o.origin + o.mins - maxs;
    let hi = o.origin + o.maxs - mins;
    let inside = start.cmpgt(lo).all() && start.cmplt(hi).all();
    if inside {
        return Some(TraceResult {
            fraction: 0.0,
            end: start,
            normal: Vec3::ZERO,
            start_solid: true,
            all_solid: false,
            contents: Contents::SOLID,
            entity: None,
        });
    }
    let d = end - start;
    let mut t_enter = f32::NEG_INFINITY;
    let mut t_exit = f32::INFINITY;
    let mut normal = Vec3::ZERO;
    for axis in 0..3 {
        let (s, v, l, h) = (start[axis], d[axis], lo[axis], hi[axis]);
        if v.abs() < 1e-9 {
            if s <= l || s >= h {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((l - s) / v, (h - s) / v);
        let (near, far, n) = if t0 < t1 { (t0, t1, -1.0) } else { (t1, t0, 1.0) };
        if near > t_enter {
            t_enter = near;
            normal = Vec3::ZERO;
            normal[axis] = n;
        }
        t_exit = t_exit.min(far);
    }
    if t_enter > t_exit || !(0.0..=1.0).contains(&t_enter) {
        return None;
    }
    let len = d.length();
    let fraction = if len > 0.0 { (t_enter - SURFACE_CLIP_EPSILON / len).max(0.0) } else { 0.0 };
    Some(TraceResult {
        fraction,
        end: start + d * fraction,
        normal,
        start_solid: false,
        all_solid: false,
        contents: Contents::SOLID,
        entity: None,
    })
}

/// A world plus obstacle boxes: the nearest hit wins (the sim's rule).
pub struct WithObstacles<'a> {
    /// The map.
    pub world: &'a dyn Trace,
    /// The boxes.
    pub obstacles: &'a [BoxObstacle],
}

impl Trace for WithObstacles<'_> {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        let mut best = self.world.trace(start, end, mins, maxs, mask);
        if !mask.intersects(Contents::SOLID) || best.all_solid {
            return best;
        }
        for o in self.obstacles {
            if let Some(hit) = sweep_box(start, end, mins, maxs, o)
                && (hit.fraction < best.fraction || (hit.start_solid && !best.start_solid))
            {
                let start_solid = hit.start_solid || best.start_solid;
                best = TraceResult { start_solid, ..hit };
            }
        }
        best
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }
}
