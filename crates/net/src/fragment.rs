//! Splitting an encoded snapshot over datagrams and putting it back together.
//!
//! A QUIC datagram must fit one packet (`max_datagram_size`, about 1,160
//! bytes before path MTU discovery), and quinn drops rather than splits
//! anything larger. Most snapshots fit: they go whole, with nothing but the
//! datagram header (the snapshot carries its own tick):
//!
//! ```text
//! u8      kind = 3, u16 seq      datagram header (crate::datagram)
//! ...     payload                the encoded snapshot
//! ```
//!
//! A snapshot that does not fit is cut into up to [`MAX_FRAGMENTS`]
//! fragments, every one a full datagram:
//!
//! ```text
//! u8      kind = 2, u16 seq      datagram header (crate::datagram)
//! u8      count                  1..=MAX_FRAGMENTS
//! u8      index                  0..count         only if count > 1
//! varint  snapshot_tick                           only if count > 1
//! ...     payload                bytes index*chunk .. of the encoded snapshot
//! ```
//!
//! (A fragment of one, kind 2 with count 1, is accepted too.) The client keeps a few
//! incomplete snapshots; when one completes, every older incomplete one is
//! dropped (it can never be used: the client acknowledges the newest and the
//! server deltas against that). Losing one fragment loses that snapshot, but
//! nothing is lost for good: the client's ack does not move, so the server's
//! next snapshot is again a delta against what the client has.

use crate::codec::{DecodeError, Reader, Writer};
use crate::datagram::{DatagramKind, HEADER_LEN, write_header};

/// Most fragments per snapshot (about 37 KB at the initial MTU; Quake 3's
/// largest message is 16 KB).
pub const MAX_FRAGMENTS: usize = 32;

/// Incomplete snapshots the client keeps at once.
const MAX_PARTIALS: usize = 4;

/// Header bytes a fragment adds besides the datagram header, at most.
const FRAGMENT_HEADER_MAX: usize = 1 + 1 + 5;

/// Why a snapshot could not be split.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FragmentError {
    /// It would need more than [`MAX_FRAGMENTS`] datagrams.
    #[error("snapshot of {len} bytes needs more than {MAX_FRAGMENTS} fragments of {chunk} bytes")]
    TooLarge {
        /// Encoded snapshot length.
        len: usize,
        /// Payload bytes per fragment.
        chunk: usize,
    },
    /// The datagram size leaves no room for payload.
    #[error("datagram size {0} is too small for a fragment")]
    DatagramTooSmall(usize),
}

/// Splits `payload` (an encoded snapshot) into complete datagrams of at most
/// `max_datagram` bytes each; `next_seq` numbers them.
pub fn split(tick: u32, payload: &[u8], max_datagram: usize, mut next_seq: impl FnMut() -> u16) -> Result<Vec<Vec<u8>>, FragmentError> {
    if payload.len() + HEADER_LEN <= max_datagram {
        let mut w = Writer::with_capacity(HEADER_LEN + payload.len());
        write_header(&mut w, DatagramKind::Snapshot, next_seq());
        w.bytes(payload);
        return Ok(vec![w.into_inner()]);
    }
    let chunk = max_datagram.saturating_sub(HEADER_LEN + FRAGMENT_HEADER_MAX);
    if chunk == 0 {
        return Err(FragmentError::DatagramTooSmall(max_datagram));
    }
    let count = payload.len().div_ceil(chunk).max(1);
    if count > MAX_FRAGMENTS {
        return Err(FragmentError::TooLarge { len: payload.len(), chunk });
    }
    let mut out = Vec::with_capacity(count);
    for index in 0..count {
        let part = payload.get(index * chunk..payload.len().min((index + 1) * chunk)).unwrap_or_default();
        let mut w = Writer::with_capacity(HEADER_LEN + FRAGMENT_HEADER_MAX + part.len());
        write_header(&mut w, DatagramKind::SnapshotFragment, next_seq());
        w.u8(count as u8);
        if count > 1 {
            w.u8(index as u8);
            w.varint(u64::from(tick));
        }
        w.bytes(part);
        out.push(w.into_inner());
    }
    Ok(out)
}

#[derive(Debug)]
struct Partial {
    tick: u32,
    parts: Vec<Option<Vec<u8>>>,
    have: usize,
}

/// Client side: collects fragments into whole snapshots.
#[derive(Debug, Default)]
pub struct Reassembler {
    partials: Vec<Partial>,
    last_complete: Option<u32>,
}

impl Reassembler {
    /// An empty reassembler.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything (after a map change).
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Snapshots waiting for fragments.
    pub fn pending(&self) -> usize {
        self.partials.len()
    }

    /// Takes one fragment body (after the datagram header). Returns the
    /// snapshot tick and bytes when this fragment completes a snapshot newer
    /// than every snapshot completed before; `Ok(None)` for a fragment that
    /// is stale, duplicate or not the last one; `Err` for a malformed one.
    pub fn push(&mut self, r: &mut Reader<'_>) -> Result<Option<(u32, Vec<u8>)>, DecodeError> {
        let count = usize::from(r.u8()?);
        if count == 0 || count > MAX_FRAGMENTS {
            return Err(DecodeError::Invalid("fragment count"));
        }
        if count == 1 {
            return self.push_whole(r.take_rest());
        }
        let index = usize::from(r.u8()?);
        let tick = r.varint_u32()?;
        if index >= count {
            return Err(DecodeError::Invalid("fragment index"));
        }
        let data = r.take_rest();
        if self.last_complete.is_some_and(|t| tick <= t) {
            return Ok(None);
        }
        let pos = match self.partials.iter().position(|p| p.tick == tick) {
            Some(pos) => pos,
            None => {
                if self.partials.len() == MAX_PARTIALS {
                    // Evict the oldest incomplete snapshot.
                    let oldest = self.partials.iter().enumerate().min_by_key(|(_, p)| p.tick).map(|(i, _)| i).unwrap_or(0);
                    self.partials.swap_remove(oldest);
                }
                self.partials.push(Partial { tick, parts: vec![None; count], have: 0 });
                self.partials.len() - 1
            }
        };
        let Some(p) = self.partials.get_mut(pos) else { return Ok(None) };
        if p.parts.len() != count {
            return Err(DecodeError::Invalid("fragment count changed"));
        }
        let Some(slot) = p.parts.get_mut(index) else { return Err(DecodeError::Invalid("fragment index")) };
        if slot.is_some() {
            return Ok(None);
        }
        *slot = Some(data.to_vec());
        p.have += 1;
        if p.have < count {
            return Ok(None);
        }
        let p = self.partials.swap_remove(pos);
        let bytes = p.parts.into_iter().flatten().flatten().collect();
        Ok(Some(self.complete(tick, bytes)))
    }

    /// Takes a whole snapshot (the body of a [`DatagramKind::Snapshot`]
    /// datagram), with the same answers as [`Reassembler::push`].
    pub fn push_whole(&mut self, data: &[u8]) -> Result<Option<(u32, Vec<u8>)>, DecodeError> {
        let tick = crate::delta::peek_snapshot_ticks(data)?.server_tick;
        if self.last_complete.is_some_and(|t| tick <= t) {
            return Ok(None);
        }
        Ok(Some(self.complete(tick, data.to_vec())))
    }

    fn complete(&mut self, tick: u32, bytes: Vec<u8>) -> (u32, Vec<u8>) {
        self.last_complete = Some(tick);
        self.partials.retain(|p| p.tick > tick);
        (tick, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagram::read_header;

    fn body(d: &[u8]) -> Reader<'_> {
        let mut r = Reader::new(d);
        let _ = read_header(&mut r);
        r
    }

    /// What the client does with a snapshot datagram.
    fn take(r: &mut Reassembler, d: &[u8]) -> Result<Option<(u32, Vec<u8>)>, DecodeError> {
        let mut body = Reader::new(d);
        match read_header(&mut body)? {
            (DatagramKind::Snapshot, _) => r.push_whole(body.take_rest()),
            (DatagramKind::SnapshotFragment, _) => r.push(&mut body),
            (DatagramKind::Commands, _) => Err(DecodeError::Invalid("commands")),
        }
    }

    #[test]
    fn a_snapshot_that_fits_goes_whole() {
        // tick 11, full: varint 11, varint 0, then the rest.
        let payload = [11, 0, 2, 2];
        let d = split(11, &payload, 1200, || 5).expect("fits");
        assert_eq!(d, vec![vec![3, 5, 0, 11, 0, 2, 2]]);
        let exact = split(11, &payload, HEADER_LEN + payload.len(), || 5).expect("fits");
        assert_eq!(exact.len(), 1);
        let mut r = Reassembler::new();
        assert_eq!(take(&mut r, &d[0]), Ok(Some((11, payload.to_vec()))));
        assert_eq!(take(&mut r, &d[0]), Ok(None), "a repeat is stale");
    }

    #[test]
    fn split_and_reassemble_in_any_order() {
        let payload: Vec<u8> = (0..5000u32).map(|i| i as u8).collect();
        let mut seq = 0u16;
        let mut d = split(42, &payload, 1200, || {
            seq += 1;
            seq
        })
        .expect("fits");
        assert_eq!(d.len(), 5);
        assert!(d.iter().all(|x| x.len() <= 1200));
        d.reverse();
        let mut r = Reassembler::new();
        let mut got = None;
        for x in &d {
            if let Some(done) = r.push(&mut body(x)).expect("valid") {
                got = Some(done);
            }
        }
        assert_eq!(got, Some((42, payload)));
        // A repeat of an old fragment is stale now.
        assert_eq!(r.push(&mut body(&d[0])), Ok(None));
    }

    #[test]
    fn newer_completion_drops_older_partials() {
        let mut r = Reassembler::new();
        let old = split(10, &[1; 3000], 1200, || 0).expect("fits");
        let new = split(11, &[11, 0, 2, 2], 1200, || 0).expect("fits");
        take(&mut r, &old[0]).expect("valid");
        assert_eq!(r.pending(), 1);
        assert!(take(&mut r, &new[0]).expect("valid").is_some());
        assert_eq!(r.pending(), 0);
        assert_eq!(take(&mut r, &old[1]), Ok(None));
    }

    #[test]
    fn limits() {
        assert!(matches!(split(1, &[0; 100_000], 1200, || 0), Err(FragmentError::TooLarge { .. })));
        assert!(matches!(split(1, &[0; 10], 8, || 0), Err(FragmentError::DatagramTooSmall(8))));
        let mut r = Reassembler::new();
        assert!(r.push(&mut Reader::new(&[3, 3, 1])).is_err());
        assert!(r.push(&mut Reader::new(&[0])).is_err());
        assert!(r.push(&mut Reader::new(&[33, 0, 1])).is_err());
        assert!(r.push(&mut Reader::new(&[1])).is_err());
    }
}
