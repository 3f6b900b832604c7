//! What the game mode decides for the core: the one place core systems
//! (damage, death, spawning, items, weapons) ask about the rules of the game
//! type, so none of them names a mode.
//!
//! Each game mode's module fills a [`ModeRules`] when a match is created
//! (see [`crate::modes`], which holds the registry); the core reads the
//! plain settings and calls the hooks. Deaths reach the modes as
//! [`KillRecord`]s, handed to the registered [`KillHandler`]s in the order
//! the modes registered them, at the moment the core has marked the victim
//! dead and before it scores the kill.
//!
//! This module imports nothing above the core (events and slots), so the
//! modes can depend on it and the core on it without a cycle.

use bevy_ecs::prelude::*;

use crate::events::MeansOfDeath;
use crate::slots::SlotId;

/// A death as the core records it for the modes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KillRecord {
    /// The player who died.
    pub victim: SlotId,
    /// Who killed them; `None` for a suicide or the world.
    pub killer: Option<SlotId>,
    /// How.
    pub means: MeansOfDeath,
    /// The tick it happened.
    pub tick: u32,
}

/// A mode's part in a death (scoring a defence, freezing the victim, …).
pub type KillHandler = fn(&mut World, &KillRecord);

/// A question the core asks a mode about the state of the match.
pub type Gate = fn(&World) -> bool;

/// Called with a player's entity right after it (re)spawns.
pub type SpawnHandler = fn(&mut World, Entity);

/// Called once per tick before the respawn pass (e.g. a duel's queue).
pub type RespawnHandler = fn(&mut World);

/// Health and armor a mode gives at spawn instead of the usual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpawnStats {
    /// Health at spawn at handicap 100 (scaled by the handicap).
    pub health: i32,
    /// Armor at spawn.
    pub armor: i32,
}

/// The rules of the match's game type that core systems follow. The
/// defaults are free-for-all deathmatch.
#[derive(Resource, Debug, Clone)]
pub struct ModeRules {
    /// Whether players spawn with every weapon at its maximum ammo rather
    /// than the weapon table's spawn loadout.
    pub full_loadout: bool,
    /// Health and armor at spawn; `None`: 100 plus the spawn bonus (which
    /// decays), no armor.
    pub spawn_stats: Option<SpawnStats>,
    /// Whether the map's items spawn.
    pub map_items: bool,
    /// Whether armor above 100 decays each second (health always does).
    pub armor_decays: bool,
    /// Whether players spawn at their team's spots (CTF bases), the initial
    /// ones at match start; otherwise at the deathmatch spots.
    pub team_spawns: bool,
    /// Damage the mode ignores (after knockback): `(same_player, means)`.
    pub ignores_damage: fn(bool, MeansOfDeath) -> bool,
    /// Nobody is hurt while any of these says so.
    pub damage_off: Vec<Gate>,
    /// The dead do not respawn while any of these says so.
    pub respawn_held: Vec<Gate>,
    /// Players the automatic team balance must not move.
    pub balance_exempt: Vec<fn(&World, Entity) -> bool>,
    /// Called for every death, in order.
    pub on_kill: Vec<KillHandler>,
    /// Called for every (re)spawn, in order.
    pub on_spawn: Vec<SpawnHandler>,
    /// Called before each respawn pass, in order.
    pub before_respawns: Vec<RespawnHandler>,
}

impl Default for ModeRules {
    fn default() -> Self {
        Self {
            full_loadout: false,
            spawn_stats: None,
            map_items: true,
            armor_decays: true,
            team_spawns: false,
            ignores_damage: |_, _| false,
            damage_off: Vec::new(),
            respawn_held: Vec::new(),
            balance_exempt: Vec::new(),
            on_kill: Vec::new(),
            on_spawn: Vec::new(),
            before_respawns: Vec::new(),
        }
    }
}

impl ModeRules {
    /// Whether damage is off now.
    pub fn damage_off(world: &World) -> bool {
        world.get_resource::<ModeRules>().is_some_and(|r| r.damage_off.iter().any(|g| g(world)))
    }

    /// Whether the dead are held (do not respawn) now.
    pub fn respawn_held(world: &World) -> bool {
        world.get_resource::<ModeRules>().is_some_and(|r| r.respawn_held.iter().any(|g| g(world)))
    }

    /// Whether the team balance must leave the player with entity `e` where it is.
    pub fn balance_exempt(world: &World, e: Entity) -> bool {
        world.get_resource::<ModeRules>().is_some_and(|r| r.balance_exempt.iter().any(|f| f(world, e)))
    }

    /// Hands a death to every mode that registered for deaths, in order.
    pub fn record_kill(world: &mut World, record: &KillRecord) {
        let handlers = world.get_resource::<ModeRules>().map(|r| r.on_kill.clone()).unwrap_or_default();
        for handler in handlers {
            handler(world, record);
        }
    }

    /// Tells every mode that registered for spawns that `e` (re)spawned.
    pub fn spawned(world: &mut World, e: Entity) {
        let handlers = world.get_resource::<ModeRules>().map(|r| r.on_spawn.clone()).unwrap_or_default();
        for handler in handlers {
            handler(world, e);
        }
    }

    /// Runs the modes' work before a respawn pass.
    pub fn before_respawns(world: &mut World) {
        let handlers = world.get_resource::<ModeRules>().map(|r| r.before_respawns.clone()).unwrap_or_default();
        for handler in handlers {
            handler(world);
        }
    }
}
