//! Jump pads (`trigger_push`): a Quake 3 pad with a target launches the
//! player on the arc through its target (pmove's
//! [`jump_pad_velocity`], Quake 3's `AimAtTarget` when the target is above);
//! a Quake 1 pad sets a fixed velocity.
//!
//! The arc starts at the player's origin, not at the pad's centre as in
//! Quake 3: the same pad then sends every player through the target
//! whatever their height in the volume, so landings are where the mapper
//! put the target. A pad fires when the player starts touching
//! it, not again while the player stays in it (Quake 3 `jumppad_ent`), and
//! not within [`JUMP_PAD_COOLDOWN_S`] of the last launch.

use bevy_ecs::prelude::*;
use quarry_map::EntityId;
use quarry_map::entities::JumpPad;
use quarry_movement::pmove::MoveParams;

use super::Contact;
use crate::clock::MatchClock;
use crate::components::Body;
use crate::events::{GameEvent, SoundKind};
use crate::slots::SlotId;

/// Shortest time between two launches of one player, seconds: a player
/// leaving a pad and stepping back on at once is not launched twice in a
/// frame or two.
pub const JUMP_PAD_COOLDOWN_S: f32 = 0.25;

pub use quarry_movement::triggers::pad_velocity;

/// A player touches pad `id` this tick: launch if it is a fresh touch.
#[expect(clippy::too_many_arguments, reason = "one call site; the pieces come from different resources")]
pub(super) fn touch(
    world: &mut World,
    slot: SlotId,
    entity: Entity,
    id: EntityId,
    pad: &JumpPad,
    contact: &mut Contact,
    clock: MatchClock,
    params: &MoveParams,
) {
    let still_on = contact.pad.is_some_and(|(p, t)| p == id && t + 1 >= clock.tick);
    contact.pad = Some((id, clock.tick));
    let cooling = contact.pad_fired > 0 && clock.tick < contact.pad_fired + clock.ticks(JUMP_PAD_COOLDOWN_S);
    if still_on || cooling {
        return;
    }
    let Some(mut body) = world.get_mut::<Body>(entity) else { return };
    let Some(velocity) = pad_velocity(pad, body.0.origin, params.gravity) else { return };
    body.0.launch(velocity);
    let origin = body.0.origin;
    contact.pad_fired = clock.tick;
    world.write_message(GameEvent::Sound { kind: SoundKind::JumpPad, origin, source: Some(slot) });
}
