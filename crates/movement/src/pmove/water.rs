//! Liquids (Quake 3 `PM_SetWaterLevel`, `PM_WaterMove`,
//! `PM_CheckWaterJump`, `PM_WaterJumpMove`, `PM_WaterEvents`): the water
//! level from up to three point samples, swimming in the view direction
//! at `pm_swimScale` with water friction, sinking slowly without input,
//! and jumping out onto a ledge. Water, slime and lava move alike; which
//! one the player is in is reported for the sim to hurt.

use glam::Vec3;
use quarry_map::Contents;

use super::Move;
use super::output::MoveEvent;
use super::slide::{OVERCLIP, clip_velocity};

/// Speed a player with no input sinks at, units/s (Quake 3: 60).
const SINK_SPEED: f32 = 60.0;

/// How far ahead of the origin a ledge is looked for, units (Quake 3: 30).
const LEDGE_REACH: f32 = 30.0;

/// Heights above the origin of the two ledge samples, units (Quake 3:
/// solid at +4, and nothing at +20).
const LEDGE_SAMPLES: (f32, f32) = (4.0, 20.0);

/// How long a jump out of water lasts at most, seconds (Quake 3: 2000 ms).
const WATER_JUMP_TIME: f32 = 2.0;

impl Move<'_> {
    /// Sets `state.water_level` (0-3) and `state.liquid` from the contents at
    /// the feet, the waist (half the eye height) and the eyes.
    pub(super) fn set_water_level(&mut self) {
        let origin = self.state.origin;
        let feet = self.mins.z + 1.0;
        let liquid = self.point_contents(origin + Vec3::Z * feet) & Contents::MASK_LIQUID;
        self.state.liquid = liquid;
        if liquid.is_empty() {
            self.state.water_level = 0;
            return;
        }
        let eyes = self.view_height - self.mins.z;
        self.state.water_level = 1;
        let waist = self.point_contents(origin + Vec3::Z * (self.mins.z + eyes / 2.0));
        if waist.intersects(Contents::MASK_LIQUID) {
            self.state.water_level = 2;
            let head = self.point_contents(origin + Vec3::Z * (self.mins.z + eyes));
            if head.intersects(Contents::MASK_LIQUID) {
                self.state.water_level = 3;
            }
        }
    }

    /// Swimming (water level 2 or more, or 3 on the bottom looking up).
    pub(super) fn water_move(&mut self) {
        if self.check_water_jump() {
            self.water_jump_move();
            return;
        }
        self.friction();
        let p = self.params;
        let scale = self.cmd_scale(true);
        let wish = if scale == 0.0 {
            Vec3::new(0.0, 0.0, -SINK_SPEED)
        } else {
            (self.forward * self.input.forward
                + self.right * self.input.right
                + Vec3::Z * self.input.up)
                * scale
        };
        let wish_speed = wish.length().min(p.speed * p.swim_scale);
        self.accelerate(wish.normalize_or_zero(), wish_speed, p.water_accelerate);
        if let Some(g) = self.state.ground
            && self.state.velocity.dot(g.normal) < 0.0
        {
            // Swim up slopes along the bottom without losing speed.
            let speed = self.state.velocity.length();
            self.state.velocity =
                clip_velocity(self.state.velocity, g.normal, OVERCLIP).normalize_or_zero() * speed;
        }
        self.slide_move(false);
    }

    /// Starts a jump out of water when waist-deep, pushing toward a ledge
    /// within reach: solid just above the origin and free space above it.
    fn check_water_jump(&mut self) -> bool {
        if self.state.water_jump_time > 0.0 || self.state.water_level != 2 {
            return false;
        }
        if !(self.input.forward > 0.0 || self.input.up > 0.0) {
            return false;
        }
        let ahead = self.state.origin + self.flat_forward * LEDGE_REACH;
        let (low, high) = LEDGE_SAMPLES;
        if !self
            .point_contents(ahead + Vec3::Z * low)
            .intersects(super::MOVE_MASK)
        {
            return false;
        }
        if self
            .point_contents(ahead + Vec3::Z * high)
            .intersects(super::MOVE_MASK | Contents::MASK_LIQUID)
        {
            return false;
        }
        let p = self.params;
        self.state.velocity =
            self.flat_forward * p.water_jump_speed + Vec3::Z * p.water_jump_velocity;
        self.state.water_jump_time = WATER_JUMP_TIME;
        self.out.push(MoveEvent::WaterJumped);
        true
    }

    /// Flying out of the water: no control, gravity, and the forward speed
    /// kept against the ledge until the player clears it; ends when falling.
    pub(super) fn water_jump_move(&mut self) {
        let horizontal = self.state.velocity.truncate();
        self.step_slide_move(true);
        let z = self.state.velocity.z;
        self.state.velocity = horizontal.extend(z);
        if z < 0.0 {
            self.state.water_jump_time = 0.0;
        }
    }

    /// Water level change events between the start and the end of a move.
    pub(super) fn water_events(&mut self, before: u8) {
        let after = self.state.water_level;
        if before == 0 && after > 0 {
            self.out.push(MoveEvent::WaterEntered);
        }
        if before > 0 && after == 0 {
            self.out.push(MoveEvent::WaterLeft);
        }
        if before != 3 && after == 3 {
            self.out.push(MoveEvent::HeadUnder);
        }
        if before == 3 && after != 3 {
            self.out.push(MoveEvent::HeadClear);
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;
    use quarry_map::Contents;

    use super::super::test_world::TestWorld;
    use super::super::{MoveEvent, MoveParams, MoveState, pmove};
    use crate::usercmd::UserCmd;

    fn pool(liquid: Contents) -> TestWorld {
        let mut w = TestWorld::room();
        w.add_box(
            Vec3::new(-512.0, -512.0, 0.0),
            Vec3::new(512.0, 512.0, 200.0),
            liquid,
            None,
        );
        w
    }

    #[test]
    fn water_level_samples_feet_waist_eyes() {
        let p = MoveParams::default();
        let w = pool(Contents::SLIME);
        for (z, level) in [(300.0, 0), (210.0, 1), (190.0, 2), (150.0, 3)] {
            let mut s = MoveState::new(Vec3::new(0.0, 0.0, z));
            let out = pmove(&mut s, &UserCmd::default(), &w, &p, 0.0);
            assert_eq!(out.water_level, level, "z {z}");
            assert_eq!(out.liquid.is_empty(), level == 0);
        }
    }

    #[test]
    fn entering_water_is_reported_and_sinking_is_slow() {
        let p = MoveParams::default();
        let w = pool(Contents::WATER);
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 240.0));
        let mut events = Vec::new();
        for _ in 0..240 {
            let out = pmove(&mut s, &UserCmd::default(), &w, &p, 1.0 / 60.0);
            events.extend_from_slice(out.events());
        }
        assert!(events.contains(&MoveEvent::WaterEntered));
        assert!(events.contains(&MoveEvent::HeadUnder));
        assert!(s.velocity.z > -SINK_LIMIT, "sinks slowly: {}", s.velocity.z);
        assert_eq!(s.liquid, Contents::WATER);
    }

    #[test]
    fn up_swims_up_from_the_bottom_even_running_in() {
        let p = MoveParams::default();
        let w = pool(Contents::WATER);
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 60.0));
        // Settle onto the bottom.
        for _ in 0..120 {
            let _ = pmove(&mut s, &UserCmd::default(), &w, &p, 1.0 / 60.0);
        }
        let bottom = s.origin.z;
        let up = UserCmd { up: 127, ..UserCmd::default() };
        for _ in 0..30 {
            let _ = pmove(&mut s, &up, &w, &p, 1.0 / 60.0);
        }
        assert!(s.origin.z > bottom + 20.0, "rose from {bottom} to {}", s.origin.z);
        // Running in along the bottom, then up as well: the water adds a
        // little upward speed a tick against the speed already along the
        // wish, which the bottom must not take away again.
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 60.0));
        for _ in 0..120 {
            let _ = pmove(&mut s, &UserCmd::default(), &w, &p, 1.0 / 60.0);
        }
        let bottom = s.origin.z;
        s.velocity = Vec3::new(180.0, 0.0, 0.0);
        let up = UserCmd { up: 127, forward: 127, ..UserCmd::default() };
        for _ in 0..30 {
            let _ = pmove(&mut s, &up, &w, &p, 1.0 / 60.0);
        }
        assert!(s.origin.z > bottom + 20.0, "running in, rose from {bottom} to {}", s.origin.z);
    }

    /// Water friction and the sink speed keep the descent below this.
    const SINK_LIMIT: f32 = 100.0;
}
