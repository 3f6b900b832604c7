//! Player movement: Quake-3-style pmove as a pure function of (movement
//! state, user command, trace, movement parameters, time step).
//!
//! This module is the `bg_pmove` of Quarry: it knows nothing of the ECS,
//! entities, damage or the network, so the sim, a predicting client and
//! tests all call the same [`pmove`]. The world is reached only through
//! [`quarry_map::Trace`]. It must not read clocks, RNGs or globals.
//!
//! # One move
//!
//! [`pmove`] runs, in this order (Quake 3 `PmoveSingle`):
//!
//! 1. repair a non-finite state ([`MoveOutput::sanitised`]), clamp `dt`;
//! 2. release of the jump button re-arms jumping; a dead player's input is zero;
//! 3. crouch or stand up (standing needs room: one trace while crouched);
//! 4. if the caller moved the origin, find the ground and water again;
//! 5. count down timers (knockback, landing, teleport, water jump);
//! 6. move: jump out of water, swim, walk, or fly through the air
//!    (`water.rs`, `ground.rs`, `air.rs`), each ending in the slide move
//!    (`slide.rs`) that clips against up to five planes and steps up
//!    `pm_stepsize`;
//! 7. one ground trace: stands on, lands on, snaps down to (up to
//!    `pm_stepsize` while on the ground and not jumping) or leaves the
//!    ground; nudges out of solid if stuck;
//! 8. water level from up to three point samples; footsteps and water
//!    events.
//!
//! # Differences from Quake 3
//!
//! - **Step down.** Walking off an edge no higher than `pm_stepsize` snaps
//!   to the lower ground, so stairs and ramps are walked down without
//!   leaving the ground; Quake 3 falls for a frame at each step. The snap
//!   reuses the one ground trace at the end of the move (it is longer while
//!   walking), so it costs nothing extra.
//! - **One ground trace per move.** Quake 3 traces the ground before and
//!   after moving. Here the ground found at the end of a move is kept in
//!   [`MoveState`] and reused, unless the origin changed in between (a
//!   teleport, a mover push), which pmove detects by itself.
//! - **Stuck boxes move.** Quake 3's `PM_CorrectAllSolid` only looks for
//!   free space; here the box is nudged to the nearest free spot within
//!   `pm_stepsize`, and [`MoveOutput::stuck`] tells the sim when there is none.
//! - **Buttons, not `upmove`.** Jump and crouch are buttons
//!   ([`Buttons::JUMP`](crate::Buttons::JUMP), [`Buttons::CROUCH`](crate::Buttons::CROUCH)); `up` only swims.
//!   Walking is a button that caps speed at `pm_walkScale` (Quake 3 walks
//!   by sending 64 instead of 127, which gives the same 50 %); moves of 64
//!   still walk at half speed, as in Quake 3.
//! - **Water jump needs intent** (forward, up or jump), and its forward
//!   speed is kept against the ledge for the whole jump. Quake 3 keeps the
//!   whole velocity unclipped while any movement timer runs (knockback,
//!   landing, water jump); here walls clip it except in a water jump.
//! - **Resting on the ground is exact.** The box rests on the ground the
//!   trace finds (Quake 3 hovers up to 0.25 above it) and the velocity is
//!   made parallel to it, so a standing player's velocity is exactly zero
//!   and a landing found by the probe does not bounce.
//!
//! # Callers
//!
//! Jump pads, teleporters and knockback are the caller's: see
//! [`MoveState::launch`] with [`jump_pad_velocity`], [`MoveState::teleport`]
//! and [`MoveState::apply_knockback`]. Falling damage, liquid damage and
//! sounds come from the [`MoveOutput`] events.

mod air;
mod crouch;
mod ground;
mod output;
mod params;
mod slide;
mod state;
mod water;

#[doc(hidden)]
pub mod test_world;

pub use quarry_map::jump_pad_velocity;
pub use output::{FallSeverity, MAX_EVENTS, MAX_TOUCHED, MoveEvent, MoveOutput};
pub use params::{MoveParams, PARAMS, ParamDef};
pub use state::{
    Ground, KNOCKBACK_TIME_PER_SPEED, MAX_KNOCKBACK_TIME, MIN_KNOCKBACK_TIME, MoveState,
    TELEPORT_TIME,
};

use glam::Vec3;
use quarry_map::{Contents, Trace, TraceResult};

use crate::usercmd::{Buttons, UserCmd};

/// What the player box collides with.
pub const MOVE_MASK: Contents = Contents::MASK_PLAYER_SOLID;

/// The longest time step one move may cover, in seconds (Quake 3 `Pmove`
/// cuts commands into pieces of at most 66 ms so that movement does not
/// depend on the frame rate); longer steps run as several moves.
pub const MAX_STEP: f32 = 0.066;

/// The longest `dt` accepted, in seconds (Quake 3 clamps a command to 200 ms).
pub const MAX_DT: f32 = 0.2;

/// A speed no legitimate move reaches, units/s; a larger velocity is a bug
/// or bad input and is capped so traces stay bounded. Not a gameplay limit.
pub const MAX_SANE_SPEED: f32 = 100_000.0;

/// Moves one player by one user command over `dt` seconds.
///
/// Updates `state` and returns the events of the move. Never panics: a
/// non-finite state is repaired (origin back to the last good one, velocity
/// zeroed), a non-finite or negative `dt` moves nothing, a command with
/// bad angles is sanitised, and inconsistent parameters are made consistent
/// ([`MoveParams::consistent`]). Steps longer than [`MAX_STEP`] are split.
pub fn pmove(
    state: &mut MoveState,
    cmd: &UserCmd,
    world: &dyn Trace,
    params: &MoveParams,
    dt: f32,
) -> MoveOutput {
    let params = params.consistent();
    let mut cmd = *cmd;
    cmd.sanitise();
    let sanitised = state.sanitise(MAX_SANE_SPEED);
    let dt = if dt.is_finite() {
        dt.clamp(0.0, MAX_DT)
    } else {
        0.0
    };
    let pieces = (dt / MAX_STEP).ceil().max(1.0);
    let piece = dt / pieces;
    let mut out = Move::new(state, &cmd, world, &params, piece).run();
    for _ in 1..(pieces as u32) {
        let next = Move::new(state, &cmd, world, &params, piece).run();
        out = out.then(next);
    }
    out.sanitised |= sanitised;
    out
}

/// The command as movement reads it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Input {
    /// Forward move, -127..127.
    forward: f32,
    /// Right move, -127..127.
    right: f32,
    /// Swim up (+) or down (-), -127..127: `up`, else jump/crouch held.
    up: f32,
    jump: bool,
    crouch: bool,
    walk: bool,
}

impl Input {
    fn from_cmd(cmd: &UserCmd) -> Self {
        let jump = cmd.buttons.contains(Buttons::JUMP);
        let crouch = cmd.buttons.contains(Buttons::CROUCH);
        let up = match (cmd.up, jump, crouch) {
            (0, true, false) => 127.0,
            (0, false, true) => -127.0,
            (u, _, _) => f32::from(u),
        };
        Self {
            forward: f32::from(cmd.forward),
            right: f32::from(cmd.right),
            up,
            jump,
            crouch,
            walk: cmd.buttons.contains(Buttons::WALK),
        }
    }

    /// No input at all (a dead player).
    const NONE: Self = Self {
        forward: 0.0,
        right: 0.0,
        up: 0.0,
        jump: false,
        crouch: false,
        walk: false,
    };

    /// Whether the player asks to move along the ground.
    fn moving(&self) -> bool {
        self.forward != 0.0 || self.right != 0.0
    }
}

/// One move in progress: the Quake 3 `pm` and `pml` globals as a value.
pub(super) struct Move<'a> {
    pub(super) state: &'a mut MoveState,
    world: &'a dyn Trace,
    pub(super) params: &'a MoveParams,
    pub(super) input: Input,
    /// Length of this move, seconds.
    pub(super) dt: f32,
    /// The box for this move.
    pub(super) mins: Vec3,
    pub(super) maxs: Vec3,
    pub(super) view_height: f32,
    /// View direction with pitch (swimming follows it).
    pub(super) forward: Vec3,
    /// View direction flattened to the ground, unit length.
    pub(super) flat_forward: Vec3,
    /// Right of the view, horizontal, unit length.
    pub(super) right: Vec3,
    /// Where the move started.
    pub(super) previous_origin: Vec3,
    pub(super) previous_velocity: Vec3,
    /// Whether the move started on walkable ground (for landings).
    pub(super) started_on_ground: bool,
    /// The walk move ran without jumping: the ground trace may snap down.
    pub(super) may_step_down: bool,
    pub(super) out: MoveOutput,
}

impl<'a> Move<'a> {
    fn new(
        state: &'a mut MoveState,
        cmd: &UserCmd,
        world: &'a dyn Trace,
        params: &'a MoveParams,
        dt: f32,
    ) -> Self {
        let input = if state.dead {
            Input::NONE
        } else {
            Input::from_cmd(cmd)
        };
        if !state.dead {
            state.take_angles(cmd.pitch, cmd.yaw);
        }
        // Moves go where the view looks: the command's angles plus the
        // delta angles a spawn or a teleporter set.
        let (sy, cy) = state.yaw.to_radians().sin_cos();
        let (sp, cp) = state.pitch.to_radians().sin_cos();
        let (mins, maxs) = params.player_box();
        Self {
            previous_origin: state.origin,
            previous_velocity: state.velocity,
            state,
            world,
            params,
            input,
            dt,
            mins,
            maxs,
            view_height: params.view_height,
            forward: Vec3::new(cp * cy, cp * sy, -sp),
            flat_forward: Vec3::new(cy, sy, 0.0),
            right: Vec3::new(sy, -cy, 0.0),
            started_on_ground: false,
            may_step_down: false,
            out: MoveOutput::default(),
        }
    }

    fn run(mut self) -> MoveOutput {
        if !self.input.jump {
            self.state.jump_held = false;
        }
        self.check_crouch();
        if self.state.is_settled() {
            self.check_kickoff();
        } else {
            self.ground_trace(false, false);
            self.set_water_level();
        }
        let previous_level = self.state.water_level;
        self.drop_timers();
        self.started_on_ground = self.state.on_ground();

        if self.state.water_jump_time > 0.0 {
            self.water_jump_move();
        } else if self.state.water_level > 1 {
            self.water_move();
        } else if self.state.on_ground() {
            self.walk_move();
        } else {
            self.air_move();
        }

        self.ground_trace(self.may_step_down, true);
        self.set_water_level();
        self.footsteps();
        self.water_events(previous_level);
        self.state.settle();
        (self.state.mins, self.state.maxs, self.state.view_height) =
            (self.mins, self.maxs, self.view_height);
        self.out.mins = self.mins;
        self.out.maxs = self.maxs;
        self.out.water_level = self.state.water_level;
        self.out.liquid = self.state.liquid;
        self.out
    }

    fn drop_timers(&mut self) {
        let dt = self.dt;
        let s = &mut *self.state;
        for t in [
            &mut s.knockback_time,
            &mut s.land_time,
            &mut s.teleport_time,
            &mut s.water_jump_time,
        ] {
            *t = (*t - dt).max(0.0);
        }
    }

    /// Whether a knockback (or teleport) currently removes ground control.
    pub(super) fn knocked_back(&self) -> bool {
        self.state.knockback_time > 0.0
    }

    /// Sweeps the current box from `start` to `end` against [`MOVE_MASK`],
    /// counting the trace. A result with non-finite numbers (a broken
    /// `Trace` implementation) is treated as solid.
    pub(super) fn trace(&mut self, start: Vec3, end: Vec3) -> TraceResult {
        self.out.traces += 1;
        let tr = self
            .world
            .trace(start, end, self.mins, self.maxs, MOVE_MASK);
        if tr.fraction.is_finite() && tr.end.is_finite() && tr.normal.is_finite() {
            tr
        } else {
            TraceResult {
                fraction: 0.0,
                start_solid: true,
                all_solid: true,
                ..TraceResult::clear(start)
            }
        }
    }

    /// Whether the box `mins..maxs` fits at `origin`.
    pub(super) fn fits(&mut self, origin: Vec3, mins: Vec3, maxs: Vec3) -> bool {
        self.out.traces += 1;
        self.world.fits(origin, mins, maxs, MOVE_MASK)
    }

    /// The contents at a point (liquids, solids).
    pub(super) fn point_contents(&self, point: Vec3) -> Contents {
        self.world.point_contents(point)
    }

    /// Quake 3 `PM_Accelerate`: adds speed along `wish_dir` up to
    /// `wish_speed`, at most `accel * dt * wish_speed` per move.
    pub(super) fn accelerate(&mut self, wish_dir: Vec3, wish_speed: f32, accel: f32) {
        let current = self.state.velocity.dot(wish_dir);
        let add = wish_speed - current;
        if add <= 0.0 {
            return;
        }
        let gain = (accel * self.dt * wish_speed).min(add);
        self.state.velocity += gain * wish_dir;
    }

    /// Quake 3 `PM_Friction`: ground friction (not during knockback) and
    /// water friction per water level.
    pub(super) fn friction(&mut self) {
        let walking = self.state.on_ground();
        let v = self.state.velocity;
        let speed = if walking {
            v.truncate().length()
        } else {
            v.length()
        };
        if speed < 1.0 {
            // Keep vertical speed so players can sink in water.
            self.state.velocity.x = 0.0;
            self.state.velocity.y = 0.0;
            return;
        }
        let p = self.params;
        let mut drop = 0.0;
        if self.state.water_level <= 1 && walking && !self.knocked_back() {
            drop += speed.max(p.stop_speed) * p.friction * self.dt;
        }
        if self.state.water_level > 0 {
            drop += speed * p.water_friction * f32::from(self.state.water_level) * self.dt;
        }
        let scale = (speed - drop).max(0.0) / speed;
        self.state.velocity *= scale;
    }

    /// Quake 3 `PM_CmdScale` over the ground moves (`up` only counts when
    /// swimming): scales -127..127 moves to speed without a diagonal bonus.
    pub(super) fn cmd_scale(&self, with_up: bool) -> f32 {
        let Input {
            forward, right, up, ..
        } = self.input;
        let up = if with_up { up } else { 0.0 };
        let max = forward.abs().max(right.abs()).max(up.abs());
        if max == 0.0 {
            return 0.0;
        }
        let total = (forward * forward + right * right + up * up).sqrt();
        self.params.speed * max / (127.0 * total)
    }
}

#[cfg(test)]
mod tests {
    use super::test_world::TestWorld;
    use super::*;

    #[test]
    fn bad_inputs_never_panic() {
        let world = TestWorld::room();
        let p = MoveParams::default();
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 24.1));
        let cmd = UserCmd {
            yaw: f32::NAN,
            pitch: f32::INFINITY,
            forward: -128,
            ..UserCmd::default()
        };
        for dt in [f32::NAN, -1.0, 0.0, 1e9, 0.016] {
            let _ = pmove(&mut s, &cmd, &world, &p, dt);
            assert!(s.origin.is_finite() && s.velocity.is_finite());
        }
        s.origin = Vec3::new(f32::NAN, 0.0, 0.0);
        s.velocity = Vec3::splat(f32::INFINITY);
        let out = pmove(&mut s, &cmd, &world, &p, 0.016);
        assert!(out.sanitised);
        assert!(s.origin.is_finite() && s.velocity.is_finite());
        let weird = MoveParams {
            speed: f32::NAN,
            bbox_max_z: -50.0,
            gravity: -5.0,
            ..p
        };
        let _ = pmove(&mut s, &cmd, &world, &weird, 0.016);
        assert!(s.origin.is_finite());
    }

    #[test]
    fn long_steps_are_split() {
        let world = TestWorld::room();
        let mut s = MoveState::new(Vec3::new(0.0, 0.0, 200.0));
        let out = pmove(
            &mut s,
            &UserCmd::default(),
            &world,
            &MoveParams::default(),
            0.2,
        );
        assert!(out.traces >= 4, "four pieces of 50 ms: {}", out.traces);
        // Falling for 0.2 s from rest: v = g t.
        assert!((s.velocity.z + 160.0).abs() < 0.01, "{}", s.velocity.z);
    }

    #[test]
    fn cmd_scale_has_no_diagonal_bonus() {
        let world = TestWorld::room();
        let p = MoveParams::default();
        let mut s = MoveState::new(Vec3::ZERO);
        let cmd = UserCmd {
            forward: 127,
            right: 127,
            ..UserCmd::default()
        };
        let m = Move::new(&mut s, &cmd, &world, &p, 0.016);
        let wish = (m.flat_forward * 127.0 + m.right * 127.0).length() * m.cmd_scale(false);
        assert!((wish - 320.0).abs() < 1e-3, "{wish}");
    }
}
