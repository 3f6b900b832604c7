//! What a bot tells its team ([`TeamFact`]) and what it offers to say
//! ([`TeamCall`]). A fact is only ever made from what the speaker knows at
//! that moment (an enemy it sees now, a flag it sees lying there, a place it
//! just looked into); it travels with the chat line that says it, and each
//! living teammate bot takes it in when the line is delivered.

use glam::Vec3;
use quarry_sim::SlotId;
use quarry_sim::components::NetId;

use super::orders::OrderKind;
use crate::chat::ChatEvent;

/// At most this many enemies besides the first travel with one report.
pub const MAX_ALSO: usize = 3;

/// An enemy seen, and where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spotted {
    /// Who.
    pub enemy: SlotId,
    /// Where the speaker saw it.
    pub position: Vec3,
}

/// A piece of team knowledge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TeamFact {
    /// An enemy was at `position` at `tick`, with `count` enemies around it.
    Enemy {
        /// Who.
        enemy: SlotId,
        /// Where.
        position: Vec3,
        /// When the speaker saw it.
        tick: u32,
        /// Enemies seen around it (itself included).
        count: u8,
        /// The weapon it held.
        weapon: u8,
        /// The other enemies seen around it (counted in `count`), each
        /// where the speaker saw it.
        also: [Option<Spotted>; MAX_ALSO],
    },
    /// The enemy carrying the team's flag, where it was and where it heads.
    Carrier {
        /// Who.
        enemy: SlotId,
        /// Where.
        position: Vec3,
        /// Where it heads (its position a moment later at its speed).
        heading: Vec3,
        /// When the speaker saw it.
        tick: u32,
    },
    /// The team's flag lies dropped at `position`.
    FlagDropped {
        /// Where.
        position: Vec3,
        /// When the speaker saw it.
        tick: u32,
    },
    /// The speaker looked around `position` and found nobody.
    Clear {
        /// Where.
        position: Vec3,
        /// When.
        tick: u32,
    },
    /// The speaker is under fire at `position` and wants help.
    Help {
        /// Who.
        from: SlotId,
        /// Where.
        position: Vec3,
        /// When.
        tick: u32,
        /// Enemies on it.
        count: u8,
    },
    /// The speaker falls back from `position`, where `count` enemies are.
    FallingBack {
        /// Who.
        from: SlotId,
        /// Where.
        position: Vec3,
        /// When.
        tick: u32,
        /// Enemies it knows around it.
        count: u8,
    },
    /// The speaker is going for `item`: teammates leave it.
    GoingFor {
        /// The item.
        item: NetId,
        /// Where it is.
        position: Vec3,
        /// When.
        tick: u32,
    },
    /// An item was taken (the speaker saw, heard or made the pickup) and
    /// comes back at `back_at`: teammates time it.
    ItemTimed {
        /// The item.
        item: NetId,
        /// Where it is.
        position: Vec3,
        /// The tick it comes back.
        back_at: u32,
        /// When the speaker learned it.
        tick: u32,
    },
}

impl TeamFact {
    /// The chat event that says it.
    pub fn event(&self) -> ChatEvent {
        match self {
            Self::Enemy { .. } => ChatEvent::TeamEnemy,
            Self::Carrier { .. } => ChatEvent::TeamCarrier,
            Self::FlagDropped { .. } => ChatEvent::TeamFlagDropped,
            Self::Clear { .. } => ChatEvent::TeamClear,
            Self::Help { .. } => ChatEvent::TeamHelp,
            Self::FallingBack { .. } => ChatEvent::TeamFallBack,
            Self::GoingFor { .. } => ChatEvent::TeamGoingFor,
            Self::ItemTimed { .. } => ChatEvent::TeamItemTimed,
        }
    }

    /// The place it is about (what `$place` names).
    pub fn place(&self) -> Vec3 {
        match *self {
            Self::Carrier { heading, .. } => heading,
            Self::Enemy { position, .. }
            | Self::FlagDropped { position, .. }
            | Self::Clear { position, .. }
            | Self::Help { position, .. }
            | Self::FallingBack { position, .. }
            | Self::GoingFor { position, .. }
            | Self::ItemTimed { position, .. } => position,
        }
    }

    /// When the speaker knew it.
    pub fn tick(&self) -> u32 {
        match *self {
            Self::Enemy { tick, .. }
            | Self::Carrier { tick, .. }
            | Self::FlagDropped { tick, .. }
            | Self::Clear { tick, .. }
            | Self::Help { tick, .. }
            | Self::FallingBack { tick, .. }
            | Self::GoingFor { tick, .. }
            | Self::ItemTimed { tick, .. } => tick,
        }
    }

    /// The enemy it is about, if one.
    pub fn enemy(&self) -> Option<SlotId> {
        match *self {
            Self::Enemy { enemy, .. } | Self::Carrier { enemy, .. } => Some(enemy),
            _ => None,
        }
    }

    /// Every enemy it places, with where the speaker saw it: the enemy it
    /// is about first, then the others of a report.
    pub fn spotted(&self) -> impl Iterator<Item = Spotted> + '_ {
        let (first, also) = match self {
            Self::Enemy { enemy, position, also, .. } => (Some(Spotted { enemy: *enemy, position: *position }), &also[..]),
            Self::Carrier { enemy, position, .. } => (Some(Spotted { enemy: *enemy, position: *position }), &[][..]),
            _ => (None, &[][..]),
        };
        first.into_iter().chain(also.iter().flatten().copied())
    }
}

/// What travels with a line: a fact, or an order for the team.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Attachment {
    /// Knowledge for every living teammate bot.
    Fact(TeamFact),
    /// An order for the nearest suitable teammate (a carrier asking for an escort).
    Order(OrderKind),
}

/// A line a bot would say to its team now, and what it carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TeamCall {
    /// The event whose lines say it.
    pub event: ChatEvent,
    /// What it carries.
    pub attach: Attachment,
}

impl TeamCall {
    /// A call telling `fact`.
    pub fn fact(fact: TeamFact) -> Self {
        Self { event: fact.event(), attach: Attachment::Fact(fact) }
    }
}
