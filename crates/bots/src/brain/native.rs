//! [`NativeBrain`]: the built-in brain, the layers wired together, run
//! once per server tick.
//!
//! Per tick, in this order (aim before movement so the move axes are
//! composed against this tick's final yaw):
//!
//! 1. no body, paused or dead: a neutral command (dead: attack held to
//!    respawn; the game's own rules handle spectators and Duel queues);
//! 2. the first tick of a life: traits re-resolved, per-life state reset;
//! 3. this tick's percepts: hits taken (dodge, look toward, maybe an
//!    enemy), sounds heard, kills;
//! 4. on decision ticks (`bot_thinkRate`, staggered by the manager):
//!    the look and target choice, then goal choice and routing;
//! 5. every tick: route following (or recovery), weapon choice, movement
//!    with combat mixed in, the aim model, the trigger, then the command.
//!
//! The brain reads only the [`BotView`] and writes only the command it
//! returns; the manager pushes that through the bot's `CmdSink`.

mod fight;
mod react;
mod team;

use glam::Vec3;
use quarry_map::entities::items::KeySet;
use quarry_sim::UserCmd;

use super::{BotProfile, Brain, BrainInput, BrainOutput, BrainSettings, BrainStatus, SIGHT_BUDGET};
use crate::act::{Fight, GiveWay, Intent, compose, compose_movement};
use crate::aim::{AimState, AimTarget, Gunner, MistakeKind, enemy_aim_target};
use crate::combat_move::{CombatMove, preferred_range};
use crate::content::{BotIdentity, TraitSource};
use crate::decide::{Acquired, GoalContext, GoalKind, GoalPlanner, TargetNow, Targeting};
use crate::memory::Memory;
use crate::navigate::{Course, FollowEvent, Navigator, Steer, Traveller};
use crate::perception::{self, Percept, Senses, percepts};
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};

/// Slower than this (horizontal, units/s) counts as idle.
const IDLE_SPEED: f32 = 20.0;
/// With no news of an enemy for this long, a bot goes looking for one, ms.
const RESTLESS_MS: f32 = 20_000.0;

/// A gate is shot from at most this far, units.
const GATE_SHOT_RANGE: f32 = 1500.0;
/// A sight line to a gate may stop this far short of the point aimed at
/// (the gate's face lies between the bot and the centre of its box), units.
const GATE_FACE_SLACK: f32 = 96.0;
/// The aim must be within about 6 degrees of the gate to fire.
const GATE_AIM_COS: f32 = 0.995;
/// How fresh news of an enemy must be to count it within earshot (a
/// stealthy bot walks only then), ms.
const EARSHOT_NEWS_MS: f32 = 3000.0;

/// The native brain: one bot's layers and state.
#[derive(Debug, Clone)]
pub struct NativeBrain {
    /// Who it is, its skill and traits this life, its counters.
    pub profile: BotProfile,
    rng: BotRng,
    alive: bool,
    /// Perception and memory.
    senses: Senses,
    /// The combat target.
    target: Targeting,
    /// Movement goal selection.
    pub planner: GoalPlanner,
    /// Route following and recovery.
    course: Course,
    /// Strafing rhythm and dodges.
    combat: CombatMove,
    /// Giving way to players met head-on.
    give_way: GiveWay,
    /// Aim, trigger, mistakes, weapon choice.
    gunner: Gunner,
    last_cmd: UserCmd,
    /// A decision's goal planning waits for routing budget.
    plan_pending: bool,
    /// A decision's look waits for line-of-sight budget.
    perceive_pending: bool,
    /// Line-of-sight checks spent this tick.
    sight_checks: usize,
    /// In water over the waist last tick (for counting swims).
    swimming: bool,
    /// A noise or report it chose to look into: where, and until which tick.
    investigation: Option<(Vec3, u32)>,
    /// The latest news of an enemy this life (or the life's start).
    quiet_since: Option<u32>,
    /// What it tells its team, and the order it follows.
    team: team::TeamSide,
    /// Where it stood last tick (for the distance of a teammate's report).
    last_origin: Vec3,
    /// Force ratio and stance (`bot_tactical`).
    tactics: crate::tactics::Tactics,
    /// The weapon matchup against the target, by its slot (level 4 and up).
    matchup: Option<(quarry_sim::SlotId, crate::tactics::Matchup)>,
    /// Cover, contact and matchup follow-ups (level 2 and up).
    cover: fight::TacticalState,
}

impl NativeBrain {
    /// A brain for `slot`; `seed` is the match seed.
    pub fn new(slot: quarry_sim::SlotId, identity: BotIdentity, skill_override: Option<f32>, skill_roll: f32, seed: u64) -> Self {
        Self {
            profile: BotProfile::new(slot, identity, skill_override, skill_roll),
            rng: BotRng::for_slot(seed, slot.0, 0),
            alive: false,
            senses: Senses::default(),
            target: Targeting::default(),
            planner: GoalPlanner::default(),
            course: Course::default(),
            combat: CombatMove::default(),
            give_way: GiveWay::default(),
            gunner: Gunner::new(slot.0),
            last_cmd: UserCmd::default(),
            plan_pending: false,
            perceive_pending: false,
            sight_checks: 0,
            swimming: false,
            investigation: None,
            quiet_since: None,
            team: team::TeamSide::default(),
            last_origin: Vec3::ZERO,
            tactics: crate::tactics::Tactics::new(seed, slot.0),
            matchup: None,
            cover: fight::TacticalState::default(),
        }
    }

    fn reset_life(&mut self) {
        // A life ends (or a match starts): an open stuck episode ends here.
        self.profile.stuck.close(crate::stuck::StuckEnd::Died);
        self.senses.reset_life();
        self.target.reset_life();
        self.planner.reset();
        self.course.reset_life();
        self.gunner.reset_life();
        self.combat.reset();
        self.give_way.reset();
        self.plan_pending = false;
        self.perceive_pending = false;
        self.investigation = None;
        self.quiet_since = None;
        self.team.reset_life();
        self.reset_cover();
    }

    fn spawned(&mut self, me: &PlayerSnap, settings: &BrainSettings, source: &dyn TraitSource) {
        self.reset_life();
        self.profile.respawn(settings, source);
        let t = self.profile.resolved.traits;
        self.target.roll(&t, &mut self.rng);
        self.gunner.aim = AimState::new(me.pitch, me.yaw, self.profile.slot.0);
    }

    /// One tick of a live bot: percepts, decisions, then movement, aim and
    /// trigger.
    fn live_tick(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap) -> Intent {
        let view = input.view;
        let clock = view.clock;
        let t = self.profile.resolved.traits;
        self.profile.stats.alive_ticks += 1;
        self.last_origin = me.origin;
        for p in percepts(view, me, self.profile.slot, input.ignored) {
            self.on_percept(p, me, &clock, &mut *input.nav);
        }
        self.act_on_noise(input, me, &clock);
        self.think(input, me, &clock);
        self.team_upkeep(&clock);
        self.offer_calls(view, me, input.settings.tactical, &clock);
        let level = input.settings.tactical;
        self.tactics.tick(level, view, me, &self.senses.memory, &t, &clock);
        if level.reads_forces()
            && let Some(n) = self.profile.stats.stance_ticks.get_mut(self.tactics.stance as usize)
        {
            *n += 1;
        }
        self.note_retreat(level);
        let steer = self.steer(input, me, &clock);
        // Weapons and combat movement against the target.
        let target = self.target.now(view, &self.senses);
        // No enemy to fight: a gate to shoot open, once in sight.
        let gate_shot = if target.is_none() { self.gate_in_sight(view, me) } else { None };
        if level.reads_matchups() {
            self.reconsider_weapon(&clock);
        }
        let wanted = self.gunner.choose_weapon(
            view,
            me,
            target.map(|x| x.position.distance(me.origin)).or(gate_shot.map(|p| p.distance(me.eye))),
            &t,
            &self.profile.resolved.weapon_bias,
            &clock,
            &mut self.rng,
        );
        let range_now = target.filter(|x| x.visible).map(|x| x.position.distance(me.origin));
        self.count_matchup_switch(wanted);
        let fight = Fight {
            slot: self.profile.slot.0,
            foe_seen: target.filter(|x| x.visible).map(|x| x.position),
            last_hit_dir: self.senses.memory.last_hit.map(|h| h.dir),
            in_hand: view.weapons.get(me.inventory.current),
            chasing: matches!(self.planner.goal.map(|g| g.kind), Some(GoalKind::Enemy(_))),
            holding: self.planner.holding(&clock),
            late_dodge: self.gunner.mistakes.active(MistakeKind::LateDodge, &clock),
            range: self.matchup_range(),
        };
        let (dir, jump) = compose_movement(view, me, &steer, &fight, &mut self.combat, &mut self.give_way, &mut self.course.follower, &t, &clock, &mut self.rng);
        let (pitch, yaw) = self.aim(view, me, target, gate_shot, &steer, level.anticipates(), &clock);
        // Trigger.
        self.gunner.mistakes.update(target.is_some(), &t, &clock, &mut self.rng);
        let debug_aim = input.settings.debug_aim.then_some(self.profile.identity.name.as_str());
        let engagement = target.map(|x| x.engagement);
        let visible = target.is_some_and(|x| x.visible);
        let pull = self.gunner.pull_trigger(view, me, engagement, visible, &t, debug_aim, &clock, &mut self.rng);
        self.count_first_hits(view, &clock);
        let stats = &mut self.profile.stats;
        stats.peak_turn_deg_s = stats.peak_turn_deg_s.max(f64::from(self.gunner.aim.slew_rate()));
        if pull.new_shot {
            self.profile.stats.trigger_pulls += 1;
            if let Some(ms) = target.and_then(|x| self.senses.noticing.first_shot(x.engagement.slot, &clock)) {
                self.profile.stats.first_shots += 1;
                self.profile.stats.first_shot_ms_sum += f64::from(ms);
            }
        }
        // At a gate: fire once the aim is on it.
        let gate_fire = gate_shot.is_some_and(|p| {
            let to = (p - me.eye).normalize_or_zero();
            self.gunner.aim.forward().dot(to) > GATE_AIM_COS
        });
        let shot_by_target = target.and_then(|x| self.senses.memory.ms_since_hit_by(x.engagement.slot, &clock)).is_some_and(|ms| ms <= crate::tactics::RETURN_FIRE_MS);
        let closing = !shot_by_target && self.holds_fire(range_now, target.as_ref().map(|x| &x.player), me);
        let attack = (pull.attack && !closing) || gate_fire;
        self.gunner.firing = attack;
        self.profile.stats.gates_opened = u64::from(self.planner.gates_opened);
        let shot_lately = self.senses.memory.last_hit.is_some_and(|h| clock.ms_since(h.tick) < 3000.0);
        // A carrier, an attacker or a defender runs, whatever its stance
        // (a stealthy carrier walking home cost CTF its captures).
        let earshot = view.sounds.footstep * crate::tactics::EARSHOT_MARGIN;
        let in_earshot = self.tactics.stance == crate::tactics::Stance::Stealth
            && self.senses.memory.nearest_news(me.origin, &clock, EARSHOT_NEWS_MS, 0.0..=earshot, |_| true).is_some();
        let walk = !self.cover.on_objective && self.tactics.walks(input.settings.tactical, visible, shot_lately, in_earshot);
        if input.settings.tactical.reads_forces() && self.tactics.stance == crate::tactics::Stance::Stealth {
            self.profile.stats.stealth_ticks += 1;
            self.profile.stats.stealth_walk_ticks += u64::from(walk);
        }
        self.count_idle(me, &clock);
        self.count_swim(me);
        // Asked for the flag: let go of it, turned toward the one who asked
        // (it lands in front), this tick.
        let (drop, yaw) = match self.team.drop_for.take() {
            Some(to) => {
                let toward = view.player(to).filter(|p| p.active()).map(|p| p.origin - me.origin).filter(|d| d.truncate().length() > 1.0);
                (true, toward.map_or(yaw, |d| d.y.atan2(d.x).to_degrees()))
            }
            None => (false, yaw),
        };
        Intent {
            move_dir: dir,
            drop,
            jump: jump && me.on_ground,
            // The route says which way to swim; with no preference a
            // submerged bot surfaces (for air).
            swim: match steer.swim {
                0 if me.water_level >= 3 => 1,
                s => s,
            },
            crouch: steer.crouch,
            walk,
            attack,
            weapon: wanted,
            pitch,
            yaw,
        }
    }

    /// A hit, a kill or a sound, routed to the layers it concerns.
    fn on_percept(&mut self, p: Percept, me: &PlayerSnap, clock: &BotClock, nav: &mut dyn Navigator) {
        let t = self.profile.resolved.traits;
        match p {
            Percept::Hit { attacker, dir, seen } => {
                self.senses.memory.note_hit(attacker, clock.tick, dir);
                let late = self.gunner.mistakes.active(MistakeKind::LateDodge, clock);
                let delay = t.dodge_react_msec * if late { 2.0 } else { 1.0 };
                self.combat.schedule_dodge(dir, delay, &t, clock, &mut self.rng);
                // Being shot says where to look; it becomes an enemy only if seen.
                self.senses.look_hint = Some((me.eye - dir * 512.0, clock.after_ms(1500.0)));
                if let Some(s) = seen {
                    self.senses
                        .memory
                        .see(attacker, clock.tick, s.origin, s.velocity, s.point - s.origin);
                    if self.target.engagement.is_none() {
                        let off = perception::off_axis_deg(self.gunner.aim.forward(), me.eye, s.point);
                        let acquired = self.target.acquire(attacker, off, true, 0.0, &t, clock, &mut self.rng);
                        self.engaged(acquired, clock);
                    }
                }
            }
            Percept::KilledBy(k) => self.senses.memory.last_killer = Some(k),
            Percept::Died(victim) => self.target.died(victim, &t, &mut self.rng),
            Percept::Heard(sound) => {
                self.profile.stats.noises_heard += 1;
                let reaction = t.reaction_msec * t.reaction_scale();
                self.senses.hearing.hear(&sound, reaction, nav, clock, &mut self.rng);
            }
        }
    }



    /// An acquisition: counted, and the aim and fire layer starts over.
    fn engaged(&mut self, acquired: Acquired, clock: &BotClock) {
        let stats = &mut self.profile.stats;
        stats.acquisitions += 1;
        stats.reaction_ms_sum += f64::from(acquired.delay_ms);
        if let Some(centred) = acquired.centred_delay_ms {
            stats.fresh_acquisitions += 1;
            stats.fresh_reaction_ms_sum += f64::from(centred);
        }
        let t = self.profile.resolved.traits;
        self.gunner.engaged(acquired.fresh, &t, clock, &mut self.rng);
    }

    /// Decision ticks, within the manager's budgets: the look and target
    /// choice, then (when routing is within budget) goal planning.
    fn think(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap, clock: &BotClock) {
        let decide = input.decide;
        if decide.perceive {
            self.perceive_pending = true;
        }
        self.sight_checks = 0;
        if self.perceive_pending && decide.sight_budget > 0 {
            self.perceive_pending = false;
            self.profile.stats.decisions += 1;
            let t = self.profile.resolved.traits;
            let budget = decide.sight_budget.min(SIGHT_BUDGET);
            let current = self.target.slot();
            let (spent, noticed) = self
                .senses
                .look(input.view, me, &t, current, input.ignored, budget, t.attention_lag_ms(), input.settings.tactical.anticipates(), clock, &mut self.rng);
            self.sight_checks = spent;
            if input.settings.tactical.reads_forces() && !self.team.noticed.is_empty() {
                // A new enemy changes the odds now, not at the next second.
                self.tactics.update(input.settings.tactical, input.view, me, &self.senses.memory, &t, clock);
            }
            self.filter_engagements(input.view, me, input.settings.tactical, clock);
            for (slot, ms) in noticed.noticed {
                self.profile.stats.noticed += 1;
                self.profile.stats.notice_ms_sum += f64::from(ms);
                self.team.noticed.push(slot);
            }
            if let Some(acquired) = self.target.choose(input.view, &self.senses, &t, clock, &mut self.rng) {
                self.engaged(acquired, clock);
            }
            self.judge_target_matchup(input.view, me, input.settings.tactical);
            self.plan_pending = true;
        }
        if self.plan_pending && decide.plan {
            self.plan_pending = false;
            self.plan(input, me, clock);
        }
    }

    /// Goal planning: the chase and the objective on offer, then the planner.
    fn plan(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap, clock: &BotClock) {
        let view = input.view;
        let t = self.profile.resolved.traits;
        let holds_back = self.tactics.holds_back(input.settings.tactical);
        // Nobody can stand on a pad or in a teleporter: a point there is
        // where it sends you.
        let chase = self
            .target
            .chase(view, &self.senses.memory, &t, clock)
            .filter(|(s, ..)| !holds_back && !self.senses.suppressed.contains(*s) && !self.avoids(*s, clock))
            .map(|(s, p, v, u)| (s, input.nav.settle(p), v, u));
        if let Some((p, until)) = self.investigation {
            self.investigation = Some((input.nav.settle(p), until));
        }
        if holds_back && self.planner.goal.is_some_and(|g| matches!(g.kind, GoalKind::Enemy(_))) {
            // A fight it should not be in: no chasing into it.
            self.planner.goal = None;
            self.course.follower.clear();
        }
        let objective = input.objectives.and_then(|o| o.objective(view, me));
        let objective = self.objective_with_order(view, me, &mut *input.nav, objective);
        // Its routes see through the key doors its keys open. A wary bot's
        // keep to covered ground; one playing an objective takes the
        // shortest (a carrier, an attacker or a defender on covered routes
        // cost CTF captures).
        let caution = if objective.is_some() { 0.0 } else { self.tactics.route_caution(input.settings.tactical) };
        let traveller = Traveller { keys: KeySet(me.inventory.keys), caution };
        let in_hand = view.weapons.get(me.inventory.current);
        let level = input.settings.tactical;
        // A bot with an objective plays it rather than regroup or take
        // cover (regrouping attackers and defenders cost CTF 0.6 captures a
        // match).
        let cover = match objective {
            None => self.cover_offer(&mut *input.nav, me, level, clock).or_else(|| self.regroup_offer(view, me, level)),
            Some(_) => None,
        };
        // Nor does it leave its objective for a pickup that wins a
        // matchup (the offer outranks a defender's post).
        self.cover.on_objective = objective.is_some();
        let opportunity = if objective.is_some() { None } else { self.opportunity(view, me, level, clock) };
        let engage_range = 1.5 * self.matchup_range().unwrap_or_else(|| preferred_range(&t, in_hand));
        let restless = self.restless(view, me, clock);
        let mut cx = GoalContext {
            view,
            me,
            traits: &t,
            bias: &self.profile.resolved.weapon_bias,
            memory: &mut self.senses.memory,
            follower: &mut self.course.follower,
            nav: &mut *input.nav,
            traveller,
            rng: &mut self.rng,
            objective,
            chase: chase.map(|(s, p, v, _)| (s, p, v)),
            chase_unseen_s: chase.map_or(0.0, |c| c.3),
            investigate: self.investigation.map(|(p, _)| p),
            engage_range,
            cover,
            retreat: level.moves_by_stance() && self.tactics.stance == crate::tactics::Stance::Retreat,
            stack: crate::tactics::Tactics::stack(level, objective.is_some(), crate::items::armed(me, view.weapons)),
            opportunity,
            restless,
        };
        self.planner.decide(&mut cx);
        self.note_opportunity(opportunity);
    }

    /// Whether the bot has had no news of any enemy (seen, heard or
    /// reported) for [`RESTLESS_MS`] this life while an enemy is in the
    /// game: what any player knows from the scoreboard.
    fn restless(&mut self, view: &BotView<'_>, me: &PlayerSnap, clock: &BotClock) -> bool {
        let newest = self.senses.memory.tracks().iter().map(|tr| tr.news_tick).max();
        let since = self.quiet_since.get_or_insert(clock.tick);
        if let Some(n) = newest {
            *since = (*since).max(n);
        }
        clock.ms_since(*since) > RESTLESS_MS && view.iter_players().any(|p| p.active() && view.is_enemy(me, p))
    }

    /// Movement: the route, or recovery when there has been none for a while.
    fn steer(&mut self, input: &mut BrainInput<'_, '_>, me: &PlayerSnap, clock: &BotClock) -> Steer {
        let view = input.view;
        // With bot_debug, the route as it was before this tick: a route
        // given up on is gone once `follow` returns, and its corners say why.
        let before = (input.settings.debug >= 1).then(|| (self.course.follower.route().cloned(), self.course.follower.index()));
        let lift_away = self.course.follower.boarding().is_some_and(|b| !crate::navigate::lift_down_at(view.map.world(), me, b));
        self.course.follower.lift_away = lift_away;
        let steer = self.course.follower.follow(me, clock, &mut self.rng);
        if let Some((Some(route), index)) = &before
            && matches!(steer.event, FollowEvent::Stuck | FollowEvent::TimedOut | FollowEvent::Misplaced)
        {
            let corners: Vec<String> = route.corners.iter().map(|c| format!("({:.0} {:.0} {:.0} {:?})", c.pos.x, c.pos.y, c.pos.z, c.link)).collect();
            tracing::info!(target: "quarry_bots::nav", "{}: route given up at corner {index}: {}", self.profile.identity.name, corners.join(" "));
        }
        if input.settings.debug >= 1 && steer.event != FollowEvent::None {
            let goal = self
                .planner
                .goal
                .map_or_else(|| "none".to_owned(), |g| g.kind.describe());
            tracing::info!(target: "quarry_bots::nav", "{}: {:?} at ({:.0} {:.0} {:.0}), goal {goal}", self.profile.identity.name, steer.event, me.origin.x, me.origin.y, me.origin.z);
        }
        self.route_event(steer.event, view, me, clock);
        let holding = clock.tick < self.planner.hold_until;
        let failing = self.planner.goal.is_some_and(|g| g.failures >= 2);
        let steer = self
            .course
            .recover(steer, me, &mut *input.nav, view.map.world(), holding, failing, clock, &mut self.rng);
        self.course.note_corner();
        steer
    }

    /// What a route event means for the goal and the statistics.
    fn route_event(&mut self, event: FollowEvent, view: &BotView<'_>, me: &PlayerSnap, clock: &BotClock) {
        match event {
            FollowEvent::None => {}
            FollowEvent::Arrived => {
                self.course.count_link(&mut self.profile.stats);
                if self.planner.goal.is_some_and(|g| g.kind == GoalKind::Investigate) {
                    // Looked: the lead is spent.
                    self.investigation = None;
                    self.found_nobody(me, clock);
                }
                self.planner
                    .arrived(view, me, &self.profile.resolved.traits, &mut self.senses.memory);
            }
            FollowEvent::Stuck | FollowEvent::TimedOut => {
                self.profile.stats.stuck_events += 1;
                self.planner.route_lost(clock);
            }
            FollowEvent::Misplaced => {
                self.course.count_link(&mut self.profile.stats);
                self.planner.route_lost(clock);
            }
        }
        let goal = self.planner.goal.map(|g| g.kind);
        self.course.count_after(event, &mut self.profile.stats, &mut self.profile.stuck, me.origin, goal, clock);
    }

    /// The aim for this tick: the target (its snap taken), else a look
    /// hint, else where the route looks; returns the view angles.
    /// The point of the gate the goal leads to shoot open, when it is in
    /// range and in sight from the bot's eye.
    fn gate_in_sight(&self, view: &BotView<'_>, me: &PlayerSnap) -> Option<Vec3> {
        let p = self.planner.shoot_at()?;
        if p.distance(me.eye) > GATE_SHOT_RANGE {
            return None;
        }
        let tr = view.map.world().trace(me.eye, p, Vec3::ZERO, Vec3::ZERO, quarry_map::Contents::MASK_SHOT);
        // The shot stops on the gate's face, short of its centre.
        (tr.end.distance(p) <= GATE_FACE_SLACK).then_some(p)
    }

    #[expect(clippy::too_many_arguments, reason = "one aim with everything it weighs")]
    fn aim(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        target: Option<TargetNow>,
        gate_shot: Option<Vec3>,
        steer: &Steer,
        watch: bool,
        clock: &BotClock,
    ) -> (f32, f32) {
        let t = self.profile.resolved.traits;
        let aim_target = match target {
            _ if steer.face && steer.look.is_some() => steer.look.map_or(AimTarget::Keep, AimTarget::Point),
            Some(x) => {
                let track = self.senses.memory.track(x.engagement.slot).copied();
                let aim_target = enemy_aim_target(view, me, &x, track, &t, clock);
                self.target.snapped();
                aim_target
            }
            None if gate_shot.is_some() => gate_shot.map_or(AimTarget::Keep, AimTarget::Point),
            None => match self.senses.look_hint(clock) {
                Some(p) => AimTarget::Point(p),
                None => match watch.then(|| self.senses.watch_point(me, clock)).flatten() {
                    Some(p) => AimTarget::Point(p),
                    None => steer.look.map_or(AimTarget::Keep, AimTarget::Point),
                },
            },
        };
        let in_hand = view.weapons.get(me.inventory.current);
        self.gunner
            .turn(aim_target, me, in_hand, view.settings.movement.gravity, &t, clock, &mut self.rng)
    }

    /// Counts the first hit on each enemy after it came into view.
    fn count_first_hits(&mut self, view: &BotView<'_>, clock: &BotClock) {
        let me = self.profile.slot;
        for ev in &view.events {
            if let quarry_sim::events::GameEvent::Damage { target, attacker: Some(a), .. } = *ev
                && a == me
                && target != me
                && let Some(ms) = self.senses.noticing.first_hit(target, clock)
            {
                self.profile.stats.first_hits += 1;
                self.profile.stats.first_hit_ms_sum += f64::from(ms);
            }
        }
    }

    /// Counts a swim when the bot goes into a liquid over its waist.
    fn count_swim(&mut self, me: &PlayerSnap) {
        let swimming = me.water_level >= 2;
        if swimming && !self.swimming {
            self.profile.stats.swims += 1;
        }
        self.swimming = swimming;
    }

    fn count_idle(&mut self, me: &PlayerSnap, clock: &BotClock) {
        let speed = Vec3::new(me.velocity.x, me.velocity.y, 0.0).length();
        let holding = clock.tick < self.planner.hold_until;
        let stats = &mut self.profile.stats;
        if speed < IDLE_SPEED && !holding {
            stats.idle_run += 1;
            stats.max_idle_run = stats.max_idle_run.max(stats.idle_run);
        } else {
            stats.idle_run = 0;
        }
    }
}

impl Brain for NativeBrain {
    fn profile(&self) -> &BotProfile {
        &self.profile
    }

    fn profile_mut(&mut self) -> &mut BotProfile {
        &mut self.profile
    }

    fn tick(&mut self, input: &mut BrainInput<'_, '_>) -> BrainOutput {
        let view = input.view;
        let clock = view.clock;
        let me = view.player(self.profile.slot).copied();
        // What it sees and hears of the items (only through a living body).
        let fov = self.profile.resolved.traits.fov;
        self.senses.memory.items.update(view, me.as_ref().filter(|m| !m.frozen), fov);
        // Non-finite angles keep the last command's (so the view stays).
        let keep_view = Intent {
            pitch: f32::NAN,
            yaw: f32::NAN,
            ..Intent::default()
        };
        let intent = match me {
            None => {
                self.alive = false;
                keep_view
            }
            Some(_) if input.settings.pause || !view.play_allowed => keep_view,
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
                    self.spawned(&me, input.settings, input.source);
                }
                self.live_tick(input, &me)
            }
        };
        let delta = me.map_or((0.0, 0.0), |m| m.delta_angles);
        let cmd = compose(&intent, clock.tick, &self.last_cmd, delta);
        self.last_cmd = cmd;
        BrainOutput { cmd, chat: None }
    }

    fn new_match(&mut self, seed: u64) {
        self.rng = BotRng::for_slot(seed, self.profile.slot.0, 0);
        self.tactics.new_match(seed, self.profile.slot.0);
        self.alive = false;
        self.senses.memory = Memory::default();
        self.team = team::TeamSide::default();
        self.reset_life();
        self.last_cmd = UserCmd::default();
    }

    fn sight_checks(&self) -> usize {
        self.sight_checks
    }

    fn goal(&self) -> Option<GoalKind> {
        self.planner.goal.map(|g| g.kind)
    }

    fn beliefs(&self) -> Vec<crate::memory::EnemyTrack> {
        self.senses.memory.tracks().to_vec()
    }

    fn item_beliefs(&self) -> Vec<(quarry_sim::components::NetId, crate::item_memory::ItemState)> {
        self.senses.memory.items.states().collect()
    }

    fn team_call(&mut self) -> Option<crate::team::TeamCall> {
        self.team.call.take()
    }

    fn receive(&mut self, fact: &crate::team::TeamFact, clock: &BotClock) {
        if self.alive {
            self.take_fact(fact, clock);
        }
    }

    fn take_order(&mut self, order: crate::team::Order) {
        self.accept_order(order);
    }

    fn order(&self) -> Option<crate::team::Order> {
        self.team.order
    }

    fn route_ahead(&self) -> Vec<(Vec3, quarry_nav::LinkKind)> {
        let follower = &self.course.follower;
        follower.route().map_or_else(Vec::new, |r| r.corners.iter().skip(follower.index()).map(|c| (c.pos, c.link)).collect())
    }

    fn status(&self, view: Option<&BotView<'_>>) -> BrainStatus {
        let me = view.and_then(|v| v.player(self.profile.slot));
        let follower = &self.course.follower;
        BrainStatus {
            alive: self.alive,
            origin: me.map(|p| p.origin),
            health: me.map_or(0, |p| p.health),
            armor: me.map_or(0, |p| p.armor),
            goal: self
                .planner
                .goal
                .map_or_else(|| "none".to_owned(), |g| g.kind.describe()),
            route: follower.route().map(|r| (follower.index(), r.corners.len())),
            enemy: self.target.slot(),
            firing: self.gunner.firing,
            stance: Some(self.tactics.stance.name()),
        }
    }
}
