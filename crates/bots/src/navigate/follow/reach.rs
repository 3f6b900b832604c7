//! Whether a bot has reached the corner it heads for: by walking (within
//! a radius, or a little past it), by a jump or a drop (landed, and on the
//! ledge for a jump), by a pad or a teleporter (landed near the exit), by
//! a lift (at the top), by a swim (out on the ledge), or by a crouched
//! walk (at its far end); and the geometry
//! of the legs between corners.

use glam::Vec3;

use super::*;

impl PathFollower {
    /// Whether `me` moves along the jump that leaves takeoff `c` (or
    /// hardly moves): a jump taken with the momentum of a run from the
    /// side lands off to that side. Anything but a jump is always aligned.
    pub(super) fn aligned_for(c: &Corner, next: Option<&Corner>, me: &PlayerSnap) -> bool {
        let Some(next) = next.filter(|n| n.link == LinkKind::Jump) else {
            return true;
        };
        let jdir = Vec3::new(next.pos.x - c.pos.x, next.pos.y - c.pos.y, 0.0).normalize_or_zero();
        let v = Vec3::new(me.velocity.x, me.velocity.y, 0.0);
        v.length() < ALIGNED_SLOW || v.dot(jdir) >= ALIGNED_COS * v.length()
    }

    /// Whether `me` runs fast enough along the jump that leaves takeoff
    /// `c` to carry it across: a jump over a gap (over [`GAP_JUMP_ACROSS`]
    /// units) taken from a walk falls short, into the gap. Anything else
    /// (a hop up onto a ledge beside the bot, any other link) is always
    /// fast enough.
    pub(super) fn fast_enough_for(c: &Corner, next: Option<&Corner>, me: &PlayerSnap) -> bool {
        let Some(next) = next.filter(|n| n.link == LinkKind::Jump) else {
            return true;
        };
        let across = (next.pos - c.pos).truncate();
        if across.length() < GAP_JUMP_ACROSS {
            return true;
        }
        let need = takeoff::takeoff_speed(c.pos, next).unwrap_or(RUN_SPEED);
        me.velocity.truncate().dot(across.normalize()) >= GAP_JUMP_SPEED_SHARE * need
    }

    pub(super) fn reached(&self, c: &Corner, prev: Option<Vec3>, next: Option<&Corner>, me: &PlayerSnap) -> Reach {
        let next_is_action = next.is_some_and(|n| n.link.is_special());
        let d = c.pos - me.origin;
        let horiz = Vec3::new(d.x, d.y, 0.0).length();
        let dz = d.z.abs();
        match c.link {
            LinkKind::Walk => {
                // Launched from beside the corner before reaching it: the
                // pad or teleporter the next corner takes got the box first.
                // The action has begun; steering back down to this corner
                // would land the bot on the pad again and again.
                let launched = !me.on_ground && me.velocity.z > LAUNCH_SPEED && -d.z > CORNER_HEIGHT;
                if next_is_action && launched && horiz <= LAUNCH_RADIUS {
                    return Reach::Yes;
                }
                let r = if next_is_action { TAKEOFF_RADIUS } else { CORNER_RADIUS };
                if horiz <= r && dz <= CORNER_HEIGHT && Self::aligned_for(c, next, me) && Self::fast_enough_for(c, next, me) {
                    return Reach::Yes;
                }
                if !next_is_action && dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                Reach::No
            }
            LinkKind::Drop | LinkKind::Jump => {
                // A fall into deep water ends swimming, never on the ground.
                let settled = me.on_ground || me.water_level >= 2;
                let landed = settled && (self.airborne_seen || c.link == LinkKind::Drop);
                // A jump up onto a ledge is made only standing on it: a bot
                // a little below (it hit the lip and fell back) is not there.
                let below = if c.link == LinkKind::Jump { JUMP_SHORT } else { CORNER_HEIGHT };
                let up_there = me.origin.z >= c.pos.z - below;
                if landed && up_there && horiz <= CORNER_RADIUS + 12.0 && dz <= CORNER_HEIGHT {
                    return Reach::Yes;
                }
                if landed && up_there && dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                // Back on the ground after a real flight: on the exit's floor
                // but carried past it (a running drop) is as good as there;
                // well below it (fell off, a jump fell short), the rest of the
                // route starts from somewhere else.
                let flew = self.longest_flight >= self.flight_min;
                if flew && settled {
                    if !up_there {
                        return Reach::Elsewhere;
                    }
                    if dz <= CORNER_HEIGHT && horiz > OVERSHOOT {
                        return Reach::Yes;
                    }
                }
                Reach::No
            }
            LinkKind::Lift => {
                // Fell off the plat, or into the shaft under it: a rider
                // stands on the plat, never below where it boarded (a plat
                // may rest only a step above the floor beside it).
                if me.on_ground && prev.is_some_and(|b| me.origin.z < b.z - RIDER_BELOW_BOARDING) {
                    return Reach::Elsewhere;
                }
                if me.on_ground && horiz <= CORNER_RADIUS && dz <= CORNER_HEIGHT {
                    return Reach::Yes;
                }
                if me.on_ground && dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                Reach::No
            }
            LinkKind::Crouch => {
                // Through the low passage, on the floor at its far end.
                if horiz <= CORNER_RADIUS && dz <= CORNER_HEIGHT {
                    return Reach::Yes;
                }
                if dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                Reach::No
            }
            LinkKind::Swim => {
                // Out of the water onto the ledge (the water jump carries a
                // little past its edge).
                let out = me.on_ground && me.water_level <= 1;
                if out && horiz <= CORNER_RADIUS + 12.0 && dz <= CORNER_HEIGHT {
                    return Reach::Yes;
                }
                if out && dz <= CORNER_HEIGHT && overshot(prev, c.pos, me.origin) {
                    return Reach::Yes;
                }
                Reach::No
            }
            LinkKind::JumpPad | LinkKind::Teleport => {
                if !(self.airborne_seen && me.on_ground) {
                    return Reach::No;
                }
                if horiz <= 96.0 && dz <= 48.0 {
                    Reach::Yes
                } else {
                    Reach::Elsewhere
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    No,
    Yes,
    /// An action ended somewhere other than its exit.
    Elsewhere,
}

/// How far `pos` stands below a walk leg from `from` to `to`, at the point
/// of the leg it is abreast of: a walk leg is a proved straight walk, so
/// its floor never dips far below the line between its ends, and a bot on
/// the ground well below it has fallen or been knocked off onto another floor.
pub(super) fn under_walk_leg(from: Vec3, to: Vec3, pos: Vec3) -> f32 {
    let (a, b, p) = (from.truncate(), to.truncate(), pos.truncate());
    let ab = b - a;
    let t = if ab.length_squared() > 1e-6 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    from.z + (to.z - from.z) * t - pos.z
}

/// How far `pos` is from the leg `from` -> `to`: across it seen from above,
/// or below both its ends (a fall), whichever is more.
pub(super) fn off_leg(from: Vec3, to: Vec3, pos: Vec3) -> f32 {
    let (a, b, p) = (from.truncate(), to.truncate(), pos.truncate());
    let ab = b - a;
    let t = if ab.length_squared() > 1e-6 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    let across = p.distance(a + ab * t);
    let below = from.z.min(to.z) - pos.z;
    across.max(below)
}

/// Whether `pos` is a little past `corner` along the way in from `prev`,
/// with a small lateral error (the bot ran slightly by it).
fn overshot(prev: Option<Vec3>, corner: Vec3, pos: Vec3) -> bool {
    let Some(prev) = prev else { return false };
    let way = Vec3::new(corner.x - prev.x, corner.y - prev.y, 0.0).normalize_or_zero();
    if way == Vec3::ZERO {
        return false;
    }
    let rel = Vec3::new(pos.x - corner.x, pos.y - corner.y, 0.0);
    let along = rel.dot(way);
    let lateral = (rel - way * along).length();
    along > 0.0 && along <= OVERSHOOT && lateral <= CORNER_RADIUS
}
