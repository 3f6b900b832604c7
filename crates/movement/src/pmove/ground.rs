//! On the ground: walking (Quake 3 `PM_WalkMove`), jumping
//! (`PM_CheckJump`), the ground trace that decides standing, landing,
//! stepping down and leaving the ground (`PM_GroundTrace`,
//! `PM_CrashLand`), getting out of solid (`PM_CorrectAllSolid`), and
//! footsteps (`PM_Footsteps`).

use glam::Vec3;

use super::Move;
use super::output::{FallSeverity, MoveEvent};
use super::slide::{OVERCLIP, clip_velocity};
use super::state::Ground;

/// How far below the box the ground is looked for, units (Quake 3: 0.25).
const GROUND_PROBE: f32 = 0.25;

/// Moving up into the ground plane faster than this (units/s) throws the
/// player off it (Quake 3 "kickoff": jump pads, explosions, ramp crests).
const KICKOFF_SPEED: f32 = 10.0;

/// Landing faster than this downward (units/s) starts the landing timer
/// (Quake 3: "don't do landing time if we were just going down a slope").
const HARD_LANDING_SPEED: f32 = 200.0;

/// How long the landing timer runs, seconds (Quake 3: 250 ms).
const LANDING_TIME: f32 = 0.25;

/// A step up or down of more than this is reported, units (Quake 3 `EV_STEP_*`).
pub(super) const STEP_EVENT_HEIGHT: f32 = 2.0;

/// Footstep cycle lengths in seconds: running, walking, crouched (Quake 3
/// `bobmove` 0.4, 0.3 and 0.5 of a 256-step cycle per millisecond).
const STEP_CYCLE: (f32, f32, f32) = (0.64, 256.0 / 300.0, 0.512);

impl Move<'_> {
    /// Walking on walkable ground.
    pub(super) fn walk_move(&mut self) {
        let normal = self.state.ground.map_or(Vec3::Z, |g| g.normal);
        if self.state.water_level > 2 && self.forward.dot(normal) > 0.0 {
            // Deep enough and looking off the bottom: swim.
            self.water_move();
            return;
        }
        if self.check_jump() {
            if self.state.water_level > 1 {
                self.water_move();
            } else {
                self.air_move();
            }
            return;
        }
        self.friction();

        let p = self.params;
        let scale = self.cmd_scale(false);
        // The wish direction lies in the ground plane, so slopes are walked
        // at full speed up and down.
        let forward = clip_velocity(self.flat_forward, normal, OVERCLIP).normalize_or_zero();
        let right = clip_velocity(self.right, normal, OVERCLIP).normalize_or_zero();
        let wish = forward * self.input.forward + right * self.input.right;
        let (wish_dir, mut wish_speed) = (wish.normalize_or_zero(), wish.length() * scale);
        if self.state.crouched {
            wish_speed = wish_speed.min(p.speed * p.crouch_scale);
        }
        if self.input.walk {
            wish_speed = wish_speed.min(p.speed * p.walk_scale);
        }
        if self.state.water_level > 0 {
            // Wading: from full speed down to the swim speed at level 3.
            let depth = f32::from(self.state.water_level) / 3.0;
            wish_speed = wish_speed.min(p.speed * (1.0 - (1.0 - p.swim_scale) * depth));
        }
        let accel = if self.knocked_back() {
            p.air_accelerate
        } else {
            p.accelerate
        };
        self.accelerate(wish_dir, wish_speed, accel);
        if self.knocked_back() {
            self.state.velocity.z -= p.gravity * self.dt;
        }

        // Follow the ground plane without losing speed.
        let speed = self.state.velocity.length();
        self.state.velocity =
            clip_velocity(self.state.velocity, normal, OVERCLIP).normalize_or_zero() * speed;
        // Standing or walking, stay on ground that drops away by less than
        // a step (stairs, ramps, a platform going down).
        self.may_step_down = true;
        if self.state.velocity.x == 0.0 && self.state.velocity.y == 0.0 {
            return;
        }
        self.step_slide_move(false);
    }

    /// Starts a jump on a fresh press of the jump button. Returns whether it did.
    fn check_jump(&mut self) -> bool {
        if !self.input.jump || self.state.jump_held {
            return false;
        }
        self.state.jump_held = true;
        self.state.ground = None;
        self.state.velocity.z = self.params.jump_velocity;
        self.out.push(MoveEvent::Jumped);
        true
    }

    /// Drops the stored ground when the velocity leaves it (a jump pad or
    /// knockback applied by the caller since the last move).
    pub(super) fn check_kickoff(&mut self) {
        if let Some(g) = self.state.ground
            && self.state.velocity.z > 0.0
            && self.state.velocity.dot(g.normal) > KICKOFF_SPEED
        {
            self.state.ground = None;
        }
    }

    /// The one ground trace of a move. With `step_down` (a walk that did
    /// not jump) it reaches `pm_stepsize` deeper and snaps onto walkable
    /// ground found there; with `report`, landings become events.
    pub(super) fn ground_trace(&mut self, step_down: bool, report: bool) {
        let depth = if step_down {
            GROUND_PROBE + self.params.step_size
        } else {
            GROUND_PROBE
        };
        let start = self.state.origin;
        let mut tr = self.trace(start, start - Vec3::Z * depth);
        if tr.all_solid {
            if !self.unstick() {
                self.state.ground = None;
                return;
            }
            let start = self.state.origin;
            tr = self.trace(start, start - Vec3::Z * GROUND_PROBE);
            if tr.all_solid {
                self.state.ground = None;
                return;
            }
        }
        if !tr.hit() {
            self.state.ground = None;
            return;
        }
        let dropped = self.state.origin.z - tr.end.z;
        if dropped > GROUND_PROBE && !self.params.walkable(tr.normal) {
            // Only a step down reaches this deep, and only onto walkable ground.
            self.state.ground = None;
            return;
        }
        if self.state.velocity.z > 0.0 && self.state.velocity.dot(tr.normal) > KICKOFF_SPEED {
            self.state.ground = None;
            return;
        }
        let walkable = self.params.walkable(tr.normal);
        self.state.ground = Some(Ground {
            normal: tr.normal,
            walkable,
            entity: tr.entity,
        });
        if !walkable {
            return;
        }
        if dropped > STEP_EVENT_HEIGHT {
            self.out.push(MoveEvent::SteppedDown { height: dropped });
        }
        // Rest on the ground (Quake 3 hovers up to the probe depth above it).
        self.state.origin = tr.end;
        self.state.water_jump_time = 0.0;
        self.out.touch(tr.entity);
        let into = self.state.velocity.dot(tr.normal);
        // Swimming up off the bottom gathers speed a little a tick (water
        // acceleration against the speed already along the wish): kept, as
        // Quake 3 keeps it, until it passes the kick-off speed and the
        // swimmer leaves the bottom.
        let rising_in_water = into > 0.0 && self.state.water_level > 1;
        if into != 0.0 && !rising_in_water {
            // Move along the ground exactly. Quake 3 keeps a speed into ground
            // found by the probe (which its walk move turns into a bounce that
            // never settles) and the overclip's slight lift off it.
            self.state.velocity = clip_velocity(self.state.velocity, tr.normal, 1.0);
        }
        if report && !self.started_on_ground {
            self.crash_land();
            if self.previous_velocity.z < -HARD_LANDING_SPEED {
                self.state.land_time = LANDING_TIME;
            }
        }
    }

    /// Reports a landing with the exact impact speed (Quake 3 `PM_CrashLand`:
    /// the fall during this move is solved for the speed at contact).
    fn crash_land(&mut self) {
        let dist = self.state.origin.z - self.previous_origin.z;
        let v = self.previous_velocity.z;
        let a = -self.params.gravity / 2.0;
        let den = v * v - 4.0 * a * -dist;
        let impact = if a == 0.0 || den < 0.0 {
            v
        } else {
            let t = (-v - den.sqrt()) / (2.0 * a);
            v + t * 2.0 * a
        };
        let impact_speed = (-impact).max(0.0);
        self.out.push(MoveEvent::Landed { impact_speed });
        let mut delta = impact * impact * 0.0001;
        if self.state.crouched {
            delta *= 2.0;
        }
        delta *= match self.state.water_level {
            0 => 1.0,
            1 => 0.5,
            2 => 0.25,
            _ => 0.0,
        };
        match FallSeverity::from_delta(delta) {
            Some(severity) => self.out.push(MoveEvent::Fall(severity)),
            None if delta >= 1.0 && self.state.water_level == 0 => {
                self.out.push(MoveEvent::Footstep)
            }
            None => {}
        }
        self.state.step_phase = 0.0;
    }

    /// Nudges a box that is stuck in solid to the nearest free spot, trying
    /// distances 1, 2, 4, 8 and `pm_stepsize` in 26 directions (upward
    /// first). Returns whether it is free now; sets `out.stuck` if not.
    pub(super) fn unstick(&mut self) -> bool {
        let origin = self.state.origin;
        let step = self.params.step_size.max(1.0);
        for radius in [1.0, 2.0, 4.0, 8.0, step] {
            for dz in [1.0, 0.0, -1.0] {
                for dy in [0.0, 1.0, -1.0] {
                    for dx in [0.0, 1.0, -1.0] {
                        if dx == 0.0 && dy == 0.0 && dz == 0.0 {
                            continue;
                        }
                        let candidate = origin + Vec3::new(dx, dy, dz) * radius;
                        if self.fits(candidate, self.mins, self.maxs) {
                            self.state.origin = candidate;
                            self.state.velocity.z = self.state.velocity.z.min(0.0);
                            self.out.unstuck = true;
                            return true;
                        }
                    }
                }
            }
        }
        self.out.stuck = true;
        false
    }

    /// Advances the footstep cycle while moving on the ground and reports a
    /// step at each half cycle: a footstep when running dry, a splash or a
    /// swim stroke in liquid (Quake 3 `PM_Footsteps`).
    pub(super) fn footsteps(&mut self) {
        if !self.state.on_ground() {
            return;
        }
        let horizontal_speed = self.state.velocity.truncate().length();
        if !self.input.moving() {
            if horizontal_speed < 5.0 {
                self.state.step_phase = 0.0;
            }
            return;
        }
        let (run, walk, crouch) = STEP_CYCLE;
        let quiet = self.state.crouched || self.input.walk;
        let cycle = if self.state.crouched {
            crouch
        } else if self.input.walk {
            walk
        } else {
            run
        };
        let old = self.state.step_phase;
        let new = old + self.dt / cycle.max(f32::EPSILON);
        self.state.step_phase = new.fract();
        // A step as the phase passes a quarter and three quarters of the cycle.
        let steps_before = |phase: f32| (phase * 2.0 - 0.5).floor();
        if steps_before(old) == steps_before(new) {
            return;
        }
        let event = match self.state.water_level {
            0 if !quiet => MoveEvent::Footstep,
            1 => MoveEvent::FootSplash,
            2 => MoveEvent::Swim,
            _ => return,
        };
        self.out.push(event);
    }
}
