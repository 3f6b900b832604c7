//! Orders: what a teammate's team chat asks a bot to do, read from the
//! words a player types ("follow me", "hold here", "get the flag").
//!
//! [`parse_order`] finds the first order phrase in a line (whole contiguous
//! words, as chat replies match); [`ORDER_PHRASES`] is the shared table.
//! An order taken becomes an [`Order`]: who gave it, where it points, and
//! when it expires. What it means for the bot's goal is the brain's
//! business ([`Order::goal`]): always below the objective layer's hard
//! rules (a flag carrier still runs home).

use glam::Vec3;
use quarry_sim::{SlotId, Team};

use crate::chat::text::{contains_phrase, normalize};
use crate::view::{BotClock, BotView, PlayerSnap};

/// What an order asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum OrderKind {
    /// Stay with the speaker (and escort it).
    Follow,
    /// Stay with the speaker, watching its back.
    Cover,
    /// Hold the place where the speaker stood.
    Hold,
    /// Push to the enemy's base (CTF: their flag).
    Attack,
    /// Get the enemy flag.
    GetFlag,
    /// Come to the speaker, once.
    Help,
    /// Come back to the speaker and stay a while.
    Regroup,
    /// Drop the flag being carried, toward the speaker (CTF: a hand-over,
    /// where `g_flagDrop` allows it). Only a bot carrier takes it.
    DropFlag,
}

impl OrderKind {
    /// Every kind, in declaration order (`kind as usize` indexes it).
    pub const ALL: [OrderKind; 8] = [Self::Follow, Self::Cover, Self::Hold, Self::Attack, Self::GetFlag, Self::Help, Self::Regroup, Self::DropFlag];

    /// Its name for status lines and logs.
    pub fn name(self) -> &'static str {
        match self {
            Self::Follow => "follow",
            Self::Cover => "cover",
            Self::Hold => "hold",
            Self::Attack => "attack",
            Self::GetFlag => "getflag",
            Self::Help => "help",
            Self::Regroup => "regroup",
            Self::DropFlag => "dropflag",
        }
    }

    /// Whether it keeps the bot with the speaker as the speaker moves.
    pub fn follows(self) -> bool {
        matches!(self, Self::Follow | Self::Cover | Self::Regroup | Self::Help)
    }

    /// How long the order holds once taken, ms.
    pub fn lasts_ms(self) -> f32 {
        match self {
            Self::Follow | Self::Cover => 45_000.0,
            Self::Hold => 60_000.0,
            Self::Attack | Self::GetFlag => 60_000.0,
            Self::Help => 20_000.0,
            Self::Regroup => 25_000.0,
            // The native brain drops at once; a scripted one sees the order
            // (`order()`) this long to do it.
            Self::DropFlag => 3_000.0,
        }
    }

    /// Whether only a bot carrying a flag can take it.
    pub fn for_carrier(self) -> bool {
        self == Self::DropFlag
    }
}

/// The order phrases, longest first within a meaning so "get the flag"
/// wins over "go". Whole contiguous words, case and punctuation ignored.
pub const ORDER_PHRASES: &[(&str, OrderKind)] = &[
    ("drop it", OrderKind::DropFlag),
    ("drop the flag", OrderKind::DropFlag),
    ("drop flag", OrderKind::DropFlag),
    ("give me the flag", OrderKind::DropFlag),
    ("pass the flag", OrderKind::DropFlag),
    ("escort me", OrderKind::Follow),
    ("follow me", OrderKind::Follow),
    ("come with me", OrderKind::Follow),
    ("with me", OrderKind::Follow),
    ("cover me", OrderKind::Cover),
    ("watch my back", OrderKind::Cover),
    ("hold here", OrderKind::Hold),
    ("hold this", OrderKind::Hold),
    ("stay here", OrderKind::Hold),
    ("defend", OrderKind::Hold),
    ("get the flag", OrderKind::GetFlag),
    ("grab the flag", OrderKind::GetFlag),
    ("take the flag", OrderKind::GetFlag),
    ("attack", OrderKind::Attack),
    ("go", OrderKind::Attack),
    ("push", OrderKind::Attack),
    ("help me", OrderKind::Help),
    ("help", OrderKind::Help),
    ("regroup", OrderKind::Regroup),
    ("fall back", OrderKind::Regroup),
];

/// The order in `text`, if it holds one: the phrase found earliest in
/// [`ORDER_PHRASES`]' order.
pub fn parse_order(text: &str) -> Option<OrderKind> {
    let text = normalize(text);
    ORDER_PHRASES
        .iter()
        .find(|(phrase, _)| contains_phrase(&text, phrase))
        .map(|(_, kind)| *kind)
}

/// An order a bot took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Order {
    /// What.
    pub kind: OrderKind,
    /// Who gave it.
    pub from: SlotId,
    /// Where the speaker stood when it was given (where to hold).
    pub at: Vec3,
    /// It ends at this tick.
    pub until: u32,
}

/// Where an order sends the bot now, and how close counts as there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrderGoal {
    /// Where to go.
    pub point: Vec3,
    /// Within this radius the bot holds (strafing, aim and fire go on).
    pub radius: f32,
    /// The goal moves with someone (re-routed as it moves).
    pub moving: bool,
}

/// The priority of an order's goal: over escorting and fetching, just
/// under the objective layer's urgent rules (returns, intercepts,
/// captures); an item beats it only when the bot is badly hurt.
pub const ORDER_PRIORITY: f32 = 84.0;
/// Objective keys of orders (top byte; the low byte is the order kind).
pub const ORDER_KEY: u32 = 0xfe00_0000;

/// The objective key of an order of `kind`.
pub fn order_key(kind: OrderKind) -> u32 {
    ORDER_KEY | kind as u32
}

/// The order kind of an objective key, if it is an order's.
pub fn order_of_key(key: u32) -> Option<OrderKind> {
    (key & 0xff00_0000 == ORDER_KEY).then(|| OrderKind::ALL.get((key & 0xff) as usize).copied()).flatten()
}

/// Following: the bot keeps within this distance of the leader, units.
pub const FOLLOW_RADIUS: f32 = 150.0;
/// Following heads for where the leader will be this far ahead, s.
const LEAD_S: f32 = 0.4;
/// Holding: the bot stays within this radius of the spot, units.
pub const HOLD_RADIUS: f32 = 220.0;

impl Order {
    /// Whether it still holds at `clock`.
    pub fn live(&self, clock: &BotClock) -> bool {
        clock.tick < self.until
    }

    /// Where the order sends `me` now, if anywhere: the leader (a teammate,
    /// whose position teammates know), the spot to hold, the enemy base or
    /// flag. `None` when it has nowhere to send the bot (the leader gone, no
    /// enemy base in this game type).
    pub fn goal(&self, view: &BotView<'_>, me: &PlayerSnap) -> Option<OrderGoal> {
        let leader = || view.player(self.from).filter(|p| p.active() && p.team == me.team);
        match self.kind {
            // Where the leader will be in a moment (a follower heading for
            // where it is falls behind).
            OrderKind::Follow | OrderKind::Cover | OrderKind::Regroup | OrderKind::Help => leader().map(|p| {
                let ahead = Vec3::new(p.velocity.x, p.velocity.y, 0.0) * LEAD_S;
                OrderGoal { point: p.origin + ahead, radius: FOLLOW_RADIUS, moving: true }
            }),
            OrderKind::Hold => Some(OrderGoal { point: self.at, radius: HOLD_RADIUS, moving: false }),
            // Not a place to go: the bot lets go of the flag where it is.
            OrderKind::DropFlag => None,
            OrderKind::Attack | OrderKind::GetFlag => {
                let enemy = match me.team {
                    Team::Red => Team::Blue,
                    Team::Blue => Team::Red,
                    _ => return None,
                };
                let flag = view.mode.flag(enemy).map(|f| f.origin);
                let base = view.mode.bases.iter().find(|(t, _)| *t == enemy).map(|(_, at)| *at);
                flag.or(base).map(|point| OrderGoal { point, radius: 96.0, moving: true })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_read_from_whole_words() {
        assert_eq!(parse_order("Follow me!"), Some(OrderKind::Follow));
        assert_eq!(parse_order("Rook, cover me"), Some(OrderKind::Cover));
        assert_eq!(parse_order("hold here please"), Some(OrderKind::Hold));
        assert_eq!(parse_order("someone get the flag"), Some(OrderKind::GetFlag));
        assert_eq!(parse_order("go go go"), Some(OrderKind::Attack));
        assert_eq!(parse_order("REGROUP"), Some(OrderKind::Regroup));
        assert_eq!(parse_order("Pike, drop it!"), Some(OrderKind::DropFlag));
        assert_eq!(parse_order("give me the flag"), Some(OrderKind::DropFlag));
        assert_eq!(parse_order("drop the flag and go"), Some(OrderKind::DropFlag), "the drop comes first");
        assert_eq!(parse_order("airdrop it"), None, "'drop' is a whole word only");
        assert_eq!(parse_order("good game"), None, "'go' is a whole word only");
        assert_eq!(parse_order("nice shot"), None);
    }
}
