//! User commands on the wire: the client's input, sent redundantly.
//!
//! Every client datagram carries the newest few commands (Quake 3's
//! `cl_packetdup`), so one lost datagram costs nothing: the next one repeats
//! what it held. Within a datagram each command is delta-coded against the
//! one before it (the first against an all-zero command), so an unchanged
//! command costs two bytes. The same datagram acknowledges the newest
//! snapshot the client has decoded, which is what the server deltas against.
//!
//! A command is the movement core's [`UserCmd`], the one type the client
//! fills, the wire carries and the simulation runs; this module only frames
//! it. The server side keeps the highest tick it delivered per connection
//! and drops everything at or below it ([`CmdDedup`], ioq3 `SV_UserMove`).
//! Values are not clamped here beyond "angles are finite":
//! [`UserCmd::sanitise`] owns the game ranges.

pub use quarry_movement::{Buttons, UserCmd};

use crate::codec::{DecodeError, Reader, Writer};

/// The most commands one datagram may carry (ioq3 `MAX_PACKET_USERCMDS` is
/// 32; we send far fewer, this is the decoder's bound).
pub const MAX_CMDS_PER_DATAGRAM: usize = 16;

/// Commands repeated in each datagram by default: with 20 % independent
/// loss a command is lost only if 4 datagrams in a row are (0.16 %).
pub const DEFAULT_CMD_REDUNDANCY: usize = 4;

const F_PITCH: u8 = 1;
const F_YAW: u8 = 1 << 1;
const F_FORWARD: u8 = 1 << 2;
const F_RIGHT: u8 = 1 << 3;
const F_UP: u8 = 1 << 4;
const F_BUTTONS: u8 = 1 << 5;
const F_WEAPON: u8 = 1 << 6;
const F_ALL: u8 = 0x7f;

/// The body of a client-to-server command datagram.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CmdPacket {
    /// The newest snapshot tick the client decoded, if any.
    pub snapshot_ack: Option<u32>,
    /// The newest commands, oldest first, ticks strictly increasing.
    pub cmds: Vec<UserCmd>,
}

impl CmdPacket {
    /// Appends the encoded packet to `w`.
    ///
    /// ```text
    /// varint  ack         0 = no snapshot yet, else snapshot tick + 1
    /// u8      count       0..=MAX_CMDS_PER_DATAGRAM
    /// count × command, each against the previous (the first against zero):
    ///   varint  tick      first: absolute tick; then: tick - previous tick (>= 1)
    ///   u8      changed   bit 0 pitch, 1 yaw, 2 forward, 3 right, 4 up,
    ///                     5 buttons, 6 weapon; bit 7 must be 0
    ///   f32     pitch     if changed (IEEE bits, exact)
    ///   f32     yaw       if changed
    ///   i8      forward   if changed
    ///   i8      right     if changed
    ///   i8      up        if changed
    ///   varint  buttons   if changed
    ///   u8      weapon    if changed
    /// ```
    ///
    /// Commands beyond [`MAX_CMDS_PER_DATAGRAM`] (the oldest) are left out.
    pub fn encode(&self, w: &mut Writer) {
        w.varint(self.snapshot_ack.map_or(0, |t| u64::from(t) + 1));
        let skip = self.cmds.len().saturating_sub(MAX_CMDS_PER_DATAGRAM);
        let cmds = self.cmds.get(skip..).unwrap_or_default();
        w.u8(cmds.len() as u8);
        let mut prev = UserCmd::default();
        for (i, c) in cmds.iter().enumerate() {
            w.varint(u64::from(if i == 0 { c.tick } else { c.tick.wrapping_sub(prev.tick) }));
            let mut mask = 0;
            let bits = |a: f32, b: f32| a.to_bits() != b.to_bits();
            mask |= if bits(c.pitch, prev.pitch) { F_PITCH } else { 0 };
            mask |= if bits(c.yaw, prev.yaw) { F_YAW } else { 0 };
            mask |= if c.forward != prev.forward { F_FORWARD } else { 0 };
            mask |= if c.right != prev.right { F_RIGHT } else { 0 };
            mask |= if c.up != prev.up { F_UP } else { 0 };
            mask |= if c.buttons != prev.buttons { F_BUTTONS } else { 0 };
            mask |= if c.weapon != prev.weapon { F_WEAPON } else { 0 };
            w.u8(mask);
            if mask & F_PITCH != 0 {
                w.f32(c.pitch);
            }
            if mask & F_YAW != 0 {
                w.f32(c.yaw);
            }
            for (bit, v) in [(F_FORWARD, c.forward), (F_RIGHT, c.right), (F_UP, c.up)] {
                if mask & bit != 0 {
                    w.u8(v as u8);
                }
            }
            if mask & F_BUTTONS != 0 {
                w.varint(u64::from(c.buttons.0));
            }
            if mask & F_WEAPON != 0 {
                w.u8(c.weapon);
            }
            prev = *c;
        }
    }

    /// Decodes a packet written by [`CmdPacket::encode`]; the reader must
    /// hold exactly the packet.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let ack = r.varint()?;
        let snapshot_ack = match ack {
            0 => None,
            n => Some(u32::try_from(n - 1).map_err(|_| DecodeError::OutOfRange { what: "snapshot ack" })?),
        };
        let count = usize::from(r.u8()?);
        if count > MAX_CMDS_PER_DATAGRAM {
            return Err(DecodeError::TooLong { what: "command count", len: count as u64, max: MAX_CMDS_PER_DATAGRAM as u64 });
        }
        let mut cmds = Vec::with_capacity(count);
        let mut prev = UserCmd::default();
        for i in 0..count {
            let t = r.varint_u32()?;
            let tick = if i == 0 {
                t
            } else if t == 0 {
                return Err(DecodeError::Invalid("command ticks not increasing"));
            } else {
                prev.tick.checked_add(t).ok_or(DecodeError::OutOfRange { what: "command tick" })?
            };
            let mask = r.u8()?;
            if mask & !F_ALL != 0 {
                return Err(DecodeError::Invalid("command field mask"));
            }
            let mut c = UserCmd { tick, ..prev };
            if mask & F_PITCH != 0 {
                c.pitch = r.finite_f32("pitch")?;
            }
            if mask & F_YAW != 0 {
                c.yaw = r.finite_f32("yaw")?;
            }
            if mask & F_FORWARD != 0 {
                c.forward = r.u8()? as i8;
            }
            if mask & F_RIGHT != 0 {
                c.right = r.u8()? as i8;
            }
            if mask & F_UP != 0 {
                c.up = r.u8()? as i8;
            }
            if mask & F_BUTTONS != 0 {
                c.buttons = Buttons(u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "buttons" })?);
            }
            if mask & F_WEAPON != 0 {
                c.weapon = r.u8()?;
            }
            cmds.push(c);
            prev = c;
        }
        r.finish()?;
        Ok(Self { snapshot_ack, cmds })
    }
}

/// Server side: passes each command tick up once, in order.
#[derive(Debug, Default, Clone)]
pub struct CmdDedup {
    last: Option<u32>,
}

impl CmdDedup {
    /// A filter that has delivered nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The highest tick delivered so far.
    pub fn last_tick(&self) -> Option<u32> {
        self.last
    }

    /// Keeps only commands newer than everything delivered before (the
    /// duplicates redundancy produces) and remembers the newest.
    pub fn filter(&mut self, cmds: Vec<UserCmd>) -> Vec<UserCmd> {
        let mut out = Vec::with_capacity(cmds.len());
        for c in cmds {
            if self.last.is_none_or(|last| c.tick > last) {
                self.last = Some(c.tick);
                out.push(c);
            }
        }
        out
    }
}

/// Client side: the newest commands, repeated in every datagram.
#[derive(Debug, Clone)]
pub struct CmdHistory {
    cmds: std::collections::VecDeque<UserCmd>,
    redundancy: usize,
}

impl CmdHistory {
    /// Keeps the newest `redundancy` commands (clamped to 1..=16).
    pub fn new(redundancy: usize) -> Self {
        let redundancy = redundancy.clamp(1, MAX_CMDS_PER_DATAGRAM);
        Self { cmds: std::collections::VecDeque::with_capacity(redundancy), redundancy }
    }

    /// Adds a command; returns `false` (and ignores it) when its tick is not
    /// newer than the last one.
    pub fn push(&mut self, cmd: UserCmd) -> bool {
        if self.cmds.back().is_some_and(|b| cmd.tick <= b.tick) {
            return false;
        }
        if self.cmds.len() == self.redundancy {
            self.cmds.pop_front();
        }
        self.cmds.push_back(cmd);
        true
    }

    /// The commands to put in the next datagram, oldest first.
    pub fn window(&self) -> Vec<UserCmd> {
        self.cmds.iter().copied().collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    pub(crate) fn arb_cmd() -> impl Strategy<Value = UserCmd> {
        (any::<u32>(), -90.0f32..90.0, 0.0f32..360.0, any::<i8>(), any::<i8>(), any::<i8>(), any::<u16>(), any::<u8>())
            .prop_map(|(tick, pitch, yaw, forward, right, up, buttons, weapon)| UserCmd { tick, pitch, yaw, forward, right, up, buttons: Buttons(buttons), weapon })
    }

    fn arb_packet() -> impl Strategy<Value = CmdPacket> {
        (proptest::option::of(any::<u32>()), proptest::collection::vec(arb_cmd(), 0..=MAX_CMDS_PER_DATAGRAM)).prop_map(|(snapshot_ack, mut cmds)| {
            cmds.sort_by_key(|c| c.tick);
            cmds.dedup_by_key(|c| c.tick);
            CmdPacket { snapshot_ack, cmds }
        })
    }

    fn encode(p: &CmdPacket) -> Vec<u8> {
        let mut w = Writer::new();
        p.encode(&mut w);
        w.into_inner()
    }

    proptest! {
        #[test]
        fn packets_round_trip(p in arb_packet()) {
            let bytes = encode(&p);
            prop_assert_eq!(CmdPacket::decode(&mut Reader::new(&bytes))?, p);
        }

        #[test]
        fn truncated_packets_fail_cleanly(p in arb_packet(), cut in any::<prop::sample::Index>()) {
            let bytes = encode(&p);
            let cut = cut.index(bytes.len().max(1));
            if cut < bytes.len() {
                prop_assert!(CmdPacket::decode(&mut Reader::new(&bytes[..cut])).is_err());
            }
        }
    }

    #[test]
    fn unchanged_command_costs_two_bytes() {
        let c = UserCmd { tick: 100, yaw: 90.0, forward: 127, ..Default::default() };
        let one = encode(&CmdPacket { snapshot_ack: None, cmds: vec![c] });
        let two = encode(&CmdPacket { snapshot_ack: None, cmds: vec![c, UserCmd { tick: 101, ..c }] });
        assert_eq!(two.len() - one.len(), 2);
    }

    #[test]
    fn the_layout_is_pinned() {
        let c = UserCmd { tick: 100, yaw: 90.0, forward: 127, buttons: Buttons::JUMP, weapon: 5, ..UserCmd::default() };
        let bytes = encode(&CmdPacket { snapshot_ack: Some(3), cmds: vec![c, UserCmd { tick: 101, pitch: -1.5, ..c }] });
        let expected = [
            4, 2, // ack 3 + 1, two commands
            100, 0x66, 0x00, 0x00, 0xb4, 0x42, 127, 2, 5, // tick; yaw, forward, buttons, weapon changed
            1, 0x01, 0x00, 0x00, 0xc0, 0xbf, // one tick later; pitch changed
        ];
        assert_eq!(bytes, expected);
    }

    #[test]
    fn dedup_drops_repeats_and_old_ticks() {
        let c = |tick| UserCmd { tick, ..Default::default() };
        let mut d = CmdDedup::new();
        assert_eq!(d.filter(vec![c(1), c(2), c(3)]).len(), 3);
        assert_eq!(d.filter(vec![c(2), c(3), c(4)]), vec![c(4)]);
        assert!(d.filter(vec![c(1)]).is_empty());
        assert_eq!(d.last_tick(), Some(4));
    }

    #[test]
    fn history_keeps_newest_window() {
        let mut h = CmdHistory::new(3);
        for t in 1..=5 {
            assert!(h.push(UserCmd { tick: t, ..Default::default() }));
        }
        assert!(!h.push(UserCmd { tick: 5, ..Default::default() }));
        assert_eq!(h.window().iter().map(|c| c.tick).collect::<Vec<_>>(), vec![3, 4, 5]);
    }

    #[test]
    fn non_finite_angles_are_rejected() {
        let mut bytes = encode(&CmdPacket { snapshot_ack: None, cmds: vec![UserCmd { tick: 1, pitch: 1.0, ..Default::default() }] });
        // ack(1) count(1) tick(1) mask(1) then pitch: overwrite with NaN bits.
        let nan = f32::NAN.to_bits().to_le_bytes();
        bytes.splice(4..8, nan);
        assert!(CmdPacket::decode(&mut Reader::new(&bytes)).is_err());
    }
}
