//! The per-tick state hash: a fingerprint of everything that affects the
//! outcome, so two runs with the same seed and inputs can be compared tick
//! by tick. FNV-1a over values in a fixed order (slots by id, other
//! entities by [`NetId`](crate::components::NetId)); floats by their bits.

use bevy_ecs::prelude::*;

use crate::clock::MatchClock;
use crate::components::{Armor, Body, Health, Inventory, Life};
use crate::rules::RulesState;
use crate::slots::Slots;

/// A 64-bit FNV-1a hasher: stable across runs, platforms and Rust versions.
#[derive(Debug, Clone, Copy)]
pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv64 {
    /// Feeds bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Feeds a u32.
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds an i32.
    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds a float by its bits.
    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    /// Feeds a vector.
    pub fn vec3(&mut self, v: glam::Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// The hash being built this tick and the finished hash of the last tick.
/// Systems that own other state (projectiles, items, movers) feed it in the
/// `Hash` set, in their fixed order, between [`begin_hash`] and [`finish_hash`].
#[derive(Resource, Debug, Default)]
pub struct TickHash {
    /// The hash being built.
    pub building: Fnv64,
    /// The finished hash of the last completed tick.
    pub value: u64,
    /// Each step that fed this tick's hash after the players, with the
    /// running hash when it began (see [`TickHash::mark`]).
    pub steps: Vec<(&'static str, u64)>,
}

impl TickHash {
    /// A feeding step named `step` begins: notes the running hash, so a
    /// replay that diverges can name the first step whose state differs.
    pub fn mark(&mut self, step: &'static str) {
        let running = self.building.finish();
        self.steps.push((step, running));
    }

    /// The steps of the last tick's hash, each with the running hash after
    /// it: `players` (clock, rules, slots, players) first, then every step
    /// that fed it, in order.
    pub fn step_hashes(&self) -> Vec<(&'static str, u64)> {
        let mut out = Vec::with_capacity(self.steps.len() + 1);
        let mut name = "players";
        for (next, running) in &self.steps {
            out.push((name, *running));
            name = next;
        }
        out.push((name, self.value));
        out
    }
}

/// Starts the tick's hash with the clock, rules, slots and players.
pub fn begin_hash(
    clock: Res<MatchClock>,
    rules: Res<RulesState>,
    slots: Res<Slots>,
    players: Query<(&Body, &Health, &Armor, &Life, &Inventory)>,
    mut hash: ResMut<TickHash>,
) {
    let mut h = Fnv64::default();
    h.u32(clock.tick);
    h.bytes(rules.phase.name().as_bytes());
    h.i32(rules.team_scores.0);
    h.i32(rules.team_scores.1);
    for (id, s) in slots.iter() {
        h.u32(u32::from(id.0));
        h.bytes(s.team.name().as_bytes());
        h.i32(s.score.frags);
        h.u32(s.score.deaths);
        let Some((body, health, armor, life, inv)) = s.entity.and_then(|e| players.get(e).ok()) else { continue };
        h.vec3(body.0.origin);
        h.vec3(body.0.velocity);
        h.i32(health.hp);
        h.i32(armor.points);
        h.u32(match life {
            Life::Alive => 0,
            Life::Dead { tick } => tick.wrapping_add(1),
        });
        h.u32(inv.weapons);
        for a in inv.ammo {
            h.i32(a);
        }
        h.u32(u32::from(inv.current));
        // Only maps with keys hash them, so other maps hash as before.
        if inv.keys != 0 {
            h.u32(0x4b45_5900 | u32::from(inv.keys));
        }
    }
    hash.building = h;
    hash.steps.clear();
}

/// Finishes the tick's hash.
pub fn finish_hash(mut hash: ResMut<TickHash>) {
    hash.value = hash.building.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_known_vector() {
        let mut h = Fnv64::default();
        h.bytes(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
