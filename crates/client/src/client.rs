//! One connection to a server, polled from the caller's thread.
//!
//! Call order: [`Client::connect`] returns at once; call [`Client::pump`]
//! (never blocks) or [`Client::wait`] (blocks up to a timeout) regularly,
//! at least as often as you send commands. Each call takes in what the
//! network delivered: the Welcome, snapshots (applied to [`Client::view`]),
//! reliable messages (queued as [`Notice`]s, see
//! [`Client::take_notices`]) and the disconnect. [`Client::join`] is the
//! blocking shortcut for "connect and wait until in or refused".

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

use quarry_movement::UserCmd;
use quarry_net::event::SnapshotEvent;
use quarry_net::handshake::Welcome;
use quarry_net::reliable::{ChatScope, ClientMessage, DisconnectReason, ModeUpdate, Scoreboard, ServerMessage};
use quarry_net::transport::{ClientConfig, ClientEvent, ClientTransport};
use tracing::{debug, warn};

use quarry_net::handshake::CS_MAP;
use quarry_net::map_transfer::{MAX_MAP_BYTES, MapHash, parse_map_string};

use crate::error::{ClientError, ConnectError};
use crate::map_store::{MapDownload, MapFetch, MapFetchError, MapStore};
use crate::notice::{ChatLine, Notice};
use crate::options::ClientOptions;
use crate::stats::{ClientStats, SessionStats, StatsAverager};
use crate::view::View;

/// Notices kept when nobody takes them (a load test that never reads
/// chat must not grow without bound); the oldest are dropped first.
const MAX_NOTICES: usize = 4096;
/// Chat lines kept for [`Client::chat_log`].
const CHAT_LOG: usize = 256;
/// Snapshot events kept when nobody takes them ([`Client::take_events`]).
const MAX_EVENTS: usize = 256;
/// How many ticks a command may aim beyond the server tick the client
/// estimates: sending faster than the server ticks would otherwise run
/// ahead without bound, and the server's input queue is only ~8 deep.
const MAX_LEAD_TICKS: u32 = 3;
/// Tick rate assumed if the Welcome says 0.
const DEFAULT_TICK_RATE: u16 = 60;

/// Where a client is in its life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Waiting for the QUIC handshake and the Welcome.
    Connecting,
    /// In the game.
    Connected,
    /// Over, and why (a refusal is `Rejected(reason)`).
    Disconnected(DisconnectReason),
}

/// Where a client's events come from.
enum Link {
    /// A server over QUIC (boxed: the local link is small).
    Net(Box<ClientTransport>),
    /// Events handed in by the program ([`Client::local`]): a demo played
    /// in the window. Nothing is sent anywhere.
    Local(VecDeque<ClientEvent>),
}

/// A player's connection: the transport, what it sees, what it was told.
pub struct Client {
    link: Link,
    connect_timeout: Duration,
    status: Status,
    welcome: Option<Welcome>,
    map: Option<String>,
    config_strings: BTreeMap<u16, String>,
    view: View,
    /// The events of the snapshots applied, not taken yet.
    events: VecDeque<SnapshotEvent>,
    snapshot_at: Option<Instant>,
    notices: VecDeque<Notice>,
    chat: VecDeque<ChatLine>,
    scoreboard: Option<Scoreboard>,
    mode: Option<ModeUpdate>,
    last_cmd_tick: Option<u32>,
    cmds_sent: u64,
    averager: StatsAverager,
    /// Answer a map change at once (a headless client) or only when
    /// [`Client::confirm_map_loaded`] is called.
    confirm_map_changes: bool,
    /// The map being found or downloaded ([`Client::fetch_map`]).
    map_fetch: Option<MapFetch>,
}

impl Client {
    /// Starts connecting and returns at once; watch [`Client::status`] (or
    /// use [`Client::join`]). Fails only if the local endpoint cannot start.
    pub fn connect(options: ClientOptions) -> Result<Self, ConnectError> {
        let mut settings = options.settings.clone();
        settings.conn.welcome_timeout = options.connect_timeout;
        let config = ClientConfig {
            server: options.server,
            verification: options.trust.verification(),
            hello: options.hello(),
            settings,
        };
        let transport = ClientTransport::connect_with(config, options.net.clone())?;
        Ok(Self::over(Link::Net(Box::new(transport)), &options))
    }

    /// A client whose events are handed in with [`Client::deliver`]
    /// instead of coming from a server: what a demo's viewer is sent
    /// reaches the same view, notices and scoreboard as a live game's.
    /// Sending fails with [`ClientError::Local`].
    pub fn local(options: &ClientOptions) -> Self {
        Self::over(Link::Local(VecDeque::new()), options)
    }

    fn over(link: Link, options: &ClientOptions) -> Self {
        Self {
            link,
            connect_timeout: options.connect_timeout,
            status: Status::Connecting,
            welcome: None,
            map: None,
            config_strings: BTreeMap::new(),
            view: View::default(),
            events: VecDeque::new(),
            snapshot_at: None,
            notices: VecDeque::new(),
            chat: VecDeque::new(),
            scoreboard: None,
            mode: None,
            last_cmd_tick: None,
            cmds_sent: 0,
            averager: StatsAverager::default(),
            confirm_map_changes: options.confirm_map_changes,
            map_fetch: None,
        }
    }

    /// Hands a local client ([`Client::local`]) events to take in on the
    /// next pump; a networked client ignores them.
    pub fn deliver(&mut self, events: impl IntoIterator<Item = ClientEvent>) {
        if let Link::Local(inbox) = &mut self.link {
            inbox.extend(events);
        }
    }

    /// Connects and blocks until the server lets us in ([`Client::wait_welcome`]).
    pub fn join(options: ClientOptions) -> Result<Self, ConnectError> {
        let timeout = options.connect_timeout;
        let mut c = Self::connect(options)?;
        c.wait_welcome(timeout)?;
        Ok(c)
    }

    /// Blocks until welcomed (returns the Welcome), refused, failed, or
    /// `timeout` passed. Notices stay queued.
    pub fn wait_welcome(&mut self, timeout: Duration) -> Result<Welcome, ConnectError> {
        let deadline = Instant::now() + timeout;
        loop {
            match &self.status {
                Status::Connected => {
                    return self.welcome.clone().ok_or(ConnectError::NoAnswer(timeout));
                }
                Status::Disconnected(r) => {
                    return Err(ConnectError::from_disconnect(
                        r.clone(),
                        self.connect_timeout,
                    ));
                }
                Status::Connecting => {}
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ConnectError::NoAnswer(timeout));
            }
            self.wait(left.min(Duration::from_millis(50)));
        }
    }

    /// Takes in everything that arrived; never blocks. Returns how many
    /// transport events were handled.
    pub fn pump(&mut self) -> usize {
        let events = match &mut self.link {
            Link::Net(t) => t.poll_events(),
            Link::Local(inbox) => inbox.drain(..).collect(),
        };
        self.absorb(events)
    }

    /// Like [`Client::pump`], but waits up to `timeout` when nothing is
    /// pending (for loops without a frame clock).
    pub fn wait(&mut self, timeout: Duration) -> usize {
        let events = match &mut self.link {
            Link::Net(t) => t.wait_events(timeout),
            Link::Local(inbox) => inbox.drain(..).collect(),
        };
        self.absorb(events)
    }

    fn absorb(&mut self, events: Vec<ClientEvent>) -> usize {
        let now = Instant::now();
        let n = events.len();
        for e in events {
            match e {
                ClientEvent::Welcomed(w) => {
                    self.status = Status::Connected;
                    self.map = Some(w.map.clone());
                    self.config_strings = w.config_strings.iter().cloned().collect();
                    // A new welcome starts the picture over (a demo's viewer
                    // moved to another player or another tick).
                    self.view.restart();
                    self.welcome = Some(w.clone());
                    self.notify(Notice::Welcomed(w));
                }
                ClientEvent::Snapshot(s) => {
                    let newer = self.view.server_tick().is_none_or(|t| s.server_tick > t);
                    self.view.apply(&s);
                    self.snapshot_at = Some(now);
                    if newer {
                        for e in s.events {
                            if self.events.len() == MAX_EVENTS {
                                self.events.pop_front();
                            }
                            self.events.push_back(e);
                        }
                    }
                }
                ClientEvent::Message(m) => self.handle_message(m),
                ClientEvent::Disconnected(r) => {
                    self.status = Status::Disconnected(r.clone());
                    self.notify(Notice::Disconnected(r));
                }
            }
        }
        if self.status == Status::Connected {
            let stats = self.stats();
            self.averager.sample(now, &stats);
        }
        n
    }

    fn handle_message(&mut self, m: ServerMessage) {
        match m {
            ServerMessage::Chat {
                from,
                name,
                scope,
                text,
            } => {
                let line = ChatLine {
                    from,
                    name,
                    scope,
                    text,
                };
                if self.chat.len() == CHAT_LOG {
                    self.chat.pop_front();
                }
                self.chat.push_back(line.clone());
                self.notify(Notice::Chat(line));
            }
            ServerMessage::Print(text) => self.notify(Notice::Print(text)),
            ServerMessage::Scoreboard(board) => {
                self.scoreboard = Some(board.clone());
                self.notify(Notice::Scoreboard(board));
            }
            ServerMessage::MapChange {
                map,
                config_strings,
            } => {
                for (index, value) in &config_strings {
                    self.apply_timing(*index, value);
                }
                self.config_strings = config_strings.into_iter().collect();
                self.view.clear_entities();
                self.map = Some(map.clone());
                // The old map's fetch is moot; the caller fetches the new one.
                self.map_fetch = None;
                // Nothing to load in a headless client: say we are ready at once.
                if self.confirm_map_changes
                    && let Err(e) = self.confirm_map_loaded()
                {
                    warn!(error = %e, "could not confirm the map change");
                }
                self.notify(Notice::MapChange { map });
            }
            ServerMessage::ConfigString { index, value } => {
                self.apply_timing(index, &value);
                self.config_strings.insert(index, value.clone());
                self.notify(Notice::ConfigString { index, value });
            }
            ServerMessage::ConsoleOutput(text) => self.notify(Notice::Console(text)),
            ServerMessage::Mode(update) => {
                let changes = crate::mode::mode_changes(self.mode.as_ref(), &update);
                self.mode = Some(update.clone());
                self.notify(Notice::Mode { update, changes });
            }
            ServerMessage::MapChunk(chunk) => {
                if let Some(f) = self.map_fetch.as_mut() {
                    f.on_chunk(&chunk);
                }
            }
            ServerMessage::MapRefused { hash, reason } => match self.map_fetch.as_mut() {
                Some(f) => f.on_refused(hash, reason),
                None => debug!(%reason, "a map refusal for no request"),
            },
            // The transport turns this into the Disconnected event.
            ServerMessage::Disconnect(reason) => debug!(%reason, "server says goodbye"),
        }
    }

    fn notify(&mut self, n: Notice) {
        if self.notices.len() == MAX_NOTICES {
            self.notices.pop_front();
        }
        self.notices.push_back(n);
    }

    /// Takes the sounds, shots, hits and hurts of the snapshots applied
    /// since the last call, in order (at most the newest 256 are kept).
    pub fn take_events(&mut self) -> Vec<SnapshotEvent> {
        self.events.drain(..).collect()
    }

    /// Where the connection is.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whether the server welcomed us and we are still in.
    pub fn is_connected(&self) -> bool {
        self.status == Status::Connected
    }

    /// The Welcome, once received.
    pub fn welcome(&self) -> Option<&Welcome> {
        self.welcome.as_ref()
    }

    /// The current map (from the Welcome or the last map change).
    pub fn map(&self) -> Option<&str> {
        self.map.as_deref()
    }

    /// The running map's content hash and file size (the `CS_MAP` config
    /// string), when the server gave them.
    pub fn map_hash(&self) -> Option<(MapHash, u64)> {
        self.config_strings.get(&CS_MAP).and_then(|v| parse_map_string(v))
    }

    /// Gets the current map's file: from `store` when a file there has the
    /// server's hash (ready at once, nothing asked), else by asking the
    /// server for it. Follow it with [`Client::map_download`] as the client
    /// is pumped; a map change drops the fetch (fetch the new map then).
    /// Calling it again restarts the fetch (the server allows a few
    /// requests a minute).
    pub fn fetch_map(&mut self, store: &MapStore) -> Result<&MapDownload, ClientError> {
        self.ensure_connected()?;
        let name = self.map.clone().unwrap_or_default();
        let fetch = match self.map_hash() {
            None => MapFetch::failed(store.clone(), &name, MapFetchError::NoMapHash),
            Some((hash, _)) if let Some(file) = store.find(&name, hash) => MapFetch::ready(store.clone(), file),
            Some((_, size)) if size > MAX_MAP_BYTES => MapFetch::failed(store.clone(), &name, MapFetchError::TooLarge { map: name.clone(), size, max: MAX_MAP_BYTES }),
            Some((hash, size)) => {
                self.transport()?.send_reliable(&ClientMessage::MapRequest { hash, offset: 0 })?;
                MapFetch::downloading(store.clone(), &name, hash, size)
            }
        };
        Ok(self.map_fetch.insert(fetch).state())
    }

    /// Where the last [`Client::fetch_map`] stands (`None`: none since
    /// the last map change).
    pub fn map_download(&self) -> Option<&MapDownload> {
        self.map_fetch.as_ref().map(MapFetch::state)
    }

    /// Tells the server the current map is loaded. A client made with
    /// [`ClientOptions::confirm_map_changes`] `false` calls it once it has
    /// loaded the map after a map change; others need not.
    pub fn confirm_map_loaded(&mut self) -> Result<(), ClientError> {
        let map = self.map.clone().unwrap_or_default();
        self.transport()?.send_reliable(&ClientMessage::MapLoaded(map))?;
        Ok(())
    }

    /// The current config strings, by index.
    pub fn config_strings(&self) -> &BTreeMap<u16, String> {
        &self.config_strings
    }

    /// What the client sees (from the newest snapshot).
    pub fn view(&self) -> &View {
        &self.view
    }

    /// Removes and returns the notices collected so far, oldest first.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        self.notices.drain(..).collect()
    }

    /// The last chat lines received (up to 256), oldest first; kept
    /// whether or not notices were taken.
    pub fn chat_log(&self) -> impl Iterator<Item = &ChatLine> {
        self.chat.iter()
    }

    /// The last scoreboard the server sent.
    pub fn scoreboard(&self) -> Option<&Scoreboard> {
        self.scoreboard.as_ref()
    }

    /// The last objective state the server sent (flags, round, frozen).
    pub fn mode(&self) -> Option<&ModeUpdate> {
        self.mode.as_ref()
    }

    fn ensure_connected(&self) -> Result<(), ClientError> {
        match &self.status {
            Status::Connected => Ok(()),
            Status::Connecting => Err(ClientError::NotConnected),
            Status::Disconnected(r) => Err(ClientError::Disconnected(r.clone())),
        }
    }

    /// A timing config string ([`CS_TIMING`](quarry_net::handshake::CS_TIMING))
    /// updates the tick and snapshot rate the Welcome gave; a malformed one
    /// is ignored (and logged).
    fn apply_timing(&mut self, index: u16, value: &str) {
        if index != quarry_net::handshake::CS_TIMING {
            return;
        }
        match (quarry_net::handshake::parse_timing(value), self.welcome.as_mut()) {
            (Some((tick, snap)), Some(w)) => {
                w.tick_rate = tick;
                w.snapshot_rate = snap;
            }
            (None, _) => warn!(value, "ignoring a malformed timing config string"),
            (Some(_), None) => {}
        }
    }

    /// The tick the next command aims at: the newest snapshot's server
    /// tick plus one, moved on by the time since that snapshot arrived (at
    /// the Welcome's tick rate), and always after the last command sent.
    /// `None` before the first snapshot, or when the client already runs 3
    /// ticks ahead of that estimate (it sends faster than the server ticks).
    pub fn next_cmd_tick(&self, now: Instant) -> Option<u32> {
        let snap_tick = self.view.server_tick()?;
        let rate = self
            .welcome
            .as_ref()
            .map_or(DEFAULT_TICK_RATE, |w| w.tick_rate);
        let rate = if rate == 0 { DEFAULT_TICK_RATE } else { rate };
        let since = self
            .snapshot_at
            .map_or(Duration::ZERO, |t| now.saturating_duration_since(t));
        // At most a second of extrapolation: a server that stopped sending
        // snapshots should not make the client run away.
        let ahead = (since.as_secs_f64() * f64::from(rate))
            .floor()
            .min(f64::from(rate)) as u32;
        let estimate = snap_tick.saturating_add(1).saturating_add(ahead);
        let tick = self
            .last_cmd_tick
            .map_or(estimate, |last| estimate.max(last.saturating_add(1)));
        (tick <= estimate.saturating_add(MAX_LEAD_TICKS)).then_some(tick)
    }

    /// Sends one command, stamped with [`Client::next_cmd_tick`]. Returns
    /// the tick used, or `None` when no command could be sent yet (no
    /// snapshot, or sending faster than the server ticks). `cmd` holds
    /// the view wanted (its own tick is not read); the command sent carries
    /// it minus the delta angles of the newest snapshot, as Quake 3's
    /// client does, so a spawn's or a teleporter's facing holds.
    pub fn send_cmd(&mut self, cmd: UserCmd) -> Result<Option<u32>, ClientError> {
        Ok(self.send_cmd_returning(cmd)?.map(|c| c.tick))
    }

    /// [`Client::send_cmd`], returning the command exactly as sent (its
    /// tick stamped, its angles less the delta angles): what a predicting
    /// client must move again until the server acknowledges it.
    pub fn send_cmd_returning(&mut self, cmd: UserCmd) -> Result<Option<UserCmd>, ClientError> {
        self.ensure_connected()?;
        let Some(tick) = self.next_cmd_tick(Instant::now()) else {
            return Ok(None);
        };
        let delta = self.view.player().map_or([0.0; 2], |p| p.delta_angles);
        let sent = UserCmd { tick, ..without_delta(cmd, delta) };
        self.transport()?.send_cmd(sent)?;
        self.last_cmd_tick = Some(tick);
        self.cmds_sent += 1;
        Ok(Some(sent))
    }

    /// The tick of the last command sent.
    pub fn last_cmd_tick(&self) -> Option<u32> {
        self.last_cmd_tick
    }

    /// Says something to everyone.
    pub fn say(&mut self, text: impl Into<String>) -> Result<(), ClientError> {
        self.send(ClientMessage::Chat {
            scope: ChatScope::All,
            text: text.into(),
        })
    }

    /// Says something to the own team.
    pub fn say_team(&mut self, text: impl Into<String>) -> Result<(), ClientError> {
        self.send(ClientMessage::Chat {
            scope: ChatScope::Team,
            text: text.into(),
        })
    }

    /// Sends a console command line to the server (`score`, `team red`, …).
    pub fn command(&mut self, line: impl Into<String>) -> Result<(), ClientError> {
        self.send(ClientMessage::Command(line.into()))
    }

    /// Sends any reliable message.
    pub fn send(&mut self, msg: ClientMessage) -> Result<(), ClientError> {
        self.ensure_connected()?;
        self.transport()?.send_reliable(&msg)?;
        Ok(())
    }

    /// Leaves cleanly (the server sees `Quit`); the `Disconnected` notice
    /// follows on the next pump. Dropping the client also leaves cleanly.
    pub fn disconnect(&mut self) {
        match &mut self.link {
            Link::Net(t) => t.disconnect(),
            Link::Local(_) => self.status = Status::Disconnected(DisconnectReason::Quit),
        }
    }

    /// The transport to send on; a local client has none.
    fn transport(&mut self) -> Result<&mut ClientTransport, ClientError> {
        match &mut self.link {
            Link::Net(t) => Ok(t),
            Link::Local(_) => Err(ClientError::Local),
        }
    }

    /// The connection's current figures.
    pub fn stats(&self) -> ClientStats {
        let conn = match &self.link {
            Link::Net(t) => t.stats(),
            Link::Local(_) => quarry_net::conn::ConnStats::default(),
        };
        ClientStats::from_conn(
            &conn,
            self.view.snapshots_applied(),
            self.cmds_sent,
        )
    }

    /// Averages over the session so far (sampled once a second by pumping).
    pub fn session_stats(&self) -> SessionStats {
        self.averager.session()
    }

    /// Test hook: drops off the network without a word, like a crashed
    /// client; the server notices only by its idle timeout.
    pub fn vanish(self) {
        if let Link::Net(t) = self.link {
            (*t).vanish();
        }
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("status", &self.status)
            .field("map", &self.map)
            .field("server_tick", &self.view.server_tick())
            .field("last_cmd_tick", &self.last_cmd_tick)
            .finish_non_exhaustive()
    }
}

/// `cmd` with its view angles made command angles: minus the server's
/// delta angles `[pitch, yaw]` (yaw wrapped to 0..360). Non-finite deltas
/// (a malformed snapshot) count as none.
fn without_delta(cmd: UserCmd, delta: [f32; 2]) -> UserCmd {
    if !delta.iter().all(|d| d.is_finite()) {
        return cmd;
    }
    UserCmd { pitch: cmd.pitch - delta[0], yaw: (cmd.yaw - delta[1]).rem_euclid(360.0), ..cmd }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_carry_the_view_less_the_delta() {
        let c = UserCmd { yaw: 90.0, forward: 127, ..UserCmd::default() };
        let turned = without_delta(c, [0.0, 120.0]);
        assert_eq!((turned.yaw, turned.forward), (330.0, 127));
        assert_eq!(without_delta(c, [f32::NAN, 1.0]), c);
    }
}
