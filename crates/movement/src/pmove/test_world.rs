//! A small synthetic world for tests and benchmarks: convex brushes given
//! as planes (boxes, ramps, any convex shape), traced with the same Quake 3
//! box-versus-brush clipping and [`SURFACE_CLIP_EPSILON`] as the map crate.
//!
//! Test support only, not part of this crate's API: it scans every brush on
//! every trace and has none of the map crate's checks.

use glam::Vec3;
use quarry_map::{Contents, EntityId, SURFACE_CLIP_EPSILON, Trace, TraceResult};

/// One convex brush: `normal · p <= dist` inside every plane.
#[derive(Debug, Clone)]
struct Brush {
    planes: Vec<(Vec3, f32)>,
    mins: Vec3,
    maxs: Vec3,
    contents: Contents,
    entity: Option<EntityId>,
}

/// A world of convex brushes implementing [`Trace`].
#[derive(Debug, Clone, Default)]
pub struct TestWorld {
    brushes: Vec<Brush>,
}

impl TestWorld {
    /// An empty world (nothing to stand on).
    pub fn new() -> Self {
        Self::default()
    }

    /// A closed room: floor top at z 0 and walls 16 thick around
    /// x, y in -1024..1024, ceiling at z 512.
    pub fn room() -> Self {
        let mut w = Self::new();
        w.add_room(
            Vec3::new(-1024.0, -1024.0, 0.0),
            Vec3::new(1024.0, 1024.0, 512.0),
            16.0,
        );
        w
    }

    /// A closed room of x, y in -512..512, floor at z 0, ceiling at 160
    /// (low enough for jumps from the steps to hit it), full of things to
    /// get stuck on: stairs of 16, 18 and 20, boxes, a thin plank at head
    /// height, a 30 and a 60 degree ramp, a 42-unit tunnel, a crease of a
    /// wall and a steep slope, a pool of water and slime, a player clip.
    /// [`TestWorld::ARENA_STARTS`] are free places to start from.
    pub fn arena() -> Self {
        let mut w = Self::new();
        w.add_room(
            Vec3::new(-512.0, -512.0, 0.0),
            Vec3::new(512.0, 512.0, 160.0),
            16.0,
        );
        w.add_stairs(Vec3::new(-400.0, -300.0, 0.0), 5, 16.0, 24.0, 96.0);
        w.add_stairs(Vec3::new(-400.0, -150.0, 0.0), 3, 18.0, 20.0, 64.0);
        w.add_stairs(Vec3::new(-400.0, -50.0, 0.0), 3, 20.0, 32.0, 64.0);
        w.add_solid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(64.0, 64.0, 12.0));
        w.add_solid(Vec3::new(100.0, 100.0, 0.0), Vec3::new(164.0, 164.0, 64.0));
        w.add_solid(Vec3::new(-40.0, 200.0, 0.0), Vec3::new(-8.0, 232.0, 160.0));
        w.add_solid(Vec3::new(200.0, -100.0, 50.0), Vec3::new(300.0, 0.0, 54.0));
        w.add_ramp(
            Vec3::new(200.0, 200.0, 0.0),
            Vec3::new(200.0 + 64.0 * 3f32.sqrt(), 300.0, 64.0),
        );
        w.add_ramp(
            Vec3::new(300.0, -400.0, 0.0),
            Vec3::new(300.0 + 80.0 / 3f32.sqrt(), -300.0, 80.0),
        );
        w.add_solid(
            Vec3::new(-200.0, 300.0, 42.0),
            Vec3::new(-100.0, 400.0, 160.0),
        );
        w.add_solid(Vec3::new(400.0, 400.0, 0.0), Vec3::new(512.0, 410.0, 160.0));
        w.add_ramp(Vec3::new(420.0, 300.0, 0.0), Vec3::new(512.0, 400.0, 160.0));
        w.add_box(
            Vec3::new(-512.0, 300.0, 0.0),
            Vec3::new(-300.0, 512.0, 60.0),
            Contents::WATER,
            None,
        );
        w.add_box(
            Vec3::new(-512.0, 450.0, 0.0),
            Vec3::new(-450.0, 512.0, 60.0),
            Contents::SLIME,
            None,
        );
        w.add_box(
            Vec3::new(-60.0, 180.0, 0.0),
            Vec3::new(12.0, 252.0, 40.0),
            Contents::PLAYERCLIP,
            None,
        );
        w
    }

    /// Free places to start from in [`TestWorld::arena`].
    pub const ARENA_STARTS: [Vec3; 6] = [
        Vec3::new(0.0, -200.0, 30.0),
        Vec3::new(-300.0, -280.0, 120.0),
        Vec3::new(350.0, 350.0, 60.0),
        Vec3::new(-400.0, 400.0, 40.0),
        Vec3::new(150.0, -50.0, 100.0),
        Vec3::new(450.0, 250.0, 30.0),
    ];

    /// Adds six solid slabs `thickness` thick enclosing the box `inner_mins..inner_maxs`.
    pub fn add_room(&mut self, inner_mins: Vec3, inner_maxs: Vec3, thickness: f32) -> &mut Self {
        let (lo, hi, t) = (inner_mins, inner_maxs, Vec3::splat(thickness));
        let (olo, ohi) = (lo - t, hi + t);
        self.add_solid(olo, Vec3::new(ohi.x, ohi.y, lo.z));
        self.add_solid(Vec3::new(olo.x, olo.y, hi.z), ohi);
        self.add_solid(olo, Vec3::new(lo.x, ohi.y, ohi.z));
        self.add_solid(Vec3::new(hi.x, olo.y, olo.z), ohi);
        self.add_solid(olo, Vec3::new(ohi.x, lo.y, ohi.z));
        self.add_solid(Vec3::new(olo.x, hi.y, olo.z), ohi)
    }

    /// Adds a solid axis-aligned box.
    pub fn add_solid(&mut self, mins: Vec3, maxs: Vec3) -> &mut Self {
        self.add_box(mins, maxs, Contents::SOLID, None)
    }

    /// Adds an axis-aligned box of any contents (water, player clip…),
    /// optionally owned by an entity.
    pub fn add_box(
        &mut self,
        mins: Vec3,
        maxs: Vec3,
        contents: Contents,
        entity: Option<EntityId>,
    ) -> &mut Self {
        let planes = vec![
            (Vec3::X, maxs.x),
            (-Vec3::X, -mins.x),
            (Vec3::Y, maxs.y),
            (-Vec3::Y, -mins.y),
            (Vec3::Z, maxs.z),
            (-Vec3::Z, -mins.z),
        ];
        self.brushes.push(Brush {
            planes,
            mins,
            maxs,
            contents,
            entity,
        });
        self
    }

    /// Adds a solid ramp (a wedge) filling `mins..maxs` that rises along +x
    /// from `mins.z` at `mins.x` to `maxs.z` at `maxs.x`.
    pub fn add_ramp(&mut self, mins: Vec3, maxs: Vec3) -> &mut Self {
        let run = maxs.x - mins.x;
        let rise = maxs.z - mins.z;
        let slope = Vec3::new(-rise, 0.0, run).normalize_or_zero();
        let planes = vec![
            (slope, slope.dot(mins)),
            (Vec3::X, maxs.x),
            (Vec3::Y, maxs.y),
            (-Vec3::Y, -mins.y),
            (-Vec3::Z, -mins.z),
            // Axial bevels: the wedge's bounds, so a box sweep stops at its
            // low edge and top edge instead of at the extended planes.
            (-Vec3::X, -mins.x),
            (Vec3::Z, maxs.z),
        ];
        self.brushes.push(Brush {
            planes,
            mins,
            maxs,
            contents: Contents::SOLID,
            entity: None,
        });
        self
    }

    /// Adds stairs rising along +x from `start` (the bottom of the first
    /// step's front edge): `count` steps of `height` and `depth`, `width`
    /// wide centred on `start.y`, each a solid box down to `start.z`.
    pub fn add_stairs(
        &mut self,
        start: Vec3,
        count: u32,
        height: f32,
        depth: f32,
        width: f32,
    ) -> &mut Self {
        for i in 0..count {
            let x0 = start.x + depth * i as f32;
            let top = start.z + height * (i + 1) as f32;
            let mins = Vec3::new(x0, start.y - width / 2.0, start.z);
            self.add_solid(
                mins,
                Vec3::new(start.x + depth * count as f32, start.y + width / 2.0, top),
            );
        }
        self
    }

    /// How many brushes the world holds.
    pub fn len(&self) -> usize {
        self.brushes.len()
    }

    /// Whether the world holds no brush.
    pub fn is_empty(&self) -> bool {
        self.brushes.is_empty()
    }
}

/// Quake 3 `CM_TraceThroughBrush` for one brush; updates `best`.
fn clip_brush(
    brush: &Brush,
    start: Vec3,
    end: Vec3,
    mins: Vec3,
    maxs: Vec3,
    best: &mut TraceResult,
) {
    let mut enter = -1.0_f32;
    let mut leave = 1.0_f32;
    let mut clip_normal = Vec3::ZERO;
    let (mut starts_out, mut gets_out) = (false, false);
    for &(normal, dist) in &brush.planes {
        // Push the plane out by the box corner that leads into it.
        let corner = Vec3::select(normal.cmplt(Vec3::ZERO), maxs, mins);
        let dist = dist - normal.dot(corner);
        let d1 = normal.dot(start) - dist;
        let d2 = normal.dot(end) - dist;
        gets_out |= d2 > 0.0;
        starts_out |= d1 > 0.0;
        if d1 > 0.0 && (d2 >= SURFACE_CLIP_EPSILON || d2 >= d1) {
            return;
        }
        if d1 <= 0.0 && d2 <= 0.0 {
            continue;
        }
        if d1 > d2 {
            let f = ((d1 - SURFACE_CLIP_EPSILON) / (d1 - d2)).max(0.0);
            if f > enter {
                enter = f;
                clip_normal = normal;
            }
        } else {
            let f = ((d1 + SURFACE_CLIP_EPSILON) / (d1 - d2)).min(1.0);
            leave = leave.min(f);
        }
    }
    if !starts_out {
        best.start_solid = true;
        if !gets_out {
            best.all_solid = true;
            best.fraction = 0.0;
            best.contents = brush.contents;
            best.entity = brush.entity;
        }
        return;
    }
    if enter < leave && enter > -1.0 && enter < best.fraction {
        best.fraction = enter.max(0.0);
        best.normal = clip_normal;
        best.contents = brush.contents;
        best.entity = brush.entity;
    }
}

impl Trace for TestWorld {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        let mut best = TraceResult::clear(end);
        if !(start.is_finite() && end.is_finite() && mins.is_finite() && maxs.is_finite()) {
            return TraceResult {
                fraction: 0.0,
                start_solid: true,
                all_solid: true,
                ..TraceResult::clear(start)
            };
        }
        let margin = Vec3::splat(SURFACE_CLIP_EPSILON + 1.0);
        let sweep_lo = start.min(end) + mins - margin;
        let sweep_hi = start.max(end) + maxs + margin;
        for brush in &self.brushes {
            if !brush.contents.intersects(mask)
                || brush.mins.cmpgt(sweep_hi).any()
                || brush.maxs.cmplt(sweep_lo).any()
            {
                continue;
            }
            clip_brush(brush, start, end, mins, maxs, &mut best);
            if best.all_solid {
                break;
            }
        }
        if best.fraction < 1.0 {
            best.end = start + (end - start) * best.fraction;
        }
        if best.all_solid {
            best.end = start;
            best.normal = Vec3::ZERO;
        }
        best
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.brushes
            .iter()
            .filter(|b| b.planes.iter().all(|&(n, d)| n.dot(point) <= d))
            .fold(Contents::empty(), |c, b| c | b.contents)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOX: (Vec3, Vec3) = (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));

    #[test]
    fn box_stops_short_of_the_floor() {
        let w = TestWorld::room();
        let tr = w.trace(
            Vec3::new(0.0, 0.0, 100.0),
            Vec3::new(0.0, 0.0, 0.0),
            BOX.0,
            BOX.1,
            Contents::SOLID,
        );
        assert!(tr.hit() && !tr.start_solid);
        assert!(
            (tr.end.z - (24.0 + SURFACE_CLIP_EPSILON)).abs() < 1e-3,
            "{}",
            tr.end.z
        );
        assert_eq!(tr.normal, Vec3::Z);
        assert!(w.fits(tr.end, BOX.0, BOX.1, Contents::SOLID));
        assert!(!w.fits(Vec3::new(0.0, 0.0, 23.0), BOX.0, BOX.1, Contents::SOLID));
    }

    #[test]
    fn arena_starts_are_free() {
        let w = TestWorld::arena();
        for start in TestWorld::ARENA_STARTS {
            assert!(
                w.fits(start, BOX.0, BOX.1, Contents::MASK_PLAYER_SOLID),
                "{start}"
            );
        }
    }

    #[test]
    fn ramp_normal_and_contents() {
        let mut w = TestWorld::new();
        w.add_ramp(Vec3::new(0.0, -64.0, 0.0), Vec3::new(100.0, 64.0, 100.0));
        w.add_box(
            Vec3::new(200.0, 0.0, 0.0),
            Vec3::new(300.0, 100.0, 100.0),
            Contents::WATER,
            None,
        );
        let tr = w.trace(
            Vec3::new(50.0, 0.0, 200.0),
            Vec3::new(50.0, 0.0, -50.0),
            Vec3::ZERO,
            Vec3::ZERO,
            Contents::SOLID,
        );
        assert!((tr.normal - Vec3::new(-1.0, 0.0, 1.0).normalize()).length() < 1e-5);
        assert!((tr.end.z - 50.0).abs() < 0.1);
        assert_eq!(
            w.point_contents(Vec3::new(250.0, 50.0, 50.0)),
            Contents::WATER
        );
        assert_eq!(
            w.point_contents(Vec3::new(90.0, 0.0, 10.0)),
            Contents::SOLID
        );
        assert_eq!(
            w.point_contents(Vec3::new(10.0, 0.0, 90.0)),
            Contents::empty()
        );
        let tr = w.trace(
            Vec3::new(150.0, 50.0, 50.0),
            Vec3::new(350.0, 50.0, 50.0),
            BOX.0,
            BOX.1,
            Contents::SOLID,
        );
        assert!(!tr.hit(), "water does not block a solid mask");
    }
}
