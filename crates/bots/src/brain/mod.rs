//! A bot's brain behind one trait: [`Brain`] takes what a bot may know each
//! tick ([`BrainInput`]: its read-only view of the match with the clock,
//! routes, its objective, the manager's settings and budgets) and gives one
//! user command and optionally a chat line ([`BrainOutput`]). The manager
//! holds every bot as a `Box<dyn Brain>`, so brains are chosen per bot:
//! [`NativeBrain`] (the layers below) is one implementation; a scripted
//! brain can be another. A brain never writes game state: the manager
//! pushes its command and chat through the bot's own `CmdSink`.
//!
//! [`BotProfile`] is what every brain has and the manager reads for
//! `botlist`, reports and chat: slot, identity, skill, traits, counters.
//!
//! The native brain wires the layers, each a module with a narrow input
//! and output, in the order a tick runs them:
//!
//! | layer | module | in → out |
//! |---|---|---|
//! | perception and memory | [`crate::perception`] ([`Senses`](crate::perception::Senses), [`percepts`](crate::perception::percepts)) | events, view → percepts; sightings and memory |
//! | decision: combat target | [`crate::decide`] ([`Targeting`](crate::decide::Targeting)) | sightings, memory → engagement, acquisitions |
//! | decision: movement goal | [`crate::decide`] ([`GoalPlanner`](crate::decide::GoalPlanner)) | goal context → goal and route |
//! | navigation | [`crate::navigate`] ([`Course`](crate::navigate::Course)) | route, snapshot → steering, route events |
//! | aim and fire | [`crate::aim`] ([`Gunner`](crate::aim::Gunner)) | target, weapons → weapon, view angles, attack |
//! | the command | [`crate::act`] ([`compose_movement`](crate::act::compose_movement), [`compose`](crate::act::compose)) | steering, fight → intent → user command |

mod native;

use std::fmt;

use glam::Vec3;
use quarry_sim::{SlotId, UserCmd};

pub use crate::navigate::STUCK_STAT_MS;
pub use crate::stats::BotStats;
pub use native::NativeBrain;

use crate::content::{BotIdentity, Resolved, TraitSource, effective_skill};
use crate::decide::{GoalKind, ObjectiveProvider};
use crate::navigate::Navigator;
use crate::view::{BotClock, BotView};

/// Line-of-sight checks one decision may spend.
pub const SIGHT_BUDGET: usize = 6;

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
    /// `bot_tactical`.
    pub tactical: crate::tactics::TacticalLevel,
    /// `bot_scriptRate`: scripted brains' calls per second.
    pub script_rate: u32,
}

impl Default for BrainSettings {
    fn default() -> Self {
        Self {
            pause: false,
            skill: 3.0,
            skill_variance: 0.0,
            debug_aim: false,
            debug: 0,
            tactical: crate::tactics::TacticalLevel::new(1),
            script_rate: crate::script::DEFAULT_SCRIPT_RATE,
        }
    }
}

/// What a brain gets each tick.
pub struct BrainInput<'v, 'a> {
    /// The read-only picture of the match, with this tick's events and the
    /// clock (`view.clock`).
    pub view: &'v BotView<'a>,
    /// Routes (the navmesh, a stand-in while it is built). It keeps nothing
    /// of the bot asking: each query is given the bot's
    /// [`Traveller`](crate::navigate::Traveller).
    pub nav: &'v mut dyn Navigator,
    /// Where traits come from at each spawn.
    pub source: &'v dyn TraitSource,
    /// The game type's objectives, if any.
    pub objectives: Option<&'v dyn ObjectiveProvider>,
    /// Players bots must not target (`notarget`).
    pub ignored: &'v [SlotId],
    /// The manager's settings.
    pub settings: &'v BrainSettings,
    /// Whether this is a decision tick, and the budgets left.
    pub decide: Decide,
}

/// A chat line a brain wants said through its own slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    /// To the team only (said to all outside team games).
    pub team: bool,
    /// The text.
    pub text: String,
}

/// What a brain gives back each tick.
#[derive(Debug, Clone, PartialEq)]
#[must_use = "the command must be pushed through the bot's CmdSink"]
pub struct BrainOutput {
    /// The one user command of this tick.
    pub cmd: UserCmd,
    /// A chat line to say, if any.
    pub chat: Option<ChatLine>,
}

/// What every bot is, whatever its brain: who, at what skill, with which
/// traits this life, and what it did.
#[derive(Debug, Clone)]
pub struct BotProfile {
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
    /// Where it got stuck.
    pub stuck: crate::stuck::StuckLog,
}

impl BotProfile {
    /// The profile of a bot joining in `slot`: skill 3 (or its own) until
    /// its first spawn resolves it.
    pub fn new(slot: SlotId, identity: BotIdentity, skill_override: Option<f32>, skill_roll: f32) -> Self {
        let resolved = crate::content::SkillCurve.resolve(&identity, skill_override.unwrap_or(3.0));
        Self {
            slot,
            identity,
            skill_override,
            skill_roll,
            skill: skill_override.unwrap_or(3.0),
            resolved,
            stats: BotStats::default(),
            stuck: crate::stuck::StuckLog::default(),
        }
    }

    /// The skill this bot plays at under `settings`.
    pub fn effective_skill(&self, settings: &BrainSettings) -> f32 {
        match self.skill_override {
            Some(s) => effective_skill(s, 0.0, 0.0),
            None => effective_skill(settings.skill, settings.skill_variance, self.skill_roll),
        }
    }

    /// A new life: the skill under `settings` and the traits from `source`.
    pub fn respawn(&mut self, settings: &BrainSettings, source: &dyn TraitSource) {
        self.skill = self.effective_skill(settings);
        self.resolved = source.resolve(&self.identity, self.skill);
    }
}

/// A bot's brain: one user command (and maybe a chat line) per tick from
/// what the bot may know. Deterministic: every random draw comes from RNGs
/// seeded from the match seed (given at [`Brain::new_match`]) and the slot.
pub trait Brain: fmt::Debug + Send {
    /// Who the bot is and what it did.
    fn profile(&self) -> &BotProfile;

    /// The profile, mutably (the manager binds characters and traits).
    fn profile_mut(&mut self) -> &mut BotProfile;

    /// One tick: the command to push (and a chat line to say, if any).
    fn tick(&mut self, input: &mut BrainInput<'_, '_>) -> BrainOutput;

    /// A new match started (map change, restart): tick numbering restarted,
    /// so every deadline is void; RNGs restart from `seed`.
    fn new_match(&mut self, seed: u64);

    /// The slot it plays in.
    fn slot(&self) -> SlotId {
        self.profile().slot
    }

    /// Counts what this tick's events say about the bot (shots and hits per
    /// weapon, kills, deaths, pickups). Called by the manager every tick.
    fn record_events(&mut self, view: &BotView<'_>) {
        let p = self.profile_mut();
        p.stats.record_events(p.slot, view);
    }

    /// Line-of-sight checks spent in the last tick (for the manager's budget).
    fn sight_checks(&self) -> usize {
        0
    }

    /// What the bot believes about enemies' whereabouts: its tracks, each
    /// with how it knows. By default nothing (a brain without memory).
    fn beliefs(&self) -> Vec<crate::memory::EnemyTrack> {
        Vec::new()
    }

    /// What the bot believes of each map item (there, or gone until when),
    /// by item id. By default nothing (a brain without memory).
    fn item_beliefs(&self) -> Vec<(quarry_sim::components::NetId, crate::item_memory::ItemState)> {
        Vec::new()
    }

    /// What the bot would tell its team now, if anything (the manager takes
    /// it every tick; the team layer decides whether it is said).
    fn team_call(&mut self) -> Option<crate::team::TeamCall> {
        None
    }

    /// A teammate's fact, delivered with the line that said it.
    fn receive(&mut self, _fact: &crate::team::TeamFact, _clock: &BotClock) {}

    /// An order the bot took (it acknowledged it in team chat).
    fn take_order(&mut self, _order: crate::team::Order) {}

    /// The order it follows, if any.
    fn order(&self) -> Option<crate::team::Order> {
        None
    }

    /// The movement goal pursued, if the brain has one (chat reads it).
    fn goal(&self) -> Option<GoalKind> {
        None
    }

    /// The corners of the route still ahead and how each is reached (the
    /// web view draws them); none by default.
    fn route_ahead(&self) -> Vec<(Vec3, quarry_nav::LinkKind)> {
        Vec::new()
    }

    /// A status line for `bot_debug 2` and `botlist`. By default what the
    /// view shows of the bot, with no goal, route or enemy.
    fn status(&self, view: Option<&BotView<'_>>) -> BrainStatus {
        let me = view.and_then(|v| v.player(self.slot()));
        BrainStatus {
            alive: me.is_some_and(|p| p.alive),
            origin: me.map(|p| p.origin),
            health: me.map_or(0, |p| p.health),
            armor: me.map_or(0, |p| p.armor),
            goal: "none".to_owned(),
            route: None,
            enemy: None,
            firing: false,
            stance: None,
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
    /// The stance, when tactics are on.
    pub stance: Option<&'static str>,
}
