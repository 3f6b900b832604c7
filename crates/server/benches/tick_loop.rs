//! The tick loop's own cost: one `Server::tick` with no match loaded (cvar
//! sync, timing bookkeeping, health file check), and what the operator's
//! tools add to a tick of a 16-bot match: the Prometheus metrics (their
//! per-tick share with the once-a-second sample amortised) and the game
//! log's recording of a tick's events (the writing is on its own thread),
//! and the match recording's per-tick work (`sv_record`, `--record`: the
//! journal, each slot's new command, a state hash every second; the
//! encoding and writing are on their own thread).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use quarry_server::cli::PlusCommand;
use quarry_server::feature::{MatchView, Measured, Observer, ServerSample, TickReport};
use quarry_server::metrics::Metrics;
use quarry_server::recording::{MatchSource, Recorder};
use quarry_server::server::{Server, ServerOptions};

fn plus(name: &str, args: &[&str]) -> PlusCommand {
    PlusCommand { name: name.to_owned(), args: args.iter().map(|a| (*a).to_owned()).collect() }
}

fn server(dir: &std::path::Path, plus_commands: &[PlusCommand]) -> Server {
    let maps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let options = ServerOptions { config_dir: dir.to_owned(), port: None, fast: true, maps_dir: maps, seed: Some(1), botfiles_dir: None };
    let mut server = match Server::new(&options) {
        Ok(s) => s,
        Err(e) => panic!("server setup failed: {e}"),
    };
    server.startup(plus_commands);
    server
}

fn tick_loop(c: &mut Criterion) {
    let dir = std::env::temp_dir();
    let mut empty = server(&dir, &[]);
    c.bench_function("server/tick_empty", |b| b.iter(|| empty.tick()));
}

/// A 16-bot match on q_dm1 played for a few seconds, with the metrics
/// endpoint and the game log on.
fn busy_server(log_dir: &std::path::Path) -> Server {
    let log = log_dir.join("games.log").to_string_lossy().into_owned();
    let mut s = server(
        log_dir,
        &[
            plus("set", &["bot_minPlayers", "16"]),
            plus("set", &["sv_maxclients", "16"]),
            plus("set", &["timelimit", "0"]),
            plus("set", &["fraglimit", "0"]),
            plus("set", &["sv_metricsAddr", "127.0.0.1:0"]),
            plus("set", &["sv_gameLog", &log]),
            plus("map", &["q_dm1"]),
        ],
    );
    for _ in 0..600 {
        s.tick();
    }
    s
}

fn operator_tools(c: &mut Criterion) {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("tempdir: {e}"),
    };
    let mut s = busy_server(dir.path());
    // A few seconds of real events to replay.
    let mut ticks = Vec::new();
    for _ in 0..600 {
        s.tick();
        ticks.push(s.state.game.running.as_ref().map(quarry_sim::Match::events).unwrap_or_default());
    }
    let tick_time = Duration::from_micros(700);
    let mut i = 0;
    let config_dir = dir.path().to_owned();
    // Driven here as the tick drives it, without the other features.
    let Some(mut metrics) = s.state.features.take_observer::<Metrics>() else { panic!("the metrics feature") };
    let started = Instant::now();
    c.bench_function("server/metrics_per_tick_16_bots", |b| {
        b.iter(|| {
            i = (i + 1) % ticks.len();
            metrics_tick(&mut metrics, &s, &config_dir, &ticks[i], i, (started, tick_time));
        })
    });
    s.state.features.observe(metrics);
    let mut j = 0;
    c.bench_function("server/game_log_per_tick_16_bots", |b| {
        b.iter(|| {
            j = (j + 1) % ticks.len();
            let host = &mut s.state.game;
            if let Some(game) = host.running.as_ref() {
                host.log.events(game, &ticks[j], &|_| None);
            }
        })
    });
}

/// The metrics' share of one tick, as the server drives them: the tick's
/// report, the once-a-second sample on every 60th, then the tick's time.
fn metrics_tick(metrics: &mut Metrics, s: &Server, config_dir: &std::path::Path, events: &[quarry_sim::events::GameEvent], i: usize, timing: (Instant, Duration)) {
    let state = &s.state;
    let (started, tick_time) = timing;
    let sample = i.is_multiple_of(60).then(|| ServerSample { late_ticks: state.stats.late_ticks, game_log_lost: 0, traffic: None, refused: Vec::new() });
    let view = MatchView {
        game: state.game.running.as_ref(),
        map_name: "q_dm1",
        map_path: None,
        matches_started: state.game.matches_started,
        headless: true,
        listening: false,
        fingerprint: None,
        bots: &state.bots,
        cvars: s.console.cvars(),
        config_dir,
    };
    metrics.after_tick(&TickReport { view, tick: i as u64, hz: 60, events, started, sample: sample.as_ref() });
    metrics.tick_measured(&Measured { started, tick_time, stats: &state.stats, map_name: Some("q_dm1"), cvars: s.console.cvars() });
}

/// The recorder's work on a real tick of the 16-bot match: each timed
/// call follows an untimed tick, so every command is a new one.
fn recording(c: &mut Criterion) {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("tempdir: {e}"),
    };
    let mut s = busy_server(dir.path());
    let path = dir.path().join("bench.qdemo");
    let text = match s.state.game.map_path.as_deref().map(std::fs::read_to_string) {
        Some(Ok(t)) => t,
        _ => panic!("the map's text"),
    };
    let Some(game) = s.state.game.running.as_ref() else { panic!("a match") };
    let source = MatchSource { map_text: &text, map_by_hash: false, headless: true, config_dir: dir.path(), content: Vec::new() };
    let mut rec = match Recorder::start(&path, game, source, s.console.cvars()) {
        Ok(r) => r,
        Err(e) => panic!("recorder: {e}"),
    };
    let mut group = c.benchmark_group("server");
    group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_millis(400));
    group.bench_function("record_per_tick_16_bots", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                s.tick();
                let Some(game) = s.state.game.running.as_ref() else { continue };
                let events = game.events();
                let start = std::time::Instant::now();
                rec.record_tick(game, &events, s.console.cvars());
                spent += start.elapsed();
            }
            spent
        })
    });
    group.finish();
    if let Err(e) = rec.finish(None) {
        panic!("finishing the recording: {e}");
    }
}

criterion_group!(benches, tick_loop, operator_tools, recording);
criterion_main!(benches);
