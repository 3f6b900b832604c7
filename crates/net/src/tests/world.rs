//! A small synthetic game for harness tests: players running and turning,
//! one snapshot per call, deterministic from a seed.

use crate::snapshot::{EntityKind, EntityState, PlayerState, Snapshot, quantize_angle, quantize_origin, quantize_velocity};
use crate::transport::SplitMix64;

/// `players` bodies running at 320 u/s on a plane, turning randomly.
pub(crate) struct World {
    pub(crate) tick: u32,
    bodies: Vec<([f32; 3], f32, f32)>, // origin, yaw (deg), turn rate (deg/s)
    rng: SplitMix64,
    /// Static items added to every snapshot (ids above the players).
    pub(crate) items: u32,
}

impl World {
    pub(crate) fn new(players: u32, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let bodies = (0..players)
            .map(|i| ([i as f32 * 64.0, (rng.next_f64() * 512.0) as f32, 24.0], (rng.next_f64() * 360.0) as f32, 0.0))
            .collect();
        Self { tick: 0, bodies, rng, items: 0 }
    }

    /// Advances `ticks` server ticks of `dt` seconds.
    pub(crate) fn step(&mut self, ticks: u32, dt: f32) {
        for _ in 0..ticks {
            self.tick += 1;
            for (origin, yaw, turn) in &mut self.bodies {
                if self.rng.chance(0.02) {
                    *turn = (self.rng.next_f64() as f32 - 0.5) * 360.0;
                }
                *yaw = (*yaw + *turn * dt).rem_euclid(360.0);
                let (s, c) = yaw.to_radians().sin_cos();
                origin[0] += 320.0 * c * dt;
                origin[1] += 320.0 * s * dt;
            }
        }
    }

    fn velocity(yaw: f32) -> [f32; 3] {
        let (s, c) = yaw.to_radians().sin_cos();
        [320.0 * c, 320.0 * s, 0.0]
    }

    /// The snapshot player `me` sees now.
    pub(crate) fn snapshot_for(&self, me: usize) -> Snapshot {
        let mut entities: Vec<EntityState> = self
            .bodies
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != me)
            .map(|(i, (origin, yaw, _))| EntityState {
                id: i as u32 + 1,
                kind: EntityKind::Player,
                origin: quantize_origin(*origin),
                angles: [0, quantize_angle(*yaw), 0],
                velocity: quantize_velocity(Self::velocity(*yaw)),
                model: 1,
                weapon: 5,
                ..EntityState::default()
            })
            .collect();
        for k in 0..self.items {
            let id = 1000 + k;
            entities.push(EntityState { id, kind: EntityKind::Item, origin: [k as i32 * 512, 800, 64], model: (k % 30) as u16, ..EntityState::empty(id) });
        }
        let (origin, yaw, _) = self.bodies.get(me).copied().unwrap_or_default();
        Snapshot {
            server_tick: self.tick,
            acked_cmd_tick: self.tick.saturating_sub(2),
            player: PlayerState { origin, velocity: Self::velocity(yaw), yaw, health: 100, weapon: 5, flags: crate::snapshot::PF_ON_GROUND, ..PlayerState::default() },
            entities,
            events: Vec::new(),
        }
    }
}
