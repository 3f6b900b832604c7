//! What pmove keeps about one player between moves ([`MoveState`]).

use glam::Vec3;
use quarry_map::{Contents, EntityId};

use super::params::MoveParams;
use crate::usercmd::wrap_half_turn;

/// How long a knockback disables friction at most, in seconds (Quake 3
/// `G_Damage`: twice the knockback in ms, clamped to 50..200).
pub const MAX_KNOCKBACK_TIME: f32 = 0.2;

/// How long a knockback disables friction at least, in seconds (see
/// [`MAX_KNOCKBACK_TIME`]).
pub const MIN_KNOCKBACK_TIME: f32 = 0.05;

/// Seconds of knockback time per unit/s of push: Quake 3 gives 2 ms per
/// point of knockback and pushes 5 units/s per point (`g_knockback` 1000
/// over mass 200), so 0.4 ms per unit/s.
pub const KNOCKBACK_TIME_PER_SPEED: f32 = 0.0004;

/// How long control is reduced after a teleport, in seconds (Quake 3
/// `TeleportPlayer`: 160 ms of `PMF_TIME_KNOCKBACK`).
pub const TELEPORT_TIME: f32 = 0.16;

/// The surface a player stands on (or leans on, when it is too steep).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ground {
    /// Unit normal of the surface, pointing up out of it.
    pub normal: Vec3,
    /// Whether the surface is walkable (`normal.z >= pm_minWalkNormal`). A
    /// player on a steep surface slides down it and cannot jump.
    pub walkable: bool,
    /// The brush entity stood on (a mover, a `func_wall`), `None` for the world.
    pub entity: Option<EntityId>,
}

/// The movement state of one player: everything pmove reads and writes
/// between moves. Plain data with no ECS types, so a client can keep one
/// for prediction.
///
/// # Contract
///
/// The caller owns the state and may change any public field between moves
/// (a jump pad sets `velocity`, a teleporter `origin`). Pmove notices an
/// `origin` it did not leave there and re-examines the ground and water
/// before moving, so a changed origin is safe; for the usual changes prefer
/// [`MoveState::teleport`], [`MoveState::launch`] and
/// [`MoveState::apply_knockback`], which also set the right timers.
/// Timers are in seconds and count down by `dt` each move. `mins`, `maxs`
/// and `view_height` are outputs: pmove sets them from the parameters every
/// move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveState {
    /// Position of the box origin, world space, units.
    pub origin: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// View yaw in degrees (counter-clockwise from +X): each command's yaw
    /// plus [`delta_yaw`](Self::delta_yaw).
    pub yaw: f32,
    /// View pitch in degrees (positive looks down): each command's pitch
    /// plus [`delta_pitch`](Self::delta_pitch), within ±90.
    pub pitch: f32,
    /// Quake 3's `delta_angles`: added to every command's angles. A spawn
    /// or a teleporter sets the view by setting these (the client's own
    /// angles go on from where its mouse is); clients and bots see them in
    /// their own state and send view angles minus these.
    pub delta_yaw: f32,
    /// The pitch part of the delta angles.
    pub delta_pitch: f32,
    /// The last command's own yaw, before the delta (what a new delta is
    /// worked out against).
    pub cmd_yaw: f32,
    /// The last command's own pitch.
    pub cmd_pitch: f32,
    /// The surface under the box after the last move, if any (walkable or not).
    pub ground: Option<Ground>,
    /// Whether the box is the crouched one.
    pub crouched: bool,
    /// Jump is held and has already been used: no jump until it is released.
    pub jump_held: bool,
    /// How deep the player is in liquid: 0 none, 1 feet, 2 waist, 3 head under.
    pub water_level: u8,
    /// The liquid at the feet (`WATER`, `SLIME` or `LAVA`), empty at level 0.
    pub liquid: Contents,
    /// Time left without ground friction and with air control only, after a hit.
    pub knockback_time: f32,
    /// Time left of the landing animation after a hard landing.
    pub land_time: f32,
    /// Time left since a teleport (for clients not to interpolate across it).
    pub teleport_time: f32,
    /// Time left of a jump out of water: no control until the player falls
    /// again or lands.
    pub water_jump_time: f32,
    /// A dead player gets no control but still falls and slides, in a low box.
    pub dead: bool,
    /// Where in the footstep cycle the player is, 0..1.
    pub step_phase: f32,
    /// The box of the last move, relative to `origin`.
    pub mins: Vec3,
    /// See `mins`.
    pub maxs: Vec3,
    /// Eye height above `origin` after the last move.
    pub view_height: f32,
    /// The origin pmove left the state at, if the ground and water fields
    /// describe it.
    settled_at: Option<Vec3>,
}

impl Default for MoveState {
    fn default() -> Self {
        Self::new(Vec3::ZERO)
    }
}

impl MoveState {
    /// A standing, still, living player at `origin` with the default box;
    /// the first move finds the ground and water under it.
    pub fn new(origin: Vec3) -> Self {
        let defaults = MoveParams::default();
        let (mins, maxs) = defaults.player_box();
        Self {
            origin,
            velocity: Vec3::ZERO,
            yaw: 0.0,
            pitch: 0.0,
            delta_yaw: 0.0,
            delta_pitch: 0.0,
            cmd_yaw: 0.0,
            cmd_pitch: 0.0,
            ground: None,
            crouched: false,
            jump_held: false,
            water_level: 0,
            liquid: Contents::empty(),
            knockback_time: 0.0,
            land_time: 0.0,
            teleport_time: 0.0,
            water_jump_time: 0.0,
            dead: false,
            step_phase: 0.0,
            mins,
            maxs,
            view_height: defaults.view_height,
            settled_at: None,
        }
    }

    /// A player just spawned at `origin` facing `yaw` degrees. Jump counts
    /// as held, so a jump button still down from before the spawn (say,
    /// from respawning with it) does not jump at once (Quake 3
    /// `PMF_RESPAWNED` does the same for all buttons).
    pub fn spawned(origin: Vec3, yaw: f32) -> Self {
        Self::respawned(origin, yaw, (0.0, 0.0))
    }

    /// The same, for a player whose last command's angles were `cmd`
    /// (pitch, yaw): the view faces `yaw` however its mouse lies.
    pub fn respawned(origin: Vec3, yaw: f32, cmd: (f32, f32)) -> Self {
        let mut s = Self { jump_held: true, ..Self::new(origin) };
        (s.cmd_pitch, s.cmd_yaw) = if cmd.0.is_finite() && cmd.1.is_finite() { cmd } else { (0.0, 0.0) };
        s.face(if yaw.is_finite() { yaw } else { 0.0 }, 0.0);
        s
    }

    /// Turns the view to `yaw` and `pitch` (Quake 3 `SetClientViewAngle`):
    /// the delta angles become the view minus the last command's angles,
    /// so the next command, turned from where it was, turns from here.
    pub fn face(&mut self, yaw: f32, pitch: f32) {
        if !(yaw.is_finite() && pitch.is_finite()) {
            return;
        }
        self.delta_yaw = (yaw - self.cmd_yaw).rem_euclid(360.0);
        self.delta_pitch = wrap_half_turn(pitch - self.cmd_pitch);
        self.yaw = yaw;
        self.pitch = pitch;
    }

    /// Takes a command's angles: the view is them plus the delta angles
    /// (yaw wrapped to 0..360, pitch held within ±90). A pitch held at the
    /// limit moves the delta so that it is the limit (Quake 3's
    /// `PM_UpdateViewAngles`): turning back then turns the view back at
    /// once, instead of first undoing the overshoot.
    pub(crate) fn take_angles(&mut self, cmd_pitch: f32, cmd_yaw: f32) {
        (self.cmd_pitch, self.cmd_yaw) = (cmd_pitch, cmd_yaw);
        let raw = wrap_half_turn(cmd_pitch + self.delta_pitch);
        if raw.abs() > 90.0 {
            self.delta_pitch = wrap_half_turn(90.0f32.copysign(raw) - cmd_pitch);
        }
        (self.pitch, self.yaw) = self.view_of(cmd_pitch, cmd_yaw);
    }

    /// The view (pitch, yaw) a command with these angles gives: plus the
    /// delta angles, yaw wrapped to 0..360, pitch wrapped to a half turn
    /// either way and held within ±90. What the player moves along and
    /// shoots along.
    pub fn view_of(&self, cmd_pitch: f32, cmd_yaw: f32) -> (f32, f32) {
        (wrap_half_turn(cmd_pitch + self.delta_pitch).clamp(-90.0, 90.0), (cmd_yaw + self.delta_yaw).rem_euclid(360.0))
    }

    /// Whether the player stands on walkable ground.
    pub fn on_ground(&self) -> bool {
        self.ground.is_some_and(|g| g.walkable)
    }

    /// The ground normal when on walkable ground.
    pub fn ground_normal(&self) -> Option<Vec3> {
        self.ground.filter(|g| g.walkable).map(|g| g.normal)
    }

    /// The box of the last move `(mins, maxs)`, relative to `origin`.
    pub fn bbox(&self) -> (Vec3, Vec3) {
        (self.mins, self.maxs)
    }

    /// The eye position: `origin` raised by `view_height`.
    pub fn eye(&self) -> Vec3 {
        self.origin + Vec3::Z * self.view_height
    }

    /// Moves the player to a teleporter's destination, leaving along
    /// `exit_velocity` (Quake 3: 400 units/s along the destination angle)
    /// and facing `yaw`, with [`TELEPORT_TIME`] of reduced control. The
    /// caller keeps the exit clear (telefrags).
    pub fn teleport(&mut self, destination: Vec3, exit_velocity: Vec3, yaw: f32) {
        if !destination.is_finite() {
            return;
        }
        self.origin = destination;
        self.velocity = if exit_velocity.is_finite() {
            exit_velocity
        } else {
            Vec3::ZERO
        };
        self.face(yaw, 0.0);
        self.ground = None;
        self.water_jump_time = 0.0;
        self.knockback_time = TELEPORT_TIME;
        self.teleport_time = TELEPORT_TIME;
        self.settled_at = None;
    }

    /// Launches the player (a jump pad): sets the velocity, usually from
    /// [`jump_pad_velocity`](super::jump_pad_velocity), and leaves the ground.
    pub fn launch(&mut self, velocity: Vec3) {
        if !velocity.is_finite() {
            return;
        }
        self.velocity = velocity;
        self.ground = None;
        self.water_jump_time = 0.0;
    }

    /// Adds a knockback `push` to the velocity (units/s) and removes ground
    /// friction for a time that grows with the push (Quake 3: 50 to 200 ms,
    /// [`KNOCKBACK_TIME_PER_SPEED`]). An upward push lifts the player off the
    /// ground on the next move.
    pub fn apply_knockback(&mut self, push: Vec3) {
        let time = push.length() * KNOCKBACK_TIME_PER_SPEED;
        self.apply_knockback_for(push, time.max(MIN_KNOCKBACK_TIME));
    }

    /// [`apply_knockback`](Self::apply_knockback) with an explicit time
    /// without friction, clamped to [`MAX_KNOCKBACK_TIME`].
    pub fn apply_knockback_for(&mut self, push: Vec3, time: f32) {
        if !push.is_finite() {
            return;
        }
        self.velocity += push;
        let time = if time.is_finite() {
            time.clamp(0.0, MAX_KNOCKBACK_TIME)
        } else {
            0.0
        };
        self.knockback_time = self.knockback_time.max(time);
    }

    /// Whether the ground and water fields describe the current origin.
    pub(super) fn is_settled(&self) -> bool {
        self.settled_at == Some(self.origin)
    }

    /// Records that the ground and water fields describe the current origin.
    pub(super) fn settle(&mut self) {
        self.settled_at = Some(self.origin);
    }

    /// Repairs non-finite values so a move can run: a non-finite origin goes
    /// back to where the last move left it (or the world origin), a
    /// non-finite velocity, angle or timer becomes zero, an absurd speed is
    /// capped at `max_speed`. Returns whether anything was repaired.
    pub(super) fn sanitise(&mut self, max_speed: f32) -> bool {
        let mut repaired = false;
        if !self.origin.is_finite() {
            self.origin = self
                .settled_at
                .filter(|o| o.is_finite())
                .unwrap_or(Vec3::ZERO);
            self.velocity = Vec3::ZERO;
            self.settled_at = None;
            repaired = true;
        }
        if !self.velocity.is_finite() {
            self.velocity = Vec3::ZERO;
            repaired = true;
        }
        if self.velocity.length_squared() > max_speed * max_speed {
            self.velocity = self.velocity.normalize_or_zero() * max_speed;
            repaired = true;
        }
        let timers = [
            &mut self.knockback_time,
            &mut self.land_time,
            &mut self.teleport_time,
            &mut self.water_jump_time,
        ];
        for t in timers
            .into_iter()
            .chain([&mut self.step_phase, &mut self.yaw, &mut self.pitch, &mut self.delta_yaw, &mut self.delta_pitch, &mut self.cmd_yaw, &mut self.cmd_pitch])
        {
            if !t.is_finite() {
                *t = 0.0;
                repaired = true;
            }
        }
        if let Some(g) = self.ground
            && !g.normal.is_finite()
        {
            self.ground = None;
            self.settled_at = None;
            repaired = true;
        }
        self.water_level = self.water_level.min(3);
        repaired
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delta_pitch_does_not_narrow_the_view_and_the_limit_moves_it() {
        let mut s = MoveState::new(Vec3::ZERO);
        s.take_angles(-30.0, 0.0);
        // A spawn levels the view: the delta is 30 degrees.
        s.face(0.0, 0.0);
        assert_eq!(s.delta_pitch, 30.0);
        // Looking 80 degrees up takes a command of -110: within reach.
        let mut cmd = crate::UserCmd { pitch: -80.0 - s.delta_pitch, ..crate::UserCmd::default() };
        assert_eq!(cmd.sanitise(), crate::usercmd::Sanitised::Clean);
        s.take_angles(cmd.pitch, cmd.yaw);
        assert!((s.pitch + 80.0).abs() < 0.01, "{}", s.pitch);
        // Past the limit the view holds at 90 and the delta moves, so
        // turning back 10 degrees turns the view back 10 degrees.
        s.take_angles(-150.0, 0.0);
        assert_eq!((s.pitch, s.delta_pitch), (-90.0, 60.0));
        s.take_angles(-140.0, 0.0);
        assert_eq!(s.pitch, -80.0);
    }

    #[test]
    fn sanitise_resets_non_finite_values() {
        let mut s = MoveState::new(Vec3::new(1.0, 2.0, 3.0));
        s.settle();
        s.origin.x = f32::NAN;
        s.velocity = Vec3::new(f32::INFINITY, 0.0, 0.0);
        s.knockback_time = f32::NAN;
        assert!(s.sanitise(1e5));
        assert_eq!(s.origin, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(s.velocity, Vec3::ZERO);
        assert_eq!(s.knockback_time, 0.0);
        s.velocity = Vec3::new(0.0, 1e9, 0.0);
        assert!(s.sanitise(1e5));
        assert!((s.velocity.length() - 1e5).abs() < 1.0);
        assert!(!s.sanitise(1e5), "a clean state stays untouched");
    }

    #[test]
    fn helpers_set_timers_and_leave_ground() {
        let mut s = MoveState::spawned(Vec3::ZERO, 90.0);
        assert!(s.jump_held && s.yaw == 90.0);
        s.ground = Some(Ground {
            normal: Vec3::Z,
            walkable: true,
            entity: None,
        });
        assert!(s.on_ground());
        s.apply_knockback(Vec3::new(0.0, 0.0, 100.0));
        assert_eq!(s.knockback_time, MIN_KNOCKBACK_TIME);
        s.apply_knockback(Vec3::new(0.0, 0.0, 1000.0));
        assert_eq!(s.knockback_time, MAX_KNOCKBACK_TIME);
        s.apply_knockback(Vec3::NAN);
        assert_eq!(s.velocity.z, 1100.0);
        s.launch(Vec3::new(0.0, 0.0, 600.0));
        assert!(!s.on_ground());
        s.settle();
        s.teleport(Vec3::new(5.0, 0.0, 0.0), Vec3::X * 400.0, 180.0);
        assert!(!s.is_settled());
        assert_eq!((s.teleport_time, s.yaw), (TELEPORT_TIME, 180.0));
        assert_eq!(s.bbox(), MoveParams::default().player_box());
    }
}
