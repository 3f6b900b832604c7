//! Where a shot starts and which way it goes: the eye, the muzzle, the
//! view basis from a command's angles, and shot spread.
//!
//! Angles follow Quake: degrees, `pitch` positive looks down, `yaw`
//! counter-clockwise from +X, no roll.

use glam::Vec3;
use quarry_movement::pmove::{MoveParams, MoveState};
use rand::RngExt;

use crate::clock::SimRng;

use super::table::SPREAD_DISTANCE;

/// How far in front of the eye shots start (Quake 3 `CalcMuzzlePoint`).
/// Less than the box half-width, so the muzzle never pokes through a wall
/// the player touches.
pub const MUZZLE_OFFSET: f32 = 14.0;

/// The view basis: unit forward, right and up vectors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewBasis {
    /// Where the player looks.
    pub forward: Vec3,
    /// To the right of `forward`, horizontal.
    pub right: Vec3,
    /// Up from the view, perpendicular to both.
    pub up: Vec3,
}

impl ViewBasis {
    /// The basis for `pitch`/`yaw` in degrees (Quake 3 `AngleVectors`, roll 0).
    pub fn from_angles(pitch: f32, yaw: f32) -> Self {
        let (sp, cp) = pitch.to_radians().sin_cos();
        let (sy, cy) = yaw.to_radians().sin_cos();
        Self {
            forward: Vec3::new(cp * cy, cp * sy, -sp),
            right: Vec3::new(sy, -cy, 0.0),
            up: Vec3::new(sp * cy, sp * sy, cp),
        }
    }

    /// The direction of one shot with `spread` (units of offset at
    /// [`SPREAD_DISTANCE`]). `square` spreads evenly over a square (Quake 3
    /// shotgun pellets); otherwise over a disc denser at the centre (Quake 3
    /// `Bullet_Fire`). Draws from the match RNG only when `spread > 0`.
    pub fn spread_dir(&self, spread: f32, square: bool, rng: &mut SimRng) -> Vec3 {
        if spread <= 0.0 {
            return self.forward;
        }
        let (r, u) = if square {
            (crandom(rng) * spread, crandom(rng) * spread)
        } else {
            let a = rng.0.random::<f32>() * std::f32::consts::TAU;
            (a.cos() * crandom(rng) * spread, a.sin() * crandom(rng) * spread)
        };
        (self.forward * SPREAD_DISTANCE + self.right * r + self.up * u).normalize_or(self.forward)
    }
}

/// A uniform draw in -1..1 (Quake `crandom`).
fn crandom(rng: &mut SimRng) -> f32 {
    rng.0.random_range(-1.0f32..1.0)
}

/// The eye: the box origin raised by the view height for the body's stance.
pub fn eye_position(body: &MoveState, params: &MoveParams) -> Vec3 {
    let h = if body.dead {
        params.dead_view_height
    } else if body.crouched {
        params.crouch_view_height
    } else {
        params.view_height
    };
    body.origin + Vec3::Z * h
}

/// Where shots leave: [`MUZZLE_OFFSET`] in front of the eye.
pub fn muzzle(eye: Vec3, forward: Vec3) -> Vec3 {
    eye + forward * MUZZLE_OFFSET
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn quake_angle_convention() {
        let level = ViewBasis::from_angles(0.0, 0.0);
        assert!(close(level.forward, Vec3::X) && close(level.right, Vec3::NEG_Y) && close(level.up, Vec3::Z));
        let down = ViewBasis::from_angles(90.0, 0.0);
        assert!(close(down.forward, Vec3::NEG_Z), "positive pitch looks down");
        let left = ViewBasis::from_angles(0.0, 90.0);
        assert!(close(left.forward, Vec3::Y));
        let b = ViewBasis::from_angles(33.0, 217.0);
        assert!(b.forward.dot(b.right).abs() < 1e-6 && b.forward.dot(b.up).abs() < 1e-6 && b.right.dot(b.up).abs() < 1e-6);
    }

    #[test]
    fn spread_stays_inside_its_cone_and_is_seeded() {
        let b = ViewBasis::from_angles(10.0, 45.0);
        let (mut r1, mut r2) = (SimRng::new(7), SimRng::new(7));
        let max_angle = (700.0f32 * 2f32.sqrt() / SPREAD_DISTANCE).atan();
        for _ in 0..200 {
            let d = b.spread_dir(700.0, true, &mut r1);
            assert_eq!(d, b.spread_dir(700.0, true, &mut r2));
            assert!(d.angle_between(b.forward) <= max_angle + 1e-4);
        }
        assert_eq!(b.spread_dir(0.0, false, &mut r1), b.forward);
    }
}
