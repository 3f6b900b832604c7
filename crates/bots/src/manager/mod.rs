//! [`BotManager`]: the one entry point from the server. It owns every
//! bot's brain, adds and removes bot clients through the same slot path a
//! remote player takes, keeps the server padded with bots (topped up to
//! `bot_minPlayers` players, or `bot_maxBots` bots easing off as humans
//! arrive: [`eased_bot_target`]), builds the navmesh when bots need it, and once per server tick — right
//! before the match steps — lets every bot think and pushes one command per
//! bot slot into the input queue through the bot's [`CmdSink`].
//!
//! Time contract: call [`BotManager::think`] once per tick, before
//! `Match::step`. Between ticks the console may call `add_bot`,
//! `remove_bot`, `kick_all` and `list` (through [`crate::commands`]).
//!
//! A map change is noticed by the match having a new world: every brain
//! forgets its deadlines and per-life state (tick numbering restarted),
//! keeps its slot, name and skill, and the navmesh is rebuilt for the new
//! map: before the first decision needs it by default, or on a worker
//! thread with [`BotManager::set_background_nav`] (a live server), bots
//! fighting without routes meanwhile (their goal planning waits) and
//! routing from the tick the mesh is picked up. Every random draw comes
//! from RNGs seeded from the match seed and the slot.
//!
//! Characters: with content loaded ([`BotManager::set_content`]) and
//! `bot_characters 1`, a bot added without a name picks its character first
//! and takes the character's name (a name someone already has rules that
//! character out); it speaks with that character's chat bank
//! ([`crate::chat`]). A leaving bot says its farewell through its own slot
//! before it disconnects, and its character is released.
//!
//! Brains: each bot is a `Box<dyn Brain>` (today always a
//! [`NativeBrain`]); the manager talks to it only through the trait.
//!
//! | file | holds |
//! |---|---|
//! | `roster.rs` | adding (checks, name and character, connect, brain), removing, making room |
//! | `think.rs` | the tick: observe events, brains in rotation within budgets, deliver |
//! | `lifecycle.rs` | a new match, pruning, the fill (`bot_minPlayers`, or `bot_maxBots` and `bot_zeroAt`) |
//! | `listing.rs` | `botlist`, counters, the match report |
//! | `characters.rs` | content, `botreload`, `botcharacters`, `bot_forceCharacter` |

use std::path::PathBuf;
use std::time::Duration;

use bevy_ecs::world::WorldId;
use quarry_sim::{SlotId, UserCmd};

use crate::brain::{BotStats, Brain, BrainInput, BrainSettings, BrainStatus, ChatLine, Decide, NativeBrain};
use crate::chat::ChatHost;
use crate::content::{BotIdentity, ContentTraitSource, SkillCurve, TraitSource};
use crate::cvars::{BotCvars, BotSettings};
use crate::decide::ObjectiveProvider;
use crate::names::pick_name;
use crate::navmesh::NavService;
use crate::rng::{BotRng, mix64};
use crate::sink::CmdSink;
use crate::view::{BotView, ViewCache};

mod characters;
mod lifecycle;
mod listing;
mod roster;
mod think;

pub use characters::{ReloadError, ReloadSummary};
pub use lifecycle::eased_bot_target;

/// How often the fill checks the player count, s.
pub const FILL_INTERVAL_S: f32 = 2.0;
/// How long the fill waits after a refused add, s.
pub const FILL_BACKOFF_S: f32 = 30.0;
/// Route queries all bots together may start per tick; a bot whose goal
/// planning would exceed it plans on a later tick instead, in rotation.
/// One: a bot's planning may route a few candidates, and two bots planning
/// on one tick made the longest ticks. With 16 bots, one-minute `--fast`
/// matches, seeds 1-4, on all 3 shipped and 8 shared maps, the mean tick
/// p99 fell on 10 of 11 maps (oacmpdm8 2.05 -> 1.82 ms, q_dm1 1.85 -> 0.92)
/// and the longest tick on 8 (q_dm1 21 -> 5.5 ms), while kills (3,580 ->
/// 3,522), pickups (4,763 -> 4,777) and stuck time stayed within the
/// seeds' spread. At 60 Hz it still lets 60 bots replan every second.
pub const ROUTE_BUDGET: u64 = 1;
/// Line-of-sight candidate checks (each up to seven traces) all bots
/// together may spend per tick; a look that would exceed it waits a tick.
pub const SIGHT_BUDGET_PER_TICK: usize = 48;
/// How often `bot_debug 2` prints a status line per bot, s.
const STATUS_INTERVAL_S: f32 = 2.0;

/// What `addbot` asks for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AddBot {
    /// The name; `None` picks one from the pool.
    pub name: Option<String>,
    /// A per-bot skill (bypasses `bot_skill` and the variance).
    pub skill: Option<f32>,
    /// The name must be taken exactly (no `(2)` suffix for a duplicate).
    pub exact: bool,
    /// A scripted brain (`botfiles/brains/NAME.rhai`); `None`: the
    /// character's, else the native brain.
    pub brain: Option<String>,
    /// The player a scripted brain serves (a name on the server). The bot
    /// joins the owner's team and is attached to the owner
    /// ([`quarry_sim::Match::attach`]), so the team balance never parts them;
    /// with no room on that team it is not added ([`AddBotError::TeamFull`]).
    pub owner: Option<String>,
    /// A character to wear whatever the bot's name, even one another bot
    /// wears and even with `bot_forceCharacter` set (match cards name each
    /// bot's character); `None`: the character named like the bot, else a
    /// pick. Ignored without loaded content or with `bot_characters 0`.
    pub character: Option<String>,
    /// The team to join in a team game (the rules may refuse it when it
    /// would unbalance the teams); `None`: the smaller team, or the
    /// owner's.
    pub team: Option<quarry_sim::Team>,
}

/// Why a bot was not added.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AddBotError {
    /// `bot_enable` is 0.
    #[error("bots are disabled (set bot_enable 1)")]
    Disabled,
    /// No match is running.
    #[error("no map is loaded (map NAME loads one)")]
    NoMap,
    /// The map has nowhere to spawn.
    #[error("map '{0}' has no spawn points: it can't host bots")]
    NoSpawnPoints(String),
    /// The navmesh could not be built.
    #[error("bots can't move on this map: {0}")]
    NoNavmesh(String),
    /// Every slot is taken.
    #[error("server is full ({0} slots): no room for a bot")]
    Full(usize),
    /// The requested name is longer than a player name may be.
    #[error("bot name '{name}' is too long: {len} characters, at most {max}")]
    NameTooLong {
        /// The name given.
        name: String,
        /// Its length in characters.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The skill argument is not a level.
    #[error("unknown skill '{0}': give a number from 1 to 5 (fractions allowed)")]
    UnknownSkill(String),
    /// `exact` was asked and the name is in use.
    #[error("the name '{0}' is already in use")]
    NameTaken(String),
    /// No name was given and the pool is used up.
    #[error("every built-in bot name is in use: give the bot a name")]
    NoNames,
    /// The scripted brain asked for is not loaded.
    #[error("{0}")]
    UnknownBrain(String),
    /// The owner named is not on the server.
    #[error("no player named '{0}' to serve (owner=NAME takes a name from status)")]
    UnknownOwner(String),
    /// The owner's team has no room (`g_teamForceBalance`): a bot serving
    /// an owner plays on its side or not at all.
    #[error("{team} team is full: {owner}'s bot would have to play against {owner} (g_teamForceBalance 1 keeps the teams even)")]
    TeamFull {
        /// The owner's team.
        team: &'static str,
        /// The owner's name.
        owner: String,
    },
}

/// Why a bot was not removed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoveBotError {
    /// There are no bots.
    #[error("there are no bots")]
    NoBots,
    /// No bot has that name.
    #[error("no bot named '{0}' (botlist shows them)")]
    NotFound(String),
    /// No match is running.
    #[error("no map is loaded")]
    NoMap,
}

/// Whether bots can join on `map`: it needs a spawn point a player fits at.
pub fn check_map_hosts_bots(map: &quarry_map::LoadedMap) -> Result<(), AddBotError> {
    if map.spawn_points().any(|(_, s)| s.fits) {
        Ok(())
    } else {
        Err(AddBotError::NoSpawnPoints(map.name().to_owned()))
    }
}

/// The source bots resolve traits from: the content when it is loaded and
/// `bot_characters` is on, else the plain (or a custom) source.
fn active_source<'a>(content: &'a Option<ContentTraitSource>, traits: &'a dyn TraitSource, on: bool) -> &'a dyn TraitSource {
    match content {
        Some(c) if on => c,
        _ => traits,
    }
}

/// A bot's mind as the web view draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct BotOverlay {
    /// Slot.
    pub slot: SlotId,
    /// Goal description.
    pub goal: String,
    /// The route still ahead: each corner and how it is reached.
    pub route: Vec<(glam::Vec3, quarry_nav::LinkKind)>,
    /// Combat target.
    pub enemy: Option<SlotId>,
    /// Stance, when tactics are on.
    pub stance: Option<&'static str>,
    /// Its objective role this tick, in game types with objectives.
    pub role: Option<&'static str>,
    /// Its field of view, degrees.
    pub fov: f32,
    /// What it believes about enemies' whereabouts: seen, heard, reported.
    pub tracks: Vec<crate::memory::EnemyTrack>,
}

/// One line of `botlist`.
#[derive(Debug, Clone, PartialEq)]
pub struct BotRow {
    /// Slot.
    pub slot: SlotId,
    /// Name.
    pub name: String,
    /// The skill it plays at now.
    pub skill: f32,
    /// Whether the fill added it.
    pub filled: bool,
    /// What it is doing.
    pub status: BrainStatus,
    /// Its enemy's name.
    pub enemy: Option<String>,
    /// Frags.
    pub frags: i32,
    /// Counters.
    pub stats: BotStats,
}

/// A bot: its brain and how it came.
#[derive(Debug)]
struct BotEntry {
    brain: Box<dyn Brain>,
    filled: bool,
    /// Order of addition (for "remove the last added").
    serial: u64,
}

/// The match being played, as the manager tracks it: which one (a new
/// seed or world is a new match), its seed, the fill and status clocks,
/// the view cache and what bots picked up. Starts over with each match.
#[derive(Default)]
struct MatchState {
    /// The match's seed and world (a change is a new match).
    key: Option<(u64, WorldId)>,
    /// The mixed match seed every bot RNG derives from.
    seed: u64,
    /// Tick of the next fill pass (`bot_minPlayers` or `bot_maxBots`).
    next_fill: u32,
    /// Picks which bot `bot_maxBots` lets go (seeded from the match seed
    /// at the first draw of each match).
    fill_rng: Option<BotRng>,
    /// Tick of the next `bot_debug 2` status lines.
    next_status: u32,
    /// Reused buffers of the per-tick view.
    view_cache: ViewCache,
    /// Items bots picked up this match, by class.
    pickups: std::collections::BTreeMap<&'static str, u32>,
    /// Items bots picked up this match, by class and place.
    spots: std::collections::BTreeMap<(&'static str, [i32; 3]), u32>,
}

/// Where bots' traits, characters and chat come from.
struct Persona {
    /// The plain (or a custom) trait source.
    traits: Box<dyn TraitSource>,
    /// Styles, characters and chat from `botfiles/`.
    content: Option<ContentTraitSource>,
    /// Where the content came from (`botreload` reads it again).
    botfiles: Option<PathBuf>,
    /// `bot_forceCharacter` as last applied.
    forced: String,
}

/// What the brains produced this tick, pushed once the view is gone.
#[derive(Default)]
struct Outbox {
    /// One command per bot slot.
    cmds: Vec<(SlotId, UserCmd)>,
    /// Chat lines brains asked for.
    chat: Vec<(SlotId, ChatLine)>,
}

/// Every bot of the server.
pub struct BotManager {
    cvars: Option<BotCvars>,
    settings: BotSettings,
    /// The bots, in slot order.
    bots: Vec<BotEntry>,
    /// Order of the last addition.
    serial: u64,
    /// Where the next pooled name is looked for.
    name_cursor: usize,
    nav: NavService,
    /// Whether this server may build off the tick thread (a live one);
    /// `bot_navBackground` can still keep builds on it.
    background_nav: bool,
    objectives: Option<Box<dyn ObjectiveProvider>>,
    /// Players bots ignore (`notarget`).
    ignored: Vec<SlotId>,
    current: MatchState,
    persona: Persona,
    outbox: Outbox,
    last_think: Duration,
    /// Chat events, replies, throttles.
    chat: ChatHost,
    /// Lines for the server console (a background navmesh build finished).
    notices: Vec<String>,
    /// Scripted brains (`botfiles/brains`), shared with the scripted bots.
    scripts: crate::script::Scripts,
    /// Whether the log already said `bot_minPlayers` is ignored while
    /// `bot_maxBots` is on (said again after the two stop clashing).
    min_players_overridden: bool,
}

impl std::fmt::Debug for BotManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotManager")
            .field("bots", &self.bots.len())
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Default for BotManager {
    fn default() -> Self {
        Self::new(BotSettings::default())
    }
}

impl BotManager {
    /// A manager with fixed settings (tests, benches); see [`BotManager::with_cvars`].
    pub fn new(settings: BotSettings) -> Self {
        let scripts = crate::script::ScriptLibrary::new(settings.script_max_ops).shared();
        let mut manager = Self {
            cvars: None,
            settings,
            bots: Vec::new(),
            serial: 0,
            name_cursor: 0,
            nav: NavService::default(),
            background_nav: false,
            objectives: None,
            ignored: Vec::new(),
            current: MatchState::default(),
            persona: Persona {
                traits: Box::new(SkillCurve),
                content: None,
                botfiles: None,
                forced: String::new(),
            },
            outbox: Outbox::default(),
            last_think: Duration::ZERO,
            chat: ChatHost::default(),
            notices: Vec::new(),
            scripts,
            min_players_overridden: false,
        };
        manager.apply_script_limits();
        manager
    }

    /// A manager reading its settings from the registered bot cvars
    /// (call [`BotManager::update_settings`] each tick or before commands).
    pub fn with_cvars(cvars: BotCvars) -> Self {
        Self {
            cvars: Some(cvars),
            ..Self::new(BotSettings::default())
        }
    }

    /// Re-reads the cvars (no-op without cvar handles).
    pub fn update_settings(&mut self, cvars: &quarry_console::CvarSet) {
        if let Some(c) = self.cvars {
            self.settings = c.read(cvars);
            self.apply_background_nav();
            self.apply_script_limits();
            let forced = c.force_character(cvars);
            if forced != self.persona.forced {
                self.persona.forced = forced;
                self.apply_forced();
            }
        }
    }

    /// Replaces the settings.
    pub fn set_settings(&mut self, settings: BotSettings) {
        self.settings = settings;
        self.apply_background_nav();
        self.apply_script_limits();
    }

    /// The scripts' limits from the settings: operations and time a call,
    /// time a tick.
    fn apply_script_limits(&mut self) {
        if let Ok(mut lib) = self.scripts.lock() {
            lib.set_max_ops(self.settings.script_max_ops);
            lib.set_max_call_ms(self.settings.script_max_ms);
            lib.set_tick_ms(self.settings.script_tick_ms);
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &BotSettings {
        &self.settings
    }

    /// Replaces where traits come from (the content layer plugs in here).
    pub fn set_trait_source(&mut self, source: Box<dyn TraitSource>) {
        self.persona.traits = source;
    }

    /// Replaces the objective provider until the next match (each new match
    /// picks the game type's own, see [`crate::objective::provider_for`]).
    pub fn set_objective_provider(&mut self, provider: Option<Box<dyn ObjectiveProvider>>) {
        self.objectives = provider;
    }

    /// Whether bots ignore the player in `slot` (a no-target flag: chatting,
    /// in a menu, an admin).
    pub fn is_ignored(&self, slot: SlotId) -> bool {
        self.ignored.contains(&slot)
    }

    /// Marks a player as one bots ignore (`notarget`), or clears the mark.
    pub fn set_ignored(&mut self, slot: SlotId, ignored: bool) {
        self.ignored.retain(|s| *s != slot);
        if ignored {
            self.ignored.push(slot);
        }
    }

    /// How many bots there are.
    pub fn len(&self) -> usize {
        self.bots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.bots.is_empty()
    }

    /// The slots bots hold, in slot order.
    pub fn slots(&self) -> Vec<SlotId> {
        self.bots.iter().map(|b| b.brain.slot()).collect()
    }

    /// How long the last [`BotManager::think`] took (all bots).
    pub fn last_think(&self) -> Duration {
        self.last_think
    }

    /// The navmesh state, one line.
    pub fn nav_status(&self) -> String {
        self.nav.describe()
    }

    /// The navmesh service (for `navmesh info`-style tooling).
    pub fn nav(&self) -> &NavService {
        &self.nav
    }

    /// The navmesh service, mutably (`navmesh build` rebuilds through it).
    pub fn nav_mut(&mut self) -> &mut NavService {
        &mut self.nav
    }

    /// Builds navmeshes on a worker thread (a live server: a map change
    /// never stalls the tick) or, by default, on the tick thread (headless
    /// and tests: the mesh arrives at the same tick every run).
    /// `bot_navBackground 0` keeps a live server's builds on the tick
    /// thread too.
    pub fn set_background_nav(&mut self, on: bool) {
        self.background_nav = on;
        self.apply_background_nav();
    }

    /// Off the tick thread when the server allows it and
    /// `bot_navBackground` wants it.
    fn apply_background_nav(&mut self) {
        self.nav.set_background(self.background_nav && self.settings.nav_background);
    }

    /// Takes the lines for the server console gathered since the last call
    /// (a background navmesh build finished or failed).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Items bots picked up in this match, by class name.
    pub fn pickups(&self) -> &std::collections::BTreeMap<&'static str, u32> {
        &self.current.pickups
    }

    fn brain_settings(&self) -> BrainSettings {
        BrainSettings {
            pause: self.settings.pause,
            skill: self.settings.skill,
            skill_variance: self.settings.skill_variance,
            debug_aim: self.settings.debug_aim,
            debug: self.settings.debug,
            tactical: crate::tactics::TacticalLevel::new(self.settings.tactical),
            script_rate: self.settings.script_rate,
        }
    }
}
