//! What happened this tick, published for observers (bots, the network, the
//! match summary). The simulation writes these; it never reads them back to
//! decide anything.

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::chat::ChatScope;
use crate::slots::{SlotId, Team};

/// How someone died or was hurt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum MeansOfDeath {
    /// A weapon, by its table index.
    Weapon(u8),
    /// Splash of a weapon's projectile.
    Splash(u8),
    /// Fell too far.
    Falling,
    /// Lava.
    Lava,
    /// Slime.
    Slime,
    /// Drowned.
    Water,
    /// Someone teleported onto them.
    Telefrag,
    /// A crushing mover, a trigger_hurt, the void.
    World,
    /// Asked to die (`kill` command) or switched team.
    Suicide,
}

impl MeansOfDeath {
    /// Lower-case name of the way (`weapon`, `splash`, `falling`, …); the
    /// weapon itself is [`MeansOfDeath::weapon`].
    pub fn name(self) -> &'static str {
        match self {
            Self::Weapon(_) => "weapon",
            Self::Splash(_) => "splash",
            Self::Falling => "falling",
            Self::Lava => "lava",
            Self::Slime => "slime",
            Self::Water => "water",
            Self::Telefrag => "telefrag",
            Self::World => "world",
            Self::Suicide => "suicide",
        }
    }

    /// The weapon's table number, for a hit or a blast.
    pub fn weapon(self) -> Option<u8> {
        match self {
            Self::Weapon(n) | Self::Splash(n) => Some(n),
            _ => None,
        }
    }
}

/// A kind of sound others might hear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SoundKind {
    /// A footstep (running, not walking).
    Footstep,
    /// A jump.
    Jump,
    /// A landing hard enough to hear.
    Land,
    /// A weapon fired.
    Gunfire(u8),
    /// A projectile exploded.
    Explosion,
    /// An item was picked up.
    ItemPickup,
    /// An item respawned.
    ItemRespawn,
    /// A player was hurt.
    Pain,
    /// A jump pad fired.
    JumpPad,
    /// A teleporter fired.
    Teleport,
    /// A door or platform started moving.
    Mover,
}

/// One thing that happened.
#[derive(Message, Debug, Clone, PartialEq, serde::Serialize)]
pub enum GameEvent {
    /// A client entered the game.
    Joined {
        /// Who.
        slot: SlotId,
        /// Team they were put on.
        team: Team,
    },
    /// A client left (disconnect, kick).
    Left {
        /// Who.
        slot: SlotId,
    },
    /// A player changed team: by choice (`team`), or moved by the server
    /// to balance the teams.
    TeamChanged {
        /// Who.
        slot: SlotId,
        /// The team left.
        from: Team,
        /// The team joined.
        to: Team,
        /// Moved by the server (auto-balance), not by choice.
        forced: bool,
    },
    /// A player spawned.
    Spawned {
        /// Who.
        slot: SlotId,
        /// Where.
        origin: Vec3,
    },
    /// Damage was dealt (after armor).
    Damage {
        /// Who was hurt.
        target: SlotId,
        /// Who did it, if a player.
        attacker: Option<SlotId>,
        /// Health lost.
        amount: i32,
        /// Armor lost.
        armor: i32,
        /// Direction the damage came from (unit, toward the target), zero if none.
        dir: Vec3,
        /// How.
        means: MeansOfDeath,
    },
    /// Someone died.
    Kill {
        /// The killer; `None` (or the victim) for the world or suicide.
        killer: Option<SlotId>,
        /// The victim.
        victim: SlotId,
        /// How.
        means: MeansOfDeath,
    },
    /// An item was picked up.
    ItemPickup {
        /// Who.
        slot: SlotId,
        /// The item's class name, e.g. `item_armor_body`.
        item: &'static str,
        /// Where the item was.
        origin: Vec3,
    },
    /// A hitscan weapon's single ray: where it went (for clients to draw).
    Shot {
        /// The shooter.
        slot: SlotId,
        /// The weapon's number.
        weapon: u8,
        /// The muzzle.
        start: Vec3,
        /// Where the ray ended (a wall, or its range).
        end: Vec3,
    },
    /// A sound at a place.
    Sound {
        /// What.
        kind: SoundKind,
        /// Where.
        origin: Vec3,
        /// Who made it, if a player.
        source: Option<SlotId>,
    },
    /// Someone said something.
    Chat {
        /// The speaker; `None` for the server (`say` from the console).
        from: Option<SlotId>,
        /// The speaker's name when it spoke (a bot's farewell is delivered
        /// after its slot is freed); empty for the server.
        name: String,
        /// Who hears it.
        scope: ChatScope,
        /// The text (cleaned).
        text: String,
    },
    /// A line from the server to everyone (or one client).
    Print {
        /// `None` for everyone.
        to: Option<SlotId>,
        /// The text.
        text: String,
    },
    /// A flag was taken, dropped, returned or captured (CTF).
    Flag {
        /// What happened.
        kind: FlagEventKind,
        /// Whose flag.
        team: Team,
        /// Who did it (taker, dropper, returner, capturer); `None` for a
        /// flag that returned by timeout.
        slot: Option<SlotId>,
    },
    /// A player froze instead of dying (Freeze Tag).
    Frozen {
        /// Who froze.
        slot: SlotId,
        /// Who froze them (the killer); `None` for the world or a suicide.
        by: Option<SlotId>,
    },
    /// A frozen player thawed (Freeze Tag).
    Thawed {
        /// Who thawed.
        slot: SlotId,
        /// The teammate who thawed them; `None` for an automatic thaw.
        by: Option<SlotId>,
    },
    /// A round began (Freeze Tag, Clan Arena).
    RoundStart {
        /// Round number, from 1.
        number: u32,
    },
    /// A round ended (Freeze Tag, Clan Arena).
    RoundEnd {
        /// Round number.
        number: u32,
        /// The team that won it; `None` for a draw.
        winner: Option<Team>,
        /// How it ended.
        reason: RoundEndReason,
    },
    /// The match phase changed.
    Phase {
        /// The new phase.
        phase: crate::rules::Phase,
    },
}

/// What happened to a flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum FlagEventKind {
    /// Picked up by an enemy (from its base or the field).
    Taken,
    /// Its carrier died (or left); it lies where he was.
    Dropped,
    /// Back at its base: touched by its team (`slot` set) or timed out.
    Returned,
    /// Brought to the capturer's base; it goes home.
    Captured,
}

/// How a round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum RoundEndReason {
    /// Every player of a team was down (both at once: a draw).
    Elimination,
    /// `g_roundTimeLimit` ran out.
    Timeout,
}

impl RoundEndReason {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Elimination => "elimination",
            Self::Timeout => "timeout",
        }
    }
}
