//! [`ScriptedBrain`]: a bot whose decisions come from a script. It
//! perceives as the native brain does (the same senses and memory), calls
//! the script on its own clock (`bot_scriptRate`), and turns the command
//! the script built into the user command a player's keys would make;
//! between calls the command repeats, like held keys. A call that fails
//! (an error, or a limit: operations, time) sends no input that tick;
//! [`MAX_FAILURES`] failures in a row hand the bot to the native brain,
//! and `botlist` says so; a bot whose turns fail now and then shows as
//! failing there ([`ScriptHealth`]).
//!
//! A bot's turn (its calls of one period: `on_reload`, `on_join`, the
//! pending events, `on_tick`) makes each call only while the tick's script
//! time (`bot_scriptTickMs`, kept by the library) is not spent; once it
//! is, the rest of the turn waits for the next tick, when the bot is due
//! again (its last `on_tick` is then more than a period old), and its keys
//! stay held meanwhile, as between calls. The manager starts each tick
//! with another bot, so the wait falls on each in turn. Sound brains never
//! spend the tick's time, so no turn waits and play stays exactly
//! repeatable.

use std::sync::{Arc, Mutex};

use quarry_sim::chat::ChatScope;
use quarry_sim::events::{GameEvent, SoundKind};
use quarry_sim::{SlotId, UserCmd};

use super::engine::{Entry, Instance, Program, SharedHost};
use super::host::{HostState, ScriptCommand, ScriptEvent};
use super::library::Scripts;
use super::log::LogLimiter;
use super::{ScriptError, snapshot, thread_cpu};
use crate::act::{Intent, compose};
use crate::brain::{BotProfile, Brain, BrainInput, BrainOutput, BrainSettings, BrainStatus, ChatLine, NativeBrain, SIGHT_BUDGET};
use crate::content::{BotIdentity, TraitSource};
use crate::perception::hearing::estimate;
use crate::perception::{Percept, Senses, percepts_hearing};
use crate::rng::BotRng;
use crate::team::{Order, OrderKind};
use crate::view::{BotClock, BotView, PlayerSnap};

/// Failed calls in a row after which the bot plays on the native brain.
pub const MAX_FAILURES: u32 = 5;
/// A bot's script warnings are logged at most this often, ms.
pub const WARN_EVERY_MS: f32 = 5000.0;
/// Events kept for the next call: a sound is dropped when they are full,
/// any other event makes room by dropping the oldest sound (or the oldest
/// event).
pub const MAX_PENDING_EVENTS: usize = 8;
/// The turns [`ScriptHealth`] looks back on.
pub const HEALTH_WINDOW: u32 = 20;

/// How a scripted bot's turns have gone, for `botlist`: a bot whose turns
/// fail now and then (a limit it crosses in some fights only) is marked
/// failing there, though it never fails the [`MAX_FAILURES`] in a row that
/// hand it to the native brain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScriptHealth {
    /// The last [`HEALTH_WINDOW`] turns, the newest in the lowest bit: 1
    /// for a failed one.
    recent: u32,
    /// Turns run to their end (`on_tick`) or to a failure.
    pub turns: u64,
    /// Calls that failed.
    pub failed: u64,
    /// Of them, stopped at the time limit (`bot_scriptMaxMs`).
    pub over_time: u64,
    /// Of them, stopped at the operation budget (`bot_scriptMaxOps`).
    pub over_ops: u64,
    /// Times a turn was put off to the next tick (the tick's script time,
    /// `bot_scriptTickMs`, was spent).
    pub deferred: u64,
    /// What the last failure was: `time limit`, `operation budget` or `error`.
    pub last_failure: Option<&'static str>,
}

impl ScriptHealth {
    /// A turn ended, failed by `failure` or not.
    fn turn(&mut self, failure: Option<&ScriptError>) {
        self.turns += 1;
        self.recent = ((self.recent << 1) | u32::from(failure.is_some())) & ((1 << HEALTH_WINDOW) - 1);
        let Some(e) = failure else { return };
        self.failed += 1;
        self.last_failure = Some(match e {
            ScriptError::Time { .. } => {
                self.over_time += 1;
                "time limit"
            }
            ScriptError::Budget { .. } => {
                self.over_ops += 1;
                "operation budget"
            }
            _ => "error",
        });
    }

    /// Turns of the last [`HEALTH_WINDOW`] that failed.
    pub fn recent_failures(&self) -> u32 {
        self.recent.count_ones()
    }

    /// What `botlist` adds to the bot's goal: `failing 3/20: time limit`
    /// while any of the last turns failed, else nothing.
    pub fn note(&self) -> Option<String> {
        let n = self.recent_failures();
        (n > 0).then(|| format!("failing {n}/{HEALTH_WINDOW}: {}", self.last_failure.unwrap_or("error")))
    }
}

/// A bot run by a script.
#[derive(Debug)]
pub struct ScriptedBrain {
    profile: BotProfile,
    /// The brain's name (`companion`).
    brain: String,
    scripts: Scripts,
    /// The program version the instance runs.
    version: u64,
    instance: Box<dyn Instance>,
    host: SharedHost,
    senses: Senses,
    rng: BotRng,
    seed: u64,
    alive: bool,
    joined: bool,
    last_call: Option<u32>,
    last_cmd: UserCmd,
    failures: u32,
    warned_at: Option<u32>,
    /// The error that handed the bot to the native brain.
    failed: Option<String>,
    fallback: Option<Box<NativeBrain>>,
    owner: Option<SlotId>,
    order: Option<Order>,
    events: Vec<ScriptEvent>,
    sight_checks: usize,
    /// The enemy in sight its view points at while it holds attack (for
    /// `botlist`; the script never says whom it shoots).
    aim: Option<SlotId>,
    /// Calls made in the current period.
    calls: u64,
    /// `on_reload` is due (a turn put off before it could run).
    reload_due: bool,
    health: ScriptHealth,
    log: LogLimiter,
}

impl ScriptedBrain {
    /// A bot in `slot` running the brain `brain` from `scripts`, serving
    /// `owner` if given; `seed` is the match seed. Fails if no such brain
    /// is loaded.
    #[expect(clippy::too_many_arguments, reason = "a native brain's arguments plus the script's")]
    pub fn new(
        slot: SlotId,
        identity: BotIdentity,
        skill_override: Option<f32>,
        skill_roll: f32,
        seed: u64,
        brain: &str,
        scripts: Scripts,
        owner: Option<SlotId>,
    ) -> Result<Self, String> {
        let (program, version) = {
            let lib = scripts.lock().map_err(|_| "the script library is unavailable".to_owned())?;
            let names = lib.names();
            lib.get(brain).ok_or_else(|| {
                let known = if names.is_empty() { "none is loaded".to_owned() } else { format!("loaded: {}", names.join(", ")) };
                format!("no brain '{brain}' ({known}; brains are botfiles/brains/NAME.rhai)")
            })?
        };
        Ok(Self {
            profile: BotProfile::new(slot, identity, skill_override, skill_roll),
            brain: brain.to_ascii_lowercase(),
            scripts,
            version,
            instance: program.instantiate(),
            host: Arc::new(Mutex::new(HostState::new(BotRng::for_slot(seed, slot.0, 7)))),
            senses: Senses::default(),
            rng: BotRng::for_slot(seed, slot.0, 0),
            seed,
            alive: false,
            joined: false,
            last_call: None,
            last_cmd: UserCmd::default(),
            failures: 0,
            warned_at: None,
            failed: None,
            fallback: None,
            owner,
            order: None,
            events: Vec::new(),
            sight_checks: 0,
            aim: None,
            calls: 0,
            reload_due: false,
            health: ScriptHealth::default(),
            log: LogLimiter::default(),
        })
    }

    /// The brain's name.
    pub fn brain_name(&self) -> &str {
        &self.brain
    }

    /// Why the bot plays on the native brain, if it does.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// How its turns have gone.
    pub fn health(&self) -> ScriptHealth {
        self.health
    }

    /// `log()` lines dropped so far (over a call's cap or the rate).
    pub fn log_dropped(&self) -> u64 {
        self.log.dropped()
    }

    /// The player it serves.
    pub fn owner(&self) -> Option<SlotId> {
        self.owner
    }

    fn push_event(&mut self, ev: ScriptEvent) {
        if !self.instance.wants_event(ev.kind()) {
            return;
        }
        if self.events.len() >= MAX_PENDING_EVENTS {
            if matches!(ev, ScriptEvent::Sound { .. }) {
                return;
            }
            let oldest_sound = self.events.iter().position(|e| matches!(e, ScriptEvent::Sound { .. }));
            self.events.remove(oldest_sound.unwrap_or(0));
        }
        self.events.push(ev);
    }

    /// This tick's events as the bot perceives them: hits it took, the
    /// kill feed, chat it can read, sounds it heard (at an estimate).
    fn perceive_events(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap) {
        let view = input.view;
        let slot = self.profile.slot;
        let clock = view.clock;
        let hearing = self.instance.wants_event("sound");
        for p in percepts_hearing(view, me, slot, input.ignored, hearing) {
            match p {
                Percept::Hit { attacker, dir, seen } => {
                    self.senses.memory.note_hit(attacker, clock.tick, dir);
                    if let Some(s) = seen {
                        self.senses.memory.see(attacker, clock.tick, s.origin, s.velocity, s.point - s.origin);
                    }
                }
                Percept::KilledBy(k) => self.senses.memory.last_killer = Some(k),
                Percept::Died(_) => {}
                // The estimate costs a navmesh query: only for a brain that listens.
                Percept::Heard(s) => {
                    let (at, _) = estimate(s.origin, s.distance, &mut *input.nav, &mut self.rng);
                    let kind = sound_name(s.kind).to_owned();
                    self.push_event(ScriptEvent::Sound { kind, at, source: s.source.map_or(-1, |x| i64::from(x.0)) });
                }
            }
        }
        for ev in &view.events {
            let e = match ev {
                GameEvent::Damage { target, attacker, amount, armor, dir, .. } if *target == slot => {
                    ScriptEvent::Damage { attacker: attacker.map_or(-1, |a| i64::from(a.0)), amount: i64::from(*amount + *armor), dir: *dir }
                }
                GameEvent::Kill { killer, victim, .. } => ScriptEvent::Kill { killer: killer.map_or(-1, |k| i64::from(k.0)), victim: i64::from(victim.0) },
                GameEvent::Chat { from: Some(from), name, scope, text } if *from != slot => {
                    let team = matches!(scope, ChatScope::Team(_));
                    if matches!(scope, ChatScope::Team(t) if *t != me.team) {
                        continue;
                    }
                    self.heard_order(*from, text, team, view, me);
                    ScriptEvent::Chat { from: i64::from(from.0), name: name.clone(), text: text.clone(), team }
                }
                _ => continue,
            };
            self.push_event(e);
        }
    }

    /// A follow order said to the bot ("follow me", "escort me", "come
    /// with me", "with me": [`crate::team::parse_order`]) in team chat in a
    /// team game, or in a line that names it, makes the speaker its owner,
    /// as the team layer's order does in team games.
    fn heard_order(&mut self, from: SlotId, text: &str, team: bool, view: &BotView<'_>, me: &PlayerSnap) {
        let named = text.to_lowercase().contains(&self.profile.identity.name.to_lowercase());
        let addressed = named || (team && view.team_game);
        if !addressed || view.player(from).is_none() || from == me.slot {
            return;
        }
        if crate::team::parse_order(text) == Some(OrderKind::Follow) {
            self.owner = Some(from);
        }
    }

    /// The script's turn, if due this tick: `on_reload` (a new version),
    /// `on_join` (once), the pending events, then `on_tick(dt)`. `Ok(true)`:
    /// the turn ran to its end; `Ok(false)`: none was due, or the tick's
    /// script time was spent and the rest waits for the next tick.
    fn run_script(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap) -> Result<bool, ScriptError> {
        let clock = input.view.clock;
        let period = (clock.hz as f32 / input.settings.script_rate.max(1) as f32).round().max(1.0) as u32;
        // Staggered by slot, so bots' calls spread over the period's ticks.
        let due = (clock.tick + u32::from(self.profile.slot.0)).is_multiple_of(period) || self.last_call.is_some_and(|t| clock.tick.wrapping_sub(t) > period);
        if !due {
            return Ok(false);
        }
        if !self.tick_time_left(clock.tick) {
            self.defer();
            return Ok(false);
        }
        let (nav, teleporters) = match self.scripts.lock() {
            Ok(mut l) => (l.take_nav(), Some(l.teleporters(input.view.map))),
            Err(_) => (None, None),
        };
        {
            let mut host = self.lock_host()?;
            if let Some(t) = teleporters {
                host.teleporters = t;
            }
            snapshot::fill(&mut host, input.view, me, &self.senses, self.owner, self.order);
            host.nav = nav;
        }
        let started = std::time::Instant::now();
        self.calls = 0;
        let result = self.call_all(&clock);
        let took = started.elapsed();
        let (nav, nav_time) = self.lock_host().map_or((None, std::time::Duration::ZERO), |mut h| (h.nav.take(), std::mem::take(&mut h.nav_time)));
        if let Ok(mut lib) = self.scripts.lock() {
            lib.return_nav(nav);
            if self.calls > 0 {
                lib.record(self.calls, took, nav_time);
            }
        }
        match &result {
            Ok(false) => self.defer(),
            Ok(true) => self.health.turn(None),
            Err(e) => {
                self.health.turn(Some(e));
                // The turn is over: the next is a period on; the events
                // it did not reach are dropped with it.
                self.last_call = Some(clock.tick);
                self.events.clear();
            }
        }
        result
    }

    /// This turn's calls, in order: `on_reload` (a new version),
    /// `on_join` (once), each pending event, `on_tick(dt)`; each call has
    /// its own quotas and limits, and is made only while the tick's script
    /// time lasts (`Ok(false)`: the rest waits).
    fn call_all(&mut self, clock: &BotClock) -> Result<bool, ScriptError> {
        if self.reload_if_newer() {
            self.reload_due = true;
        }
        if self.reload_due {
            if !self.tick_time_left(clock.tick) {
                return Ok(false);
            }
            self.reload_due = false;
            self.call(Entry::Reload, clock.tick)?;
        }
        if !self.joined {
            if !self.tick_time_left(clock.tick) {
                return Ok(false);
            }
            self.joined = true;
            self.call(Entry::Join, clock.tick)?;
        }
        while !self.events.is_empty() {
            if !self.tick_time_left(clock.tick) {
                return Ok(false);
            }
            let ev = self.events.remove(0);
            self.call(Entry::Event(&ev), clock.tick)?;
        }
        if !self.tick_time_left(clock.tick) {
            return Ok(false);
        }
        let dt = self.last_call.map_or(0.0, |t| f64::from(clock.tick.wrapping_sub(t) as f32 / clock.hz.max(1) as f32));
        self.last_call = Some(clock.tick);
        self.call(Entry::Tick(dt), clock.tick)?;
        Ok(true)
    }

    /// One call, with fresh quotas; its CPU time is charged to `tick`
    /// (navmesh queries included; the call's own limit leaves them out).
    fn call(&mut self, entry: Entry<'_>, tick: u32) -> Result<(), ScriptError> {
        self.calls += 1;
        self.lock_host()?.quota = super::host::Quotas::PER_CALL;
        let cpu = thread_cpu();
        let result = self.instance.call(entry, &self.host);
        let used = thread_cpu().saturating_sub(cpu);
        let own = super::last_charged().min(used);
        if let Ok(mut lib) = self.scripts.lock() {
            lib.charge(tick, used, own, matches!(result, Err(ScriptError::Time { .. })));
        }
        result
    }

    /// Whether the script time of `tick` is not all spent.
    fn tick_time_left(&self, tick: u32) -> bool {
        self.scripts.lock().map_or(true, |mut l| l.tick_time_left(tick))
    }

    /// A turn waits for the next tick.
    fn defer(&mut self) {
        self.health.deferred += 1;
        if let Ok(mut lib) = self.scripts.lock() {
            lib.count_deferred();
        }
    }

    /// Writes the lines the script logged (cut, at most a few a second;
    /// see [`LogLimiter`]).
    fn write_log(&mut self, clock: &BotClock) {
        let Ok(mut h) = self.lock_host() else { return };
        let lines = std::mem::take(&mut h.log);
        let dropped = std::mem::take(&mut h.log_dropped);
        drop(h);
        let now_ms = f64::from(clock.tick) * 1000.0 / f64::from(clock.hz.max(1));
        for line in self.log.admit(now_ms, lines, dropped) {
            tracing::info!(target: "quarry_bots::script", "{}: {line}", self.profile.identity.name);
        }
    }

    fn lock_host(&self) -> Result<std::sync::MutexGuard<'_, HostState>, ScriptError> {
        self.host.lock().map_err(|_| ScriptError::Engine { file: self.brain.clone(), message: "the bot's script state was lost".to_owned() })
    }

    /// Moves to a newer version of the brain (`botreload`), keeping the
    /// memory; whether it did (then `on_reload()` is due).
    fn reload_if_newer(&mut self) -> bool {
        let newer = self.scripts.lock().ok().and_then(|l| l.get(&self.brain)).filter(|(_, v)| *v != self.version);
        let Some((program, version)) = newer else { return false };
        self.version = version;
        match self.instance.switch(program) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(target: "quarry_bots::script", "{}: {e}", self.profile.identity.name);
                false
            }
        }
    }

    /// A failed call: warned about (rate-limited), counted; too many in a
    /// row and the native brain takes over.
    fn call_failed(&mut self, e: &ScriptError, clock: &BotClock) {
        self.failures += 1;
        let name = &self.profile.identity.name;
        if self.warned_at.is_none_or(|t| clock.ms_since(t) >= WARN_EVERY_MS) {
            self.warned_at = Some(clock.tick);
            tracing::warn!(target: "quarry_bots::script", "{name}: brain {}: {e}", self.brain);
        }
        if self.failures >= MAX_FAILURES {
            tracing::warn!(target: "quarry_bots::script", "{name}: brain {} failed {} calls in a row; the native brain plays this bot now (botreload and re-add it to try the script again)", self.brain, self.failures);
            self.failed = Some(e.to_string());
            let p = &self.profile;
            let mut native = NativeBrain::new(p.slot, p.identity.clone(), p.skill_override, p.skill_roll, self.seed);
            native.profile = self.profile.clone();
            self.fallback = Some(Box::new(native));
        }
    }

    /// The intent the script's held command makes.
    fn intent(cmd: &ScriptCommand, me: &PlayerSnap) -> Intent {
        let (pitch, yaw) = cmd.view.unwrap_or((f32::NAN, f32::NAN));
        let swimming = me.water_level >= 2;
        Intent {
            move_dir: cmd.move_dir,
            jump: cmd.jump && !swimming,
            swim: if !swimming { 0 } else if cmd.jump { 1 } else if cmd.crouch { -1 } else { 0 },
            crouch: cmd.crouch && !swimming,
            walk: cmd.walk,
            attack: cmd.attack,
            drop: cmd.drop_flag,
            weapon: cmd.weapon,
            pitch,
            yaw,
        }
    }

    /// One tick of a live bot.
    fn live_tick(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap) -> (Intent, Option<ChatLine>) {
        let clock = input.view.clock;
        self.profile.stats.alive_ticks += 1;
        self.perceive_events(input, me);
        self.sight_checks = 0;
        if input.decide.perceive && input.decide.sight_budget > 0 {
            let t = self.profile.resolved.traits;
            let budget = input.decide.sight_budget.min(SIGHT_BUDGET);
            let (spent, _) = self.senses.look(input.view, me, &t, None, input.ignored, budget, t.attention_lag_ms(), false, &clock, &mut self.rng);
            self.sight_checks = spent;
            self.profile.stats.decisions += 1;
        }
        let keep_view = Intent { pitch: f32::NAN, yaw: f32::NAN, ..Intent::default() };
        let turn = self.run_script(input, me);
        self.write_log(&clock);
        match turn {
            Ok(true) => self.failures = 0,
            Ok(false) => {}
            Err(e) => {
                self.call_failed(&e, &clock);
                // This tick the bot sends no input, and lets go of its keys.
                if let Ok(mut h) = self.lock_host() {
                    let view = h.cmd.view;
                    h.cmd = ScriptCommand { view, ..ScriptCommand::default() };
                    h.chat = None;
                }
                return (keep_view, None);
            }
        }
        let Ok(mut h) = self.lock_host() else { return (keep_view, None) };
        let intent = Self::intent(&h.cmd, me);
        let attacking = h.cmd.attack;
        let view = h.cmd.view.unwrap_or((me.pitch, me.yaw));
        let chat = h.chat.take().map(|c| ChatLine { team: c.team, text: c.text });
        let forget = std::mem::replace(&mut h.forget, false);
        drop(h);
        if forget {
            self.instance.forget();
        }
        self.aim = if attacking { self.aimed_at(input.view, me, view) } else { None };
        (intent, chat)
    }

    /// The enemy in sight nearest the view's centre, within about 25 degrees.
    fn aimed_at(&self, view: &BotView<'_>, me: &PlayerSnap, (pitch, yaw): (f32, f32)) -> Option<SlotId> {
        let forward = crate::perception::forward(pitch, yaw);
        self.senses
            .sightings
            .iter()
            .filter_map(|s| {
                let p = view.player(s.slot)?;
                let dot = forward.dot((p.origin + s.seen_offset - me.eye).normalize_or_zero());
                (dot > 0.9).then_some((dot, s.slot))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
            .map(|(_, s)| s)
    }

    fn spawned(&mut self, settings: &BrainSettings, source: &dyn TraitSource) {
        self.senses.reset_life();
        self.profile.respawn(settings, source);
        if let Ok(mut h) = self.lock_host() {
            h.cmd = ScriptCommand::default();
        }
    }
}

impl Brain for ScriptedBrain {
    fn profile(&self) -> &BotProfile {
        match &self.fallback {
            Some(n) => &n.profile,
            None => &self.profile,
        }
    }

    fn profile_mut(&mut self) -> &mut BotProfile {
        match &mut self.fallback {
            Some(n) => &mut n.profile,
            None => &mut self.profile,
        }
    }

    fn tick(&mut self, input: &mut BrainInput<'_, '_>) -> BrainOutput {
        if let Some(native) = self.fallback.as_mut() {
            return native.tick(input);
        }
        let view = input.view;
        let clock = view.clock;
        let me = view.player(self.profile.slot).copied();
        // What it sees and hears of the items (only through a living body).
        let fov = self.profile.resolved.traits.fov;
        self.senses.memory.items.update(view, me.as_ref().filter(|m| !m.frozen), fov);
        let keep_view = Intent { pitch: f32::NAN, yaw: f32::NAN, ..Intent::default() };
        let mut chat = None;
        let intent = match me {
            None => {
                self.alive = false;
                keep_view
            }
            Some(_) if input.settings.pause || !view.play_allowed => keep_view,
            Some(me) if me.frozen || !me.alive => {
                if self.alive {
                    self.alive = false;
                    self.senses.reset_life();
                }
                // Attack respawns (held is enough); a frozen player waits.
                Intent { attack: !me.frozen, ..keep_view }
            }
            Some(me) => {
                if !self.alive {
                    self.alive = true;
                    self.spawned(input.settings, input.source);
                }
                let (intent, line) = self.live_tick(input, &me);
                chat = line;
                intent
            }
        };
        let delta = me.map_or((0.0, 0.0), |m| m.delta_angles);
        let mut cmd = compose(&intent, clock.tick, &self.last_cmd, delta);
        // Use is held as the script holds it (the intent has no such key).
        let alive = me.is_some_and(|m| m.alive && !m.frozen) && !input.settings.pause && view.play_allowed;
        if alive && self.lock_host().is_ok_and(|h| h.cmd.use_item) {
            cmd.buttons = cmd.buttons.with(quarry_sim::Buttons::USE);
        }
        self.last_cmd = cmd;
        BrainOutput { cmd, chat }
    }

    fn new_match(&mut self, seed: u64) {
        if let Some(native) = self.fallback.as_mut() {
            native.new_match(seed);
        }
        self.seed = seed;
        self.rng = BotRng::for_slot(seed, self.profile.slot.0, 0);
        if let Ok(mut h) = self.lock_host() {
            *h = HostState::new(BotRng::for_slot(seed, self.profile.slot.0, 7));
        }
        self.senses = Senses::default();
        self.alive = false;
        // A new match is a new start: the memory's deadlines were on the
        // old clock, and on_join sets up again.
        self.instance.forget();
        self.joined = false;
        self.last_call = None;
        self.last_cmd = UserCmd::default();
        self.events.clear();
        self.order = None;
    }

    fn sight_checks(&self) -> usize {
        match &self.fallback {
            Some(n) => n.sight_checks(),
            None => self.sight_checks,
        }
    }

    fn beliefs(&self) -> Vec<crate::memory::EnemyTrack> {
        match &self.fallback {
            Some(n) => n.beliefs(),
            None => self.senses.memory.tracks().to_vec(),
        }
    }

    fn item_beliefs(&self) -> Vec<(quarry_sim::components::NetId, crate::item_memory::ItemState)> {
        match &self.fallback {
            Some(n) => n.item_beliefs(),
            None => self.senses.memory.items.states().collect(),
        }
    }

    fn take_order(&mut self, order: Order) {
        if let Some(native) = self.fallback.as_mut() {
            native.take_order(order);
            return;
        }
        if order.kind.follows() {
            self.owner = Some(order.from);
        }
        self.order = Some(order);
    }

    fn order(&self) -> Option<Order> {
        match &self.fallback {
            Some(n) => n.order(),
            None => self.order,
        }
    }

    fn status(&self, view: Option<&BotView<'_>>) -> BrainStatus {
        if let Some(native) = &self.fallback {
            let mut s = native.status(view);
            s.goal = format!("{} (native: brain {} failed: {})", s.goal, self.brain, self.health.last_failure.unwrap_or("error"));
            return s;
        }
        let me = view.and_then(|v| v.player(self.profile.slot));
        let held = self.host.lock().map(|h| h.cmd).unwrap_or_default();
        BrainStatus {
            alive: me.map_or(self.alive, |p| p.alive),
            origin: me.map(|p| p.origin),
            health: me.map_or(0, |p| p.health),
            armor: me.map_or(0, |p| p.armor),
            goal: match self.health.note() {
                Some(note) => format!("script {} ({note})", self.brain),
                None => format!("script {}", self.brain),
            },
            route: None,
            enemy: self.aim,
            firing: held.attack,
            stance: None,
        }
    }
}

/// A sound's name for `on_event`.
fn sound_name(kind: SoundKind) -> &'static str {
    match kind {
        SoundKind::Footstep => "footsteps",
        SoundKind::Jump => "jump",
        SoundKind::Land => "land",
        SoundKind::Gunfire(_) => "gunfire",
        SoundKind::Explosion => "explosion",
        SoundKind::ItemPickup => "pickup",
        SoundKind::ItemRespawn => "respawn",
        SoundKind::Pain => "pain",
        SoundKind::JumpPad => "jumppad",
        SoundKind::Teleport => "teleport",
        SoundKind::Mover => "mover",
    }
}

impl ScriptedBrain {
    /// The program the bot runs now.
    pub fn program(&self) -> Option<Arc<dyn Program>> {
        self.scripts.lock().ok().and_then(|l| l.get(&self.brain)).map(|(p, _)| p)
    }
}
