//! Snapshot cost with 16 players: encode time per tick for 16 clients, and
//! bytes per snapshot / per second per client at 30 Hz snapshots.
//!
//! Run: `cargo bench -p quarry-net --bench snapshot`. Before the criterion
//! timings it prints a bandwidth table from 20 simulated seconds of a
//! synthetic deathmatch: 16 players running, strafing, turning and jumping
//! every tick (Quake 3 ground physics numbers), each firing a rocket every
//! ~1.5 s (projectiles appear, fly and vanish), 30 static items; the server
//! ticks at 60 Hz and sends each client a snapshot every other tick; each
//! client acknowledges after a simulated round trip.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use quarry_net::codec::Writer;
use quarry_net::conn::{ConnConfig, DATAGRAM_OVERHEAD, ServerConn, SnapshotOutcome, Transmit};
use quarry_net::datagram::{DatagramKind, write_header};
use quarry_net::delta::encode_snapshot;
use quarry_net::handshake::{Hello, Welcome};
use quarry_net::reliable::ClientFrame;
use quarry_net::snapshot::{EntityKind, EntityState, PF_ON_GROUND, PlayerState, Snapshot, quantize_angle, quantize_origin, quantize_velocity};
use quarry_net::usercmd::CmdPacket;

const PLAYERS: usize = 16;
const ITEMS: u32 = 30;
const DT: f32 = 1.0 / 60.0;
const MAX_DATAGRAM: usize = 1162;

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[derive(Clone, Copy, Default)]
struct Body {
    origin: [f32; 3],
    vel: [f32; 3],
    yaw: f32,
    pitch: f32,
    turn: f32,
    forward: f32,
    side: f32,
    health: i32,
    ammo: i32,
    firing: bool,
}

struct Projectile {
    id: u32,
    origin: [f32; 3],
    vel: [f32; 3],
    life: f32,
}

/// The synthetic deathmatch.
struct Arena {
    tick: u32,
    bodies: Vec<Body>,
    rockets: Vec<Projectile>,
    next_id: u32,
    rng: Rng,
}

impl Arena {
    fn new(seed: u64) -> Self {
        let mut rng = Rng(seed);
        let bodies = (0..PLAYERS)
            .map(|_| Body { origin: [rng.f() * 2000.0, rng.f() * 2000.0, 24.0], yaw: rng.f() * 360.0, health: 100, ammo: 50, ..Body::default() })
            .collect();
        Self { tick: 0, bodies, rockets: Vec::new(), next_id: 2000, rng }
    }

    fn step(&mut self) {
        self.tick += 1;
        let rng = &mut self.rng;
        for b in &mut self.bodies {
            // New intentions a few times per second.
            if rng.f() < 0.03 {
                b.turn = (rng.f() - 0.5) * 400.0;
                b.forward = [1.0, 1.0, 0.0, -1.0][(rng.f() * 4.0) as usize % 4];
                b.side = [1.0, 0.0, -1.0][(rng.f() * 3.0) as usize % 3];
            }
            // Mouse never stays still.
            b.yaw = (b.yaw + b.turn * DT + (rng.f() - 0.5) * 2.0).rem_euclid(360.0);
            b.pitch = (b.pitch + (rng.f() - 0.5) * 1.5).clamp(-30.0, 30.0);
            let (s, c) = b.yaw.to_radians().sin_cos();
            let wish = [c * b.forward - s * b.side, s * b.forward + c * b.side];
            let len = (wish[0] * wish[0] + wish[1] * wish[1]).sqrt().max(1e-3);
            let on_ground = b.origin[2] <= 24.0;
            let accel = if on_ground { 10.0 } else { 1.0 };
            let moving = if b.forward == 0.0 && b.side == 0.0 { 0.0 } else { 1.0 };
            for (v, w) in b.vel.iter_mut().zip(wish) {
                let target = w / len * 320.0 * moving;
                *v += (target - *v) * (accel * DT).min(1.0);
            }
            if on_ground && rng.f() < 0.01 {
                b.vel[2] = 270.0;
            }
            b.vel[2] -= 800.0 * DT;
            for i in 0..3 {
                b.origin[i] += b.vel[i] * DT;
            }
            if b.origin[2] <= 24.0 {
                b.origin[2] = 24.0;
                b.vel[2] = 0.0;
            }
            // The attack button is held in bursts.
            if rng.f() < 0.03 {
                b.firing = !b.firing;
            }
        }
        for i in 0..PLAYERS {
            if self.rng.f() < 1.0 / 90.0 {
                let b = self.bodies[i];
                let (s, c) = b.yaw.to_radians().sin_cos();
                self.rockets.push(Projectile { id: self.next_id, origin: b.origin, vel: [900.0 * c, 900.0 * s, 0.0], life: 1.0 });
                self.next_id += 1;
                self.bodies[i].ammo -= 1;
            }
        }
        for r in &mut self.rockets {
            for i in 0..3 {
                r.origin[i] += r.vel[i] * DT;
            }
            r.life -= DT;
        }
        self.rockets.retain(|r| r.life > 0.0);
    }

    fn snapshot_for(&self, me: usize) -> Snapshot {
        let mut entities = Vec::with_capacity(PLAYERS + ITEMS as usize + self.rockets.len());
        for (i, b) in self.bodies.iter().enumerate().filter(|(i, _)| *i != me) {
            entities.push(EntityState {
                id: i as u32 + 1,
                kind: EntityKind::Player,
                origin: quantize_origin(b.origin),
                angles: [quantize_angle(b.pitch), quantize_angle(b.yaw), 0],
                velocity: quantize_velocity(b.vel),
                model: 1,
                weapon: 5,
                flags: u16::from(b.firing),
                ..EntityState::default()
            });
        }
        for k in 0..ITEMS {
            let id = 100 + k;
            entities.push(EntityState { id, kind: EntityKind::Item, origin: [k as i32 * 900, 4000, 200], model: k as u16, ..EntityState::empty(id) });
        }
        for r in &self.rockets {
            entities.push(EntityState {
                id: r.id,
                kind: EntityKind::Projectile,
                origin: quantize_origin(r.origin),
                velocity: quantize_velocity(r.vel),
                weapon: 5,
                ..EntityState::empty(r.id)
            });
        }
        entities.sort_by_key(|e| e.id);
        let b = self.bodies.get(me).copied().unwrap_or_default();
        let mut ammo = [0; 16];
        ammo[5] = b.ammo;
        Snapshot {
            server_tick: self.tick,
            acked_cmd_tick: self.tick.saturating_sub(3),
            player: PlayerState {
                origin: b.origin,
                velocity: b.vel,
                pitch: b.pitch,
                yaw: b.yaw,
                health: b.health,
                weapon: 5,
                ammo,
                weapons: 0b10_0001,
                flags: if b.origin[2] <= 24.0 { PF_ON_GROUND } else { 0 },
                ..PlayerState::default()
            },
            entities,
        }
    }
}

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
