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
    /// A `func_door_secret`'s two moves; `None` for other kinds.
    pub secret: Option<SecretMoves>,
}

/// A Quake 1 `func_door_secret`'s moves (`fd_secret_use`): first sideways
/// (or down) by its width, a pause, then along its facing by its length.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SecretMoves {
    /// Unit direction of the first move.
    pub first_dir: Vec3,
    /// `t_width`, the first move's distance; the size along `first_dir` when unset.
    pub width: Option<f32>,
    /// Unit direction of the second move: the door's facing.
    pub second_dir: Vec3,
    /// `t_length`, the second move's distance; the size along `second_dir` when unset.
    pub length: Option<f32>,
    /// Spawnflag 1 (`SECRET_OPEN_ONCE`): stays open.
    pub open_once: bool,
}

impl SecretMoves {
    /// Quake 1 spawnflag: the first move goes left instead of right.
    pub const FIRST_LEFT: u32 = 2;
    /// Quake 1 spawnflag: the first move goes down.
    pub const FIRST_DOWN: u32 = 4;
    /// Quake 1 spawnflag: a door with a `targetname` can also be shot open.
    pub const YES_SHOOT: u32 = 16;

    /// The moves of a secret door facing `yaw` degrees with `spawnflags`.
    pub fn new(yaw: f32, spawnflags: u32, width: Option<f32>, length: Option<f32>) -> SecretMoves {
        let (sy, cy) = yaw.to_radians().sin_cos();
        let snap = |v: f32| if v.abs() < 1e-6 { 0.0 } else { v };
        let forward = Vec3::new(snap(cy), snap(sy), 0.0);
        let right = Vec3::new(forward.y, -forward.x, 0.0);
        let first_dir = if spawnflags & Self::FIRST_DOWN != 0 {
            Vec3::NEG_Z
        } else if spawnflags & Self::FIRST_LEFT != 0 {
            -right
        } else {
            right
        };
        SecretMoves { first_dir, width, second_dir: forward, length, open_once: spawnflags & 1 != 0 }
    }

    /// The offsets after the first and the second move for a door whose
    /// brushes span `mins..maxs`.
    pub fn offsets(&self, mins: Vec3, maxs: Vec3) -> (Vec3, Vec3) {
        let size = (maxs - mins).max(Vec3::ZERO);
        let width = self.width.unwrap_or_else(|| self.first_dir.dot(size).abs());
        let length = self.length.unwrap_or_else(|| self.second_dir.dot(size).abs());
        let first = self.first_dir * width;
        (first, first + self.second_dir * length)
    }
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
            secret: None,
        }
    }

    /// The offset from where the map placed the brushes to the other end of
    /// travel, for a mover whose brushes span `mins..maxs`:
    /// the open door, the lowered plat (its resting position), the pressed
    /// button, a secret door's end of both moves, or the bobbing amplitude. `None` for kinds whose motion is a
    /// path or a rotation.
    pub fn travel(&self, mins: Vec3, maxs: Vec3) -> Option<Vec3> {
        let size = (maxs - mins).max(Vec3::ZERO);
        match self.kind {
            MoverKind::SecretDoor if self.secret.is_some() => self.secret.map(|s| s.offsets(mins, maxs).1),
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

/// A plat's touch volume is its top face shrunk by this at each side
/// (Quake 3 `SpawnPlatTrigger`)…
const PLAT_TRIGGER_INSET: f32 = 33.0;
/// …and reaches this far above it.
const PLAT_TRIGGER_ABOVE: f32 = 8.0;

/// The volume on top of a plat whose brushes span `bounds` (where it
/// rests) that raises it when a player's box overlaps it: the top face
/// shrunk by 33 units at each side (to a 2-unit sliver in the middle
/// along an axis too narrow for that), from the plat's bottom to 8 units
/// above its top. The sim triggers with it and the navmesh boards by it.
pub fn plat_trigger_volume((b_lo, b_hi): (Vec3, Vec3)) -> (Vec3, Vec3) {
    let mut lo = b_lo + Vec3::new(PLAT_TRIGGER_INSET, PLAT_TRIGGER_INSET, 0.0);
    let mut hi = b_hi - Vec3::new(PLAT_TRIGGER_INSET, PLAT_TRIGGER_INSET, 0.0);
    for axis in 0..2 {
        if lo[axis] >= hi[axis] {
            let mid = (b_lo[axis] + b_hi[axis]) * 0.5;
            lo[axis] = mid - 1.0;
            hi[axis] = mid + 1.0;
        }
    }
    hi.z = b_hi.z + PLAT_TRIGGER_ABOVE;
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plat_trigger_volume_sits_on_top() {
        let (lo, hi) = plat_trigger_volume((Vec3::ZERO, Vec3::new(128.0, 40.0, 16.0)));
        assert_eq!((lo.x, hi.x), (33.0, 95.0));
        assert_eq!((lo.y, hi.y), (19.0, 21.0), "too narrow: a sliver in the middle");
        assert_eq!((lo.z, hi.z), (0.0, 24.0));
    }

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
    fn secret_door_moves_sideways_then_along_its_facing() {
        // Facing -X (angle 180), first move down (dm6's door): down by its
        // height, then back by its length along the facing.
        let down = SecretMoves::new(180.0, SecretMoves::FIRST_DOWN, None, None);
        let (first, second) = down.offsets(Vec3::ZERO, Vec3::new(128.0, 136.0, 24.0));
        assert_eq!(first, Vec3::new(0.0, 0.0, -24.0));
        assert_eq!(second, Vec3::new(-128.0, 0.0, -24.0));
        // Facing +Y, first move right (+X) by its width, or left, or by `t_width`.
        let right = SecretMoves::new(90.0, 0, None, Some(40.0));
        assert_eq!(right.offsets(Vec3::ZERO, Vec3::new(64.0, 8.0, 96.0)), (Vec3::new(64.0, 0.0, 0.0), Vec3::new(64.0, 40.0, 0.0)));
        let left = SecretMoves::new(90.0, SecretMoves::FIRST_LEFT | 1, Some(10.0), None);
        assert_eq!(left.offsets(Vec3::ZERO, Vec3::new(64.0, 8.0, 96.0)).0, Vec3::new(-10.0, 0.0, 0.0));
        assert!(left.open_once);
    }

    #[test]
    fn paths_and_rotations_have_no_travel() {
        let t = Mover::with_defaults(MoverKind::Train, Game::Quake1, Vec3::Z);
        assert_eq!(t.travel(Vec3::ZERO, Vec3::ONE), None);
        let b = Mover::with_defaults(MoverKind::Bobbing, Game::Quake3, Vec3::X);
        assert_eq!(b.travel(Vec3::ZERO, Vec3::ONE), Some(Vec3::new(32.0, 0.0, 0.0)));
    }
}
