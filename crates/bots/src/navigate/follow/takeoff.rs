//! How fast a bot leaves the ground for a drop or a jump down, and the
//! run-up that brings it to that speed. A leap carries the bot as far as
//! its momentum at the takeoff takes it during the flight: from a full run
//! a drop of a few hundred units lands well past its landing, into
//! whatever lies beyond (a lava pit beside a ledge). So the run-up slows
//! in time for ground friction to bring the speed down by the takeoff.

use glam::Vec3;

use super::{DROP_APPROACH_SPEED, DROP_CRAWL_SPEED, FALL_GRAVITY, PathFollower, RUN_SPEED};
use crate::navigate::route::{Corner, LinkKind};
use crate::view::PlayerSnap;

/// A jump's upward speed (Quake 3's `JUMP_VELOCITY`), units/s.
const JUMP_SPEED: f32 = 270.0;
/// How much faster than the bare need a jump is taken: the leap must
/// clear the lip or the railing it goes over, and land on, not at the
/// edge of, its landing.
const JUMP_SPEED_MARGIN: f32 = 1.3;
/// A jump needing more than this share of a full run is taken at a run.
const FULL_RUN_SHARE: f32 = 0.8;
/// Speed that ground friction takes off per unit travelled, (units/s) per
/// unit (pmove: friction 6 per second, proportional to the speed above
/// `stopspeed`), with a margin for the tick's discreteness.
const BRAKE_PER_UNIT: f32 = 5.0;
/// Leaving the ground this much faster than the takeoff speed (and over
/// [`TAKEOFF_SLACK_SHARE`] of it) waits for friction first, units/s.
const TAKEOFF_SLACK: f32 = 60.0;
/// Leaving the ground faster than this share of the takeoff speed (and by
/// over [`TAKEOFF_SLACK`]) waits for friction first.
const TAKEOFF_SLACK_SHARE: f32 = 1.5;

/// Within this of its takeoff corner a bot may step off the lip, units.
const LIP_RADIUS: f32 = 64.0;
/// Within this of a jump's takeoff corner a bot runs on over the lip,
/// units: more than the ledge checks look ahead (72 units).
const JUMP_LIP_RADIUS: f32 = 96.0;
/// The smallest cosine between the momentum and the way to the takeoff
/// for a bot to count as carried at it (about 25 degrees).
const LIP_ALIGN: f32 = 0.9;

impl PathFollower {
    /// Whether `me` takes the last steps of a drop's or a jump's run-up:
    /// close to the corner it leaves from, carried straight at it, and (for
    /// a drop) no faster than the drop is taken at. That corner may lie on
    /// the very lip, where the floor ahead is already gone: the route means
    /// to go over. A jump's run-up counts
    /// from further off: a full run covers the ledge checks' look ahead in
    /// a fifth of a second, and a run braked at the lip falls short.
    pub fn stepping_off(&self, me: &PlayerSnap) -> bool {
        let Some(r) = self.route.as_ref() else { return false };
        let (Some(here), Some(next)) = (r.corners.get(self.index), r.corners.get(self.index + 1)) else {
            return false;
        };
        let radius = match next.link {
            _ if here.link.is_special() => return false,
            LinkKind::Drop => LIP_RADIUS,
            LinkKind::Jump => JUMP_LIP_RADIUS,
            _ => return false,
        };
        let speed = takeoff_speed(here.pos, next);
        let v = me.velocity.truncate();
        let to = (here.pos - me.origin).truncate();
        let d = to.length();
        // A drop is stepped off no faster than its speed. A jump's run-up
        // speeds up all the way (one too slow at the takeoff turns back
        // for another run, see the run-up in `follow`).
        let speed_right = next.link == LinkKind::Jump || speed.is_none_or(|s| !too_fast(v.length(), s));
        d < radius && speed_right && (d < 1.0 || v.dot(to) >= LIP_ALIGN * v.length() * d)
    }
}

/// The horizontal speed to leave `from` at for the link to `to` (a drop
/// or a jump), units/s; `None` when it is taken at a full run (anything
/// else, a jump that climbs or a long one).
pub(super) fn takeoff_speed(from: Vec3, to: &Corner) -> Option<f32> {
    let across = Vec3::new(to.pos.x - from.x, to.pos.y - from.y, 0.0).length();
    let fall = from.z - to.pos.z;
    match to.link {
        LinkKind::Drop => {
            let fall_s = fall_time(from, to.pos);
            Some((across / fall_s).clamp(DROP_CRAWL_SPEED * RUN_SPEED, DROP_APPROACH_SPEED * RUN_SPEED))
        }
        LinkKind::Jump => {
            let disc = JUMP_SPEED * JUMP_SPEED + 2.0 * FALL_GRAVITY * fall;
            if fall <= 0.0 || disc < 0.0 {
                return None;
            }
            let air_s = (JUMP_SPEED + disc.sqrt()) / FALL_GRAVITY;
            let need = JUMP_SPEED_MARGIN * across / air_s;
            (need < FULL_RUN_SHARE * RUN_SPEED).then_some(need.max(DROP_CRAWL_SPEED * RUN_SPEED))
        }
        _ => None,
    }
}

/// How long a fall from `from` down to `to` lasts, s (at least 0.05: a
/// drop to the same height still takes a moment).
pub(super) fn fall_time(from: Vec3, to: Vec3) -> f32 {
    (2.0 * (from.z - to.z).max(0.0) / FALL_GRAVITY).sqrt().max(0.05)
}

/// The share of a full run to hold `dist` units short of a takeoff left at
/// `speed`: what friction can bring down to that speed over the distance.
pub(super) fn run_up_share(dist: f32, speed: f32) -> f32 {
    ((speed + BRAKE_PER_UNIT * dist) / RUN_SPEED).clamp(DROP_CRAWL_SPEED, 1.0)
}

/// Whether a bot moving at `moving` units/s is too fast to leave the
/// ground for a takeoff at `speed`.
pub(super) fn too_fast(moving: f32, speed: f32) -> bool {
    moving > (speed * TAKEOFF_SLACK_SHARE).max(speed + TAKEOFF_SLACK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner(link: LinkKind, pos: Vec3) -> Corner {
        Corner { pos, link, entity: None }
    }

    #[test]
    fn a_short_jump_down_is_taken_slowly_and_a_climb_at_a_run() {
        // Over a railing, 80 units across and 192 down: about 1.1 s aloft.
        let down = takeoff_speed(Vec3::ZERO, &corner(LinkKind::Jump, Vec3::new(80.0, 0.0, -192.0))).expect("a jump down");
        assert!((80.0..130.0).contains(&down), "{down}");
        assert!(takeoff_speed(Vec3::ZERO, &corner(LinkKind::Jump, Vec3::new(200.0, 0.0, 24.0))).is_none(), "a climb runs");
        // A long gap that lands a little lower still needs the run.
        assert!(takeoff_speed(Vec3::ZERO, &corner(LinkKind::Jump, Vec3::new(220.0, 0.0, -16.0))).is_none());
    }

    #[test]
    fn a_drop_is_left_between_a_crawl_and_half_speed() {
        let d = takeoff_speed(Vec3::ZERO, &corner(LinkKind::Drop, Vec3::new(20.0, 0.0, -240.0))).expect("a drop");
        assert_eq!(d, DROP_CRAWL_SPEED * RUN_SPEED);
        let far = takeoff_speed(Vec3::ZERO, &corner(LinkKind::Drop, Vec3::new(400.0, 0.0, -64.0))).expect("a drop");
        assert_eq!(far, DROP_APPROACH_SPEED * RUN_SPEED);
    }

    #[test]
    fn the_run_up_slows_in_time_for_friction() {
        assert_eq!(run_up_share(200.0, 80.0), 1.0, "far off: a full run");
        let near = run_up_share(20.0, 80.0);
        assert!((DROP_CRAWL_SPEED..0.6).contains(&near), "{near}");
        assert!(too_fast(300.0, 80.0) && !too_fast(100.0, 80.0));
    }
}
