//! The tick schedule: one chained set per stage, single-threaded, so the
//! order of everything that affects the outcome is fixed.

use bevy_ecs::message::message_update_system;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};

/// The label of the tick schedule.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tick;

/// The stages of one tick, run in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimSystems {
    /// Message buffers roll over.
    Begin,
    /// One command per slot comes out of the input queues.
    Input,
    /// Spawns, respawns, team moves.
    Spawn,
    /// Weapon switching and firing (uses positions from before movement, as the shooter saw them).
    Weapons,
    /// Player movement.
    Movement,
    /// Triggers touched after moving: jump pads, teleporters, hurt, liquids.
    Triggers,
    /// Projectiles fly and explode.
    Projectiles,
    /// Doors and platforms.
    Movers,
    /// Item pickups and respawns.
    Items,
    /// Queued damage is applied; deaths and scoring.
    Damage,
    /// After damage: drops from the dead, powerup and health decay.
    AfterDamage,
    /// The match phase and limits.
    Rules,
    /// The state hash is built.
    Hash,
}

/// The order inside [`SimSystems::Hash`]: each module feeds the hash in
/// its own step, so the order of the bytes never depends on how systems
/// happen to be sorted.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashSystems {
    /// Clock, rules, slots and players.
    Begin,
    /// Projectiles and lag-compensation history.
    Weapons,
    /// Items.
    Items,
    /// Triggers.
    Triggers,
    /// Movers.
    Movers,
    /// CTF flags.
    Flags,
    /// Rounds and frozen players (Freeze Tag, Clan Arena).
    Modes,
    /// The hash is finished.
    Finish,
}

/// Builds the tick schedule with the core systems; modules add their own
/// systems to their sets.
pub fn build_schedule() -> Schedule {
    use SimSystems::*;
    let mut schedule = Schedule::new(Tick);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.configure_sets(
        (Begin, Input, Spawn, Weapons, Movement, Triggers, Projectiles, Movers, Items, Damage, AfterDamage, Rules, Hash)
            .chain(),
    );
    schedule.add_systems(message_update_system.in_set(Begin));
    schedule.add_systems(crate::lifecycle::consume_input.in_set(Input));
    schedule.add_systems(crate::lifecycle::respawn_players.in_set(Spawn));
    schedule.add_systems(crate::movement::move_players.in_set(Movement));
    schedule.add_systems(crate::combat::apply_damage.in_set(Damage));
    schedule.add_systems(crate::rules::update_phase.in_set(Rules));
    {
        use HashSystems as H;
        schedule.configure_sets((H::Begin, H::Weapons, H::Items, H::Triggers, H::Movers, H::Flags, H::Modes, H::Finish).chain().in_set(Hash));
    }
    schedule.add_systems(crate::hash::begin_hash.in_set(HashSystems::Begin));
    schedule.add_systems(crate::hash::finish_hash.in_set(HashSystems::Finish));
    schedule
}
