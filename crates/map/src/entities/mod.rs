//! Entities: every entity of the file as one typed list, through one table
//! of class names covering Quake 1 and Quake 3 (`entities/classes.rs`).
//!
//! Each [`Entity`] keeps its class name, key/value pairs and line, plus an
//! [`EntityKind`] with the typed meaning: spawn points, items, jump pads,
//! teleporters, movers, flags, triggers. `target`/`targetname` links are
//! resolved to [`EntityId`]s. An unknown class warns once per class name and
//! is kept as [`EntityKind::Unknown`].
//!
//! This module must not know about ECS or game rules: it says what the map
//! placed, the sim decides what that does.

mod classes;
mod extract;
pub mod items;
mod keys;
pub mod movers;
mod targets;

use glam::Vec3;
use serde::Serialize;

pub(crate) use classes::{BrushRole, Class};
pub(crate) use extract::{Extracted, extract_entities, world_info};
use items::Item;
use movers::Mover;
pub(crate) use targets::resolve_targets;

/// Index of an entity in [`LoadedMap::entities`](crate::LoadedMap::entities),
/// in file order (0 is worldspawn in well-formed maps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct EntityId(pub u32);

impl EntityId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which game family's entity semantics apply (Quake 1 and Quake 3 disagree
/// on `item_health` spawnflags and mover defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Game {
    /// Quake 1 standard and Valve 220 maps using Quake 1 texture names.
    Quake1,
    /// Quake 3 maps, and any map using Quake 3 style `dir/name` shaders.
    Quake3,
}

/// A team in team game types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Team {
    /// Red team.
    Red,
    /// Blue team.
    Blue,
    /// Neither (the One Flag game type's white flag).
    Neutral,
}

/// Which kind of spawn point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum SpawnKind {
    /// `info_player_deathmatch`.
    Deathmatch,
    /// `info_player_start` (Quake 3 treats it as deathmatch).
    Start,
    /// A team spawn; `initial` for the match-start spots
    /// (`team_CTF_redplayer`), otherwise respawn spots (`team_CTF_redspawn`,
    /// `info_player_team1`).
    Team {
        /// Whose.
        team: Team,
        /// Used only at match start.
        initial: bool,
    },
}

/// A player spawn point and where the player box really fits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PlayerSpawn {
    /// Which kind.
    pub kind: SpawnKind,
    /// Yaw in degrees from the `angle` key.
    pub yaw: f32,
    /// Where to put the player: the entity origin raised by the smallest
    /// nudge (up to [`LoadOptions::max_spawn_nudge`](crate::LoadOptions))
    /// that makes the player box fit, as Quake does (Quake 3 always adds 9
    /// units; Quake 1 spawn origins often sit exactly on the floor).
    pub spawn_origin: Vec3,
    /// Whether the player box fits at `spawn_origin`.
    pub fits: bool,
}

/// How a jump pad pushes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Push {
    /// Quake 3: toward the apex at its target's origin.
    Toward {
        /// The target entity, once resolved.
        target: Option<EntityId>,
        /// The target's origin, once resolved.
        target_origin: Option<Vec3>,
    },
    /// Quake 1: a fixed velocity, `speed * 10` along `angle`/`angles` as in
    /// `triggers.qc` (speed defaults to 1000).
    Velocity(Vec3),
}

/// A `trigger_push` volume.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct JumpPad {
    /// How it pushes.
    pub push: Push,
}

impl JumpPad {
    /// The launch velocity for a player touching the pad whose volume is
    /// centred at `from`, under `gravity` (units/s², positive down).
    ///
    /// The launch velocity from `from` ([`crate::jump_pad_velocity`]: Quake
    /// 3's `AimAtTarget` for a target above, an arc through it otherwise).
    /// `None` while the target is unresolved.
    pub fn launch_velocity(&self, from: Vec3, gravity: f32) -> Option<Vec3> {
        match self.push {
            Push::Velocity(v) => Some(v),
            Push::Toward { target_origin, .. } => target_origin.map(|to| crate::jump_pad_velocity(from, to, gravity)),
        }
    }
}

/// A `trigger_teleport` volume.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Teleporter {
    /// The destination entity, once resolved.
    pub target: Option<EntityId>,
    /// Destination origin and yaw (degrees), once resolved.
    pub destination: Option<(Vec3, f32)>,
}

/// A trigger that is neither a jump pad, a teleporter nor a hurt volume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerKind {
    /// Fires its targets once.
    Once,
    /// Fires its targets every time it is touched (after `wait`).
    Multiple,
    /// A point entity passing a trigger on (`trigger_relay`, `trigger_always`).
    Relay,
    /// Fires after being triggered `count` times.
    Counter,
    /// Quake 1 level exit (ignored in deathmatch).
    ChangeLevel,
}

/// A trigger's parameters, defaults filled in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Trigger {
    /// What kind.
    pub kind: TriggerKind,
    /// Seconds before a `trigger_multiple` fires again (Quake 1 0.2,
    /// Quake 3 0.5); negative for triggers that fire once.
    pub wait: f32,
    /// Uses a `trigger_counter` needs before it fires (default 2).
    pub count: u32,
    /// Quake 1 `NOTOUCH` (spawnflag 1 on `trigger_once`/`trigger_multiple`):
    /// fires only when used by name, never on touch.
    pub no_touch: bool,
}

/// The typed meaning of an entity.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum EntityKind {
    /// `worldspawn`; its keys are in [`LoadedMap::world_info`](crate::LoadedMap::world_info).
    World,
    /// A player spawn point.
    PlayerSpawn(PlayerSpawn),
    /// An intermission camera spot.
    Intermission,
    /// A pickup.
    Item(Item),
    /// A `trigger_push`.
    JumpPad(JumpPad),
    /// A `trigger_teleport`.
    Teleporter(Teleporter),
    /// A point that teleporters and jump pads aim at.
    Destination,
    /// A moving brush entity.
    Mover(Mover),
    /// A CTF flag base.
    Flag(Team),
    /// A `trigger_hurt`: `damage` per hit (Quake: every frame it touches).
    Hurt {
        /// Damage per application (`dmg` key, default 5).
        damage: f32,
    },
    /// Another trigger.
    Trigger(Trigger),
    /// A solid brush entity that never moves (`func_wall`).
    Static,
    /// Merged into the world (`func_group`, `func_detail`).
    Group,
    /// A non-solid brush entity (`func_illusionary`).
    Illusionary,
    /// Known, without gameplay (lights, sounds, models, scripting targets).
    Decoration,
    /// A class not in the class table (warned once per class).
    Unknown,
}

/// One entity of the map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entity {
    /// Its index in file order.
    pub id: EntityId,
    /// The `classname` as written (empty if missing).
    pub classname: String,
    /// What it is.
    pub kind: EntityKind,
    /// The `origin` key, if present and readable.
    pub origin: Option<Vec3>,
    /// The `spawnflags` key, 0 if absent.
    pub spawnflags: u32,
    /// The `targetname` key.
    pub targetname: Option<String>,
    /// The `target` key.
    pub target: Option<String>,
    /// Entities whose `targetname` equals this entity's `target`.
    pub targets: Vec<EntityId>,
    /// The `killtarget` key: entities of this `targetname` are removed when
    /// this entity fires its targets.
    pub killtarget: Option<String>,
    /// The `delay` key: seconds between being fired and firing its targets
    /// (Quake's `SUB_UseTargets`), 0 if absent.
    pub delay: f32,
    /// Bounds of its brushes (absolute, movers at rest) if it has any that
    /// produced geometry.
    pub bounds: Option<(Vec3, Vec3)>,
    /// All key/value pairs in file order.
    pub keys: Vec<(String, String)>,
    /// Line of its opening brace.
    pub line: u32,
}

impl Entity {
    /// The value of `key` (ASCII case-insensitive; the last if repeated).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.keys.iter().rev().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    /// A point inside the entity: the centre of its brush bounds, else its origin.
    pub fn centre(&self) -> Option<Vec3> {
        self.bounds.map(|(lo, hi)| (lo + hi) * 0.5).or(self.origin)
    }
}

/// The worldspawn keys Quarry reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WorldInfo {
    /// The map's title (`message`).
    pub message: Option<String>,
    /// Quake 3 `gravity` override, if set (the `music` key is ignored).
    pub gravity: Option<f32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake3_jump_pad_arc_reaches_target_height() {
        let pad = JumpPad { push: Push::Toward { target: None, target_origin: Some(Vec3::new(400.0, 0.0, 200.0)) } };
        let v = pad.launch_velocity(Vec3::ZERO, 800.0).expect("velocity");
        // Apex height of a vertical launch: v² / 2g.
        assert!((v.z * v.z / 1600.0 - 200.0).abs() < 1e-3);
        // Horizontal distance covered by the apex time.
        let t = v.z / 800.0;
        assert!((v.x * t - 400.0).abs() < 1e-3);
        // A target below `from` still launches: the arc passes through it on the way down.
        let down = pad.launch_velocity(Vec3::new(0.0, 0.0, 300.0), 800.0).expect("velocity");
        assert!(down.z > 0.0 && down.truncate().length() > 0.0);
        let q1 = JumpPad { push: Push::Velocity(Vec3::Z * 600.0) };
        assert_eq!(q1.launch_velocity(Vec3::ZERO, 800.0), Some(Vec3::Z * 600.0));
    }
}
