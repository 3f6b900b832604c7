//! The authoritative simulation of one Quarry match.
//!
//! It owns the match as a bevy_ecs `World` stepped once per tick by the
//! server loop ([`Match`]): client slots and the one input queue per slot,
//! player movement (pmove from [`quarry_movement`], the core shared with
//! clients, run against the map and the other players' boxes),
//! weapons, damage, items, triggers, rules and scoring, chat routing, a
//! seeded RNG and a per-tick state hash.
//!
//! What it must not do: any I/O, know about sockets or bots, or branch on
//! what kind of client filled a slot on the way from a command to the game.
//! Every player is driven by [`UserCmd`]s pushed into the input queue.

pub mod accuracy;
pub mod chat;
pub mod client_command;
pub mod clock;
pub mod combat;
pub mod components;
pub mod events;
mod game;
pub mod hash;
pub mod input;
pub mod items;
mod lifecycle;
pub mod mode_rules;
pub mod modes;
/// The flags of CTF and One Flag (in [`modes`]).
pub use modes::flags;
/// What a client or bot may know of the game mode's state (in [`modes`]).
pub use modes::view as mode;
pub mod movement;
pub mod movers;
pub mod obituary;
pub mod rules;
pub mod scene;
pub mod scoreboard;
pub mod schedule;
pub mod settings;
pub mod slots;
pub mod sound;
pub mod spawn;
pub mod targets;
#[cfg(feature = "test-support")]
pub mod test_support;
pub mod text;
pub mod triggers;
pub mod view;
pub mod weapons;

use bevy_ecs::prelude::*;

pub use game::{ChatError, Match, MatchError, PlayerView};
pub use scoreboard::{ScoreRow, Scoreboard};
pub use settings::{Settings, SimCvars};
pub use slots::{ClientKind, SlotId, Team, UserInfo};
/// Player movement, from the movement core shared with clients.
pub use quarry_movement::pmove;
pub use quarry_movement::{ANGLE_UNIT, Buttons, UserCmd, angle_to_units, units_to_angle, wrap_half_turn};

/// The loaded map of the match: collision world and entities.
#[derive(Resource)]
pub struct MapRes(pub quarry_map::LoadedMap);

/// Content a match is built from (weapon, item and sound tables), parsed
/// from the text of `config/weapons.toml`, `config/items.toml` and
/// `config/sounds.toml` (the server reads
/// the files) and shared by every match it starts.
#[derive(Debug, Clone, Default)]
pub struct GameData {
    /// The weapon table (`config/weapons.toml`).
    pub weapons: weapons::WeaponTable,
    /// The item table (`config/items.toml`).
    pub items: items::ItemTable,
    /// How far sounds carry (`config/sounds.toml`).
    pub sounds: sound::SoundTable,
}

/// Lets each game module add its resources and systems to a new match.
fn install_modules(world: &mut World, schedule: &mut Schedule, data: &GameData) {
    weapons::install(world, schedule, &data.weapons);
    world.insert_resource(data.sounds.clone());
    items::install(world, schedule, &data.items, &data.weapons);
    triggers::install(world, schedule);
    targets::install(world, schedule);
    movers::install(world, schedule);
    modes::install(world, schedule);
}
