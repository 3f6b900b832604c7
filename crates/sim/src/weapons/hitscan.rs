//! Instant shots: traces from the muzzle through the map and the player
//! boxes (`SceneTrace::trace_scene` with a point box and `MASK_SHOT`,
//! never hitting the shooter).
//!
//! A hitscan weapon fires `pellets` traces, each turned by `spread` with
//! the match RNG, reaching `range`; each passes through up to `pierce`
//! players (the railgun) and stops at the map. A melee weapon is one trace
//! of `range` that counts only if it reaches a player. The boxes passed in
//! are the present ones or, for a remote shooter, the lag-compensated ones.
//!
//! This module only traces and builds damage requests; the caller queues
//! them and credits the shooter.

use glam::Vec3;
use quarry_map::{CollisionWorld, Contents, EntityId};

use crate::accuracy::RangeBand;
use crate::clock::SimRng;
use crate::combat::DamageRequest;
use crate::events::MeansOfDeath;
use crate::scene::{Obstacle, SceneTrace};
use crate::slots::SlotId;

use super::aim::ViewBasis;
use super::table::WeaponDef;

/// One trigger pull: who, from where, which way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// The shooter.
    pub shooter: SlotId,
    /// Where the traces start (the muzzle, pulled back out of any wall).
    pub start: Vec3,
    /// The view basis from the command's angles.
    pub basis: ViewBasis,
    /// The range band of the enemy it was aimed at, for accuracy only
    /// ([`crate::accuracy`]).
    pub band: RangeBand,
}

/// What the traces of one trigger pull did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShotResult {
    /// Damage to queue, one per player hit per trace.
    pub damage: Vec<DamageRequest>,
    /// Where each trace ended (the map, or past the last player).
    pub ends: Vec<Vec3>,
    /// Brush entities (doors, buttons) traces stopped on, with the damage
    /// each would have dealt.
    pub surfaces: Vec<(EntityId, f32)>,
    /// How many players each trace hit, one entry per trace in the order
    /// traced (each trace's requests follow each other in `damage`).
    pub hits_per_ray: Vec<usize>,
}

/// What one ray went through.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ray {
    /// Players hit, in order.
    pub players: Vec<SlotId>,
    /// Where it stopped.
    pub end: Vec3,
    /// The brush entity it stopped on, if it stopped on one.
    pub surface: Option<EntityId>,
}

impl ShotResult {
    /// Players hit, in hit order (with repeats for several pellets).
    pub fn hit_slots(&self) -> impl Iterator<Item = SlotId> + '_ {
        self.damage.iter().map(|d| d.target)
    }

    /// The players each trace hit, one list per trace in the order traced
    /// (accuracy counts traces, so a pellet is a shot of its own).
    pub fn hits_by_ray(&self) -> Vec<Vec<SlotId>> {
        let mut rest = self.damage.as_slice();
        self.hits_per_ray
            .iter()
            .map(|&n| {
                let (ray, after) = rest.split_at(n.min(rest.len()));
                rest = after;
                ray.iter().map(|d| d.target).collect()
            })
            .collect()
    }
}

/// Traces one ray of `range` along `dir`, through up to `pierce` players:
/// the players hit in order, where the ray stopped and on what.
pub fn trace_ray(
    map: &CollisionWorld,
    obstacles: &[Obstacle],
    shooter: SlotId,
    start: Vec3,
    dir: Vec3,
    range: f32,
    pierce: u32,
) -> Ray {
    let end = start + dir * range;
    let mut ray = Ray::default();
    let mut remaining: Option<Vec<Obstacle>> = None;
    loop {
        let boxes = remaining.as_deref().unwrap_or(obstacles);
        let scene = SceneTrace { world: map, obstacles: boxes, skip: Some(shooter) };
        let hit = scene.trace_scene(start, end, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
        ray.end = hit.trace.end;
        let Some(player) = hit.player else {
            ray.surface = hit.trace.entity.filter(|_| hit.trace.hit());
            return ray;
        };
        ray.players.push(player);
        if ray.players.len() > pierce as usize {
            return ray;
        }
        remaining.get_or_insert_with(|| obstacles.to_vec()).retain(|o| o.slot != player);
    }
}

/// Fires a hitscan weapon: every pellet, with spread from `rng`.
pub fn fire_hitscan(
    def: &WeaponDef,
    shot: &Shot,
    map: &CollisionWorld,
    obstacles: &[Obstacle],
    rng: &mut SimRng,
) -> ShotResult {
    let mut out = ShotResult::default();
    let square = def.pellets > 1;
    for _ in 0..def.pellets {
        let dir = shot.basis.spread_dir(def.spread, square, rng);
        let ray = trace_ray(map, obstacles, shot.shooter, shot.start, dir, def.range, def.pierce);
        out.ends.push(ray.end);
        out.surfaces.extend(ray.surface.map(|e| (e, def.damage)));
        out.hits_per_ray.push(ray.players.len());
        for target in ray.players {
            out.damage.push(request(def, shot.shooter, target, dir));
        }
    }
    out
}

/// Swings a melee weapon: the player it reaches, if any (then it fires).
pub fn trace_melee(def: &WeaponDef, shot: &Shot, map: &CollisionWorld, obstacles: &[Obstacle]) -> Option<DamageRequest> {
    let dir = shot.basis.forward;
    let ray = trace_ray(map, obstacles, shot.shooter, shot.start, dir, def.range, 0);
    ray.players.first().map(|&target| request(def, shot.shooter, target, dir))
}

fn request(def: &WeaponDef, shooter: SlotId, target: SlotId, dir: Vec3) -> DamageRequest {
    DamageRequest {
        target,
        attacker: Some(shooter),
        amount: def.damage,
        dir,
        knockback: def.knockback,
        armor_protects: true,
        means: MeansOfDeath::Weapon(def.number),
        band: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ob(slot: u8, x: f32) -> Obstacle {
        Obstacle {
            slot: SlotId(slot),
            origin: Vec3::new(x, 0.0, 0.0),
            mins: Vec3::new(-15.0, -15.0, -24.0),
            maxs: Vec3::new(15.0, 15.0, 32.0),
        }
    }

    #[test]
    fn ray_skips_shooter_and_pierces_in_order() {
        let map = CollisionWorld::default();
        let boxes = [ob(0, 0.0), ob(3, 300.0), ob(1, 100.0), ob(2, 200.0)];
        let Ray { players: hits, end, .. } = trace_ray(&map, &boxes, SlotId(0), Vec3::ZERO, Vec3::X, 1000.0, 0);
        assert_eq!(hits, [SlotId(1)]);
        assert!((end.x - 85.0).abs() < 0.1, "{end}");
        let hits = trace_ray(&map, &boxes, SlotId(0), Vec3::ZERO, Vec3::X, 1000.0, 3).players;
        assert_eq!(hits, [SlotId(1), SlotId(2), SlotId(3)]);
        let hits = trace_ray(&map, &boxes, SlotId(0), Vec3::ZERO, Vec3::X, 150.0, 3).players;
        assert_eq!(hits, [SlotId(1)], "range ends the ray");
    }
}
