//! Seeded random play: runs, strafes, turns, jumps and fires in bursts.
//!
//! Every draw comes from one PCG seeded by the caller, and time enters
//! only through `elapsed`, so a seed and a sequence of poll times always
//! give the same commands (load tests can replay a client exactly).

use std::time::Duration;

use rand::{RngExt, SeedableRng};
use quarry_movement::{Buttons, UserCmd};
use rand_pcg::Pcg32;

use super::{Frame, Input};
use crate::view::View;

/// Jumps per second on average.
const JUMPS_PER_S: f64 = 0.8;
/// Chance a new plan keeps the trigger held.
const FIRE_CHANCE: f64 = 0.35;
/// Chance a new plan switches weapon.
const SWITCH_CHANCE: f64 = 0.1;
/// Weapons to pick from (Quake 3's 1..=9: gauntlet to BFG).
const WEAPONS: std::ops::RangeInclusive<u8> = 1..=9;

/// Random play from a seed.
#[derive(Debug, Clone)]
pub struct RandomInput {
    rng: Pcg32,
    held: UserCmd,
    turn: f32,
    next_plan: Duration,
    last: Option<Duration>,
    jumped: bool,
}

impl RandomInput {
    /// Random play seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Pcg32::seed_from_u64(seed),
            held: UserCmd::default(),
            turn: 0.0,
            next_plan: Duration::ZERO,
            last: None,
            jumped: false,
        }
    }

    /// Picks new moves, turn rate, aim pitch, trigger and maybe weapon,
    /// for the next 0.3 to 2 seconds.
    fn plan(&mut self, now: Duration) {
        let r = &mut self.rng;
        self.held.forward = [127, 127, 64, 0, -127][r.random_range(0..5usize)];
        self.held.right = [-127, 0, 0, 127][r.random_range(0..4usize)];
        self.turn = r.random_range(-180.0f32..=180.0);
        self.held.pitch = r.random_range(-20.0f32..=20.0);
        let fire = r.random_bool(FIRE_CHANCE);
        self.held.buttons = if fire { Buttons::ATTACK } else { Buttons::default() };
        if r.random_bool(SWITCH_CHANCE) {
            self.held.weapon = r.random_range(WEAPONS);
        }
        self.next_plan = now + Duration::from_millis(r.random_range(300..=2000u64));
    }
}

impl Input for RandomInput {
    fn poll(&mut self, elapsed: Duration, _view: &View) -> Frame {
        let dt = self
            .last
            .map_or(Duration::ZERO, |l| elapsed.saturating_sub(l));
        self.last = Some(elapsed);
        self.held.yaw = (self.held.yaw + self.turn * dt.as_secs_f32()).rem_euclid(360.0);
        if elapsed >= self.next_plan {
            self.plan(elapsed);
        }
        let mut cmd = self.held;
        // A jump is a press for one command, never two in a row: the
        // server jumps on fresh presses only.
        let jump = self
            .rng
            .random_bool((JUMPS_PER_S * dt.as_secs_f64()).clamp(0.0, 1.0))
            && !self.jumped;
        self.jumped = jump;
        if jump {
            cmd.buttons = cmd.buttons.with(Buttons::JUMP);
        }
        Frame {
            cmd,
            actions: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(seed: u64, polls: u64) -> Vec<UserCmd> {
        let mut r = RandomInput::new(seed);
        let v = View::default();
        (0..polls)
            .map(|i| r.poll(Duration::from_micros(i * 16_667), &v).cmd)
            .collect()
    }

    #[test]
    fn same_seed_same_commands() {
        let a = run(7, 600);
        assert_eq!(a, run(7, 600));
        assert_ne!(a, run(8, 600));
    }

    #[test]
    fn it_actually_plays() {
        let cmds = run(3, 60 * 20);
        assert!(cmds.iter().any(|c| c.forward != 0) && cmds.iter().any(|c| c.right != 0));
        assert!(
            cmds.iter().filter(|c| c.buttons.contains(Buttons::JUMP)).count() >= 5,
            "jumps"
        );
        assert!(cmds.iter().any(|c| c.buttons.contains(Buttons::ATTACK)), "fires");
        let yaws: std::collections::BTreeSet<u32> =
            cmds.iter().map(|c| c.yaw as u32 / 30).collect();
        assert!(yaws.len() >= 4, "turns: {yaws:?}");
        assert!(cmds.iter().all(|c| c.yaw.is_finite()
            && (0.0..360.0).contains(&c.yaw)
            && c.forward >= -127
            && c.right >= -127));
        // Jumps are single presses, so the server sees fresh presses.
        assert!(
            cmds.windows(2)
                .all(|w| !(w[0].buttons.contains(Buttons::JUMP) && w[1].buttons.contains(Buttons::JUMP)))
        );
    }
}
