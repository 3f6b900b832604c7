//! Trace behaviour on synthetic maps written as text: walls, floors, steps,
//! slopes, patches, clip brushes, starting in solid; and property tests that
//! a trace never ends inside solid, that fraction 1 means the box fits, and
//! that a [`quarry_map::Nearby`] view traces exactly as the world does.

mod common;

use common::{PLAYER_MAXS, PLAYER_MINS, block, block_cut, map_with, patch, point_entity};
use glam::Vec3;
use quarry_map::{Contents, LoadOptions, LoadedMap, SURFACE_CLIP_EPSILON, Trace, load_str};

const EPS: f32 = SURFACE_CLIP_EPSILON;
const PLAYER: Contents = Contents::MASK_PLAYER_SOLID;

fn load(brushes: &[String]) -> LoadedMap {
    let src = map_with(brushes, &point_entity("info_player_deathmatch", Vec3::new(0.0, 0.0, 40.0)));
    let map = load_str(&src, "synthetic.map", &LoadOptions::default()).expect("synthetic map loads");
    assert!(map.skipped().is_empty(), "{:?}", map.skipped());
    map
}

/// A floor slab under z = 0 and a wall at x = 128..160.
fn room() -> LoadedMap {
    load(&[
        block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0), "floor"),
        block(Vec3::new(128.0, -512.0, 0.0), Vec3::new(160.0, 512.0, 256.0), "wall"),
    ])
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-3
}

#[test]
fn box_into_a_wall() {
    let map = room();
    let tr = map.trace(Vec3::new(0.0, 0.0, 40.0), Vec3::new(300.0, 0.0, 40.0), PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(tr.hit() && !tr.start_solid);
    assert_eq!(tr.normal, Vec3::NEG_X);
    assert!(close(tr.end.x, 128.0 - 15.0 - EPS), "{}", tr.end.x);
    assert!(close(tr.fraction, tr.end.x / 300.0));
    assert_eq!(tr.contents, Contents::SOLID);
    assert_eq!(tr.entity, None, "worldspawn has no entity");
    // The end is free, and a trace from it does not start solid.
    assert!(map.fits(tr.end, PLAYER_MINS, PLAYER_MAXS, PLAYER));
    // A point (bullet) goes 15 units further.
    let shot = map.trace(Vec3::new(0.0, 0.0, 40.0), Vec3::new(300.0, 0.0, 40.0), Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
    assert!(close(shot.end.x, 128.0 - EPS));
}

#[test]
fn box_into_a_floor() {
    let map = room();
    let tr = map.trace(Vec3::new(0.0, 0.0, 100.0), Vec3::new(0.0, 0.0, -100.0), PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert_eq!(tr.normal, Vec3::Z);
    assert!(close(tr.end.z, 24.0 + EPS), "{}", tr.end.z);
    // Standing there, sliding along the floor is free.
    let slide = map.trace(tr.end, tr.end + Vec3::new(-200.0, 100.0, 0.0), PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(!slide.hit() && !slide.start_solid, "{slide:?}");
}

#[test]
fn step_height() {
    let map = load(&[
        block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0), "floor"),
        block(Vec3::new(64.0, -512.0, 0.0), Vec3::new(512.0, 0.0, 16.0), "step16"),
        block(Vec3::new(64.0, 0.0, 0.0), Vec3::new(512.0, 512.0, 24.0), "step24"),
    ]);
    for (y, climbable) in [(-100.0, true), (100.0, false)] {
        let stand = Vec3::new(0.0, y, 24.0 + EPS);
        let flat = map.trace(stand, stand + Vec3::X * 128.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
        assert!(flat.hit() && flat.normal == Vec3::NEG_X, "the step blocks a flat move");
        // Quake's step-up: up 18, across, back down.
        let up = map.trace(stand, stand + Vec3::Z * 18.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
        let across = map.trace(up.end, up.end + Vec3::X * 128.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
        assert_eq!(!across.hit(), climbable, "y = {y}: {across:?}");
        if climbable {
            let down = map.trace(across.end, across.end - Vec3::Z * 18.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
            assert!(close(down.end.z, 16.0 + 24.0 + EPS), "{}", down.end.z);
            assert_eq!(down.normal, Vec3::Z);
        }
    }
}

#[test]
fn along_a_slope() {
    // A 30-degree ramp rising along +x from x = 0, z = 0.
    let angle = 30f32.to_radians();
    let n = Vec3::new(-angle.sin(), 0.0, angle.cos());
    let ramp = block_cut(Vec3::new(0.0, -256.0, -16.0), Vec3::new(512.0, 256.0, 512.0), &[(n, Vec3::ZERO)], "ramp");
    let map = load(&[block(Vec3::new(-512.0, -512.0, -32.0), Vec3::new(0.0, 512.0, 0.0), "floor"), ramp]);
    let start = Vec3::new(200.0, 0.0, 400.0);
    let land = map.trace(start, start - Vec3::Z * 600.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(land.hit() && !land.start_solid);
    assert!((land.normal - n).length() < 1e-4, "{}", land.normal);
    // The box corner deepest toward the ramp, (x + 15, z - 24), is the epsilon above the plane.
    let corner = Vec3::new(land.end.x + 15.0, 0.0, land.end.z - 24.0);
    let gap = n.dot(corner);
    assert!((gap - EPS).abs() < 1e-3, "gap {gap}");
    // Moving along the slope (parallel to it) is free.
    let up_slope = Vec3::new(angle.cos(), 0.0, angle.sin()) * 100.0;
    let slide = map.trace(land.end, land.end + up_slope, PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(!slide.hit(), "{slide:?}");
    // Moving horizontally into the slope is stopped by it.
    let into = map.trace(land.end, land.end + Vec3::X * 100.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(into.hit());
    assert!((into.normal - n).length() < 1e-4);
}

#[test]
fn patch_floor() {
    // A gently curved patch floor at z ~ 0..8 over 256x256, no brushes below.
    let row = |y: f32, z: f32| [Vec3::new(-128.0, y, 0.0), Vec3::new(0.0, y, z), Vec3::new(128.0, y, 0.0)];
    let floor = patch("base/curvefloor", [row(-128.0, 16.0), row(0.0, 16.0), row(128.0, 16.0)]);
    let map = load(&[floor]);
    let info = map.info();
    assert_eq!(info.patches, 1);
    assert!(info.patch_triangles >= 4, "{}", info.patch_triangles);
    let tr = map.trace(Vec3::new(0.0, 0.0, 100.0), Vec3::new(0.0, 0.0, -100.0), PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(tr.hit() && !tr.start_solid);
    assert!(tr.normal.z > 0.99, "{}", tr.normal);
    // The curve's top is at z = 8 (half the control height); the box rests on it.
    assert!(tr.end.z > 24.0 + 7.0 && tr.end.z < 24.0 + 8.5, "{}", tr.end.z);
    // Patches are two-sided: a shot from below hits too.
    let shot = map.trace(Vec3::new(10.0, 10.0, -50.0), Vec3::new(10.0, 10.0, 50.0), Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
    assert!(shot.hit() && shot.normal.z < -0.9, "{shot:?}");
}

#[test]
fn clip_brushes_block_players_not_shots() {
    let map = load(&[
        block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0), "floor"),
        block(Vec3::new(100.0, -512.0, 0.0), Vec3::new(108.0, 512.0, 256.0), "common/clip"),
        block(Vec3::new(-108.0, -512.0, 0.0), Vec3::new(-100.0, 512.0, 256.0), "common/weapclip"),
    ]);
    let from = Vec3::new(0.0, 0.0, 40.0);
    let player = map.trace(from, from + Vec3::X * 200.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(player.hit());
    assert_eq!(player.contents, Contents::PLAYERCLIP);
    let point = map.trace(from, from + Vec3::X * 200.0, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
    assert!(!point.hit(), "shots pass player clip");
    let rocket = map.trace(from, from + Vec3::X * 200.0, Vec3::splat(-2.0), Vec3::splat(2.0), Contents::MASK_SHOT);
    assert!(!rocket.hit(), "projectiles pass player clip");
    // Weapon clip stops both.
    assert!(map.trace(from, from - Vec3::X * 200.0, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT).hit());
    assert!(map.trace(from, from - Vec3::X * 200.0, PLAYER_MINS, PLAYER_MAXS, PLAYER).hit());
    assert_eq!(map.point_contents(Vec3::new(104.0, 0.0, 50.0)), Contents::PLAYERCLIP);
}

#[test]
fn start_inside_solid() {
    let map = room();
    let inside = Vec3::new(144.0, 0.0, 100.0);
    let tr = map.trace(inside, inside + Vec3::Y * 50.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(tr.start_solid && tr.all_solid);
    assert_eq!((tr.fraction, tr.end), (0.0, inside));
    // Half in the wall, moving out: start_solid but the move completes.
    let half = Vec3::new(120.0, 0.0, 40.0);
    let out = map.trace(half, half - Vec3::X * 50.0, PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(out.start_solid && !out.all_solid);
    assert_eq!(out.fraction, 1.0);
    // Standing exactly on the floor counts as touching.
    assert!(!map.fits(Vec3::new(0.0, 0.0, 24.0), PLAYER_MINS, PLAYER_MAXS, PLAYER));
    assert!(map.fits(Vec3::new(0.0, 0.0, 24.0 + EPS), PLAYER_MINS, PLAYER_MAXS, PLAYER));
}

#[test]
fn liquids_and_triggers_are_contents_not_walls() {
    let map = load(&[
        block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0), "floor"),
        block(Vec3::new(-64.0, -64.0, 0.0), Vec3::new(64.0, 64.0, 64.0), "liquids/lavahell"),
    ]);
    let tr = map.trace(Vec3::new(-200.0, 0.0, 40.0), Vec3::new(200.0, 0.0, 40.0), PLAYER_MINS, PLAYER_MAXS, PLAYER);
    assert!(!tr.hit(), "lava does not block");
    assert_eq!(map.point_contents(Vec3::new(0.0, 0.0, 32.0)), Contents::LAVA);
    let water = map.trace(Vec3::new(0.0, 0.0, 200.0), Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, Vec3::ZERO, Contents::MASK_LIQUID);
    assert!(water.hit() && close(water.end.z, 64.0 + EPS), "{water:?}");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A fixed world of boxes, wedges and a patch to trace through.
    fn world() -> &'static LoadedMap {
        static WORLD: std::sync::OnceLock<LoadedMap> = std::sync::OnceLock::new();
        WORLD.get_or_init(|| {
            let mut brushes = vec![block(Vec3::new(-512.0, -512.0, -16.0), Vec3::new(512.0, 512.0, 0.0), "floor")];
            let mut seed = 12345u32;
            let mut rnd = move |lo: f32, hi: f32| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                lo + (hi - lo) * (seed as f32 / u32::MAX as f32)
            };
            for i in 0..24 {
                let lo = Vec3::new(rnd(-400.0, 300.0), rnd(-400.0, 300.0), rnd(0.0, 200.0)).round();
                let hi = lo + Vec3::new(rnd(8.0, 160.0), rnd(8.0, 160.0), rnd(8.0, 160.0)).round();
                if i % 3 == 0 {
                    let n = Vec3::new(rnd(-1.0, 1.0), rnd(-1.0, 1.0), rnd(0.2, 1.0)).normalize();
                    brushes.push(block_cut(lo, hi, &[(n, (lo + hi) * 0.5)], "slope"));
                } else {
                    brushes.push(block(lo, hi, "box"));
                }
            }
            let row = |y: f32, z: f32| [Vec3::new(-480.0, y, 300.0), Vec3::new(-400.0, y, 300.0 + z), Vec3::new(-320.0, y, 300.0)];
            brushes.push(patch("base/arch", [row(-480.0, 60.0), row(-400.0, 60.0), row(-320.0, 60.0)]));
            load(&brushes)
        })
    }

    fn vec3(range: std::ops::Range<f32>) -> impl Strategy<Value = Vec3> {
        (range.clone(), range.clone(), range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    /// An independent overlap check: the separating-axis gap between a
    /// cuboid at `origin` and each hull, from parry3d's convex hull of the
    /// hull corners (its faces and edges), not from the loader's planes.
    /// Returns the smallest gap (negative when overlapping).
    ///
    /// (parry's own `distance` and `intersection_test` are GJK-based and
    /// report touching within a few hundredths of a unit on large brushes, too
    /// coarse to check a 1/32-unit clip epsilon.)
    fn smallest_gap(map: &LoadedMap, origin: Vec3, mins: Vec3, maxs: Vec3) -> f32 {
        let (centre, half) = (origin + (mins + maxs) * 0.5, (maxs - mins) * 0.5);
        let mut smallest = f32::MAX;
        for h in map.world().parry_hulls(PLAYER) {
            let (points, mut axes, edges): (Vec<Vec3>, Vec<Vec3>, Vec<Vec3>) =
                if let Some(poly) = h.shape.as_convex_polyhedron() {
                    let normals = poly.faces().iter().map(|f| f.normal).collect();
                    (poly.points().to_vec(), normals, poly.edges().iter().map(|e| e.dir).collect())
                } else if let Some(t) = h.shape.as_triangle() {
                    let n = (t.b - t.a).cross(t.c - t.a).normalize();
                    (vec![t.a, t.b, t.c], vec![n], vec![t.b - t.a, t.c - t.b, t.a - t.c])
                } else {
                    continue;
                };
            axes.extend([Vec3::X, Vec3::Y, Vec3::Z]);
            for e in &edges {
                for a in [Vec3::X, Vec3::Y, Vec3::Z] {
                    let c = e.cross(a);
                    if c.length_squared() > 1e-8 {
                        axes.push(c.normalize());
                    }
                }
            }
            let gap = axes
                .iter()
                .map(|&ax| {
                    let (lo, hi) = points.iter().map(|p| ax.dot(*p)).fold((f32::MAX, f32::MIN), |(l, h), v| (l.min(v), h.max(v)));
                    let (c, r) = (ax.dot(centre), ax.abs().dot(half));
                    (lo - (c + r)).max((c - r) - hi)
                })
                .fold(f32::MIN, f32::max);
            smallest = smallest.min(gap);
        }
        smallest
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn never_ends_in_solid(start in vec3(-500.0..500.0), delta in vec3(-300.0..300.0), half in vec3(0.0..32.0)) {
            let map = world();
            let (mins, maxs) = (-half, half);
            let end = start + delta;
            let tr = map.trace(start, end, mins, maxs, PLAYER);
            prop_assert!(tr.fraction >= 0.0 && tr.fraction <= 1.0);
            if tr.all_solid {
                prop_assert!(tr.start_solid && tr.fraction == 0.0);
            }
            if !tr.start_solid {
                prop_assert!(map.fits(tr.end, mins, maxs, PLAYER), "ends in solid: {:?}", tr);
                // A trace ends clear of every hull by about the clip
                // epsilon, unless it started closer than that (a box that
                // does not move, or moves along the surface, stays as close).
                let gap = smallest_gap(map, tr.end, mins, maxs);
                if smallest_gap(map, start, mins, maxs) > EPS {
                    prop_assert!(gap > EPS * 0.5, "the end at {} is only {gap} from a hull", tr.end);
                }
                if tr.fraction == 1.0 {
                    prop_assert_eq!(tr.end, end);
                } else {
                    prop_assert!((tr.normal.length() - 1.0).abs() < 1e-4);
                    // The hit is real: a slightly longer move from the end is blocked at once.
                    let dir = delta.normalize_or_zero();
                    let push = map.trace(tr.end, tr.end + dir * 0.5, mins, maxs, PLAYER);
                    prop_assert!(push.hit(), "nothing in the way after a hit: {:?} then {:?}", tr, push);
                }
            }
        }

        #[test]
        fn nearby_traces_match_the_world(
            centre in vec3(-450.0..450.0),
            size in vec3(16.0..200.0),
            sweeps in proptest::collection::vec((vec3(-1.0..1.0), vec3(-120.0..120.0), vec3(0.0..24.0)), 12),
        ) {
            // A focused view answers every trace exactly as the world does:
            // the ones that stay in its box from the hulls it gathered, the
            // ones that leave it through the whole world.
            let map = world();
            let mut near = map.world().nearby();
            near.focus(centre - size, centre + size);
            for (at, delta, half) in sweeps {
                let start = centre + at * size;
                for mask in [PLAYER, Contents::MASK_SHOT, Contents::WATER | Contents::TRIGGER] {
                    let want = map.trace(start, start + delta, -half, half, mask);
                    prop_assert_eq!(near.trace(start, start + delta, -half, half, mask), want);
                }
            }
        }

        #[test]
        fn a_clear_line_is_a_point_trace_that_gets_through(
            start in vec3(-500.0..500.0),
            delta in vec3(-900.0..900.0),
        ) {
            // line_is_clear stops at the first hull in the way; its answer
            // is the full trace's, for every mask.
            let map = world();
            for mask in [PLAYER, Contents::MASK_SHOT, Contents::WATER | Contents::TRIGGER] {
                let tr = map.trace(start, start + delta, Vec3::ZERO, Vec3::ZERO, mask);
                prop_assert_eq!(map.world().line_is_clear(start, start + delta, mask), !tr.start_solid && tr.fraction >= 1.0);
                prop_assert_eq!(map.world().line_reaches(start, start + delta, mask), tr.fraction >= 1.0);
            }
        }

        #[test]
        fn fraction_one_means_the_box_fits(start in vec3(-500.0..500.0), delta in vec3(-64.0..64.0)) {
            let map = world();
            let tr = map.trace(start, start + delta, PLAYER_MINS, PLAYER_MAXS, PLAYER);
            if !tr.start_solid && tr.fraction == 1.0 {
                prop_assert!(map.fits(start + delta, PLAYER_MINS, PLAYER_MAXS, PLAYER));
                prop_assert!(smallest_gap(map, start + delta, PLAYER_MINS, PLAYER_MAXS) > 0.0);
            }
        }
    }
}


