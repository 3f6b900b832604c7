//! The seam between a scripted brain and a script engine: compile a brain's
//! source, make an instance per bot (with its private memory), call an
//! entry point with the bot's [`HostState`]. Rhai implements it
//! ([`super::rhai::RhaiEngine`]); another engine could replace it without
//! the brain changing.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::ScriptError;
use super::host::{HostState, ScriptEvent};

/// A bot's host state, shared with the engine's bindings for a call.
pub type SharedHost = Arc<Mutex<HostState>>;

/// A source file: its name in messages and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The file, as messages name it (`brains/companion.rhai`).
    pub name: String,
    /// The text.
    pub text: String,
}

/// An entry point and its argument.
#[derive(Debug, Clone, Copy)]
pub enum Entry<'a> {
    /// `on_join()`: once, when the bot enters.
    Join,
    /// `on_tick(dt)`: every script period; `dt` in seconds since the last.
    Tick(f64),
    /// `on_event(ev)`.
    Event(&'a ScriptEvent),
    /// `on_reload()`: the brain's file was read again (the memory is kept).
    Reload,
}

impl Entry<'_> {
    /// The function's name in the script.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Join => "on_join",
            Self::Tick(_) => "on_tick",
            Self::Event(_) => "on_event",
            Self::Reload => "on_reload",
        }
    }
}

/// A script engine: compiles brains.
pub trait ScriptEngine: Send + Sync + fmt::Debug {
    /// Compiles `brain` with the helper `libs` (their functions callable
    /// from it). Fails with the file, line and column of the first error,
    /// or when `on_tick(dt)` is missing.
    fn compile(&self, brain: &Source, libs: &[Source]) -> Result<Arc<dyn Program>, ScriptError>;

    /// Sets the operation budget of every call from now on.
    fn set_max_ops(&self, ops: u64);

    /// Sets the time limit of every call from now on (the thread's CPU
    /// time, see [`super::CallTimer`]).
    fn set_max_time(&self, limit: std::time::Duration);
}

/// A compiled brain.
pub trait Program: Send + Sync + fmt::Debug {
    /// The brain's file.
    fn file(&self) -> &str;
    /// Whether it defines `entry`.
    fn has(&self, entry: Entry<'_>) -> bool;
    /// A new instance with empty memory.
    fn instantiate(self: Arc<Self>) -> Box<dyn Instance>;
    /// The engine's own type behind the trait (an instance moving to a
    /// reloaded program finds it here).
    fn into_any(self: Arc<Self>) -> Arc<dyn std::any::Any + Send + Sync>;
}

/// One bot's running brain: the program and the bot's private memory.
pub trait Instance: Send + fmt::Debug {
    /// Calls `entry` (a missing optional entry is no call); the bindings
    /// read and write `host`. Stops at the operation budget and at the
    /// time limit ([`ScriptError::Budget`], [`ScriptError::Time`]).
    fn call(&mut self, entry: Entry<'_>, host: &SharedHost) -> Result<(), ScriptError>;
    /// Moves to `program` (a reload), keeping the memory.
    fn switch(&mut self, program: Arc<dyn Program>) -> Result<(), ScriptError>;
    /// Clears the private memory.
    fn forget(&mut self);
    /// Whether the brain takes events of `kind` (`chat`, `damage`, `kill`,
    /// `sound`): it has `on_event`, and its `event_kinds()` (if it has
    /// one) lists the kind.
    fn wants_event(&self, kind: &str) -> bool;
}
