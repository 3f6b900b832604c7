//! The components of a player entity. Projectiles, items and movers keep
//! their components beside the code that owns them (`weapons`, `items`,
//! `movers`).

use quarry_map::entities::items::KeyKind;
use bevy_ecs::prelude::*;
use quarry_movement::UserCmd;
use quarry_movement::pmove::MoveState;

use crate::slots::SlotId;

/// A stable id for ordering and (later) the wire; never the `Entity` bits.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NetId(pub u32);

/// A player entity: the body of the client in `slot`.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Whose body this is.
    pub slot: SlotId,
}

/// The movement state pmove works on.
#[derive(Component, Debug, Clone, Default)]
pub struct Body(pub MoveState);

/// This tick's command and the buttons of the previous one (for fresh presses).
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct CurrentCmd {
    /// The command consumed this tick.
    pub cmd: UserCmd,
    /// Buttons of the command before it.
    pub previous_buttons: quarry_movement::Buttons,
}

impl CurrentCmd {
    /// Whether `button` went down this tick.
    pub fn pressed(&self, button: quarry_movement::Buttons) -> bool {
        self.cmd.buttons.contains(button) && !self.previous_buttons.contains(button)
    }
}

/// Health. Above `max` it decays back (mega health, overstack).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health {
    /// Current points; dead at or below 0.
    pub hp: i32,
    /// The normal maximum (100 scaled by handicap).
    pub max: i32,
}

/// Armor: absorbs a share of damage.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Armor {
    /// Current points.
    pub points: i32,
}

/// Alive or dead.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Life {
    /// Playing.
    Alive,
    /// Dead since `tick`; respawns on attack after the delay or automatically later.
    Dead {
        /// Tick of death.
        tick: u32,
    },
}

/// Timed powerups: the tick each one runs out (0 = not held).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Powerups {
    /// Quad damage.
    pub quad: u32,
    /// Haste (faster movement and firing).
    pub haste: u32,
    /// Regeneration.
    pub regen: u32,
    /// Invisibility.
    pub invis: u32,
}

impl Powerups {
    /// Whether a powerup that runs out at `until` is active at `tick`.
    pub fn active(until: u32, tick: u32) -> bool {
        until > tick
    }
}

/// How many weapon kinds an inventory can hold (the weapon table may define fewer).
pub const MAX_WEAPONS: usize = 16;

/// Weapons and ammo held, and the weapon state machine.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Inventory {
    /// Bit `n` set: weapon `n` is held.
    pub weapons: u32,
    /// Ammo per weapon.
    pub ammo: [i32; MAX_WEAPONS],
    /// The weapon in hand.
    pub current: u8,
    /// The weapon being switched to, if any.
    pub switching_to: Option<u8>,
    /// The tick the weapon in hand may fire (or finish switching) again.
    pub ready_tick: u32,
    /// Quake 1 keys carried (bit per [`KeyKind`]); lost with the rest at death.
    pub keys: u8,
}

/// The inventory bit of a key.
pub fn key_bit(key: KeyKind) -> u8 {
    key.bit()
}

impl Inventory {
    /// Whether key `k` is carried.
    pub fn has_key(&self, k: KeyKind) -> bool {
        self.keys & key_bit(k) != 0
    }

    /// Whether weapon `w` is held.
    pub fn has(&self, w: u8) -> bool {
        usize::from(w) < MAX_WEAPONS && self.weapons & (1 << w) != 0
    }

    /// Ammo of weapon `w` (0 for an unknown weapon).
    pub fn ammo_of(&self, w: u8) -> i32 {
        self.ammo.get(usize::from(w)).copied().unwrap_or(0)
    }
}

/// Hands out [`NetId`]s in creation order.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct NetIds {
    next: u32,
}

impl NetIds {
    /// The next id.
    pub fn next_id(&mut self) -> NetId {
        self.next += 1;
        NetId(self.next)
    }
}
