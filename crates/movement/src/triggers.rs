//! The triggers that move a player: jump pads (`trigger_push`) and
//! teleporters (`trigger_teleport`). What they do to a [`MoveState`] is
//! movement, so it lives here, shared like pmove: the sim runs it after
//! each move (and adds what only the server does: sounds, telefrags,
//! per-player pacing), a predicting client runs it after each replayed
//! move, so a predicted player goes up a jump pad and through a
//! teleporter where the server sends it.
//!
//! Teleporters follow Quake 3's `TeleportPlayer`: the player appears at the
//! destination (a unit up, raised further until the box fits) and leaves
//! at 400 units/s along the destination's facing with pmove's teleport
//! timer set. A Quake 3 jump pad with a target launches the player on the
//! arc through its target from the player's origin (so every player lands
//! where the mapper put the target); a Quake 1 pad sets a fixed velocity.

use std::collections::BTreeMap;

use glam::Vec3;
use quarry_map::entities::{JumpPad, Push};
use quarry_map::{CollisionWorld, Contents, EntityId, EntityKind, LoadedMap, Trace};

use crate::pmove::{MoveState, jump_pad_velocity};

/// Exit speed along the destination's facing (Quake 3: 400).
pub const EXIT_SPEED: f32 = 400.0;
/// How far above the destination the player appears (Quake 3: 1 unit).
pub const ARRIVAL_LIFT: f32 = 1.0;
/// Step and limit for raising the arrival point until the box fits:
/// destinations placed on the floor (Quake 1 adds 27 units) still work.
const FIT_STEP: f32 = 4.0;
const FIT_MAX: f32 = 64.0;
/// Quake 3 `trigger_teleport` spawnflag: only spectators use it.
const TELEPORT_SPECTATOR_ONLY: u32 = 1;

/// What a movement trigger does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MoveTrigger {
    /// Launches the player.
    JumpPad(JumpPad),
    /// Moves the player to a destination.
    Teleport {
        /// Destination origin.
        destination: Vec3,
        /// Destination facing, degrees.
        yaw: f32,
    },
}

/// A map's movement triggers by entity: jump pads, and teleporters with a
/// destination that players (not only spectators) use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveTriggers(pub BTreeMap<EntityId, MoveTrigger>);

impl MoveTriggers {
    /// Reads them from a map; triggers without geometry can never be touched.
    pub fn from_map(map: &LoadedMap) -> Self {
        let mut set = BTreeMap::new();
        for e in map.entities().iter().filter(|e| e.bounds.is_some()) {
            let trigger = match &e.kind {
                EntityKind::JumpPad(pad) => MoveTrigger::JumpPad(*pad),
                EntityKind::Teleporter(t) if e.spawnflags & TELEPORT_SPECTATOR_ONLY == 0 => {
                    let Some((destination, yaw)) = t.destination else { continue };
                    MoveTrigger::Teleport { destination, yaw }
                }
                _ => continue,
            };
            set.insert(e.id, trigger);
        }
        Self(set)
    }

    /// The trigger of entity `id`.
    pub fn get(&self, id: EntityId) -> Option<&MoveTrigger> {
        self.0.get(&id)
    }

    /// The movement triggers a box at `state` overlaps, by entity id.
    pub fn touched(&self, world: &CollisionWorld, state: &MoveState, hits: &mut Vec<EntityId>) {
        hits.clear();
        if self.0.is_empty() {
            return;
        }
        let (mins, maxs) = state.bbox();
        world.overlap_entities(state.origin + mins, state.origin + maxs, Contents::TRIGGER, hits);
        hits.retain(|id| self.0.contains_key(id));
        hits.sort();
    }
}

/// The launch velocity of `pad` for a player at `from` under `gravity`
/// (units/s², positive down). `None` while the pad's target is unresolved.
pub fn pad_velocity(pad: &JumpPad, from: Vec3, gravity: f32) -> Option<Vec3> {
    match pad.push {
        Push::Velocity(v) => Some(v),
        Push::Toward { target_origin, .. } => target_origin.map(|to| jump_pad_velocity(from, to, gravity)),
    }
}

/// Where a box `mins..maxs` arriving at `destination` ends up: a unit
/// above it, raised in small steps until it fits the world (players are
/// not obstacles: they are telefragged). The first candidate if none fits.
pub fn arrival_point(world: &dyn Trace, destination: Vec3, mins: Vec3, maxs: Vec3) -> Vec3 {
    let first = destination + Vec3::Z * ARRIVAL_LIFT;
    let mut lift = 0.0;
    while lift <= FIT_MAX {
        let p = first + Vec3::Z * lift;
        if !world.trace(p, p, mins, maxs, Contents::MASK_PLAYER_SOLID).start_solid {
            return p;
        }
        lift += FIT_STEP;
    }
    first
}

/// Moves `state` through a teleporter to `destination` facing `yaw`;
/// returns the arrival point.
pub fn teleport(state: &mut MoveState, world: &dyn Trace, destination: Vec3, yaw: f32) -> Vec3 {
    let (mins, maxs) = state.bbox();
    let arrival = arrival_point(world, destination, mins, maxs);
    let (sin, cos) = yaw.to_radians().sin_cos();
    state.teleport(arrival, Vec3::new(cos, sin, 0.0) * EXIT_SPEED, yaw);
    arrival
}
