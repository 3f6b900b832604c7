//! A server and one client on 127.0.0.1, talking for two seconds: the
//! smallest complete use of the transport. Prints what the client sees and
//! both sides' statistics.
//!
//! Run: `cargo run -p quarry-net --example loopback_pair`

use std::time::{Duration, Instant};

use quarry_net::cert::{Identity, ServerVerification};
use quarry_net::handshake::{Hello, Welcome};
use quarry_net::snapshot::{EntityState, PlayerState, Snapshot};
use quarry_net::transport::{ClientConfig, ClientEvent, ClientTransport, ServerConfig, ServerEvent, ServerTransport, TransportSettings};
use quarry_net::usercmd::UserCmd;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let identity = Identity::generate()?;
    let mut server = ServerTransport::bind(ServerConfig { bind: "127.0.0.1:0".parse()?, identity, settings: TransportSettings::default() })?;
    println!("server on {} fingerprint {}", server.local_addr(), server.fingerprint());

    let mut client = ClientTransport::connect(ClientConfig {
        server: server.local_addr(),
        verification: ServerVerification::Pinned(server.fingerprint()),
        hello: Hello::new("example"),
        settings: TransportSettings::default(),
    })?;

    let start = Instant::now();
    let mut tick = 0u32;
    let mut x = 0.0f32;
    let mut conn = None;
    while start.elapsed() < Duration::from_secs(2) {
        tick += 1;
        // Server tick: take events, move the player, send a snapshot.
        for e in server.poll_events() {
            match e {
                ServerEvent::Connected { conn: c, hello, addr } => {
                    println!("server: {} connected from {addr}", hello.name);
                    server.accept(c, &Welcome { slot: 0, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() })?;
                    conn = Some(c);
                }
                ServerEvent::SnapshotAcked { .. } => {}
                ServerEvent::UserCmds { cmds, .. } => x += cmds.iter().map(|c| f32::from(c.forward) / 32.0).sum::<f32>(),
                other => println!("server: {other:?}"),
            }
        }
        if let Some(c) = conn.filter(|_| tick.is_multiple_of(2)) {
            let bot = EntityState { origin: [(tick as i32) * 8, 0, 0], velocity: [60, 0, 0], ..EntityState::empty(2) };
            let snap = Snapshot { server_tick: tick, acked_cmd_tick: tick, player: PlayerState { origin: [x, 0.0, 24.0], ..PlayerState::default() }, entities: vec![bot], events: Vec::new() };
            server.send_snapshot(c, snap.into())?;
        }
        // Client frame: send a command, read what arrived.
        if client.is_connected() {
            client.send_cmd(UserCmd { tick, forward: 127, ..UserCmd::default() })?;
        }
        for e in client.poll_events() {
            match e {
                ClientEvent::Snapshot(s) if s.server_tick % 30 == 0 => {
                    println!("client: tick {} me at x={:.1}, {} other entities", s.server_tick, s.player.origin[0], s.entities.len());
                }
                ClientEvent::Snapshot(_) => {}
                other => println!("client: {other:?}"),
            }
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    println!("client stats: {:?}", client.stats());
    if let Some(c) = conn {
        println!("server stats: {:?}", server.stats(c));
    }
    Ok(())
}
