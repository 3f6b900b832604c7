//! Act: turns what the layers want into the one [`UserCmd`] a bot sends
//! this tick, exactly as a client would.
//!
//! Movement is wanted as a world-space direction; it is flattened and
//! projected onto the forward and right axes of the view yaw *sent in the
//! same command* (pmove moves relative to the command's yaw), then scaled
//! so the larger axis carries the whole speed share, as a player's keys do
//! (pmove's speed is the larger axis over 127: a plain projection would
//! move a bot at 71 % speed when its view is 45° off its path). Jump is a
//! fresh press: pressed only if the previous command did not hold it, so
//! a bot wanting to jump on every tick gets a press every other tick and
//! never a held button (physics only jumps on a new press). Moves are
//! clamped to -127..=127 and angles must be finite; both are
//! `debug_assert!`ed.

use glam::Vec3;
use quarry_sim::{Buttons, UserCmd};

pub mod give_way;
mod movement;
mod near_world;

pub use give_way::GiveWay;
pub use movement::{Fight, WIDE_HOLD, compose_movement};
pub use near_world::NearWorld;

/// What a bot wants to do this tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Intent {
    /// World-space direction to move in; length is the speed share (≤ 1).
    pub move_dir: Vec3,
    /// Wants to jump (pressed only on a fresh edge).
    pub jump: bool,
    /// The up axis in water: 1 to swim up, -1 to dive, 0 neither.
    pub swim: i8,
    /// Hold crouch.
    pub crouch: bool,
    /// Hold walk (slow, silent footsteps).
    pub walk: bool,
    /// Press attack.
    pub attack: bool,
    /// Press drop (let go of a carried flag; pressed only on a fresh edge).
    pub drop: bool,
    /// The weapon to have selected (0: no opinion).
    pub weapon: u8,
    /// View pitch, degrees.
    pub pitch: f32,
    /// View yaw, degrees.
    pub yaw: f32,
}

fn axis(v: f32) -> i8 {
    (v * 127.0).round().clamp(-127.0, 127.0) as i8
}

/// The command for `tick` from `intent`; `previous` is the command sent
/// last tick. `delta` is the bot's delta angles (pitch, yaw; see
/// `MoveState::delta_yaw` in the movement core): the command carries the
/// view the intent wants minus them, as a client's does. Non-finite intent
/// angles keep the previous command's.
pub fn compose(intent: &Intent, tick: u32, previous: &UserCmd, delta: (f32, f32)) -> UserCmd {
    let delta = if delta.0.is_finite() && delta.1.is_finite() { delta } else { (0.0, 0.0) };
    let (view_yaw, pitch, yaw) = if intent.pitch.is_finite() && intent.yaw.is_finite() {
        let view_yaw = intent.yaw.rem_euclid(360.0);
        // The command's pitch is an angle the delta brings into view: wrapped,
        // not held within the view's limits (the sim holds the view).
        (view_yaw, quarry_sim::wrap_half_turn(intent.pitch.clamp(-89.0, 89.0) - delta.0), (view_yaw - delta.1).rem_euclid(360.0))
    } else {
        ((previous.yaw + delta.1).rem_euclid(360.0), previous.pitch, previous.yaw)
    };
    let mut dir = Vec3::new(intent.move_dir.x, intent.move_dir.y, 0.0);
    if !dir.is_finite() {
        dir = Vec3::ZERO;
    }
    if dir.length_squared() > 1.0 {
        dir = dir.normalize();
    }
    // The sim moves along the view (the command's angles plus the delta).
    let (sy, cy) = view_yaw.to_radians().sin_cos();
    let forward = Vec3::new(cy, sy, 0.0);
    let right = Vec3::new(sy, -cy, 0.0);
    let (f, r) = (dir.dot(forward), dir.dot(right));
    let larger = f.abs().max(r.abs());
    let full = if larger > 1e-6 { dir.length() / larger } else { 0.0 };
    let mut buttons = Buttons::default();
    if intent.attack {
        buttons = buttons.with(Buttons::ATTACK);
    }
    if intent.jump && !previous.buttons.contains(Buttons::JUMP) {
        buttons = buttons.with(Buttons::JUMP);
    }
    if intent.crouch {
        buttons = buttons.with(Buttons::CROUCH);
    }
    if intent.walk {
        buttons = buttons.with(Buttons::WALK);
    }
    if intent.drop && !previous.buttons.contains(Buttons::DROP) {
        buttons = buttons.with(Buttons::DROP);
    }
    let cmd = UserCmd {
        tick,
        pitch,
        yaw,
        forward: axis(f * full),
        right: axis(r * full),
        up: intent.swim.clamp(-1, 1).saturating_mul(127),
        buttons,
        weapon: intent.weapon,
    };
    debug_assert!(
        cmd.pitch.is_finite() && cmd.yaw.is_finite(),
        "bot command angles must be finite"
    );
    debug_assert!(
        cmd.forward > -128 && cmd.right > -128,
        "bot command moves must be in -127..=127"
    );
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_relative_to_the_sent_yaw() {
        let prev = UserCmd::default();
        let c = compose(
            &Intent {
                move_dir: Vec3::Y,
                yaw: 90.0,
                ..Intent::default()
            },
            5,
            &prev,
            (0.0, 0.0),
        );
        assert_eq!((c.forward, c.right), (127, 0), "facing +y, moving +y is forward");
        let c = compose(
            &Intent {
                move_dir: Vec3::Y,
                yaw: 0.0,
                ..Intent::default()
            },
            5,
            &prev,
            (0.0, 0.0),
        );
        assert_eq!((c.forward, c.right), (0, -127), "facing +x, +y is to the left");
        let c = compose(
            &Intent {
                move_dir: Vec3::new(3.0, 0.0, 9.0),
                yaw: 0.0,
                ..Intent::default()
            },
            5,
            &prev,
            (0.0, 0.0),
        );
        assert_eq!(c.forward, 127, "flattened and clamped");
        assert_eq!(c.tick, 5);
    }

    #[test]
    fn a_path_off_the_view_keeps_its_speed() {
        let along = |move_dir: Vec3| {
            let c = compose(&Intent { move_dir, yaw: 0.0, ..Intent::default() }, 1, &UserCmd::default(), (0.0, 0.0));
            (c.forward, c.right)
        };
        // 45° off the view: both keys held, as a player's; pmove's speed is
        // the larger axis, so the bot runs at full speed, not 71 %.
        assert_eq!(along(Vec3::new(1.0, -1.0, 0.0).normalize()), (127, 127));
        // 30° off: the larger axis full, the other in proportion (tan 30°).
        let (f, r) = along(Vec3::new(30f32.to_radians().cos(), -30f32.to_radians().sin(), 0.0));
        assert_eq!((f, r), (127, 73));
        // A half-speed wish stays half speed.
        assert_eq!(along(Vec3::new(0.0, 0.5, 0.0)), (0, -64));
        assert_eq!(along(Vec3::ZERO), (0, 0));
    }

    #[test]
    fn the_swim_axis_becomes_the_up_move() {
        let up = |swim: i8| compose(&Intent { swim, ..Intent::default() }, 1, &UserCmd::default(), (0.0, 0.0)).up;
        assert_eq!((up(1), up(0), up(-1), up(i8::MIN)), (127, 0, -127, -127));
    }

    #[test]
    fn jump_is_pulsed_and_bad_angles_keep_the_old_view() {
        let want = Intent {
            jump: true,
            ..Intent::default()
        };
        let first = compose(&want, 1, &UserCmd::default(), (0.0, 0.0));
        assert!(first.buttons.contains(Buttons::JUMP));
        let second = compose(&want, 2, &first, (0.0, 0.0));
        assert!(!second.buttons.contains(Buttons::JUMP), "released after a press");
        let third = compose(&want, 3, &second, (0.0, 0.0));
        assert!(third.buttons.contains(Buttons::JUMP));
        let prev = UserCmd {
            pitch: 10.0,
            yaw: 20.0,
            ..UserCmd::default()
        };
        let c = compose(
            &Intent {
                pitch: f32::NAN,
                yaw: 5.0,
                move_dir: Vec3::splat(f32::NAN),
                ..Intent::default()
            },
            4,
            &prev,
            (0.0, 0.0),
        );
        assert_eq!((c.pitch, c.yaw, c.forward), (10.0, 20.0, 0));
        let c = compose(
            &Intent {
                yaw: -90.0,
                ..Intent::default()
            },
            4,
            &prev,
            (0.0, 0.0),
        );
        assert_eq!(c.yaw, 270.0);
    }

    #[test]
    fn the_command_carries_the_view_minus_the_delta_angles_and_moves_along_the_view() {
        // A teleporter turned the view 90 degrees: delta yaw 90.
        let c = compose(&Intent { move_dir: Vec3::Y, yaw: 90.0, pitch: 10.0, ..Intent::default() }, 5, &UserCmd::default(), (5.0, 90.0));
        assert_eq!((c.pitch, c.yaw), (5.0, 0.0), "view minus delta");
        assert_eq!((c.forward, c.right), (127, 0), "facing +y (the view), moving +y is forward");
        // Keeping the view keeps the command's own angles.
        let kept = compose(&Intent { pitch: f32::NAN, yaw: f32::NAN, move_dir: Vec3::Y, ..Intent::default() }, 6, &c, (5.0, 90.0));
        assert_eq!((kept.pitch, kept.yaw, kept.forward), (5.0, 0.0, 127));
    }
}
