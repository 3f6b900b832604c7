//! The authoritative simulation of one Quarry match.
//!
//! It owns the match as a bevy_ecs `World` stepped once per tick: client
//! slots and the input queue, player movement, weapons, items, rules and
//! scoring. It does no I/O and knows nothing of sockets or bots: every player
//! is driven by [`UserCmd`]s pushed into the input queue.

pub mod pmove;
pub mod usercmd;

pub use usercmd::{Buttons, UserCmd};
