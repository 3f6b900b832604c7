//! What the console's commands and the tick act on: the match, the
//! network, the bots, the registered features and the loop's own figures.
//! Features never see this: they get a narrow view (see `feature.rs`).

use std::time::Instant;

use crate::cvars::ServerCvars;
use crate::tick_stats::TickStats;

/// What the console's command handlers can reach: the server's state.
pub struct ServerState {
    /// When the server started.
    pub started: Instant,
    /// Tick timing.
    pub stats: TickStats,
    /// Handles to the server's cvars.
    pub cvars: ServerCvars,
    /// Running without sleeping.
    pub fast: bool,
    /// The match and what starts the next one.
    pub game: crate::game::GameHost,
    /// The network side, once listening (not in headless matches).
    pub net: Option<crate::network::NetServer>,
    /// The bot clients.
    pub bots: quarry_bots::BotManager,
    /// While the startup files and the command line run: what they asked
    /// for that waits until all of them ran (see [`crate::server::Server::startup`]).
    pub(crate) startup: Option<StartupRequests>,
    /// Why the map the startup asked for could not be loaded.
    pub startup_error: Option<String>,
    /// Remote admin's cvars.
    pub admin: crate::network::admin::AdminCvars,
    /// The features the tick drives (web view, metrics, demos, ...).
    pub features: crate::feature::Features,
    pub(crate) quit: Option<String>,
    /// The quit came from the console: one more tick delivers what the
    /// lines before it queued (a `say`).
    pub(crate) quit_after_tick: bool,
}

/// What the startup files and the command line ask for that is done once
/// all of them ran.
#[derive(Debug, Default)]
pub(crate) struct StartupRequests {
    /// The last `map` asked for: the command line's wins over server.cfg's,
    /// and the first match sees every `+set`, latched ones included.
    pub(crate) map: Option<String>,
}

impl ServerState {
    /// Asks the loop to stop after the current tick.
    pub fn request_quit(&mut self, reason: String) {
        self.quit.get_or_insert(reason);
    }

    /// Asks the loop to stop after one more tick, so what the console lines
    /// before the `quit` queued (a `say`) reaches the players first.
    pub fn request_quit_after_a_tick(&mut self, reason: String) {
        if self.quit.is_none() {
            self.quit_after_tick = true;
        }
        self.request_quit(reason);
    }

    /// Why the server is stopping, once it is.
    pub fn quit_reason(&self) -> Option<&str> {
        self.quit.as_deref()
    }

    /// One line about the current map for `status`.
    pub fn map_description(&self) -> String {
        self.game.describe()
    }
}

