//! The entity list of a snapshot against its base's: which entities
//! changed, appeared or went, each with its field delta.
//!
//! Two layouts, and the encoder writes whichever is shorter (the header's
//! low bit says which):
//!
//! ```text
//! varint  count << 1 | 0           by id: count entries in increasing id order
//!   count × entry:
//!     varint  id_op   (id - previous entry id - 1) << 2 | op   (previous = -1 at start)
//!                     op 0 changed: the base has this id; entity delta follows
//!                     op 1 new:     the base lacks it; delta against an empty entity
//!                     op 2 removed: the base has it, the new snapshot does not
//!     entity  delta   op 0: encode_entity(base entity, new, motion)
//!                     op 1: encode_entity(empty entity, new, Motion::NONE); op 2: nothing
//!
//! varint  new_count << 1 | 1       by bitmap
//!   u8 × ceil(base entities / 8)   bit i (LSB first) set: the base's i-th entity
//!                                  (in id order) changed or went; unused bits 0
//!   per set bit, in order: entity delta against it (motion), or a single 0
//!                          byte (an empty field mask) when it went
//!   new_count × entry: varint id - previous new id - 1 (previous = -1 at
//!                          start), then the delta against an empty entity
//! ```
//!
//! A base entity not mentioned is its prediction in the new snapshot. By id
//! costs a byte or two per mentioned entity; by bitmap a bit per base
//! entity, which wins when most of them move (players in a fight) and
//! loses when few of many do (a quiet map full of items). A changed entity
//! never codes an empty mask: its mask is empty only when it is exactly its
//! prediction, and then it is not mentioned (the encoder checks anyway and
//! falls back to ids).

use super::{Motion, OP_CHANGED, OP_NEW, OP_REMOVED, decode_entity, encode_entity, predict_entity};
use crate::codec::{DecodeError, Reader, Writer};
use crate::snapshot::{EntityState, MAX_SNAPSHOT_ENTITIES};

/// One mentioned entity, its delta in the shared buffer.
struct Entry {
    id: u32,
    op: u64,
    /// Position in the base's list (changed, removed).
    base_index: Option<usize>,
    delta: std::ops::Range<usize>,
}

/// Appends the entity list of `new` against `old` (both in id order).
pub(super) fn encode_entities<'a>(
    old: impl Iterator<Item = &'a EntityState>,
    new: impl Iterator<Item = &'a EntityState>,
    motion: Motion,
    w: &mut Writer,
) {
    let mut deltas = Writer::with_capacity(512);
    let mut entries = Vec::new();
    let mut base_len = 0;
    let mut old = old.peekable();
    let mut now = new.peekable();
    loop {
        let start = deltas.len();
        match (old.peek().copied(), now.peek().copied()) {
            (Some(b), Some(n)) if b.id == n.id => {
                if predict_entity(b, motion) != *n {
                    encode_entity(b, n, motion, &mut deltas);
                    entries.push(Entry { id: n.id, op: OP_CHANGED, base_index: Some(base_len), delta: start..deltas.len() });
                }
                old.next();
                base_len += 1;
                now.next();
            }
            (Some(b), n) if n.is_none_or(|n| b.id < n.id) => {
                entries.push(Entry { id: b.id, op: OP_REMOVED, base_index: Some(base_len), delta: start..start });
                old.next();
                base_len += 1;
            }
            (_, Some(n)) => {
                encode_entity(&EntityState::empty(n.id), n, Motion::NONE, &mut deltas);
                entries.push(Entry { id: n.id, op: OP_NEW, base_index: None, delta: start..deltas.len() });
                now.next();
            }
            (_, None) => break,
        }
    }
    let bytes = |e: &Entry| deltas.as_slice().get(e.delta.clone()).unwrap_or_default();
    let by_bitmap = bitmap_cost(&entries, base_len, &deltas);
    let by_id = id_cost(&entries);
    match by_bitmap {
        Some(cost) if cost < by_id => {
            let new: Vec<&Entry> = entries.iter().filter(|e| e.base_index.is_none()).collect();
            w.varint((new.len() as u64) << 1 | 1);
            let mut bitmap = vec![0u8; base_len.div_ceil(8)];
            for i in entries.iter().filter_map(|e| e.base_index) {
                if let Some(byte) = bitmap.get_mut(i / 8) {
                    *byte |= 1 << (i % 8);
                }
            }
            w.bytes(&bitmap);
            for e in entries.iter().filter(|e| e.base_index.is_some()) {
                match e.op {
                    OP_REMOVED => w.u8(0),
                    _ => w.bytes(bytes(e)),
                }
            }
            let mut prev: i64 = -1;
            for e in new {
                w.varint((i64::from(e.id) - prev - 1) as u64);
                prev = i64::from(e.id);
                w.bytes(bytes(e));
            }
        }
        _ => {
            w.varint((entries.len() as u64) << 1);
            let mut prev: i64 = -1;
            for e in &entries {
                w.varint(((i64::from(e.id) - prev - 1) as u64) << 2 | e.op);
                prev = i64::from(e.id);
                w.bytes(bytes(e));
            }
        }
    }
}

fn varint_len(v: u64) -> usize {
    (64 - v.leading_zeros() as usize).div_ceil(7).max(1)
}

/// Bytes of the by-id layout, less the deltas (the same in both).
fn id_cost(entries: &[Entry]) -> usize {
    let mut prev: i64 = -1;
    entries
        .iter()
        .map(|e| {
            let n = varint_len(((i64::from(e.id) - prev - 1) as u64) << 2 | e.op);
            prev = i64::from(e.id);
            n
        })
        .sum::<usize>()
        + varint_len((entries.len() as u64) << 1)
}

/// Bytes of the bitmap layout, less the deltas; `None` if a changed
/// entity's delta starts with an empty mask (it would read as removed).
fn bitmap_cost(entries: &[Entry], base_len: usize, deltas: &Writer) -> Option<usize> {
    let mut cost = base_len.div_ceil(8);
    let mut new = 0u64;
    let mut prev: i64 = -1;
    for e in entries {
        match e.op {
            OP_REMOVED => cost += 1,
            OP_CHANGED if deltas.as_slice().get(e.delta.start) == Some(&0) => return None,
            OP_NEW => {
                cost += varint_len((i64::from(e.id) - prev - 1) as u64);
                prev = i64::from(e.id);
                new += 1;
            }
            _ => {}
        }
    }
    Some(cost + varint_len(new << 1 | 1))
}

/// Reads an entity list written by [`encode_entities`] against `old`.
pub(super) fn decode_entities(old: &[EntityState], motion: Motion, r: &mut Reader<'_>) -> Result<Vec<EntityState>, DecodeError> {
    let head = r.varint()?;
    let out = if head & 1 == 0 { decode_by_id(old, head >> 1, motion, r)? } else { decode_by_bitmap(old, head >> 1, motion, r)? };
    if out.len() > MAX_SNAPSHOT_ENTITIES {
        return Err(DecodeError::TooLong { what: "entities", len: out.len() as u64, max: MAX_SNAPSHOT_ENTITIES as u64 });
    }
    Ok(out)
}

/// A list length from the header, bounded like [`Reader::count`].
fn list_len(n: u64, max: usize, r: &Reader<'_>) -> Result<usize, DecodeError> {
    let n = usize::try_from(n).map_err(|_| DecodeError::VarintOverflow)?;
    if n > max {
        return Err(DecodeError::TooLong { what: "entity entries", len: n as u64, max: max as u64 });
    }
    if n > r.remaining() {
        return Err(DecodeError::UnexpectedEnd);
    }
    Ok(n)
}

fn decode_by_id(old: &[EntityState], n: u64, motion: Motion, r: &mut Reader<'_>) -> Result<Vec<EntityState>, DecodeError> {
    let n_ops = list_len(n, old.len() + MAX_SNAPSHOT_ENTITIES, r)?;
    let mut out: Vec<EntityState> = Vec::with_capacity(old.len().max(n_ops).min(MAX_SNAPSHOT_ENTITIES));
    let mut bi = 0;
    let mut prev: i64 = -1;
    for _ in 0..n_ops {
        let v = r.varint()?;
        let id = prev + 1 + i64::try_from(v >> 2).map_err(|_| DecodeError::OutOfRange { what: "entity id" })?;
        let id = u32::try_from(id).map_err(|_| DecodeError::OutOfRange { what: "entity id" })?;
        prev = i64::from(id);
        while let Some(b) = old.get(bi)
            && b.id < id
        {
            out.push(predict_entity(b, motion));
            bi += 1;
        }
        let in_base = old.get(bi).filter(|b| b.id == id);
        match v & 3 {
            OP_CHANGED => {
                let b = in_base.ok_or(DecodeError::Invalid("changed entity missing from base"))?;
                out.push(decode_entity(b, motion, r)?);
                bi += 1;
            }
            OP_NEW => {
                if in_base.is_some() {
                    return Err(DecodeError::Invalid("new entity already in base"));
                }
                out.push(decode_entity(&EntityState::empty(id), Motion::NONE, r)?);
            }
            OP_REMOVED => {
                in_base.ok_or(DecodeError::Invalid("removed entity missing from base"))?;
                bi += 1;
            }
            tag => return Err(DecodeError::UnknownTag { what: "entity op", tag }),
        }
        if out.len() > MAX_SNAPSHOT_ENTITIES {
            return Err(DecodeError::TooLong { what: "entities", len: out.len() as u64, max: MAX_SNAPSHOT_ENTITIES as u64 });
        }
    }
    out.extend(old.get(bi..).unwrap_or_default().iter().map(|b| predict_entity(b, motion)));
    Ok(out)
}

fn decode_by_bitmap(old: &[EntityState], n: u64, motion: Motion, r: &mut Reader<'_>) -> Result<Vec<EntityState>, DecodeError> {
    let bitmap = r.take(old.len().div_ceil(8))?;
    let unused = (bitmap.len() * 8).saturating_sub(old.len());
    if unused > 0 && bitmap.last().is_some_and(|b| b >> (8 - unused) != 0) {
        return Err(DecodeError::Invalid("entity bitmap"));
    }
    let mut kept = Vec::with_capacity(old.len());
    for (i, b) in old.iter().enumerate() {
        let mentioned = bitmap.get(i / 8).is_some_and(|byte| byte & (1 << (i % 8)) != 0);
        if !mentioned {
            kept.push(predict_entity(b, motion));
        } else if r.peek_u8()? == 0 {
            r.u8()?;
        } else {
            kept.push(decode_entity(b, motion, r)?);
        }
    }
    let n_new = list_len(n, MAX_SNAPSHOT_ENTITIES, r)?;
    let mut out = Vec::with_capacity((kept.len() + n_new).min(MAX_SNAPSHOT_ENTITIES));
    let mut kept = kept.into_iter().peekable();
    let mut prev: i64 = -1;
    for _ in 0..n_new {
        let id = prev + 1 + i64::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "entity id" })?;
        let id = u32::try_from(id).map_err(|_| DecodeError::OutOfRange { what: "entity id" })?;
        prev = i64::from(id);
        if old.binary_search_by_key(&id, |b| b.id).is_ok() {
            return Err(DecodeError::Invalid("new entity already in base"));
        }
        while let Some(k) = kept.next_if(|k| k.id < id) {
            out.push(k);
        }
        out.push(decode_entity(&EntityState::empty(id), Motion::NONE, r)?);
        if out.len() > MAX_SNAPSHOT_ENTITIES {
            return Err(DecodeError::TooLong { what: "entities", len: out.len() as u64, max: MAX_SNAPSHOT_ENTITIES as u64 });
        }
    }
    out.extend(kept);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOTION: Motion = Motion { gap: 4, tick_rate: 60 };

    fn mover(id: u32, x: i32) -> EntityState {
        EntityState { id, origin: [x, 8 * id as i32, 0], velocity: [100, 0, 0], ..EntityState::empty(id) }
    }

    /// Encodes, checks the layout bit and that decoding gives `new` back exactly.
    fn round_trip(old: &[EntityState], new: &[EntityState]) -> (bool, usize) {
        let mut w = Writer::new();
        encode_entities(old.iter(), new.iter(), MOTION, &mut w);
        let bytes = w.into_inner();
        let mut r = Reader::new(&bytes);
        assert_eq!(decode_entities(old, MOTION, &mut r), Ok(new.to_vec()));
        assert_eq!(r.finish(), Ok(()));
        (bytes.first().is_some_and(|b| b & 1 == 1), bytes.len())
    }

    #[test]
    fn most_moving_goes_by_bitmap_with_removals_and_new_ones() {
        let old: Vec<_> = (1..=16).map(|id| mover(id, 0)).collect();
        // Every one off its prediction, the 5th gone, two new ones around them.
        let mut new: Vec<_> = (1..=16).filter(|&id| id != 5).map(|id| mover(id, 100 + id as i32)).collect();
        new.insert(0, mover(0, 7));
        new.push(mover(900, 7));
        assert!(round_trip(&old, &new).0);
    }

    #[test]
    fn few_of_many_moving_goes_by_id() {
        let items: Vec<_> = (100..300).map(|id| EntityState { id, origin: [id as i32, 0, 0], ..EntityState::empty(id) }).collect();
        let mut new = items.clone();
        new[17].origin[0] += 40;
        let (bitmap, len) = round_trip(&items, &new);
        assert!(!bitmap);
        assert!(len < 8, "{len}");
        // Nothing changed: an empty list by id, one byte.
        assert_eq!(round_trip(&items, &items), (false, 1));
        // A full snapshot: all new (new ids cost less by bitmap: no op bits).
        assert!(round_trip(&[], &new).0);
    }

    #[test]
    fn bad_bitmaps_are_rejected() {
        let old: Vec<_> = (1..=3).map(|id| mover(id, 0)).collect();
        // Bits past the base's three entities, or a bitmap cut short.
        for bytes in [&[1u8, 0b1000][..], &[1u8][..], &[3u8, 0, 0][..]] {
            assert!(decode_entities(&old, MOTION, &mut Reader::new(bytes)).is_err(), "{bytes:?}");
        }
        // A new entity that the base already has.
        assert!(decode_entities(&old, MOTION, &mut Reader::new(&[3, 0, 1, 0])).is_err());
    }
}
