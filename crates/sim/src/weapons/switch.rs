//! Weapon selection: the switch state machine on a player's [`Inventory`].
//!
//! `UserCmd::weapon` names the weapon the player *wants* (0: no opinion).
//! Each tick, in this order:
//!
//! 1. [`select`]: a wanted weapon that is held, known and loaded starts a
//!    switch once the weapon in hand is ready (not mid-refire): the current
//!    weapon lowers for its `drop_ms` (`switching_to` is set). While it is
//!    lowering, a new choice just changes the target. A weapon number the
//!    table does not know, a weapon not held, or one without ammo is
//!    ignored and counted in [`WeaponCounters`] (once per change of the
//!    request, since a command repeats every tick). Never panics.
//! 2. [`finish_switch`]: when the lowering is done the target comes up for
//!    its `raise_ms`; `ready_tick` says when it can fire.
//! 3. Firing (`fire.rs`); trying to fire a weapon without ammo starts a
//!    switch to [`WeaponTable::best_available`] instead.
//!
//! Ignoring an empty weapon is what keeps the out-of-ammo switch stable: a
//! client that keeps asking for its empty rocket launcher stays on the
//! fallback until it picks up rockets, then gets the launcher back.

use bevy_ecs::prelude::*;

use crate::clock::MatchClock;
use crate::components::Inventory;
use crate::slots::{MAX_SLOTS, SlotId};

use super::table::WeaponTable;

/// Per-slot weapon bookkeeping that is not part of the inventory.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SlotWeaponState {
    /// The weapon the last command asked for.
    pub last_request: u8,
    /// Fraction of a tick the last shot was late (keeps fire rates exact
    /// when an interval is not a whole number of ticks).
    pub carry: f32,
    /// Requests for a weapon number the table does not have.
    pub unknown: u32,
    /// Requests for a weapon the player does not hold.
    pub unheld: u32,
    /// Requests for a held weapon without ammo.
    pub empty: u32,
}

/// Weapon bookkeeping for every slot. A resource.
#[derive(Resource, Debug, Clone)]
pub struct WeaponCounters {
    slots: Vec<SlotWeaponState>,
}

impl Default for WeaponCounters {
    fn default() -> Self {
        Self { slots: vec![SlotWeaponState::default(); MAX_SLOTS] }
    }
}

impl WeaponCounters {
    /// The state of `slot` (zeroed for a slot out of range).
    pub fn get(&self, slot: SlotId) -> SlotWeaponState {
        self.slots.get(usize::from(slot.0)).copied().unwrap_or_default()
    }

    /// Mutable state of `slot`, if in range.
    pub(super) fn get_mut(&mut self, slot: SlotId) -> Option<&mut SlotWeaponState> {
        self.slots.get_mut(usize::from(slot.0))
    }

    /// Every slot's state, by slot index.
    pub fn iter(&self) -> impl Iterator<Item = (SlotId, &SlotWeaponState)> + '_ {
        self.slots.iter().enumerate().map(|(i, s)| (SlotId(i as u8), s))
    }
}

/// Ticks for a duration in ms (0 for 0).
pub(super) fn ms_ticks(clock: &MatchClock, ms: u32) -> u32 {
    clock.ticks(ms as f32 / 1000.0)
}

/// Starts lowering the weapon in hand to switch to `to`.
pub fn begin_switch(table: &WeaponTable, inv: &mut Inventory, to: u8, clock: &MatchClock) {
    let drop = table.get(inv.current).map_or(0, |d| d.drop_ms);
    inv.switching_to = Some(to);
    inv.ready_tick = clock.tick + ms_ticks(clock, drop);
}

/// Step 1: acts on the weapon the command asks for.
pub fn select(table: &WeaponTable, inv: &mut Inventory, request: u8, state: &mut SlotWeaponState, clock: &MatchClock) {
    let changed = request != state.last_request;
    state.last_request = request;
    if request == 0 {
        return;
    }
    let target = inv.switching_to.unwrap_or(inv.current);
    if request == target {
        return;
    }
    if table.get(request).is_none() {
        state.unknown += u32::from(changed);
        return;
    }
    if !inv.has(request) {
        state.unheld += u32::from(changed);
        return;
    }
    if !table.can_fire(inv, request) {
        state.empty += u32::from(changed);
        return;
    }
    if inv.switching_to.is_some() {
        inv.switching_to = Some(request);
    } else if clock.tick >= inv.ready_tick {
        begin_switch(table, inv, request, clock);
        state.carry = 0.0;
    }
}

/// Step 2: a lowered weapon is swapped for the target, which starts rising.
pub fn finish_switch(table: &WeaponTable, inv: &mut Inventory, clock: &MatchClock) {
    let Some(to) = inv.switching_to else { return };
    if clock.tick < inv.ready_tick {
        return;
    }
    inv.switching_to = None;
    inv.current = to;
    let raise = table.get(to).map_or(0, |d| d.raise_ms);
    inv.ready_tick = clock.tick + ms_ticks(clock, raise);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(tick: u32) -> MatchClock {
        MatchClock { tick, hz: 60 }
    }

    #[test]
    fn switch_lowers_then_raises() {
        let t = WeaponTable::quake3();
        let mut inv = t.spawn_inventory();
        t.give_weapon(&mut inv, 5, 10);
        let mut s = SlotWeaponState::default();
        select(&t, &mut inv, 5, &mut s, &clock(10));
        assert_eq!((inv.current, inv.switching_to, inv.ready_tick), (2, Some(5), 22), "200 ms down");
        finish_switch(&t, &mut inv, &clock(21));
        assert_eq!(inv.current, 2);
        finish_switch(&t, &mut inv, &clock(22));
        assert_eq!((inv.current, inv.switching_to, inv.ready_tick), (5, None, 37), "250 ms up");
    }

    #[test]
    fn bad_requests_are_ignored_and_counted_once_per_change() {
        let t = WeaponTable::quake3();
        let mut inv = t.spawn_inventory();
        let before = inv;
        let mut s = SlotWeaponState::default();
        for req in [0u8, 9, 9, 9, 15, 16, 255, 7, 7, 3] {
            select(&t, &mut inv, req, &mut s, &clock(5));
        }
        assert_eq!(inv, before);
        assert_eq!((s.unknown, s.unheld), (4, 2));
        t.give_weapon(&mut inv, 7, 0);
        select(&t, &mut inv, 7, &mut s, &clock(6));
        assert_eq!((inv.switching_to, s.empty), (None, 1), "no slugs, no switch");
    }

    #[test]
    fn waits_for_refire_and_retargets_while_lowering() {
        let t = WeaponTable::quake3();
        let mut inv = t.spawn_inventory();
        t.give_weapon(&mut inv, 5, 10);
        t.give_weapon(&mut inv, 8, 10);
        inv.ready_tick = 20;
        let mut s = SlotWeaponState::default();
        select(&t, &mut inv, 5, &mut s, &clock(10));
        assert_eq!(inv.switching_to, None, "mid-refire");
        select(&t, &mut inv, 5, &mut s, &clock(20));
        assert_eq!(inv.switching_to, Some(5));
        select(&t, &mut inv, 8, &mut s, &clock(21));
        assert_eq!((inv.switching_to, inv.ready_tick), (Some(8), 32));
        select(&t, &mut inv, 2, &mut s, &clock(22));
        finish_switch(&t, &mut inv, &clock(32));
        assert_eq!(inv.current, 2, "switching back to the weapon in hand raises it again");
    }
}
