//! [`CmdSink`]: the only way a bot affects a match. It accepts a user
//! command or a chat line for one slot — the bot's own — and hands them to
//! the same entry points the network layer uses for remote players
//! (`Match::push_cmd`, `Match::say`). It cannot reach anything else.

use quarry_sim::input::PushOutcome;
use quarry_sim::slots::{ClientKind, SlotError};
use quarry_sim::{ChatError, Match, SlotId, UserCmd};

/// Why a sink refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SinkError {
    /// The slot is not held by a bot (a human took it, or it is empty).
    #[error("slot {0} is not a bot's")]
    NotABot(u8),
    /// The input queue refused the command.
    #[error(transparent)]
    Slot(#[from] SlotError),
    /// Chat was refused.
    #[error(transparent)]
    Chat(#[from] ChatError),
}

/// Writes commands and chat for one bot slot.
pub struct CmdSink<'a> {
    game: &'a mut Match,
    slot: SlotId,
}

impl<'a> CmdSink<'a> {
    /// A sink for `slot`; refused unless a bot holds it.
    pub fn new(game: &'a mut Match, slot: SlotId) -> Result<Self, SinkError> {
        match game.slots().get(slot) {
            Some(s) if s.kind == ClientKind::Bot => Ok(Self { game, slot }),
            _ => Err(SinkError::NotABot(slot.0)),
        }
    }

    /// The slot it writes for.
    pub fn slot(&self) -> SlotId {
        self.slot
    }

    /// Queues this tick's command, as a network packet would.
    pub fn push(&mut self, cmd: UserCmd) -> Result<PushOutcome, SinkError> {
        Ok(self.game.push_cmd(self.slot, cmd)?)
    }

    /// Says something, as a client's `say` would.
    pub fn say(&mut self, team_only: bool, text: &str) -> Result<(), SinkError> {
        Ok(self.game.say(Some(self.slot), team_only, text)?)
    }
}
