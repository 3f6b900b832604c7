//! `pmove`: one tick of player movement for 64 players driven by random
//! commands (changed every 20 ticks, like bots holding an intent), on the
//! synthetic arena and on real maps (Quarry's q_dm1 and, if present, the
//! shared Quake 3 map oacmpdm8). Criterion reports time per tick and
//! moves per second; the setup prints the average traces per move.

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use quarry_map::{LoadOptions, Trace};
use quarry_movement::pmove::test_world::TestWorld;
use quarry_movement::pmove::{self, MoveParams, MoveState};
use quarry_movement::{Buttons, UserCmd};
use rand::{RngExt, SeedableRng};

const PLAYERS: usize = 64;
const DT: f32 = 1.0 / 60.0;

fn random_cmd(rng: &mut rand_pcg::Pcg32) -> UserCmd {
    let mut buttons = Buttons::default();
    for (button, p) in [
        (Buttons::JUMP, 0.15),
        (Buttons::CROUCH, 0.1),
        (Buttons::WALK, 0.1),
    ] {
        if rng.random_bool(p) {
            buttons = buttons | button;
        }
    }
    UserCmd {
        pitch: rng.random_range(-30.0..30.0),
        yaw: rng.random_range(0.0..360.0),
        forward: if rng.random_bool(0.8) {
            127
        } else {
            rng.random_range(-127..=127)
        },
        right: rng.random_range(-127..=127),
        buttons,
        ..UserCmd::default()
    }
}

/// 64 players, their commands and the tick counter.
struct Crowd {
    players: Vec<(MoveState, UserCmd)>,
    rng: rand_pcg::Pcg32,
    tick: u64,
}

impl Crowd {
    fn new(starts: &[Vec3]) -> Self {
        let mut rng = rand_pcg::Pcg32::seed_from_u64(7);
        let players = (0..PLAYERS)
            .map(|i| {
                (
                    MoveState::new(starts[i % starts.len()]),
                    random_cmd(&mut rng),
                )
            })
            .collect();
        Self {
            players,
            rng,
            tick: 0,
        }
    }

    /// One tick: every player moves once. Returns the traces spent.
    fn tick(&mut self, world: &dyn Trace, params: &MoveParams) -> u32 {
        self.tick += 1;
        let mut traces = 0;
        for (i, (state, cmd)) in self.players.iter_mut().enumerate() {
            if (self.tick + i as u64).is_multiple_of(20) {
                *cmd = random_cmd(&mut self.rng);
            }
            traces += pmove::pmove(state, cmd, world, params, DT).traces;
        }
        traces
    }
}

fn bench_world(c: &mut Criterion, name: &str, world: &dyn Trace, starts: &[Vec3]) {
    let params = MoveParams::default();
    let mut crowd = Crowd::new(starts);
    // Warm up into a spread-out crowd and measure the trace budget.
    let mut traces = 0;
    for _ in 0..600 {
        traces += crowd.tick(world, &params);
    }
    eprintln!(
        "pmove/{name}: {:.2} traces per move",
        f64::from(traces) / (600 * PLAYERS) as f64
    );
    let mut group = c.benchmark_group("pmove");
    group.throughput(Throughput::Elements(PLAYERS as u64));
    group.bench_function(BenchmarkId::new("tick_64_players", name), |b| {
        b.iter(|| black_box(crowd.tick(world, &params)))
    });
    group.finish();
}

fn pmove_benches(c: &mut Criterion) {
    let arena = TestWorld::arena();
    bench_world(c, "arena", &arena, &TestWorld::ARENA_STARTS);

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (name, path) in [
        ("q_dm1", root.join("maps/q_dm1.map")),
        ("oacmpdm8", root.join("../shared/maps/q3/oacmpdm8.map")),
    ] {
        let map = match quarry_map::load(&path, &LoadOptions::default()) {
            Ok(map) => map,
            Err(e) => {
                eprintln!("pmove/{name}: skipped ({e})");
                continue;
            }
        };
        let starts: Vec<Vec3> = map
            .spawn_points()
            .filter(|(_, s)| s.fits)
            .map(|(_, s)| s.spawn_origin)
            .collect();
        if starts.is_empty() {
            eprintln!("pmove/{name}: skipped (no spawn point fits)");
            continue;
        }
        bench_world(c, name, &map, &starts);
    }
}

criterion_group!(benches, pmove_benches);
criterion_main!(benches);
