//! What the client sees: the newest snapshot, in world units.
//!
//! Each snapshot the transport hands over is complete (deltas are already
//! applied), so the view is simply replaced by the newest one. Units are
//! Quake units and degrees, Z up; entity positions are the server's
//! quantized ones (1/8 unit), converted back to floats.

use std::collections::BTreeMap;

use quarry_net::snapshot::{
    EntityKind, EntityState, PlayerState, Snapshot, dequantize_angle, dequantize_origin,
};

/// Another entity as the client sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntityView {
    /// The server's network id (stable while the entity lives).
    pub id: u32,
    /// What it is.
    pub kind: EntityKind,
    /// Position, units.
    pub origin: [f32; 3],
    /// Pitch, yaw, roll in degrees, 0..360.
    pub angles: [f32; 3],
    /// Velocity, units/s.
    pub velocity: [f32; 3],
    /// The state exactly as received (team, weapon, flags, model, aux).
    pub state: EntityState,
}

impl EntityView {
    fn of(state: &EntityState) -> Self {
        Self {
            id: state.id,
            kind: state.kind,
            origin: dequantize_origin(state.origin),
            angles: state.angles.map(dequantize_angle),
            velocity: state.velocity.map(f32::from),
            state: *state,
        }
    }
}

/// The client's picture of the game, from the newest snapshot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct View {
    server_tick: Option<u32>,
    acked_cmd_tick: u32,
    player: Option<PlayerState>,
    entities: BTreeMap<u32, EntityView>,
    snapshots: u64,
}

impl View {
    /// Replaces the view with a newer snapshot (older ones are ignored).
    pub fn apply(&mut self, snap: &Snapshot) {
        if self.server_tick.is_some_and(|t| snap.server_tick <= t) {
            return;
        }
        self.server_tick = Some(snap.server_tick);
        self.acked_cmd_tick = snap.acked_cmd_tick;
        self.player = Some(snap.player);
        self.entities = snap
            .entities
            .iter()
            .map(|e| (e.id, EntityView::of(e)))
            .collect();
        self.snapshots += 1;
    }

    /// Starts over, as before the first snapshot (a new welcome); the
    /// count of snapshots applied goes on, so a caller comparing it sees
    /// the next one arrive.
    pub fn restart(&mut self) {
        *self = View { snapshots: self.snapshots, ..View::default() };
    }

    /// Forgets everything (after a map change, before the new map's first snapshot).
    pub fn clear_entities(&mut self) {
        self.entities.clear();
    }

    /// The server tick of the newest snapshot; `None` before the first one.
    pub fn server_tick(&self) -> Option<u32> {
        self.server_tick
    }

    /// The newest command tick the server says it ran for us.
    pub fn acked_cmd_tick(&self) -> u32 {
        self.acked_cmd_tick
    }

    /// How many snapshots were applied.
    pub fn snapshots_applied(&self) -> u64 {
        self.snapshots
    }

    /// The own player; `None` before the first snapshot.
    pub fn player(&self) -> Option<&PlayerState> {
        self.player.as_ref()
    }

    /// The own position, or the origin before the first snapshot.
    pub fn own_origin(&self) -> [f32; 3] {
        self.player.map_or([0.0; 3], |p| p.origin)
    }

    /// One entity by id.
    pub fn entity(&self, id: u32) -> Option<&EntityView> {
        self.entities.get(&id)
    }

    /// Every visible entity, by id.
    pub fn entities(&self) -> impl Iterator<Item = &EntityView> {
        self.entities.values()
    }

    /// How many entities are visible.
    pub fn entity_count(&self) -> usize {
        self.entities.len()
    }

    /// The `n` entities nearest the own player with their distances in
    /// units, nearest first (ties by id).
    pub fn nearest(&self, n: usize) -> Vec<(f32, &EntityView)> {
        let me = self.own_origin();
        let mut all: Vec<(f32, &EntityView)> = self
            .entities
            .values()
            .map(|e| (distance(me, e.origin), e))
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        all.truncate(n);
        all
    }

    /// Entities within `radius` units of the own player, nearest first.
    pub fn within(&self, radius: f32) -> Vec<(f32, &EntityView)> {
        let mut near = self.nearest(usize::MAX);
        near.retain(|(d, _)| *d <= radius);
        near
    }
}

/// Straight-line distance in units.
pub(crate) fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f32>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_net::snapshot::quantize_origin;

    fn ent(id: u32, at: [f32; 3]) -> EntityState {
        EntityState {
            origin: quantize_origin(at),
            ..EntityState::empty(id)
        }
    }

    fn snap(tick: u32, me: [f32; 3], entities: Vec<EntityState>) -> Snapshot {
        Snapshot {
            server_tick: tick,
            acked_cmd_tick: tick,
            player: PlayerState {
                origin: me,
                health: 100,
                ..PlayerState::default()
            },
            entities,
            events: Vec::new(),
        }
    }

    #[test]
    fn nearest_sorts_by_distance_then_id() {
        let mut v = View::default();
        v.apply(&snap(
            5,
            [100.0, 0.0, 0.0],
            vec![
                ent(1, [0.0; 3]),
                ent(2, [110.0, 0.0, 0.0]),
                ent(3, [90.0, 0.0, 0.0]),
                ent(4, [100.0, 300.0, 0.0]),
            ],
        ));
        let near: Vec<(u32, f32)> = v.nearest(3).iter().map(|(d, e)| (e.id, *d)).collect();
        assert_eq!(near, vec![(2, 10.0), (3, 10.0), (1, 100.0)]);
        assert_eq!(v.within(50.0).len(), 2);
        assert_eq!(v.entity(4).map(|e| e.origin), Some([100.0, 300.0, 0.0]));
        assert_eq!(v.entity_count(), 4);
    }

    #[test]
    fn older_snapshots_are_ignored() {
        let mut v = View::default();
        v.apply(&snap(10, [1.0, 0.0, 0.0], vec![ent(1, [0.0; 3])]));
        v.apply(&snap(9, [2.0, 0.0, 0.0], vec![]));
        assert_eq!(
            (v.server_tick(), v.own_origin()[0], v.entity_count()),
            (Some(10), 1.0, 1)
        );
        v.apply(&snap(11, [3.0, 0.0, 0.0], vec![]));
        assert_eq!(
            (
                v.server_tick(),
                v.own_origin()[0],
                v.entity_count(),
                v.snapshots_applied()
            ),
            (Some(11), 3.0, 0, 2)
        );
    }
}
