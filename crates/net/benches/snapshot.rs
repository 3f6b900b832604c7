//! Snapshot cost with 16 players: encode time per tick for 16 clients, and
//! bytes per snapshot / per second per client at 30 Hz snapshots.
//!
//! Run: `cargo bench -p quarry-net --bench snapshot`. Before the criterion
//! timings it prints a bandwidth table from 20 simulated seconds of the
//! synthetic deathmatch in `common/arena.rs` (16 players running, strafing,
//! turning and jumping, rockets, 30 items); the server ticks at 60 Hz and
//! sends each client a snapshot every other tick; each client acknowledges
//! after a simulated round trip. Its wire column adds an estimate of the
//! headers ([`DATAGRAM_OVERHEAD`]); `benches/wire.rs` measures the real
//! bytes through quinn.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use quarry_net::codec::Writer;
use quarry_net::conn::{ConnConfig, DATAGRAM_OVERHEAD, ServerConn, SnapshotOutcome, Transmit};
use quarry_net::datagram::{DatagramKind, write_header};
use quarry_net::delta::encode_snapshot;
use quarry_net::handshake::{Hello, Welcome};
use quarry_net::reliable::ClientFrame;
use quarry_net::usercmd::CmdPacket;

#[path = "common/arena.rs"]
mod arena;
use arena::{Arena, DT, ITEMS, PLAYERS};

const MAX_DATAGRAM: usize = 1162;

/// 16 accepted server-side connections.
fn connections(now: Instant) -> Vec<ServerConn> {
    (0..PLAYERS)
        .map(|i| {
            let mut c = ServerConn::new(&ConnConfig::default(), now);
            let mut hello = Vec::new();
            quarry_net::codec::encode_frame(&ClientFrame::Hello(Hello::new(format!("p{i}"))).encode(), &mut hello);
            c.handle_stream_data(now, &hello);
            c.accept(&Welcome { tick_rate: 60, snapshot_rate: 30, ..Welcome::default() }).expect("accept");
            while c.poll_transmit().is_some() {}
            while c.poll_event().is_some() {}
            c
        })
        .collect()
}

fn ack(conn: &mut ServerConn, now: Instant, tick: u32) {
    let mut w = Writer::new();
    write_header(&mut w, DatagramKind::Commands, (tick & 0xffff) as u16);
    CmdPacket { snapshot_ack: Some(tick), cmds: Vec::new() }.encode(&mut w);
    conn.handle_datagram(now, w.as_slice());
}

/// Sends one snapshot to each client; returns datagram bytes per client.
fn send_all(arena: &Arena, conns: &mut [ServerConn], now: Instant) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::with_capacity(conns.len());
    for (i, c) in conns.iter_mut().enumerate() {
        let snap = arena.snapshot_for(i);
        let outcome = c.send_snapshot(now, snap.into(), MAX_DATAGRAM).expect("send");
        let (mut bytes, mut n) = (0, 0);
        while let Some(t) = c.poll_transmit() {
            if let Transmit::Datagram(d) = t {
                bytes += d.len();
                n += 1;
            }
        }
        out.push((bytes, n, matches!(outcome, SnapshotOutcome::Sent { base_tick: None, .. })));
    }
    out
}

/// Prints bytes per snapshot and per second for an ack delay of `rtt`.
fn bandwidth_table() {
    println!("\nquarry-net snapshot bandwidth: {PLAYERS} players, 60 Hz ticks, 30 Hz snapshots, {ITEMS} items, rockets");
    println!("{:>8} {:>10} {:>10} {:>10} {:>12} {:>14} {:>6}", "rtt_ms", "avg_B", "p95_B", "max_B", "payload_B/s", "wire_B/s(+58)", "full");
    for rtt_ms in [0u32, 50, 100, 200] {
        let t0 = Instant::now();
        let mut arena = Arena::new(7);
        let mut conns = connections(t0);
        let mut sizes = Vec::new();
        let mut datagrams = 0usize;
        let mut full = 0;
        let mut sent_ticks: Vec<u32> = Vec::new();
        let seconds = 20;
        for _ in 0..seconds * 60 {
            arena.step();
            let now = t0 + Duration::from_secs_f32(arena.tick as f32 * DT);
            if !arena.tick.is_multiple_of(2) {
                continue;
            }
            // The client acks what it had received one round trip ago.
            let lag_ticks = (rtt_ms * 60).div_ceil(1000);
            if let Some(&t) = sent_ticks.iter().rev().find(|&&t| t + lag_ticks <= arena.tick) {
                for c in &mut conns {
                    ack(c, now, t);
                }
            }
            for (bytes, n, was_full) in send_all(&arena, &mut conns, now) {
                sizes.push(bytes);
                datagrams += n;
                full += usize::from(was_full);
            }
            sent_ticks.push(arena.tick);
        }
        let per_client = sizes.len() as f64 / PLAYERS as f64 / f64::from(seconds);
        let total: usize = sizes.iter().sum();
        let avg = total as f64 / sizes.len() as f64;
        sizes.sort_unstable();
        let p95 = sizes[sizes.len() * 95 / 100];
        let max = sizes[sizes.len() - 1];
        let payload_rate = avg * per_client;
        let wire_rate = (total + datagrams * DATAGRAM_OVERHEAD) as f64 / PLAYERS as f64 / f64::from(seconds);
        println!("{rtt_ms:>8} {avg:>10.1} {p95:>10} {max:>10} {payload_rate:>12.0} {wire_rate:>14.0} {full:>6}");
    }
    println!();
}

fn bench(c: &mut Criterion) {
    bandwidth_table();
    let mut g = c.benchmark_group("snapshot");
    g.sample_size(30).measurement_time(Duration::from_secs(4));
    let t0 = Instant::now();

    // Per tick with snapshots: build 16 wire snapshots and encode each as a
    // delta against that client's ack (100 ms behind).
    let mut arena = Arena::new(11);
    let mut conns = connections(t0);
    let mut sent: Vec<u32> = Vec::new();
    g.bench_function("build_and_send_16_clients", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                arena.step();
                arena.step();
                let now = t0 + Duration::from_secs_f32(arena.tick as f32 * DT);
                if let Some(&t) = sent.iter().rev().nth(3) {
                    for c in &mut conns {
                        ack(c, now, t);
                    }
                }
                let start = Instant::now();
                std::hint::black_box(send_all(&arena, &mut conns, now));
                spent += start.elapsed();
                sent.push(arena.tick);
            }
            spent
        });
    });

    // The pure delta encoder on one snapshot.
    let mut arena = Arena::new(13);
    for _ in 0..30 {
        arena.step();
    }
    let base = arena.snapshot_for(0);
    for _ in 0..6 {
        arena.step();
    }
    let next = arena.snapshot_for(0);
    g.bench_function("encode_one_delta", |b| {
        b.iter(|| {
            let mut w = Writer::with_capacity(512);
            encode_snapshot(Some(&base), &next, 60, &mut w).expect("encode");
            std::hint::black_box(w.len())
        });
    });
    let mut w = Writer::new();
    encode_snapshot(Some(&base), &next, 60, &mut w).expect("encode");
    let bytes = w.into_inner();
    g.bench_function("decode_one_delta", |b| b.iter(|| quarry_net::delta::decode_snapshot(&bytes, |_| Some(&base)).expect("decode")));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
