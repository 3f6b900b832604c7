//! `quarry-bots`: bots that are real players.
//!
//! A bot takes a real client slot through `Match::connect` like a remote
//! player, enters the game the same way, and every tick pushes one
//! [`UserCmd`](quarry_sim::UserCmd) into the same input queue network
//! commands go to. Nothing downstream knows it is a bot.
//!
//! What it must not do: write game state except through a [`CmdSink`]
//! (a command or a chat line for the bot's own slot), read anything but a
//! read-only [`BotView`] of the match, or draw randomness from anything
//! but RNGs seeded from the match seed and the bot's slot.
//!
//! Layers, one module each, in the order a tick runs them:
//!
//! | module | does |
//! |---|---|
//! | [`content`] | the 48-trait skill curve; the resolved trait set per bot (styles and characters plug in as a [`TraitSource`]) |
//! | [`chat`] | chat banks from `botfiles/chats`, event lines, triggered replies, typing delay and throttles |
//! | [`view`] | [`BotView`], the read-only picture of the match built once per tick |
//! | [`perception`] | sight range, field of view, line of sight to body points, reaction delays; percepts from events; [`Senses`](perception::Senses) with memory |
//! | [`memory`] | enemy tracks that fade, the last attacker, the goal blacklist |
//! | [`decide`] | one combat target ([`Targeting`](decide::Targeting)); separately one movement goal by named rules ([`GoalRule`](decide::GoalRule): objective, item, chase; else roam) |
//! | [`objective`] | mode objectives: CTF/One Flag roles, Freeze Tag rescues, Clan Arena regrouping; fails closed elsewhere |
//! | [`items`] | item utility from the live inventory; shortlist, then routes |
//! | [`navigate`] | route following, committed actions, stuck detection, recovery ([`Course`](navigate::Course)) |
//! | [`navmesh`] | the runtime navmesh behind the [`Navigator`] trait |
//! | [`aim`] | belief lag, lead, tracking error, tremor, damped turn, mistakes; [`Gunner`](aim::Gunner): weapon, view and trigger per bot |
//! | [`trigger`] | fire cone, slew gate, settle time, cadence, bursts |
//! | [`weapons`] | weapon choice with hysteresis; line-of-fire safety |
//! | [`combat_move`] | preferred range, strafing rhythm, safe dodges |
//! | [`act`] | the user command: movement composed from steering and combat, then the command |
//! | [`sink`] | [`CmdSink`], the only way out |
//! | [`brain`] | the [`Brain`] trait (what a bot gets each tick in, one command and optional chat out) and [`NativeBrain`], the layers wired together |
//! | [`stats`] | what each bot did (shots, hits, stuck time, idle, pads) |
//! | [`manager`] | [`BotManager`]: add/remove, fill, map changes, the per-tick think |
//! | [`report`] | match figures: stuck time, idle, accuracy per weapon and skill, items taken |
//! | [`cvars`], [`commands`] | `bot_*` cvars; `addbot`, `removebot`, `kickbots`, `botlist`, `botcharacters`, `botreload` |
//!
//! The server calls, per tick: [`BotManager::update_settings`] (cheap) and
//! [`BotManager::think`] right before `Match::step`; at startup
//! [`BotCvars::register`] and [`register_commands`]; when a human connects
//! to a full server, [`BotManager::make_room_for_human`].

pub mod act;
pub mod aim;
pub mod brain;
pub mod chat;
pub mod combat_move;
pub mod commands;
pub mod content;
pub mod cvars;
pub mod decide;
pub mod item_memory;
pub mod items;
pub mod manager;
pub mod memory;
pub mod names;
pub mod navigate;
pub mod navmesh;
pub mod objective;
pub mod perception;
pub mod report;
pub mod rng;
pub mod script;
pub mod sink;
pub mod stats;
pub mod stuck;
pub mod tactics;
pub mod trigger;
pub mod team;
pub mod view;
pub mod weapons;

pub use commands::{BotAccess, register_commands};

/// Registers the bot cvars and commands on `console` in one call (what a
/// host usually wants); returns the cvar handles for
/// [`BotManager::with_cvars`].
pub fn register<C: 'static>(
    console: &mut quarry_console::Console<C>,
    access: fn(&mut C) -> BotAccess<'_>,
) -> Result<BotCvars, quarry_console::CvarError> {
    let cvars = BotCvars::register(console)?;
    register_commands(console, access)?;
    Ok(cvars)
}
pub use brain::{BotProfile, Brain, BrainInput, BrainOutput, NativeBrain};
pub use content::{ContentTraitSource, Resolved, TraitSource, Traits, load_botfiles};
pub use cvars::{BotCvars, BotSettings, TacticalSide};
pub use decide::{Objective, ObjectiveProvider};
pub use manager::{AddBot, AddBotError, BotManager, BotOverlay, BotRow, RemoveBotError};
pub use navigate::{Navigator, Traveller};
pub use sink::CmdSink;
pub use view::BotView;
