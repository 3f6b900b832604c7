//! In the air (Quake 3 `PM_AirMove`): little control (`pm_airAccelerate`),
//! gravity over the slide, and stepping onto ledges while falling. A
//! surface too steep to stand on is slid down.

use super::Move;
use super::slide::{OVERCLIP, clip_velocity};

impl Move<'_> {
    /// Airborne movement, also for a player on ground too steep to walk.
    pub(super) fn air_move(&mut self) {
        self.friction();
        let p = self.params;
        let scale = self.cmd_scale(false);
        let wish = self.flat_forward * self.input.forward + self.right * self.input.right;
        let wish_dir = wish.normalize_or_zero();
        let mut wish_speed = wish.length() * scale;
        if self.input.walk {
            wish_speed = wish_speed.min(p.speed * p.walk_scale);
        }
        self.accelerate(wish_dir, wish_speed, p.air_accelerate);
        if let Some(g) = self.state.ground {
            // Standing on something too steep: slide along it.
            self.state.velocity = clip_velocity(self.state.velocity, g.normal, OVERCLIP);
        }
        self.step_slide_move(true);
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::super::test_world::TestWorld;
    use super::super::{MoveParams, MoveState, pmove};
    use crate::usercmd::UserCmd;

    #[test]
    fn falling_follows_gravity_exactly() {
        let world = TestWorld::room();
        let p = MoveParams::default();
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 400.0));
        let dt = 1.0 / 60.0;
        for _ in 0..30 {
            let _ = pmove(&mut s, &UserCmd::default(), &world, &p, dt);
        }
        // Half a second of free fall from rest: 100 units, 400 units/s.
        assert!((s.origin.z - 300.0).abs() < 0.01, "{}", s.origin.z);
        assert!((s.velocity.z + 400.0).abs() < 0.01, "{}", s.velocity.z);
    }

    #[test]
    fn air_control_is_weak() {
        let world = TestWorld::room();
        let p = MoveParams::default();
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 400.0));
        let cmd = UserCmd {
            forward: 127,
            ..UserCmd::default()
        };
        for _ in 0..6 {
            let _ = pmove(&mut s, &cmd, &world, &p, 1.0 / 60.0);
        }
        // pm_airAccelerate 1: 320 * 1/60 per move.
        assert!((s.velocity.x - 32.0).abs() < 0.1, "{}", s.velocity.x);
    }
}
