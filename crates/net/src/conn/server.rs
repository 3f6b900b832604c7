//! The server's side of one client connection.

use std::collections::VecDeque;
use std::time::Instant;

use tracing::debug;

use super::limits::{Kind, Limiter};
use super::meter::{PerSecond, RateBudget, Traffic};
use super::{ConnConfig, ConnError, ConnStats, DATAGRAM_OVERHEAD, SnapshotError, Transmit};
use crate::codec::{FrameBuffer, Reader, Writer, encode_frame};
use crate::datagram::{DatagramKind, read_header};
use crate::delta::encode_shared_snapshot;
use crate::handshake::{Hello, PROTOCOL_VERSION, RejectReason, Welcome};
use crate::reliable::{ClientFrame, ClientMessage, DisconnectReason, ServerFrame, ServerMessage, disconnect_to_close};
use crate::snapshot::SharedSnapshot;
use crate::usercmd::{CmdDedup, CmdPacket, UserCmd};

/// What a client connection reports to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerConnEvent {
    /// The client said hello (right version); answer with
    /// [`ServerConn::accept`] or [`ServerConn::reject`].
    Hello(Hello),
    /// New user commands, oldest first, each tick delivered once.
    UserCmds(Vec<UserCmd>),
    /// The client acknowledged a newer snapshot.
    SnapshotAcked(u32),
    /// A reliable message.
    Message(ClientMessage),
    /// A malformed datagram was dropped; `count` is the total so far.
    Misbehaving {
        /// Malformed datagrams and frames so far.
        count: u64,
    },
    /// The connection is over (whoever ended it); sent once.
    Closed(DisconnectReason),
}

/// What [`ServerConn::send_snapshot`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotOutcome {
    /// Queued as datagrams.
    Sent {
        /// Encoded snapshot bytes (before fragment headers).
        bytes: usize,
        /// Datagrams it took.
        datagrams: usize,
        /// The acknowledged snapshot it is a delta against; `None` = full.
        base_tick: Option<u32>,
    },
    /// Skipped: the client's byte-rate budget is spent. Nothing is lost; the
    /// next snapshot is a delta against what the client acknowledged.
    RateLimited,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    AwaitingHello { since: Instant },
    AwaitingDecision,
    Active,
    Closed,
}

/// Server-side protocol state of one client; see the [module docs](super)
/// for the call order.
#[derive(Debug)]
pub struct ServerConn {
    config: ConnConfig,
    phase: Phase,
    frames: FrameBuffer,
    events: VecDeque<ServerConnEvent>,
    transmits: VecDeque<Transmit>,
    dedup: CmdDedup,
    history: VecDeque<SharedSnapshot>,
    acked: Option<u32>,
    last_sent: Option<u32>,
    budget: RateBudget,
    seq: u16,
    traffic: Traffic,
    garbage: PerSecond,
    limiter: Limiter,
    rate_limited: u64,
    full: u64,
    malformed: u64,
    max_datagram: usize,
    tick_rate: u16,
}

impl ServerConn {
    /// State for a connection that was just accepted by QUIC at `now`.
    pub fn new(config: &ConnConfig, now: Instant) -> Self {
        let (lo, hi) = config.rate_range;
        Self {
            config: config.clone(),
            phase: Phase::AwaitingHello { since: now },
            frames: FrameBuffer::new(),
            events: VecDeque::new(),
            transmits: VecDeque::new(),
            dedup: CmdDedup::new(),
            history: VecDeque::with_capacity(config.history_len),
            acked: None,
            last_sent: None,
            budget: RateBudget::new(config.default_rate.clamp(lo, hi.max(lo)), now),
            seq: 0,
            traffic: Traffic::new(now),
            garbage: PerSecond::default(),
            limiter: Limiter::new(&config.limits, now),
            rate_limited: 0,
            full: 0,
            malformed: 0,
            max_datagram: 0,
            tick_rate: 0,
        }
    }

    /// Whether the client was accepted and is still connected.
    pub fn is_active(&self) -> bool {
        self.phase == Phase::Active
    }

    /// Whether the connection is over (only closing transmits remain).
    pub fn is_closed(&self) -> bool {
        self.phase == Phase::Closed
    }

    /// Bytes read from the client's control stream.
    pub fn handle_stream_data(&mut self, now: Instant, data: &[u8]) {
        self.roll_windows(now);
        if self.is_closed() {
            return;
        }
        self.traffic.bytes_in.add(data.len() as u64);
        self.frames.push(data);
        while !self.is_closed() {
            match self.frames.next_frame() {
                Ok(Some(payload)) => self.handle_frame(now, &payload),
                Ok(None) => break,
                Err(e) => {
                    self.malformed += 1;
                    self.close(DisconnectReason::Misbehaving(format!("bad control stream: {e}")), true);
                }
            }
        }
    }

    fn handle_frame(&mut self, now: Instant, payload: &[u8]) {
        if let Phase::AwaitingHello { .. } = self.phase
            && let Some(version) = ClientFrame::peek_hello_version(payload)
            && version != PROTOCOL_VERSION
        {
            let reason = RejectReason::WrongVersion { server: PROTOCOL_VERSION, client: version };
            debug!(%reason, "rejecting hello");
            self.send_frame(&ServerFrame::Reject(reason.clone()));
            self.close(DisconnectReason::Rejected(reason), false);
            return;
        }
        let frame = match ClientFrame::decode(payload) {
            Ok(f) => f,
            Err(e) => {
                self.malformed += 1;
                return self.close(DisconnectReason::Misbehaving(format!("bad control frame: {e}")), true);
            }
        };
        match (self.phase, frame) {
            (Phase::AwaitingHello { .. }, ClientFrame::Hello(h)) => {
                self.phase = Phase::AwaitingDecision;
                self.events.push_back(ServerConnEvent::Hello(h));
            }
            (_, ClientFrame::Hello(_)) => self.close(DisconnectReason::Misbehaving("second hello".into()), true),
            (Phase::AwaitingHello { .. }, ClientFrame::Message(_)) => {
                self.close(DisconnectReason::Misbehaving("message before hello".into()), true);
            }
            (_, ClientFrame::Message(ClientMessage::Quit)) => self.close(DisconnectReason::Quit, false),
            (Phase::Active, ClientFrame::Message(m)) => {
                if self.allowed(Kind::of(&m), now) {
                    self.events.push_back(ServerConnEvent::Message(m));
                }
            }
            (_, ClientFrame::Message(m)) => debug!(?m, "message before welcome ignored"),
        }
    }

    /// One datagram received from the client.
    pub fn handle_datagram(&mut self, now: Instant, data: &[u8]) {
        self.roll_windows(now);
        if self.is_closed() {
            return;
        }
        self.traffic.bytes_in.add(data.len() as u64);
        if !self.allowed(Some(Kind::Datagram), now) {
            return;
        }
        let mut r = Reader::new(data);
        let packet = match read_header(&mut r) {
            Ok((DatagramKind::Commands, seq)) => {
                self.traffic.loss.record(seq);
                CmdPacket::decode(&mut r)
            }
            Ok((DatagramKind::SnapshotFragment | DatagramKind::Snapshot, _)) => Err(crate::codec::DecodeError::Invalid("snapshot from a client")),
            Err(e) => Err(e),
        };
        let packet = match packet {
            Ok(p) => p,
            Err(e) => return self.garbage(&e),
        };
        if self.phase != Phase::Active {
            return;
        }
        if let Some(ack) = packet.snapshot_ack
            && self.acked.is_none_or(|a| ack > a)
            && self.last_sent.is_some_and(|s| ack <= s)
        {
            self.acked = Some(ack);
            self.events.push_back(ServerConnEvent::SnapshotAcked(ack));
        }
        let cmds = self.dedup.filter(packet.cmds);
        if !cmds.is_empty() {
            self.events.push_back(ServerConnEvent::UserCmds(cmds));
        }
    }

    /// Whether a message of `kind` is within its rate limit (`None`: never
    /// limited). A client whose drops this second reach the flood limit is
    /// disconnected.
    fn allowed(&mut self, kind: Option<Kind>, now: Instant) -> bool {
        let Some(kind) = kind else { return true };
        if self.limiter.allow(kind, now) {
            return true;
        }
        if let Some(n) = self.limiter.flooding() {
            self.close(DisconnectReason::Misbehaving(format!("flooding: {n} messages over the rate limits in one second")), true);
        }
        false
    }

    fn garbage(&mut self, e: &crate::codec::DecodeError) {
        self.malformed += 1;
        self.garbage.add(1);
        debug!(error = %e, count = self.malformed, "malformed datagram dropped");
        self.events.push_back(ServerConnEvent::Misbehaving { count: self.malformed });
        if self.garbage.current() > u64::from(self.config.garbage_per_second) {
            let n = self.garbage.current();
            self.close(DisconnectReason::Misbehaving(format!("{n} malformed datagrams in one second")), true);
        }
    }

    /// Lets the client in: sends the Welcome.
    pub fn accept(&mut self, welcome: &Welcome) -> Result<(), ConnError> {
        match self.phase {
            Phase::AwaitingDecision => {
                self.send_frame(&ServerFrame::Welcome(welcome.clone()));
                self.tick_rate = welcome.tick_rate;
                self.phase = Phase::Active;
                Ok(())
            }
            Phase::Closed => Err(ConnError::Closed),
            _ => Err(ConnError::WrongState { expected: "waiting for a decision" }),
        }
    }

    /// Refuses the client with a reason it will show, then closes.
    pub fn reject(&mut self, reason: RejectReason) -> Result<(), ConnError> {
        match self.phase {
            Phase::AwaitingDecision => {
                self.send_frame(&ServerFrame::Reject(reason.clone()));
                self.close(DisconnectReason::Rejected(reason), false);
                Ok(())
            }
            Phase::Closed => Err(ConnError::Closed),
            _ => Err(ConnError::WrongState { expected: "waiting for a decision" }),
        }
    }

    /// Queues a reliable message (accepted clients only).
    pub fn send_message(&mut self, msg: &ServerMessage) -> Result<(), ConnError> {
        match self.phase {
            Phase::Active => {
                self.send_frame(&ServerFrame::Message(msg.clone()));
                Ok(())
            }
            Phase::Closed => Err(ConnError::Closed),
            _ => Err(ConnError::WrongState { expected: "accepted" }),
        }
    }

    /// Ends the connection: tells the client why (reliably, then in the
    /// QUIC close), and reports [`ServerConnEvent::Closed`]. No-op if closed.
    pub fn disconnect(&mut self, reason: DisconnectReason) {
        self.close(reason, true);
    }

    fn close(&mut self, reason: DisconnectReason, tell: bool) {
        if self.is_closed() {
            return;
        }
        if tell {
            self.send_frame(&ServerFrame::Message(ServerMessage::Disconnect(reason.clone())));
        }
        let (code, bytes) = disconnect_to_close(&reason);
        self.transmits.push_back(Transmit::Close { code, reason: bytes });
        self.phase = Phase::Closed;
        self.events.push_back(ServerConnEvent::Closed(reason));
    }

    fn send_frame(&mut self, frame: &ServerFrame) {
        let mut out = Vec::new();
        encode_frame(&frame.encode(), &mut out);
        self.traffic.bytes_out.add(out.len() as u64);
        self.transmits.push_back(Transmit::Stream(out));
    }

    /// Sets the client's byte-rate cap (bytes/s), clamped to the configured range.
    pub fn set_rate(&mut self, bytes_per_sec: u32) {
        let (lo, hi) = self.config.rate_range;
        self.budget.set_rate(bytes_per_sec.clamp(lo, hi.max(lo)));
    }

    /// Sets the server tick rate used to predict entity motion in deltas
    /// (taken from the Welcome; call again if the tick rate changes).
    pub fn set_tick_rate(&mut self, ticks_per_second: u16) {
        self.tick_rate = ticks_per_second;
    }

    /// Forgets every delta base, so the next snapshot is full (e.g. after a
    /// map change). Server ticks must still increase.
    pub fn reset_baseline(&mut self) {
        self.history.clear();
        self.acked = None;
    }

    /// Encodes `snapshot` against the newest acknowledged one still in the
    /// history (or in full), splits it into datagrams of at most
    /// `max_datagram` bytes and queues them, unless the byte-rate budget is
    /// spent. `snapshot.server_tick` must increase from call to call.
    pub fn send_snapshot(&mut self, now: Instant, snapshot: SharedSnapshot, max_datagram: usize) -> Result<SnapshotOutcome, SnapshotError> {
        self.roll_windows(now);
        match self.phase {
            Phase::Active => {}
            Phase::Closed => return Err(ConnError::Closed.into()),
            _ => return Err(ConnError::WrongState { expected: "accepted" }.into()),
        }
        if let Some(last) = self.last_sent
            && snapshot.server_tick <= last
        {
            return Err(SnapshotError::StaleTick { last, tick: snapshot.server_tick });
        }
        self.max_datagram = max_datagram;
        if !self.budget.allows(now) {
            self.rate_limited += 1;
            return Ok(SnapshotOutcome::RateLimited);
        }
        let base = self.acked.and_then(|a| self.history.iter().find(|s| s.server_tick == a));
        let base_tick = base.map(|b| b.server_tick);
        let mut w = Writer::with_capacity(512);
        encode_shared_snapshot(base, &snapshot, self.tick_rate, &mut w)?;
        let payload = w.into_inner();
        let mut seq = self.seq;
        let datagrams = crate::fragment::split(snapshot.server_tick, &payload, max_datagram, || {
            seq = seq.wrapping_add(1);
            seq
        })?;
        self.seq = seq;
        let n = datagrams.len();
        for d in datagrams {
            self.budget.spend(d.len() + DATAGRAM_OVERHEAD);
            self.traffic.bytes_out.add(d.len() as u64);
            self.transmits.push_back(Transmit::Datagram(d));
        }
        if base.is_none() {
            self.full += 1;
        }
        self.traffic.snapshots.add(1);
        self.last_sent = Some(snapshot.server_tick);
        self.history.push_back(snapshot);
        // Acks only move forward, so nothing older than the ack is a base again.
        while self.history.len() > self.config.history_len.max(1) || self.history.front().is_some_and(|s| self.acked.is_some_and(|a| s.server_tick < a)) {
            self.history.pop_front();
        }
        Ok(SnapshotOutcome::Sent { bytes: payload.len(), datagrams: n, base_tick })
    }

    /// Advances timers: statistics windows and the Hello deadline.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.roll_windows(now);
        if let Phase::AwaitingHello { since } = self.phase
            && now.saturating_duration_since(since) >= self.config.hello_timeout
        {
            self.close(DisconnectReason::Timeout, false);
        }
    }

    /// When [`ServerConn::handle_timeout`] must be called next.
    pub fn poll_timeout(&self) -> Option<Instant> {
        match self.phase {
            Phase::Closed => None,
            Phase::AwaitingHello { since } => Some(self.traffic.window.next().min(since + self.config.hello_timeout)),
            _ => Some(self.traffic.window.next()),
        }
    }

    fn roll_windows(&mut self, now: Instant) {
        if self.traffic.roll_if_due(now) {
            self.garbage.roll();
            self.limiter.roll();
        }
    }

    /// The QUIC connection ended from outside this state machine (peer
    /// closed it, idle timeout, transport error): records `reason` and
    /// reports it unless the connection had already closed itself.
    pub fn handle_closed(&mut self, reason: DisconnectReason) {
        if !self.is_closed() {
            self.phase = Phase::Closed;
            self.events.push_back(ServerConnEvent::Closed(reason));
        }
    }

    /// The next thing to send, in order.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    /// The next thing that happened.
    pub fn poll_event(&mut self) -> Option<ServerConnEvent> {
        self.events.pop_front()
    }

    /// Counters for `status`.
    pub fn stats(&self) -> ConnStats {
        ConnStats {
            snapshots_rate_limited: self.rate_limited,
            full_snapshots: self.full,
            malformed: self.malformed,
            snapshot_tick: self.acked,
            rate: self.budget.rate(),
            max_datagram: self.max_datagram,
            limited: self.limiter.dropped(),
            ..self.traffic.stats()
        }
    }
}
