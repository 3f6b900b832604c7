//! What fires what: the map's `target` → `targetname` wiring run as Quake's
//! `SUB_UseTargets` does.
//!
//! Something *fires* an entity (a player touches a `trigger_once`, a button
//! arrives pressed, a door starts to open, a key is picked up); after the
//! entity's `delay` it removes whatever its `killtarget` names and *uses*
//! each entity its `target` names. A use depends on the target's
//! [`Role`]: a relay fires on, a counter fires on its `count`th use, a
//! trigger fires unless it is waiting or spent, a mover is handed to the
//! movers (a door opens, a button presses, a secret door slides).
//!
//! Firings queue in [`TargetState`] and resolve at the start of the
//! `Movers` stage ([`resolve_fires`]), in the order they were made, delayed
//! ones at their tick by (tick, order). A tick resolves at most
//! [`MAX_FIRES_PER_TICK`] firings and keeps the rest for the next (a map
//! whose relays fire each other in a loop costs a bounded amount per tick),
//! and at most [`MAX_PENDING`] delayed firings wait (more are dropped with
//! a warning): the map is outside input.
//!
//! What this module must not do: move movers or players, or touch items
//! itself (movers read [`TargetState::take_mover_uses`], items
//! [`TargetState::is_removed`]).

pub mod wiring;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use bevy_ecs::prelude::*;
use quarry_map::EntityId;

use crate::MapRes;
use crate::clock::MatchClock;
use crate::hash::TickHash;
use crate::schedule::SimSystems;
use crate::slots::SlotId;
pub use wiring::{Node, Role, Wiring};

/// Firings one tick resolves at most; the rest wait for the next tick.
pub const MAX_FIRES_PER_TICK: usize = 1024;
/// Firings that may wait for their turn (queued now or delayed); more are dropped.
pub const MAX_PENDING: usize = 4096;
/// `ready_at` of a trigger that never fires again.
const SPENT: u32 = u32::MAX;

/// One firing: `entity` fires its targets on behalf of `activator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fire {
    /// The entity whose targets fire.
    pub entity: EntityId,
    /// The player who set it off, if a player did.
    pub activator: Option<SlotId>,
    /// Its `delay` has passed already.
    delayed: bool,
}

/// The map's wiring as the match runs it: firings waiting, triggers
/// waiting or spent, counters, removed entities, movers to use.
#[derive(Resource, Debug, Clone, Default)]
pub struct TargetState {
    queue: VecDeque<Fire>,
    pending: BTreeMap<(u32, u32), Fire>,
    next_seq: u32,
    ready_at: BTreeMap<EntityId, u32>,
    counts: BTreeMap<EntityId, u32>,
    removed: BTreeSet<EntityId>,
    mover_uses: Vec<(EntityId, Option<SlotId>)>,
    dropped: u64,
}

/// The map's wiring, fixed for the match.
#[derive(Resource, Debug, Clone, Default)]
pub struct WiringRes(pub Wiring);

impl TargetState {
    /// Queues a firing of `entity` (its delay applies).
    pub fn fire(&mut self, entity: EntityId, activator: Option<SlotId>) {
        self.push(Fire { entity, activator, delayed: false });
    }

    fn push(&mut self, fire: Fire) {
        if self.queue.len() + self.pending.len() >= MAX_PENDING {
            self.dropped += 1;
            if self.dropped == 1 {
                tracing::warn!(target: "quarry_sim::targets", "more than {MAX_PENDING} firings waiting: the map's triggers fire each other without end; dropping the excess");
            }
            return;
        }
        self.queue.push_back(fire);
    }

    /// A player's box touches trigger `trigger` at `tick`: fires it unless it
    /// is not touchable, waiting, spent or removed. Whether it fired.
    pub fn touch(&mut self, wiring: &Wiring, trigger: EntityId, slot: SlotId, tick: u32) -> bool {
        let Some(Role::Trigger { touchable: true, .. }) = wiring.get(trigger).map(|n| n.role) else { return false };
        self.trigger(wiring, trigger, Some(slot), tick)
    }

    /// Fires trigger `t` if it is ready, then makes it wait or spends it.
    fn trigger(&mut self, wiring: &Wiring, t: EntityId, activator: Option<SlotId>, tick: u32) -> bool {
        let Some(Role::Trigger { once, wait_ticks, .. }) = wiring.get(t).map(|n| n.role) else { return false };
        if self.removed.contains(&t) || self.ready_at.get(&t).is_some_and(|&r| tick < r) {
            return false;
        }
        self.ready_at.insert(t, if once { SPENT } else { tick.saturating_add(wait_ticks) });
        self.fire(t, activator);
        true
    }

    /// Whether a `killtarget` removed `entity`.
    pub fn is_removed(&self, entity: EntityId) -> bool {
        self.removed.contains(&entity)
    }

    /// Whether a `killtarget` removed anything yet.
    pub fn any_removed(&self) -> bool {
        !self.removed.is_empty()
    }

    /// The movers used since the last call, in the order they were used.
    pub fn take_mover_uses(&mut self) -> Vec<(EntityId, Option<SlotId>)> {
        std::mem::take(&mut self.mover_uses)
    }

    /// Whether firings are waiting (now or delayed).
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.pending.is_empty()
    }

    /// Resolves the firings due at `tick`: delayed ones whose time came,
    /// then the queue in order, at most [`MAX_FIRES_PER_TICK`].
    pub fn resolve(&mut self, wiring: &Wiring, tick: u32) {
        while let Some(entry) = self.pending.first_entry() {
            if entry.key().0 > tick {
                break;
            }
            let fire = entry.remove();
            self.queue.push_back(fire);
        }
        for _ in 0..MAX_FIRES_PER_TICK {
            let Some(fire) = self.queue.pop_front() else { break };
            self.resolve_one(wiring, fire, tick);
        }
    }

    fn resolve_one(&mut self, wiring: &Wiring, fire: Fire, tick: u32) {
        let Some(node) = wiring.get(fire.entity) else { return };
        if self.removed.contains(&fire.entity) {
            return;
        }
        if node.delay_ticks > 0 && !fire.delayed {
            if self.queue.len() + self.pending.len() >= MAX_PENDING {
                self.dropped += 1;
                return;
            }
            let seq = self.next_seq;
            self.next_seq = self.next_seq.wrapping_add(1);
            self.pending.insert((tick.saturating_add(node.delay_ticks), seq), Fire { delayed: true, ..fire });
            return;
        }
        self.removed.extend(node.kills.iter().copied());
        for &t in &node.targets {
            if !self.removed.contains(&t) {
                self.use_entity(wiring, t, fire.activator, tick);
            }
        }
    }

    /// Quake's `use`: what target `t` does when fired at.
    fn use_entity(&mut self, wiring: &Wiring, t: EntityId, activator: Option<SlotId>, tick: u32) {
        let Some(role) = wiring.get(t).map(|n| n.role) else { return };
        match role {
            Role::Relay => self.fire(t, activator),
            Role::Counter { count } => {
                let n = self.counts.entry(t).or_insert(0);
                *n = n.saturating_add(1);
                if *n == count {
                    self.fire(t, activator);
                }
            }
            Role::Trigger { .. } => {
                self.trigger(wiring, t, activator, tick);
            }
            Role::Mover => self.mover_uses.push((t, activator)),
            Role::Item | Role::Inert => {}
        }
    }
}

/// Adds the map's wiring, its state and its systems to a new match.
pub fn install(world: &mut World, schedule: &mut Schedule) {
    let hz = world.resource::<MatchClock>().hz;
    let wiring = Wiring::from_map(&world.resource::<MapRes>().0, hz);
    world.insert_resource(WiringRes(wiring));
    world.init_resource::<TargetState>();
    schedule.add_systems(resolve_fires.in_set(SimSystems::Movers).before(crate::movers::run_movers));
    schedule.add_systems(hash_targets.in_set(crate::schedule::HashSystems::Movers).after(crate::movers::hash_movers));
}

/// Resolves this tick's firings (see the module docs).
pub fn resolve_fires(wiring: Res<WiringRes>, mut state: ResMut<TargetState>, clock: Res<MatchClock>) {
    if state.is_idle() {
        return;
    }
    state.resolve(&wiring.0, clock.tick);
}

/// Feeds the wiring's state to the tick hash (nothing while no trigger has
/// fired, so maps without wiring hash as before).
pub fn hash_targets(state: Res<TargetState>, mut hash: ResMut<TickHash>) {
    hash.mark("targets");
    let h = &mut hash.building;
    for f in state.queue.iter().chain(state.pending.values()) {
        h.u32(f.entity.0);
        h.u32(f.activator.map_or(u32::MAX, |s| u32::from(s.0)));
    }
    for (tick, seq) in state.pending.keys() {
        h.u32(*tick);
        h.u32(*seq);
    }
    for (e, r) in &state.ready_at {
        h.u32(e.0);
        h.u32(*r);
    }
    for (e, n) in &state.counts {
        h.u32(e.0);
        h.u32(*n);
    }
    for e in &state.removed {
        h.u32(e.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(role: Role, targets: &[u32], delay_ticks: u32) -> Node {
        Node { role, targets: targets.iter().map(|&t| EntityId(t)).collect(), kills: Vec::new(), delay_ticks }
    }

    fn wiring(nodes: &[(u32, Node)]) -> Wiring {
        Wiring { nodes: nodes.iter().map(|(id, n)| (EntityId(*id), n.clone())).collect() }
    }

    #[test]
    fn relays_delays_and_counters_reach_movers_in_order() {
        let w = wiring(&[
            (1, node(Role::Relay, &[2, 3], 0)),
            (2, node(Role::Mover, &[], 0)),
            (3, node(Role::Relay, &[4], 10)),
            (4, node(Role::Counter { count: 2 }, &[5], 0)),
            (5, node(Role::Mover, &[], 0)),
        ]);
        let mut s = TargetState::default();
        s.fire(EntityId(1), None);
        s.resolve(&w, 0);
        assert_eq!(s.take_mover_uses(), vec![(EntityId(2), None)], "the delayed branch waits");
        s.resolve(&w, 9);
        assert!(s.take_mover_uses().is_empty());
        s.resolve(&w, 10);
        assert!(s.take_mover_uses().is_empty(), "the counter has one of two");
        s.fire(EntityId(3), Some(SlotId(4)));
        s.resolve(&w, 11);
        s.resolve(&w, 21);
        assert_eq!(s.take_mover_uses(), vec![(EntityId(5), Some(SlotId(4)))]);
        assert!(s.is_idle());
    }

    #[test]
    fn relays_firing_each_other_cost_a_bounded_amount_per_tick() {
        let w = wiring(&[(1, node(Role::Relay, &[2, 2], 0)), (2, node(Role::Relay, &[1], 0))]);
        let mut s = TargetState::default();
        s.fire(EntityId(1), None);
        for tick in 0..50 {
            s.resolve(&w, tick);
            assert!(s.queue.len() + s.pending.len() <= MAX_PENDING);
        }
        assert!(s.dropped > 0, "the doubling loop hit the cap");
    }

    #[test]
    fn a_once_trigger_fires_once_and_a_multiple_waits() {
        let touch = |once| Role::Trigger { once, wait_ticks: 30, touchable: true };
        let w = wiring(&[(1, node(touch(true), &[9], 0)), (2, node(touch(false), &[9], 0)), (9, node(Role::Mover, &[], 0))]);
        let mut s = TargetState::default();
        assert!(s.touch(&w, EntityId(1), SlotId(0), 0));
        assert!(!s.touch(&w, EntityId(1), SlotId(0), 1000), "spent");
        assert!(s.touch(&w, EntityId(2), SlotId(0), 0));
        assert!(!s.touch(&w, EntityId(2), SlotId(0), 29));
        assert!(s.touch(&w, EntityId(2), SlotId(0), 30));
        s.resolve(&w, 30);
        assert_eq!(s.take_mover_uses().len(), 3);
    }
}
