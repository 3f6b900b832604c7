//! A tiny fake game server on 127.0.0.1 for the client's tests: the real
//! `quarry_net` server transport, driven by a 60 Hz loop on its own thread.
//!
//! It welcomes everyone (or refuses with a set reason), greets each player
//! with a chat line and a print, moves each player by its commands, sends
//! every player a snapshot every other tick with a moving entity (id 7)
//! and the other players, echoes chat to everyone, answers the `score`
//! command with a scoreboard, and changes the map once after one second.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use quarry_net::cert::{Fingerprint, Identity};
use quarry_net::handshake::{RejectReason, ServerInfo, Welcome};
use quarry_net::reliable::{
    ChatScope, ClientMessage, DisconnectReason, ScoreRow, Scoreboard, ServerMessage,
};
use quarry_net::snapshot::{
    EntityKind, EntityState, PlayerState, Snapshot, quantize_origin, quantize_velocity,
};
use quarry_net::transport::{
    ConnId, ServerConfig, ServerEvent, ServerTransport, TransportSettings,
};

/// The moving entity's id.
pub(crate) const MOVER: u32 = 7;
/// Server ticks per second.
pub(crate) const TICK_RATE: u16 = 60;
/// The map the server changes to after a second.
pub(crate) const NEXT_MAP: &str = "q_dm2";

/// What the fake server saw, returned when it stops.
#[derive(Debug, Default)]
pub(crate) struct Record {
    /// Names that said hello.
    pub(crate) hellos: Vec<String>,
    /// Per connection: (server tick when received, command tick).
    pub(crate) cmds: BTreeMap<ConnId, Vec<(u32, u32)>>,
    /// Chat lines received.
    pub(crate) chat: Vec<(ChatScope, String)>,
    /// Console commands received.
    pub(crate) commands: Vec<String>,
    /// Maps clients said they loaded.
    pub(crate) map_loaded: Vec<String>,
    /// Disconnects.
    pub(crate) disconnects: Vec<DisconnectReason>,
}

/// A running fake server.
pub(crate) struct FakeServer {
    /// Where it listens.
    pub(crate) addr: SocketAddr,
    /// Its certificate fingerprint.
    pub(crate) fingerprint: Fingerprint,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Record>>,
}

struct Player {
    slot: u8,
    name: String,
    origin: [f32; 3],
    last_cmd: u32,
}

impl FakeServer {
    /// Starts a server that welcomes everyone (`refuse: None`) or refuses
    /// everyone with the given reason.
    pub(crate) fn start(refuse: Option<RejectReason>) -> Self {
        let identity = Identity::generate().expect("certificate");
        let bind = "127.0.0.1:0".parse().expect("addr");
        let mut server = ServerTransport::bind(ServerConfig {
            bind,
            identity,
            settings: TransportSettings::default(),
        })
        .expect("bind");
        let (addr, fingerprint) = (server.local_addr(), server.fingerprint());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut record = Record::default();
            let mut players: BTreeMap<ConnId, Player> = BTreeMap::new();
            let start = Instant::now();
            let mut tick = 0u32;
            let mut next_slot = 0u8;
            while !flag.load(Ordering::Relaxed) {
                tick += 1;
                for e in server.poll_events() {
                    handle(
                        &mut server,
                        e,
                        tick,
                        &refuse,
                        &mut players,
                        &mut record,
                        &mut next_slot,
                    );
                }
                if tick == u32::from(TICK_RATE) {
                    server.broadcast(&ServerMessage::MapChange {
                        map: NEXT_MAP.into(),
                        config_strings: vec![(1, "next".into())],
                    });
                }
                if tick.is_multiple_of(2) {
                    send_snapshots(&mut server, tick, &players);
                }
                let due = start + Duration::from_secs_f64(f64::from(tick) / f64::from(TICK_RATE));
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
            }
            server.shutdown(
                DisconnectReason::ServerShuttingDown,
                Duration::from_millis(300),
            );
            record
        });
        Self {
            addr,
            fingerprint,
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the server (clients see a shutdown) and returns what it saw.
    pub(crate) fn stop(mut self) -> Record {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .take()
            .map(|t| t.join().expect("server thread"))
            .unwrap_or_default()
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn handle(
    s: &mut ServerTransport,
    e: ServerEvent,
    tick: u32,
    refuse: &Option<RejectReason>,
    players: &mut BTreeMap<ConnId, Player>,
    record: &mut Record,
    next_slot: &mut u8,
) {
    match e {
        ServerEvent::Connected { conn, hello, .. } => {
            record.hellos.push(hello.name.clone());
            if let Some(reason) = refuse {
                s.reject(conn, reason.clone()).expect("reject");
                return;
            }
            let slot = *next_slot;
            *next_slot += 1;
            let info = ServerInfo {
                hostname: "fake".into(),
                gametype: "ffa".into(),
                humans: 1,
                bots: 0,
                max_clients: 8,
                extra: vec![],
            };
            let welcome = Welcome {
                slot,
                map: "q_dm1".into(),
                tick_rate: TICK_RATE,
                snapshot_rate: 30,
                server_info: info,
                config_strings: vec![],
            };
            s.accept(conn, &welcome).expect("accept");
            let greeting = ServerMessage::Chat {
                from: None,
                name: "server".into(),
                scope: ChatScope::All,
                text: format!("welcome {}", hello.name),
            };
            s.send_reliable(conn, &greeting).expect("chat");
            s.broadcast(&ServerMessage::Print(format!(
                "{} entered the game",
                hello.name
            )));
            players.insert(
                conn,
                Player {
                    slot,
                    name: hello.name,
                    origin: [0.0, 0.0, 24.0],
                    last_cmd: 0,
                },
            );
        }
        ServerEvent::UserCmds { conn, cmds } => {
            if let Some(p) = players.get_mut(&conn) {
                for c in &cmds {
                    p.origin[0] += f32::from(c.forward) / 16.0;
                    p.last_cmd = c.tick;
                }
            }
            record
                .cmds
                .entry(conn)
                .or_default()
                .extend(cmds.iter().map(|c| (tick, c.tick)));
        }
        ServerEvent::Message { conn, msg } => match msg {
            ClientMessage::Chat { scope, text } => {
                record.chat.push((scope, text.clone()));
                let (from, name) = players
                    .get(&conn)
                    .map_or((None, "?".to_string()), |p| (Some(p.slot), p.name.clone()));
                s.broadcast(&ServerMessage::Chat {
                    from,
                    name,
                    scope,
                    text,
                });
            }
            ClientMessage::Command(line) => {
                if line == "score" {
                    let rows = players
                        .values()
                        .map(|p| ScoreRow {
                            slot: p.slot,
                            name: p.name.clone(),
                            score: 3,
                            ..ScoreRow::default()
                        })
                        .collect();
                    let board = Scoreboard {
                        gametype: "ffa".into(),
                        phase: "playing".into(),
                        team_scores: None,
                        rows,
                    };
                    s.send_reliable(conn, &ServerMessage::Scoreboard(board))
                        .expect("scoreboard");
                }
                record.commands.push(line);
            }
            ClientMessage::MapLoaded(map) => record.map_loaded.push(map),
            _ => {}
        },
        ServerEvent::Disconnected { conn, reason } => {
            players.remove(&conn);
            record.disconnects.push(reason);
        }
        _ => {}
    }
}

fn send_snapshots(s: &mut ServerTransport, tick: u32, players: &BTreeMap<ConnId, Player>) {
    // The mover runs along +X at 240 units/s.
    let x = tick as f32 * 4.0;
    let mover = EntityState {
        kind: EntityKind::Projectile,
        origin: quantize_origin([x, 100.0, 24.0]),
        velocity: quantize_velocity([240.0, 0.0, 0.0]),
        ..EntityState::empty(MOVER)
    };
    for (conn, me) in players {
        let mut entities = vec![mover];
        entities.extend(
            players
                .values()
                .filter(|p| p.slot != me.slot)
                .map(|p| EntityState {
                    origin: quantize_origin(p.origin),
                    ..EntityState::empty(100 + u32::from(p.slot))
                }),
        );
        entities.sort_by_key(|e| e.id);
        let player = PlayerState {
            origin: me.origin,
            health: 100,
            weapon: 2,
            ..PlayerState::default()
        };
        let snap = Snapshot {
            server_tick: tick,
            acked_cmd_tick: me.last_cmd,
            player,
            entities,
            events: Vec::new(),
        };
        let _ = s.send_snapshot(*conn, snap.into());
    }
}
