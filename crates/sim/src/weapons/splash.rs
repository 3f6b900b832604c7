//! Splash damage: who an explosion hurts, how much, and which way it
//! pushes them (Quake 3 `G_RadiusDamage` and `CanDamage`).
//!
//! Damage falls off linearly from `splash_damage` at the explosion to 0 at
//! `splash_radius`, by the distance to the *nearest point of the target's
//! box* (so a rocket at your feet does full damage). Walls block it: the
//! target is hurt only if a shot trace from the explosion reaches its box
//! centre, or failing that one of four corners at mid height. Other players
//! never shield each other. The push points from the explosion to the
//! target's origin, raised by [`SPLASH_LIFT`] so explosions throw players
//! up (what makes rocket jumps work).
//!
//! This module only computes; the caller queues the damage.

use glam::Vec3;
use quarry_map::{CollisionWorld, Contents};

use crate::scene::Obstacle;
use crate::slots::SlotId;

/// Added to the push direction's z before normalising (Quake 3 adds 24
/// "to push things up more").
pub const SPLASH_LIFT: f32 = 24.0;

/// One player an explosion reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SplashHit {
    /// Who.
    pub slot: SlotId,
    /// Damage before armor, quad, handicap and self-damage scaling.
    pub amount: f32,
    /// Push direction (not normalised).
    pub dir: Vec3,
    /// Distance from the explosion to the nearest point of the box.
    pub distance: f32,
}

/// Distance from `point` to the nearest point of the box `origin + mins ..= origin + maxs`.
pub fn distance_to_box(point: Vec3, origin: Vec3, mins: Vec3, maxs: Vec3) -> f32 {
    let nearest = point.clamp(origin + mins, origin + maxs);
    point.distance(nearest)
}

/// Whether an explosion at `from` reaches the box of `o` through the map.
pub fn reaches(map: &CollisionWorld, from: Vec3, o: &Obstacle) -> bool {
    let center = o.origin + (o.mins + o.maxs) * 0.5;
    let half = (o.maxs - o.mins) * 0.5;
    let points = [
        center,
        center + Vec3::new(half.x, half.y, 0.0),
        center + Vec3::new(half.x, -half.y, 0.0),
        center + Vec3::new(-half.x, half.y, 0.0),
        center + Vec3::new(-half.x, -half.y, 0.0),
    ];
    points.iter().any(|&p| !map.trace(from, p, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT).hit())
}

/// Everyone in `obstacles` (except `ignore`, the direct-hit target) that
/// an explosion at `at` reaches, in obstacle order (slot order).
pub fn splash_hits(
    map: &CollisionWorld,
    at: Vec3,
    damage: f32,
    radius: f32,
    obstacles: &[Obstacle],
    ignore: Option<SlotId>,
) -> Vec<SplashHit> {
    if damage <= 0.0 || radius <= 0.0 {
        return Vec::new();
    }
    obstacles
        .iter()
        .filter(|o| Some(o.slot) != ignore)
        .filter_map(|o| {
            let distance = distance_to_box(at, o.origin, o.mins, o.maxs);
            if distance >= radius || !reaches(map, at, o) {
                return None;
            }
            let amount = damage * (1.0 - distance / radius);
            let dir = o.origin - at + Vec3::Z * SPLASH_LIFT;
            Some(SplashHit { slot: o.slot, amount, dir, distance })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ob(slot: u8, origin: Vec3) -> Obstacle {
        Obstacle { slot: SlotId(slot), origin, mins: Vec3::new(-15.0, -15.0, -24.0), maxs: Vec3::new(15.0, 15.0, 32.0) }
    }

    #[test]
    fn nearest_point_distance() {
        let (mins, maxs) = (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));
        assert_eq!(distance_to_box(Vec3::new(0.0, 0.0, -24.0), Vec3::ZERO, mins, maxs), 0.0);
        assert_eq!(distance_to_box(Vec3::new(45.0, 0.0, 0.0), Vec3::ZERO, mins, maxs), 30.0);
        assert!((distance_to_box(Vec3::new(18.0, 19.0, 0.0), Vec3::ZERO, mins, maxs) - 5.0).abs() < 1e-5);
    }

    #[test]
    fn linear_falloff_in_open_space() {
        let map = CollisionWorld::default();
        let obstacles = [ob(0, Vec3::new(75.0, 0.0, 0.0)), ob(1, Vec3::new(-200.0, 0.0, 0.0)), ob(2, Vec3::new(0.0, 15.0, 24.0))];
        let hits = splash_hits(&map, Vec3::ZERO, 100.0, 120.0, &obstacles, Some(SlotId(2)));
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].slot, SlotId(0));
        assert!((hits[0].amount - 50.0).abs() < 1e-4, "60 of 120 units away: half");
        assert!(hits[0].dir.x > 0.0 && hits[0].dir.z == SPLASH_LIFT);
    }
}
