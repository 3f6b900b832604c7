//! Movement while fighting: keeping a preferred range, strafing with a
//! rhythm, dodging hits and incoming projectiles, and not walking off
//! ledges or into walls while doing so.
//!
//! - Preferred range: the bot's `combatRange`, pulled toward the held
//!   weapon's own preferred range by `rangeDiscipline`. Too far: close in,
//!   eagerly with high aggression; too close: back off, eagerly with low
//!   aggression.
//! - Strafing: inside 1.5 times the preferred range the bot strafes with
//!   weight `strafeChance`, flipping side every `strafeRhythmMsec` plus a
//!   random extra. A dodge owns the side until it ends (flipping inside a
//!   dodge undoes it).
//! - Dodges: scheduled `dodgeReactMsec` after a hit (twice that with a
//!   late-dodge mistake) or half of it after seeing a projectile (in the
//!   bot's field of view) about to pass close, whatever its time to
//!   arrive: a round that lands before the bot reacts is not dodged, as a
//!   person cannot dodge a rocket fired from point blank; 700 ms long,
//!   with jumps by `jumpChance`.
//! - Safety: a changed direction is swept 72 units with the player box and
//!   needs floor under its end; an unsafe side is tried mirrored, then
//!   dropped.

use glam::Vec3;
use quarry_map::{Contents, Trace};
use quarry_nav::footing::{self, Footprint};
use quarry_sim::weapons::{WeaponDef, WeaponKind};

use crate::content::Traits;
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};
use crate::weapons::profile;

/// How long a dodge lasts, ms.
pub const DODGE_MS: f32 = 700.0;
/// How far ahead a direction is swept for safety, units.
pub const SAFETY_PROBE: f32 = 72.0;
/// Share of the probe the sweep must cover.
const SAFETY_SHARE: f32 = 0.72;
/// Floor normals flatter than this count as floor for the safety check.
const FLOOR_NORMAL_Z: f32 = 0.55;
/// Turn steps of [`safe_heading`]'s fan, degrees.
const SLIDE_STEP_DEG: u32 = 15;
/// Projectiles passing closer than this are dodged, units.
const THREAT_CLEARANCE: f32 = 60.0;
/// How far ahead in time projectiles are predicted, s.
const THREAT_HORIZON: f32 = 0.85;
/// Other players closer than this push the bot away, units.
const SEPARATION: f32 = 96.0;

/// The range to fight at with `weapon` in hand: the bot's own taste
/// (`combat_range`) pulled toward the weapon's preferred range by its
/// range discipline; a melee weapon's own range whatever the taste (it
/// hits nothing from further, so keeping off would only stand there).
pub fn preferred_range(t: &Traits, weapon: Option<&WeaponDef>) -> f32 {
    let weapon_range = weapon.map_or(NO_WEAPON_RANGE, |d| profile(d).preferred);
    if weapon.is_some_and(|d| d.kind == WeaponKind::Melee) {
        return weapon_range.max(32.0);
    }
    (t.combat_range + (weapon_range - t.combat_range) * t.range_discipline).max(32.0)
}

/// The preferred range assumed with nothing in hand, units.
const NO_WEAPON_RANGE: f32 = 500.0;

/// A scheduled or running dodge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dodge {
    /// +1 right of the threat direction, -1 left.
    pub side: f32,
    /// The direction the threat travels (horizontal unit).
    pub threat: Vec3,
    /// When it starts.
    pub start: u32,
    /// When it ends.
    pub end: u32,
    /// Jumps while dodging.
    pub jump: bool,
}

/// What combat movement wants this tick, in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CombatVector {
    /// -1 (back off) ..= 1 (close in), already weighted.
    pub approach: f32,
    /// Horizontal unit vector toward the foe.
    pub to_foe: Vec3,
    /// Sideways part (horizontal, length = weight).
    pub lateral: Vec3,
    /// Jump now (while dodging).
    pub jump: bool,
}

/// Strafing rhythm and dodges of one bot.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CombatMove {
    side: f32,
    next_flip: u32,
    /// The dodge, if one is scheduled or running.
    pub dodge: Option<Dodge>,
    safe_checked: u32,
    safe_side: Option<f32>,
    /// When the way back was last checked, and whether it was open.
    retreat_checked: u32,
    retreat_open: bool,
    /// Where the bot last stood on the ground (an airborne bot drifting
    /// over nothing steers back toward it).
    pub last_ground: Option<Vec3>,
    /// Where the bot stood at the last wedge sample, and when that was.
    wedge_sample: Option<(Vec3, u32)>,
    /// Wedge samples in a row with almost no movement.
    wedge_strikes: u8,
}

/// Fighting is sampled for being wedged this often, ms.
const WEDGE_SAMPLE_MS: f32 = 700.0;
/// Less movement than this between two samples is a wedge strike, units
/// (strafing covers over 100 units in a sample).
const WEDGE_MOVE: f32 = 16.0;

impl CombatMove {
    /// Forgets rhythm and dodge (a new life).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Whether the bot, fighting, has stood wedged (moving under
    /// [`WEDGE_MOVE`] units over two samples while meaning to move): the
    /// route's stuck detection must then run rather than be set aside.
    pub fn wedged(&mut self, me: &PlayerSnap, clock: &BotClock) -> bool {
        match self.wedge_sample {
            Some((_, tick)) if clock.ms_since(tick) < WEDGE_SAMPLE_MS => {}
            Some((at, _)) => {
                let moved = Vec3::new(me.origin.x - at.x, me.origin.y - at.y, 0.0).length();
                self.wedge_strikes = if moved < WEDGE_MOVE { self.wedge_strikes.saturating_add(1) } else { 0 };
                self.wedge_sample = Some((me.origin, clock.tick));
            }
            None => self.wedge_sample = Some((me.origin, clock.tick)),
        }
        self.wedge_strikes >= 2
    }

    /// Schedules a dodge from a threat travelling along `threat`, starting
    /// after `delay_ms`, unless one is already scheduled or running.
    pub fn schedule_dodge(&mut self, threat: Vec3, delay_ms: f32, t: &Traits, clock: &BotClock, rng: &mut BotRng) {
        if self.dodge.is_some_and(|d| clock.tick < d.end) {
            return;
        }
        let threat = Vec3::new(threat.x, threat.y, 0.0).normalize_or_zero();
        let start = clock.after_ms(delay_ms);
        self.dodge = Some(Dodge {
            side: rng.sign(),
            threat,
            start,
            end: start.saturating_add(clock.ticks_ms(DODGE_MS)),
            jump: rng.chance(t.jump_chance),
        });
    }

    /// Whether a dodge is running now.
    pub fn dodging(&self, clock: &BotClock) -> bool {
        self.dodge.is_some_and(|d| clock.tick >= d.start && clock.tick < d.end)
    }

    /// The combat movement against a foe at `foe` with preferred range `want`.
    pub fn vector(
        &mut self,
        me: &PlayerSnap,
        foe: Vec3,
        want: f32,
        t: &Traits,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> CombatVector {
        let flat = Vec3::new(foe.x - me.origin.x, foe.y - me.origin.y, 0.0);
        let range = flat.length();
        let to_foe = flat.normalize_or(Vec3::X);
        let want = want.max(32.0);
        let err = (range - want) / want;
        let willingness = if err > 0.0 {
            0.5 + t.aggression
        } else {
            1.5 - t.aggression
        };
        let approach = (2.0 * err).clamp(-1.0, 1.0) * t.range_discipline.max(0.15) * willingness;
        if clock.tick >= self.next_flip || self.side == 0.0 {
            if !self.dodging(clock) {
                self.side = if self.side == 0.0 { rng.sign() } else { -self.side };
            }
            let extra = rng.below(t.strafe_rhythm_variance_msec.max(0.0) as u32 + 1) as f32;
            self.next_flip = clock.after_ms(t.strafe_rhythm_msec + extra);
        }
        let perp = Vec3::new(-to_foe.y, to_foe.x, 0.0);
        let mut lateral = Vec3::ZERO;
        let mut jump = false;
        if let Some(d) = self.dodge.filter(|_| self.dodging(clock)) {
            // Dodge across the threat's path, or across the line to the foe.
            let across = if d.threat != Vec3::ZERO {
                Vec3::new(-d.threat.y, d.threat.x, 0.0)
            } else {
                perp
            };
            lateral = across * d.side * t.strafe_chance.max(0.85);
            jump = d.jump && me.on_ground;
        } else if range < 1.5 * want {
            lateral = perp * self.side * t.strafe_chance;
        }
        CombatVector {
            approach,
            to_foe,
            lateral,
            jump,
        }
    }

    /// Checks (at most every 100 ms) whether strafing on the current side
    /// is safe; flips to the mirrored side or gives up strafing if not.
    /// Returns the lateral vector to use.
    pub fn safe_lateral<T: Trace + ?Sized>(
        &mut self,
        lateral: Vec3,
        trace: &T,
        me: &PlayerSnap,
        clock: &BotClock,
    ) -> Vec3 {
        if lateral == Vec3::ZERO {
            return lateral;
        }
        let side = lateral.normalize_or_zero();
        if clock.tick >= self.safe_checked || self.safe_side.is_none() {
            self.safe_checked = clock.after_ms(100.0);
            self.safe_side = if move_is_safe(trace, me, side) {
                Some(1.0)
            } else if move_is_safe(trace, me, -side) {
                Some(-1.0)
            } else {
                Some(0.0)
            };
            if self.safe_side == Some(-1.0) {
                // Remember the working side for the strafe rhythm and the dodge.
                self.side = -self.side;
                if let Some(d) = self.dodge.as_mut() {
                    d.side = -d.side;
                }
                self.safe_side = Some(1.0);
                return -lateral;
            }
        }
        lateral * self.safe_side.unwrap_or(1.0)
    }
}

impl CombatMove {
    /// Whether backing away from the foe (along `-to_foe`) is open: a wall,
    /// a corner or a ledge behind means backing away would only stand
    /// there. Checked at most every 100 ms.
    pub fn can_back_off<T: Trace + ?Sized>(&mut self, trace: &T, me: &PlayerSnap, to_foe: Vec3, clock: &BotClock) -> bool {
        if clock.tick >= self.retreat_checked {
            self.retreat_checked = clock.after_ms(100.0);
            self.retreat_open = move_is_safe(trace, me, -to_foe);
        }
        self.retreat_open
    }
}

/// Whether moving along horizontal `dir` is safe: the player box gets at
/// least 72% of 72 units, and there is floor under where it ends that is
/// not under lava or slime.
pub fn move_is_safe<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3) -> bool {
    match sweep_ahead(trace, me, dir) {
        None => true,
        Some((_, sweep)) if sweep.start_solid || sweep.fraction < SAFETY_SHARE => false,
        Some((start, sweep)) => floor_along(trace, me, start, sweep.end),
    }
}

/// Whether the floor where moving along horizontal `dir` for up to 72
/// units carries the player box (to a wall, if one comes first) is there
/// and not under lava or slime: where momentum takes a bot. A wall ahead
/// is no danger here.
pub fn floor_ahead_is_safe<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3) -> bool {
    match sweep_ahead(trace, me, dir) {
        None => true,
        Some((_, sweep)) if sweep.start_solid => true,
        Some((start, sweep)) => floor_along(trace, me, start, sweep.end),
    }
}

/// [`floor_ahead_is_safe`] over `reach` units instead of the whole probe.
pub fn floor_within_is_safe<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3, reach: f32) -> bool {
    match sweep_ahead_by(trace, me, dir, reach) {
        None => true,
        Some((_, sweep)) if sweep.start_solid => true,
        Some((start, sweep)) => floor_along(trace, me, start, sweep.end),
    }
}

/// The heading nearest horizontal `dir` along which the floor is safe for
/// `reach` units ([`floor_within_is_safe`]): `dir` itself, else `dir`
/// turned by 15°, 30°, ... up to `max_deg` (the side turned to first is
/// the left with `first_left`), kept at `dir`'s length. `None` when every
/// heading in that fan leads off the floor. A bot walking at a drop's edge
/// slides along it instead of creeping over.
pub fn safe_heading<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3, reach: f32, max_deg: u32, first_left: bool) -> Option<Vec3> {
    let flat = Vec3::new(dir.x, dir.y, 0.0);
    if flat == Vec3::ZERO || floor_within_is_safe(trace, me, flat, reach) {
        return Some(dir);
    }
    let sign = if first_left { 1.0 } else { -1.0 };
    (1..=max_deg.min(180) / SLIDE_STEP_DEG)
        .flat_map(|k| [sign, -sign].map(|s| (s * (k * SLIDE_STEP_DEG) as f32).to_radians()))
        .map(|a| glam::Quat::from_rotation_z(a) * flat)
        .find(|h| floor_within_is_safe(trace, me, *h, reach))
}

/// The player box swept [`SAFETY_PROBE`] units along horizontal `dir`
/// from just above where it stands: the start and the trace; `None` for
/// no direction.
fn sweep_ahead<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3) -> Option<(Vec3, quarry_map::TraceResult)> {
    sweep_ahead_by(trace, me, dir, SAFETY_PROBE)
}

/// [`sweep_ahead`] over `reach` units.
fn sweep_ahead_by<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3, reach: f32) -> Option<(Vec3, quarry_map::TraceResult)> {
    let dir = Vec3::new(dir.x, dir.y, 0.0).normalize_or_zero();
    if dir == Vec3::ZERO {
        return None;
    }
    let start = me.origin + Vec3::Z * 2.0;
    Some((start, trace.trace(start, start + dir * reach, me.mins, me.maxs, Contents::MASK_PLAYER_SOLID)))
}

/// Whether there is floor under the box at a third, two thirds and the
/// whole of the way from `start` to `end` (a gap narrower than the probe
/// but wide enough to fall into is found).
fn floor_along<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, start: Vec3, end: Vec3) -> bool {
    [1.0 / 3.0, 2.0 / 3.0, 1.0].into_iter().all(|t| floor_under(trace, me, start.lerp(end, t)))
}

/// Whether there is floor a step or a short drop under the middle of the
/// box at `foot` (not just an edge of it: a box may stand with its centre
/// out over a drop, one slip from falling; a crack narrower than the box
/// is floor, see [`footing::middle_has_floor`]) that is not under lava or
/// slime.
fn floor_under<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, foot: Vec3) -> bool {
    let body = Footprint { half_width: me.maxs.x, min_z: me.mins.z, max_z: me.maxs.z };
    let mask = Contents::MASK_PLAYER_SOLID | Contents::LAVA | Contents::SLIME;
    footing::middle_has_floor(trace, foot + Vec3::Z * 12.0, 100.0, body, mask, |down| {
        let hurts = down.contents.intersects(Contents::LAVA | Contents::SLIME);
        down.fraction < 1.0 && down.normal.z >= FLOOR_NORMAL_Z && !down.all_solid && !hurts
    })
}

/// How far ahead of the takeoff a jump's landing is looked for (about a
/// running jump's length), units.
const JUMP_PROBE: f32 = 160.0;
/// Points along a jump's probe where floor is looked for (40 units apart).
const JUMP_FLOOR_SAMPLES: u32 = 4;
/// An airborne bot looks this far below where it is heading for floor (a
/// fall that hurts little and lands somewhere it can walk on from), units.
const AIR_FLOOR_DEPTH: f32 = 256.0;
/// Seconds ahead an airborne bot's position is predicted for that look.
const AIR_LOOKAHEAD_S: f32 = 0.25;

/// Whether a jump taken now, moving along `dir` (or the current run),
/// comes down on floor that is not under lava or slime: the box is swept
/// a running jump's length ahead (to a wall, if one comes first) and the
/// floor looked for all along under it (a hop from a walk comes down a
/// short way off, one at a run far off: both must find floor).
pub fn jump_landing_is_safe<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap, dir: Vec3) -> bool {
    let run = Vec3::new(me.velocity.x, me.velocity.y, 0.0);
    let way = (run.normalize_or_zero() + Vec3::new(dir.x, dir.y, 0.0).normalize_or_zero()).normalize_or_zero();
    if way == Vec3::ZERO {
        return true;
    }
    let start = me.origin + Vec3::Z * 2.0;
    let sweep = trace.trace(start, start + way * JUMP_PROBE, me.mins, me.maxs, Contents::MASK_PLAYER_SOLID);
    sweep.start_solid || (1..=JUMP_FLOOR_SAMPLES).all(|i| floor_under(trace, me, start.lerp(sweep.end, i as f32 / JUMP_FLOOR_SAMPLES as f32)))
}

/// Whether there is floor (not under lava or slime) within a long fall
/// below where an airborne bot will be in a quarter of a second.
pub fn floor_below_flight<T: Trace + ?Sized>(trace: &T, me: &PlayerSnap) -> bool {
    let ahead = me.origin + Vec3::new(me.velocity.x, me.velocity.y, 0.0) * AIR_LOOKAHEAD_S;
    let sweep = trace.trace(me.origin, ahead, me.mins, me.maxs, Contents::MASK_PLAYER_SOLID);
    let from = if sweep.start_solid { me.origin } else { sweep.end };
    let down = trace.trace(from, from - Vec3::Z * AIR_FLOOR_DEPTH, me.mins, me.maxs, Contents::MASK_PLAYER_SOLID | Contents::LAVA | Contents::SLIME);
    down.start_solid || (down.fraction < 1.0 && !down.contents.intersects(Contents::LAVA | Contents::SLIME))
}

/// The most urgent hostile projectile about to pass within clearance:
/// its travel direction and seconds to closest approach.
pub fn incoming_threat(view: &BotView<'_>, me: &PlayerSnap, fov_deg: f32) -> Option<(Vec3, f32)> {
    let center = me.center();
    let forward = crate::perception::forward(me.pitch, me.yaw);
    let mut best: Option<(Vec3, f32)> = None;
    for p in &view.projectiles {
        if p.owner == me.slot {
            continue;
        }
        // Only what the bot can see coming: a round behind it is not dodged.
        if !crate::perception::in_fov(forward, me.eye, p.origin, fov_deg) {
            continue;
        }
        if view.team_game && view.player(p.owner).is_some_and(|o| o.team == me.team) {
            continue;
        }
        let speed = p.velocity.length();
        if speed < 8.0 {
            continue;
        }
        let rel = p.origin - center;
        let rel_vel = p.velocity - me.velocity;
        let reach = speed * THREAT_HORIZON + me.velocity.length() * THREAT_HORIZON + THREAT_CLEARANCE;
        if rel.length_squared() > reach * reach {
            continue;
        }
        let vv = rel_vel.length_squared().max(1e-3);
        let t = (-rel.dot(rel_vel) / vv).clamp(0.0, THREAT_HORIZON);
        if t <= 0.0 {
            continue;
        }
        let closest = (rel + rel_vel * t).length();
        if closest <= THREAT_CLEARANCE && best.is_none_or(|b| t < b.1) {
            best = Some((p.velocity / speed, t));
        }
    }
    best
}

/// A push away from players closer than 96 units.
pub fn separation(view: &BotView<'_>, me: &PlayerSnap) -> Vec3 {
    let mut push = Vec3::ZERO;
    for p in view.iter_players() {
        if p.slot == me.slot || !p.alive {
            continue;
        }
        let d = Vec3::new(me.origin.x - p.origin.x, me.origin.y - p.origin.y, 0.0);
        let len = d.length();
        if len < SEPARATION && len > 0.01 {
            push += d / len * ((SEPARATION - len) / SEPARATION) * 0.75;
        }
    }
    push
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_map::{LoadOptions, LoadedMap, load_str};
    use quarry_sim::Team;

    fn me(origin: Vec3) -> PlayerSnap {
        PlayerSnap::standing(0, Team::Free, origin)
    }

    fn block(lo: Vec3, hi: Vec3) -> String {
        quarry_map::source::box_brush(lo, hi, "quarry/wall")
    }

    #[test]
    fn a_bot_standing_still_while_fighting_is_wedged_after_two_samples() {
        let clock = |tick| BotClock { tick, hz: 60 };
        let mut c = CombatMove::default();
        let here = me(Vec3::ZERO);
        // Strafing: more than 16 units between samples.
        for k in 0..6u32 {
            let moving = me(Vec3::new(100.0 * k as f32, 0.0, 0.0));
            assert!(!c.wedged(&moving, &clock(42 * k)));
        }
        // Standing against a wall: the second still sample says wedged.
        let mut c = CombatMove::default();
        assert!(!c.wedged(&here, &clock(0)));
        assert!(!c.wedged(&here, &clock(42)));
        assert!(c.wedged(&here, &clock(84)));
        // Moving again clears it.
        assert!(!c.wedged(&me(Vec3::X * 200.0), &clock(126)));
    }

    #[test]
    fn backing_off_needs_room_behind() {
        // A floor with a wall at y 64..96.
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}}}\n",
            block(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(256.0, 256.0, 0.0)),
            block(Vec3::new(-256.0, 64.0, 0.0), Vec3::new(256.0, 96.0, 128.0)),
        );
        let map = load_str(&text, "wall.map", &LoadOptions::default()).expect("map");
        let mut cm = CombatMove::default();
        let mut clock = BotClock { tick: 10, hz: 60 };
        // Back to the wall, the foe to the south: no way back.
        let cornered = me(Vec3::new(0.0, 40.0, 24.0));
        assert!(!cm.can_back_off(&map, &cornered, Vec3::NEG_Y, &clock));
        // Facing the wall with room behind: the answer is kept for 100 ms,
        // then checked again.
        let open = me(Vec3::new(0.0, -100.0, 24.0));
        assert!(!cm.can_back_off(&map, &open, Vec3::Y, &clock), "the last answer holds for 100 ms");
        clock.tick += 7;
        assert!(cm.can_back_off(&map, &open, Vec3::Y, &clock));
    }

    /// A floor x -256..128 (a ledge at +128), a wall at y 64..96.
    fn ledge_map() -> LoadedMap {
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}}}\n",
            block(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(128.0, 256.0, 0.0)),
            block(Vec3::new(-256.0, 64.0, 0.0), Vec3::new(128.0, 96.0, 128.0)),
        );
        load_str(&text, "ledge.map", &LoadOptions::default()).expect("map")
    }

    #[test]
    fn safety_needs_room_and_floor() {
        let map = ledge_map();
        let p = me(Vec3::new(0.0, 0.0, 24.0));
        assert!(move_is_safe(&map, &p, Vec3::NEG_X), "open floor");
        assert!(!move_is_safe(&map, &p, Vec3::Y), "wall within reach");
        let edge = me(Vec3::new(100.0, 0.0, 24.0));
        assert!(!move_is_safe(&map, &edge, Vec3::X), "no floor past the ledge");
        assert!(move_is_safe(&map, &edge, Vec3::NEG_Y));
    }

    #[test]
    fn momentum_fears_ledges_not_walls_and_a_hop_or_a_flight_needs_floor_ahead() {
        let map = ledge_map();
        let p = me(Vec3::new(0.0, 30.0, 24.0));
        assert!(floor_ahead_is_safe(&map, &p, Vec3::Y), "a wall ahead is no danger to momentum");
        assert!(!move_is_safe(&map, &p, Vec3::Y), "but no room to move");
        let edge = me(Vec3::new(100.0, 0.0, 24.0));
        assert!(!floor_ahead_is_safe(&map, &edge, Vec3::X), "off the ledge");
        assert!(!jump_landing_is_safe(&map, &edge, Vec3::X), "a hop off the ledge lands on nothing");
        assert!(jump_landing_is_safe(&map, &edge, Vec3::NEG_X));
        // In the air past the ledge moving out: nothing within a long fall.
        let out = PlayerSnap { velocity: Vec3::new(300.0, 0.0, 0.0), ..me(Vec3::new(160.0, 0.0, 40.0)) };
        assert!(!floor_below_flight(&map, &out));
        let back = PlayerSnap { velocity: Vec3::new(-300.0, 0.0, 0.0), ..me(Vec3::new(130.0, 0.0, 40.0)) };
        assert!(floor_below_flight(&map, &back), "heading back over the floor");
    }

    #[test]
    fn a_box_with_its_middle_over_the_drop_stands_on_no_floor_but_one_over_a_crack_does() {
        let map = ledge_map();
        let p = me(Vec3::new(0.0, 0.0, 24.0));
        // The box at x 140 rests on the ledge (it ends at 128) by an edge only.
        assert!(floor_under(&map, &p, Vec3::new(100.0, 0.0, 26.0)));
        assert!(!floor_under(&map, &p, Vec3::new(140.0, 0.0, 26.0)), "the middle is out over the drop");
        // Two floors 12 units apart: the middle is over the crack, both ends on floor.
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}}}\n",
            block(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(-6.0, 256.0, 0.0)),
            block(Vec3::new(6.0, -256.0, -16.0), Vec3::new(256.0, 256.0, 0.0)),
        );
        let cracked = load_str(&text, "crack.map", &LoadOptions::default()).expect("map");
        assert!(floor_under(&cracked, &p, Vec3::new(0.0, 0.0, 26.0)), "a crack narrower than the box is floor");
    }

    #[test]
    fn a_heading_over_an_edge_turns_along_it() {
        let map = ledge_map();
        // 18 units short of the ledge, heading out over it a little to the side.
        let p = me(Vec3::new(110.0, 0.0, 24.0));
        let out = Vec3::new(0.95, -0.3, 0.0).normalize();
        assert!(!floor_within_is_safe(&map, &p, out, 24.0));
        let h = safe_heading(&map, &p, out, 24.0, 75, true).expect("a way along the edge");
        assert!(floor_within_is_safe(&map, &p, h, 24.0), "{h:?}");
        assert!(h.x < out.x && (h.length() - 1.0).abs() < 1e-4, "turned, same speed: {h:?}");
        // Straight at the ledge from its lip, no turn within 15 degrees
        // finds floor; a wider one does (along the lip, or back).
        let lip = me(Vec3::new(126.0, 0.0, 24.0));
        assert!(safe_heading(&map, &lip, Vec3::X, 24.0, 15, true).is_none());
        let back = safe_heading(&map, &lip, Vec3::X, 24.0, 180, true).expect("a way that keeps to the floor");
        assert!(back.x < 0.01, "never further out: {back:?}");
        // A heading with floor ahead is kept as it is.
        assert_eq!(safe_heading(&map, &p, Vec3::NEG_X, 24.0, 75, true), Some(Vec3::NEG_X));
    }

    #[test]
    fn floor_under_lava_is_no_floor() {
        // A floor x -256..128, then a pit 48 deep filled with lava to
        // 16 below the floor: there is floor within reach under the lava.
        let lava = quarry_map::source::box_brush(Vec3::new(128.0, -256.0, -48.0), Vec3::new(512.0, 256.0, -16.0), "liquids/lava");
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{}{}{}}}\n",
            block(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(128.0, 256.0, 0.0)),
            block(Vec3::new(128.0, -256.0, -64.0), Vec3::new(512.0, 256.0, -48.0)),
            lava,
        );
        let map = load_str(&text, "lava.map", &LoadOptions::default()).expect("map");
        let edge = me(Vec3::new(100.0, 0.0, 24.0));
        assert!(!move_is_safe(&map, &edge, Vec3::X), "into the lava");
        assert!(move_is_safe(&map, &edge, Vec3::NEG_X));
    }

    #[test]
    fn range_keeping_depends_on_aggression() {
        let t = Traits::at_skill(3.0);
        let table = quarry_sim::weapons::WeaponTable::quake3();
        let shotgun = table.by_name("shotgun");
        assert!((preferred_range(&t, shotgun) - 360.0).abs() < 1e-3);
        // A melee weapon is fought with at its own range, whatever the taste.
        let gauntlet = table.by_name("gauntlet");
        assert!((preferred_range(&t, gauntlet) - 72.0).abs() < 1e-3);
        let mut cm = CombatMove::default();
        let mut rng = BotRng::from_seed(4);
        let clock = BotClock { tick: 10, hz: 60 };
        let p = me(Vec3::ZERO);
        let far = cm.vector(&p, Vec3::new(2000.0, 0.0, 0.0), 500.0, &t, &clock, &mut rng);
        assert!(
            far.approach > 0.0 && far.lateral == Vec3::ZERO,
            "closes in, no strafing far away"
        );
        let near = cm.vector(&p, Vec3::new(200.0, 0.0, 0.0), 500.0, &t, &clock, &mut rng);
        assert!(
            near.approach < 0.0 && near.lateral.length() > 0.0,
            "backs off and strafes"
        );
        let timid = Traits { aggression: 0.1, ..t };
        let bold = Traits { aggression: 0.9, ..t };
        let a = cm
            .vector(&p, Vec3::new(200.0, 0.0, 0.0), 500.0, &timid, &clock, &mut rng)
            .approach;
        let b = cm
            .vector(&p, Vec3::new(200.0, 0.0, 0.0), 500.0, &bold, &clock, &mut rng)
            .approach;
        assert!(a < b, "the timid backs off harder");
    }

    #[test]
    fn strafe_flips_with_rhythm_but_not_inside_a_dodge() {
        let t = Traits {
            strafe_rhythm_variance_msec: 0.0,
            ..Traits::at_skill(3.0)
        };
        let mut cm = CombatMove::default();
        let mut rng = BotRng::from_seed(8);
        let p = me(Vec3::ZERO);
        let foe = Vec3::new(300.0, 0.0, 0.0);
        let mut sides = Vec::new();
        for tick in 1..=120 {
            let v = cm.vector(&p, foe, 500.0, &t, &BotClock { tick, hz: 60 }, &mut rng);
            sides.push(v.lateral.y.signum());
        }
        let flips = sides.windows(2).filter(|w| w[0] != w[1]).count();
        assert!((4..=6).contains(&flips), "flips every 400 ms: {flips}");
        let clock = BotClock { tick: 200, hz: 60 };
        cm.schedule_dodge(Vec3::Y, 0.0, &t, &clock, &mut rng);
        assert!(cm.dodging(&clock));
        let first = cm.vector(&p, foe, 500.0, &t, &clock, &mut rng).lateral;
        for tick in 201..240 {
            let v = cm.vector(&p, foe, 500.0, &t, &BotClock { tick, hz: 60 }, &mut rng);
            assert_eq!(
                v.lateral.normalize().dot(first.normalize()).round(),
                1.0,
                "the dodge owns the side"
            );
        }
    }
}
