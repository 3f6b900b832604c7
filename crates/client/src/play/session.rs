//! The game as the player sees it, frame by frame: the connection, the
//! own player predicted with the server's pmove, and everyone else
//! interpolated between snapshots.
//!
//! Nothing here draws or reads a device, so it runs the same under a
//! window, a script or a test. Per frame: take in what arrived (a new
//! snapshot moves the render clock, the movers of the collision world
//! and corrects the prediction), send a command when one is due (at the
//! server's tick rate, with the view angles of this frame), and say where
//! the eye is and where every entity is drawn.

use std::collections::{BTreeMap, VecDeque};
use std::time::Instant;

use glam::Vec3;
use quarry_map::{EntityId, LoadedMap};
use quarry_movement::UserCmd;
use quarry_movement::pmove::{MoveParams, MoveState};
use quarry_movement::obstacles::BoxObstacle;
use quarry_movement::triggers::MoveTriggers;
use quarry_net::handshake::CS_MOVEMENT;
use quarry_net::snapshot::{EntityKind, PF_CROUCHED, PF_DEAD, PF_SPECTATOR, PlayerState};

use crate::client::Client;
use crate::error::ClientError;
use crate::predict::{ErrorSmoothing, Predictor};
use crate::view::EntityView;

/// Entity flag: dead (the server's `EF_DEAD`).
const EF_DEAD: u16 = 1;
/// Entity flag: crouched (the server's `EF_CROUCHED`).
const EF_CROUCHED: u16 = 1 << 1;

/// Snapshots kept for interpolation (a second at 30 per second is plenty).
const HISTORY: usize = 32;
/// Predicted positions kept by command tick, to measure each against the
/// server's answer.
const PREDICTIONS: usize = 128;
/// Players and projectiles are carried along their velocity for at most
/// this long past the newest snapshot (Quake 3's 50 ms).
const MAX_EXTRAPOLATION: f32 = 0.05;

/// One snapshot's entities, by id, and when the server made it.
#[derive(Debug, Clone)]
struct Frame {
    tick: u32,
    entities: BTreeMap<u32, EntityView>,
    player: Option<PlayerState>,
}

/// The server's tick as the client estimates it, moving smoothly: steered
/// only when a snapshot arrives (as Quake 3's clock), jumping when more
/// than half a second off.
#[derive(Debug, Clone, Copy)]
struct RenderClock {
    base_tick: f64,
    base_time: Option<Instant>,
    rate: f64,
    /// Set by whoever keeps the time (a demo's playback): the tick shown.
    pinned: Option<f64>,
}

impl RenderClock {
    fn now(&self, at: Instant) -> f64 {
        if let Some(tick) = self.pinned {
            return tick;
        }
        match self.base_time {
            Some(t) => self.base_tick + at.saturating_duration_since(t).as_secs_f64() * self.rate,
            None => self.base_tick,
        }
    }

    fn snapshot(&mut self, tick: u32, at: Instant) {
        let target = f64::from(tick);
        let off = target - self.now(at);
        if self.base_time.is_none() || off.abs() > self.rate * 0.5 {
            self.base_tick = target;
        } else {
            // A tenth of the way: steady under jitter, a few snapshots to settle.
            self.base_tick = self.now(at) + off * 0.1;
        }
        self.base_time = Some(at);
    }
}

/// When commands are due: one every tick interval, caught up after a slow
/// frame (at most [`MAX_CATCH_UP`] at once; further behind, the clock restarts).
#[derive(Debug, Clone, Copy)]
struct CommandClock {
    interval: std::time::Duration,
    next: Option<Instant>,
}

/// Most commands sent in one frame to catch up (the server queues 8).
const MAX_CATCH_UP: u32 = 6;

impl CommandClock {
    fn new(rate: f64) -> Self {
        CommandClock { interval: std::time::Duration::from_secs_f64(1.0 / rate.max(1.0)), next: None }
    }

    /// How many commands are due at `now` (and schedules the next).
    fn due(&mut self, now: Instant) -> u32 {
        let Some(mut next) = self.next else {
            self.next = Some(now + self.interval);
            return 1;
        };
        let mut n = 0;
        while next <= now && n < MAX_CATCH_UP {
            next += self.interval;
            n += 1;
        }
        if next <= now {
            next = now + self.interval;
        }
        self.next = Some(next);
        n
    }
}

/// Movement parameters from the server's `CS_MOVEMENT` text; what it
/// cannot read keeps Quake 3's value (and is logged).
fn movement_params(told: &str) -> MoveParams {
    let (params, problems) = MoveParams::from_settings_string(told);
    for p in problems {
        tracing::warn!("the server's movement settings: {p}");
    }
    params
}

/// What the player asks for this frame (from keys, mouse or a script).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Intent {
    /// The command without its tick: moves, buttons, weapon. Its angles are ignored.
    pub cmd: UserCmd,
}

/// An entity where it is drawn this frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drawn {
    /// The entity as in the newer of the two snapshots.
    pub view: EntityView,
    /// Where it is drawn.
    pub origin: Vec3,
}

/// Prediction figures: how far each prediction was from the server's
/// answer for the same command.
#[derive(Debug, Clone, Default)]
pub struct PredictionFigures {
    /// Every miss measured, units (the newest last; at most 100,000 kept).
    pub misses: Vec<f32>,
    /// Commands predicted through a teleporter or off a jump pad.
    pub triggers: u32,
}

impl PredictionFigures {
    /// The `q` quantile (0..1) of the misses, 0 without any.
    pub fn quantile(&self, q: f64) -> f32 {
        quantile_of(&self.misses, q)
    }

    /// The `q` quantile of the newest `n` misses (what a net graph shows
    /// every frame: sorting all of them each frame would grow with the game).
    pub fn recent_quantile(&self, q: f64, n: usize) -> f32 {
        quantile_of(&self.misses[self.misses.len().saturating_sub(n)..], q)
    }

    /// The newest miss.
    pub fn last(&self) -> f32 {
        self.misses.last().copied().unwrap_or(0.0)
    }
}

/// The `q` quantile (0..1) of `misses`, 0 without any.
fn quantile_of(misses: &[f32], q: f64) -> f32 {
    if misses.is_empty() {
        return 0.0;
    }
    let mut v = misses.to_vec();
    v.sort_by(f32::total_cmp);
    let i = ((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    v[i]
}

/// The connection and everything predicted and interpolated from it.
pub struct Session {
    client: Client,
    map: LoadedMap,
    predictor: Predictor,
    params: MoveParams,
    smoothing: ErrorSmoothing,
    pacer: CommandClock,
    clock: RenderClock,
    history: VecDeque<Frame>,
    /// The command's angles (Quake 3's `cl.viewangles`): where the mouse
    /// has turned, before the server's delta angles (a spawn's or a
    /// teleporter's facing) are added. Degrees, pitch down positive.
    cmd_angles: [f32; 2],

    predicted: Option<MoveState>,
    predicted_before: Option<Vec3>,
    predicted_at: Option<Instant>,
    by_tick: VecDeque<(u32, Vec3)>,
    /// How well prediction did.
    pub figures: PredictionFigures,
    tick_rate: f64,
    travelled: f32,
    /// The server's movement settings as last told (`CS_MOVEMENT`).
    movement_told: String,
    /// Watching, not playing (a demo): no commands, no prediction; the
    /// view is the own player's state as the snapshots have it.
    observing: bool,
}

impl Session {
    /// A session on `client` (welcomed) playing on `map` (loaded from the
    /// same text the server runs).
    pub fn new(client: Client, map: LoadedMap) -> Self {
        let tick_rate = client.welcome().map_or(60, |w| w.tick_rate.max(1));
        let told = client.config_strings().get(&CS_MOVEMENT).cloned().unwrap_or_default();
        let params = movement_params(&told);
        let triggers = MoveTriggers::from_map(&map);
        Session {
            client,
            map,
            predictor: Predictor::new(params, u32::from(tick_rate)).with_triggers(triggers),
            params,
            smoothing: ErrorSmoothing::default(),
            pacer: CommandClock::new(f64::from(tick_rate)),
            clock: RenderClock { base_tick: 0.0, base_time: None, rate: f64::from(tick_rate), pinned: None },
            history: VecDeque::with_capacity(HISTORY),
            cmd_angles: [0.0; 2],

            predicted: None,
            predicted_before: None,
            predicted_at: None,
            by_tick: VecDeque::with_capacity(PREDICTIONS),
            figures: PredictionFigures::default(),
            tick_rate: f64::from(tick_rate),
            travelled: 0.0,
            movement_told: told,
            observing: false,
        }
    }

    /// A session that watches (a demo's viewer): it sends nothing and
    /// predicts nothing; the view follows the own player of the snapshots,
    /// interpolated like everyone else.
    pub fn observer(client: Client, map: LoadedMap) -> Self {
        Session { observing: true, ..Session::new(client, map) }
    }

    /// Shows the game at server tick `tick` (fractional) from now on,
    /// instead of the clock kept from the snapshots' arrival: a demo's
    /// playback keeps the time (paused, faster, slower).
    pub fn pin_clock(&mut self, tick: f64) {
        if tick.is_finite() {
            self.clock.pinned = Some(tick);
        }
    }

    /// Forgets the snapshots kept and what was predicted from them (the
    /// demo moved to another tick or another player).
    pub fn restart(&mut self) {
        self.history.clear();
        self.predicted = None;
        self.predicted_before = None;
        self.by_tick.clear();
        self.smoothing = ErrorSmoothing::default();
    }

    /// The connection.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The connection, to chat or send commands.
    pub fn client_mut(&mut self) -> &mut Client {
        &mut self.client
    }

    /// The map.
    pub fn map(&self) -> &LoadedMap {
        &self.map
    }

    /// Plays on another map (after a map change): prediction and
    /// interpolation start again from the next snapshot.
    pub fn set_map(&mut self, map: LoadedMap) {
        let tick_rate = self.client.welcome().map_or(60, |w| w.tick_rate.max(1));
        self.predictor = Predictor::new(self.params, u32::from(tick_rate)).with_triggers(MoveTriggers::from_map(&map));
        self.map = map;
        self.history.clear();
        self.predicted = None;
        self.predicted_before = None;
        self.by_tick.clear();
        self.smoothing = ErrorSmoothing::default();
    }

    /// Turns the view by mouse or script (degrees).
    pub fn turn(&mut self, dyaw: f32, dpitch: f32) {
        if dyaw.is_finite() && dpitch.is_finite() {
            let [p, y] = self.cmd_angles;
            self.cmd_angles = [quarry_movement::wrap_half_turn(p + dpitch), (y + dyaw).rem_euclid(360.0)];
        }
    }

    /// Turns the view to look at `pitch`, `yaw` (degrees) now.
    pub fn look_at(&mut self, pitch: f32, yaw: f32) {
        let [vp, vy] = self.view_angles();
        let dyaw = quarry_movement::wrap_half_turn(yaw - vy);
        self.turn(dyaw, pitch.clamp(-quarry_movement::MAX_PITCH, quarry_movement::MAX_PITCH) - vp);
    }

    /// The delta angles in force: the prediction's (a predicted teleport
    /// turns the view at once), else the newest snapshot's.
    fn delta(&self) -> [f32; 2] {
        match &self.predicted {
            Some(s) => [s.delta_pitch, s.delta_yaw],
            None => self.player().map_or([0.0; 2], |p| p.delta_angles),
        }
    }

    /// The view angles drawn now, `[pitch, yaw]` in degrees: the command
    /// angles plus the delta angles, pitch held within ±89.
    pub fn view_angles(&self) -> [f32; 2] {
        if self.observing {
            return self.observed_angles();
        }
        let [dp, dy] = self.delta();
        let [p, y] = self.cmd_angles;
        let pitch = quarry_movement::wrap_half_turn(p + dp).clamp(-quarry_movement::MAX_PITCH, quarry_movement::MAX_PITCH);
        [pitch, (y + dy).rem_euclid(360.0)]
    }

    /// One frame: takes in what arrived and sends the command when due.
    pub fn frame(&mut self, now: Instant, intent: Intent) -> Result<(), ClientError> {
        let before = self.client.view().snapshots_applied();
        self.client.pump();
        if self.client.view().snapshots_applied() != before {
            self.snapshot_arrived(now);
        }
        if !self.client.is_connected() || self.observing {
            return Ok(());
        }
        // One command per server tick, however long the frame took: a tick
        // without one makes the server repeat the last, which the
        // prediction would not know about.
        for _ in 0..self.pacer.due(now) {
            // The client takes the snapshot's delta off the view it is
            // given: hand it the command angles plus that delta.
            let delta = self.player().map_or([0.0; 2], |p| p.delta_angles);
            let [p, y] = self.cmd_angles;
            let cmd = UserCmd { pitch: p + delta[0], yaw: y + delta[1], ..intent.cmd };
            let Some(sent) = self.client.send_cmd_returning(cmd)? else { break };
            self.predictor.sent(sent.tick, sent);
            self.repredict(now, Some(sent.tick));
        }
        Ok(())
    }

    /// Takes the server's movement settings when they changed.
    fn follow_movement_settings(&mut self) {
        let told = self.client.config_strings().get(&CS_MOVEMENT).map_or("", String::as_str);
        if told == self.movement_told {
            return;
        }
        self.movement_told = told.to_owned();
        self.params = movement_params(told);
        let tick_rate = self.client.welcome().map_or(60, |w| w.tick_rate.max(1));
        let triggers = MoveTriggers::from_map(&self.map);
        let sent = std::mem::replace(&mut self.predictor, Predictor::new(self.params, u32::from(tick_rate)).with_triggers(triggers));
        self.predictor.keep_sent_from(&sent);
    }

    fn snapshot_arrived(&mut self, now: Instant) {
        self.follow_movement_settings();
        let view = self.client.view();
        let Some(tick) = view.server_tick() else { return };
        let player = view.player().copied();
        let entities: BTreeMap<u32, EntityView> = view.entities().map(|e| (e.id, *e)).collect();
        self.clock.snapshot(tick, now);
        if let (Some(p), Some(before)) = (player, self.history.back().and_then(|f| f.player)) {
            let step = Vec3::from(p.origin).distance(Vec3::from(before.origin));
            if step.is_finite() && step < 64.0 {
                self.travelled += step;
            }
        }
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(Frame { tick, entities, player });
        self.place_movers();
        self.place_obstacles();
        if let Some(p) = player {
            let acked = self.client.view().acked_cmd_tick();
            if let Some(&(_, at)) = self.by_tick.iter().find(|(t, _)| *t == acked)
                && p.flags & (PF_DEAD | PF_SPECTATOR) == 0
            {
                let miss = at.distance(Vec3::from(p.origin));
                if miss.is_finite() && self.figures.misses.len() < 100_000 {
                    self.figures.misses.push(miss);
                }
            }
        }
        let before = self.predicted.map(|s| s.origin);
        self.repredict(now, None);
        if let (Some(before), Some(after)) = (before, self.predicted.map(|s| s.origin)) {
            let teleported = player.is_some_and(|p| p.move_timers[quarry_net::snapshot::MT_TELEPORT] > 0.0);
            self.smoothing.corrected(before, after, teleported, now);
        }
    }

    /// Moves the collision world's movers to where the newest snapshot has them.
    fn place_movers(&mut self) {
        let Some(frame) = self.history.back() else { return };
        let world = self.map.world_mut();
        for e in frame.entities.values().filter(|e| e.kind == EntityKind::Mover) {
            if let Some(m) = world.mover_of(EntityId(e.state.aux)) {
                world.set_mover_offset(m, Vec3::from(e.origin));
            }
        }
    }

    /// Gives the predictor the other living players' boxes of the newest snapshot.
    fn place_obstacles(&mut self) {
        let Some(frame) = self.history.back() else { return };
        let own = self.client.welcome().map(|w| u32::from(w.slot));
        let obstacles = frame
            .entities
            .values()
            .filter(|e| e.kind == EntityKind::Player && Some(e.state.aux) != own && e.state.flags & EF_DEAD == 0)
            .map(|e| {
                let (mins, maxs) = if e.state.flags & EF_CROUCHED != 0 { self.params.crouch_box() } else { self.params.player_box() };
                BoxObstacle { origin: Vec3::from(e.origin), mins, maxs }
            })
            .collect();
        self.predictor.set_obstacles(obstacles);
    }

    /// Predicts from the newest snapshot; `sent` is the tick of a command
    /// just sent (its predicted position is remembered to measure later).
    fn repredict(&mut self, now: Instant, sent: Option<u32>) {
        if self.observing {
            return;
        }
        let Some(base) = self.client.view().player().copied() else { return };
        if base.flags & (PF_DEAD | PF_SPECTATOR) != 0 {
            self.predicted = None;
            return;
        }
        let acked = self.client.view().acked_cmd_tick();
        let Ok(p) = self.predictor.predict(&base, acked, self.map.world()) else {
            self.predicted = None;
            return;
        };
        if let Some(tick) = sent {
            self.figures.triggers += u32::from(p.triggered);
            self.predicted_before = self.predicted.map(|s| s.origin);
            self.predicted_at = Some(now);
            if self.by_tick.len() == PREDICTIONS {
                self.by_tick.pop_front();
            }
            self.by_tick.push_back((tick, p.state.origin));
        }
        self.predicted = Some(p.state);
    }

    /// The own player's state from the newest snapshot.
    pub fn player(&self) -> Option<&PlayerState> {
        self.client.view().player()
    }

    /// Where the eye is drawn: the prediction, eased between the last two
    /// commands and with what is left of a correction; the server's
    /// position when dead or not predicting.
    pub fn eye(&self, now: Instant) -> Vec3 {
        let p = self.player();
        let crouched = p.is_some_and(|p| p.flags & PF_CROUCHED != 0);
        let dead = p.is_some_and(|p| p.flags & PF_DEAD != 0);
        let height = if dead {
            self.params.dead_view_height
        } else if crouched {
            self.params.crouch_view_height
        } else {
            self.params.view_height
        };
        if self.observing {
            return self.observed(now).map_or(Vec3::ZERO, |(origin, _)| origin) + Vec3::Z * height;
        }
        let origin = match self.predicted {
            Some(s) => {
                let t = self.predicted_at.map_or(1.0, |at| {
                    (now.saturating_duration_since(at).as_secs_f64() * self.tick_rate).clamp(0.0, 1.0) as f32
                });
                let from = self.predicted_before.filter(|b| b.distance(s.origin) < 64.0).unwrap_or(s.origin);
                from.lerp(s.origin, t) + self.smoothing.offset(now)
            }
            None => p.map_or(Vec3::ZERO, |p| Vec3::from(p.origin)),
        };
        origin + Vec3::Z * height
    }

    /// The two snapshots around the clock's tick at `now`, and how far
    /// between them it is (0..1); the newest twice past it.
    fn frames_around(&self, now: Instant, behind: f64) -> Option<(&Frame, &Frame, f32)> {
        let at = self.clock.now(now) - behind;
        let newer = self.history.iter().position(|f| f64::from(f.tick) > at);
        let (a, b) = match newer {
            Some(0) | None => {
                let last = self.history.back()?;
                (last, last)
            }
            Some(i) => (&self.history[i - 1], &self.history[i]),
        };
        let span = f64::from(b.tick.saturating_sub(a.tick)).max(1.0);
        Some((a, b, ((at - f64::from(a.tick)) / span).clamp(0.0, 1.0) as f32))
    }

    /// The server tick drawn at `now`: the clock's, within the snapshots
    /// kept (`None` before the first).
    pub fn shown_tick(&self, now: Instant) -> Option<f64> {
        let (first, last) = (self.history.front()?.tick, self.history.back()?.tick);
        Some(self.clock.now(now).clamp(f64::from(first), f64::from(last)))
    }

    /// The watched own player's origin and view angles at `now`,
    /// interpolated between the snapshots around the clock.
    fn observed(&self, now: Instant) -> Option<(Vec3, [f32; 2])> {
        let (a, b, t) = self.frames_around(now, 0.0)?;
        let to = b.player?;
        let from = a.player.unwrap_or(to);
        let (o0, o1) = (Vec3::from(from.origin), Vec3::from(to.origin));
        let origin = if o0.distance(o1) > 128.0 { o1 } else { o0.lerp(o1, t) };
        let yaw = from.yaw + quarry_movement::wrap_half_turn(to.yaw - from.yaw) * t;
        let pitch = from.pitch + (to.pitch - from.pitch) * t;
        Some((origin, [pitch.clamp(-quarry_movement::MAX_PITCH, quarry_movement::MAX_PITCH), yaw.rem_euclid(360.0)]))
    }

    /// The watched player's view angles (a watching session's clock is
    /// pinned, so the instant does not matter).
    fn observed_angles(&self) -> [f32; 2] {
        self.observed(Instant::now()).map_or([0.0; 2], |(_, angles)| angles)
    }

    /// The predicted own state after the newest command.
    pub fn predicted(&self) -> Option<&MoveState> {
        self.predicted.as_ref()
    }

    /// Every other entity where it is drawn now: `cl_interp` seconds behind
    /// the estimated server time, between the two snapshots around it.
    pub fn entities(&self, now: Instant, cl_interp: f32) -> Vec<Drawn> {
        let behind = f64::from(cl_interp.max(0.0)) * self.tick_rate;
        let Some((a, b, t)) = self.frames_around(now, behind) else { return Vec::new() };
        // Past the newest snapshot: carry moving things along, briefly.
        let at = self.clock.now(now) - behind;
        let past_newest = self.history.back().is_some_and(|f| f64::from(f.tick) <= at);
        let ahead = if past_newest { ((at - f64::from(b.tick)) / self.tick_rate).clamp(0.0, f64::from(MAX_EXTRAPOLATION)) as f32 } else { 0.0 };
        b.entities
            .values()
            .map(|e| {
                let to = Vec3::from(e.origin);
                let from = a.entities.get(&e.id).map_or(to, |o| Vec3::from(o.origin));
                let jumped = from.distance(to) > 128.0;
                let mut origin = if jumped { to } else { from.lerp(to, t) };
                if matches!(e.kind, EntityKind::Player | EntityKind::Projectile) {
                    origin += Vec3::from(e.velocity) * ahead;
                }
                Drawn { view: *e, origin }
            })
            .collect()
    }

    /// The tick the render clock puts the server at now.
    pub fn server_time(&self, now: Instant) -> f64 {
        self.clock.now(now)
    }

    /// Snapshots the own player state of, newest last (for the net graph).
    pub fn history_ticks(&self) -> impl Iterator<Item = u32> + '_ {
        self.history.iter().map(|f| f.tick)
    }

    /// How far the server moved the own player, units, in steps under 64
    /// units between snapshots (a respawn or a teleport is not a walk).
    pub fn travelled(&self) -> f32 {
        self.travelled
    }

    /// The own player in the newest snapshot that had one.
    pub fn last_player(&self) -> Option<PlayerState> {
        self.history.iter().rev().find_map(|f| f.player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn commands_catch_up_after_a_slow_frame_but_never_burst_without_bound() {
        let start = Instant::now();
        let mut c = CommandClock::new(60.0);
        assert_eq!(c.due(start), 1, "the first frame sends one");
        assert_eq!(c.due(start + Duration::from_millis(5)), 0);
        // A frame that ends 67 ms in owes the commands of 16.7, 33.3, 50 and 66.7 ms.
        assert_eq!(c.due(start + Duration::from_millis(67)), 4);
        // A stall of a second sends at most MAX_CATCH_UP and starts again.
        let later = start + Duration::from_secs(2);
        assert_eq!(c.due(later), MAX_CATCH_UP);
        assert_eq!(c.due(later + Duration::from_millis(1)), 0);
        assert_eq!(c.due(later + Duration::from_millis(18)), 1);
    }

    #[test]
    fn the_render_clock_moves_smoothly_and_jumps_only_when_far_off() {
        let start = Instant::now();
        let mut clock = RenderClock { base_tick: 0.0, base_time: None, rate: 60.0, pinned: None };
        clock.snapshot(100, start);
        assert_eq!(clock.now(start), 100.0);
        assert!((clock.now(start + Duration::from_millis(500)) - 130.0).abs() < 1e-6, "runs at the tick rate");
        // A snapshot 2 ticks later than expected moves the clock a tenth of the way.
        let at = start + Duration::from_millis(100);
        clock.snapshot(108, at);
        assert!((clock.now(at) - 106.2).abs() < 1e-6, "{}", clock.now(at));
        // Half a second off: it jumps.
        clock.snapshot(200, at);
        assert_eq!(clock.now(at), 200.0);
    }

    #[test]
    fn quantiles_of_the_misses() {
        let f = PredictionFigures { misses: (0..100).map(|i| i as f32).collect(), triggers: 0 };
        assert_eq!(f.quantile(0.5), 50.0);
        assert_eq!(f.quantile(0.99), 98.0);
        assert_eq!(f.last(), 99.0);
        assert_eq!(f.recent_quantile(0.5, 10), 95.0, "the newest ten are 90..=99");
        assert_eq!(PredictionFigures::default().quantile(0.99), 0.0);
    }
}
