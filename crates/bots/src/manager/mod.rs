//! [`BotManager`]: the one entry point from the server. It owns every
//! bot's brain, adds and removes bot clients through the same slot path a
//! remote player takes, keeps the server topped up to `bot_minPlayers`,
//! builds the navmesh when bots need it, and once per server tick — right
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

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy_ecs::world::WorldId;
use quarry_sim::slots::{ClientKind, MAX_NAME_CHARS, SlotError};
use quarry_sim::{Match, SlotId, UserCmd, UserInfo};

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

pub use characters::{ReloadError, ReloadSummary};

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

/// Every bot of the server.
pub struct BotManager {
    cvars: Option<BotCvars>,
    settings: BotSettings,
    bots: Vec<BotEntry>,
    nav: NavService,
    view_cache: ViewCache,
    traits: Box<dyn TraitSource>,
    objectives: Option<Box<dyn ObjectiveProvider>>,
    ignored: Vec<SlotId>,
    match_key: Option<(u64, WorldId)>,
    seed: u64,
    next_fill: u32,
    next_status: u32,
    serial: u64,
    name_cursor: usize,
    cmds: Vec<(SlotId, UserCmd)>,
    /// Chat lines brains asked for this tick.
    brain_chat: Vec<(SlotId, ChatLine)>,
    last_think: Duration,
    /// Items bots picked up this match, by class.
    pickups: std::collections::BTreeMap<&'static str, u32>,
    /// Styles, characters and chat from `botfiles/`.
    content: Option<ContentTraitSource>,
    /// Where the content came from (`botreload` reads it again).
    botfiles: Option<PathBuf>,
    /// `bot_forceCharacter` as last applied.
    forced: String,
    /// Chat events, replies, throttles.
    chat: ChatHost,
    /// Lines for the server console (a background navmesh build finished).
    notices: Vec<String>,
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
        Self {
            cvars: None,
            settings,
            bots: Vec::new(),
            nav: NavService::default(),
            view_cache: ViewCache::default(),
            traits: Box::new(SkillCurve),
            objectives: None,
            ignored: Vec::new(),
            match_key: None,
            seed: 0,
            next_fill: 0,
            next_status: 0,
            serial: 0,
            name_cursor: 0,
            cmds: Vec::new(),
            brain_chat: Vec::new(),
            last_think: Duration::ZERO,
            pickups: std::collections::BTreeMap::new(),
            content: None,
            botfiles: None,
            forced: String::new(),
            chat: ChatHost::default(),
            notices: Vec::new(),
        }
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
            let forced = c.force_character(cvars);
            if forced != self.forced {
                self.forced = forced;
                self.apply_forced();
            }
        }
    }

    /// Replaces the settings.
    pub fn set_settings(&mut self, settings: BotSettings) {
        self.settings = settings;
    }

    /// The settings in use.
    pub fn settings(&self) -> &BotSettings {
        &self.settings
    }

    /// Replaces where traits come from (the content layer plugs in here).
    pub fn set_trait_source(&mut self, source: Box<dyn TraitSource>) {
        self.traits = source;
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
    pub fn set_background_nav(&mut self, on: bool) {
        self.nav.set_background(on);
    }

    /// Takes the lines for the server console gathered since the last call
    /// (a background navmesh build finished or failed).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Items bots picked up in this match, by class name.
    pub fn pickups(&self) -> &std::collections::BTreeMap<&'static str, u32> {
        &self.pickups
    }

    fn brain_settings(&self) -> BrainSettings {
        BrainSettings {
            pause: self.settings.pause,
            skill: self.settings.skill,
            skill_variance: self.settings.skill_variance,
            debug_aim: self.settings.debug_aim,
            debug: self.settings.debug,
        }
    }

    /// Adds a bot: a real client slot through `Match::connect`, entering the
    /// game like a remote player that finished loading.
    pub fn add_bot(&mut self, game: &mut Match, req: AddBot) -> Result<SlotId, AddBotError> {
        self.add(game, req, false)
    }

    fn add(&mut self, game: &mut Match, req: AddBot, filled: bool) -> Result<SlotId, AddBotError> {
        if !self.settings.enable {
            return Err(AddBotError::Disabled);
        }
        if let Some(name) = &req.name {
            let len = name.chars().count();
            if len > MAX_NAME_CHARS {
                return Err(AddBotError::NameTooLong {
                    name: name.clone(),
                    len,
                    max: MAX_NAME_CHARS,
                });
            }
        }
        if let Some(s) = req.skill
            && !(s.is_finite() && (1.0..=5.0).contains(&s))
        {
            return Err(AddBotError::UnknownSkill(s.to_string()));
        }
        check_map_hosts_bots(game.map())?;
        let max = game.slots().max();
        if game.slots().iter().count() >= max {
            return Err(AddBotError::Full(max));
        }
        self.sync_match(game);
        self.nav.set_max_nodes(self.settings.nav_max_nodes);
        self.nav
            .ensure(game, self.settings.nav_cell_size)
            .map_err(|e| AddBotError::NoNavmesh(e.to_string()))?;
        let characters = self.content.as_ref().filter(|_| self.settings.characters);
        let skill = req.skill.unwrap_or(self.settings.skill);
        let pick_seed = mix64(self.seed ^ (self.serial + 1));
        let taken = |n: &str| game.slots().find_by_name(n).is_some();
        let character;
        let name = match req.name {
            Some(n) => {
                if req.exact && taken(&n) {
                    return Err(AddBotError::NameTaken(n));
                }
                character = characters.and_then(|c| c.choose(Some(&n), skill, pick_seed, &taken));
                n
            }
            None => {
                // The character first, then its name (if nobody has it).
                character = characters.and_then(|c| c.choose(None, skill, pick_seed, &taken));
                match character.clone().filter(|c| !taken(c)) {
                    Some(c) => c,
                    None => {
                        let start = self.name_cursor;
                        let n = pick_name(start, taken).ok_or(AddBotError::NoNames)?;
                        self.name_cursor = start + 1;
                        n
                    }
                }
            }
        };
        let info = UserInfo {
            name,
            model: "bot".into(),
            team_pref: None,
            handicap: 100,
        };
        let slot = game.connect(ClientKind::Bot, info).map_err(|e| match e {
            SlotError::Full { max } => AddBotError::Full(max),
            SlotError::NoSuchSlot(_) => AddBotError::Full(max),
        })?;
        if let Err(e) = game.enter_game(slot) {
            game.disconnect(slot);
            tracing::warn!(target: "quarry_bots", "bot couldn't enter the game: {e}");
            return Err(AddBotError::Full(max));
        }
        let name = game
            .slots()
            .get(slot)
            .map_or_else(String::new, |s| s.userinfo.name.clone());
        // The variance roll: fixed for the bot's life, from the match seed and slot.
        let skill_roll = BotRng::for_slot(self.seed, slot.0, 1).signed();
        let mut brain: Box<dyn Brain> =
            Box::new(NativeBrain::new(slot, BotIdentity { name, character }, req.skill, skill_roll, self.seed));
        if let Some(c) = self.content.as_ref().filter(|_| self.settings.characters) {
            // Bind now, so the next add sees the character in use and the
            // first chat line already has the character's traits.
            let settings = self.brain_settings();
            let p = brain.profile_mut();
            p.resolved = c.resolve(&p.identity, p.effective_skill(&settings));
        }
        let chat = self.settings.chat_settings();
        let content = self.content.as_ref().filter(|_| self.settings.characters && self.settings.chat > 0);
        self.chat.entered(game, brain.as_ref(), content, &chat);
        self.serial += 1;
        let entry = BotEntry {
            brain,
            filled,
            serial: self.serial,
        };
        let at = self.bots.partition_point(|b| b.brain.slot() < slot);
        self.bots.insert(at, entry);
        Ok(slot)
    }

    /// Removes the bot named `name` (case-insensitive), or the last one
    /// added; returns its name.
    pub fn remove_bot(&mut self, game: &mut Match, name: Option<&str>) -> Result<String, RemoveBotError> {
        self.prune(game);
        if self.bots.is_empty() {
            return Err(RemoveBotError::NoBots);
        }
        let index = match name {
            Some(n) => self
                .bots
                .iter()
                .position(|b| {
                    game.slots()
                        .get(b.brain.slot())
                        .is_some_and(|s| s.userinfo.name.eq_ignore_ascii_case(n))
                })
                .ok_or_else(|| RemoveBotError::NotFound(n.to_owned()))?,
            None => self.last_added(|_| true).ok_or(RemoveBotError::NoBots)?,
        };
        Ok(self.remove_at(game, index))
    }

    fn last_added(&self, filter: impl Fn(&BotEntry) -> bool) -> Option<usize> {
        self.bots
            .iter()
            .enumerate()
            .filter(|(_, b)| filter(b))
            .max_by_key(|(_, b)| b.serial)
            .map(|(i, _)| i)
    }

    fn remove_at(&mut self, game: &mut Match, index: usize) -> String {
        let entry = self.bots.remove(index);
        let slot = entry.brain.slot();
        let name = game
            .slots()
            .get(slot)
            .map_or_else(|| entry.brain.profile().identity.name.clone(), |s| s.userinfo.name.clone());
        self.leave(game, entry.brain.as_ref(), true);
        game.disconnect(slot);
        name
    }

    /// A bot is going: its farewell (said now, through its own slot, if
    /// `farewell`), its character released, its chat state dropped.
    fn leave(&mut self, game: &mut Match, brain: &dyn Brain, farewell: bool) {
        if farewell {
            let chat = self.settings.chat_settings();
            let content = self.content.as_ref().filter(|_| self.settings.characters && self.settings.chat > 0);
            if let Some(line) = self.chat.farewell(game, brain, content, &chat) {
                self.say(game, &line);
            }
        }
        let profile = brain.profile();
        self.traits.release(&profile.identity);
        if let Some(c) = &self.content {
            c.release(&profile.identity.name);
        }
        self.chat.forget(profile.slot);
    }

    fn say(&mut self, game: &mut Match, line: &crate::chat::Outgoing) {
        let team = line.team && game.rules().gametype.is_team_game();
        let result = CmdSink::new(game, line.slot).and_then(|mut sink| sink.say(team, &line.text));
        if let Err(e) = result {
            self.chat.refused();
            tracing::debug!(target: "quarry_bots", "slot {}: chat refused: {e}", line.slot.0);
        }
    }

    /// Removes every bot; returns how many.
    pub fn kick_all(&mut self, game: &mut Match) -> usize {
        self.prune(game);
        let n = self.bots.len();
        for entry in std::mem::take(&mut self.bots) {
            self.leave(game, entry.brain.as_ref(), true);
            game.disconnect(entry.brain.slot());
        }
        n
    }

    /// A human is connecting to a full server: frees the slot of the
    /// last bot added (a fill bot first). Returns the freed slot.
    pub fn make_room_for_human(&mut self, game: &mut Match) -> Option<SlotId> {
        self.prune(game);
        if game.slots().iter().count() < game.slots().max() {
            return None;
        }
        let index = self.last_added(|b| b.filled).or_else(|| self.last_added(|_| true))?;
        let slot = self.bots.get(index).map(|b| b.brain.slot())?;
        self.remove_at(game, index);
        Some(slot)
    }

    /// Lets every bot think and pushes one command per bot slot. Call once
    /// per tick, right before `Match::step`.
    pub fn think(&mut self, game: &mut Match) {
        let started = Instant::now();
        // A background build that finished is picked up here, at the tick boundary.
        if let Some(line) = self.nav.poll() {
            self.notices.push(line);
        }
        self.sync_match(game);
        self.prune(game);
        self.fill(game);
        if self.bots.is_empty() {
            self.last_think = started.elapsed();
            return;
        }
        self.nav.set_max_nodes(self.settings.nav_max_nodes);
        if let Err(e) = self.nav.ensure(game, self.settings.nav_cell_size) {
            tracing::debug!(target: "quarry_bots", "no navmesh: {e}");
        }
        // While the mesh is built in the background nobody plans a goal (a
        // route asked for now would fail and blacklist the goal); aiming,
        // fighting and dodging go on.
        let building = self.nav.is_building();
        let settings = self.brain_settings();
        let period = (game.hz() as f32 / self.settings.think_rate.max(1) as f32)
            .round()
            .max(1.0) as u32;
        let status_due = self.settings.debug >= 2 && game.tick() >= self.next_status;
        self.cmds.clear();
        self.brain_chat.clear();
        {
            let view = BotView::build(game, &mut self.view_cache);
            for entry in &mut self.bots {
                entry.brain.record_events(&view);
            }
            {
                let brains: Vec<&dyn Brain> = self.bots.iter().map(|b| b.brain.as_ref()).collect();
                let content = self.content.as_ref().filter(|_| self.settings.characters && self.settings.chat > 0);
                self.chat.hear(&view, game, &brains, content, &self.settings.chat_settings());
            }
            for ev in &view.events {
                if let quarry_sim::events::GameEvent::ItemPickup { slot, item, .. } = ev
                    && self.bots.iter().any(|b| b.brain.slot() == *slot)
                {
                    *self.pickups.entry(item).or_default() += 1;
                }
            }
            let world = game.map().world();
            let mut mesh_nav = self.nav.navigator(world);
            let mut fallback = crate::navigate::StraightNavigator::default();
            let mut pending = crate::navmesh::PendingNavigator;
            let nav: &mut dyn crate::navigate::Navigator = match mesh_nav.as_mut() {
                Some(n) => n,
                None if building => &mut pending,
                None => &mut fallback,
            };
            let bot_slots: Vec<SlotId> = self.bots.iter().map(|b| b.brain.slot()).collect();
            if let Some(o) = self.objectives.as_deref_mut()
                && !building
            {
                o.plan(&view, &bot_slots, nav);
            }
            let objectives = self.objectives.as_deref();
            let source = active_source(&self.content, self.traits.as_ref(), self.settings.characters);
            let routes_before = nav.queries();
            let mut sight_left = SIGHT_BUDGET_PER_TICK;
            // Rotate who plans first so a spent budget never starves the same bots.
            let n = self.bots.len();
            let first = view.clock.tick as usize % n.max(1);
            for k in 0..n {
                let Some(entry) = self.bots.get_mut((first + k) % n) else {
                    continue;
                };
                let b = &mut entry.brain;
                let slot = b.slot();
                let decide = Decide {
                    perceive: (view.clock.tick + u32::from(slot.0)).is_multiple_of(period),
                    sight_budget: sight_left,
                    plan: !building && nav.queries() - routes_before < ROUTE_BUDGET,
                };
                let mut input = BrainInput {
                    view: &view,
                    nav: &mut *nav,
                    source,
                    objectives,
                    ignored: &self.ignored,
                    settings: &settings,
                    decide,
                };
                let out = b.tick(&mut input);
                sight_left = sight_left.saturating_sub(b.sight_checks());
                self.cmds.push((slot, out.cmd));
                if let Some(line) = out.chat {
                    self.brain_chat.push((slot, line));
                }
                if status_due {
                    let s = b.status(Some(&view));
                    let at = s
                        .origin
                        .map_or_else(|| "-".to_owned(), |o| format!("({:.0} {:.0} {:.0})", o.x, o.y, o.z));
                    tracing::info!(
                        target: "quarry_bots::status",
                        "{} {at} hp {} armor {} goal {} route {} enemy {} {}",
                        b.profile().identity.name,
                        s.health,
                        s.armor,
                        s.goal,
                        s.route.map_or_else(|| "-".to_owned(), |(i, n)| format!("{i}/{n}")),
                        s.enemy.map_or_else(|| "-".to_owned(), |e| e.0.to_string()),
                        if s.firing { "firing" } else { "" }
                    );
                }
            }
        }
        if status_due {
            self.next_status = game.tick() + (STATUS_INTERVAL_S * game.hz() as f32) as u32;
        }
        for &(slot, cmd) in &self.cmds {
            match CmdSink::new(game, slot) {
                Ok(mut sink) => {
                    if let Err(e) = sink.push(cmd) {
                        tracing::debug!(target: "quarry_bots", "slot {}: command refused: {e}", slot.0);
                    }
                }
                Err(e) => tracing::debug!(target: "quarry_bots", "{e}"),
            }
        }
        for (slot, line) in std::mem::take(&mut self.brain_chat) {
            let team = line.team && game.rules().gametype.is_team_game();
            let result = CmdSink::new(game, slot).and_then(|mut sink| sink.say(team, &line.text));
            if let Err(e) = result {
                tracing::debug!(target: "quarry_bots", "slot {}: chat refused: {e}", slot.0);
            }
        }
        let clock = crate::view::BotClock { tick: game.tick().wrapping_add(1), hz: game.hz() };
        for line in self.chat.due(clock) {
            self.say(game, &line);
        }
        self.last_think = started.elapsed();
    }
}
