//! Shooting movers: a door, button or secret door with `health` opens (is
//! used) once the damage it takes reaches its health, as Quake's
//! `door_killed`/`button_killed`/`fd_secret_use` do; then its count starts
//! again.
//!
//! Weapons report what they hit besides players as [`MoverHit`]s: the
//! brush entity a bullet or a projectile stopped on, and every explosion
//! (its splash reaches movers whose box is within its radius, falling off
//! linearly like a player's). The mover system sums them per mover.

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::EntityId;

/// Hits one tick may report; more are dropped (each is a shot or an
/// explosion, so only a flood of projectiles could get near).
pub const MAX_HITS_PER_TICK: usize = 4096;

/// Damage dealt to the world by one shot or explosion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MoverHit {
    /// A bullet, rail or projectile stopped on this brush entity.
    Direct {
        /// The entity whose brush was hit.
        entity: EntityId,
        /// Damage.
        amount: f32,
    },
    /// An explosion.
    Splash {
        /// Where.
        at: Vec3,
        /// Damage at the centre.
        amount: f32,
        /// Radius where it falls to 0.
        radius: f32,
    },
}

/// This tick's hits on the world, drained by the mover system.
#[derive(Resource, Debug, Clone, Default)]
pub struct MoverHits(Vec<MoverHit>);

impl MoverHits {
    /// Records a hit (dropped beyond [`MAX_HITS_PER_TICK`]).
    pub fn push(&mut self, hit: MoverHit) {
        if self.0.len() < MAX_HITS_PER_TICK {
            self.0.push(hit);
        }
    }

    /// Takes the hits recorded so far.
    pub fn take(&mut self) -> Vec<MoverHit> {
        std::mem::take(&mut self.0)
    }
}

/// Damage a mover of `entity` with box `lo..hi` takes from `hits`.
pub fn damage_to(hits: &[MoverHit], entity: EntityId, lo: Vec3, hi: Vec3) -> f32 {
    hits.iter()
        .map(|h| match *h {
            MoverHit::Direct { entity: e, amount } if e == entity => amount,
            MoverHit::Direct { .. } => 0.0,
            MoverHit::Splash { at, amount, radius } => {
                let d = at.clamp(lo, hi).distance(at);
                if radius > 0.0 && d < radius { amount * (1.0 - d / radius) } else { 0.0 }
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_hits_count_for_their_entity_and_splash_falls_off() {
        let hits = [
            MoverHit::Direct { entity: EntityId(3), amount: 10.0 },
            MoverHit::Direct { entity: EntityId(4), amount: 99.0 },
            MoverHit::Splash { at: Vec3::new(-50.0, 5.0, 5.0), amount: 100.0, radius: 100.0 },
        ];
        let d = damage_to(&hits, EntityId(3), Vec3::ZERO, Vec3::splat(10.0));
        assert!((d - 60.0).abs() < 1e-4, "{d}");
        assert_eq!(damage_to(&hits[2..], EntityId(3), Vec3::splat(200.0), Vec3::splat(210.0)), 0.0);
    }
}
