//! What a client sees of the game in one server tick, in wire units.
//!
//! A [`Snapshot`] is the client's own [`PlayerState`] in full precision (it
//! predicts its own movement from it) plus one quantized [`EntityState`] per
//! other visible entity. The server converts its simulation into these; this
//! crate never sees the ECS. How snapshots travel (delta against the last
//! acknowledged one) is in [`crate::delta`].
//!
//! Units: Quake units and degrees, Z up, like the simulation. Entity origins
//! are in 1/8 unit ([`ORIGIN_SCALE`]), angles in 1/65536 of a turn
//! (snapped to [`ANGLE_STEP`] by [`quantize_angle`]),
//! velocities in whole units per second; the helper functions below convert.

use std::sync::Arc;

pub use crate::event::SnapshotEvent;

/// How many eighths of a unit one origin step is: Quake 3 snaps entity
/// origins to whole units; 1/8 keeps slow movers smooth while a 10-unit step
/// at 60 Hz still delta-codes into two bytes.
pub const ORIGIN_SCALE: f32 = 8.0;

/// The largest world coordinate that quantizes without clamping (Quake 3's
/// `MAX_WORLD_COORD` is 65536; ours matches).
pub const MAX_WORLD_COORD: f32 = 65536.0;

/// The most entities one snapshot may carry (Quake 3 `MAX_GENTITIES`; the
/// decoder rejects more). The server should send far fewer.
pub const MAX_SNAPSHOT_ENTITIES: usize = 1024;

/// How many weapon slots carry ammo (the sim's `MAX_WEAPONS`).
pub const AMMO_SLOTS: usize = 16;

/// [`PlayerState::flags`]: standing on ground.
pub const PF_ON_GROUND: u16 = 1;
/// [`PlayerState::flags`]: crouched.
pub const PF_CROUCHED: u16 = 1 << 1;
/// [`PlayerState::flags`]: dead (waiting to respawn).
pub const PF_DEAD: u16 = 1 << 2;
/// [`PlayerState::flags`]: spectating.
pub const PF_SPECTATOR: u16 = 1 << 3;
/// [`PlayerState::flags`]: frozen (Freeze Tag) or otherwise unable to move.
pub const PF_FROZEN: u16 = 1 << 4;
/// [`PlayerState::flags`]: jump is held and was used (no jump until released).
pub const PF_JUMP_HELD: u16 = 1 << 5;

/// [`PlayerState::move_timers`]: seconds left without ground friction after a hit.
pub const MT_KNOCKBACK: usize = 0;
/// [`PlayerState::move_timers`]: seconds left of a hard landing.
pub const MT_LAND: usize = 1;
/// [`PlayerState::move_timers`]: seconds since a teleport, counting down.
pub const MT_TELEPORT: usize = 2;
/// [`PlayerState::move_timers`]: seconds left of a jump out of water.
pub const MT_WATER_JUMP: usize = 3;

/// [`PlayerState::powerups`]: quad damage.
pub const PW_QUAD: u8 = 1;
/// [`PlayerState::powerups`]: haste.
pub const PW_HASTE: u8 = 1 << 1;
/// [`PlayerState::powerups`]: regeneration.
pub const PW_REGEN: u8 = 1 << 2;
/// [`PlayerState::powerups`]: invisibility.
pub const PW_INVIS: u8 = 1 << 3;
/// [`PlayerState::powerups`]: carrying the red flag.
pub const PW_RED_FLAG: u8 = 1 << 4;
/// [`PlayerState::powerups`]: carrying the blue flag.
pub const PW_BLUE_FLAG: u8 = 1 << 5;
/// [`PlayerState::powerups`]: carrying the neutral flag (One Flag).
pub const PW_NEUTRAL_FLAG: u8 = 1 << 6;

/// The receiving client's own player, in full precision.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PlayerState {
    /// Box origin, units.
    pub origin: [f32; 3],
    /// Velocity, units/s.
    pub velocity: [f32; 3],
    /// View pitch, degrees.
    pub pitch: f32,
    /// View yaw, degrees.
    pub yaw: f32,
    /// Added to the angles of every command the client sends (Quake 3's
    /// `delta_angles`, pitch then yaw, degrees): a spawn or a teleporter
    /// turns the view by changing these, so a client sends the view it
    /// wants minus them.
    pub delta_angles: [f32; 2],
    /// Health points.
    pub health: i32,
    /// Armor points.
    pub armor: i32,
    /// Weapon in hand.
    pub weapon: u8,
    /// Ammo per weapon slot.
    pub ammo: [i32; AMMO_SLOTS],
    /// Bit `n`: weapon `n` held.
    pub weapons: u32,
    /// `PW_*` bits.
    pub powerups: u8,
    /// `PF_*` bits.
    pub flags: u16,
    /// Score (frags or points).
    pub score: i32,
    /// Team number as the server defines it (0 free, 1 red, 2 blue, 3 spectator).
    pub team: u8,
    /// pmove's timers, seconds ([`MT_KNOCKBACK`], [`MT_LAND`],
    /// [`MT_TELEPORT`], [`MT_WATER_JUMP`]): with the origin, velocity,
    /// angles and flags, what a client needs to run the server's pmove
    /// from this state and land where the server does.
    pub move_timers: [f32; 4],
}

/// What an [`EntityState`] is, so the client knows how to draw and
/// extrapolate it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EntityKind {
    /// Another player.
    #[default]
    Player,
    /// A rocket, grenade, plasma ball, …
    Projectile,
    /// A pickup (weapon, ammo, health, armor, powerup).
    Item,
    /// A door, platform or other moving brush.
    Mover,
    /// A CTF or One Flag flag.
    Flag,
}

impl EntityKind {
    /// The wire tag.
    pub fn tag(self) -> u8 {
        match self {
            Self::Player => 0,
            Self::Projectile => 1,
            Self::Item => 2,
            Self::Mover => 3,
            Self::Flag => 4,
        }
    }

    /// The kind for a wire tag, `None` for an unknown one.
    pub fn from_tag(tag: u8) -> Option<Self> {
        Some(match tag {
            0 => Self::Player,
            1 => Self::Projectile,
            2 => Self::Item,
            3 => Self::Mover,
            4 => Self::Flag,
            _ => return None,
        })
    }
}

/// Every other visible entity, quantized.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct EntityState {
    /// The sim's `NetId`; snapshots list entities sorted by it.
    pub id: u32,
    /// What it is.
    pub kind: EntityKind,
    /// Origin in 1/[`ORIGIN_SCALE`] units (see [`quantize_origin`]).
    pub origin: [i32; 3],
    /// Pitch, yaw, roll in 1/65536 turn (see [`quantize_angle`]).
    pub angles: [u16; 3],
    /// Velocity in units/s, for extrapolation.
    pub velocity: [i16; 3],
    /// Model or item index (server-defined table).
    pub model: u16,
    /// Team number (as [`PlayerState::team`]).
    pub team: u8,
    /// Weapon shown (players) or weapon that fired it (projectiles).
    pub weapon: u8,
    /// Entity flags (firing, dead, crouched, powerup glow, …), server-defined.
    pub flags: u16,
    /// One more small integer whose meaning depends on `kind` (owner slot,
    /// animation frame, item respawn state, …).
    pub aux: u32,
}

impl EntityState {
    /// An entity with only its id set: the base a newly visible entity is
    /// delta-coded against.
    pub fn empty(id: u32) -> Self {
        Self { id, ..Self::default() }
    }
}

/// One tick's view of the game for one client.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// The server tick this describes; strictly increasing per connection.
    pub server_tick: u32,
    /// The newest user command tick the server has run for this client (the
    /// client replays its newer commands on top for prediction).
    pub acked_cmd_tick: u32,
    /// The client's own player.
    pub player: PlayerState,
    /// Every other visible entity, sorted by `id`, ids unique.
    pub entities: Vec<EntityState>,
    /// What happened since the client's last snapshot (sent once).
    pub events: Vec<SnapshotEvent>,
}

/// A snapshot as the server keeps it: the tick's entity list is one
/// allocation shared by every client's snapshot of that tick (and by the
/// delta history of each), and the client's own entity, `own`, is left out
/// when it is encoded. Encoded, it is exactly the [`Snapshot`] that
/// [`SharedSnapshot::to_snapshot`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedSnapshot {
    /// The server tick this describes; strictly increasing per connection.
    pub server_tick: u32,
    /// The newest user command tick the server has run for this client.
    pub acked_cmd_tick: u32,
    /// The client's own player.
    pub player: PlayerState,
    /// Every visible entity of the tick, sorted by `id`, ids unique.
    pub entities: Arc<[EntityState]>,
    /// The id of the client's own entity, which its snapshot leaves out.
    pub own: Option<u32>,
    /// What happened since the client's last snapshot (this client's own).
    pub events: Vec<SnapshotEvent>,
}

impl SharedSnapshot {
    /// The entities this client's snapshot lists (all but its own), in order.
    pub fn entities(&self) -> impl Iterator<Item = &EntityState> + Clone {
        let own = self.own;
        self.entities.iter().filter(move |e| Some(e.id) != own)
    }

    /// The snapshot the client decodes.
    pub fn to_snapshot(&self) -> Snapshot {
        Snapshot {
            server_tick: self.server_tick,
            acked_cmd_tick: self.acked_cmd_tick,
            player: self.player,
            entities: self.entities().copied().collect(),
            events: self.events.clone(),
        }
    }
}

impl From<Snapshot> for SharedSnapshot {
    fn from(s: Snapshot) -> Self {
        Self { server_tick: s.server_tick, acked_cmd_tick: s.acked_cmd_tick, player: s.player, entities: s.entities.into(), own: None, events: s.events }
    }
}

/// Converts a world coordinate to 1/8 units, rounding, clamped to
/// ±[`MAX_WORLD_COORD`]; non-finite values become 0.
pub fn quantize_origin(v: [f32; 3]) -> [i32; 3] {
    v.map(|c| {
        if c.is_finite() { (c.clamp(-MAX_WORLD_COORD, MAX_WORLD_COORD) * ORIGIN_SCALE).round() as i32 } else { 0 }
    })
}

/// Converts a quantized origin back to units.
pub fn dequantize_origin(q: [i32; 3]) -> [f32; 3] {
    q.map(|c| c as f32 / ORIGIN_SCALE)
}

/// The step [`quantize_angle`] snaps entity angles to, in 1/65536 turn:
/// 1/4096 turn, 0.088°. Other entities' angles only turn models (Quake 3
/// snaps them to whole degrees, Quake to 1.4°), and the delta codec sends a
/// change in whole steps in a byte or two where the full 16 bits would take
/// two or three: about 1 kB/s less for a client seeing 15 turning players.
pub const ANGLE_STEP: u16 = 16;

/// Converts an angle in degrees (any range) to 1/65536 turn, snapped to
/// [`ANGLE_STEP`].
pub fn quantize_angle(deg: f32) -> u16 {
    if !deg.is_finite() {
        return 0;
    }
    let turn = deg.rem_euclid(360.0) / 360.0;
    let steps = 65536 / u32::from(ANGLE_STEP);
    (((turn * steps as f32).round() as u32 % steps) * u32::from(ANGLE_STEP)) as u16
}

/// Converts a quantized angle to degrees in 0..360.
pub fn dequantize_angle(q: u16) -> f32 {
    f32::from(q) * (360.0 / 65536.0)
}

/// Converts a velocity to whole units/s, clamped to the i16 range.
pub fn quantize_velocity(v: [f32; 3]) -> [i16; 3] {
    v.map(|c| if c.is_finite() { c.clamp(-32767.0, 32767.0).round() as i16 } else { 0 })
}

/// Whether a list is sorted by id with no duplicates (what snapshots need).
pub fn is_sorted_by_id(entities: &[EntityState]) -> bool {
    entities.windows(2).all(|w| matches!(w, [a, b] if a.id < b.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_quantization_is_within_half_a_step() {
        let v = [123.4567, -8000.01, 0.06];
        let back = dequantize_origin(quantize_origin(v));
        for (a, b) in v.iter().zip(back) {
            assert!((a - b).abs() <= 0.5 / ORIGIN_SCALE + 1e-3, "{a} vs {b}");
        }
        assert_eq!(quantize_origin([f32::NAN, f32::INFINITY, 1e9]), [0, 0, (MAX_WORLD_COORD * ORIGIN_SCALE) as i32]);
    }

    #[test]
    fn angles_wrap() {
        assert_eq!(quantize_angle(0.0), 0);
        assert_eq!(quantize_angle(360.0), 0);
        assert_eq!(quantize_angle(-90.0), quantize_angle(270.0));
        assert!((dequantize_angle(quantize_angle(123.4)) - 123.4).abs() <= 0.5 * 360.0 / 4096.0 + 1e-4);
        assert_eq!(quantize_angle(359.99), 0);
        assert!((0..720).all(|d| quantize_angle(d as f32 * 0.7).is_multiple_of(ANGLE_STEP)));
        assert_eq!(quantize_angle(f32::NAN), 0);
    }

    #[test]
    fn kinds_round_trip_and_unknown_is_none() {
        for k in [EntityKind::Player, EntityKind::Projectile, EntityKind::Item, EntityKind::Mover, EntityKind::Flag] {
            assert_eq!(EntityKind::from_tag(k.tag()), Some(k));
        }
        assert_eq!(EntityKind::from_tag(5), None);
    }

    #[test]
    fn sortedness() {
        let e = EntityState::empty;
        assert!(is_sorted_by_id(&[e(1), e(2), e(9)]));
        assert!(!is_sorted_by_id(&[e(1), e(1)]));
        assert!(!is_sorted_by_id(&[e(2), e(1)]));
    }
}
