//! Crouching (Quake 3 `PM_CheckDuck`): the box and eye height for this
//! move. Crouching lowers the top of the box to `pm_crouchMaxZ`, keeping
//! its bottom, so it is always possible; standing up needs room for the
//! standing box and is refused under a low ceiling. A dead player lies in
//! the low `pm_deadMaxZ` box.

use super::Move;

impl Move<'_> {
    /// Sets `mins`, `maxs`, `view_height` and `state.crouched` for this move.
    /// Costs one trace while crouched with the crouch button released.
    pub(super) fn check_crouch(&mut self) {
        let p = self.params;
        if self.state.dead {
            self.state.crouched = false;
            (self.mins, self.maxs) = p.dead_box();
            self.view_height = p.dead_view_height;
            return;
        }
        if self.input.crouch {
            self.state.crouched = true;
        } else if self.state.crouched {
            let (mins, maxs) = p.player_box();
            if self.fits(self.state.origin, mins, maxs) {
                self.state.crouched = false;
            }
        }
        if self.state.crouched {
            (self.mins, self.maxs) = p.crouch_box();
            self.view_height = p.crouch_view_height;
        } else {
            (self.mins, self.maxs) = p.player_box();
            self.view_height = p.view_height;
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::super::test_world::TestWorld;
    use super::super::{MoveParams, MoveState, pmove};
    use crate::usercmd::{Buttons, UserCmd};

    fn crouch_cmd() -> UserCmd {
        UserCmd {
            buttons: Buttons::CROUCH,
            ..UserCmd::default()
        }
    }

    #[test]
    fn crouch_lowers_the_box_and_standing_needs_room() {
        let p = MoveParams::default();
        // Floor at z 0, ceiling 44 above it: the crouched box (40) fits, the standing one (56) not.
        let mut world = TestWorld::room();
        world.add_solid(Vec3::new(-64.0, -64.0, 44.0), Vec3::new(64.0, 64.0, 60.0));
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 24.0 + 1.0 / 32.0));
        s.crouched = true;
        let out = pmove(&mut s, &crouch_cmd(), &world, &p, 0.016);
        assert_eq!(out.maxs.z, 16.0);
        assert_eq!(s.view_height, 12.0);
        let out = pmove(&mut s, &UserCmd::default(), &world, &p, 0.016);
        assert!(s.crouched, "no room to stand");
        assert_eq!(out.maxs.z, 16.0);

        let open = TestWorld::room();
        let out = pmove(&mut s, &UserCmd::default(), &open, &p, 0.016);
        assert!(!s.crouched, "room to stand");
        assert_eq!((out.maxs.z, s.view_height), (32.0, 26.0));
    }

    #[test]
    fn the_dead_lie_low() {
        let world = TestWorld::room();
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 30.0));
        s.dead = true;
        let out = pmove(&mut s, &crouch_cmd(), &world, &MoveParams::default(), 0.016);
        assert_eq!(out.maxs.z, -8.0);
        assert!(!s.crouched);
    }
}
