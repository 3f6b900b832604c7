//! Trace throughput: sweeps per second of a 30 x 30 x 56 player box over
//! random 64-unit moves from points inside each shared map, one core.
//!
//! `cargo bench -p quarry-map --bench trace`. Criterion's throughput line is
//! sweeps per second. Target: at least 500,000.
//!
//! For comparison the same moves go through rapier3d's `QueryPipeline::cast_shape`
//! (a cuboid against the same hulls as parry3d convex polyhedra), the
//! alternative the collision world's design was measured against.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use quarry_map::{Contents, LoadOptions};
use rapier3d::parry::query::ShapeCastOptions;
use rapier3d::prelude::{ColliderBuilder, Cuboid, PhysicsWorld, Pose, QueryFilter};
use std::hint::black_box;

use support::{MAXS, MINS};

/// Moves per measured batch.
const MOVES: usize = 4096;
/// Length of each move (a fast player covers ~5 units per 60 Hz tick; 64
/// units is a long probe of the kind the navmesh builder makes).
const MOVE_LENGTH: f32 = 64.0;
/// Length of a sight line or a hitscan shot.
const SIGHT_LENGTH: f32 = 2048.0;

fn trace(c: &mut Criterion) {
    let options = LoadOptions::default();
    for path in support::bench_maps() {
        let Ok(map) = quarry_map::load(&path, &options) else { continue };
        let moves = support::sample_moves(&map, MOVES, MOVE_LENGTH, 0x5eed);
        if moves.is_empty() {
            continue;
        }
        let name = support::short_name(&path);
        let hits = moves
            .iter()
            .filter(|(s, e)| map.world().trace(*s, *e, MINS, MAXS, Contents::MASK_PLAYER_SOLID).hit())
            .count();
        eprintln!("{name}: {} moves, {:.0}% hit something", moves.len(), 100.0 * hits as f64 / moves.len() as f64);

        let mut group = c.benchmark_group(format!("trace/{name}"));
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.sample_size(20);
        group.bench_function("quarry", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for (s, e) in &moves {
                    sum += map.world().trace(*s, *e, MINS, MAXS, Contents::MASK_PLAYER_SOLID).fraction;
                }
                black_box(sum)
            })
        });

        // Sight lines and hitscan shots: long point traces, where a node
        // test against the trace's bounds alone lets most of the map through.
        let lines = support::sample_moves(&map, MOVES, SIGHT_LENGTH, 0x5167);
        group.bench_function("quarry_sight_line_2048", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for (s, e) in &lines {
                    sum += map.world().trace(*s, *e, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT).fraction;
                }
                black_box(sum)
            })
        });

        let mut rapier = PhysicsWorld::default();
        for h in map.world().parry_hulls(Contents::MASK_PLAYER_SOLID) {
            rapier.insert_collider(ColliderBuilder::new(h.shape).position(h.pose), None);
        }
        rapier.detect_collisions(&(), &());
        let half = (MAXS - MINS) * 0.5;
        let centre = (MAXS + MINS) * 0.5;
        let cuboid = Cuboid::new(half);
        let cast_options = ShapeCastOptions { max_time_of_impact: 1.0, stop_at_penetration: false, ..ShapeCastOptions::default() };
        group.bench_function("rapier_cast_shape", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for (s, e) in &moves {
                    let pose = Pose::from_translation(*s + centre);
                    let hit = rapier.cast_shape(&pose, *e - *s, &cuboid, cast_options, QueryFilter::default());
                    sum += hit.map_or(1.0, |(_, h)| h.time_of_impact);
                }
                black_box(sum)
            })
        });
        group.finish();
        let _: Vec3 = centre;
    }
}

criterion_group!(benches, trace);
criterion_main!(benches);
