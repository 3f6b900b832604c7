//! Where a client's input comes from: a script, seeded random play, or nothing.
//!
//! An [`Input`] is asked once per command for a [`Frame`]: the
//! [`UserCmd`] to send this tick (its tick stamped on sending) and any one-off [`Action`]s (chat, a
//! console command, leaving). Inputs take the time since the client joined
//! and the current [`View`] as parameters and read no clock, so the same
//! inputs at the same times give the same frames (tests rely on it).

use std::time::Duration;

use quarry_movement::UserCmd;

use crate::view::View;

mod random;
mod script;
mod script_parse;

pub use random::RandomInput;
pub use script::ScriptInput;
pub use script_parse::{ScriptError, ScriptErrorKind, ScriptStep, parse_script};

/// A one-off thing to do besides the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Chat to everyone.
    Say(String),
    /// Chat to the own team.
    SayTeam(String),
    /// A console command line for the server.
    Command(String),
    /// Leave the server cleanly.
    Quit,
}

/// What an input wants for one command.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frame {
    /// The command to send; [`crate::Client::send_cmd`] stamps its tick.
    pub cmd: UserCmd,
    /// One-off actions, in order, before the command.
    pub actions: Vec<Action>,
}

/// A source of player input.
pub trait Input: Send {
    /// The frame for the command sent `elapsed` after joining. Called with
    /// non-decreasing `elapsed`, once per command.
    fn poll(&mut self, elapsed: Duration, view: &View) -> Frame;
}

/// Sends empty commands: stands still, looks along +X, never fires.
#[derive(Debug, Clone, Copy, Default)]
pub struct IdleInput;

impl Input for IdleInput {
    fn poll(&mut self, _elapsed: Duration, _view: &View) -> Frame {
        Frame::default()
    }
}

impl<I: Input + ?Sized> Input for Box<I> {
    fn poll(&mut self, elapsed: Duration, view: &View) -> Frame {
        (**self).poll(elapsed, view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_sends_nothing() {
        let mut i = IdleInput;
        for s in 0..3 {
            assert_eq!(
                i.poll(Duration::from_secs(s), &View::default()),
                Frame::default()
            );
        }
    }
}
