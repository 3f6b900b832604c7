//! Downstream bytes on the wire for one client of a 16-player match, as
//! QUIC counts them: a real quinn server and client over loopback, through
//! a UDP relay that adds a round trip of 0, 50 and 100 ms.
//!
//! Run: `cargo bench -p quarry-net --bench wire`. For each round trip, the
//! server ticks at 60 Hz and sends the client the synthetic deathmatch's
//! snapshot (`common/arena.rs`: 15 other players moving, 30 items, rockets)
//! every other tick through [`ServerTransport::send_snapshot`]; the client
//! sends a command every 1/60 s through [`ClientTransport::send_cmd`] (which
//! also acknowledges snapshots), as the reference client does. After a
//! warm-up (handshake, path MTU probes), the client's quinn statistics over
//! a few seconds give:
//!
//! - `wire_B/s`: UDP payload bytes received per second (quinn's `udp_rx`:
//!   every QUIC packet whole, ACK-only packets included), the figure;
//! - `+ip_B/s`: the same plus the 28 bytes of IPv4 and UDP header each
//!   datagram carries on a real link;
//! - `pkts/s`: datagrams received per second (snapshots plus ACK-only
//!   packets); `payload_B/s`: Quarry's datagram bytes alone; `snaps/s`;
//!   `base_gap`: the mean ticks between a snapshot and the one it is a
//!   delta against (the round trip plus the wait for a command to carry
//!   the ack and for the next snapshot tick: what the round trip costs).
//!
//! The client's commands leave 1 ms after each server tick, the phase that
//! costs most below a 33 ms round trip: quinn lets the server hold an ACK
//! no longer than the larger of the round trip and 25 ms, so a command
//! that arrives just after a snapshot is acknowledged on its own before
//! the next one (30 ACK-only packets a second). Another phase:
//! `QUARRY_WIRE_PHASE_MS=12 cargo bench -p quarry-net --bench wire`.
//!
//! The rows are also written to `target/wire_figures.tsv` for
//! `scripts/bench.sh`. Timed runs are short (a few seconds each) and the
//! match is seeded, but the figures are real network measurements: expect
//! a few percent between runs.

use std::collections::VecDeque;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use quarry_net::cert::{Identity, ServerVerification};
use quarry_net::conn::{ConnStats, SnapshotOutcome};
use quarry_net::handshake::{Hello, Welcome};
use quarry_net::transport::{ClientConfig, ClientEvent, ClientTransport, ServerConfig, ServerEvent, ServerTransport, TransportSettings};
use quarry_net::usercmd::UserCmd;

#[path = "common/arena.rs"]
mod arena;
use arena::{Arena, DT};

/// Round trips the relay adds, ms.
const RTTS_MS: [u64; 3] = [0, 50, 100];
/// Time for the handshake, the first full snapshot and path MTU discovery
/// before counting starts.
const WARMUP: Duration = Duration::from_secs(2);
/// How long bytes are counted.
const MEASURE: Duration = Duration::from_secs(6);
/// IPv4 (20) and UDP (8) header bytes per datagram.
const IPV4_UDP_HEADER: u64 = 28;
/// The arena seed (the snapshot bench's table uses the same one).
const SEED: u64 = 7;
/// Server ticks (and the client's command ticks) count from 30 minutes into
/// a match, so ticks take the bytes they take in a real one.
const TICK_BASE: u32 = 30 * 60 * 60;
/// Where the client's 60 Hz command clock sits within the server's tick
/// (0 = right after the snapshot is sent, the phase that makes the server
/// wait longest for a snapshot to carry its ACKs).
const CLIENT_PHASE: Duration = Duration::from_millis(1);

/// One round trip's figures.
struct Figures {
    rtt_ms: u64,
    wire: f64,
    with_ip: f64,
    datagrams: f64,
    payload: f64,
    snapshots: f64,
    full: u64,
    base_gap: f64,
}

fn main() {
    let phase = std::env::var("QUARRY_WIRE_PHASE_MS").ok().and_then(|v| v.parse().ok()).map_or(CLIENT_PHASE, Duration::from_millis);
    println!("\nquarry-net wire bytes downstream: 16 players, 60 Hz ticks, 30 Hz snapshots, 60 commands/s, quinn over a loopback relay");
    println!("{:>8} {:>10} {:>10} {:>8} {:>12} {:>8} {:>6} {:>9}", "rtt_ms", "wire_B/s", "+ip_B/s", "pkts/s", "payload_B/s", "snaps/s", "full", "base_gap");
    let mut figures = Vec::new();
    for rtt_ms in RTTS_MS {
        let f = run(rtt_ms, phase);
        println!(
            "{:>8} {:>10.0} {:>10.0} {:>8.1} {:>12.0} {:>8.1} {:>6} {:>9.1}",
            f.rtt_ms, f.wire, f.with_ip, f.datagrams, f.payload, f.snapshots, f.full, f.base_gap
        );
        figures.push(f);
    }
    println!();
    write_tsv(&figures);
}

/// Runs one match through a relay of `rtt_ms` and measures the client's side.
fn run(rtt_ms: u64, phase: Duration) -> Figures {
    let identity = Identity::generate().expect("identity");
    let server = ServerTransport::bind(ServerConfig { bind: "127.0.0.1:0".parse().expect("addr"), identity, settings: TransportSettings::default() })
        .expect("server");
    let relay = Relay::start(server.local_addr(), Duration::from_millis(rtt_ms) / 2);
    let mut client = ClientTransport::connect(ClientConfig {
        server: relay.addr,
        verification: ServerVerification::Pinned(server.fingerprint()),
        hello: Hello::new("wire"),
        settings: TransportSettings::default(),
    })
    .expect("client");

    let t0 = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let server_thread = {
        let stop = Arc::clone(&stop);
        thread::spawn(move || serve(server, t0, t0 + WARMUP, &stop))
    };

    let frame = Duration::from_secs_f32(DT);
    let (mut start, mut snapshots_at_start) = (None::<(Instant, ConnStats)>, 0u64);
    let mut snapshots = 0u64;
    let mut n = 0u32;
    let end = t0 + WARMUP + MEASURE;
    loop {
        n += 1;
        let due = t0 + phase + frame * n;
        sleep_until(due);
        for e in client.poll_events() {
            match e {
                ClientEvent::Snapshot(_) => snapshots += 1,
                ClientEvent::Disconnected(r) => panic!("client disconnected: {r}"),
                _ => {}
            }
        }
        if client.is_connected() {
            let yaw = (n as f32 * 1.7) % 360.0;
            client.send_cmd(UserCmd { tick: TICK_BASE + n, yaw, pitch: 3.0, forward: 127, right: if n % 90 < 45 { 127 } else { -127 }, ..UserCmd::default() }).expect("command");
        }
        let now = Instant::now();
        if start.is_none() && now >= t0 + WARMUP {
            start = Some((now, client.stats()));
            snapshots_at_start = snapshots;
        }
        if now >= end {
            break;
        }
    }
    let (t1, s1) = (Instant::now(), client.stats());
    stop.store(true, Ordering::Relaxed);
    let base_gap = server_thread.join().expect("server thread");
    drop(client);
    drop(relay);

    let (t_start, s0) = start.expect("measured");
    let secs = t1.duration_since(t_start).as_secs_f64();
    let per_s = |a: u64, b: u64| b.saturating_sub(a) as f64 / secs;
    let wire = per_s(s0.wire.bytes_in, s1.wire.bytes_in);
    let datagrams = per_s(s0.wire.datagrams_in, s1.wire.datagrams_in);
    Figures {
        rtt_ms,
        wire,
        with_ip: wire + datagrams * IPV4_UDP_HEADER as f64,
        datagrams,
        payload: per_s(s0.bytes_in_total, s1.bytes_in_total),
        snapshots: (snapshots - snapshots_at_start) as f64 / secs,
        full: s1.full_snapshots,
        base_gap,
    }
}

/// The server's tick loop: accepts the one client and sends it player 0's
/// snapshot every other tick. Returns the mean base gap after `counted`.
fn serve(mut server: ServerTransport, t0: Instant, counted: Instant, stop: &AtomicBool) -> f64 {
    let (mut gaps, mut deltas) = (0u64, 0u64);
    let mut arena = Arena::new(SEED);
    let mut conn = None;
    let mut acked_cmd = 0u32;
    let tick = Duration::from_secs_f32(DT);
    while !stop.load(Ordering::Relaxed) {
        sleep_until(t0 + tick * (arena.tick + 1));
        for e in server.poll_events() {
            match e {
                ServerEvent::Connected { conn: c, .. } => {
                    server.accept(c, &Welcome { slot: 0, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() }).expect("accept");
                    conn = Some(c);
                }
                ServerEvent::UserCmds { cmds, .. } => acked_cmd = cmds.last().map_or(acked_cmd, |c| c.tick),
                ServerEvent::Disconnected { reason, .. } => panic!("server lost the client: {reason}"),
                _ => {}
            }
        }
        arena.step();
        if let Some(c) = conn.filter(|_| arena.tick.is_multiple_of(2)) {
            let mut snap = arena.snapshot_for(0);
            snap.server_tick += TICK_BASE;
            snap.acked_cmd_tick = acked_cmd.min(snap.server_tick);
            let tick = snap.server_tick;
            let outcome = server.send_snapshot(c, snap.into()).expect("snapshot");
            if let SnapshotOutcome::Sent { base_tick: Some(base), .. } = outcome
                && Instant::now() >= counted
            {
                gaps += u64::from(tick - base);
                deltas += 1;
            }
        }
    }
    gaps as f64 / deltas.max(1) as f64
}

fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        thread::sleep(t - now);
    }
}

/// A UDP relay between one client and the server that delays every
/// datagram by `one_way` in each direction (FIFO, so nothing reorders) and
/// keeps its ECN bits, as a real path does (QUIC acknowledges ECN marks
/// with counts, which cost bytes).
struct Relay {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Relay {
    fn start(server: SocketAddr, one_way: Duration) -> Self {
        let front = Arc::new(RelaySocket::bind());
        let back = Arc::new(RelaySocket::bind());
        let addr = front.socket.local_addr().expect("addr");
        let stop = Arc::new(AtomicBool::new(false));
        let client: Arc<Mutex<Option<SocketAddr>>> = Arc::default();
        let up = {
            let (front, back, stop, client) = (Arc::clone(&front), Arc::clone(&back), Arc::clone(&stop), Arc::clone(&client));
            thread::spawn(move || {
                front.forward(&back, one_way, &stop, |from| {
                    *client.lock().expect("lock") = Some(from);
                    Some(server)
                });
            })
        };
        let down = {
            let stop = Arc::clone(&stop);
            thread::spawn(move || back.forward(&front, one_way, &stop, |_| *client.lock().expect("lock")))
        };
        Self { addr, stop, threads: vec![up, down] }
    }
}

/// One side of the relay: a socket read and written through quinn's UDP
/// layer, which carries the ECN bits.
struct RelaySocket {
    socket: UdpSocket,
    state: quinn::udp::UdpSocketState,
}

impl RelaySocket {
    fn bind() -> Self {
        let socket = UdpSocket::bind("127.0.0.1:0").expect("relay socket");
        let state = quinn::udp::UdpSocketState::new((&socket).into()).expect("udp state");
        // quinn's UDP layer makes the socket non-blocking; the relay blocks until the next due time.
        socket.set_nonblocking(false).expect("blocking");
        Self { socket, state }
    }

    /// Until `stop`: reads datagrams and sends each from `out`, `one_way`
    /// later, to where `route` says (given the sender's address).
    fn forward(&self, out: &RelaySocket, one_way: Duration, stop: &AtomicBool, mut route: impl FnMut(SocketAddr) -> Option<SocketAddr>) {
        let mut held: VecDeque<(Instant, SocketAddr, Vec<u8>, Option<quinn::udp::EcnCodepoint>)> = VecDeque::new();
        let mut buf = vec![0u8; 65536];
        while !stop.load(Ordering::Relaxed) {
            let now = Instant::now();
            while let Some((due, to, bytes, ecn)) = held.front()
                && *due <= now
            {
                let t = quinn::udp::Transmit { destination: *to, ecn: *ecn, contents: bytes, segment_size: None, src_ip: None };
                let _ = out.state.send((&out.socket).into(), &t);
                held.pop_front();
            }
            let wait = held.front().map_or(Duration::from_millis(20), |h| h.0.saturating_duration_since(now));
            self.socket.set_read_timeout(Some(wait.max(Duration::from_micros(50)))).expect("timeout");
            let mut meta = [quinn::udp::RecvMeta::default()];
            let got = self.state.recv((&self.socket).into(), &mut [std::io::IoSliceMut::new(&mut buf)], &mut meta);
            let (Ok(1), [m]) = (got, meta) else { continue };
            let Some(to) = route(m.addr) else { continue };
            let due = Instant::now() + one_way;
            // A coalesced read (GRO) holds several datagrams of `stride` bytes.
            for d in buf[..m.len].chunks(m.stride.max(1)) {
                held.push_back((due, to, d.to_vec(), m.ecn));
            }
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// `name value unit command` rows for `scripts/bench.sh`.
fn write_tsv(figures: &[Figures]) {
    let command = "cargo bench -p quarry-net --bench wire";
    let mut out = String::new();
    for f in figures {
        let name = format!("wire/downstream_16_players_rtt_{}ms", f.rtt_ms);
        out.push_str(&format!("{name}\t{:.0}\tB/s (quinn UDP bytes)\t{command}\n", f.wire));
        out.push_str(&format!("{name} with IPv4+UDP headers\t{:.0}\tB/s\t{command}\n", f.with_ip));
        out.push_str(&format!("{name} datagrams\t{:.1}\tdatagrams/s\t{command}\n", f.datagrams));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let path = target.join("wire_figures.tsv");
    if let Err(e) = std::fs::write(&path, out) {
        eprintln!("could not write {}: {e}", path.display());
    }
}
