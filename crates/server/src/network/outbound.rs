//! What the server sends besides snapshots: chat, prints and flag, freeze
//! and round lines from the tick's events, and the objective state and
//! scoreboard whenever they change.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use quarry_net::reliable::ServerMessage;
use quarry_net::transport::ConnId;
use quarry_sim::events::GameEvent;
use quarry_sim::{Match, SlotId};

use super::messages::Audience;
use super::{NetServer, convert};

/// The shortest time between two scoreboards to one client, unless the
/// phase changed: frags change rows often, and team scores and objectives
/// already travel in the mode state.
const BOARD_INTERVAL: Duration = Duration::from_secs(2);

impl NetServer {
    pub(super) fn deliver_events(&mut self, game: &Match, events: &[GameEvent]) {
        for (audience, msg) in super::messages::event_messages(game, events) {
            match audience {
                Audience::All => self.transport.broadcast(&msg),
                audience => {
                    for (conn, c) in &self.clients {
                        if audience.includes(Some(c.slot)) {
                            let _ = self.transport.send_reliable(*conn, &msg);
                        }
                    }
                }
            }
        }
    }

    /// Sends each client in `due` (those whose snapshot goes out this
    /// tick) the objective state when it changed since it last got it, and
    /// the scoreboard when the phase changed or, at most every
    /// [`BOARD_INTERVAL`], when a row changed (pings alone do not count); a
    /// new client gets both at once. The state and the board are compared
    /// once per tick, not once per client: each gets a version number, and
    /// a client remembers the versions it has.
    pub(super) fn send_mode_and_scores(&mut self, game: &Match, due: &[(ConnId, SlotId)]) {
        let mode = convert::mode_update(game);
        let mode_version = self.mode.bump_if_changed(mode);
        let pings: BTreeMap<SlotId, u16> = self
            .clients
            .iter()
            .map(|(conn, c)| {
                let ms = self.transport.stats(*conn).and_then(|s| s.ping).map_or(0, |p| p.as_millis());
                (c.slot, u16::try_from(ms).unwrap_or(u16::MAX))
            })
            .collect();
        let board = convert::scoreboard(game, |s| pings.get(&s).copied().unwrap_or(0));
        let mut bare = board.clone();
        for r in &mut bare.rows {
            r.ping_ms = 0;
        }
        let board_version = self.board.bump_if_changed(bare);
        let now = Instant::now();
        for (conn, _) in due {
            let Some(c) = self.clients.get_mut(conn) else { continue };
            if c.mode_sent != Some(mode_version)
                && let Some(mode) = self.mode.current()
                && self.transport.send_reliable(*conn, &ServerMessage::Mode(mode.clone())).is_ok()
            {
                c.mode_sent = Some(mode_version);
            }
            let send_board = match &c.board_sent {
                None => true,
                // A new phase shows at once; other changes at most every BOARD_INTERVAL.
                Some(sent) => sent.phase != board.phase || (sent.version != board_version && now.duration_since(sent.at) >= BOARD_INTERVAL),
            };
            if send_board && self.transport.send_reliable(*conn, &ServerMessage::Scoreboard(board.clone())).is_ok() {
                c.board_sent = Some(BoardSent { version: board_version, phase: board.phase.clone(), at: now });
            }
        }
    }
}

/// A value sent to many clients, with a number that changes when it does.
#[derive(Debug)]
pub(super) struct Versioned<T> {
    value: Option<T>,
    version: u64,
}

impl<T> Default for Versioned<T> {
    fn default() -> Self {
        Self { value: None, version: 0 }
    }
}

impl<T: PartialEq> Versioned<T> {
    /// Keeps `value`, bumping the version when it differs from the last;
    /// returns the version.
    pub(super) fn bump_if_changed(&mut self, value: T) -> u64 {
        if self.value.as_ref() != Some(&value) {
            self.version += 1;
            self.value = Some(value);
        }
        self.version
    }

    /// The value as of the last call.
    pub(super) fn current(&self) -> Option<&T> {
        self.value.as_ref()
    }
}

/// The scoreboard a client was last sent.
#[derive(Debug, Clone)]
pub(super) struct BoardSent {
    /// Its version (pings aside).
    pub(super) version: u64,
    /// Its match phase.
    pub(super) phase: String,
    /// When it went out.
    pub(super) at: Instant,
}

#[cfg(test)]
mod tests {
    use super::Versioned;

    #[test]
    fn the_version_moves_only_when_the_value_changes() {
        let mut v = Versioned::default();
        assert_eq!(v.bump_if_changed(3), 1);
        assert_eq!(v.bump_if_changed(3), 1);
        assert_eq!(v.bump_if_changed(4), 2);
        assert_eq!(v.current(), Some(&4));
    }
}
