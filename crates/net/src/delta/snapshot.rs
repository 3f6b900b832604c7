//! A whole snapshot against a base: header, own player, merged entity list.

use super::{EncodeError, Motion, OP_CHANGED, OP_NEW, OP_REMOVED, decode_entity, decode_player, encode_entity, encode_player, predict_entity};
use crate::codec::{DecodeError, Reader, Writer};
use crate::snapshot::{EntityState, MAX_SNAPSHOT_ENTITIES, PlayerState, SharedSnapshot, Snapshot, is_sorted_by_id};

/// The two ticks at the start of an encoded snapshot, readable without the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotTicks {
    /// The tick the snapshot describes.
    pub server_tick: u32,
    /// The snapshot it is a delta against; `None` for a full snapshot.
    pub base_tick: Option<u32>,
}

/// Appends `new` encoded against `base` (`None`: a full snapshot).
/// `tick_rate` (server ticks per second) lets entity origins be predicted
/// from the base's velocities; 0 turns prediction off.
///
/// ```text
/// varint  server_tick
/// varint  base_gap      0 = full snapshot, else server_tick - base_tick
/// varint  tick_rate     only if base_gap != 0; for predict_entity
/// svarint cmd_lag       server_tick - acked_cmd_tick
/// player  delta         encode_player(base player or all-zero, new player)
/// varint  op_count      entity entries that follow, in increasing id order
/// op_count × entry:
///   varint  id_op       (id - previous entry id - 1) << 2 | op   (previous = -1 at start)
///                       op 0 changed: the base has this id; entity delta follows
///                       op 1 new:     the base lacks it; delta against an empty entity
///                       op 2 removed: the base has it, the new snapshot does not
///   entity  delta       op 0: encode_entity(base entity, new, Motion { gap, tick_rate })
///                       op 1: encode_entity(empty entity, new, Motion::NONE); op 2: nothing
/// ```
///
/// Base entities not listed are their prediction in the new snapshot: an
/// entity that is where its velocity took it, and otherwise unchanged,
/// costs nothing.
pub fn encode_snapshot(base: Option<&Snapshot>, new: &Snapshot, tick_rate: u16, w: &mut Writer) -> Result<(), EncodeError> {
    encode_view(base.map(View::of_snapshot), View::of_snapshot(new), tick_rate, w)
}

/// [`encode_snapshot`] for the server's [`SharedSnapshot`]s: the bytes are
/// those of their [`SharedSnapshot::to_snapshot`], without building it.
pub fn encode_shared_snapshot(base: Option<&SharedSnapshot>, new: &SharedSnapshot, tick_rate: u16, w: &mut Writer) -> Result<(), EncodeError> {
    encode_view(base.map(View::of_shared), View::of_shared(new), tick_rate, w)
}

/// A snapshot to encode, borrowed: its entity list less `skip`.
#[derive(Clone, Copy)]
struct View<'a> {
    server_tick: u32,
    acked_cmd_tick: u32,
    player: &'a PlayerState,
    entities: &'a [EntityState],
    skip: Option<u32>,
}

impl<'a> View<'a> {
    fn of_snapshot(s: &'a Snapshot) -> Self {
        Self { server_tick: s.server_tick, acked_cmd_tick: s.acked_cmd_tick, player: &s.player, entities: &s.entities, skip: None }
    }

    fn of_shared(s: &'a SharedSnapshot) -> Self {
        Self { server_tick: s.server_tick, acked_cmd_tick: s.acked_cmd_tick, player: &s.player, entities: &s.entities, skip: s.own }
    }

    fn entities(self) -> impl Iterator<Item = &'a EntityState> + Clone {
        self.entities.iter().filter(move |e| Some(e.id) != self.skip)
    }
}

fn encode_view(base: Option<View<'_>>, new: View<'_>, tick_rate: u16, w: &mut Writer) -> Result<(), EncodeError> {
    let listed = new.entities.len() - usize::from(new.skip.is_some_and(|id| new.entities.iter().any(|e| e.id == id)));
    if listed > MAX_SNAPSHOT_ENTITIES {
        return Err(EncodeError::TooManyEntities(listed));
    }
    if !is_sorted_by_id(new.entities) {
        return Err(EncodeError::UnsortedEntities);
    }
    if let Some(b) = base
        && b.server_tick >= new.server_tick
    {
        return Err(EncodeError::BaseNotOlder { base: b.server_tick, tick: new.server_tick });
    }
    w.varint(u64::from(new.server_tick));
    let gap = base.map_or(0, |b| new.server_tick - b.server_tick);
    w.varint(u64::from(gap));
    if gap != 0 {
        w.varint(u64::from(tick_rate));
    }
    let motion = Motion { gap, tick_rate };
    w.svarint(i64::from(new.server_tick) - i64::from(new.acked_cmd_tick));
    let zero = PlayerState::default();
    encode_player(base.map_or(&zero, |b| b.player), new.player, w);

    let mut ops = Writer::with_capacity(new.entities.len() * 12);
    let mut count = 0u64;
    let mut prev: i64 = -1;
    let mut op = |ops: &mut Writer, id: u32, kind: u64| {
        let gap = (i64::from(id) - prev - 1) as u64;
        ops.varint((gap << 2) | kind);
        prev = i64::from(id);
        count += 1;
    };
    let mut old = base.map(View::entities).into_iter().flatten().peekable();
    let mut now = new.entities().peekable();
    loop {
        match (old.peek().copied(), now.peek().copied()) {
            (Some(b), Some(n)) if b.id == n.id => {
                if predict_entity(b, motion) != *n {
                    op(&mut ops, n.id, OP_CHANGED);
                    encode_entity(b, n, motion, &mut ops);
                }
                old.next();
                now.next();
            }
            (Some(b), n) if n.is_none_or(|n| b.id < n.id) => {
                op(&mut ops, b.id, OP_REMOVED);
                old.next();
            }
            (_, Some(n)) => {
                op(&mut ops, n.id, OP_NEW);
                encode_entity(&EntityState::empty(n.id), n, Motion::NONE, &mut ops);
                now.next();
            }
            (_, None) => break,
        }
    }
    w.varint(count);
    w.bytes(ops.as_slice());
    Ok(())
}

/// Reads the tick header of an encoded snapshot.
pub fn peek_snapshot_ticks(bytes: &[u8]) -> Result<SnapshotTicks, DecodeError> {
    let mut r = Reader::new(bytes);
    read_ticks(&mut r)
}

fn read_ticks(r: &mut Reader<'_>) -> Result<SnapshotTicks, DecodeError> {
    let server_tick = r.varint_u32()?;
    let gap = r.varint_u32()?;
    let base_tick = match gap {
        0 => None,
        g => Some(server_tick.checked_sub(g).ok_or(DecodeError::OutOfRange { what: "base tick" })?),
    };
    Ok(SnapshotTicks { server_tick, base_tick })
}

/// Decodes a snapshot written by [`encode_snapshot`]. `base_for` is asked
/// for the base tick when the snapshot is a delta; without it the result is
/// [`DecodeError::MissingBase`]. The bytes must hold exactly one snapshot.
pub fn decode_snapshot<'a>(bytes: &[u8], base_for: impl FnOnce(u32) -> Option<&'a Snapshot>) -> Result<Snapshot, DecodeError> {
    let mut r = Reader::new(bytes);
    let ticks = read_ticks(&mut r)?;
    let base = match ticks.base_tick {
        None => None,
        Some(t) => Some(base_for(t).filter(|b| b.server_tick == t).ok_or(DecodeError::MissingBase(t))?),
    };
    let gap = ticks.base_tick.map_or(0, |b| ticks.server_tick - b);
    let tick_rate = if gap == 0 { 0 } else { u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "tick rate" })? };
    let motion = Motion { gap, tick_rate };
    let predict = |b: &EntityState| predict_entity(b, motion);
    let lag = r.svarint()?;
    let acked_cmd_tick = i64::from(ticks.server_tick)
        .checked_sub(lag)
        .and_then(|t| u32::try_from(t).ok())
        .ok_or(DecodeError::OutOfRange { what: "acked command tick" })?;
    let zero = PlayerState::default();
    let player = decode_player(base.map_or(&zero, |b| &b.player), &mut r)?;

    let old: &[EntityState] = base.map_or(&[], |b| &b.entities);
    let n_ops = r.count(old.len() + MAX_SNAPSHOT_ENTITIES, "entity entries")?;
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
            out.push(predict(b));
            bi += 1;
        }
        let in_base = old.get(bi).filter(|b| b.id == id);
        match v & 3 {
            OP_CHANGED => {
                let b = in_base.ok_or(DecodeError::Invalid("changed entity missing from base"))?;
                out.push(decode_entity(b, motion, &mut r)?);
                bi += 1;
            }
            OP_NEW => {
                if in_base.is_some() {
                    return Err(DecodeError::Invalid("new entity already in base"));
                }
                out.push(decode_entity(&EntityState::empty(id), Motion::NONE, &mut r)?);
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
    out.extend(old.get(bi..).unwrap_or_default().iter().map(predict));
    if out.len() > MAX_SNAPSHOT_ENTITIES {
        return Err(DecodeError::TooLong { what: "entities", len: out.len() as u64, max: MAX_SNAPSHOT_ENTITIES as u64 });
    }
    r.finish()?;
    Ok(Snapshot { server_tick: ticks.server_tick, acked_cmd_tick, player, entities: out })
}
