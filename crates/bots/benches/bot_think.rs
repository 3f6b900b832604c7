//! Bot think time per bot per tick, and the whole server tick (bots think,
//! then the match steps), with 8, 16, 32 and 64 bots in a free-for-all on
//! the shipped q_dm1. Target: 64 bots at 60 Hz with a p99 whole tick of at
//! most 4 ms on one core. `think_tactical` compares think time at
//! `bot_tactical` 0 and 5 with 16 bots (target: level 5 within 20 %).
//! `think_scripted_64` runs 64 bots on the shipped `companion` brain at
//! `bot_scriptRate` 10 and 60 (targets: a script call under 50 us mean,
//! and the scripts adding under 1 ms to the p99 tick at 10). The scripted
//! table also plays 64 `strafer` bots, and gives the CPU time of the
//! shipped brains' calls (mean, slowest) and of the slowest tick's calls,
//! which `bot_scriptMaxMs` and `bot_scriptTickMs` must stay far above.
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
    setup_with(bots_wanted, BotSettings { tactical, ..bench_settings() }, None)
}

fn bench_settings() -> BotSettings {
    BotSettings {
        skill: 3.0,
        skill_variance: 1.0,
        ..BotSettings::default()
    }
}

/// `bots_wanted` bots playing the shipped scripted brain `brain` at
/// `rate` calls a second.
fn setup_scripted(bots_wanted: usize, brain: &str, rate: u32) -> (Match, BotManager) {
    setup_with(bots_wanted, BotSettings { script_rate: rate, ..bench_settings() }, Some(brain))
}

fn setup_with(bots_wanted: usize, bot_settings: BotSettings, brain: Option<&str>) -> (Match, BotManager) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(path, &quarry_map::LoadOptions::default()).expect("q_dm1 loads");
    let settings = Settings {
        warmup: false,
        fraglimit: 0,
        timelimit_min: 0.0,
        ..Settings::default()
    };
    let mut game = Match::new(map, &GameData::default(), settings, 1, Slots::new(64), 60).expect("match");
    let mut bots = BotManager::new(bot_settings);
    if brain.is_some() {
        bots.set_botfiles_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles"));
        let loaded = bots.load_brains().expect("botfiles");
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    }
    for _ in 0..bots_wanted {
        bots.add_bot(&mut game, AddBot { brain: brain.map(str::to_owned), ..AddBot::default() }).expect("bot");
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

/// The scripted table: 64 companion bots at two rates and 64 strafers,
/// with the time the scripts themselves took per tick and per call (wall
/// time), and their CPU time: a call's mean and the slowest call, the
/// slowest tick's calls together, and calls stopped or put off by the time
/// limits (none, for sound brains).
/// Where the scripted table's figures go as rows for `scripts/bench.sh`
/// (tab-separated name, value, unit, command).
fn script_figures_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("script_figures.tsv")
}

fn scripted_table() {
    let mut rows = Vec::new();
    let command = "cargo bench -p quarry-bots --bench bot_think -- think_scripted";
    eprintln!(
        "\nscripted bots     | think/tick mean    p99 | whole tick mean    p99 | scripts/tick mean    p99 | per call mean  per bot period mean  of it navmesh  slowest | cpu: call mean  slowest call  slowest tick  over time  put off"
    );
    for (brain, rate) in [("companion", 10u32), ("companion", 60), ("strafer", 10)] {
        let n = 64;
        let (mut game, mut bots) = setup_scripted(n, brain, rate);
        let mut think = Vec::with_capacity(TABLE_TICKS);
        let mut whole = Vec::with_capacity(TABLE_TICKS);
        let mut scripts = Vec::with_capacity(TABLE_TICKS);
        let start = script_stats(&bots);
        for _ in 0..TABLE_TICKS {
            let before = script_stats(&bots).total;
            let t0 = Instant::now();
            bots.think(&mut game);
            let t1 = Instant::now();
            game.step();
            let t2 = Instant::now();
            think.push(t1 - t0);
            whole.push(t2 - t0);
            scripts.push(script_stats(&bots).total.saturating_sub(before));
        }
        let end = script_stats(&bots);
        let mean = |v: &[Duration]| v.iter().sum::<Duration>() / v.len().max(1) as u32;
        let (tm, wm, sm) = (mean(&think), mean(&whole), mean(&scripts));
        think.sort_unstable();
        whole.sort_unstable();
        scripts.sort_unstable();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let calls = end.calls.saturating_sub(start.calls).max(1);
        let periods = end.periods.saturating_sub(start.periods).max(1);
        let spent = end.total.saturating_sub(start.total);
        let cpu_call = us(end.cpu.saturating_sub(start.cpu)) / calls as f64;
        eprintln!(
            "{n} {brain:9} {rate:2} Hz | {:8.1} us {:7.1} us | {:8.1} us {:7.1} us | {:10.1} us {:7.1} us | {:10.1} us {:12.1} us {:9.1} us {:7.1} us | {:11.1} us {:10.1} us {:10.1} us {:10} {:8}",
            us(tm),
            us(percentile(&think, 0.99)),
            us(wm),
            us(percentile(&whole, 0.99)),
            us(sm),
            us(percentile(&scripts, 0.99)),
            us(spent) / calls as f64,
            us(spent) / periods as f64,
            us(end.nav.saturating_sub(start.nav)) / periods as f64,
            us(end.slowest),
            cpu_call,
            us(end.slowest_call),
            us(end.slowest_tick),
            end.over_time,
            end.deferred,
        );
        for (what, value) in [
            ("script_call_mean", us(spent) / calls as f64),
            ("scripts_per_tick_p99", us(percentile(&scripts, 0.99))),
            ("think_per_tick_p99", us(percentile(&think, 0.99))),
            ("whole_tick_p99", us(percentile(&whole, 0.99))),
            ("script_call_cpu_mean", cpu_call),
            ("script_call_cpu_max", us(end.slowest_call)),
            ("scripts_per_tick_cpu_max", us(end.slowest_tick)),
        ] {
            rows.push(format!("bot_think/scripted_64_{brain}_{rate}hz/{what}\t{value:.1}\tus\t{command}\n"));
        }
    }
    if let Err(e) = std::fs::write(script_figures_path(), rows.concat()) {
        eprintln!("could not write {}: {e}", script_figures_path().display());
    }
}

fn script_stats(bots: &BotManager) -> quarry_bots::script::CallStats {
    bots.scripts().lock().map(|l| l.stats()).unwrap_or_default()
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
    scripted_table();
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
    for rate in [10u32, 60] {
        let (mut game, mut bots) = setup_scripted(64, "companion", rate);
        group.bench_function(BenchmarkId::new("think_scripted_64", rate), |b| {
            b.iter_custom(|iters| time_think(&mut game, &mut bots, iters));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
