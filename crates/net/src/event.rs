//! What happened since a client's last snapshot that it shows or plays but
//! does not keep: a sound, a hitscan shot's path, a hit it dealt, a hurt it
//! took.
//!
//! Events ride in the next snapshot to the client, once, and are lost with
//! it: they are cosmetic, as Source's temporary entities and sounds are,
//! and repeating them until acknowledged would cost more than an
//! occasional missing spark. State that matters (health, who is dead,
//! where a rocket is) is always in the snapshot itself.

use crate::codec::{DecodeError, Reader, Writer};

/// The most events one snapshot carries; the server keeps the newest, the
/// decoder refuses more.
pub const MAX_SNAPSHOT_EVENTS: usize = 32;

/// [`EventKind::Sound`]: a footstep.
pub const SOUND_FOOTSTEP: u8 = 0;
/// [`EventKind::Sound`]: a jump.
pub const SOUND_JUMP: u8 = 1;
/// [`EventKind::Sound`]: a hard landing.
pub const SOUND_LAND: u8 = 2;
/// [`EventKind::Sound`]: a weapon fired (`aux`: the weapon).
pub const SOUND_GUNFIRE: u8 = 3;
/// [`EventKind::Sound`]: an explosion.
pub const SOUND_EXPLOSION: u8 = 4;
/// [`EventKind::Sound`]: an item picked up.
pub const SOUND_PICKUP: u8 = 5;
/// [`EventKind::Sound`]: an item came back.
pub const SOUND_RESPAWN: u8 = 6;
/// [`EventKind::Sound`]: someone hurt.
pub const SOUND_PAIN: u8 = 7;
/// [`EventKind::Sound`]: a jump pad.
pub const SOUND_JUMP_PAD: u8 = 8;
/// [`EventKind::Sound`]: a teleport (at both ends).
pub const SOUND_TELEPORT: u8 = 9;
/// [`EventKind::Sound`]: a door or platform starting or stopping.
pub const SOUND_MOVER: u8 = 10;
/// The sound numbers known; a larger one is refused.
pub const SOUND_COUNT: u8 = 11;

/// What an event is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A sound at `origin`: `what` is one of the `SOUND_*` numbers.
    #[default]
    Sound,
    /// A hitscan shot from `origin` to `end`: `what` is the weapon.
    Shot,
    /// The receiving player hit someone at `origin` for `aux` damage.
    Hit,
    /// The receiving player was hurt for `aux` damage from `origin`'s direction.
    Hurt,
}

impl EventKind {
    /// The wire tag.
    pub fn tag(self) -> u8 {
        match self {
            Self::Sound => 0,
            Self::Shot => 1,
            Self::Hit => 2,
            Self::Hurt => 3,
        }
    }

    /// The kind for a wire tag, `None` for an unknown one.
    pub fn from_tag(tag: u8) -> Option<Self> {
        Some(match tag {
            0 => Self::Sound,
            1 => Self::Shot,
            2 => Self::Hit,
            3 => Self::Hurt,
            _ => return None,
        })
    }
}

/// One event, in whole units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SnapshotEvent {
    /// What it is.
    pub kind: EventKind,
    /// The sound (`SOUND_*`) or the weapon, by kind.
    pub what: u8,
    /// Where: the sound, the muzzle, the one hit, where a hurt came from.
    pub origin: [i32; 3],
    /// Where a shot ended (other kinds: the origin).
    pub end: [i32; 3],
    /// Who made it: a slot plus one, 0 for nobody (the world, a mover).
    pub source: u8,
    /// The weapon of a gunfire sound, the damage of a hit or a hurt.
    pub aux: u16,
}

/// Whole units from a world position, clamped to the world; not finite: 0.
pub fn whole_units(v: [f32; 3]) -> [i32; 3] {
    let max = crate::snapshot::MAX_WORLD_COORD;
    v.map(|c| if c.is_finite() { c.clamp(-max, max).round() as i32 } else { 0 })
}

/// Appends `events` (at most [`MAX_SNAPSHOT_EVENTS`]: the newest are kept).
///
/// ```text
/// varint  count
/// per event:
///   u8      kind tag
///   u8      what
///   svarint origin x, y, z
///   svarint end - origin x, y, z    Shot only
///   u8      source
///   varint  aux
/// ```
pub fn encode_events(events: &[SnapshotEvent], w: &mut Writer) {
    let kept = &events[events.len().saturating_sub(MAX_SNAPSHOT_EVENTS)..];
    w.varint(kept.len() as u64);
    for e in kept {
        w.u8(e.kind.tag());
        w.u8(e.what);
        for c in e.origin {
            w.svarint(i64::from(c));
        }
        if e.kind == EventKind::Shot {
            for (a, b) in e.end.iter().zip(e.origin) {
                w.svarint(i64::from(*a) - i64::from(b));
            }
        }
        w.u8(e.source);
        w.varint(u64::from(e.aux));
    }
}

/// Reads what [`encode_events`] wrote.
pub fn decode_events(r: &mut Reader<'_>) -> Result<Vec<SnapshotEvent>, DecodeError> {
    let count = r.varint_max(MAX_SNAPSHOT_EVENTS as u64, "snapshot events")? as usize;
    let max = crate::snapshot::MAX_WORLD_COORD as i64;
    let coord = |r: &mut Reader<'_>, base: i64| -> Result<i32, DecodeError> {
        let v = base.checked_add(r.svarint()?).filter(|v| (-max..=max).contains(v)).ok_or(DecodeError::OutOfRange { what: "event position" })?;
        i32::try_from(v).map_err(|_| DecodeError::OutOfRange { what: "event position" })
    };
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let tag = r.u8()?;
        let kind = EventKind::from_tag(tag).ok_or(DecodeError::UnknownTag { what: "event kind", tag: u64::from(tag) })?;
        let what = r.u8()?;
        if kind == EventKind::Sound && what >= SOUND_COUNT {
            return Err(DecodeError::UnknownTag { what: "sound", tag: u64::from(what) });
        }
        let mut origin = [0; 3];
        for c in &mut origin {
            *c = coord(r, 0)?;
        }
        let mut end = origin;
        if kind == EventKind::Shot {
            for (c, o) in end.iter_mut().zip(origin) {
                *c = coord(r, i64::from(o))?;
            }
        }
        let source = r.u8()?;
        let aux = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "event aux" })?;
        out.push(SnapshotEvent { kind, what, origin, end, source, aux });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(events: &[SnapshotEvent]) -> Vec<SnapshotEvent> {
        let mut w = Writer::new();
        encode_events(events, &mut w);
        let bytes = w.into_inner();
        let mut r = Reader::new(&bytes);
        let back = decode_events(&mut r).expect("decodes");
        r.finish().expect("nothing left over");
        back
    }

    #[test]
    fn events_round_trip_and_only_the_newest_are_kept() {
        let shot = SnapshotEvent { kind: EventKind::Shot, what: 7, origin: [100, -200, 30], end: [900, -250, 10], source: 3, aux: 0 };
        let sound = SnapshotEvent { kind: EventKind::Sound, what: SOUND_GUNFIRE, origin: [1, 2, 3], end: [1, 2, 3], source: 1, aux: 7 };
        let hurt = SnapshotEvent { kind: EventKind::Hurt, what: 0, origin: [-65536, 0, 65536], end: [-65536, 0, 65536], source: 0, aux: 100 };
        assert_eq!(round_trip(&[shot, sound, hurt]), vec![shot, sound, hurt]);
        let many: Vec<SnapshotEvent> = (0..40).map(|i| SnapshotEvent { aux: i, ..sound }).collect();
        let back = round_trip(&many);
        assert_eq!(back.len(), MAX_SNAPSHOT_EVENTS);
        assert_eq!(back.first().map(|e| e.aux), Some(8), "the oldest are dropped");
    }

    #[test]
    fn a_sound_costs_a_few_bytes() {
        let mut w = Writer::new();
        encode_events(&[SnapshotEvent { kind: EventKind::Sound, what: SOUND_JUMP, origin: [1000, -1000, 64], end: [0; 3], source: 5, aux: 0 }], &mut w);
        // Count, kind, sound, three two-byte coordinates, source, aux.
        assert!(w.len() <= 11, "{} bytes", w.len());
    }

    #[test]
    fn bad_events_are_refused() {
        let decode = |bytes: &[u8]| decode_events(&mut Reader::new(bytes));
        assert!(matches!(decode(&[1, 9]), Err(DecodeError::UnknownTag { what: "event kind", .. })));
        assert!(matches!(decode(&[1, 0, SOUND_COUNT]), Err(DecodeError::UnknownTag { what: "sound", .. })));
        assert!(matches!(decode(&[33]), Err(DecodeError::TooLong { .. })));
        assert!(decode(&[1, 0, 0, 0]).is_err(), "cut short");
        assert_eq!(whole_units([f32::NAN, 1e9, -2.6]), [0, 65536, -3]);
    }
}
