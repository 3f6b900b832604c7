//! Predicting the own player with the server's own pmove (Quake 3's
//! `CG_PredictPlayerState`, one move per tick as Quarry's server runs
//! them): the commands sent are kept by tick; on a snapshot, the player
//! state the server acknowledged (`acked_cmd_tick`) is the start, and
//! every command sent after it is moved again through
//! [`quarry_movement::pmove::pmove`] against the same collision world.
//!
//! A correction (the server saw something the client could not: a rocket's
//! push, another player in the way) is not drawn as a jump: the difference
//! between what was predicted for a tick and what is predicted for it now
//! is added to the drawn position and fades out linearly over
//! [`SMOOTH_TIME`] ([`ErrorSmoothing`], Quake 3's `cg_errorDecay`); a miss
//! larger than [`SNAP_DISTANCE`], or a teleport, snaps.
//!
//! Nothing here knows a window: the caller hands it what was sent, what
//! arrived, the world and the time, and draws what it returns.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use glam::Vec3;
use quarry_map::CollisionWorld;
use quarry_movement::obstacles::{BoxObstacle, WithObstacles};
use quarry_movement::triggers::{MoveTrigger, MoveTriggers, pad_velocity, teleport};
use quarry_movement::UserCmd;
use quarry_movement::pmove::{MoveParams, MoveState, pmove};
use quarry_net::snapshot::{MT_KNOCKBACK, MT_LAND, MT_TELEPORT, MT_WATER_JUMP, PF_CROUCHED, PF_DEAD, PF_JUMP_HELD, PlayerState};

/// How many commands are kept for replay (Quake 3's `CMD_BACKUP`): more
/// than a second at 60 Hz; a snapshot older than the oldest kept one
/// cannot be predicted from.
pub const MAX_UNACKED: usize = 64;

/// The own player's movement, predicted ahead of the server.
#[derive(Debug, Clone)]
pub struct Predictor {
    params: MoveParams,
    dt: f32,
    sent: VecDeque<(u32, UserCmd)>,
    triggers: MoveTriggers,
    obstacles: Vec<BoxObstacle>,
}

/// What a prediction gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// The predicted state after the newest command sent.
    pub state: MoveState,
    /// The commands moved again on top of the acknowledged state.
    pub replayed: usize,
    /// Whether the newest command's move went through a teleporter or was
    /// launched by a jump pad.
    pub triggered: bool,
}

/// Why no prediction could be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PredictError {
    /// The snapshot acknowledges a command older than the oldest kept.
    #[error("the server acknowledged tick {acked}, older than the oldest command kept ({oldest})")]
    TooOld {
        /// The acknowledged tick.
        acked: u32,
        /// The oldest tick kept.
        oldest: u32,
    },
}

impl Predictor {
    /// A predictor moving with `params` (the server's movement settings)
    /// one command every `1 / tick_rate` seconds.
    pub fn new(params: MoveParams, tick_rate: u32) -> Self {
        Self { params, dt: 1.0 / tick_rate.max(1) as f32, sent: VecDeque::with_capacity(MAX_UNACKED), triggers: MoveTriggers::default(), obstacles: Vec::new() }
    }

    /// Also moves the player through the map's jump pads and teleporters
    /// after each replayed command, as the sim does after each move.
    pub fn with_triggers(mut self, triggers: MoveTriggers) -> Self {
        self.triggers = triggers;
        self
    }

    /// The other players' boxes the own player is blocked by, as the
    /// newest snapshot has them (the sim's pmove is blocked by living
    /// players' boxes).
    pub fn set_obstacles(&mut self, obstacles: Vec<BoxObstacle>) {
        self.obstacles = obstacles;
    }

    /// Takes over the commands `other` kept (new movement settings, the
    /// same commands in flight).
    pub fn keep_sent_from(&mut self, other: &Predictor) {
        self.sent = other.sent.clone();
    }

    /// Records a command sent for `tick` (ticks rise; the oldest is dropped
    /// past [`MAX_UNACKED`]).
    pub fn sent(&mut self, tick: u32, cmd: UserCmd) {
        if self.sent.back().is_some_and(|(t, _)| *t >= tick) {
            return;
        }
        if self.sent.len() == MAX_UNACKED {
            self.sent.pop_front();
        }
        self.sent.push_back((tick, cmd));
    }

    /// The state after every command sent, starting from `base`, the state
    /// the server reached with the command of `acked` (its snapshot's
    /// `acked_cmd_tick`), moved through `world`.
    pub fn predict(&mut self, base: &PlayerState, acked: u32, world: &CollisionWorld) -> Result<Prediction, PredictError> {
        if let Some(&(oldest, _)) = self.sent.front()
            && acked < oldest.saturating_sub(1)
        {
            return Err(PredictError::TooOld { acked, oldest });
        }
        // Acknowledged commands are done with.
        while self.sent.front().is_some_and(|(t, _)| *t < acked) {
            self.sent.pop_front();
        }
        let last = self.sent.front().filter(|(t, _)| *t == acked).map(|(_, c)| *c);
        let mut state = move_state(base, last.as_ref());
        let mut replayed = 0;
        let mut hits = Vec::new();
        // A pad the acknowledged state stands in has fired already.
        self.triggers.touched(world, &state, &mut hits);
        let mut on_pad = hits.iter().copied().find(|id| matches!(self.triggers.get(*id), Some(MoveTrigger::JumpPad(_))));
        let mut triggered = false;
        for (_, cmd) in self.sent.iter().filter(|(t, _)| *t > acked) {
            // The events (sounds, landings) are the server's to tell.
            let scene = WithObstacles { world, obstacles: &self.obstacles };
            let _ = pmove(&mut state, cmd, &scene, &self.params, self.dt);
            self.triggers.touched(world, &state, &mut hits);
            let before = (state.origin, state.velocity);
            on_pad = self.touch(&mut state, world, &hits, on_pad);
            triggered = (state.origin, state.velocity) != before;
            replayed += 1;
        }
        Ok(Prediction { state, replayed, triggered })
    }

    /// What the touched triggers do after one move (the sim's order: by
    /// entity; a teleport ends it). Returns the pad stood in now.
    fn touch(&self, state: &mut MoveState, world: &CollisionWorld, hits: &[quarry_map::EntityId], on_pad: Option<quarry_map::EntityId>) -> Option<quarry_map::EntityId> {
        let mut pad_now = None;
        for id in hits {
            match self.triggers.get(*id) {
                Some(MoveTrigger::JumpPad(pad)) => {
                    pad_now = Some(*id);
                    if on_pad != Some(*id)
                        && let Some(v) = pad_velocity(pad, state.origin, self.params.gravity)
                    {
                        state.launch(v);
                    }
                }
                Some(MoveTrigger::Teleport { destination, yaw }) => {
                    teleport(state, world, *destination, *yaw);
                    return None;
                }
                None => {}
            }
        }
        pad_now
    }
}

/// How long a correction takes to fade out of the drawn position (Quake
/// 3's `cg_errorDecay` 100, Source's `cl_smoothtime` 0.1).
pub const SMOOTH_TIME: Duration = Duration::from_millis(100);

/// A miss larger than this (units) is drawn at once, not smoothed: the
/// player was moved, not nudged (Source's `MAX_PREDICTION_ERROR`).
pub const SNAP_DISTANCE: f32 = 64.0;

/// A miss this small (units) is not a miss (Quake 3's 0.1).
pub const MIN_ERROR: f32 = 0.1;

/// The offset a correction leaves on the drawn position, fading out.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ErrorSmoothing {
    offset: Vec3,
    since: Option<Instant>,
}

impl ErrorSmoothing {
    /// A new prediction put the player at `after` where the last one had
    /// it at `before`, for the same tick: the drawn position keeps showing
    /// `before` and moves to the prediction over [`SMOOTH_TIME`] (what is
    /// left of an earlier correction is added). A teleport, or a miss past
    /// [`SNAP_DISTANCE`], snaps; a miss under [`MIN_ERROR`] changes nothing.
    pub fn corrected(&mut self, before: Vec3, after: Vec3, teleported: bool, now: Instant) {
        let miss = before - after;
        if teleported || !miss.is_finite() || miss.length() > SNAP_DISTANCE {
            *self = Self::default();
            return;
        }
        if miss.length() <= MIN_ERROR {
            return;
        }
        self.offset = self.offset(now) + miss;
        self.since = Some(now);
    }

    /// What to add to the predicted position when drawing at `now`.
    pub fn offset(&self, now: Instant) -> Vec3 {
        let Some(since) = self.since else { return Vec3::ZERO };
        let left = 1.0 - now.saturating_duration_since(since).as_secs_f32() / SMOOTH_TIME.as_secs_f32();
        self.offset * left.clamp(0.0, 1.0)
    }
}

/// The pmove state a snapshot's own player state describes; `last` is the
/// command the server last moved it with (its angles are what a new delta
/// is worked out against).
pub fn move_state(p: &PlayerState, last: Option<&UserCmd>) -> MoveState {
    let mut s = MoveState::new(Vec3::from(p.origin));
    s.velocity = Vec3::from(p.velocity);
    s.pitch = p.pitch;
    s.yaw = p.yaw;
    s.delta_pitch = p.delta_angles[0];
    s.delta_yaw = p.delta_angles[1];
    if let Some(cmd) = last {
        s.cmd_pitch = cmd.pitch;
        s.cmd_yaw = cmd.yaw;
    }
    s.crouched = p.flags & PF_CROUCHED != 0;
    s.jump_held = p.flags & PF_JUMP_HELD != 0;
    s.dead = p.flags & PF_DEAD != 0;
    s.knockback_time = p.move_timers[MT_KNOCKBACK];
    s.land_time = p.move_timers[MT_LAND];
    s.teleport_time = p.move_timers[MT_TELEPORT];
    s.water_jump_time = p.move_timers[MT_WATER_JUMP];
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_correction_fades_out_linearly_and_a_jump_snaps() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let mut s = ErrorSmoothing::default();
        assert_eq!(s.offset(t0), Vec3::ZERO);
        s.corrected(Vec3::new(10.0, 0.0, 0.0), Vec3::ZERO, false, t0);
        assert_eq!(s.offset(t0), Vec3::new(10.0, 0.0, 0.0), "drawn where it was");
        assert!((s.offset(ms(50)).x - 5.0).abs() < 1e-4, "half way at 50 ms");
        assert_eq!(s.offset(ms(100)), Vec3::ZERO, "gone at 100 ms");
        // A second correction adds to what is left of the first.
        s.corrected(Vec3::new(0.0, 4.0, 0.0), Vec3::ZERO, false, ms(50));
        let o = s.offset(ms(50));
        assert!((o.x - 5.0).abs() < 1e-4 && (o.y - 4.0).abs() < 1e-4, "{o:?}");
        // Tiny misses are no misses; big ones and teleports snap.
        let before = s;
        s.corrected(Vec3::new(0.05, 0.0, 0.0), Vec3::ZERO, false, ms(60));
        assert_eq!(s, before);
        s.corrected(Vec3::new(100.0, 0.0, 0.0), Vec3::ZERO, false, ms(60));
        assert_eq!(s.offset(ms(60)), Vec3::ZERO, "snapped");
        s.corrected(Vec3::new(10.0, 0.0, 0.0), Vec3::ZERO, false, ms(70));
        s.corrected(Vec3::new(3.0, 0.0, 0.0), Vec3::ZERO, true, ms(70));
        assert_eq!(s.offset(ms(70)), Vec3::ZERO, "a teleport clears it");
        s.corrected(Vec3::splat(f32::NAN), Vec3::ZERO, false, ms(80));
        assert_eq!(s.offset(ms(80)), Vec3::ZERO, "nothing non-finite is drawn");
    }

    #[test]
    fn commands_are_kept_in_order_and_bounded() {
        let mut p = Predictor::new(MoveParams::default(), 60);
        for t in 1..=100 {
            p.sent(t, UserCmd::default());
        }
        p.sent(50, UserCmd::default());
        assert_eq!(p.sent.len(), MAX_UNACKED);
        assert_eq!(p.sent.front().map(|c| c.0), Some(37));
        let map = test_map("");
        let e = p.predict(&PlayerState::default(), 10, map.world()).expect_err("older than kept");
        assert_eq!(e, PredictError::TooOld { acked: 10, oldest: 37 });
        let done = p.predict(&PlayerState::default(), 98, map.world()).expect("within");
        assert_eq!(done.replayed, 2, "ticks 99 and 100");
    }

    /// A brush from `lo` to `hi` in the standard format.
    fn block(lo: [i32; 3], hi: [i32; 3], tex: &str) -> String {
        let [x0, y0, z0] = lo;
        let [x1, y1, z1] = hi;
        let face = |p: [[i32; 3]; 3]| {
            let f = |q: [i32; 3]| format!("( {} {} {} )", q[0], q[1], q[2]);
            format!("{} {} {} {tex} 0 0 0 1 1\n", f(p[0]), f(p[1]), f(p[2]))
        };
        let mut s = String::from("{\n");
        s += &face([[x0, y0 + 1, z0], [x0, y0, z0], [x0 + 1, y0, z0]]);
        s += &face([[x0 + 1, y0, z1], [x0, y0, z1], [x0, y0 + 1, z1]]);
        s += &face([[x0, y0, z0 + 1], [x0, y0, z0], [x0, y0 + 1, z0]]);
        s += &face([[x1, y0 + 1, z0], [x1, y0, z0], [x1, y0, z0 + 1]]);
        s += &face([[x0 + 1, y0, z0], [x0, y0, z0], [x0, y0, z0 + 1]]);
        s += &face([[x0, y1, z0 + 1], [x0, y1, z0], [x0 + 1, y1, z0]]);
        s + "}\n"
    }

    /// A big floor (top at z 0) and `rest` (more entities).
    fn test_map(rest: &str) -> quarry_map::LoadedMap {
        let text = format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{rest}", block([-2048, -2048, -64], [2048, 2048, 0], "floor"));
        quarry_map::load_str(&text, "predict.map", &quarry_map::LoadOptions::default()).expect("test map")
    }

    /// Runs forward along +X from the origin for `ticks` commands, all
    /// unacknowledged, with or without the map's movement triggers.
    fn run_forward(map: &quarry_map::LoadedMap, ticks: u32, triggers: bool) -> MoveState {
        let mut p = Predictor::new(MoveParams::default(), 60);
        if triggers {
            p = p.with_triggers(MoveTriggers::from_map(map));
        }
        for t in 1..=ticks {
            p.sent(t, UserCmd { tick: t, forward: 127, ..UserCmd::default() });
        }
        let base = PlayerState { origin: [0.0, 0.0, 24.0], flags: quarry_net::snapshot::PF_ON_GROUND, ..PlayerState::default() };
        p.predict(&base, 0, map.world()).expect("predicts").state
    }

    #[test]
    fn a_predicted_player_goes_through_a_teleporter() {
        let trigger = block([100, -64, 0], [164, 64, 96], "trigger");
        let map = test_map(&format!(
            "{{\n\"classname\" \"trigger_teleport\"\n\"target\" \"out\"\n{trigger}}}\n\
             {{\n\"classname\" \"misc_teleporter_dest\"\n\"targetname\" \"out\"\n\"origin\" \"0 1200 24\"\n\"angle\" \"90\"\n}}\n"
        ));
        let s = run_forward(&map, 60, true);
        assert!(s.origin.y > 1150.0 && s.origin.x.abs() < 200.0, "teleported to the destination and on along +Y: {}", s.origin);
        assert!((s.yaw - 90.0).abs() < 0.01, "facing the destination's angle: {}", s.yaw);
        // Without the triggers the same commands walk on along +X.
        assert!(run_forward(&map, 60, false).origin.y.abs() < 1.0);
    }

    #[test]
    fn a_predicted_player_is_launched_by_a_jump_pad() {
        let pad = block([100, -64, 0], [164, 64, 16], "trigger");
        let map = test_map(&format!(
            "{{\n\"classname\" \"trigger_push\"\n\"target\" \"top\"\n{pad}}}\n\
             {{\n\"classname\" \"target_position\"\n\"targetname\" \"top\"\n\"origin\" \"600 0 400\"\n}}\n"
        ));
        let s = run_forward(&map, 45, true);
        assert!(s.origin.z > 150.0, "launched up: {}", s.origin);
    }
}
