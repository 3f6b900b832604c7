//! The client's side of its connection to a server.

use std::collections::VecDeque;
use std::time::Instant;

use tracing::debug;

use super::meter::Traffic;
use super::{ConnConfig, ConnError, ConnStats, Transmit};
use crate::codec::{DecodeError, FrameBuffer, Reader, Writer, encode_frame};
use crate::datagram::{DatagramKind, read_header, write_header};
use crate::delta::decode_snapshot;
use crate::fragment::Reassembler;
use crate::handshake::{Hello, Welcome};
use crate::reliable::{ClientFrame, ClientMessage, DisconnectReason, ServerFrame, ServerMessage, disconnect_to_close};
use crate::snapshot::Snapshot;
use crate::usercmd::{CmdHistory, CmdPacket, UserCmd};

/// What the connection reports to the client.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientConnEvent {
    /// The server let us in.
    Welcomed(Welcome),
    /// A new snapshot, fully reconstructed (newer than every one before).
    Snapshot(Snapshot),
    /// A reliable message (chat, print, scoreboard, map change, …).
    Message(ServerMessage),
    /// The connection is over; a refused handshake is
    /// [`DisconnectReason::Rejected`] with the server's reason. Sent once.
    Closed(DisconnectReason),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    AwaitingWelcome { since: Instant },
    Active,
    Closed,
}

/// Client-side protocol state; see the [module docs](super) for the call order.
#[derive(Debug)]
pub struct ClientConn {
    config: ConnConfig,
    phase: Phase,
    frames: FrameBuffer,
    events: VecDeque<ClientConnEvent>,
    transmits: VecDeque<Transmit>,
    cmds: CmdHistory,
    history: VecDeque<Snapshot>,
    reassembler: Reassembler,
    ack_due: Option<Instant>,
    seq: u16,
    traffic: Traffic,
    full: u64,
    undecodable: u64,
    malformed: u64,
}

impl ClientConn {
    /// State for a fresh connection; queues the Hello on the control stream.
    pub fn new(config: &ConnConfig, hello: Hello, now: Instant) -> Self {
        let mut c = Self {
            config: config.clone(),
            phase: Phase::AwaitingWelcome { since: now },
            frames: FrameBuffer::new(),
            events: VecDeque::new(),
            transmits: VecDeque::new(),
            cmds: CmdHistory::new(config.cmd_redundancy),
            history: VecDeque::with_capacity(config.history_len),
            reassembler: Reassembler::new(),
            ack_due: None,
            seq: 0,
            traffic: Traffic::new(now),
            full: 0,
            undecodable: 0,
            malformed: 0,
        };
        c.send_frame(&ClientFrame::Hello(hello));
        c
    }

    /// Whether the server welcomed us and the connection is open.
    pub fn is_active(&self) -> bool {
        self.phase == Phase::Active
    }

    /// Whether the connection is over.
    pub fn is_closed(&self) -> bool {
        self.phase == Phase::Closed
    }

    /// The newest snapshot decoded.
    pub fn latest_snapshot(&self) -> Option<&Snapshot> {
        self.history.back()
    }

    /// Bytes read from the control stream.
    pub fn handle_stream_data(&mut self, now: Instant, data: &[u8]) {
        self.roll_windows(now);
        if self.is_closed() {
            return;
        }
        self.traffic.bytes_in.add(data.len() as u64);
        self.frames.push(data);
        while !self.is_closed() {
            match self.frames.next_frame() {
                Ok(Some(payload)) => self.handle_frame(&payload),
                Ok(None) => break,
                Err(e) => {
                    self.malformed += 1;
                    self.close(DisconnectReason::Misbehaving(format!("bad control stream from server: {e}")));
                }
            }
        }
    }

    fn handle_frame(&mut self, payload: &[u8]) {
        let frame = match ServerFrame::decode(payload) {
            Ok(f) => f,
            Err(e) => {
                self.malformed += 1;
                return self.close(DisconnectReason::Misbehaving(format!("bad control frame from server: {e}")));
            }
        };
        match (self.phase, frame) {
            (Phase::AwaitingWelcome { .. }, ServerFrame::Welcome(w)) => {
                self.phase = Phase::Active;
                self.events.push_back(ClientConnEvent::Welcomed(w));
            }
            (_, ServerFrame::Reject(r)) => self.close(DisconnectReason::Rejected(r)),
            (_, ServerFrame::Message(ServerMessage::Disconnect(reason))) => self.close(reason),
            (Phase::Active, ServerFrame::Message(m)) => self.events.push_back(ClientConnEvent::Message(m)),
            (Phase::Active, ServerFrame::Welcome(_)) => {
                self.close(DisconnectReason::Misbehaving("second welcome from server".into()));
            }
            (_, f) => debug!(?f, "frame before welcome ignored"),
        }
    }

    /// One datagram received from the server.
    pub fn handle_datagram(&mut self, now: Instant, data: &[u8]) {
        self.roll_windows(now);
        if !self.is_active() {
            return;
        }
        self.traffic.bytes_in.add(data.len() as u64);
        let mut r = Reader::new(data);
        let done = match read_header(&mut r) {
            Ok((DatagramKind::SnapshotFragment, seq)) => {
                self.traffic.loss.record(seq);
                self.reassembler.push(&mut r)
            }
            Ok((DatagramKind::Snapshot, seq)) => {
                self.traffic.loss.record(seq);
                self.reassembler.push_whole(r.take_rest())
            }
            Ok((DatagramKind::Commands, _)) => Err(DecodeError::Invalid("commands from the server")),
            Err(e) => Err(e),
        };
        let (_, bytes) = match done {
            Ok(Some(done)) => done,
            Ok(None) => return,
            Err(e) => {
                self.malformed += 1;
                return debug!(error = %e, "malformed datagram from server dropped");
            }
        };
        let full = matches!(crate::delta::peek_snapshot_ticks(&bytes), Ok(t) if t.base_tick.is_none());
        match decode_snapshot(&bytes, |base| self.history.iter().find(|s| s.server_tick == base)) {
            Ok(s) if self.history.back().is_none_or(|b| s.server_tick > b.server_tick) => {
                self.full += u64::from(full);
                self.traffic.snapshots.add(1);
                self.history.push_back(s.clone());
                while self.history.len() > self.config.history_len.max(1) {
                    self.history.pop_front();
                }
                self.ack_due.get_or_insert(now + self.config.ack_delay);
                self.events.push_back(ClientConnEvent::Snapshot(s));
            }
            Ok(_) => {}
            Err(DecodeError::MissingBase(t)) => {
                self.undecodable += 1;
                debug!(base = t, "snapshot against an unknown base dropped");
            }
            Err(e) => {
                self.malformed += 1;
                debug!(error = %e, "undecodable snapshot dropped");
            }
        }
    }

    /// Records this tick's command and sends a datagram with the newest
    /// few commands and the snapshot ack. A command whose tick is not newer
    /// than the previous one is ignored.
    pub fn send_cmd(&mut self, cmd: UserCmd) -> Result<(), ConnError> {
        match self.phase {
            Phase::Active => {}
            Phase::Closed => return Err(ConnError::Closed),
            Phase::AwaitingWelcome { .. } => return Err(ConnError::WrongState { expected: "welcomed" }),
        }
        if self.cmds.push(cmd) {
            self.send_cmd_datagram();
        }
        Ok(())
    }

    fn send_cmd_datagram(&mut self) {
        self.seq = self.seq.wrapping_add(1);
        let mut w = Writer::with_capacity(64);
        write_header(&mut w, DatagramKind::Commands, self.seq);
        CmdPacket { snapshot_ack: self.history.back().map(|s| s.server_tick), cmds: self.cmds.window() }.encode(&mut w);
        self.traffic.bytes_out.add(w.len() as u64);
        self.transmits.push_back(Transmit::Datagram(w.into_inner()));
        self.ack_due = None;
    }

    /// Queues a reliable message.
    pub fn send_message(&mut self, msg: &ClientMessage) -> Result<(), ConnError> {
        match self.phase {
            Phase::Active => {
                self.send_frame(&ClientFrame::Message(msg.clone()));
                Ok(())
            }
            Phase::Closed => Err(ConnError::Closed),
            Phase::AwaitingWelcome { .. } => Err(ConnError::WrongState { expected: "welcomed" }),
        }
    }

    /// Leaves: tells the server (reliably and in the QUIC close). No-op if closed.
    pub fn disconnect(&mut self) {
        if !self.is_closed() {
            self.send_frame(&ClientFrame::Message(ClientMessage::Quit));
            self.close(DisconnectReason::Quit);
        }
    }

    fn close(&mut self, reason: DisconnectReason) {
        if self.is_closed() {
            return;
        }
        let (code, bytes) = disconnect_to_close(&reason);
        self.transmits.push_back(Transmit::Close { code, reason: bytes });
        self.phase = Phase::Closed;
        self.events.push_back(ClientConnEvent::Closed(reason));
    }

    fn send_frame(&mut self, frame: &ClientFrame) {
        let mut out = Vec::new();
        encode_frame(&frame.encode(), &mut out);
        self.traffic.bytes_out.add(out.len() as u64);
        self.transmits.push_back(Transmit::Stream(out));
    }

    /// Advances timers: the Welcome deadline, the delayed ack, statistics.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.roll_windows(now);
        match self.phase {
            Phase::AwaitingWelcome { since } if now.saturating_duration_since(since) >= self.config.welcome_timeout => {
                self.close(DisconnectReason::Timeout);
            }
            Phase::Active if self.ack_due.is_some_and(|t| now >= t) => self.send_cmd_datagram(),
            _ => {}
        }
    }

    /// When [`ClientConn::handle_timeout`] must be called next.
    pub fn poll_timeout(&self) -> Option<Instant> {
        match self.phase {
            Phase::Closed => None,
            Phase::AwaitingWelcome { since } => Some(self.traffic.window.next().min(since + self.config.welcome_timeout)),
            Phase::Active => Some(self.ack_due.map_or(self.traffic.window.next(), |t| t.min(self.traffic.window.next()))),
        }
    }

    fn roll_windows(&mut self, now: Instant) {
        self.traffic.roll_if_due(now);
    }

    /// The QUIC connection ended from outside this state machine (peer
    /// closed it, idle timeout, transport error): records `reason` and
    /// reports it unless the connection had already closed itself.
    pub fn handle_closed(&mut self, reason: DisconnectReason) {
        if !self.is_closed() {
            self.phase = Phase::Closed;
            self.events.push_back(ClientConnEvent::Closed(reason));
        }
    }

    /// The next thing to send, in order.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    /// The next thing that happened.
    pub fn poll_event(&mut self) -> Option<ClientConnEvent> {
        self.events.pop_front()
    }

    /// Counters for `--stats`.
    pub fn stats(&self) -> ConnStats {
        ConnStats {
            full_snapshots: self.full,
            snapshots_undecodable: self.undecodable,
            malformed: self.malformed,
            snapshot_tick: self.history.back().map(|s| s.server_tick),
            ..self.traffic.stats()
        }
    }
}
