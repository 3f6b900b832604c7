//! The agent: the player box and movement limits a navmesh is built for.
//!
//! Every number comes from the caller, who reads it from the live movement
//! cvars (`quarry_sim::pmove::MoveParams`); the navmesh never uses movement
//! constants of its own. `nav` cannot depend on `sim`, so the mapping is
//! written out on [`Agent`] for the caller to copy.

use glam::Vec3;
use serde::Serialize;

use crate::error::NavError;

/// Quake 3's landing speed (units/s) below which a fall does no damage
/// (`PM_CrashLand`: `delta = v² / 10000 > 40` starts the 5-point
/// "medium fall"; `sqrt(41 * 10000)` ≈ 640). [`Agent::safe_drop`] turns it
/// into a height.
pub const SAFE_LANDING_SPEED: f32 = 640.0;

/// Highest jump the navmesh plans for, in units, whatever the cvars say
/// (`g_gravity 0` makes the physical jump height infinite; a probe must
/// stop somewhere).
pub const MAX_PLANNED_JUMP: f32 = 256.0;

/// The player box and movement limits the navmesh is built for.
///
/// Distances in Quake units, speeds in units/s, gravity in units/s²; the
/// box is relative to the player origin (Z up), as in pmove.
///
/// Build it from the live movement parameters:
///
/// ```text
/// let p: quarry_sim::pmove::MoveParams = move_cvars.read(cvars);
/// let agent = Agent {
///     half_width: p.bbox_half_width,     // pm_bboxHalfWidth
///     min_z: p.bbox_min_z,               // pm_bboxMinZ
///     max_z: p.bbox_max_z,               // pm_bboxMaxZ
///     crouch_max_z: p.crouch_max_z,      // pm_crouchMaxZ
///     step_height: p.step_size,          // pm_stepsize
///     jump_height: p.max_jump_height(),  // pm_jumpVelocity² / 2 g_gravity
///     max_drop: Agent::safe_drop(p.gravity),
///     walkable_normal_z: p.min_walk_normal, // pm_minWalkNormal
///     gravity: p.gravity,                // g_gravity
///     run_speed: p.speed,                // g_speed
///     jump_velocity: p.jump_velocity,    // pm_jumpVelocity
/// };
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Agent {
    /// Half the box width in x and y (`pm_bboxHalfWidth`, 15).
    pub half_width: f32,
    /// Bottom of the box below the origin, negative (`pm_bboxMinZ`, -24).
    pub min_z: f32,
    /// Top of the standing box above the origin (`pm_bboxMaxZ`, 32).
    pub max_z: f32,
    /// Top of the crouched box (`pm_crouchMaxZ`, 16): passages lower than
    /// the standing box but this high get crouch links.
    pub crouch_max_z: f32,
    /// Tallest step climbed without jumping (`pm_stepsize`, 18).
    pub step_height: f32,
    /// How high a standing jump lifts the origin (`max_jump_height()`, 45.6).
    pub jump_height: f32,
    /// Deepest ledge the navmesh routes a drop over ([`Agent::safe_drop`]).
    pub max_drop: f32,
    /// Steepest walkable ground as the smallest normal z (`pm_minWalkNormal`, 0.7).
    pub walkable_normal_z: f32,
    /// Gravity (`g_gravity`, 800).
    pub gravity: f32,
    /// Running speed (`g_speed`, 320).
    pub run_speed: f32,
    /// Upward speed of a jump (`pm_jumpVelocity`, 270).
    pub jump_velocity: f32,
}

impl Default for Agent {
    /// The Quake 3 defaults, equal to `MoveParams::default()` in the sim.
    fn default() -> Self {
        Agent {
            half_width: 15.0,
            min_z: -24.0,
            max_z: 32.0,
            crouch_max_z: 16.0,
            step_height: 18.0,
            jump_height: 270.0 * 270.0 / 1600.0,
            max_drop: Agent::safe_drop(800.0),
            walkable_normal_z: 0.7,
            gravity: 800.0,
            run_speed: 320.0,
            jump_velocity: 270.0,
        }
    }
}

impl Agent {
    /// The deepest drop that lands below [`SAFE_LANDING_SPEED`] under
    /// `gravity`: 256 units at 800. Clamped to 64..=1024 (no gravity: 1024).
    pub fn safe_drop(gravity: f32) -> f32 {
        if !(gravity.is_finite() && gravity > 0.0) {
            return 1024.0;
        }
        (SAFE_LANDING_SPEED * SAFE_LANDING_SPEED / (2.0 * gravity)).clamp(64.0, 1024.0)
    }

    /// The standing box's minimum corner relative to the origin.
    pub fn mins(&self) -> Vec3 {
        Vec3::new(-self.half_width, -self.half_width, self.min_z)
    }

    /// The standing box's maximum corner relative to the origin.
    pub fn maxs(&self) -> Vec3 {
        Vec3::new(self.half_width, self.half_width, self.max_z)
    }

    /// The standing box's height.
    pub fn height(&self) -> f32 {
        self.max_z - self.min_z
    }

    /// Horizontal speed on the ground (at least 1 unit/s, so times stay finite).
    pub(crate) fn ground_speed(&self) -> f32 {
        self.run_speed.max(1.0)
    }

    /// Rise over run of the steepest walkable slope (1.02 at normal z 0.7).
    pub(crate) fn slope_tan(&self) -> f32 {
        let n = self.walkable_normal_z.clamp(0.05, 1.0);
        (1.0 - n * n).max(0.0).sqrt() / n
    }

    /// This agent checked and made usable: every field finite, the box
    /// non-empty, the jump at least a step and at most [`MAX_PLANNED_JUMP`],
    /// the drop at least a step, the slope limit in `(0, 1]`.
    pub fn validated(mut self) -> Result<Agent, NavError> {
        let fields = [
            self.half_width,
            self.min_z,
            self.max_z,
            self.crouch_max_z,
            self.step_height,
            self.max_drop,
            self.walkable_normal_z,
            self.gravity,
            self.run_speed,
            self.jump_velocity,
        ];
        if fields.iter().any(|v| !v.is_finite()) || self.jump_height.is_nan() {
            return Err(NavError::InvalidAgent("a field is not a finite number"));
        }
        if self.half_width <= 0.0 || self.max_z <= self.min_z {
            return Err(NavError::InvalidAgent("the box is empty"));
        }
        if self.step_height < 0.0
            || self.max_drop < 0.0
            || self.gravity < 0.0
            || self.run_speed < 0.0
        {
            return Err(NavError::InvalidAgent(
                "step, drop, gravity and speed must not be negative",
            ));
        }
        self.walkable_normal_z = self.walkable_normal_z.clamp(0.05, 1.0);
        self.crouch_max_z = self.crouch_max_z.clamp(self.min_z + 1.0, self.max_z);
        self.jump_height = self
            .jump_height
            .clamp(self.step_height, MAX_PLANNED_JUMP.max(self.step_height));
        self.max_drop = self.max_drop.max(self.step_height);
        Ok(self)
    }

    /// Seconds a jump takes to come back down to `rise` units above its
    /// start (negative `rise`: below it), or `None` if the jump never gets
    /// that high.
    pub(crate) fn jump_air_time(&self, rise: f32) -> Option<f32> {
        let g = self.gravity;
        if g <= 0.0 {
            return Some(f32::INFINITY);
        }
        let v = self.jump_velocity.max(0.0);
        let disc = v * v - 2.0 * g * rise;
        if disc < 0.0 {
            return None;
        }
        Some((v + disc.sqrt()) / g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_quake3_move_params() {
        let a = Agent::default();
        assert_eq!(
            (a.mins(), a.maxs()),
            (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0))
        );
        assert!((a.jump_height - 45.5625).abs() < 1e-4);
        assert_eq!(a.max_drop, 256.0);
        assert!((a.slope_tan() - 1.0202).abs() < 1e-3);
        assert_eq!(a.validated().ok(), Some(a));
    }

    #[test]
    fn validation_clamps_and_refuses() {
        let weightless = Agent {
            gravity: 0.0,
            jump_height: f32::INFINITY,
            max_drop: Agent::safe_drop(0.0),
            ..Agent::default()
        };
        let v = weightless.validated().expect("usable");
        assert_eq!((v.jump_height, v.max_drop), (MAX_PLANNED_JUMP, 1024.0));
        assert!(
            Agent {
                half_width: 0.0,
                ..Agent::default()
            }
            .validated()
            .is_err()
        );
        assert!(
            Agent {
                step_height: f32::NAN,
                ..Agent::default()
            }
            .validated()
            .is_err()
        );
        assert!(
            Agent {
                max_z: -30.0,
                ..Agent::default()
            }
            .validated()
            .is_err()
        );
    }

    #[test]
    fn air_time_of_a_jump() {
        let a = Agent::default();
        let level = a.jump_air_time(0.0).expect("lands level");
        assert!((level - 2.0 * 270.0 / 800.0).abs() < 1e-4);
        assert!(a.jump_air_time(-64.0).expect("lands lower") > level);
        assert!(a.jump_air_time(50.0).is_none(), "higher than the apex");
    }
}
