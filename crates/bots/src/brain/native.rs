//! [`Brain`]: one bot's layers wired together, run once per server tick.
//!
//! Per tick, in this order (aim before movement so the move axes are
//! composed against this tick's final yaw):
//!
//! 1. no body, paused or dead: a neutral command (dead: attack held to
//!    respawn; the game's own rules handle spectators and Duel queues);
//! 2. the first tick of a life: traits re-resolved, per-life state reset;
//! 3. this tick's events: hits taken (dodge, look toward, maybe an enemy),
//!    sounds heard, kills;
//! 4. on decision ticks (`bot_thinkRate`, staggered by the manager):
//!    perception, target choice, goal choice and routing;
//! 5. every tick: route following (or recovery), combat movement, weapon
//!    choice, the aim model, the trigger, then the command.
//!
//! The brain reads only the [`BotView`] and writes only the command it
//! returns; the manager pushes that through the bot's `CmdSink`.

use glam::Vec3;
use quarry_sim::events::{GameEvent, SoundKind};
use quarry_sim::{SlotId, UserCmd};

use crate::act::{Intent, compose};
use crate::aim::{AimState, AimTarget, MistakeKind, Mistakes};
use crate::combat_move::{CombatMove, incoming_threat, preferred_range, separation};
use crate::content::{BotIdentity, Resolved, TraitSource, effective_skill};
use crate::decide::{
    GoalContext, GoalKind, GoalPlanner, ObjectiveProvider, TargetCandidate, choose_target, pursuit_point,
};
use crate::memory::Memory;
use crate::navigate::{FollowEvent, LinkKind, Navigator, PathFollower, Recovery, Steer};
use crate::perception::{self, BodyBox, Sighting, reaction_delay_ms};
use crate::rng::BotRng;
pub use crate::stats::BotStats;
use crate::trigger::{FireInput, FireOutcome, Trigger};
use crate::view::{BotClock, BotView, PlayerSnap};
use crate::weapons::{WeaponChoice, ballistics, profile, shot_is_safe};

/// Line-of-sight checks one decision may spend.
pub const SIGHT_BUDGET: usize = 6;
/// Gunfire is heard this far, units.
const HEAR_GUNFIRE: f32 = 1200.0;
/// Jumps, landings, pads and teleports are heard this far, units.
const HEAR_MOVEMENT: f32 = 500.0;
/// A target unseen longer than this is being re-acquired when seen again, ms.
const REACQUIRE_GAP_MS: f32 = 100.0;
/// No route for this long starts off-mesh recovery, ms.
const RECOVERY_AFTER_MS: f32 = 1000.0;
/// No corner progress for this long counts as stuck in the statistics, ms.
pub const STUCK_STAT_MS: f32 = 2000.0;
/// Slower than this (horizontal, units/s) counts as idle.
const IDLE_SPEED: f32 = 20.0;
/// Objective hold radii from this up allow combat movement while holding, units.
const WIDE_HOLD: f32 = 150.0;

/// What a brain may do this tick besides aiming and moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Decide {
    /// A decision tick: look for enemies and choose a target.
    pub perceive: bool,
    /// Line-of-sight checks this bot may spend now (0: the look waits for
    /// the next tick with budget).
    pub sight_budget: usize,
    /// Routing is within this tick's budget: goals may be chosen and routed
    /// (a decision whose planning was deferred runs as soon as it is).
    pub plan: bool,
}

/// Settings the manager passes to every brain each tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BrainSettings {
    /// Freeze bot input.
    pub pause: bool,
    /// `bot_skill`.
    pub skill: f32,
    /// `bot_skillVariance`.
    pub skill_variance: f32,
    /// `bot_debugAim`: log each shot.
    pub debug_aim: bool,
    /// `bot_debug`: 1 logs route events.
    pub debug: u8,
}

impl Default for BrainSettings {
    fn default() -> Self {
        Self {
            pause: false,
            skill: 3.0,
            skill_variance: 0.0,
            debug_aim: false,
            debug: 0,
        }
    }
}

/// The engagement with the combat target.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Engagement {
    slot: SlotId,
    /// May fire from this tick.
    fire_after: u32,
    /// Last tick it was seen.
    last_seen: u32,
    /// The belief must snap to the truth next aim update.
    snap: bool,
    /// The reaction delay rolled for this acquisition, ms.
    reaction_ms: f32,
    /// Whether it was a fresh acquisition (not a re-acquisition).
    fresh: bool,
}

/// One bot's layers and state.
#[derive(Debug, Clone)]
pub struct Brain {
    /// The slot it plays in.
    pub slot: SlotId,
    /// Who it is.
    pub identity: BotIdentity,
    /// Per-bot skill given to `addbot` (bypasses `bot_skill` and variance).
    pub skill_override: Option<f32>,
    /// Its variance roll in -1..=1, fixed for its life in the manager.
    pub skill_roll: f32,
    /// The skill of the current life.
    pub skill: f32,
    /// Traits of the current life.
    pub resolved: Resolved,
    /// Counters.
    pub stats: BotStats,
    rng: BotRng,
    alive: bool,
    memory: Memory,
    sightings: Vec<Sighting>,
    engagement: Option<Engagement>,
    best_target_roll: bool,
    /// Movement goal selection.
    pub planner: GoalPlanner,
    follower: PathFollower,
    recovery: Recovery,
    no_route_since: Option<u32>,
    aim: AimState,
    trigger: Trigger,
    mistakes: Mistakes,
    weapon: WeaponChoice,
    combat: CombatMove,
    look_hint: Option<(Vec3, u32)>,
    last_cmd: UserCmd,
    last_link: Option<LinkKind>,
    /// Firing on the last tick (for status lines).
    pub firing: bool,
    /// A decision's goal planning waits for routing budget.
    plan_pending: bool,
    /// A decision's look waits for line-of-sight budget.
    perceive_pending: bool,
    /// Line-of-sight checks spent this tick.
    sight_checks: usize,
}

impl Brain {
    /// A brain for `slot`; `seed` is the match seed.
    pub fn new(slot: SlotId, identity: BotIdentity, skill_override: Option<f32>, skill_roll: f32, seed: u64) -> Self {
        let resolved = crate::content::SkillCurve.resolve(&identity, skill_override.unwrap_or(3.0));
        Self {
            slot,
            identity,
            skill_override,
            skill_roll,
            skill: skill_override.unwrap_or(3.0),
            resolved,
            stats: BotStats::default(),
            rng: BotRng::for_slot(seed, slot.0, 0),
            alive: false,
            memory: Memory::default(),
            sightings: Vec::new(),
            engagement: None,
            best_target_roll: false,
            planner: GoalPlanner::default(),
            follower: PathFollower::default(),
            recovery: Recovery::default(),
            no_route_since: None,
            aim: AimState::new(0.0, 0.0, slot.0),
            trigger: Trigger::default(),
            mistakes: Mistakes::default(),
            weapon: WeaponChoice::default(),
            combat: CombatMove::default(),
            look_hint: None,
            last_cmd: UserCmd::default(),
            last_link: None,
            firing: false,
            plan_pending: false,
            perceive_pending: false,
            sight_checks: 0,
        }
    }

    /// A new match started (map change, restart): tick numbering restarted,
    /// so every deadline is void; the RNG restarts from the new seed.
    pub fn new_match(&mut self, seed: u64) {
        self.rng = BotRng::for_slot(seed, self.slot.0, 0);
        self.alive = false;
        self.memory = Memory::default();
        self.reset_life();
        self.last_cmd = UserCmd::default();
    }

    /// Line-of-sight checks spent in the last tick (for the manager's budget).
    pub fn sight_checks(&self) -> usize {
        self.sight_checks
    }

    /// The skill this bot plays at under `settings`.
    pub fn effective_skill(&self, settings: &BrainSettings) -> f32 {
        match self.skill_override {
            Some(s) => effective_skill(s, 0.0, 0.0),
            None => effective_skill(settings.skill, settings.skill_variance, self.skill_roll),
        }
    }

    fn reset_life(&mut self) {
        self.memory.reset_life();
        self.sightings.clear();
        self.engagement = None;
        self.planner.reset();
        self.follower.clear();
        self.recovery.reset();
        self.no_route_since = None;
        self.trigger.reset();
        self.mistakes.clear();
        self.weapon.reset();
        self.combat.reset();
        self.look_hint = None;
        self.last_link = None;
        self.firing = false;
        self.plan_pending = false;
        self.perceive_pending = false;
    }

    fn spawned(&mut self, me: &PlayerSnap, settings: &BrainSettings, source: &dyn TraitSource) {
        self.reset_life();
        self.skill = self.effective_skill(settings);
        self.resolved = source.resolve(&self.identity, self.skill);
        self.best_target_roll = self.rng.chance(self.resolved.traits.target_selection);
        self.aim = AimState::new(me.pitch, me.yaw, self.slot.0);
    }

    /// One tick: returns the command to push. `decide` says whether this
    /// is one of the bot's decision ticks.
    #[expect(clippy::too_many_arguments, reason = "one call per tick with everything a bot reads")]
    pub fn tick(
        &mut self,
        view: &BotView<'_>,
        nav: &mut dyn Navigator,
        source: &dyn TraitSource,
        objectives: Option<&dyn ObjectiveProvider>,
        ignored: &[SlotId],
        settings: &BrainSettings,
        decide: Decide,
    ) -> UserCmd {
        let clock = view.clock;
        let me = view.player(self.slot).copied();
        let keep_view = Intent {
            pitch: self.last_cmd.pitch,
            yaw: self.last_cmd.yaw,
            ..Intent::default()
        };
        let intent = match me {
            None => {
                self.alive = false;
                keep_view
            }
            Some(_) if settings.pause || !view.play_allowed => keep_view,
            Some(me) if me.frozen => {
                // Frozen (Freeze Tag): nothing to do until a teammate thaws
                // it; the thaw is a new start (as a respawn).
                if self.alive {
                    self.alive = false;
                    self.reset_life();
                }
                keep_view
            }
            Some(me) if !me.alive => {
                if self.alive {
                    self.alive = false;
                    self.reset_life();
                }
                // Attack respawns (level-triggered: held is enough).
                Intent {
                    attack: true,
                    ..keep_view
                }
            }
            Some(me) => {
                if !self.alive {
                    self.alive = true;
                    self.spawned(&me, settings, source);
                }
                self.live_tick(view, &me, nav, objectives, ignored, settings, decide, &clock)
            }
        };
        let cmd = compose(&intent, clock.tick, &self.last_cmd);
        self.last_cmd = cmd;
        cmd
    }

    #[expect(clippy::too_many_arguments, reason = "internal step with the tick's inputs")]
    fn live_tick(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        nav: &mut dyn Navigator,
        objectives: Option<&dyn ObjectiveProvider>,
        ignored: &[SlotId],
        settings: &BrainSettings,
        decide: Decide,
        clock: &BotClock,
    ) -> Intent {
        let t = self.resolved.traits;
        self.stats.alive_ticks += 1;
        self.handle_events(view, me, ignored, clock);
        if decide.perceive {
            self.perceive_pending = true;
        }
        self.sight_checks = 0;
        if self.perceive_pending && decide.sight_budget > 0 {
            self.perceive_pending = false;
            self.stats.decisions += 1;
            self.sight_checks = self.perceive(view, me, ignored, decide.sight_budget.min(SIGHT_BUDGET), clock);
            self.plan_pending = true;
        }
        if self.plan_pending && decide.plan {
            self.plan_pending = false;
            let chase = self.chase_candidate(view, clock);
            let objective = objectives.and_then(|o| o.objective(view, me));
            let mut cx = GoalContext {
                view,
                me,
                traits: &t,
                bias: &self.resolved.weapon_bias,
                memory: &mut self.memory,
                follower: &mut self.follower,
                nav,
                rng: &mut self.rng,
                objective,
                chase: chase.map(|(s, p, v, _)| (s, p, v)),
                chase_unseen_s: chase.map_or(0.0, |c| c.3),
                engage_range: 1.5
                    * preferred_range(
                        &t,
                        view.weapons
                            .get(me.inventory.current)
                            .map_or(500.0, |d| profile(d).preferred),
                    ),
            };
            self.planner.decide(&mut cx);
        }
        // Movement: the route, or recovery when there has been none for a while.
        let mut steer = self.follower.follow(me, clock, &mut self.rng);
        if settings.debug >= 1 && steer.event != FollowEvent::None {
            let goal = self
                .planner
                .goal
                .map_or_else(|| "none".to_owned(), |g| g.kind.describe());
            tracing::info!(target: "quarry_bots::nav", "{}: {:?} at ({:.0} {:.0} {:.0}), goal {goal}", self.identity.name, steer.event, me.origin.x, me.origin.y, me.origin.z);
        }
        self.route_event(steer.event, view, me, clock);
        if self.follower.route().is_some() {
            self.no_route_since = None;
            self.recovery.reset();
        } else {
            let since = *self.no_route_since.get_or_insert(clock.tick);
            let holding = clock.tick < self.planner.hold_until;
            if !holding
                && (clock.ms_since(since) > RECOVERY_AFTER_MS || self.planner.goal.is_some_and(|g| g.failures >= 2))
            {
                steer = self.recovery.steer(me, nav, view.map.world(), clock, &mut self.rng);
            }
        }
        if let Some(link) = self.follower.corner().map(|c| c.link) {
            self.last_link = Some(link);
        }
        // Weapons and combat movement against the target.
        let target = self
            .engagement
            .and_then(|e| view.player(e.slot).filter(|p| p.active()).map(|p| (e, *p)));
        let visible = target.is_some_and(|(e, _)| self.sightings.iter().any(|s| s.slot == e.slot));
        let target_pos = target.map(|(e, p)| {
            if visible {
                p.origin
            } else {
                self.memory.track(e.slot).map_or(p.origin, |tr| tr.position)
            }
        });
        let range = target_pos.map(|p| p.distance(me.origin));
        let frozen_weapon = self.mistakes.active(MistakeKind::WrongWeapon, clock);
        let wanted = self.weapon.choose(
            view.weapons,
            &me.inventory,
            range,
            &t,
            &self.resolved.weapon_bias,
            frozen_weapon,
            clock,
            &mut self.rng,
        );
        let in_hand = view.weapons.get(me.inventory.current);
        let mut intent = Intent {
            weapon: wanted,
            ..Intent::default()
        };
        let mut dir = steer.dir;
        let mut jump = steer.jump;
        if (clock.tick + u32::from(self.slot.0)).is_multiple_of(5)
            && let Some((threat, ttc)) = incoming_threat(view, me)
        {
            let late = self.mistakes.active(MistakeKind::LateDodge, clock);
            if !late {
                let delay = (t.dodge_react_msec * 0.5).min(ttc * 500.0);
                self.combat.schedule_dodge(threat, delay, &t, clock, &mut self.rng);
            }
        }
        if !steer.committed {
            let foe = target_pos.filter(|_| visible).or_else(|| {
                self.combat
                    .dodging(clock)
                    .then(|| self.memory.last_hit.map(|h| me.origin - h.dir * 500.0))
                    .flatten()
            });
            if let Some(foe) = foe {
                let weapon_range = in_hand.map_or(500.0, |d| profile(d).preferred);
                let want = preferred_range(&t, weapon_range);
                let cv = self.combat.vector(me, foe, want, &t, clock, &mut self.rng);
                let lateral = self.combat.safe_lateral(cv.lateral, view.map.world(), me, clock);
                let chasing = matches!(self.planner.goal.map(|g| g.kind), Some(GoalKind::Enemy(_)));
                if chasing || self.follower.route().is_none() {
                    // Range keeping replaces route following: no progress is owed.
                    self.follower.hold(clock);
                    let route_dir = dir;
                    dir = route_dir * cv.approach.max(0.0) + cv.to_foe * cv.approach.min(0.0) + lateral;
                    if self.follower.route().is_none() {
                        dir += cv.to_foe * cv.approach.max(0.0);
                    }
                    // Never a sitting duck: with no safe side to strafe to and
                    // the range about right, keep moving along the route.
                    if lateral == Vec3::ZERO && cv.approach.abs() < 0.3 {
                        dir += route_dir * 0.6;
                    }
                } else {
                    dir += lateral * 0.8;
                }
                jump |= cv.jump;
            }
            dir += separation(view, me);
        }
        // Holding a tight objective position (a thaw, a zone): the feet stay
        // put, aim and trigger go on. A wide one (a defence perimeter) lets
        // combat movement work inside it; leaving it re-routes back.
        if self.planner.holding(clock).is_some_and(|r| r < WIDE_HOLD) {
            dir = Vec3::ZERO;
            jump = false;
        }
        if dir.length_squared() > 1.0 {
            dir = dir.normalize();
        }
        intent.move_dir = dir;
        intent.jump = jump && me.on_ground;
        intent.swim_up = me.water_level >= 3;
        // Aim.
        let aim_target = self.aim_target(view, me, target, visible, &steer, clock);
        let projectile = in_hand.and_then(|d| ballistics(d, view.settings.movement.gravity));
        let frozen_belief = self.mistakes.active(MistakeKind::LoseTracking, clock);
        let (pitch, yaw) = self.aim.update(
            aim_target,
            me.eye,
            me.velocity,
            projectile.as_ref(),
            &t,
            frozen_belief,
            clock,
        );
        intent.pitch = pitch;
        intent.yaw = yaw;
        // Trigger.
        self.mistakes.update(target.is_some(), &t, clock, &mut self.rng);
        intent.attack = self.pull_trigger(view, me, target.map(|(e, _)| e), visible, settings, clock);
        self.firing = intent.attack;
        self.count_idle(me, clock);
        intent
    }

    fn route_event(&mut self, event: FollowEvent, view: &BotView<'_>, me: &PlayerSnap, clock: &BotClock) {
        match event {
            FollowEvent::None => {}
            FollowEvent::Arrived => {
                self.count_link();
                self.planner.arrived(view, me, &self.resolved.traits, &mut self.memory);
            }
            FollowEvent::Stuck | FollowEvent::TimedOut => {
                self.stats.stuck_events += 1;
                self.planner.route_lost(clock);
            }
            FollowEvent::Misplaced => {
                self.count_link();
                self.planner.route_lost(clock);
            }
        }
        if self.follower.route().is_some() && clock.ms_since(self.follower.progress_tick) > STUCK_STAT_MS {
            self.stats.stuck_ticks += 1;
        }
        // A completed pad or teleport link shows as the corner index moving past it.
        if let Some(prev) = self.last_link
            && self.follower.corner().map(|c| c.link) != Some(prev)
            && event == FollowEvent::None
        {
            self.count_link();
        }
    }

    fn count_link(&mut self) {
        match self.last_link.take() {
            Some(LinkKind::JumpPad) => self.stats.jump_pads += 1,
            Some(LinkKind::Teleport) => self.stats.teleports += 1,
            _ => {}
        }
    }

    fn count_idle(&mut self, me: &PlayerSnap, clock: &BotClock) {
        let speed = Vec3::new(me.velocity.x, me.velocity.y, 0.0).length();
        let holding = clock.tick < self.planner.hold_until;
        if speed < IDLE_SPEED && !holding {
            self.stats.idle_run += 1;
            self.stats.max_idle_run = self.stats.max_idle_run.max(self.stats.idle_run);
        } else {
            self.stats.idle_run = 0;
        }
    }

    /// Hits taken, sounds, kills.
    fn handle_events(&mut self, view: &BotView<'_>, me: &PlayerSnap, ignored: &[SlotId], clock: &BotClock) {
        let t = self.resolved.traits;
        for ev in &view.events {
            match *ev {
                GameEvent::Damage {
                    target,
                    attacker: Some(a),
                    dir,
                    ..
                } if target == self.slot && a != self.slot => {
                    self.memory.note_hit(a, clock.tick, dir);
                    let late = self.mistakes.active(MistakeKind::LateDodge, clock);
                    let delay = t.dodge_react_msec * if late { 2.0 } else { 1.0 };
                    self.combat.schedule_dodge(dir, delay, &t, clock, &mut self.rng);
                    // Being shot says where to look; it becomes an enemy only if seen.
                    self.look_hint = Some((me.eye - dir * 512.0, clock.after_ms(1500.0)));
                    if let Some(p) = view
                        .player(a)
                        .filter(|p| p.alive && view.is_enemy(me, p) && !ignored.contains(&a))
                        && let Some(point) = perception::visible_point(view.map.world(), me.eye, &BodyBox::of(p))
                    {
                        self.memory.see(a, clock.tick, p.origin, p.velocity, point - p.origin);
                        if self.engagement.is_none() {
                            let off = perception::off_axis_deg(self.aim.forward(), me.eye, point);
                            self.acquire(a, off, true, clock);
                        }
                    }
                }
                GameEvent::Kill {
                    killer: Some(k),
                    victim,
                    ..
                } if victim == self.slot && k != self.slot => {
                    self.memory.last_killer = Some(k);
                }
                GameEvent::Kill { victim, .. } if self.engagement.is_some_and(|e| e.slot == victim) => {
                    self.engagement = None;
                    self.best_target_roll = self.rng.chance(t.target_selection);
                }
                GameEvent::Sound {
                    kind,
                    origin,
                    source: Some(s),
                } if s != self.slot && !ignored.contains(&s) => {
                    let range = match kind {
                        SoundKind::Gunfire(_) | SoundKind::Explosion => HEAR_GUNFIRE,
                        SoundKind::Jump | SoundKind::Land | SoundKind::JumpPad | SoundKind::Teleport => HEAR_MOVEMENT,
                        _ => continue,
                    };
                    let enemy = view.player(s).is_some_and(|p| view.is_enemy(me, p));
                    if enemy && origin.distance(me.origin) <= range {
                        self.memory.hear(s, clock.tick, origin);
                        if self.engagement.is_none() && self.look_hint.is_none() {
                            self.look_hint = Some((origin + Vec3::Z * 26.0, clock.after_ms(1000.0)));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Perception and target choice (decision ticks).
    fn perceive(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        ignored: &[SlotId],
        budget: usize,
        clock: &BotClock,
    ) -> usize {
        let t = self.resolved.traits;
        self.memory.begin_scan();
        let current = self.engagement.map(|e| e.slot);
        let mut sightings = std::mem::take(&mut self.sightings);
        let spent = perception::scan(view, me, &t, &self.memory, current, ignored, budget, &mut sightings);
        for s in &sightings {
            if let Some(p) = view.player(s.slot) {
                self.memory.see(s.slot, clock.tick, p.origin, p.velocity, s.seen_offset);
            }
        }
        let gone = |s: SlotId| view.player(s).is_none_or(|p| !p.active()) || ignored.contains(&s);
        self.memory.forget(clock, t.enemy_memory_msec(), gone);
        let candidates: Vec<TargetCandidate> = sightings
            .iter()
            .filter_map(|s| {
                let p = view.player(s.slot)?;
                let max = (p.max_health as f32 + 0.66 * 100.0).max(1.0);
                Some(TargetCandidate {
                    slot: s.slot,
                    distance: s.distance,
                    strength: ((p.health as f32 + 0.66 * p.armor as f32) / max).clamp(0.0, 1.0),
                    attacker: self.memory.ms_since_hit_by(s.slot, clock).is_some_and(|ms| ms < 2500.0),
                    powered: p.has_powerup(clock.tick),
                    firing: p.attacking,
                    killer: self.memory.last_killer == Some(s.slot),
                })
            })
            .collect();
        let seen_current = current.filter(|c| sightings.iter().any(|s| s.slot == *c));
        match choose_target(&candidates, seen_current, self.best_target_roll, &t) {
            Some(pick) => {
                let off = sightings.iter().find(|s| s.slot == pick).map_or(0.0, |s| s.off_axis);
                match self.engagement {
                    Some(e) if e.slot == pick => {
                        let gap = clock.ms_since(e.last_seen);
                        if gap > REACQUIRE_GAP_MS {
                            self.acquire(pick, off, gap > t.reacquire_msec, clock);
                        }
                    }
                    _ => self.acquire(pick, off, true, clock),
                }
                if let Some(e) = self.engagement.as_mut() {
                    e.last_seen = clock.tick;
                }
            }
            None => {
                // Keep an unseen target while it is remembered.
                if let Some(e) = self.engagement
                    && self.memory.track(e.slot).is_none()
                {
                    self.engagement = None;
                    self.best_target_roll = self.rng.chance(t.target_selection);
                }
            }
        }
        self.sightings = sightings;
        spent
    }

    /// An acquisition: a reaction delay, and on a fresh one a new belief,
    /// lead roll and mistake roll.
    fn acquire(&mut self, slot: SlotId, off_axis: f32, fresh: bool, clock: &BotClock) {
        let t = self.resolved.traits;
        let fresh = fresh || self.engagement.is_none_or(|e| e.slot != slot);
        let jitter = self.rng.signed();
        let delay = reaction_delay_ms(&t, off_axis, fresh, jitter);
        self.stats.acquisitions += 1;
        self.stats.reaction_ms_sum += f64::from(delay);
        if fresh {
            self.stats.fresh_acquisitions += 1;
            self.stats.fresh_reaction_ms_sum += f64::from(reaction_delay_ms(&t, 0.0, true, jitter));
        }
        self.engagement = Some(Engagement {
            slot,
            fire_after: clock.after_ms(delay),
            last_seen: clock.tick,
            snap: fresh,
            reaction_ms: delay,
            fresh,
        });
        self.trigger.reset();
        if fresh {
            self.aim.engage(&t, &mut self.rng);
            self.mistakes.roll(&t, clock, &mut self.rng);
        }
    }

    /// The enemy to chase: the combat target if any, else the freshest memory.
    fn chase_candidate(&self, view: &BotView<'_>, clock: &BotClock) -> Option<(SlotId, Vec3, bool, f32)> {
        let t = &self.resolved.traits;
        let track = match self.engagement.and_then(|e| self.memory.track(e.slot)) {
            Some(tr) => Some(tr),
            None => self
                .memory
                .tracks()
                .iter()
                .max_by_key(|tr| (tr.news_tick, std::cmp::Reverse(tr.slot))),
        }?;
        view.player(track.slot).filter(|p| p.active())?;
        let unseen = clock.ms_since(track.news_tick) / 1000.0;
        let point = pursuit_point(track.position, track.velocity, track.visible, unseen, t);
        Some((track.slot, point, track.visible, unseen))
    }

    fn aim_target(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        target: Option<(Engagement, PlayerSnap)>,
        visible: bool,
        steer: &Steer,
        clock: &BotClock,
    ) -> AimTarget {
        let t = &self.resolved.traits;
        if let Some((e, p)) = target {
            let track = self.memory.track(e.slot).copied();
            let offset = track.map_or((p.mins + p.maxs) * 0.5, |tr| tr.seen_offset);
            let height = p.maxs.z - p.mins.z;
            let bias = 0.2 * (2.0 * t.weapon_skill - 1.0) + t.aim_height;
            let mut offset = offset + Vec3::Z * (height * bias * 0.35);
            let splash = view
                .weapons
                .get(me.inventory.current)
                .is_some_and(|d| d.has_splash() && d.splash_radius >= 60.0);
            if splash && p.on_ground {
                // Rockets at the feet: the floor catches what misses.
                let feet = p.mins.z + 6.0;
                offset.z += (feet - offset.z) * t.weapon_skill * 0.8;
            }
            offset.z = offset.z.clamp(p.mins.z + 1.0, p.maxs.z - 1.0);
            let (base, velocity) = if visible {
                (p.origin, p.velocity)
            } else {
                track.map_or((p.origin, Vec3::ZERO), |tr| (tr.position, tr.velocity))
            };
            let unseen_s = if visible {
                0.0
            } else {
                clock.ms_since(e.last_seen) / 1000.0
            };
            let fresh = e.snap;
            if let Some(en) = self.engagement.as_mut() {
                en.snap = false;
            }
            return AimTarget::Enemy {
                point: base + offset,
                velocity,
                visible,
                unseen_s,
                fresh,
            };
        }
        if let Some((p, until)) = self.look_hint {
            if clock.tick < until {
                return AimTarget::Point(p);
            }
            self.look_hint = None;
        }
        steer.look.map_or(AimTarget::Keep, AimTarget::Point)
    }

    fn pull_trigger(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        e: Option<Engagement>,
        visible: bool,
        settings: &BrainSettings,
        clock: &BotClock,
    ) -> bool {
        let t = self.resolved.traits;
        let (Some(e), Some(aim_point)) = (e, self.aim.aim_point) else {
            self.trigger.reset();
            return false;
        };
        let Some(def) = view.weapons.get(me.inventory.current) else {
            return false;
        };
        if me.inventory.switching_to.is_some() || !view.weapons.can_fire(&me.inventory, def.number) {
            return false;
        }
        let forward = self.aim.forward();
        let unseen_ms = if visible { 0.0 } else { clock.ms_since(e.last_seen) };
        let input = FireInput {
            reacted: clock.tick >= e.fire_after,
            visible,
            unseen_ms,
            eye: me.eye,
            forward,
            aim_point,
            slew: self.aim.slew_rate(),
            interval_ms: def.interval_ms as f32,
            hasty: self.mistakes.active(MistakeKind::MistimedShot, clock),
        };
        let dist = aim_point.distance(me.eye);
        let suppressing = !visible;
        let outcome = self.trigger.decide(&t, &input, clock, &mut self.rng, || {
            shot_is_safe(view, me, e.slot, def, me.eye, forward, dist, suppressing)
        });
        match outcome {
            FireOutcome::Fire { new_shot } => {
                if new_shot {
                    self.stats.trigger_pulls += 1;
                    self.aim.reroll_lead(&t, &mut self.rng);
                    if settings.debug_aim {
                        tracing::info!(
                            target: "quarry_bots::aim",
                            "{} fires {} at slot {}: reaction {:.0} ms ({}), off {:.1}/{:.1} deg, slew {:.0} deg/s, settle {:.0} ms, lead x{:.2}, {}",
                            self.identity.name,
                            def.name,
                            e.slot.0,
                            e.reaction_ms,
                            if e.fresh { "fresh" } else { "re-acquired" },
                            perception::off_axis_deg(forward, me.eye, aim_point),
                            t.effective_fire_cone_deg(),
                            self.aim.slew_rate(),
                            t.effective_settle_msec(),
                            self.aim.lead_roll,
                            if visible { "aimed" } else { "suppressing" }
                        );
                    }
                }
                true
            }
            FireOutcome::Hold(_) => false,
        }
    }

    /// Counts what this tick's events say about the bot (shots and hits per
    /// weapon, kills, deaths, pickups). Called by the manager every tick.
    pub fn record_events(&mut self, view: &BotView<'_>) {
        self.stats.record_events(self.slot, view);
    }

    /// A status line for `bot_debug 2` and `botlist`.
    pub fn status(&self, view: Option<&BotView<'_>>) -> BrainStatus {
        let me = view.and_then(|v| v.player(self.slot));
        BrainStatus {
            alive: self.alive,
            origin: me.map(|p| p.origin),
            health: me.map_or(0, |p| p.health),
            armor: me.map_or(0, |p| p.armor),
            goal: self
                .planner
                .goal
                .map_or_else(|| "none".to_owned(), |g| g.kind.describe()),
            route: self.follower.route().map(|r| (self.follower.index(), r.corners.len())),
            enemy: self.engagement.map(|e| e.slot),
            firing: self.firing,
        }
    }
}

/// What a bot is doing, for status output.
#[derive(Debug, Clone, PartialEq)]
pub struct BrainStatus {
    /// Alive.
    pub alive: bool,
    /// Where.
    pub origin: Option<Vec3>,
    /// Health.
    pub health: i32,
    /// Armor.
    pub armor: i32,
    /// Goal description.
    pub goal: String,
    /// Route progress: corner index and corner count.
    pub route: Option<(usize, usize)>,
    /// Combat target.
    pub enemy: Option<SlotId>,
    /// Pressing attack.
    pub firing: bool,
}
