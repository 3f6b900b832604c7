//! The server's network side: the QUIC endpoint's events feed the match
//! (connects take a slot through the same path as bots, commands go into the
//! same input queue), and after each tick every client gets chat, prints and
//! a delta snapshot. All socket work is in `quarry_net`; this module only
//! translates between it and the match.

pub mod admin;
mod bans;
pub mod convert;
pub mod download;
pub mod events;
pub mod listing;
pub mod messages;
pub mod outbound;
pub mod team_lock;
pub mod traffic;
mod vote_commands;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use quarry_net::handshake::{Hello, RejectReason, ServerInfo, Welcome};
use quarry_net::reliable::{ChatScope as WireScope, ClientMessage, DisconnectReason, ModeUpdate, ServerMessage};
use quarry_net::snapshot::{EntityState, SharedSnapshot};
use quarry_net::transport::{ConnId, ServerConfig, ServerEvent, ServerTransport, TransportSettings};
use quarry_sim::events::GameEvent;
use quarry_sim::{ClientKind, Match, SlotId, UserInfo};

pub use bans::{Ban, BanLineError, BanList, BanParseError, BanRange, now_secs as bans_now, parse_duration};
pub use quarry_net::lockout::Lockout as PasswordLockout;

/// What the server does when a human is about to join a full match: the
/// network knows nothing of who may give up a slot.
pub type MakeRoom<'a> = &'a mut dyn FnMut(&mut Match);

/// Why the network could not start.
#[derive(Debug, thiserror::Error)]
pub enum NetStartError {
    /// The certificate could not be loaded or made.
    #[error("certificate: {0}")]
    Cert(String),
    /// The admins file or a key it names could not be read.
    #[error("{0}")]
    Admins(String),
    /// The port could not be bound.
    #[error("couldn't listen on udp {addr}: {reason}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        reason: String,
    },
}

/// One accepted connection.
#[derive(Debug, Clone)]
struct NetClient {
    slot: SlotId,
    addr: SocketAddr,
    name: String,
    /// The versions of the objective state and scoreboard this client has;
    /// the next ones go out when they differ (see
    /// [`NetServer::send_mode_and_scores`]).
    mode_sent: Option<u64>,
    board_sent: Option<outbound::BoardSent>,
    /// Its traffic as of the last metrics sample.
    counted: traffic::Counted,
    /// The events waiting for its next snapshot.
    events: events::PendingEvents,
    /// Whether its chat is dropped (`mute`), until `unmute` or it leaves.
    muted: bool,
}

/// The live network side of the server.
pub struct NetServer {
    transport: ServerTransport,
    clients: BTreeMap<ConnId, NetClient>,
    /// Banned addresses.
    pub bans: BanList,
    /// Players' votes (`callvote`, `vote`).
    pub votes: crate::votes::Votes,
    /// The teams players may not join by their own choice (`lock`).
    pub team_locks: team_lock::TeamLocks,
    last_map: Option<String>,
    /// The timing clients were last told (`CS_TIMING`): tick and snapshot rate.
    timing: Option<(u16, u16)>,
    /// The movement settings clients were last told (`CS_MOVEMENT`).
    movement: Option<String>,
    item_classes: Vec<&'static str>,
    lockout: PasswordLockout,
    /// The objective state as of the last tick that sent snapshots.
    mode: outbound::Versioned<ModeUpdate>,
    /// The scoreboard without pings as of the last tick that sent snapshots.
    board: outbound::Versioned<quarry_net::reliable::Scoreboard>,
    /// Endpoint-wide refusals as of the last metrics sample.
    endpoint_counted: traffic::EndpointCounted,
    /// The server's identity, which keys address pseudonyms for the game log.
    pseudonyms: quarry_net::cert::Identity,
    /// The map clients may download and each one's transfer.
    downloads: download::Downloads,
    /// The certificate fingerprint as clients write it (`AB:CD:...`).
    fingerprint: String,
}

/// What the handshake needs to know about the server right now.
pub struct ServerFacts<'a> {
    /// `sv_hostname`.
    pub hostname: &'a str,
    /// `sv_password` ("" = none).
    pub password: &'a str,
    /// `sv_fps`.
    pub tick_rate: u32,
    /// `sv_snapshotRate`.
    pub snapshot_rate: u32,
    /// The running map's file as clients may download it (`CS_MAP`).
    pub map: Option<&'a Arc<quarry_net::map_transfer::MapOffer>>,
    /// `sv_allowDownload`, `sv_downloadRate`, `sv_downloadMaxKB`.
    pub download: download::DownloadSettings,
    /// The vote cvars.
    pub votes: &'a crate::votes::VoteSettings,
    /// The server's tick count (votes are timed in ticks).
    pub tick: u64,
}

impl NetServer {
    /// Binds the UDP port, loading or generating the certificate in
    /// `config_dir`. The IPv4 wildcard (`0.0.0.0`) binds dual-stack (`[::]`,
    /// IPv4 and IPv6 on one port) where the host has IPv6, else IPv4 only.
    pub fn start(bind: SocketAddr, config_dir: &Path) -> Result<Self, NetStartError> {
        // Secrets first: a server that cannot read them binds nothing.
        let admins = admin::load_admins(config_dir).map_err(NetStartError::Admins)?;
        let (identity, generated) = quarry_net::cert::Identity::load_or_generate(
            &config_dir.join("quarry-cert.der"),
            &config_dir.join("quarry-key.der"),
        )
        .map_err(|e| NetStartError::Cert(e.to_string()))?;
        if generated {
            tracing::info!("generated a self-signed certificate in {}", config_dir.display());
        }
        let pseudonyms = identity.clone();
        let transport = bind_transport(bind, identity)?;
        if let Some(keys) = admins {
            transport.set_admin_keys(keys);
        }
        let (bans, warnings) = BanList::load(&config_dir.join("bans.txt"));
        for w in warnings {
            tracing::warn!("{w}");
        }
        let fingerprint = transport.fingerprint().to_string();
        Ok(Self {
            transport,
            clients: BTreeMap::new(),
            bans,
            votes: crate::votes::Votes::default(),
            team_locks: team_lock::TeamLocks::default(),
            last_map: None,
            timing: None,
            movement: None,
            item_classes: Vec::new(),
            lockout: PasswordLockout::default(),
            mode: outbound::Versioned::default(),
            board: outbound::Versioned::default(),
            endpoint_counted: traffic::EndpointCounted::default(),
            pseudonyms,
            downloads: download::Downloads::default(),
            fingerprint,
        })
    }

    /// Admin requests waiting (a few per tick).
    pub fn admin_requests(&mut self) -> Vec<quarry_net::service::AdminRequest> {
        self.transport.admin_requests()
    }

    /// Sets who may sign in as an admin.
    pub fn set_admin_keys(&self, keys: quarry_net::service::AdminKeys) {
        self.transport.set_admin_keys(keys);
    }

    /// Publishes the server query's answer.
    pub fn publish_query(&self, info: &quarry_net::service::QueryInfo) {
        self.transport.publish_query(info);
    }

    /// Publishes what the out-of-band queries answer (from the server
    /// query's answer); a change between empty, non-empty and full
    /// heartbeats the masters at once.
    pub fn publish_oob(&self, query: &quarry_net::service::QueryInfo) {
        self.transport.publish_oob(&listing::oob_info(query, &self.fingerprint));
    }

    /// Whether and where to heartbeat (`sv_public`, `sv_master1`..`5`);
    /// nothing happens when they did not change.
    pub fn set_masters(&self, settings: quarry_net::transport::MasterSettings) {
        self.transport.set_masters(settings);
    }

    /// What the out-of-band handler and the heartbeats did.
    pub fn oob_stats(&self) -> (quarry_net::oob::OobStats, quarry_net::transport::HeartbeatStats) {
        (self.transport.oob_stats(), self.transport.heartbeat_stats())
    }

    /// What the admin and query services did.
    pub fn service_stats(&self) -> quarry_net::service::ServiceStats {
        self.transport.service_stats()
    }

    /// The address actually bound (port 0 picks a free one).
    pub fn local_addr(&self) -> SocketAddr {
        self.transport.local_addr()
    }

    /// The certificate fingerprint clients pin, as text (kept, not made each call).
    pub fn fingerprint_text(&self) -> &str {
        &self.fingerprint
    }

    /// The certificate fingerprint clients pin.
    pub fn fingerprint(&self) -> String {
        self.transport.fingerprint().to_string()
    }

    /// Handles everything that arrived since the last tick: connects,
    /// commands, chat, disconnects. Returns console lines.
    pub fn poll(&mut self, game: Option<&mut Match>, make_room: MakeRoom<'_>, facts: &ServerFacts<'_>, map_name: &str) -> Vec<String> {
        let mut lines = Vec::new();
        self.update_timing(facts);
        self.update_map(facts, map_name);
        let Some(game) = game else {
            for ev in self.transport.poll_events() {
                if let ServerEvent::Connected { conn, .. } = ev {
                    let _ = self.transport.reject(conn, RejectReason::Other("no map is loaded".into()));
                }
            }
            return lines;
        };
        self.update_movement(&game.settings().movement);
        for ev in self.transport.poll_events() {
            match ev {
                ServerEvent::Connected { conn, addr, hello } => {
                    self.on_connect(make_room, game, conn, addr, &hello, facts, map_name, &mut lines);
                }
                ServerEvent::UserCmds { conn, cmds } => {
                    if let Some(c) = self.clients.get(&conn) {
                        // The simulation sanitises each command on the way in.
                        for cmd in cmds {
                            let _ = game.push_cmd(c.slot, cmd);
                        }
                    }
                }
                ServerEvent::SnapshotAcked { .. } => {}
                ServerEvent::Message { conn, msg } => self.on_message(game, conn, msg, facts, &mut lines),
                ServerEvent::Misbehaving { conn, count } => {
                    tracing::debug!("connection {conn:?} sent {count} malformed datagrams");
                }
                ServerEvent::Disconnected { conn, reason } => {
                    self.downloads.forget(conn);
                    if let Some(c) = self.clients.remove(&conn) {
                        game.disconnect(c.slot);
                        lines.push(format!("{} disconnected: {reason}", c.name));
                    }
                }
            }
        }
        lines
    }

    #[expect(clippy::too_many_arguments, reason = "one handshake needs all of these")]
    fn on_connect(
        &mut self,
        make_room: MakeRoom<'_>,
        game: &mut Match,
        conn: ConnId,
        addr: SocketAddr,
        hello: &Hello,
        facts: &ServerFacts<'_>,
        map_name: &str,
        lines: &mut Vec<String>,
    ) {
        if let Some(reason) = self.bans.reason(addr.ip()) {
            lines.push(format!("refused {addr}: banned ({reason})"));
            let _ = self.transport.reject(conn, RejectReason::Banned);
            return;
        }
        if !facts.password.is_empty() && !self.check_password(conn, addr, hello, facts.password, lines) {
            return;
        }
        if hello.name.chars().all(|c| c.is_control() || c.is_whitespace()) && !hello.name.is_empty() {
            let _ = self.transport.reject(conn, RejectReason::BadName);
            return;
        }
        let info = UserInfo { name: hello.name.clone(), ..UserInfo::default() };
        if game.slots().humans() + game.slots().bots() >= game.slots().max() {
            // The server's answer to a human joining a full match (its
            // bots give one of theirs up).
            make_room(game);
        }
        let slot = match game.connect(ClientKind::Remote { latency_ms: 0 }, info) {
            Ok(s) => s,
            Err(_) => {
                lines.push(format!("refused {addr}: server full"));
                let _ = self.transport.reject(conn, RejectReason::Full);
                return;
            }
        };
        let welcome = Welcome {
            slot: slot.0,
            map: map_name.to_owned(),
            tick_rate: u16::try_from(facts.tick_rate).unwrap_or(60),
            snapshot_rate: u16::try_from(facts.snapshot_rate).unwrap_or(30),
            server_info: server_info(game, facts),
            config_strings: self.config_strings(),
        };
        if self.transport.accept(conn, &welcome).is_err() {
            game.disconnect(slot);
            return;
        }
        let team = game.enter_game(slot).ok().map(|t| self.team_locks.place(game, slot, t));
        let name = game.slots().get(slot).map(|s| s.userinfo.name.clone()).unwrap_or_default();
        lines.push(format!("{name} connected from {addr} (slot {}, {})", slot.0, team.map_or("?", |t| t.name())));
        self.clients.insert(conn, NetClient { slot, addr, name, mode_sent: None, board_sent: None, counted: traffic::Counted::default(), events: events::PendingEvents::default(), muted: false });
    }

    /// Checks the server password, with lockout: an address that failed
    /// too often waits, and is refused unheard meanwhile. Returns whether
    /// the client may go on (it has been rejected otherwise).
    fn check_password(&mut self, conn: ConnId, addr: SocketAddr, hello: &Hello, password: &str, lines: &mut Vec<String>) -> bool {
        let now = std::time::Instant::now();
        if let Some(wait) = self.lockout.wait(addr.ip(), now) {
            self.lockout.note_refused();
            let secs = wait.as_secs() + 1;
            let _ = self.transport.reject(conn, RejectReason::Other(format!("too many wrong passwords: try again in {secs} s")));
            return false;
        }
        if quarry_net::handshake::password_matches(Some(password), hello.password.as_deref()) {
            self.lockout.succeed(addr.ip());
            return true;
        }
        match self.lockout.fail(addr.ip(), now) {
            Some(wait) => lines.push(format!("refused {addr}: wrong password (locked out for {} s)", wait.as_secs())),
            None => lines.push(format!("refused {addr}: wrong password")),
        }
        let _ = self.transport.reject(conn, RejectReason::WrongPassword);
        false
    }

    fn on_message(&mut self, game: &mut Match, conn: ConnId, msg: ClientMessage, facts: &ServerFacts<'_>, lines: &mut Vec<String>) {
        let Some(client) = self.clients.get(&conn).cloned() else { return };
        match msg {
            ClientMessage::Chat { .. } if client.muted => {
                lines.push(format!("{} is muted: chat dropped", client.name));
                let _ = self.transport.send_reliable(conn, &ServerMessage::Print("chat: you are muted by the server; no one saw that".into()));
            }
            ClientMessage::Chat { scope, text } => {
                if let Err(e) = game.say(Some(client.slot), matches!(scope, WireScope::Team), &text) {
                    let _ = self.transport.send_reliable(conn, &ServerMessage::Print(format!("chat: {e}")));
                }
            }
            ClientMessage::Command(cmd) => {
                let reply = match self.team_locks.refusal(&cmd) {
                    Some(refusal) => refusal,
                    None => match self.vote_command(game, client.slot, &client.name, &cmd, facts) {
                        Some(reply) => reply,
                        None => game.client_command(client.slot, &cmd),
                    },
                };
                let _ = self.transport.send_reliable(conn, &ServerMessage::Print(reply));
            }
            ClientMessage::UserInfo(pairs) => {
                if let Some((_, name)) = pairs.iter().find(|(k, _)| k == "name")
                    && let Ok(new) = game.slots_mut().rename(client.slot, name)
                {
                    lines.push(format!("{} renamed to {new}", client.name));
                    if let Some(c) = self.clients.get_mut(&conn) {
                        c.name = new;
                    }
                }
            }
            ClientMessage::MapLoaded(_) => {}
            m @ ClientMessage::MapRequest { .. } => self.on_map_request(conn, &client.name, m, lines),
            ClientMessage::Quit => {
                let _ = self.transport.disconnect(conn, DisconnectReason::Quit);
            }
        }
    }

    fn config_strings(&self) -> Vec<(u16, String)> {
        // The item model table entity states refer to, and the timing.
        let mut cs = vec![(quarry_net::handshake::CS_ITEM_MODELS, self.item_classes.join(" "))];
        if let Some((tick, snap)) = self.timing {
            cs.push((quarry_net::handshake::CS_TIMING, quarry_net::handshake::timing_string(tick, snap)));
        }
        if let Some(offer) = self.downloads.offer() {
            cs.push((quarry_net::handshake::CS_MAP, offer.config_string()));
        }
        if let Some(movement) = &self.movement {
            cs.push((quarry_net::handshake::CS_MOVEMENT, movement.clone()));
        }
        cs
    }

    /// Records the match's movement settings; when they changed (a live
    /// `g_gravity` edit), tells every client, whose prediction moves with them.
    fn update_movement(&mut self, params: &quarry_movement::pmove::MoveParams) {
        let now = params.to_settings_string();
        if self.movement.as_deref() == Some(now.as_str()) {
            return;
        }
        let first = self.movement.is_none();
        self.movement = Some(now.clone());
        if !first {
            self.transport.broadcast(&ServerMessage::ConfigString { index: quarry_net::handshake::CS_MOVEMENT, value: now });
        }
    }

    /// Records the server's tick and snapshot rate; when they changed (a
    /// live `sv_fps` or `sv_snapshotRate` edit), tells every client.
    fn update_timing(&mut self, facts: &ServerFacts<'_>) {
        let now = (
            u16::try_from(facts.tick_rate).unwrap_or(u16::MAX),
            u16::try_from(facts.snapshot_rate).unwrap_or(u16::MAX),
        );
        if self.timing == Some(now) {
            return;
        }
        let first = self.timing.is_none();
        self.timing = Some(now);
        if !first {
            let value = quarry_net::handshake::timing_string(now.0, now.1);
            self.transport
                .broadcast(&ServerMessage::ConfigString { index: quarry_net::handshake::CS_TIMING, value });
        }
    }

    /// Takes the running map's offer and the download settings; when the
    /// map's content changed under the same name (a restart after the
    /// file was edited), tells every client its new hash (a new name is
    /// told by the map change).
    fn update_map(&mut self, facts: &ServerFacts<'_>, map_name: &str) {
        if self.downloads.set_map(facts.map, facts.download)
            && self.last_map.as_deref() == Some(map_name)
            && let Some(offer) = self.downloads.offer()
        {
            let value = offer.config_string();
            self.transport.broadcast(&ServerMessage::ConfigString { index: quarry_net::handshake::CS_MAP, value });
        }
    }

    fn item_model(&mut self, classname: &'static str) -> u16 {
        match self.item_classes.iter().position(|c| *c == classname) {
            Some(i) => i as u16,
            None => {
                self.item_classes.push(classname);
                (self.item_classes.len() - 1) as u16
            }
        }
    }

    /// After a tick: a map change announced, events out to everyone, this
    /// tick's share of each download, and snapshots (with the objective
    /// state and scoreboard when they changed) to the clients whose turn it
    /// is. A client gets a snapshot every `every` ticks; clients take turns
    /// by slot, so each tick sends about the same number of snapshots
    /// rather than all of them on one tick in `every`. Returns console
    /// lines (downloads finished).
    pub fn after_tick(&mut self, game: &mut Match, events: &[GameEvent], server_tick: u32, every: u32, map_name: &str) -> Vec<String> {
        if self.last_map.as_deref() != Some(map_name) {
            if self.last_map.is_some() {
                self.item_classes.clear();
                self.transport.broadcast(&ServerMessage::MapChange { map: map_name.to_owned(), config_strings: self.config_strings() });
            }
            self.last_map = Some(map_name.to_owned());
        }
        self.deliver_events(game, events);
        self.queue_snapshot_events(game, events, server_tick);
        let mut lines = Vec::new();
        self.send_map_chunks(&mut lines);
        self.update_latency(game);
        let every = every.max(1);
        let due: Vec<(ConnId, SlotId)> = self
            .clients
            .iter()
            .filter(|(_, c)| server_tick.wrapping_add(u32::from(c.slot.0)) % every == 0)
            .map(|(conn, c)| (*conn, c.slot))
            .collect();
        if due.is_empty() {
            return lines;
        }
        self.send_mode_and_scores(game, &due);
        let views = game.entity_views();
        let mut entities = Vec::with_capacity(views.len());
        for v in &views {
            let model = match v.kind {
                quarry_sim::view::ViewKind::Item { classname, .. } => self.item_model(classname),
                _ => 0,
            };
            entities.push(convert::entity_state(v, |_| model));
        }
        // One list for every client this tick; each leaves out its own entity.
        let entities: Arc<[EntityState]> = entities.into();
        for (conn, slot) in due {
            let own = game.own_view(slot);
            let (team, frags, acked) = game
                .slots()
                .get(slot)
                .map(|s| (s.team, s.score.frags, s.input.last().map_or(0, |c| c.tick)))
                .unwrap_or((quarry_sim::Team::Spectator, 0, 0));
            let events = self.clients.get_mut(&conn).map(|c| c.events.take()).unwrap_or_default();
            let snapshot = SharedSnapshot {
                server_tick,
                acked_cmd_tick: acked,
                player: convert::player_state(own.as_ref(), team, frags),
                entities: Arc::clone(&entities),
                own: own.as_ref().map(|o| o.id),
                events,
            };
            if let Err(e) = self.transport.send_snapshot(conn, snapshot) {
                tracing::debug!("snapshot to {conn:?}: {e}");
            }
        }
        lines
    }

    /// Queues the tick's sounds, shots, hits and hurts for each client
    /// they reach (see [`events`]).
    fn queue_snapshot_events(&mut self, game: &Match, events: &[GameEvent], server_tick: u32) {
        let shown = events::tick_events(game, events);
        if shown.is_empty() {
            return;
        }
        for c in self.clients.values_mut() {
            let eye = game.own_view(c.slot).map(|v| v.origin);
            c.events.offer(&shown, Some(c.slot), eye, server_tick);
        }
    }

    fn update_latency(&mut self, game: &mut Match) {
        for (conn, c) in &self.clients {
            if let Some(ping) = self.transport.rtt(*conn) {
                let latency_ms = u32::try_from(ping.as_millis() / 2).unwrap_or(u32::MAX);
                if let Some(s) = game.slots_mut().get_mut(c.slot) {
                    s.kind = ClientKind::Remote { latency_ms };
                }
            }
        }
    }

    /// Disconnects the client in `slot` with a reason everyone sees.
    pub fn kick(&mut self, slot: SlotId, reason: &str) -> bool {
        let Some((conn, _)) = self.clients.iter().find(|(_, c)| c.slot == slot).map(|(k, v)| (*k, v.clone())) else {
            return false;
        };
        self.transport.disconnect(conn, DisconnectReason::Kicked(reason.to_owned())).is_ok()
    }

    /// Sends `text` to the player in `slot` alone; `false` if no remote
    /// player is there.
    pub fn tell(&mut self, slot: SlotId, text: &str) -> bool {
        let Some(conn) = self.clients.iter().find(|(_, c)| c.slot == slot).map(|(k, _)| *k) else { return false };
        self.transport.send_reliable(conn, &ServerMessage::Print(format!("(to you) server: {text}"))).is_ok()
    }

    /// Mutes or unmutes the player in `slot` (their chat is dropped and
    /// they are told); `false` if no remote player is there.
    pub fn set_muted(&mut self, slot: SlotId, muted: bool) -> bool {
        match self.clients.values_mut().find(|c| c.slot == slot) {
            Some(c) => {
                c.muted = muted;
                true
            }
            None => false,
        }
    }

    /// The slots of the clients whose address is in `range`.
    pub fn slots_in(&self, range: &BanRange) -> Vec<SlotId> {
        self.clients.values().filter(|c| range.contains(c.addr.ip())).map(|c| c.slot).collect()
    }

    /// The address of the client in `slot`.
    pub fn addr_of(&self, slot: SlotId) -> Option<SocketAddr> {
        self.clients.values().find(|c| c.slot == slot).map(|c| c.addr)
    }

    /// A pseudonym of the address of the client in `slot` (its IP, not the
    /// port), stable for as long as the server keeps its key.
    pub fn address_hash(&self, slot: SlotId) -> Option<String> {
        let ip = self.addr_of(slot)?.ip().to_canonical();
        Some(match ip {
            std::net::IpAddr::V4(v4) => self.pseudonyms.pseudonym(&v4.octets()),
            std::net::IpAddr::V6(v6) => self.pseudonyms.pseudonym(&v6.octets()),
        })
    }

    /// The `status` line of the out-of-band side: answers and bytes, drops
    /// by reason, heartbeats.
    fn oob_status(&self) -> String {
        let (o, h) = self.oob_stats();
        format!(
            "out-of-band: {} answered ({} B out for {} B in, {} challenges); dropped {} per address, {} over the budget, {} malformed, {} oversized, {} unknown, {} refused; heartbeats {} sent to {} master address(es)",
            o.answered, o.bytes_out, o.bytes_in, o.challenges, o.limited_address, o.limited_global, o.malformed, o.oversized, o.unknown, o.refused, h.sent, h.addresses,
        )
    }

    /// The `status` lines of the network: one for the endpoint (open
    /// connections, address validation, refusals, password lockouts), one
    /// for the services (queries, admin sign-ins and refusals), one for the
    /// out-of-band queries and heartbeats, then
    /// one per connected client: ping, loss, rate, bytes/s, reliable
    /// backlog and messages dropped by the rate limits.
    pub fn status_lines(&self) -> Vec<String> {
        let a = self.transport.admission_stats();
        let v = self.transport.service_stats();
        let mut lines = vec![
            format!(
                "net: {} open connections; {} retries; refused {} (server full) {} (per address); {} closed to make room (not joined); {} password lockouts",
                self.transport.open_connections(),
                a.retries,
                a.refused_full,
                a.refused_per_ip,
                a.evicted,
                self.lockout.refused,
            ),
            format!(
                "services: queries {} answered, {} rate-limited; admin sign-ins {} ok, {} failed, {} locked out, {} busy",
                v.queries, v.queries_limited, v.admin_signins, v.admin_failures, v.admin_locked_out, v.admin_busy,
            ),
            self.oob_status(),
            self.download_status(),
        ];
        lines.extend(self.clients.iter().map(|(conn, c)| {
            let s = self.transport.stats(*conn).unwrap_or_default();
            format!(
                "  {:>2} {:<24} {:<21} ping {:>4} ms  loss {:>4.1}%  rate {:>6} B/s  in {:>6} B/s  out {:>6} B/s  backlog {:>6} B  limited {}",
                c.slot.0,
                c.name,
                c.addr,
                s.ping.map_or(0, |p| p.as_millis()),
                s.loss_in * 100.0,
                s.rate,
                s.bytes_in_per_s,
                s.bytes_out_per_s,
                s.reliable_backlog,
                s.limited,
            )
        }));
        lines
    }

    /// Tells everyone the server is going away and why, and closes the
    /// endpoint.
    pub fn shutdown(&mut self, reason: &str) {
        // Said before the goodbye: the disconnect itself carries no text.
        self.transport.broadcast(&ServerMessage::Print(format!("server shutting down: {reason}")));
        self.transport.shutdown(DisconnectReason::ServerShuttingDown, Duration::from_millis(200));
    }
}

/// Binds the endpoint; the IPv4 wildcard tries dual-stack first.
fn bind_transport(bind: SocketAddr, identity: quarry_net::cert::Identity) -> Result<ServerTransport, NetStartError> {
    let config = |bind| ServerConfig { bind, identity: identity.clone(), settings: TransportSettings::default() };
    if bind.ip() == std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED) {
        let dual = SocketAddr::from((std::net::Ipv6Addr::UNSPECIFIED, bind.port()));
        match ServerTransport::bind(config(dual)) {
            Ok(t) => return Ok(t),
            Err(e) => tracing::info!("no dual-stack socket ({e}); listening on IPv4 only"),
        }
    }
    ServerTransport::bind(config(bind)).map_err(|e| NetStartError::Bind { addr: bind, reason: e.to_string() })
}

fn server_info(game: &Match, facts: &ServerFacts<'_>) -> ServerInfo {
    let slots = game.slots();
    ServerInfo {
        hostname: facts.hostname.to_owned(),
        gametype: game.rules().gametype.name().to_owned(),
        humans: u16::try_from(slots.humans()).unwrap_or(u16::MAX),
        bots: u16::try_from(slots.bots()).unwrap_or(u16::MAX),
        max_clients: u16::try_from(slots.max()).unwrap_or(u16::MAX),
        extra: Vec::new(),
    }
}
