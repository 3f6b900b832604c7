//! The movement of a command: route steering with combat movement mixed
//! in (range keeping, strafing, dodges of hits and incoming projectiles),
//! giving way to players met head-on ([`super::give_way`]), separation
//! from nearby players, and standing still on a tight hold.
//!
//! In: this tick's [`Steer`] and [`Fight`] (what the other layers decided);
//! out: a world-space direction (length at most 1) and whether to jump.

use glam::Vec3;
use quarry_sim::weapons::WeaponDef;

use crate::combat_move::{CombatMove, SAFETY_PROBE, floor_ahead_is_safe, floor_below_flight, incoming_threat, jump_landing_is_safe, preferred_range, safe_heading, separation};
use super::give_way::{GiveWay, Giving};
use crate::content::Traits;
use crate::navigate::{PathFollower, Steer};
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};

/// Objective hold radii from this up allow combat movement while holding, units.
pub const WIDE_HOLD: f32 = 150.0;

/// What the fight asks of the feet this tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fight<'w> {
    /// The bot's slot (staggers the incoming-projectile check).
    pub slot: u8,
    /// The combat target's position, when it is seen.
    pub foe_seen: Option<Vec3>,
    /// Where the last hit came from (a dodge backs away from it).
    pub last_hit_dir: Option<Vec3>,
    /// The weapon in hand.
    pub in_hand: Option<&'w WeaponDef>,
    /// The movement goal is chasing an enemy.
    pub chasing: bool,
    /// The radius of the objective position held now, if any.
    pub holding: Option<f32>,
    /// A late-dodge mistake is running.
    pub late_dodge: bool,
    /// The range the tactics ask to fight at (a weapon matchup), instead
    /// of the preferred range.
    pub range: Option<f32>,
}

/// Moving faster than this, a bot checks where its momentum carries it, units/s.
const EDGE_CHECK_SPEED: f32 = 30.0;
/// The shortest look ahead along the command's heading for an edge, units.
const EDGE_LOOK_MIN: f32 = 24.0;

/// The direction to move in and whether to jump (before the on-ground gate).
#[expect(clippy::too_many_arguments, reason = "the layers' outputs of one tick")]
pub fn compose_movement(
    view: &BotView<'_>,
    me: &PlayerSnap,
    steer: &Steer,
    fight: &Fight<'_>,
    combat: &mut CombatMove,
    give_way: &mut GiveWay,
    follower: &mut PathFollower,
    t: &Traits,
    clock: &BotClock,
    rng: &mut BotRng,
) -> (Vec3, bool) {
    // Every check below looks within a stride of the bot: the hulls there
    // are gathered once, on the first one.
    let near = super::NearWorld::around(view.map.world(), me.origin);
    let world = &near;
    let mut dir = steer.dir;
    let mut jump = steer.jump;
    if (clock.tick + u32::from(fight.slot)).is_multiple_of(5)
        && let Some((threat, _)) = incoming_threat(view, me, t.fov)
        && !fight.late_dodge
    {
        // A reaction after seeing it, however soon it arrives.
        combat.schedule_dodge(threat, t.dodge_react_msec * 0.5, t, clock, rng);
    }
    if !steer.committed {
        // The strafe alone, already checked: what is left without a route
        // when the whole move is unsafe.
        let mut fallback = Vec3::ZERO;
        let foe = fight.foe_seen.or_else(|| {
            combat
                .dodging(clock)
                .then(|| fight.last_hit_dir.map(|d| me.origin - d * 500.0))
                .flatten()
        });
        if let Some(foe) = foe {
            let want = fight.range.unwrap_or_else(|| preferred_range(t, fight.in_hand));
            let cv = combat.vector(me, foe, want, t, clock, rng);
            let lateral = combat.safe_lateral(cv.lateral, world, me, clock);
            fallback = lateral;
            if fight.chasing || follower.route().is_none() {
                // Range keeping replaces route following: no progress is
                // owed, unless the bot stands wedged against something.
                if !combat.wedged(me, clock) {
                    follower.hold(clock);
                }
                let route_dir = dir;
                // Backed into a wall, a corner or a ledge: keeping off is
                // over, the range is what it is.
                // Without a route it closes in rather than stand there.
                let approach = if cv.approach < 0.0 && !combat.can_back_off(world, me, cv.to_foe, clock) {
                    if follower.route().is_none() { 0.5 } else { 0.0 }
                } else {
                    cv.approach
                };
                dir = route_dir * approach.max(0.0) + cv.to_foe * approach.min(0.0) + lateral;
                if follower.route().is_none() {
                    dir += cv.to_foe * approach.max(0.0);
                }
                // Never a sitting duck: with no safe side to strafe to and
                // the range about right (or no way back), keep moving along
                // the route.
                if lateral == Vec3::ZERO && approach.abs() < 0.3 {
                    dir += route_dir * 0.6;
                }
            } else {
                dir += lateral * 0.8;
            }
            // A dodge's hop only where it comes down on floor.
            jump |= cv.jump && jump_landing_is_safe(world, me, dir);
        }
        // Someone in the way: keep right to pass, or back off to let
        // them through a narrow way, or face the target standing there.
        let route_end = follower.route().and_then(|r| r.corners.last()).map(|c| c.pos);
        match give_way.decide(view, me, steer.dir, route_end, fight.foe_seen, world, clock) {
            Giving::Nothing => {}
            Giving::KeepRight(step) => dir += step,
            Giving::BackOff(back) => {
                dir = back;
                jump = false;
                follower.hold(clock);
            }
            Giving::FaceOff => follower.hold(clock),
        }
        dir += separation(view, me);
        // The sum of the route, the range keeping, the strafe and the
        // separation is checked as a whole (each part alone may be safe):
        // off a ledge or into lava it falls back to the route alone, or
        // to the strafe alone without one.
        if dir != steer.dir && me.on_ground && dir.length_squared() > 0.01 && !floor_ahead_is_safe(world, me, dir) {
            dir = if steer.dir != Vec3::ZERO { steer.dir } else { fallback };
            jump = steer.jump;
        }
    }
    // Momentum toward a ledge or into lava that the route does not mean
    // to leave the ground by (a strafe a moment ago, a push, a run along
    // a bridge's edge): back to the route if that way is safe, else brake.
    // The last, slow steps of a drop's run-up mean to go over (its corner
    // may lie on the very lip; braking there held a bot on the ledge until
    // its stuck hop). Anywhere else on the run-up (too fast, momentum
    // across it, or still far) the brake holds: a ledge beside the way is
    // not the one the route leaves by, and a run carries a bot past the
    // landing.
    let v = Vec3::new(me.velocity.x, me.velocity.y, 0.0);
    let leaving_on_purpose = follower.in_action();
    let off_the_lip = leaving_on_purpose || follower.stepping_off(me);
    // The way the command goes, on foot and not leaving by an action: a
    // heading over an edge (a walk's line cut a corner, a strafe drifted
    // the bot off its line, a slow creep under the momentum check) turns
    // along the edge. Looked at as far as the next corner, at
    // least a stride: the route may turn there.
    if me.on_ground && !off_the_lip && dir.length_squared() > 0.01 {
        let to_corner = follower.corner().map_or(SAFETY_PROBE, |c| (c.pos - me.origin).truncate().length());
        let reach = to_corner.clamp(EDGE_LOOK_MIN, SAFETY_PROBE);
        let first_left = (clock.tick / 20 + u32::from(fight.slot)).is_multiple_of(2);
        // The nearest safe turn wins: along the edge where there is a way
        // on; failing that (the bot stands on the lip, its middle out over
        // the drop), back onto the floor, whichever way that is. With
        // edges all round, standing still is no answer either: the route's
        // way it is.
        if let Some(h) = safe_heading(world, me, dir, reach, 180, first_left) {
            dir = h;
        }
    }
    if me.on_ground && !off_the_lip && v.length() > EDGE_CHECK_SPEED && !floor_ahead_is_safe(world, me, v) {
        dir = if steer.dir != Vec3::ZERO && floor_ahead_is_safe(world, me, steer.dir) { steer.dir } else { -v.normalize() };
        jump = false;
    }
    // A stuck bot's sidestep hops only where it comes down on floor.
    if jump && follower.unsticking(clock) && !leaving_on_purpose && !jump_landing_is_safe(world, me, dir) {
        jump = false;
    }
    // In the air off a route's action (a dodge's hop, a push, a step off
    // an edge) and heading out over nothing: air control back toward
    // where the bot last stood.
    if me.on_ground {
        combat.last_ground = Some(me.origin);
    } else if !leaving_on_purpose
        && let Some(back) = combat.last_ground
        && !floor_below_flight(world, me)
    {
        dir = Vec3::new(back.x - me.origin.x, back.y - me.origin.y, 0.0).normalize_or_zero();
    }
    // Holding a tight objective position (a thaw, a zone): the feet stay
    // put, aim and trigger go on. A wide one (a defence perimeter) lets
    // combat movement work inside it; leaving it re-routes back.
    if fight.holding.is_some_and(|r| r < WIDE_HOLD) {
        dir = Vec3::ZERO;
        jump = false;
    }
    if dir.length_squared() > 1.0 {
        dir = dir.normalize();
    }
    (dir, jump)
}
