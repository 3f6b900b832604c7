//! Moving a mover through the players (Quake 3 `G_MoverPush`, translation
//! only): players standing on it ride along, players it moves into are
//! pushed by the same amount, and if any of them would end up in solid
//! the whole move is undone and those players are reported as blockers.
//!
//! Dead bodies neither ride nor block (pmove nudges them out of solid).

use glam::Vec3;
use quarry_map::{CollisionWorld, Contents, EntityId, MoverId};

use crate::slots::SlotId;

/// How far below its feet a player looks for the mover it stands on:
/// pmove leaves a player a fraction of a unit above the ground.
const RIDE_PROBE: f32 = 2.0;

/// A living player's box for one tick of mover pushing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerBox {
    /// Whose.
    pub slot: SlotId,
    /// Box origin (updated as movers push it).
    pub origin: Vec3,
    /// Box mins relative to the origin.
    pub mins: Vec3,
    /// Box maxs relative to the origin.
    pub maxs: Vec3,
    /// Whether a mover moved it this tick.
    pub moved: bool,
}

/// Whether `p` stands on the mover owned by `entity` (at its current offset).
pub fn stands_on(world: &CollisionWorld, p: &PlayerBox, entity: EntityId) -> bool {
    let tr = world.trace(p.origin, p.origin - Vec3::Z * RIDE_PROBE, p.mins, p.maxs, Contents::MASK_PLAYER_SOLID);
    tr.hit() && !tr.start_solid && tr.entity == Some(entity) && tr.normal.z > 0.0
}

/// Whether the box of `p` overlaps the mover owned by `entity`.
fn overlaps(world: &CollisionWorld, p: &PlayerBox, entity: EntityId, scratch: &mut Vec<EntityId>) -> bool {
    scratch.clear();
    world.overlap_entities(p.origin + p.mins, p.origin + p.maxs, Contents::MASK_PLAYER_SOLID, scratch);
    scratch.contains(&entity)
}

fn near(p: &PlayerBox, bounds: (Vec3, Vec3), reach: f32) -> bool {
    let (lo, hi) = bounds;
    let (plo, phi) = (p.origin + p.mins, p.origin + p.maxs);
    (plo - Vec3::splat(reach)).cmple(hi).all() && lo.cmple(phi + Vec3::splat(reach)).all()
}

/// Moves mover `id` (owned by `entity`, spanning `bounds` at its current
/// offset `from`) to offset `to`, carrying riders and pushing players in
/// the way. On success the collision world holds `to` and `players` the
/// pushed origins; otherwise nothing changed and the blockers are returned.
pub fn push_mover(
    world: &mut CollisionWorld,
    id: MoverId,
    entity: EntityId,
    bounds: (Vec3, Vec3),
    from: Vec3,
    to: Vec3,
    players: &mut [PlayerBox],
) -> Result<(), Vec<SlotId>> {
    let delta = to - from;
    if delta == Vec3::ZERO {
        return Ok(());
    }
    let reach = delta.abs().max_element() + RIDE_PROBE + 1.0;
    let candidates: Vec<usize> = (0..players.len()).filter(|&i| near(&players[i], bounds, reach)).collect();
    let riders: Vec<usize> = candidates.iter().copied().filter(|&i| stands_on(world, &players[i], entity)).collect();
    world.set_mover_offset(id, to);
    let mut scratch = Vec::new();
    let mut moves = Vec::new();
    let mut blockers = Vec::new();
    for &i in &candidates {
        let p = players[i];
        if !riders.contains(&i) && !overlaps(world, &p, entity, &mut scratch) {
            continue;
        }
        let target = p.origin + delta;
        let fits = !world.trace(target, target, p.mins, p.maxs, Contents::MASK_PLAYER_SOLID).start_solid;
        if fits {
            moves.push((i, target));
        } else {
            blockers.push(p.slot);
        }
    }
    if !blockers.is_empty() {
        world.set_mover_offset(id, from);
        return Err(blockers);
    }
    for (i, target) in moves {
        players[i].origin = target;
        players[i].moved = true;
    }
    Ok(())
}
