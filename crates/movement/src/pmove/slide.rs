//! The slide move (Quake 3 `bg_slidemove.c`): move along the velocity,
//! and on each hit clip the velocity against every plane touched so far,
//! sliding along walls and along the crease of two planes, stopping dead
//! in a corner of three. The step slide move adds stairs: if the plain
//! slide hit something, retry `pm_stepsize` higher and press back down.
//!
//! Trace budget: a slide that hits nothing costs one trace and no step is
//! tried; each hit costs one more (at most four); a step attempt costs an
//! up trace, a second slide and a down trace (plus one down probe when
//! moving upward).

use glam::Vec3;

use super::Move;
use super::ground::STEP_EVENT_HEIGHT;
use super::output::MoveEvent;

/// Velocity is clipped a little more than needed so the next trace moves
/// away from the plane (Quake 3 `OVERCLIP`).
pub(super) const OVERCLIP: f32 = 1.001;

/// Planes remembered during one slide: the ground, the original velocity
/// and up to three surfaces hit (Quake 3 `MAX_CLIP_PLANES`).
const MAX_CLIP_PLANES: usize = 5;

/// Traces one slide makes at most (Quake 3 `numbumps`).
const MAX_BUMPS: usize = 4;

/// Moving into a plane slower than this (units/s) does not count as moving
/// into it (Quake 3's 0.1 margin).
const INTO_EPSILON: f32 = 0.1;

/// Removes the part of `v` going into the plane with unit `normal`
/// (Quake 3 `PM_ClipVelocity`): slightly more than all of it with
/// `overbounce` above 1.
pub(super) fn clip_velocity(v: Vec3, normal: Vec3, overbounce: f32) -> Vec3 {
    let backoff = v.dot(normal);
    let backoff = if backoff < 0.0 {
        backoff * overbounce
    } else {
        backoff / overbounce
    };
    v - normal * backoff
}

impl Move<'_> {
    /// Slides along the velocity for `dt`. With `gravity`, gravity acts over
    /// the move (the average velocity moves, the final one is kept). Returns
    /// whether anything was hit.
    pub(super) fn slide_move(&mut self, gravity: bool) -> bool {
        let mut velocity = self.state.velocity;
        let mut end_velocity = velocity;
        let ground = self.state.ground.map(|g| g.normal);
        if gravity {
            end_velocity.z -= self.params.gravity * self.dt;
            velocity.z = (velocity.z + end_velocity.z) * 0.5;
            if let Some(n) = ground {
                velocity = clip_velocity(velocity, n, OVERCLIP);
            }
        }

        let mut planes = [Vec3::ZERO; MAX_CLIP_PLANES];
        let mut count = 0;
        if let Some(n) = ground {
            // Never turn against the ground plane.
            planes[0] = n;
            count = 1;
        }
        // Never turn against the original velocity.
        planes[count] = velocity.normalize_or_zero();
        count += 1;

        let mut time_left = self.dt;
        let mut bumps = 0;
        while bumps < MAX_BUMPS {
            bumps += 1;
            let origin = self.state.origin;
            let tr = self.trace(origin, origin + velocity * time_left);
            if tr.all_solid {
                // Trapped: don't build up falling speed, allow sideways moves.
                self.state.velocity = Vec3::new(velocity.x, velocity.y, 0.0);
                return true;
            }
            if tr.fraction > 0.0 {
                self.state.origin = tr.end;
            }
            if !tr.hit() {
                bumps -= 1;
                break;
            }
            self.out.touch(tr.entity);
            time_left -= time_left * tr.fraction;
            if count >= MAX_CLIP_PLANES {
                self.state.velocity = Vec3::ZERO;
                return true;
            }
            // The same plane again: nudge out along it (fixes epsilon
            // issues with non-axial planes).
            if planes[..count].iter().any(|p| tr.normal.dot(*p) > 0.99) {
                velocity += tr.normal;
                continue;
            }
            planes[count] = tr.normal;
            count += 1;
            match clip_against(&planes[..count], velocity, end_velocity, gravity) {
                Some((v, ev)) => (velocity, end_velocity) = (v, ev),
                None => {
                    self.state.velocity = Vec3::ZERO;
                    return true;
                }
            }
        }
        self.state.velocity = if gravity { end_velocity } else { velocity };
        bumps > 0
    }

    /// The slide move with stairs (Quake 3 `PM_StepSlideMove`).
    pub(super) fn step_slide_move(&mut self, gravity: bool) {
        let start_origin = self.state.origin;
        let start_velocity = self.state.velocity;
        if !self.slide_move(gravity) {
            return;
        }
        let step = self.params.step_size;
        if step <= 0.0 {
            return;
        }
        if self.state.velocity.z > 0.0 {
            // Never step up while still going up, unless over walkable ground.
            let down = self.trace(start_origin, start_origin - Vec3::Z * step);
            if !down.hit() || !self.params.walkable(down.normal) {
                return;
            }
        }
        let up = self.trace(start_origin, start_origin + Vec3::Z * step);
        if up.all_solid {
            return;
        }
        let raised = up.end.z - start_origin.z;
        self.state.origin = up.end;
        self.state.velocity = start_velocity;
        self.slide_move(gravity);

        // Press back down by what was climbed.
        let origin = self.state.origin;
        let down = self.trace(origin, origin - Vec3::Z * raised);
        if !down.all_solid {
            self.state.origin = down.end;
        }
        if down.hit() {
            self.state.velocity = clip_velocity(self.state.velocity, down.normal, OVERCLIP);
        }
        let height = self.state.origin.z - start_origin.z;
        if height > STEP_EVENT_HEIGHT {
            self.out.push(MoveEvent::SteppedUp { height });
        }
    }
}

/// Clips `velocity` (and `end_velocity`, with gravity) so it leaves every
/// plane in `planes` that it enters: along one plane, along the crease of
/// two, or `None` (stop dead) in a corner of three. The last plane is the
/// one just hit.
fn clip_against(
    planes: &[Vec3],
    velocity: Vec3,
    end_velocity: Vec3,
    gravity: bool,
) -> Option<(Vec3, Vec3)> {
    for (i, &pi) in planes.iter().enumerate() {
        if velocity.dot(pi) >= INTO_EPSILON {
            continue;
        }
        let mut clipped = clip_velocity(velocity, pi, OVERCLIP);
        let mut end_clipped = if gravity {
            clip_velocity(end_velocity, pi, OVERCLIP)
        } else {
            end_velocity
        };
        for (j, &pj) in planes.iter().enumerate() {
            if j == i || clipped.dot(pj) >= INTO_EPSILON {
                continue;
            }
            clipped = clip_velocity(clipped, pj, OVERCLIP);
            if gravity {
                end_clipped = clip_velocity(end_clipped, pj, OVERCLIP);
            }
            if clipped.dot(pi) >= 0.0 {
                continue;
            }
            // Into both planes: slide along their crease.
            let dir = pi.cross(pj).normalize_or_zero();
            clipped = dir * dir.dot(velocity);
            if gravity {
                end_clipped = dir * dir.dot(end_velocity);
            }
            for (k, &pk) in planes.iter().enumerate() {
                if k != i && k != j && clipped.dot(pk) < INTO_EPSILON {
                    return None;
                }
            }
        }
        return Some((clipped, end_clipped));
    }
    Some((velocity, end_velocity))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_removes_the_part_into_the_plane() {
        let v = clip_velocity(Vec3::new(100.0, 50.0, 0.0), Vec3::NEG_X, OVERCLIP);
        assert!(v.x.abs() < 0.2 && v.x < 0.0 + 1e-3, "{v}");
        assert_eq!(v.y, 50.0);
        assert!(
            v.dot(Vec3::NEG_X) > 0.0,
            "moves slightly away from the wall"
        );
    }

    #[test]
    fn crease_and_corner() {
        // Two walls at a right angle: clipped against both, sliding on.
        let walls = [Vec3::NEG_X, Vec3::NEG_Y];
        let v = Vec3::new(100.0, 100.0, 10.0);
        let (c, _) = clip_against(&walls, v, v, false).expect("slides");
        assert!(
            c.x.abs() < 0.2 && c.y.abs() < 0.2 && (c.z - 10.0).abs() < 1e-3,
            "{c}"
        );
        // Floor and an overhanging wall: an acute crease, slide along it (y).
        let crease = [Vec3::Z, Vec3::new(-1.0, 0.0, -1.0).normalize()];
        let v = Vec3::new(100.0, 50.0, -10.0);
        let (c, _) = clip_against(&crease, v, v, false).expect("a crease slides");
        assert!((c - Vec3::new(0.0, 50.0, 0.0)).length() < 1e-3, "{c}");
        // And a third plane into which the crease leads: stop dead.
        let corner = [Vec3::Z, Vec3::new(-1.0, 0.0, -1.0).normalize(), Vec3::NEG_Y];
        assert_eq!(clip_against(&corner, v, v, false), None);
    }
}
