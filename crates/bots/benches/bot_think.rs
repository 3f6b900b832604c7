//! Bot think time per bot per tick, and the whole server tick (bots think,
//! then the match steps), with 8, 16, 32 and 64 bots in a free-for-all on
//! the shipped q_dm1. Target: 64 bots at 60 Hz with a p99 whole tick of at
//! most 4 ms on one core. `think_tactical` compares think time at
//! `bot_tactical` 0 and 5 with 16 bots (target: level 5 within 20 %).
//!
//! Besides criterion's means, a summary table with p99 figures is printed
//! to stderr (criterion reports means and medians only): wall time, and
//! the thread's CPU time, which other processes on a shared machine do not
//! inflate (a preempted tick shows in wall time only).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use quarry_bots::{AddBot, BotManager, BotSettings};
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

const COUNTS: [usize; 4] = [8, 16, 32, 64];
/// Simulated seconds before measuring (everyone spawned, fights going).
const WARMUP_TICKS: u32 = 600;
/// Ticks timed for the p99 table.
const TABLE_TICKS: usize = 1800;

fn setup(bots_wanted: usize) -> (Match, BotManager) {
    setup_at(bots_wanted, BotSettings::default().tactical)
}

fn setup_at(bots_wanted: usize, tactical: u8) -> (Match, BotManager) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(path, &quarry_map::LoadOptions::default()).expect("q_dm1 loads");
    let settings = Settings {
        warmup: false,
        fraglimit: 0,
        timelimit_min: 0.0,
        ..Settings::default()
    };
    let mut game = Match::new(map, &GameData::default(), settings, 1, Slots::new(64), 60).expect("match");
    let mut bots = BotManager::new(BotSettings {
        skill: 3.0,
        skill_variance: 1.0,
        tactical,
        ..BotSettings::default()
    });
    for _ in 0..bots_wanted {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    for _ in 0..WARMUP_TICKS {
        bots.think(&mut game);
        game.step();
    }
    (game, bots)
}

/// CPU time this thread has used.
fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec.max(0) as u64, t.tv_nsec.clamp(0, 999_999_999) as u32)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn table() {
    eprintln!("\nbots | think/bot/tick mean   p99 | think/tick mean    p99 | whole tick mean    p99  max | cpu: think p99  whole p99");
    for n in COUNTS {
        let (mut game, mut bots) = setup(n);
        let mut think = Vec::with_capacity(TABLE_TICKS);
        let mut whole = Vec::with_capacity(TABLE_TICKS);
        let mut cpu_think = Vec::with_capacity(TABLE_TICKS);
        let mut cpu_whole = Vec::with_capacity(TABLE_TICKS);
        for _ in 0..TABLE_TICKS {
            let (c0, t0) = (thread_cpu(), Instant::now());
            bots.think(&mut game);
            let (c1, t1) = (thread_cpu(), Instant::now());
            game.step();
            let (c2, t2) = (thread_cpu(), Instant::now());
            think.push(t1 - t0);
            whole.push(t2 - t0);
            cpu_think.push(c1.saturating_sub(c0));
            cpu_whole.push(c2.saturating_sub(c0));
        }
        cpu_think.sort_unstable();
        cpu_whole.sort_unstable();
        let mean = |v: &[Duration]| v.iter().sum::<Duration>() / v.len().max(1) as u32;
        let (tm, wm) = (mean(&think), mean(&whole));
        think.sort_unstable();
        whole.sort_unstable();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let per = |d: Duration| us(d) / n as f64;
        let q = bots.nav().query_stats();
        eprintln!(
            "     nav queries: {} routes, {} nearest, {:.1} ms total, slowest {:.2} ms",
            q.routes,
            q.nearest,
            q.total.as_secs_f64() * 1e3,
            q.slowest.as_secs_f64() * 1e3
        );
        eprintln!(
            "{n:4} | {:10.1} us {:6.1} us | {:8.1} us {:7.1} us | {:8.1} us {:7.1} us {:7.1} us | {:11.1} us {:7.1} us",
            per(tm),
            per(percentile(&think, 0.99)),
            us(tm),
            us(percentile(&think, 0.99)),
            us(wm),
            us(percentile(&whole, 0.99)),
            us(percentile(&whole, 1.0)),
            us(percentile(&cpu_think, 0.99)),
            us(percentile(&cpu_whole, 0.99)),
        );
    }
}

/// Time spent thinking over `iters` ticks (the match steps untimed).
fn time_think(game: &mut Match, bots: &mut BotManager, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t = Instant::now();
        bots.think(black_box(&mut *game));
        total += t.elapsed();
        game.step();
    }
    total
}

fn bench(c: &mut Criterion) {
    table();
    let mut group = c.benchmark_group("bot_think");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    for n in COUNTS {
        let (mut game, mut bots) = setup(n);
        group.bench_function(BenchmarkId::new("think_per_tick", n), |b| {
            b.iter_custom(|iters| time_think(&mut game, &mut bots, iters));
        });
        group.bench_function(BenchmarkId::new("whole_tick", n), |b| {
            b.iter(|| {
                bots.think(&mut game);
                game.step();
            });
        });
    }
    for level in [0u8, 5] {
        let (mut game, mut bots) = setup_at(16, level);
        group.bench_function(BenchmarkId::new("think_tactical_16", level), |b| {
            b.iter_custom(|iters| time_think(&mut game, &mut bots, iters));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
