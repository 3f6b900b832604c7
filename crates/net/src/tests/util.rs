//! `Pair`: one [`ServerConn`] and one [`ClientConn`] joined by a simulated
//! network under virtual time (quinn-proto's `tests/util.rs` idea).
//!
//! Datagrams get `latency`, are dropped with probability `loss` (or always,
//! per direction, with `block_up`/`block_down`), are delayed by an extra
//! random amount with probability `reorder` (so they overtake each other),
//! and must not exceed `mtu`. The control stream is reliable and in order,
//! like a QUIC stream. A `Close` transmit reaches the peer as
//! `handle_closed` after the latency. Everything is seeded.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::conn::{ClientConn, ClientConnEvent, ConnConfig, ServerConn, ServerConnEvent, Transmit};
use crate::handshake::{Hello, Welcome};
use crate::reliable::disconnect_from_close;
use crate::transport::SplitMix64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    Up,
    Down,
}

#[derive(Debug)]
enum Packet {
    Datagram(Vec<u8>),
    Stream(Vec<u8>),
    Close { code: u32, reason: Vec<u8> },
}

/// The simulated network between one server connection and one client.
pub(crate) struct Pair {
    pub(crate) server: ServerConn,
    pub(crate) client: ClientConn,
    pub(crate) time: Instant,
    pub(crate) latency: Duration,
    pub(crate) loss: f64,
    pub(crate) reorder: f64,
    pub(crate) mtu: usize,
    pub(crate) block_up: bool,
    pub(crate) block_down: bool,
    pub(crate) server_events: Vec<ServerConnEvent>,
    pub(crate) client_events: Vec<ClientConnEvent>,
    /// Datagram payload bytes that left the server / the client.
    pub(crate) bytes_down: u64,
    pub(crate) bytes_up: u64,
    pub(crate) dropped: u64,
    rng: SplitMix64,
    // Stream bytes keep their order: one queue per direction, datagrams
    // in a separate list ordered by delivery time.
    streams: [VecDeque<(Instant, Packet)>; 2],
    datagrams: Vec<(Instant, Dir, Vec<u8>)>,
}

/// The step the harness advances virtual time by.
const STEP: Duration = Duration::from_millis(1);

impl Pair {
    /// A pair with 20 ms one-way latency, no loss, a 1,200-byte datagram
    /// limit, and the client's Hello already queued.
    pub(crate) fn new(seed: u64, hello: Hello) -> Self {
        Self::with_config(seed, hello, &ConnConfig::default())
    }

    /// A pair with the given connection tuning.
    pub(crate) fn with_config(seed: u64, hello: Hello, config: &ConnConfig) -> Self {
        let time = Instant::now();
        Self {
            server: ServerConn::new(config, time),
            client: ClientConn::new(config, hello, time),
            time,
            latency: Duration::from_millis(20),
            loss: 0.0,
            reorder: 0.0,
            mtu: 1200,
            block_up: false,
            block_down: false,
            server_events: Vec::new(),
            client_events: Vec::new(),
            bytes_down: 0,
            bytes_up: 0,
            dropped: 0,
            rng: SplitMix64::new(seed),
            streams: [VecDeque::new(), VecDeque::new()],
            datagrams: Vec::new(),
        }
    }

    /// Runs the handshake to the Welcome; panics (it is a test) otherwise.
    pub(crate) fn connect(seed: u64) -> Self {
        let mut p = Self::new(seed, Hello::new("tester"));
        p.advance(Duration::from_millis(50));
        assert!(matches!(p.server_events.pop(), Some(ServerConnEvent::Hello(_))), "no hello");
        p.server.accept(&Welcome { slot: 1, map: "q_dm1".into(), tick_rate: 60, snapshot_rate: 30, ..Welcome::default() }).expect("accept");
        p.advance(Duration::from_millis(50));
        assert!(matches!(p.client_events.pop(), Some(ClientConnEvent::Welcomed(_))), "no welcome");
        p.server_events.clear();
        p.client_events.clear();
        p
    }

    fn queue(&mut self, dir: Dir, t: Transmit) {
        let at = self.time + self.latency;
        match t {
            Transmit::Datagram(d) => {
                assert!(d.len() <= self.mtu, "datagram of {} bytes exceeds mtu {}", d.len(), self.mtu);
                match dir {
                    Dir::Up => self.bytes_up += d.len() as u64,
                    Dir::Down => self.bytes_down += d.len() as u64,
                }
                let blocked = match dir {
                    Dir::Up => self.block_up,
                    Dir::Down => self.block_down,
                };
                if blocked || self.rng.chance(self.loss) {
                    self.dropped += 1;
                    return;
                }
                let extra = if self.rng.chance(self.reorder) { Duration::from_millis(self.rng.next_u64() % 40) } else { Duration::ZERO };
                self.datagrams.push((at + extra, dir, d));
            }
            Transmit::Stream(b) => self.stream(dir).push_back((at, Packet::Stream(b))),
            Transmit::Close { code, reason } => self.stream(dir).push_back((at, Packet::Close { code, reason })),
        }
    }

    fn stream(&mut self, dir: Dir) -> &mut VecDeque<(Instant, Packet)> {
        let [up, down] = &mut self.streams;
        if dir == Dir::Up { up } else { down }
    }

    /// Moves everything both sides want to send onto the network.
    pub(crate) fn flush(&mut self) {
        while let Some(t) = self.server.poll_transmit() {
            self.queue(Dir::Down, t);
        }
        while let Some(t) = self.client.poll_transmit() {
            self.queue(Dir::Up, t);
        }
    }

    fn deliver(&mut self, dir: Dir, p: Packet) {
        let now = self.time;
        match (dir, p) {
            (Dir::Up, Packet::Datagram(d)) => self.server.handle_datagram(now, &d),
            (Dir::Down, Packet::Datagram(d)) => self.client.handle_datagram(now, &d),
            (Dir::Up, Packet::Stream(b)) => self.server.handle_stream_data(now, &b),
            (Dir::Down, Packet::Stream(b)) => self.client.handle_stream_data(now, &b),
            (Dir::Up, Packet::Close { code, reason }) => self.server.handle_closed(disconnect_from_close(u64::from(code), &reason)),
            (Dir::Down, Packet::Close { code, reason }) => self.client.handle_closed(disconnect_from_close(u64::from(code), &reason)),
        }
    }

    /// One millisecond of virtual time: deliver what is due, run timers,
    /// collect events, send what was produced.
    pub(crate) fn step(&mut self) {
        self.flush();
        self.time += STEP;
        let now = self.time;
        for dir in [Dir::Up, Dir::Down] {
            while self.stream(dir).front().is_some_and(|(at, _)| *at <= now) {
                if let Some((_, p)) = self.stream(dir).pop_front() {
                    self.deliver(dir, p);
                }
            }
        }
        let mut due: Vec<_> = Vec::new();
        let mut i = 0;
        while i < self.datagrams.len() {
            if self.datagrams.get(i).is_some_and(|(at, _, _)| *at <= now) {
                due.push(self.datagrams.swap_remove(i));
            } else {
                i += 1;
            }
        }
        due.sort_by_key(|(at, _, _)| *at);
        for (_, dir, d) in due {
            self.deliver(dir, Packet::Datagram(d));
        }
        self.server.handle_timeout(now);
        self.client.handle_timeout(now);
        while let Some(e) = self.server.poll_event() {
            self.server_events.push(e);
        }
        while let Some(e) = self.client.poll_event() {
            self.client_events.push(e);
        }
        self.flush();
    }

    /// Runs `step` for `dt` of virtual time.
    pub(crate) fn advance(&mut self, dt: Duration) {
        let end = self.time + dt;
        while self.time < end {
            self.step();
        }
    }
}
