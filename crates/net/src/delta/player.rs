//! Field delta of the client's own [`PlayerState`] (full precision).

use crate::codec::{DecodeError, Reader, Writer};
use crate::snapshot::{AMMO_SLOTS, PlayerState};

// PlayerState field bits, most frequently changing first: a player
// running and turning on the ground sets only bits 0-5, so the mask is one
// byte; the vertical axis (jumps, falls) comes after.
const P_ORIGIN: [u32; 3] = [0, 1, 6];
const P_VELOCITY: [u32; 3] = [2, 3, 7];
const P_YAW: u32 = 1 << 4;
const P_PITCH: u32 = 1 << 5;
const P_HEALTH: u32 = 1 << 8;
const P_ARMOR: u32 = 1 << 9;
const P_WEAPON: u32 = 1 << 10;
const P_AMMO: u32 = 1 << 11;
const P_WEAPONS: u32 = 1 << 12;
const P_POWERUPS: u32 = 1 << 13;
const P_FLAGS: u32 = 1 << 14;
const P_SCORE: u32 = 1 << 15;
const P_TEAM: u32 = 1 << 16;
const P_DELTA_ANGLES: u32 = 1 << 17;
const P_MOVE_TIMERS: u32 = 1 << 18;
const P_ALL: u32 = (1 << 19) - 1;

/// A float as the wrapping difference of its IEEE bits from the base's.
/// Exact for every value (NaNs included); nearby values of the same sign
/// and magnitude share their high bits, so the difference takes 2-3 bytes
/// instead of 4.
fn write_float(w: &mut Writer, base: f32, new: f32) {
    w.svarint(i64::from(new.to_bits().wrapping_sub(base.to_bits()) as i32));
}

fn read_float(r: &mut Reader<'_>, base: f32) -> Result<f32, DecodeError> {
    let d = i32::try_from(r.svarint()?).map_err(|_| DecodeError::OutOfRange { what: "float delta" })?;
    Ok(f32::from_bits(base.to_bits().wrapping_add(d as u32)))
}

fn f32_changed(a: f32, b: f32) -> bool {
    a.to_bits() != b.to_bits()
}

/// Appends `new` delta-coded against `base`.
///
/// ```text
/// varint  mask        bit 0 origin x; 1 origin y; 2 velocity x; 3 velocity y;
///                     4 yaw; 5 pitch; 6 origin z; 7 velocity z;
///                     8 health; 9 armor; 10 weapon; 11 ammo; 12 weapons;
///                     13 powerups; 14 flags; 15 score; 16 team;
///                     17 delta angles; 18 move timers
/// svarint origin, velocity, yaw, pitch  each if set: new bits - base bits
///                                      (f32 IEEE bits, wrapping i32: exact)
/// svarint health, armor                  if set
/// u8      weapon                         if set
/// varint  ammo mask (bit n = slot n) then svarint per set slot   if set
/// varint  weapons; u8 powerups; varint flags; svarint score; u8 team   if set
/// svarint delta pitch, delta yaw (f32 bits against the base's)          if set
/// svarint 4 move timers (f32 bits against the base's)                    if set
/// ```
pub fn encode_player(base: &PlayerState, new: &PlayerState, w: &mut Writer) {
    let mut mask = 0u32;
    for i in 0..3 {
        if f32_changed(base.origin[i], new.origin[i]) {
            mask |= 1 << P_ORIGIN[i];
        }
        if f32_changed(base.velocity[i], new.velocity[i]) {
            mask |= 1 << P_VELOCITY[i];
        }
    }
    let set = |cond: bool, bit: u32| if cond { bit } else { 0 };
    mask |= set(f32_changed(base.yaw, new.yaw), P_YAW) | set(f32_changed(base.pitch, new.pitch), P_PITCH);
    mask |= set(base.health != new.health, P_HEALTH) | set(base.armor != new.armor, P_ARMOR);
    mask |= set(base.weapon != new.weapon, P_WEAPON) | set(base.ammo != new.ammo, P_AMMO);
    mask |= set(base.weapons != new.weapons, P_WEAPONS) | set(base.powerups != new.powerups, P_POWERUPS);
    mask |= set(base.flags != new.flags, P_FLAGS) | set(base.score != new.score, P_SCORE);
    mask |= set(base.team != new.team, P_TEAM);
    let delta_changed = (0..2).any(|i| f32_changed(base.delta_angles[i], new.delta_angles[i]));
    mask |= set(delta_changed, P_DELTA_ANGLES);
    let timers_changed = (0..4).any(|i| f32_changed(base.move_timers[i], new.move_timers[i]));
    mask |= set(timers_changed, P_MOVE_TIMERS);
    w.varint(u64::from(mask));
    for (i, bit) in P_ORIGIN.into_iter().enumerate() {
        if mask & (1 << bit) != 0 {
            write_float(w, base.origin[i], new.origin[i]);
        }
    }
    for (i, bit) in P_VELOCITY.into_iter().enumerate() {
        if mask & (1 << bit) != 0 {
            write_float(w, base.velocity[i], new.velocity[i]);
        }
    }
    if mask & P_YAW != 0 {
        write_float(w, base.yaw, new.yaw);
    }
    if mask & P_PITCH != 0 {
        write_float(w, base.pitch, new.pitch);
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
    if mask & P_DELTA_ANGLES != 0 {
        for i in 0..2 {
            write_float(w, base.delta_angles[i], new.delta_angles[i]);
        }
    }
    if mask & P_MOVE_TIMERS != 0 {
        for i in 0..4 {
            write_float(w, base.move_timers[i], new.move_timers[i]);
        }
    }
}

/// Reads a [`PlayerState`] written by [`encode_player`] against `base`.
pub fn decode_player(base: &PlayerState, r: &mut Reader<'_>) -> Result<PlayerState, DecodeError> {
    let mask = r.varint_u32()?;
    if mask & !P_ALL != 0 {
        return Err(DecodeError::Invalid("player field mask"));
    }
    let mut p = *base;
    for ((o, b), bit) in p.origin.iter_mut().zip(base.origin).zip(P_ORIGIN) {
        if mask & (1 << bit) != 0 {
            *o = read_float(r, b)?;
        }
    }
    for ((v, b), bit) in p.velocity.iter_mut().zip(base.velocity).zip(P_VELOCITY) {
        if mask & (1 << bit) != 0 {
            *v = read_float(r, b)?;
        }
    }
    if mask & P_YAW != 0 {
        p.yaw = read_float(r, base.yaw)?;
    }
    if mask & P_PITCH != 0 {
        p.pitch = read_float(r, base.pitch)?;
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
    if mask & P_DELTA_ANGLES != 0 {
        for i in 0..2 {
            p.delta_angles[i] = read_float(r, base.delta_angles[i])?;
        }
    }
    if mask & P_MOVE_TIMERS != 0 {
        for i in 0..4 {
            p.move_timers[i] = read_float(r, base.move_timers[i])?;
        }
    }
    Ok(p)
}
