//! A whole snapshot against a base: header, own player, merged entity list.

use super::{EncodeError, Motion, decode_player, encode_player};
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
/// list    entities      the entity list against the base's (a full snapshot's
///                       base list is empty: every entity is new), by id or by
///                       bitmap: see the layouts in list.rs
/// events  the new snapshot's own (crate::event::encode_events; a base's
///         events are not sent again)
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
    events: &'a [crate::event::SnapshotEvent],
}

impl<'a> View<'a> {
    fn of_snapshot(s: &'a Snapshot) -> Self {
        Self { server_tick: s.server_tick, acked_cmd_tick: s.acked_cmd_tick, player: &s.player, entities: &s.entities, skip: None, events: &s.events }
    }

    fn of_shared(s: &'a SharedSnapshot) -> Self {
        Self { server_tick: s.server_tick, acked_cmd_tick: s.acked_cmd_tick, player: &s.player, entities: &s.entities, skip: s.own, events: &s.events }
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

    super::list::encode_entities(base.map(View::entities).into_iter().flatten(), new.entities(), motion, w);
    crate::event::encode_events(new.events, w);
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
    let lag = r.svarint()?;
    let acked_cmd_tick = i64::from(ticks.server_tick)
        .checked_sub(lag)
        .and_then(|t| u32::try_from(t).ok())
        .ok_or(DecodeError::OutOfRange { what: "acked command tick" })?;
    let zero = PlayerState::default();
    let player = decode_player(base.map_or(&zero, |b| &b.player), &mut r)?;

    let old: &[EntityState] = base.map_or(&[], |b| &b.entities);
    let entities = super::list::decode_entities(old, motion, &mut r)?;
    let events = crate::event::decode_events(&mut r)?;
    r.finish()?;
    Ok(Snapshot { server_tick: ticks.server_tick, acked_cmd_tick, player, entities, events })
}
