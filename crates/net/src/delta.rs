//! Delta compression of snapshots against a base the client acknowledged.
//!
//! The Quake 3 scheme (`msg.c` `MSG_WriteDeltaEntity`, `sv_snapshot.c`
//! `SV_EmitPacketEntities`): the server encodes each snapshot against the
//! last one that client acknowledged; a field that did not change costs one
//! mask bit, an entity that did not change costs nothing, and the entity
//! lists are merge-joined by id into "changed", "new" and "removed"
//! entries. Without a usable base the same code encodes against an empty
//! snapshot, which is a full snapshot.
//!
//! Field masks are LEB128 varints whose low bits are the fields that change
//! most (origin, yaw, velocity), so a moving player's mask is one byte.
//! Quantized entity fields that move continuously (origin, angles, velocity)
//! are sent as wrapping zig-zag differences from the base, so small moves
//! are one or two bytes; discrete fields are sent as their new value. The
//! client's own [`PlayerState`] is sent in full precision (f32 bits) because
//! it drives prediction.
//!
//! Every function here is pure; decoding is bounds-checked and never panics.

use crate::codec::{DecodeError, Reader, Writer};
use crate::snapshot::{AMMO_SLOTS, EntityKind, EntityState, PlayerState};
#[cfg(test)]
use crate::snapshot::Snapshot;

/// Why a snapshot could not be encoded (a bug in the caller, not the peer).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// Entities were not sorted by id, or an id repeated.
    #[error("entities not sorted by unique id")]
    UnsortedEntities,
    /// More than [`crate::snapshot::MAX_SNAPSHOT_ENTITIES`] entities.
    #[error("{0} entities exceed the snapshot limit")]
    TooManyEntities(usize),
    /// The base snapshot is not older than the new one.
    #[error("base tick {base} is not before snapshot tick {tick}")]
    BaseNotOlder {
        /// Base tick.
        base: u32,
        /// New tick.
        tick: u32,
    },
}

// PlayerState field bits, most frequently changing first.
const P_ORIGIN: u32 = 0; // bits 0..=2
const P_VELOCITY: u32 = 3; // bits 3..=5
const P_YAW: u32 = 1 << 6;
const P_PITCH: u32 = 1 << 7;
const P_HEALTH: u32 = 1 << 8;
const P_ARMOR: u32 = 1 << 9;
const P_WEAPON: u32 = 1 << 10;
const P_AMMO: u32 = 1 << 11;
const P_WEAPONS: u32 = 1 << 12;
const P_POWERUPS: u32 = 1 << 13;
const P_FLAGS: u32 = 1 << 14;
const P_SCORE: u32 = 1 << 15;
const P_TEAM: u32 = 1 << 16;
const P_ALL: u32 = (1 << 17) - 1;

fn f32_changed(a: f32, b: f32) -> bool {
    a.to_bits() != b.to_bits()
}

/// Appends `new` delta-coded against `base`.
///
/// ```text
/// varint  mask        bit 0-2 origin x,y,z; 3-5 velocity x,y,z; 6 yaw; 7 pitch;
///                     8 health; 9 armor; 10 weapon; 11 ammo; 12 weapons;
///                     13 powerups; 14 flags; 15 score; 16 team
/// f32 × n origin, velocity, yaw, pitch   each if its bit is set (IEEE bits)
/// svarint health, armor                  if set
/// u8      weapon                         if set
/// varint  ammo mask (bit n = slot n) then svarint per set slot   if set
/// varint  weapons; u8 powerups; varint flags; svarint score; u8 team   if set
/// ```
pub fn encode_player(base: &PlayerState, new: &PlayerState, w: &mut Writer) {
    let mut mask = 0u32;
    for i in 0..3 {
        if f32_changed(base.origin[i], new.origin[i]) {
            mask |= 1 << (P_ORIGIN + i as u32);
        }
        if f32_changed(base.velocity[i], new.velocity[i]) {
            mask |= 1 << (P_VELOCITY + i as u32);
        }
    }
    let set = |cond: bool, bit: u32| if cond { bit } else { 0 };
    mask |= set(f32_changed(base.yaw, new.yaw), P_YAW) | set(f32_changed(base.pitch, new.pitch), P_PITCH);
    mask |= set(base.health != new.health, P_HEALTH) | set(base.armor != new.armor, P_ARMOR);
    mask |= set(base.weapon != new.weapon, P_WEAPON) | set(base.ammo != new.ammo, P_AMMO);
    mask |= set(base.weapons != new.weapons, P_WEAPONS) | set(base.powerups != new.powerups, P_POWERUPS);
    mask |= set(base.flags != new.flags, P_FLAGS) | set(base.score != new.score, P_SCORE);
    mask |= set(base.team != new.team, P_TEAM);
    w.varint(u64::from(mask));
    for i in 0..3 {
        if mask & (1 << (P_ORIGIN + i as u32)) != 0 {
            w.f32(new.origin[i]);
        }
    }
    for i in 0..3 {
        if mask & (1 << (P_VELOCITY + i as u32)) != 0 {
            w.f32(new.velocity[i]);
        }
    }
    if mask & P_YAW != 0 {
        w.f32(new.yaw);
    }
    if mask & P_PITCH != 0 {
        w.f32(new.pitch);
    }
    if mask & P_HEALTH != 0 {
        w.svarint(i64::from(new.health));
    }
    if mask & P_ARMOR != 0 {
        w.svarint(i64::from(new.armor));
    }
    if mask & P_WEAPON != 0 {
        w.u8(new.weapon);
    }
    if mask & P_AMMO != 0 {
        let changed: Vec<usize> = (0..AMMO_SLOTS).filter(|&i| base.ammo.get(i) != new.ammo.get(i)).collect();
        w.varint(changed.iter().fold(0u64, |m, &i| m | (1 << i)));
        for i in changed {
            w.svarint(i64::from(new.ammo.get(i).copied().unwrap_or(0)));
        }
    }
    if mask & P_WEAPONS != 0 {
        w.varint(u64::from(new.weapons));
    }
    if mask & P_POWERUPS != 0 {
        w.u8(new.powerups);
    }
    if mask & P_FLAGS != 0 {
        w.varint(u64::from(new.flags));
    }
    if mask & P_SCORE != 0 {
        w.svarint(i64::from(new.score));
    }
    if mask & P_TEAM != 0 {
        w.u8(new.team);
    }
}

/// Reads a [`PlayerState`] written by [`encode_player`] against `base`.
pub fn decode_player(base: &PlayerState, r: &mut Reader<'_>) -> Result<PlayerState, DecodeError> {
    let mask = r.varint_u32()?;
    if mask & !P_ALL != 0 {
        return Err(DecodeError::Invalid("player field mask"));
    }
    let mut p = *base;
    for i in 0..3 {
        if mask & (1 << (P_ORIGIN + i as u32)) != 0 {
            p.origin[i] = r.f32()?;
        }
    }
    for i in 0..3 {
        if mask & (1 << (P_VELOCITY + i as u32)) != 0 {
            p.velocity[i] = r.f32()?;
        }
    }
    if mask & P_YAW != 0 {
        p.yaw = r.f32()?;
    }
    if mask & P_PITCH != 0 {
        p.pitch = r.f32()?;
    }
    if mask & P_HEALTH != 0 {
        p.health = r.svarint_i32()?;
    }
    if mask & P_ARMOR != 0 {
        p.armor = r.svarint_i32()?;
    }
    if mask & P_WEAPON != 0 {
        p.weapon = r.u8()?;
    }
    if mask & P_AMMO != 0 {
        let slots = r.varint()?;
        if slots >> AMMO_SLOTS != 0 {
            return Err(DecodeError::Invalid("ammo mask"));
        }
        for (i, slot) in p.ammo.iter_mut().enumerate() {
            if slots & (1 << i) != 0 {
                *slot = r.svarint_i32()?;
            }
        }
    }
    if mask & P_WEAPONS != 0 {
        p.weapons = r.varint_u32()?;
    }
    if mask & P_POWERUPS != 0 {
        p.powerups = r.u8()?;
    }
    if mask & P_FLAGS != 0 {
        p.flags = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "player flags" })?;
    }
    if mask & P_SCORE != 0 {
        p.score = r.svarint_i32()?;
    }
    if mask & P_TEAM != 0 {
        p.team = r.u8()?;
    }
    Ok(p)
}

// EntityState field bits, most frequently changing first.
const E_ORIGIN: u32 = 0; // bits 0..=2
const E_YAW: u32 = 1 << 3;
const E_VELOCITY: u32 = 4; // bits 4..=6
const E_PITCH: u32 = 1 << 7;
const E_FLAGS: u32 = 1 << 8;
const E_WEAPON: u32 = 1 << 9;
const E_AUX: u32 = 1 << 10;
const E_ROLL: u32 = 1 << 11;
const E_TEAM: u32 = 1 << 12;
const E_MODEL: u32 = 1 << 13;
const E_KIND: u32 = 1 << 14;
const E_ALL: u32 = (1 << 15) - 1;

/// Appends `new`'s fields that differ from `base` (the id is written by the
/// caller, see [`encode_snapshot`]).
///
/// ```text
/// varint  mask        bit 0-2 origin x,y,z; 3 yaw; 4-6 velocity x,y,z; 7 pitch;
///                     8 flags; 9 weapon; 10 aux; 11 roll; 12 team; 13 model; 14 kind
/// svarint origin[i]   new - base (wrapping i32), if set
/// svarint yaw         new - base (wrapping i16), if set
/// svarint velocity[i] new - base (wrapping i16), if set
/// svarint pitch       new - base (wrapping i16), if set
/// varint flags; u8 weapon; varint aux; svarint roll delta; u8 team;
/// varint model; u8 kind tag                              each if set
/// ```
pub fn encode_entity(base: &EntityState, new: &EntityState, w: &mut Writer) {
    let mut mask = 0u32;
    for i in 0..3 {
        if base.origin[i] != new.origin[i] {
            mask |= 1 << (E_ORIGIN + i as u32);
        }
        if base.velocity[i] != new.velocity[i] {
            mask |= 1 << (E_VELOCITY + i as u32);
        }
    }
    let set = |cond: bool, bit: u32| if cond { bit } else { 0 };
    mask |= set(base.angles[1] != new.angles[1], E_YAW) | set(base.angles[0] != new.angles[0], E_PITCH);
    mask |= set(base.angles[2] != new.angles[2], E_ROLL) | set(base.flags != new.flags, E_FLAGS);
    mask |= set(base.weapon != new.weapon, E_WEAPON) | set(base.aux != new.aux, E_AUX);
    mask |= set(base.team != new.team, E_TEAM) | set(base.model != new.model, E_MODEL);
    mask |= set(base.kind != new.kind, E_KIND);
    w.varint(u64::from(mask));
    let angle = |w: &mut Writer, a: u16, b: u16| w.svarint(i64::from(b.wrapping_sub(a) as i16));
    for i in 0..3 {
        if mask & (1 << (E_ORIGIN + i as u32)) != 0 {
            w.svarint(i64::from(new.origin[i].wrapping_sub(base.origin[i])));
        }
    }
    if mask & E_YAW != 0 {
        angle(w, base.angles[1], new.angles[1]);
    }
    for i in 0..3 {
        if mask & (1 << (E_VELOCITY + i as u32)) != 0 {
            w.svarint(i64::from(new.velocity[i].wrapping_sub(base.velocity[i])));
        }
    }
    if mask & E_PITCH != 0 {
        angle(w, base.angles[0], new.angles[0]);
    }
    if mask & E_FLAGS != 0 {
        w.varint(u64::from(new.flags));
    }
    if mask & E_WEAPON != 0 {
        w.u8(new.weapon);
    }
    if mask & E_AUX != 0 {
        w.varint(u64::from(new.aux));
    }
    if mask & E_ROLL != 0 {
        angle(w, base.angles[2], new.angles[2]);
    }
    if mask & E_TEAM != 0 {
        w.u8(new.team);
    }
    if mask & E_MODEL != 0 {
        w.varint(u64::from(new.model));
    }
    if mask & E_KIND != 0 {
        w.u8(new.kind.tag());
    }
}

fn small_delta<T: TryFrom<i64>>(r: &mut Reader<'_>, what: &'static str) -> Result<T, DecodeError> {
    T::try_from(r.svarint()?).map_err(|_| DecodeError::OutOfRange { what })
}

/// Reads an entity written by [`encode_entity`] against `base` (whose id it keeps).
pub fn decode_entity(base: &EntityState, r: &mut Reader<'_>) -> Result<EntityState, DecodeError> {
    let mask = r.varint_u32()?;
    if mask & !E_ALL != 0 {
        return Err(DecodeError::Invalid("entity field mask"));
    }
    let mut e = *base;
    let angle = |r: &mut Reader<'_>, a: u16| -> Result<u16, DecodeError> { Ok(a.wrapping_add(small_delta::<i16>(r, "angle delta")? as u16)) };
    for i in 0..3 {
        if mask & (1 << (E_ORIGIN + i as u32)) != 0 {
            e.origin[i] = base.origin[i].wrapping_add(small_delta::<i32>(r, "origin delta")?);
        }
    }
    if mask & E_YAW != 0 {
        e.angles[1] = angle(r, base.angles[1])?;
    }
    for i in 0..3 {
        if mask & (1 << (E_VELOCITY + i as u32)) != 0 {
            e.velocity[i] = base.velocity[i].wrapping_add(small_delta::<i16>(r, "velocity delta")?);
        }
    }
    if mask & E_PITCH != 0 {
        e.angles[0] = angle(r, base.angles[0])?;
    }
    if mask & E_FLAGS != 0 {
        e.flags = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "entity flags" })?;
    }
    if mask & E_WEAPON != 0 {
        e.weapon = r.u8()?;
    }
    if mask & E_AUX != 0 {
        e.aux = r.varint_u32()?;
    }
    if mask & E_ROLL != 0 {
        e.angles[2] = angle(r, base.angles[2])?;
    }
    if mask & E_TEAM != 0 {
        e.team = r.u8()?;
    }
    if mask & E_MODEL != 0 {
        e.model = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "entity model" })?;
    }
    if mask & E_KIND != 0 {
        let tag = r.u8()?;
        e.kind = EntityKind::from_tag(tag).ok_or(DecodeError::UnknownTag { what: "entity kind", tag: u64::from(tag) })?;
    }
    Ok(e)
}

const OP_CHANGED: u64 = 0;
const OP_NEW: u64 = 1;
const OP_REMOVED: u64 = 2;

mod snapshot;
pub use snapshot::{SnapshotTicks, decode_snapshot, encode_snapshot, peek_snapshot_ticks};

#[cfg(test)]
mod tests;
