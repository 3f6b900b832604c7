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
//! most (origin, yaw, velocity, pitch), so a moving player's mask is one byte.
//! Quantized entity fields that move continuously (origin, angles, velocity)
//! are sent as wrapping zig-zag differences from the base, so small moves
//! are one or two bytes (angles counted in the steps
//! [`crate::snapshot::quantize_angle`] snaps them to); discrete fields are
//! sent as their new value.
//! Entity motion is predicted over the ticks between base and new snapshot
//! ([`Motion`]): origins from the base velocity ([`predict_entity`], Quake
//! 3's linear trajectories), velocities from the distance travelled
//! (constant acceleration). A rocket in flight costs nothing or one byte
//! per axis, a turning, accelerating player one or two, and an entity whose
//! whole state matches its prediction is not sent at all. The client's own
//! [`crate::snapshot::PlayerState`] is sent in full precision (exact f32
//! values, as differences of their bits) because it drives the client's own
//! movement prediction.
//!
//! Every function here is pure; decoding is bounds-checked and never panics.

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

const OP_CHANGED: u64 = 0;
const OP_NEW: u64 = 1;
const OP_REMOVED: u64 = 2;

mod entity;
mod list;
mod player;
mod snapshot;
pub use entity::{Motion, decode_entity, encode_entity, predict_entity};
pub use player::{decode_player, encode_player};
pub use snapshot::{SnapshotTicks, decode_snapshot, encode_shared_snapshot, encode_snapshot, peek_snapshot_ticks};

#[cfg(test)]
mod tests;
