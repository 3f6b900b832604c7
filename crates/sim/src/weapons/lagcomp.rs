//! Lag compensation for hitscan: where the other players were when a
//! remote shooter saw them.
//!
//! At the end of every tick [`record_history`] stores each living
//! player's box in a ring per slot, indexed by tick, holding a little over
//! the largest rewind `sv_maxUnlag` allows (one second). When a player
//! whose commands arrive late ([`Slot::latency_ms`](crate::slots::Slot::latency_ms))
//! fires a hitscan weapon, [`LagHistory::rewound`] gives the other players'
//! boxes `min(latency_ms, sv_maxUnlag)` earlier, interpolated between
//! ticks, for that one trace; nothing in the world moves. A shooter with no
//! delay (a bot, a local player) is not rewound: it acts on the current
//! state. Only the delay is read, never what kind of client it is.
//!
//! A player with no sample at the rewound time (just spawned) stays where
//! it is now, as in Neil Toronto's unlagged; a sample belongs to the body
//! entity it was taken from, so a slot's new occupant never inherits the
//! previous one's past. Projectiles are never lag compensated (Quake 3
//! does not either): they fly in the server's present.

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::clock::MatchClock;
use crate::components::{Life, Player};
use crate::scene::Obstacle;
use crate::slots::{MAX_SLOTS, SlotId};

/// The longest rewind the history holds, ms (the `sv_maxUnlag` range's top).
pub const MAX_REWIND_MS: u32 = 1000;

/// One recorded box.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sample {
    tick: u32,
    entity: Entity,
    origin: Vec3,
    mins: Vec3,
    maxs: Vec3,
}

/// Every slot's recent boxes. A resource.
#[derive(Resource, Debug, Clone, Default)]
pub struct LagHistory {
    /// Ring length in ticks.
    len: usize,
    /// `rings[slot][tick % len]`.
    rings: Vec<Vec<Option<Sample>>>,
}

impl LagHistory {
    /// A history long enough for [`MAX_REWIND_MS`] at `hz`.
    pub fn new(hz: u32) -> Self {
        let len = Self::len_for(hz);
        Self { len, rings: vec![vec![None; len]; MAX_SLOTS] }
    }

    fn len_for(hz: u32) -> usize {
        (hz.max(1) as usize * MAX_REWIND_MS as usize).div_ceil(1000) + 2
    }

    /// Records `slot`'s box at the end of `tick`.
    fn record(&mut self, tick: u32, slot: SlotId, entity: Entity, o: &Obstacle) {
        let len = self.len;
        if let Some(cell) = self.rings.get_mut(usize::from(slot.0)).and_then(|r| r.get_mut(tick as usize % len.max(1))) {
            *cell = Some(Sample { tick, entity, origin: o.origin, mins: o.mins, maxs: o.maxs });
        }
    }

    fn sample(&self, slot: SlotId, entity: Entity, tick: u32) -> Option<Sample> {
        let ring = self.rings.get(usize::from(slot.0))?;
        let s = (*ring.get(tick as usize % self.len.max(1))?)?;
        (s.tick == tick && s.entity == entity).then_some(s)
    }

    /// The box of `slot`'s body `entity` `ticks_back` ticks (fractional)
    /// before the end of tick `last_tick`, if it was alive then.
    pub fn box_at(&self, slot: SlotId, entity: Entity, last_tick: u32, ticks_back: f32) -> Option<(Vec3, Vec3, Vec3)> {
        let back = ticks_back.clamp(0.0, self.len.saturating_sub(2) as f32);
        let whole = back.floor();
        let frac = back - whole;
        // Between the sample `whole` ticks back (weight 1 - frac) and the one before it.
        let newer_tick = last_tick.checked_sub(whole as u32)?;
        let newer = self.sample(slot, entity, newer_tick);
        let older = if frac > 0.0 { newer_tick.checked_sub(1).and_then(|t| self.sample(slot, entity, t)) } else { None };
        match (newer, older) {
            (Some(n), Some(o)) => {
                let near = if frac < 0.5 { n } else { o };
                Some((n.origin.lerp(o.origin, frac), near.mins, near.maxs))
            }
            (Some(s), None) | (None, Some(s)) => Some((s.origin, s.mins, s.maxs)),
            (None, None) => None,
        }
    }

    /// `obstacles` as a shooter whose commands arrive `latency_ms` late saw
    /// them: rewound by `min(latency_ms, max_unlag_ms)`, or `None` (as they
    /// are) for no delay. `bodies` gives each slot's entity; `now` is the tick being
    /// simulated (the boxes are those at the end of the tick before).
    pub fn rewound(
        &self,
        obstacles: &[Obstacle],
        bodies: &[(SlotId, Entity)],
        latency_ms: u32,
        max_unlag_ms: u32,
        clock: &MatchClock,
    ) -> Option<Vec<Obstacle>> {
        let ms = latency_ms.min(max_unlag_ms).min(MAX_REWIND_MS);
        if ms == 0 {
            return None;
        }
        let ticks_back = ms as f32 * clock.hz as f32 / 1000.0;
        let last = clock.tick.saturating_sub(1);
        let out = obstacles
            .iter()
            .map(|o| {
                let entity = bodies.iter().find(|(s, _)| *s == o.slot).map(|(_, e)| *e);
                match entity.and_then(|e| self.box_at(o.slot, e, last, ticks_back)) {
                    Some((origin, mins, maxs)) => Obstacle { origin, mins, maxs, ..*o },
                    None => *o,
                }
            })
            .collect();
        Some(out)
    }
}

/// Records every living player's box at the end of the tick (after all
/// movement, knockback and respawns). Runs in the `Hash` set, before the
/// hash is built.
///
/// Exclusive (`&mut World`): it may replace the history resource when the
/// tick rate changed and reads the same obstacle list movement uses; it runs
/// once at the end of the tick, when nothing else runs.
pub fn record_history(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    let want = LagHistory::len_for(clock.hz);
    if world.resource::<LagHistory>().len != want {
        // The tick rate changed: old samples are indexed for the old ring.
        world.insert_resource(LagHistory::new(clock.hz));
    }
    let obstacles = crate::scene::player_obstacles(world);
    let mut q = world.query::<(Entity, &Player, &Life)>();
    let bodies: Vec<(SlotId, Entity)> =
        q.iter(world).filter(|(_, _, l)| **l == Life::Alive).map(|(e, p, _)| (p.slot, e)).collect();
    let mut history = world.resource_mut::<LagHistory>();
    for o in &obstacles {
        if let Some((_, e)) = bodies.iter().find(|(s, _)| *s == o.slot) {
            history.record(clock.tick, o.slot, *e, o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ob(slot: u8, x: f32) -> Obstacle {
        Obstacle { slot: SlotId(slot), origin: Vec3::new(x, 0.0, 0.0), mins: Vec3::splat(-15.0), maxs: Vec3::splat(15.0) }
    }

    #[test]
    fn rewinds_remote_shooters_only_and_interpolates() {
        let mut world = World::new();
        let e = world.spawn_empty().id();
        let mut h = LagHistory::new(60);
        for tick in 1..=100 {
            h.record(tick, SlotId(1), e, &ob(1, tick as f32 * 10.0));
        }
        let now = [ob(1, 1000.0)];
        let bodies = [(SlotId(1), e)];
        let clock = MatchClock { tick: 101, hz: 60 };
        assert!(h.rewound(&now, &bodies, 0, 250, &clock).is_none());
        assert!(h.rewound(&now, &bodies, 0, 250, &clock).is_none());
        // 100 ms = 6 ticks before tick 100.
        let r = h.rewound(&now, &bodies, 100, 250, &clock).expect("rewound");
        assert!((r[0].origin.x - 940.0).abs() < 1e-3, "{:?}", r[0].origin);
        // Capped by sv_maxUnlag: 50 ms = 3 ticks.
        let r = h.rewound(&now, &bodies, 400, 50, &clock).expect("rewound");
        assert!((r[0].origin.x - 970.0).abs() < 1e-3);
        // Between ticks: 25 ms = 1.5 ticks.
        let r = h.rewound(&now, &bodies, 25, 250, &clock).expect("rewound");
        assert!((r[0].origin.x - 985.0).abs() < 1e-3, "{:?}", r[0].origin);
    }

    #[test]
    fn another_body_or_no_sample_stays_put() {
        let mut world = World::new();
        let old = world.spawn_empty().id();
        let new = world.spawn_empty().id();
        let mut h = LagHistory::new(60);
        for tick in 1..=10 {
            h.record(tick, SlotId(2), old, &ob(2, 0.0));
        }
        assert!(h.box_at(SlotId(2), new, 10, 3.0).is_none());
        assert!(h.box_at(SlotId(2), old, 10, 3.0).is_some());
        assert!(h.box_at(SlotId(2), old, 30, 3.0).is_none(), "nothing recorded then");
        let clock = MatchClock { tick: 11, hz: 60 };
        let r = h.rewound(&[ob(2, 500.0)], &[(SlotId(2), new)], 50, 250, &clock).expect("r");
        assert_eq!(r[0].origin.x, 500.0);
    }
}
