//! Moving brush entities: doors, plats, bobbing platforms, buttons, trains.
//!
//! The map gives their parameters and where their brushes were built; the
//! sim runs their state machines and moves the collision through
//! [`CollisionWorld::set_mover_offset`](crate::CollisionWorld::set_mover_offset).
//! Defaults are each game's (`g_mover.c` for Quake 3, `doors.qc`/`plats.qc`
//! for Quake 1), picked by the map's dialect.

use glam::Vec3;
use serde::Serialize;

use super::Game;
use super::items::KeyKind;

/// What kind of mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoverKind {
    /// `func_door`: slides along `move_dir` by its size minus `lip`.
    Door,
    /// Quake 1 `func_door_secret`: a two-stage sliding wall.
    SecretDoor,
    /// `func_plat`: a lift, drawn at the top, resting at the bottom.
    Plat,
    /// Quake 3 `func_bobbing`: oscillates along an axis.
    Bobbing,
    /// `func_button`: pushed in by `lip` less than its size.
    Button,
    /// `func_train`: follows `path_corner`s (path not modelled here).
    Train,
    /// `func_rotating`: spins (rotation is not modelled by the collision world).
    Rotating,
    /// Quake 3 `func_pendulum`: swings (not modelled by the collision world).
    Pendulum,
}

/// A mover's parameters, defaults filled in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mover {
    /// What kind.
    pub kind: MoverKind,
    /// Units per second; for `Bobbing`, seconds per full cycle (Quake 3's meaning).
    pub speed: f32,
    /// Seconds to stay open before returning; negative means never return.
    pub wait: f32,
    /// Units of the brush left showing at the end of travel.
    pub lip: f32,
    /// Plat travel or bobbing amplitude, if the map sets one.
    pub height: Option<f32>,
    /// Unit direction of travel from `angle`/`angles` (-1 up, -2 down), or
    /// the bobbing axis.
    pub move_dir: Vec3,
    /// Quake 1 key needed to open it (spawnflags 8 gold, 16 silver).
    pub key: Option<KeyKind>,
    /// It has a `targetname`: it opens only when something triggers it,
    /// not on touch (Quake's rule for both games).
    pub triggered: bool,
    /// Spawnflag 1: starts at the far end of its travel.
    pub start_open: bool,
    /// Damage dealt when it crushes a player.
    pub damage: f32,
    /// Shoot to open when positive.
    pub health: f32,
    /// Bobbing phase offset, 0 to 1.
    pub phase: f32,
    /// Quake `team` key: doors with the same team move together.
    pub team: Option<String>,
}

/// Per-kind defaults: (speed, wait, lip, damage).
fn defaults(kind: MoverKind, game: Game) -> (f32, f32, f32, f32) {
    use MoverKind::*;
    match (kind, game) {
        (Door, Game::Quake1) => (100.0, 3.0, 8.0, 2.0),
        (Door, Game::Quake3) => (400.0, 2.0, 8.0, 2.0),
        (SecretDoor, _) => (50.0, 5.0, 0.0, 2.0),
        (Plat, Game::Quake1) => (150.0, 3.0, 8.0, 1.0),
        (Plat, Game::Quake3) => (200.0, 1.0, 8.0, 2.0),
        (Bobbing, _) => (4.0, 0.0, 0.0, 2.0),
        (Button, _) => (40.0, 1.0, 4.0, 0.0),
        (Train, _) => (100.0, 0.0, 0.0, 2.0),
        (Rotating, _) => (100.0, 0.0, 0.0, 2.0),
        (Pendulum, _) => (30.0, 0.0, 0.0, 2.0),
    }
}

/// Bobbing amplitude when the map gives none (Quake 3).
const DEFAULT_BOB_HEIGHT: f32 = 32.0;

impl Mover {
    /// A mover of `kind` with the game's defaults, moving along `move_dir`.
    pub(crate) fn with_defaults(kind: MoverKind, game: Game, move_dir: Vec3) -> Mover {
        let (speed, wait, lip, damage) = defaults(kind, game);
        Mover {
            kind,
            speed,
            wait,
            lip,
            height: None,
            move_dir,
            key: None,
            triggered: false,
            start_open: false,
            damage,
            health: 0.0,
            phase: 0.0,
            team: None,
        }
    }

    /// The offset from where the map placed the brushes to the other end of
    /// travel, for a mover whose brushes span `mins..maxs`:
    /// the open door, the lowered plat (its resting position), the pressed
    /// button, or the bobbing amplitude. `None` for kinds whose motion is a
    /// path or a rotation.
    pub fn travel(&self, mins: Vec3, maxs: Vec3) -> Option<Vec3> {
        let size = (maxs - mins).max(Vec3::ZERO);
        match self.kind {
            MoverKind::Door | MoverKind::Button | MoverKind::SecretDoor => {
                let distance = (self.move_dir.abs().dot(size) - self.lip).max(0.0);
                Some(self.move_dir * distance)
            }
            MoverKind::Plat => {
                let height = self.height.filter(|h| *h != 0.0).unwrap_or(size.z - self.lip);
                Some(Vec3::NEG_Z * height.max(0.0))
            }
            MoverKind::Bobbing => Some(self.move_dir * self.height.unwrap_or(DEFAULT_BOB_HEIGHT)),
            MoverKind::Train | MoverKind::Rotating | MoverKind::Pendulum => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn door_travels_size_minus_lip() {
        let d = Mover::with_defaults(MoverKind::Door, Game::Quake3, Vec3::Z);
        assert_eq!(d.speed, 400.0);
        let t = d.travel(Vec3::new(0.0, 0.0, 0.0), Vec3::new(64.0, 8.0, 128.0));
        assert_eq!(t, Some(Vec3::new(0.0, 0.0, 120.0)));
        let q1 = Mover::with_defaults(MoverKind::Door, Game::Quake1, Vec3::X);
        assert_eq!((q1.speed, q1.wait), (100.0, 3.0));
        assert_eq!(q1.travel(Vec3::ZERO, Vec3::new(64.0, 8.0, 128.0)), Some(Vec3::new(56.0, 0.0, 0.0)));
    }

    #[test]
    fn plat_rests_lowered() {
        let mut p = Mover::with_defaults(MoverKind::Plat, Game::Quake3, Vec3::Z);
        assert_eq!(p.travel(Vec3::ZERO, Vec3::new(64.0, 64.0, 200.0)), Some(Vec3::new(0.0, 0.0, -192.0)));
        p.height = Some(100.0);
        assert_eq!(p.travel(Vec3::ZERO, Vec3::new(64.0, 64.0, 200.0)), Some(Vec3::new(0.0, 0.0, -100.0)));
    }

    #[test]
    fn paths_and_rotations_have_no_travel() {
        let t = Mover::with_defaults(MoverKind::Train, Game::Quake1, Vec3::Z);
        assert_eq!(t.travel(Vec3::ZERO, Vec3::ONE), None);
        let b = Mover::with_defaults(MoverKind::Bobbing, Game::Quake3, Vec3::X);
        assert_eq!(b.travel(Vec3::ZERO, Vec3::ONE), Some(Vec3::new(32.0, 0.0, 0.0)));
    }
}
