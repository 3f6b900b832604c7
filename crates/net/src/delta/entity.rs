//! Field delta of one [`EntityState`], against a motion prediction.

use crate::codec::{DecodeError, Reader, Writer};
use crate::snapshot::{ANGLE_STEP, EntityKind, EntityState, ORIGIN_SCALE};

/// How far apart the base and the new snapshot are, for motion prediction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Motion {
    /// New tick minus base tick.
    pub gap: u32,
    /// Server ticks per second; 0 turns prediction off.
    pub tick_rate: u16,
}

/// Longest base-to-snapshot gap, in ticks, over which motion is predicted
/// (beyond it the prediction is worthless; 4 s at 60 Hz).
const MAX_PREDICT_TICKS: u32 = 255;

impl Motion {
    /// No prediction: plain deltas (new entities, full snapshots).
    pub const NONE: Self = Self { gap: 0, tick_rate: 0 };

    fn active(self) -> bool {
        self.tick_rate != 0 && self.gap != 0 && self.gap <= MAX_PREDICT_TICKS
    }

    /// `num / den` rounded half up, exact in i64 (`den > 0`): the one
    /// rounding both sides use.
    fn div_round(num: i64, den: i64) -> i64 {
        (2 * num + den).div_euclid(2 * den)
    }
}

// Field bits, most frequently changing first: a running, turning player
// sets only bits 0-5, a jumping or falling one bit 6 too, so its mask is one
// byte. Fields are written in bit order.
const ORIGIN_XY: [u32; 2] = [0, 1];
const YAW: u32 = 2;
const VELOCITY_XY: [u32; 2] = [3, 4];
const PITCH: u32 = 5;
/// Origin z and velocity z, together: in the air both leave their
/// prediction at once, and one bit for the pair keeps the mask one byte.
const VERTICAL: u32 = 6;
const FLAGS: u32 = 7;
const WEAPON: u32 = 8;
const AUX: u32 = 9;
const ROLL: u32 = 10;
const TEAM: u32 = 11;
const MODEL: u32 = 12;
const KIND: u32 = 13;
const FIELDS: u32 = 14;

/// `base` moved along its velocity for the motion's gap (Quake 3's linear
/// trajectories): what an entity that was not mentioned in a delta becomes.
pub fn predict_entity(base: &EntityState, m: Motion) -> EntityState {
    if !m.active() || base.velocity == [0; 3] {
        return *base;
    }
    let mut p = *base;
    for (o, v) in p.origin.iter_mut().zip(base.velocity) {
        // v · SCALE · gap / tick_rate eighths.
        let step = Motion::div_round(i64::from(v) * ORIGIN_SCALE as i64 * i64::from(m.gap), i64::from(m.tick_rate));
        *o = o.wrapping_add(step as i32);
    }
    p
}

/// The velocity a changed entity is expected to have now, from where it
/// went: with constant acceleration, `v1 = 2·Δorigin/Δt − v0`. Turning,
/// accelerating and falling bodies land close to it, so the residual sent
/// is small. When that estimate is within the noise origin quantization
/// puts into it, the entity is taken to keep its velocity (a rocket, a
/// player running straight), so the residual is exactly zero.
fn expected_velocity(base_origin: i32, new_origin: i32, base_v: i16, m: Motion) -> i16 {
    if !m.active() {
        return base_v;
    }
    let den = ORIGIN_SCALE as i64 * i64::from(m.gap);
    let moved = i64::from(new_origin.wrapping_sub(base_origin));
    let v0 = i64::from(base_v);
    let v1 = Motion::div_round(2 * moved * i64::from(m.tick_rate), den) - v0;
    // Each origin is off by up to half a step; 2·(1 step)/Δt, plus rounding.
    let noise = Motion::div_round(2 * i64::from(m.tick_rate), den) + 1;
    let v1 = if (v1 - v0).abs() <= noise { v0 } else { v1 };
    v1.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16
}

/// The reference each field of `new` is coded against.
fn references(base: &EntityState, new_origin: [i32; 3], m: Motion) -> (EntityState, [i16; 3]) {
    let p = predict_entity(base, m);
    let v = [0, 1, 2].map(|i| expected_velocity(base.origin[i], new_origin[i], base.velocity[i], m));
    (p, v)
}

/// Appends `new` as a delta against `base` moved by `motion` (the id is
/// written by the caller, see [`super::encode_snapshot`]).
///
/// ```text
/// varint  mask        bit 0 origin x; 1 origin y; 2 yaw; 3 velocity x; 4 velocity y;
///                     5 pitch; 6 vertical (origin z, velocity z); 7 flags;
///                     8 weapon; 9 aux; 10 roll; 11 team; 12 model; 13 kind
/// then, for each set bit in bit order:
///   origin:   svarint new - predicted (wrapping i32, 1/8 units)
///   velocity: svarint new - expected  (wrapping i16, units/s)
///   vertical: origin z then velocity z, as above (either may be 0)
///   angles:   varint  angle_code(new - base)  (wrapping i16, 1/65536 turn:
///             whole ANGLE_STEPs zig-zagged in bits 0-11, the rest in 12-15)
///   flags, aux, model: varint value;  weapon, team: u8;  kind: u8 tag
/// predicted = predict_entity(base), expected = 2·(new − base origin)/Δt − base v
/// ```
pub fn encode_entity(base: &EntityState, new: &EntityState, motion: Motion, w: &mut Writer) {
    let (p, v) = references(base, new.origin, motion);
    let mut values = [None::<Value>; FIELDS as usize];
    let mut put = |bit: u32, changed: bool, value: Value| {
        if changed && let Some(slot) = values.get_mut(bit as usize) {
            *slot = Some(value);
        }
    };
    let origin = |i: usize| i64::from(new.origin[i].wrapping_sub(p.origin[i]));
    let velocity = |i: usize| i64::from(new.velocity[i].wrapping_sub(v[i]));
    for i in 0..2 {
        put(ORIGIN_XY[i], new.origin[i] != p.origin[i], Value::Signed(origin(i)));
        put(VELOCITY_XY[i], new.velocity[i] != v[i], Value::Signed(velocity(i)));
    }
    put(VERTICAL, new.origin[2] != p.origin[2] || new.velocity[2] != v[2], Value::Pair(origin(2), velocity(2)));
    let angle = |i: usize| Value::Unsigned(angle_code(new.angles[i].wrapping_sub(base.angles[i]) as i16));
    put(PITCH, new.angles[0] != base.angles[0], angle(0));
    put(YAW, new.angles[1] != base.angles[1], angle(1));
    put(ROLL, new.angles[2] != base.angles[2], angle(2));
    put(FLAGS, new.flags != base.flags, Value::Unsigned(u64::from(new.flags)));
    put(WEAPON, new.weapon != base.weapon, Value::Byte(new.weapon));
    put(AUX, new.aux != base.aux, Value::Unsigned(u64::from(new.aux)));
    put(TEAM, new.team != base.team, Value::Byte(new.team));
    put(MODEL, new.model != base.model, Value::Unsigned(u64::from(new.model)));
    put(KIND, new.kind != base.kind, Value::Byte(new.kind.tag()));
    let mask = values.iter().enumerate().fold(0u64, |m, (bit, v)| if v.is_some() { m | (1 << bit) } else { m });
    w.varint(mask);
    for v in values.iter().flatten() {
        match *v {
            Value::Signed(x) => w.svarint(x),
            Value::Unsigned(x) => w.varint(x),
            Value::Byte(x) => w.u8(x),
            Value::Pair(a, b) => {
                w.svarint(a);
                w.svarint(b);
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Value {
    Signed(i64),
    Unsigned(u64),
    Byte(u8),
    Pair(i64, i64),
}

fn read_value(bit: u32, r: &mut Reader<'_>) -> Result<i64, DecodeError> {
    match bit {
        WEAPON | TEAM | KIND => Ok(i64::from(r.u8()?)),
        FLAGS | AUX | MODEL => Ok(i64::from(r.varint_u32()?)),
        PITCH | YAW | ROLL => Ok(i64::from(angle_from_code(r.varint()?)?)),
        _ => r.svarint(),
    }
}

/// Low bits of an angle below [`ANGLE_STEP`].
const ANGLE_FINE_BITS: u32 = ANGLE_STEP.trailing_zeros();

/// The varint code of an angle change `d` (1/65536 turn): its whole
/// [`ANGLE_STEP`]s zig-zagged in the low 12 bits, the remainder above them.
/// A change in whole steps, which is every change between angles from
/// [`crate::snapshot::quantize_angle`], is its step count: one byte up to
/// ±5.6°, two up to ±180°. Any other change still codes exactly, in three.
fn angle_code(d: i16) -> u64 {
    let steps = i64::from(d >> ANGLE_FINE_BITS);
    let fine = u64::from(d as u16 & (ANGLE_STEP - 1));
    (((steps << 1) ^ (steps >> 63)) as u64) | (fine << (16 - ANGLE_FINE_BITS))
}

/// The change [`angle_code`] coded.
fn angle_from_code(c: u64) -> Result<i16, DecodeError> {
    if c >> 16 != 0 {
        return Err(DecodeError::OutOfRange { what: "angle delta" });
    }
    let zz = c & ((1 << (16 - ANGLE_FINE_BITS)) - 1);
    let steps = ((zz >> 1) as i64) ^ -((zz & 1) as i64);
    let fine = (c >> (16 - ANGLE_FINE_BITS)) as i64;
    Ok(((steps << ANGLE_FINE_BITS) | fine) as i16)
}

fn narrow<T: TryFrom<i64>>(v: i64, what: &'static str) -> Result<T, DecodeError> {
    T::try_from(v).map_err(|_| DecodeError::OutOfRange { what })
}

/// Reads an entity written by [`encode_entity`] against the same `base` and
/// `motion` (the result keeps the base's id).
pub fn decode_entity(base: &EntityState, motion: Motion, r: &mut Reader<'_>) -> Result<EntityState, DecodeError> {
    let mask = r.varint_u32()?;
    if mask >> FIELDS != 0 {
        return Err(DecodeError::Invalid("entity field mask"));
    }
    let mut raw = [None::<i64>; FIELDS as usize];
    let mut velocity_z = None;
    for (bit, slot) in raw.iter_mut().enumerate() {
        if mask & (1 << bit) != 0 {
            *slot = Some(read_value(bit as u32, r)?);
            if bit as u32 == VERTICAL {
                velocity_z = Some(r.svarint()?);
            }
        }
    }
    let field = |bit: u32| raw.get(bit as usize).copied().flatten();
    let origin_deltas = [field(ORIGIN_XY[0]), field(ORIGIN_XY[1]), field(VERTICAL)];
    let velocity_deltas = [field(VELOCITY_XY[0]), field(VELOCITY_XY[1]), velocity_z];
    let p = predict_entity(base, motion);
    let mut e = *base;
    for ((o, delta), predicted) in e.origin.iter_mut().zip(origin_deltas).zip(p.origin) {
        *o = match delta {
            Some(d) => predicted.wrapping_add(narrow::<i32>(d, "origin delta")?),
            None => predicted,
        };
    }
    let (_, expected) = references(base, e.origin, motion);
    for ((v, delta), expected) in e.velocity.iter_mut().zip(velocity_deltas).zip(expected) {
        *v = match delta {
            Some(d) => expected.wrapping_add(narrow::<i16>(d, "velocity delta")?),
            None => expected,
        };
    }
    for (i, bit) in [PITCH, YAW, ROLL].into_iter().enumerate() {
        if let Some(d) = field(bit) {
            e.angles[i] = base.angles[i].wrapping_add(narrow::<i16>(d, "angle delta")? as u16);
        }
    }
    if let Some(x) = field(FLAGS) {
        e.flags = narrow(x, "entity flags")?;
    }
    if let Some(x) = field(WEAPON) {
        e.weapon = narrow(x, "weapon")?;
    }
    if let Some(x) = field(AUX) {
        e.aux = narrow(x, "aux")?;
    }
    if let Some(x) = field(TEAM) {
        e.team = narrow(x, "team")?;
    }
    if let Some(x) = field(MODEL) {
        e.model = narrow(x, "entity model")?;
    }
    if let Some(x) = field(KIND) {
        let tag: u8 = narrow(x, "entity kind")?;
        e.kind = EntityKind::from_tag(tag).ok_or(DecodeError::UnknownTag { what: "entity kind", tag: u64::from(tag) })?;
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angle_codes_are_a_bijection_and_whole_steps_are_short() {
        let mut seen = vec![false; 1 << 16];
        for d in i16::MIN..=i16::MAX {
            let c = angle_code(d);
            assert!(c < 1 << 16, "{d}: {c}");
            assert_eq!(angle_from_code(c), Ok(d));
            assert!(!std::mem::replace(&mut seen[c as usize], true), "{d}: {c} twice");
        }
        // ±63 steps (±5.5°) fit a one-byte varint, any whole-step change two.
        assert!(angle_code(63 * ANGLE_STEP as i16) < 128 && angle_code(-64 * ANGLE_STEP as i16) < 128);
        assert!(angle_code(i16::MIN) < 1 << 14 && angle_code(i16::MAX - 15) < 1 << 14);
        assert!(angle_from_code(1 << 16).is_err());
    }
}
