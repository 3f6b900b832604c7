//! Tracing against the map *and* the players' boxes: player movement is
//! blocked by other players, and shots and projectiles hit them.

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{CollisionWorld, Contents, Trace, TraceResult};

use crate::components::{Body, Life, Player};
use crate::slots::SlotId;

/// A player's box in the world, as an obstacle for one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obstacle {
    /// Whose box.
    pub slot: SlotId,
    /// Box origin.
    pub origin: Vec3,
    /// Box mins relative to origin.
    pub mins: Vec3,
    /// Box maxs relative to origin.
    pub maxs: Vec3,
}

/// A hit from [`SceneTrace::trace_scene`]: the trace plus the player hit, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneHit {
    /// The trace result (with `contents` SOLID for a player box).
    pub trace: TraceResult,
    /// The player whose box stopped the trace, if it was a player.
    pub player: Option<SlotId>,
}

/// The map plus player boxes, skipping one player (the mover or shooter).
pub struct SceneTrace<'a> {
    /// The map's collision world.
    pub world: &'a CollisionWorld,
    /// Player boxes this tick.
    pub obstacles: &'a [Obstacle],
    /// The player the trace belongs to (never hits itself).
    pub skip: Option<SlotId>,
}

impl SceneTrace<'_> {
    /// Sweeps a box through the map and the player boxes; the nearest hit wins.
    pub fn trace_scene(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> SceneHit {
        let mut best = SceneHit { trace: self.world.trace(start, end, mins, maxs, mask), player: None };
        if !mask.intersects(Contents::SOLID) || best.trace.all_solid {
            return best;
        }
        for o in self.obstacles {
            if Some(o.slot) == self.skip {
                continue;
            }
            if let Some(hit) = sweep_box(start, end, mins, maxs, o)
                && (hit.fraction < best.trace.fraction || (hit.start_solid && !best.trace.start_solid))
            {
                let start_solid = hit.start_solid || best.trace.start_solid;
                best = SceneHit { trace: TraceResult { start_solid, ..hit }, player: Some(o.slot) };
            }
        }
        best
    }
}

impl Trace for SceneTrace<'_> {
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, mask: Contents) -> TraceResult {
        self.trace_scene(start, end, mins, maxs, mask).trace
    }

    fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }
}

/// Sweeps box `mins..maxs` from `start` to `end` against one obstacle box
/// (the movement core's sweep, which a predicting client runs too). `None`
/// when it does not touch.
pub fn sweep_box(start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3, o: &Obstacle) -> Option<TraceResult> {
    let b = quarry_movement::obstacles::BoxObstacle { origin: o.origin, mins: o.mins, maxs: o.maxs };
    quarry_movement::obstacles::sweep_box(start, end, mins, maxs, &b)
}

/// How far below an item the floor is looked for (Quake 3: 4096).
const DROP_TO_FLOOR: f32 = 4096.0;

/// Where an item placed at `origin` comes to rest: straight down onto the
/// first solid below, its box bottom on the floor. Items placed in solid
/// stay where they are.
pub fn drop_to_floor(world: &quarry_map::CollisionWorld, origin: Vec3, half: Vec3) -> Vec3 {
    let tr = world.trace(origin, origin - Vec3::Z * DROP_TO_FLOOR, -half, half, Contents::SOLID);
    if tr.start_solid || tr.all_solid { origin } else { tr.end }
}

/// The boxes of all living players, in slot order.
pub fn player_obstacles(world: &mut World) -> Vec<Obstacle> {
    let mut q = world.query::<(&Player, &Body, &Life)>();
    let mut out: Vec<Obstacle> = q
        .iter(world)
        .filter(|(_, _, l)| **l == Life::Alive)
        .map(|(p, b, _)| {
            let (mins, maxs) = b.0.bbox();
            Obstacle { slot: p.slot, origin: b.0.origin, mins, maxs }
        })
        .collect();
    out.sort_by_key(|o| o.slot);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obstacle(x: f32) -> Obstacle {
        Obstacle { slot: SlotId(1), origin: Vec3::new(x, 0.0, 0.0), mins: Vec3::splat(-16.0), maxs: Vec3::splat(16.0) }
    }

    #[test]
    fn box_stops_short_of_box() {
        let hit = sweep_box(Vec3::ZERO, Vec3::new(200.0, 0.0, 0.0), Vec3::splat(-16.0), Vec3::splat(16.0), &obstacle(100.0))
            .expect("hit");
        assert!((hit.end.x - 68.0).abs() < 0.1, "{:?}", hit.end);
        assert!(hit.end.x < 68.0);
        assert_eq!(hit.normal, Vec3::new(-1.0, 0.0, 0.0));
    }

    #[test]
    fn misses_and_start_inside() {
        let miss = sweep_box(Vec3::new(0.0, 100.0, 0.0), Vec3::new(200.0, 100.0, 0.0), Vec3::splat(-16.0), Vec3::splat(16.0), &obstacle(100.0));
        assert!(miss.is_none());
        let short = sweep_box(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), Vec3::splat(-16.0), Vec3::splat(16.0), &obstacle(100.0));
        assert!(short.is_none());
        let inside = sweep_box(Vec3::new(90.0, 0.0, 0.0), Vec3::new(200.0, 0.0, 0.0), Vec3::ZERO, Vec3::ZERO, &obstacle(100.0))
            .expect("inside");
        assert!(inside.start_solid);
    }

    #[test]
    fn point_ray_hits_box_face() {
        let hit = sweep_box(Vec3::new(0.0, 0.0, 50.0), Vec3::new(0.0, 0.0, -50.0), Vec3::ZERO, Vec3::ZERO, &Obstacle {
            slot: SlotId(0),
            origin: Vec3::ZERO,
            mins: Vec3::new(-15.0, -15.0, -24.0),
            maxs: Vec3::new(15.0, 15.0, 32.0),
        })
        .expect("hit");
        assert!((hit.end.z - 32.0).abs() < 0.1);
        assert_eq!(hit.normal, Vec3::Z);
    }
}
