//! End to end over real QUIC on 127.0.0.1: a server endpoint polled like
//! the tick thread polls it, and client endpoints, through the public API.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use quarry_net::cert::{Fingerprint, Identity, ServerVerification};
use quarry_net::handshake::{Hello, PROTOCOL_VERSION, RejectReason, Welcome, password_matches};
use quarry_net::reliable::{ChatScope, ClientMessage, DisconnectReason, ServerMessage};
use quarry_net::snapshot::{EntityState, PlayerState, Snapshot, quantize_origin};
use quarry_net::transport::{
    ClientConfig, ClientEvent, ClientTransport, ConnId, LossHook, ServerConfig, ServerEvent, ServerTransport, TransportSettings,
};
use quarry_net::usercmd::UserCmd;

const TICK: Duration = Duration::from_millis(16);

fn server(settings: TransportSettings) -> ServerTransport {
    let identity = Identity::generate().expect("certificate");
    let bind = "127.0.0.1:0".parse().expect("addr");
    ServerTransport::bind(ServerConfig { bind, identity, settings }).expect("bind")
}

fn client(server: &ServerTransport, hello: Hello, pin: Fingerprint, settings: TransportSettings) -> ClientTransport {
    let config = ClientConfig { server: server.local_addr(), verification: ServerVerification::Pinned(pin), hello, settings };
    ClientTransport::connect(config).expect("connect")
}

fn welcome(slot: u8) -> Welcome {
    Welcome { slot, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() }
}

/// A miniature game server: accepts everyone with the right password,
/// moves each player by its commands, sends everyone a snapshot of all.
#[derive(Default)]
struct Game {
    tick: u32,
    players: BTreeMap<ConnId, ([f32; 3], u32)>, // origin, last command tick
    cmds_received: HashMap<ConnId, Vec<u32>>,
    disconnected: Vec<(ConnId, DisconnectReason)>,
    chat: Vec<(ConnId, String)>,
    password: Option<String>,
}

impl Game {
    fn tick(&mut self, s: &mut ServerTransport) {
        self.tick += 1;
        for e in s.poll_events() {
            match e {
                ServerEvent::Connected { conn, hello, .. } => {
                    if password_matches(self.password.as_deref(), hello.password.as_deref()) {
                        s.accept(conn, &welcome(self.players.len() as u8)).expect("accept");
                        self.players.insert(conn, ([0.0; 3], 0));
                    } else {
                        s.reject(conn, RejectReason::WrongPassword).expect("reject");
                    }
                }
                ServerEvent::UserCmds { conn, cmds } => {
                    if let Some((origin, last)) = self.players.get_mut(&conn) {
                        for c in &cmds {
                            origin[0] += f32::from(c.forward) / 16.0;
                            *last = c.tick;
                        }
                    }
                    self.cmds_received.entry(conn).or_default().extend(cmds.iter().map(|c| c.tick));
                }
                ServerEvent::Message { conn, msg: ClientMessage::Chat { text, .. } } => {
                    self.chat.push((conn, text.clone()));
                    s.broadcast(&ServerMessage::Chat { from: None, name: "someone".into(), scope: ChatScope::All, text });
                }
                ServerEvent::Disconnected { conn, reason } => {
                    self.players.remove(&conn);
                    self.disconnected.push((conn, reason));
                }
                _ => {}
            }
        }
        if self.tick.is_multiple_of(2) {
            let ids: Vec<ConnId> = self.players.keys().copied().collect();
            for (i, &me) in ids.iter().enumerate() {
                let (origin, acked) = self.players.get(&me).copied().unwrap_or_default();
                let entities = ids
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(j, id)| EntityState { origin: quantize_origin(self.players.get(id).map_or([0.0; 3], |p| p.0)), ..EntityState::empty(j as u32 + 1) })
                    .collect();
                let snap = Snapshot { server_tick: self.tick, acked_cmd_tick: acked, player: PlayerState { origin, health: 100, ..Default::default() }, entities, events: Vec::new() };
                s.send_snapshot(me, snap.into()).expect("snapshot");
            }
        }
    }
}

/// Runs the game and every client for `dur`, clients sending one command per tick.
fn play(s: &mut ServerTransport, game: &mut Game, clients: &mut [ClientTransport], seen: &mut [Vec<ClientEvent>], dur: Duration) {
    let end = Instant::now() + dur;
    let mut cmd_tick = 0u32;
    while Instant::now() < end {
        cmd_tick += 1;
        game.tick(s);
        for (c, seen) in clients.iter_mut().zip(seen.iter_mut()) {
            if c.is_connected() {
                let _ = c.send_cmd(UserCmd { tick: cmd_tick, forward: 127, ..UserCmd::default() });
            }
            seen.extend(c.poll_events());
        }
        std::thread::sleep(TICK);
    }
}

fn snapshots(events: &[ClientEvent]) -> Vec<&Snapshot> {
    events.iter().filter_map(|e| if let ClientEvent::Snapshot(s) = e { Some(s) } else { None }).collect()
}

#[test]
fn eight_clients_play_with_a_pinned_certificate() {
    let mut s = server(TransportSettings::default());
    let pin = s.fingerprint();
    let mut clients: Vec<_> = (0..8).map(|i| client(&s, Hello::new(format!("p{i}")), pin, TransportSettings::default())).collect();
    let mut seen = vec![Vec::new(); 8];
    let mut game = Game::default();
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(1500));

    assert_eq!(game.players.len(), 8);
    for (conn, ticks) in &game.cmds_received {
        assert!(ticks.windows(2).all(|w| w[0] < w[1]), "{conn}: commands out of order or repeated");
        assert!(ticks.len() > 40, "{conn}: only {} commands", ticks.len());
    }
    for (i, events) in seen.iter().enumerate() {
        assert!(matches!(events.first(), Some(ClientEvent::Welcomed(_))), "client {i}: {:?}", events.first());
        let snaps = snapshots(events);
        assert!(snaps.len() > 15, "client {i}: {} snapshots", snaps.len());
        let (first, last) = (snaps[0], snaps[snaps.len() - 1]);
        assert!(last.player.origin[0] > first.player.origin[0], "client {i} did not move");
        // Sees the 7 others, and sees them move: from the first snapshot
        // that had them all (clients join one after another, so an early
        // snapshot may lack the last ones) to the last.
        assert_eq!(last.entities.len(), 7, "client {i}");
        let all = snaps.iter().find(|s| s.entities.len() == 7).expect("a snapshot with every other player");
        let moved = last.entities.iter().filter(|e| all.entities.iter().any(|f| f.id == e.id && f.origin[0] < e.origin[0])).count();
        assert!(moved >= 6, "client {i} saw {moved} others move");
        let stats = clients[i].stats();
        assert!(stats.ping.is_some_and(|p| p < Duration::from_millis(100)));
        assert!(stats.snapshots_per_s > 10, "{stats:?}");
    }
    let conn = *game.players.keys().next().expect("a player");
    let st = s.stats(conn).expect("stats");
    assert!(st.bytes_out_per_s > 0 && st.bytes_in_per_s > 0, "{st:?}");

    // Chat goes through the server to everyone.
    clients[0].send_reliable(&ClientMessage::Chat { scope: ChatScope::All, text: "hello all".into() }).expect("chat");
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(200));
    for (i, events) in seen.iter().enumerate() {
        assert!(events.iter().any(|e| matches!(e, ClientEvent::Message(ServerMessage::Chat { text, .. }) if text == "hello all")), "client {i}");
    }

    // A kick reaches its target with the reason and frees the slot.
    s.disconnect(conn, DisconnectReason::Kicked("camping".into())).expect("kick");
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(300));
    assert!(game.disconnected.iter().any(|(c, r)| *c == conn && *r == DisconnectReason::Kicked("camping".into())));
    assert_eq!(game.players.len(), 7);
    let kicked = seen.iter().filter(|ev| ev.contains(&ClientEvent::Disconnected(DisconnectReason::Kicked("camping".into())))).count();
    assert_eq!(kicked, 1);
}

fn wait_for_disconnect(s: &mut ServerTransport, game: &mut Game, c: &mut ClientTransport, limit: Duration) -> Option<DisconnectReason> {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        game.tick(s);
        for e in c.poll_events() {
            if let ClientEvent::Disconnected(r) = e {
                return Some(r);
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

#[test]
fn wrong_version_and_wrong_password_are_rejected() {
    let mut s = server(TransportSettings::default());
    let pin = s.fingerprint();
    let mut game = Game { password: Some("secret".into()), ..Game::default() };

    let future = Hello { version: PROTOCOL_VERSION + 7, password: Some("secret".into()), ..Hello::new("future") };
    let mut c = client(&s, future, pin, TransportSettings::default());
    let r = wait_for_disconnect(&mut s, &mut game, &mut c, Duration::from_secs(3));
    assert_eq!(r, Some(DisconnectReason::Rejected(RejectReason::WrongVersion { server: PROTOCOL_VERSION, client: PROTOCOL_VERSION + 7 })));

    let mut c = client(&s, Hello { password: Some("guess".into()), ..Hello::new("guesser") }, pin, TransportSettings::default());
    let r = wait_for_disconnect(&mut s, &mut game, &mut c, Duration::from_secs(3));
    assert_eq!(r, Some(DisconnectReason::Rejected(RejectReason::WrongPassword)));
    assert!(game.players.is_empty());

    let mut c = client(&s, Hello { password: Some("secret".into()), ..Hello::new("friend") }, pin, TransportSettings::default());
    let end = Instant::now() + Duration::from_secs(3);
    while !c.is_connected() && Instant::now() < end {
        game.tick(&mut s);
        c.poll_events();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(c.is_connected());
}

#[test]
fn wrong_fingerprint_fails_the_handshake() {
    let s = server(TransportSettings::default());
    let wrong = Fingerprint([7; 32]);
    let mut c = client(&s, Hello::new("x"), wrong, TransportSettings::default());
    let end = Instant::now() + Duration::from_secs(3);
    let mut got = None;
    while got.is_none() && Instant::now() < end {
        got = c.wait_events(Duration::from_millis(50)).into_iter().find_map(|e| if let ClientEvent::Disconnected(r) = e { Some(r) } else { None });
    }
    assert!(matches!(got, Some(DisconnectReason::ConnectionLost(_))), "{got:?}");
}

#[test]
fn vanished_client_is_timed_out() {
    let quick = TransportSettings { idle_timeout: Duration::from_millis(800), keep_alive: Duration::from_millis(200), ..TransportSettings::default() };
    let mut s = server(quick.clone());
    let pin = s.fingerprint();
    let mut game = Game::default();
    let mut clients = vec![client(&s, Hello::new("ghost"), pin, quick.clone()), client(&s, Hello::new("stays"), pin, quick)];
    let mut seen = vec![Vec::new(), Vec::new()];
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(400));
    assert_eq!(game.players.len(), 2);
    let ghost = clients.remove(0);
    let vanished_at = Instant::now();
    ghost.vanish();
    seen.remove(0);
    while game.disconnected.is_empty() && vanished_at.elapsed() < Duration::from_secs(3) {
        play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(50));
    }
    let waited = vanished_at.elapsed();
    assert_eq!(game.disconnected.len(), 1, "{:?}", game.disconnected);
    assert_eq!(game.disconnected[0].1, DisconnectReason::Timeout);
    assert!(waited < Duration::from_millis(1800), "{waited:?}");
    // The other client never noticed.
    assert!(clients[0].is_connected());
    assert_eq!(game.players.len(), 1);
}

#[test]
fn play_goes_on_under_20_percent_datagram_loss() {
    let lossy = TransportSettings { loss: Some(LossHook { rate: 0.2, seed: 42 }), ..TransportSettings::default() };
    let mut s = server(lossy);
    let pin = s.fingerprint();
    let mut clients: Vec<_> = (0..3).map(|i| client(&s, Hello::new(format!("l{i}")), pin, TransportSettings::default())).collect();
    let mut seen = vec![Vec::new(); 3];
    let mut game = Game::default();
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(2000));
    for (conn, ticks) in &game.cmds_received {
        let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
        let expected = (last - first + 1) as usize;
        // Each command rides in 4 datagrams: 0.2^4 = 0.16 % expected loss.
        assert!(ticks.len() * 100 >= expected * 99, "{conn}: {} of {expected} commands", ticks.len());
    }
    for (i, events) in seen.iter().enumerate() {
        let snaps = snapshots(events);
        // ~60 snapshots in 2 s minus the 20 % lost; deltas keep working.
        assert!(snaps.len() > 30, "client {i}: {}", snaps.len());
        let stats = clients[i].stats();
        assert!(stats.loss_in > 0.05, "client {i} measured no loss: {stats:?}");
        assert_eq!(stats.snapshots_undecodable, 0);
        let pos: Vec<f32> = snaps.iter().map(|s| s.player.origin[0]).collect();
        assert!(pos.windows(2).all(|w| w[0] <= w[1]), "client {i} moved backwards");
    }
}

#[test]
fn quitting_and_server_shutdown_carry_their_reasons() {
    let mut s = server(TransportSettings::default());
    let pin = s.fingerprint();
    let mut game = Game::default();
    let mut clients: Vec<_> = (0..2).map(|i| client(&s, Hello::new(format!("q{i}")), pin, TransportSettings::default())).collect();
    let mut seen = vec![Vec::new(), Vec::new()];
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(300));
    assert_eq!(game.players.len(), 2);

    // Dropping a client leaves cleanly.
    drop(clients.remove(0));
    seen.remove(0);
    play(&mut s, &mut game, &mut clients, &mut seen, Duration::from_millis(200));
    assert_eq!(game.disconnected.len(), 1);
    assert_eq!(game.disconnected[0].1, DisconnectReason::Quit);

    // The server going down tells the rest why.
    s.shutdown(DisconnectReason::ServerShuttingDown, Duration::from_millis(500));
    let end = Instant::now() + Duration::from_secs(2);
    let mut got = None;
    while got.is_none() && Instant::now() < end {
        got = clients[0].wait_events(Duration::from_millis(50)).into_iter().find_map(|e| if let ClientEvent::Disconnected(r) = e { Some(r) } else { None });
    }
    assert_eq!(got, Some(DisconnectReason::ServerShuttingDown));
}

#[test]
fn endpoints_can_move_to_the_tick_thread() {
    fn send<T: Send>() {}
    send::<ServerTransport>();
    send::<ClientTransport>();
}
