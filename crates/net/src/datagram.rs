//! The header every Quarry datagram starts with, and loss measured from it.
//!
//! ```text
//! u8   kind    1 = commands (client -> server), 2 = snapshot fragment,
//!              3 = whole snapshot (server -> client)
//! u16  seq     per-direction datagram counter, wrapping; gaps are loss
//! ...          body: usercmd::CmdPacket, a fragment or a whole snapshot (crate::fragment)
//! ```
//!
//! QUIC already numbers its packets, but quinn does not tell the application
//! which of *its* datagrams the peer lost; two bytes per datagram buy an
//! honest "loss" column for `status` in both directions (ioq3 keeps a
//! sequence number in every packet for the same reason).

use crate::codec::{DecodeError, Reader, Writer};

/// Bytes of the header.
pub const HEADER_LEN: usize = 3;

/// What a datagram carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatagramKind {
    /// A [`crate::usercmd::CmdPacket`].
    Commands,
    /// One fragment of a snapshot.
    SnapshotFragment,
    /// A whole snapshot, the usual case: it fits one datagram, so it needs
    /// no fragment header.
    Snapshot,
}

impl DatagramKind {
    fn tag(self) -> u8 {
        match self {
            Self::Commands => 1,
            Self::SnapshotFragment => 2,
            Self::Snapshot => 3,
        }
    }
}

/// Appends the header.
pub fn write_header(w: &mut Writer, kind: DatagramKind, seq: u16) {
    w.u8(kind.tag());
    w.u16(seq);
}

/// Reads the header.
pub fn read_header(r: &mut Reader<'_>) -> Result<(DatagramKind, u16), DecodeError> {
    let kind = match r.u8()? {
        1 => DatagramKind::Commands,
        2 => DatagramKind::SnapshotFragment,
        3 => DatagramKind::Snapshot,
        t => return Err(DecodeError::UnknownTag { what: "datagram kind", tag: u64::from(t) }),
    };
    Ok((kind, r.u16()?))
}

/// Estimates the fraction of the peer's datagrams that never arrived, over
/// windows closed by [`LossMeter::roll`].
#[derive(Debug, Clone, Default)]
pub struct LossMeter {
    highest: Option<u16>,
    expected: u32,
    received: u32,
    loss: f32,
}

impl LossMeter {
    /// A meter that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a received sequence number.
    pub fn record(&mut self, seq: u16) {
        match self.highest {
            None => {
                self.highest = Some(seq);
                self.expected += 1;
            }
            Some(h) => {
                let ahead = seq.wrapping_sub(h) as i16;
                if ahead > 0 {
                    self.expected += ahead as u32;
                    self.highest = Some(seq);
                }
            }
        }
        self.received += 1;
    }

    /// Closes the current window: the loss of that window becomes
    /// [`LossMeter::loss`] (unchanged if nothing was expected).
    pub fn roll(&mut self) {
        if self.expected > 0 {
            let got = self.received.min(self.expected);
            self.loss = 1.0 - got as f32 / self.expected as f32;
        }
        self.expected = 0;
        self.received = 0;
    }

    /// Loss of the last closed window, 0.0..=1.0.
    pub fn loss(&self) -> f32 {
        self.loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_and_rejects_unknown() {
        let mut w = Writer::new();
        write_header(&mut w, DatagramKind::SnapshotFragment, 0xbeef);
        assert_eq!(read_header(&mut Reader::new(w.as_slice())), Ok((DatagramKind::SnapshotFragment, 0xbeef)));
        write_header(&mut w, DatagramKind::Snapshot, 7);
        let mut r = Reader::new(w.as_slice());
        assert_eq!(read_header(&mut r), Ok((DatagramKind::SnapshotFragment, 0xbeef)));
        assert_eq!(read_header(&mut r), Ok((DatagramKind::Snapshot, 7)));
        assert!(read_header(&mut Reader::new(&[9, 0, 0])).is_err());
        assert!(read_header(&mut Reader::new(&[1, 0])).is_err());
    }

    #[test]
    fn loss_counts_gaps_across_wrap() {
        let mut m = LossMeter::new();
        m.roll();
        let mut seq = 65500u16;
        for i in 0..100 {
            if i % 4 != 0 {
                m.record(seq);
            }
            seq = seq.wrapping_add(1);
        }
        m.roll();
        assert!((m.loss() - 0.25).abs() < 0.02, "{}", m.loss());
        for _ in 0..10 {
            m.record(seq);
            seq = seq.wrapping_add(1);
        }
        m.roll();
        assert_eq!(m.loss(), 0.0);
    }
}
