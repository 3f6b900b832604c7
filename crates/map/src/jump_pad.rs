//! Jump pad launch velocity (Quake 3 `AimAtTarget` for `trigger_push`),
//! shared by the simulation and the navmesh so they can never disagree.

use glam::Vec3;

/// A target less than this above `from` (units) gets the level-ground arc:
/// peaking exactly at a target barely above would need absurd speed.
const MIN_RISE: f32 = 1.0;

/// The launch velocity that carries a body from `from` through `target`
/// under `gravity` (units/s², downward), in units/s.
///
/// When the target is above `from`, this is Quake 3's `AimAtTarget`: the
/// arc peaks exactly at the target (the vertical speed is `sqrt(2 g h)`, the
/// horizontal speed covers the distance in the rise time). Quake 3 drops a
/// pad whose target is not above it; here such an arc (and one whose target
/// is less than a unit above) instead peaks a quarter of the horizontal
/// distance above `from` (the lowest-speed arc over level ground) and passes
/// through the target on the way down, so a target at standing height on
/// the landing floor is where the player lands.
///
/// This is the one launch formula: the simulation applies it when a player
/// touches a pad (`MoveState::launch` in `quarry_sim::pmove`), and the
/// navmesh uses it to predict where a pad lands. `from` is the centre of the
/// trigger as Quake 3 does, or the player's origin for a tighter arc.
/// Without gravity the velocity reaches the target in one second. A
/// non-finite input gives zero.
pub fn jump_pad_velocity(from: Vec3, target: Vec3, gravity: f32) -> Vec3 {
    if !(from.is_finite() && target.is_finite() && gravity.is_finite()) {
        return Vec3::ZERO;
    }
    let delta = target - from;
    if gravity <= 0.0 {
        return delta;
    }
    let horizontal = delta.truncate();
    let distance = horizontal.length();
    let (rise, fall) = if delta.z >= MIN_RISE {
        (delta.z, 0.0)
    } else {
        let rise = (distance / 4.0).max(MIN_RISE);
        (rise, rise - delta.z)
    };
    let time_up = (2.0 * rise / gravity).sqrt();
    let time_down = (2.0 * fall / gravity).sqrt();
    let speed = distance / (time_up + time_down);
    (horizontal.normalize_or_zero() * speed).extend(gravity * time_up)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closest a body launched from `from` with `v` comes to `target`,
    /// integrating as pmove does (average velocity over each step, which
    /// is exact for constant gravity) and measuring to each step's segment.
    fn closest_approach(from: Vec3, v: Vec3, target: Vec3, gravity: f32) -> f32 {
        let dt = 1.0 / 60.0;
        let (mut p, mut v) = (from, v);
        let mut best = f32::MAX;
        for _ in 0..600 {
            let v_end = v - Vec3::Z * gravity * dt;
            let next = p + (v + v_end) * 0.5 * dt;
            let seg = next - p;
            let t = ((target - p).dot(seg) / seg.length_squared().max(1e-9)).clamp(0.0, 1.0);
            best = best.min((p + seg * t - target).length());
            (p, v) = (next, v_end);
        }
        best
    }

    #[test]
    fn arc_peaks_at_a_target_above() {
        let from = Vec3::new(0.0, 0.0, 0.0);
        for target in [
            Vec3::new(600.0, 0.0, 300.0),
            Vec3::new(-100.0, 250.0, 700.0),
            Vec3::new(0.0, 0.0, 128.0),
        ] {
            let v = jump_pad_velocity(from, target, 800.0);
            assert!(closest_approach(from, v, target, 800.0) < 4.0, "{target}");
            // The apex is the target's height.
            assert!((v.z * v.z / 1600.0 - target.z).abs() < 0.01);
        }
    }

    #[test]
    fn arc_passes_a_target_level_or_below() {
        let from = Vec3::new(10.0, 20.0, 100.0);
        for target in [
            Vec3::new(700.0, 20.0, 100.0),
            Vec3::new(10.0, 520.0, -200.0),
            Vec3::new(11.0, 20.0, 100.0),
        ] {
            for gravity in [800.0, 400.0] {
                let v = jump_pad_velocity(from, target, gravity);
                assert!(
                    closest_approach(from, v, target, gravity) < 4.0,
                    "{target} g {gravity}"
                );
            }
        }
    }

    #[test]
    fn degenerate_inputs() {
        assert_eq!(jump_pad_velocity(Vec3::NAN, Vec3::ZERO, 800.0), Vec3::ZERO);
        assert_eq!(
            jump_pad_velocity(Vec3::ZERO, Vec3::X, f32::INFINITY),
            Vec3::ZERO
        );
        assert_eq!(
            jump_pad_velocity(Vec3::ZERO, Vec3::X * 50.0, 0.0),
            Vec3::X * 50.0
        );
        let v = jump_pad_velocity(Vec3::ZERO, Vec3::ZERO, 800.0);
        assert!(v.is_finite() && v.truncate() == glam::Vec2::ZERO);
        for dz in [1e-30, 1e-6, 0.5] {
            let v = jump_pad_velocity(Vec3::ZERO, Vec3::new(0.0, 0.0, dz), 800.0);
            assert!(v.is_finite() && v.z > 0.0, "{dz}: {v}");
            let v = jump_pad_velocity(Vec3::ZERO, Vec3::new(300.0, 0.0, dz), 1e30);
            assert!(v.is_finite(), "{dz}: {v}");
        }
    }
}
