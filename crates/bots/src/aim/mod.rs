//! The aim model: where the bot believes its target is, where it must
//! point to hit it, and how its view gets there, tick by tick.
//!
//! 1. **Belief** moves with the seen motion and is pulled toward the truth
//!    with the `aimTrackTimeConst` time constant while the target is seen,
//!    as a pursuing eye predicts a steady motion (smooth pursuit keeps a
//!    steadily moving target near the fovea rather than trailing it by its
//!    speed times a delay); what the hand misses comes from the changes of
//!    motion it notices late, its own error and tracking lag. While the
//!    target is not seen, the belief drifts along the seen motion with
//!    fading confidence. A fresh acquisition snaps the belief to the truth.
//! 2. **Seen motion** ([`motion`]): the target's velocity as the aim
//!    follows it. A change of motion (a turn over about 30 degrees, a
//!    stop, a start) is noticed only after `aimRetargetMsec`; until then
//!    the belief follows the old motion, and when it is noticed the
//!    hand's error opens by how far that carried it.
//! 3. **The hand's error** ([`hand`]): an angular offset held between
//!    corrections, opened on acquisition (past the target on large turns,
//!    short on small ones) and closed by a random share at each
//!    correction step, one per `aimCorrectMsec`, each landing off by a
//!    random amount in proportion to the target's angular speed
//!    (`aimPursuitError`). An error small enough to hit anyway (inside
//!    `aimSlack` of the target's angular radius) is left alone. The bot
//!    believes the target is where the error puts it, so it fires there.
//! 4. **Lead** for projectile weapons: the seen velocity (minus a share of
//!    the bot's own, a low-skill error) times flight time, plus gravity
//!    compensation, over a few iterations, scaled by `aimLead`; the
//!    per-shot `aimLeadError` roll scales the sideways part fully and the
//!    part along the line of sight by a third, so the error grows with the
//!    target's sideways speed and the projectile's flight time. Hitscan
//!    weapons are not led.
//! 5. **Tracking error**: the low-passed angular speed of the aim point
//!    pushes the aim back against the motion (`aimTrackError`).
//! 6. **Tremor**: two sine octaves per axis, phases seeded per bot, so bots
//!    never shake in step.
//! 7. **Turn**: a second-order spring per axis (natural frequency
//!    `turnAccel/turnSpeed`, damping `turnDamping`, speed cap
//!    `turnSpeed`, at most [`MAX_TURN_PER_TICK_DEG`] a tick) with the aim
//!    point's own angular speed fed forward, so low skill overshoots and
//!    every skill can follow a moving target within its turn rate.
//!
//! Range needs no rule of its own: the errors are angles, so a farther
//! target, smaller in angle, is missed more, and the fire gate
//! (`trigger`) narrows with the target's angular size.
//!
//! Mistakes (lose tracking, mistimed shot, wrong weapon, late dodge) are
//! rolled on acquisition and while engaged, each bounded to `mistakeMsec`.
//!
//! Angles are Quake degrees: pitch positive looks down, yaw counter-clockwise
//! from +X. The module is pure: no world access, the RNG is passed in.

use glam::Vec3;

use crate::content::Traits;
use crate::rng::BotRng;
use crate::view::BotClock;

/// Lead iterations (flight time and aim point converge in a few; long lobs need more).
const LEAD_ITERATIONS: usize = 6;
/// Largest pitch the bot asks for.
const MAX_PITCH: f32 = 85.0;
/// Low-pass weight of the aim point's angular speed per tick.
const RATE_FILTER: f32 = 0.25;
/// Seconds after which an unseen target's believed motion stops being extrapolated.
const EXTRAPOLATE_S: f32 = 0.75;
/// The most the view turns in one tick, degrees (a hand's flick is at
/// most a few thousand degrees a second; no tick turns half around).
pub const MAX_TURN_PER_TICK_DEG: f32 = 45.0;
/// The half-width of a target whose box is unknown, units (Quake 3's player box).
pub(crate) const DEFAULT_TARGET_RADIUS: f32 = 15.0;
/// Share of the lead error roll applied along the line of sight (an
/// approaching or retreating target's speed is misjudged less in angle).
const RADIAL_LEAD_ERROR_SHARE: f32 = 1.0 / 3.0;

/// How a projectile flies, for leading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ballistics {
    /// Launch speed, units/s.
    pub speed: f32,
    /// Gravity it falls with, units/s² (0: flies straight).
    pub gravity: f32,
    /// Upward speed added by the weapon's lob (grenades), units/s.
    pub lift_speed: f32,
}

/// The point to aim at so a projectile from `eye` meets a target now at
/// `target` moving at `target_vel`. `lead` is the fraction of the correct
/// lead applied (the `aimLead` trait) and `roll` its per-shot error
/// multiplier (1.0 exact), applied fully to the sideways motion and by a
/// third to the motion along the line of sight. The shooter's own velocity leaks in by
/// `1 - lead` (low skill leads relative to its own motion).
pub fn lead_point(
    eye: Vec3,
    own_vel: Vec3,
    target: Vec3,
    target_vel: Vec3,
    b: &Ballistics,
    lead: f32,
    roll: f32,
) -> Vec3 {
    if b.speed <= 0.0 || !b.speed.is_finite() {
        return target;
    }
    let rel = target_vel - own_vel * (1.0 - lead.clamp(0.0, 1.0));
    let sight = (target - eye).normalize_or_zero();
    let along = sight * rel.dot(sight);
    let rel = (rel - along) * roll + along * (1.0 + (roll - 1.0) * RADIAL_LEAD_ERROR_SHARE);
    let mut flight = eye.distance(target) / b.speed;
    let mut aim = target;
    for _ in 0..LEAD_ITERATIONS {
        let t = flight.min(3.0);
        let ahead = rel * t * lead;
        let drop = Vec3::Z * ((0.5 * b.gravity * t * t - b.lift_speed * t) * lead);
        aim = target + ahead + drop;
        flight = eye.distance(aim) / b.speed;
    }
    aim
}

/// `point` as seen from `eye` turned by `offset` (pitch, yaw degrees), at
/// the same distance: where a hand off by `offset` believes it is.
pub fn offset_point(eye: Vec3, point: Vec3, offset: (f32, f32)) -> Vec3 {
    let Some((pitch, yaw)) = angles_to(eye, point) else { return point };
    if offset == (0.0, 0.0) {
        return point;
    }
    let pitch = (pitch + offset.0).clamp(-89.0, 89.0);
    eye + crate::perception::forward(pitch, yaw + offset.1) * eye.distance(point)
}

/// How fast (pitch, yaw degrees/s) a point at `point` moving at `vel`
/// crosses the view of an eye at `eye`.
pub fn angular_speed(eye: Vec3, point: Vec3, vel: Vec3) -> (f32, f32) {
    let d = point - eye;
    let flat = d.truncate().length();
    if flat < 1.0 {
        return (0.0, 0.0);
    }
    // Yaw: the horizontal velocity across the line of sight over the
    // horizontal distance; pitch: the vertical velocity over the distance.
    let across = Vec3::new(-d.y, d.x, 0.0) / flat;
    let yaw = vel.dot(across) / flat;
    let pitch = vel.z * flat / d.length_squared().max(1.0);
    (pitch.to_degrees(), yaw.to_degrees())
}

/// Pitch and yaw (degrees) looking from `from` to `to`; `None` if they coincide.
pub fn angles_to(from: Vec3, to: Vec3) -> Option<(f32, f32)> {
    let d = to - from;
    let flat = (d.x * d.x + d.y * d.y).sqrt();
    if flat < 1e-4 && d.z.abs() < 1e-4 {
        return None;
    }
    let yaw = d.y.atan2(d.x).to_degrees();
    let pitch = (-d.z).atan2(flat).to_degrees();
    Some((pitch, yaw))
}

/// The shortest signed difference `to - from` between two angles, in -180..180.
pub fn angle_diff(to: f32, from: f32) -> f32 {
    let mut d = (to - from) % 360.0;
    if d > 180.0 {
        d -= 360.0;
    } else if d < -180.0 {
        d += 360.0;
    }
    d
}

/// Wraps an angle into -180..180.
pub fn normalize_angle(a: f32) -> f32 {
    angle_diff(a, 0.0)
}

/// A deliberate error, bounded in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MistakeKind {
    /// The belief freezes: the aim stops following.
    LoseTracking,
    /// The settle requirement is skipped: a hasty shot.
    MistimedShot,
    /// Weapon re-evaluation is skipped: keeps what is in hand.
    WrongWeapon,
    /// Dodges start twice as late.
    LateDodge,
}

/// The mistake in force, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mistakes {
    current: Option<(MistakeKind, u32)>,
    next_roll: u32,
}

impl Mistakes {
    /// Rolls for a mistake now (on a fresh acquisition, or when the
    /// interval has passed while engaged).
    pub fn roll(&mut self, t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        self.next_roll = clock.after_ms(t.mistake_msec);
        if rng.chance(t.mistake_chance) {
            let kind = match rng.below(4) {
                0 => MistakeKind::LoseTracking,
                1 => MistakeKind::MistimedShot,
                2 => MistakeKind::WrongWeapon,
                _ => MistakeKind::LateDodge,
            };
            self.current = Some((kind, clock.after_ms(t.mistake_msec)));
        }
    }

    /// Rolls again if engaged and the interval has passed.
    pub fn update(&mut self, engaged: bool, t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        if engaged && clock.tick >= self.next_roll {
            self.roll(t, clock, rng);
        }
    }

    /// Whether `kind` is in force.
    pub fn active(&self, kind: MistakeKind, clock: &BotClock) -> bool {
        self.current.is_some_and(|(k, until)| k == kind && clock.tick < until)
    }

    /// Forgets any mistake.
    pub fn clear(&mut self) {
        *self = Self::default();
    }
}

/// What the aim should look at this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AimTarget {
    /// An enemy: its true aim point now (world), its velocity, whether it is
    /// seen this tick and how long it has been unseen.
    Enemy {
        /// The point on the body to hit.
        point: Vec3,
        /// Its velocity (last seen when unseen).
        velocity: Vec3,
        /// Seen this tick.
        visible: bool,
        /// Seconds unseen (0 when visible).
        unseen_s: f32,
        /// A fresh acquisition: the belief snaps to the truth.
        fresh: bool,
    },
    /// A place to look at (the next corner, a sound).
    Point(Vec3),
    /// Nothing in particular: keep the current view.
    Keep,
}

/// The view the bot is steering, and its aim belief.
#[derive(Debug, Clone, PartialEq)]
pub struct AimState {
    /// Current view pitch, degrees.
    pub pitch: f32,
    /// Current view yaw, degrees.
    pub yaw: f32,
    /// Current pitch speed, degrees/s.
    pub pitch_rate: f32,
    /// Current yaw speed, degrees/s.
    pub yaw_rate: f32,
    /// Believed target point.
    pub belief: Option<Vec3>,
    /// The point the view is steering to (belief plus lead), for the trigger.
    pub aim_point: Option<Vec3>,
    /// Low-passed angular speed of the aim point (pitch, yaw), degrees/s.
    point_rate: (f32, f32),
    last_desired: Option<(f32, f32)>,
    /// The lead error multiplier of this engagement/burst/shot.
    pub lead_roll: f32,
    /// How far the held weapon scatters its rounds off the aim line,
    /// degrees (0 for one round on the line): an error within the body
    /// less this still hits with every round (`Gunner::turn` sets it).
    pub spread_deg: f32,
    /// The hand's aim error.
    pub hand: HandError,
    /// The target's motion as the aim follows it.
    pub motion: SeenMotion,
    phases: [f32; 4],
}

impl AimState {
    /// A view at `pitch`/`yaw`; `slot` seeds the tremor phases.
    pub fn new(pitch: f32, yaw: f32, slot: u8) -> Self {
        let base = (f32::from(slot) + 1.0) * 1.7;
        Self {
            pitch,
            yaw,
            pitch_rate: 0.0,
            yaw_rate: 0.0,
            belief: None,
            aim_point: None,
            point_rate: (0.0, 0.0),
            last_desired: None,
            lead_roll: 1.0,
            spread_deg: 0.0,
            hand: HandError::default(),
            motion: SeenMotion::default(),
            phases: [base, base + 2.3, base + 4.6, base + 6.9],
        }
    }

    /// Starts a new engagement: forgets the belief and the rate filter and
    /// rolls the lead error.
    pub fn engage(&mut self, t: &Traits, rng: &mut BotRng) {
        self.belief = None;
        self.point_rate = (0.0, 0.0);
        self.last_desired = None;
        self.reroll_lead(t, rng);
    }

    /// Rolls a new lead error (after a shot or at a new burst).
    pub fn reroll_lead(&mut self, t: &Traits, rng: &mut BotRng) {
        self.lead_roll = 1.0 + rng.signed() * t.aim_lead_error;
    }

    /// The view's angular speed, degrees/s.
    pub fn slew_rate(&self) -> f32 {
        (self.pitch_rate * self.pitch_rate + self.yaw_rate * self.yaw_rate).sqrt()
    }

    /// Advances the view one tick toward `target`. `ballistics` is the held
    /// weapon's projectile (None for hitscan and melee). Returns the view
    /// angles to put in the command.
    #[expect(
        clippy::too_many_arguments,
        reason = "one call per tick with everything the model reads"
    )]
    pub fn update(
        &mut self,
        target: AimTarget,
        eye: Vec3,
        own_vel: Vec3,
        ballistics: Option<&Ballistics>,
        t: &Traits,
        frozen: bool,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> (f32, f32) {
        let dt = clock.dt().clamp(0.001, 0.1);
        let point = self.believe(target, eye, own_vel, ballistics, t, frozen, clock, rng);
        let desired = point.and_then(|p| angles_to(eye, p)).unwrap_or((self.pitch, self.yaw));
        let goal = self.goal_angles(desired, t, dt, clock);
        self.turn(goal, t, dt);
        debug_assert!(
            self.pitch.is_finite() && self.yaw.is_finite(),
            "aim produced a non-finite angle"
        );
        if !(self.pitch.is_finite() && self.yaw.is_finite()) {
            *self = Self::new(0.0, 0.0, 0);
        }
        (self.pitch, self.yaw)
    }

    /// Belief, lead and the hand's error: the point to steer the view to
    /// this tick (`None`: keep the view). An enemy's belief lags (or
    /// follows the old motion, or drifts while unseen, or stays with a
    /// lose-tracking mistake), is led for projectiles and is off by the
    /// hand's error.
    #[expect(
        clippy::too_many_arguments,
        reason = "the belief step of one update with what it reads"
    )]
    fn believe(
        &mut self,
        target: AimTarget,
        eye: Vec3,
        own_vel: Vec3,
        ballistics: Option<&Ballistics>,
        t: &Traits,
        frozen: bool,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Option<Vec3> {
        let dt = clock.dt().clamp(0.001, 0.1);
        match target {
            AimTarget::Enemy {
                point,
                velocity,
                visible,
                unseen_s,
                fresh,
            } => {
                let belief = match self.belief {
                    Some(b) if !fresh => {
                        if frozen {
                            b
                        } else if visible {
                            self.follow(b, point, velocity, eye, t, clock, rng)
                        } else {
                            let confidence = (1.0 - unseen_s / EXTRAPOLATE_S).clamp(0.0, 1.0);
                            b + self.motion.velocity * dt * t.pursuit.min(1.0) * confidence
                        }
                    }
                    _ => {
                        self.motion = SeenMotion::start(velocity);
                        let turn = angles_to(eye, point)
                            .map_or((0.0, 0.0), |(p, y)| (angle_diff(p, self.pitch), angle_diff(y, self.yaw)));
                        self.hand.acquire(turn, t, clock, rng);
                        point
                    }
                };
                self.belief = Some(belief);
                // What still hits with every round: the body's angular
                // radius less the held weapon's scatter.
                let radius_deg = ((DEFAULT_TARGET_RADIUS / eye.distance(belief).max(1.0)).atan().to_degrees() - self.spread_deg).max(0.0);
                self.hand.update(angular_speed(eye, belief, self.motion.velocity - own_vel), radius_deg, t, clock, rng);
                let led = match ballistics {
                    Some(b) => lead_point(eye, own_vel, belief, self.motion.velocity, b, t.aim_lead, self.lead_roll),
                    None => belief,
                };
                let aimed = offset_point(eye, led, self.hand.offset);
                self.aim_point = Some(aimed);
                Some(aimed)
            }
            AimTarget::Point(p) => {
                self.forget();
                Some(p)
            }
            AimTarget::Keep => {
                self.forget();
                None
            }
        }
    }

    /// One tick of following a seen target from belief `b`: the old motion
    /// while a change is not yet noticed, a jump to the truth (and an
    /// opened error) when it is, otherwise the seen motion with a pull
    /// toward the truth.
    #[expect(clippy::too_many_arguments, reason = "one step of the belief with what it reads")]
    fn follow(&mut self, b: Vec3, point: Vec3, velocity: Vec3, eye: Vec3, t: &Traits, clock: &BotClock, rng: &mut BotRng) -> Vec3 {
        let dt = clock.dt().clamp(0.001, 0.1);
        match self.motion.update(velocity, t, clock, rng) {
            Watch::Noticed => {
                if let (Some(was), Some(is)) = (angles_to(eye, b), angles_to(eye, point)) {
                    self.hand.reopen((angle_diff(was.0, is.0), angle_diff(was.1, is.1)), t, clock, rng);
                }
                point
            }
            Watch::Following if self.motion.behind() => b + self.motion.velocity * dt,
            Watch::Following => {
                // Carried by the seen motion, then pulled toward the truth.
                let carried = b + self.motion.velocity * dt;
                carried + (point - carried) * (1.0 - (-dt / t.aim_track_time_const.max(0.01)).exp())
            }
        }
    }

    /// Nothing to track: no belief, no error, no motion.
    fn forget(&mut self) {
        self.belief = None;
        self.aim_point = None;
        self.hand.clear();
        self.motion = SeenMotion::default();
    }

    /// The angles the spring steers to: the `desired` angles less the
    /// tracking error (lag behind the aim point's low-passed angular
    /// speed), plus tremor.
    fn goal_angles(&mut self, desired: (f32, f32), t: &Traits, dt: f32, clock: &BotClock) -> (f32, f32) {
        // Angular speed of the aim point (for feed-forward and tracking error).
        let raw = match self.last_desired {
            Some((lp, ly)) => (angle_diff(desired.0, lp) / dt, angle_diff(desired.1, ly) / dt),
            None => (0.0, 0.0),
        };
        self.last_desired = Some(desired);
        let cap = 2.0 * t.turn_speed;
        let raw = (raw.0.clamp(-cap, cap), raw.1.clamp(-cap, cap));
        self.point_rate.0 += (raw.0 - self.point_rate.0) * RATE_FILTER;
        self.point_rate.1 += (raw.1 - self.point_rate.1) * RATE_FILTER;
        // Tracking error: lag behind the motion, aimTrackError degrees per 100 deg/s.
        let lag = t.aim_track_error * 0.01;
        let mut goal = (desired.0 - self.point_rate.0 * lag, desired.1 - self.point_rate.1 * lag);
        // Tremor: two octaves, phases per bot.
        let w = std::f32::consts::TAU * t.aim_tremor_rate_hz;
        let s = clock.seconds();
        let [p0, p1, p2, p3] = self.phases;
        goal.0 += t.aim_tremor_deg * (0.65 * (w * s + p0).sin() + 0.35 * (2.37 * w * s + p1).sin());
        goal.1 += t.aim_tremor_deg * (0.65 * (w * s + p2).sin() + 0.35 * (2.37 * w * s + p3).sin());
        goal
    }

    /// The spring, per axis: turns the view toward `goal` with the aim
    /// point's angular speed fed forward; pitch stops at the limit.
    fn turn(&mut self, goal: (f32, f32), t: &Traits, dt: f32) {
        let wn = (t.turn_accel / t.turn_speed.max(1.0)).min(0.5 / dt);
        let zeta = t.turn_damping;
        let step = |angle: f32, rate: f32, goal: f32, ff: f32| {
            let err = angle_diff(goal, angle);
            let accel = wn * wn * err + 2.0 * zeta * wn * (ff - rate);
            let rate = (rate + accel * dt).clamp(-t.turn_speed, t.turn_speed);
            let turn = (rate * dt).clamp(-MAX_TURN_PER_TICK_DEG, MAX_TURN_PER_TICK_DEG);
            (normalize_angle(angle + turn), rate)
        };
        let (yaw, yaw_rate) = step(self.yaw, self.yaw_rate, goal.1, self.point_rate.1);
        let (mut pitch, mut pitch_rate) = step(self.pitch, self.pitch_rate, goal.0, self.point_rate.0);
        if pitch.abs() > MAX_PITCH {
            pitch = pitch.clamp(-MAX_PITCH, MAX_PITCH);
            pitch_rate = 0.0;
        }
        self.pitch = pitch;
        self.yaw = yaw;
        self.pitch_rate = pitch_rate;
        self.yaw_rate = yaw_rate;
    }

    /// The unit view direction.
    pub fn forward(&self) -> Vec3 {
        crate::perception::forward(self.pitch, self.yaw)
    }
}

pub mod bands;
mod gunner;
pub mod hand;
pub mod motion;

pub use gunner::{Gunner, Pull, enemy_aim_target};
use hand::HandError;
use motion::{SeenMotion, Watch};

#[cfg(test)]
mod tests;
