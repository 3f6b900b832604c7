//! The synthetic deathmatch the network benches feed the protocol: 16
//! players running, strafing, turning and jumping every tick (Quake 3
//! ground physics numbers), each firing a rocket every ~1.5 s (projectiles
//! appear, fly and vanish), 30 static items, ticking at 60 Hz. Seeded, so
//! every run sees the same match.
//!
//! Each snapshot carries the events of the ticks since the one before (a
//! snapshot every other tick), as the server sends them: a player holding
//! fire shoots every 6 ticks and the first path of each burst is an event
//! (the rest is drawn from its firing flag); one shot in four hits, which
//! is a hit to the shooter, a hurt to the victim and the victim's pain
//! sound (at most one per player per 18 ticks). Launches, explosions and
//! jumps are not events: the client sees them in the entities.

use quarry_net::event::{EventKind, SOUND_PAIN, SnapshotEvent, whole_units};
use quarry_net::snapshot::{EntityKind, EntityState, PF_ON_GROUND, PlayerState, Snapshot, quantize_angle, quantize_origin, quantize_velocity};

/// Players in the match (the client is one of them).
pub(crate) const PLAYERS: usize = 16;
/// Static items.
pub(crate) const ITEMS: u32 = 30;
/// Seconds per tick (60 Hz).
pub(crate) const DT: f32 = 1.0 / 60.0;

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
pub(crate) struct Arena {
    /// Ticks stepped so far.
    pub(crate) tick: u32,
    bodies: Vec<Body>,
    rockets: Vec<Projectile>,
    next_id: u32,
    rng: Rng,
    /// The events of the last two ticks: tick, event, who alone sees it.
    events: Vec<(u32, SnapshotEvent, Option<usize>)>,
    /// Each player's last shot and last pain sound.
    last_shot: Vec<Option<u32>>,
    last_pain: Vec<Option<u32>>,
}

impl Arena {
    /// A match seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        let mut rng = Rng(seed);
        let bodies = (0..PLAYERS)
            .map(|_| Body { origin: [rng.f() * 2000.0, rng.f() * 2000.0, 24.0], yaw: rng.f() * 360.0, health: 100, ammo: 50, ..Body::default() })
            .collect();
        Self { tick: 0, bodies, rockets: Vec::new(), next_id: 2000, rng, events: Vec::new(), last_shot: vec![None; PLAYERS], last_pain: vec![None; PLAYERS] }
    }

    /// Runs one 60 Hz tick.
    pub(crate) fn step(&mut self) {
        self.tick += 1;
        let tick = self.tick;
        self.events.retain(|(t, _, _)| tick - t < 2);
        let rng = &mut self.rng;
        for (i, b) in self.bodies.iter_mut().enumerate() {
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
            if b.firing && (tick + i as u32).is_multiple_of(6) {
                let (s, c) = b.yaw.to_radians().sin_cos();
                let end = [b.origin[0] + 800.0 * c, b.origin[1] + 800.0 * s, b.origin[2]];
                if self.last_shot[i].is_none_or(|t| tick - t >= 18) {
                    let shot = SnapshotEvent { kind: EventKind::Shot, what: 2, origin: whole_units(b.origin), end: whole_units(end), source: i as u8 + 1, aux: 0 };
                    self.events.push((tick, shot, None));
                }
                self.last_shot[i] = Some(tick);
                if rng.f() < 0.25 {
                    let at = whole_units(end);
                    let victim = (i + 1) % PLAYERS;
                    if self.last_pain[victim].is_none_or(|t| tick - t >= 18) {
                        let pain = SnapshotEvent { kind: EventKind::Sound, what: SOUND_PAIN, origin: at, end: at, source: victim as u8 + 1, aux: 0 };
                        self.events.push((tick, pain, None));
                        self.last_pain[victim] = Some(tick);
                    }
                    let hit = SnapshotEvent { kind: EventKind::Hit, what: 0, origin: at, end: at, source: 1, aux: 7 };
                    self.events.push((tick, hit, Some(i)));
                    let hurt = SnapshotEvent { kind: EventKind::Hurt, what: 0, origin: whole_units(b.origin), end: whole_units(b.origin), source: i as u8 + 1, aux: 7 };
                    self.events.push((tick, hurt, Some((i + 1) % PLAYERS)));
                }
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

    /// What player `me` is sent this tick.
    pub(crate) fn snapshot_for(&self, me: usize) -> Snapshot {
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
            events: self.events.iter().filter(|(_, _, only)| only.is_none_or(|o| o == me)).map(|(_, e, _)| *e).collect(),
        }
    }
}
