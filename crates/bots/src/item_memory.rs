//! What a bot knows of the map's items: whether each one is there and, when
//! it is not, when it comes back. A player knows only what it has seen,
//! heard or been told, and so does a bot:
//!
//! - an item it has no news of is believed there (the map is known, and
//!   every item is there when play goes live but the powerups, which are
//!   believed gone until their latest first-spawn time);
//! - it looks at one item a tick (round robin) among those in its field of
//!   view within [`ITEM_SIGHT`] (or within [`ITEM_NEAR`], whatever the
//!   view direction): one trace; a clear line shows the item's real state;
//! - a pickup it sees (in view and clear), hears (within the sound table's
//!   pickup range, less through a wall) or makes tells it the item's
//!   respawn time exactly: respawn periods are public (the item table), so
//!   it times the item as players do;
//! - an item seen missing without the pickup seen is back by the time it
//!   was seen missing plus its period at the latest: the bot believes it
//!   gone until then;
//! - a teammate's word ([`ItemMemory::told`]) times an item as a pickup
//!   does.
//!
//! The brain reads items through [`ItemMemory::believed`]: the view's items
//! with availability and respawn tick as this bot believes them, and only
//! the dropped weapons it has seen. The view's own `available` and
//! `respawn_at` are the truth and are read here only through a clear line.
//!
//! In: the [`BotView`] (items, this tick's events), the bot's eye and view
//! direction, its field of view; out: the believed items and which item
//! timings the bot learned this tick (for its team).

use glam::Vec3;
use quarry_sim::components::NetId;
use quarry_sim::events::{GameEvent, SoundKind};
use quarry_sim::rules::Phase;

use crate::perception::{carries, clear_line, forward, in_fov};
use crate::view::{BotClock, BotView, ItemSnap, PlayerSnap};

/// How far a bot makes out an item, units.
pub const ITEM_SIGHT: f32 = 2000.0;

/// Items this close are noticed whatever the view direction, units (the
/// bot stands at or next to them).
pub const ITEM_NEAR: f32 = 192.0;

/// Items looked at per tick (one trace each).
pub const LOOKS_PER_TICK: usize = 1;

/// A heard pickup is put down to the nearest item of its class; it is
/// ambiguous (and not put down to any) when another item of the class is
/// within this share of the listener's distance from it.
pub const HEARD_AMBIGUITY: f32 = 0.25;

/// What the bot believes of one map item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemState {
    /// There to take (seen there, or no news since play went live).
    There,
    /// Gone: taken, or seen missing.
    Gone {
        /// The tick it is believed back.
        back_at: u32,
        /// The pickup was seen, heard, made or told: `back_at` is its
        /// respawn tick. Otherwise it is the latest it can be back.
        exact: bool,
    },
}

/// An item timing the bot learned from a pickup (its own, seen or heard).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The item.
    pub item: NetId,
    /// The tick it comes back.
    pub back_at: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Belief {
    id: NetId,
    state: ItemState,
}

/// Everything a bot believes about items. Kept across lives (a player
/// remembers what it saw before it died).
#[derive(Debug, Clone, Default)]
pub struct ItemMemory {
    /// Map items, by id.
    beliefs: Vec<Belief>,
    /// Dropped weapons seen, by id.
    drops: Vec<NetId>,
    /// The view's items as believed; rebuilt by [`ItemMemory::update`].
    believed: Vec<ItemSnap>,
    /// Where the round robin of looks goes on.
    cursor: usize,
    /// Timings learned in the last update.
    learned: Vec<Timing>,
}

impl ItemMemory {
    /// The items as this bot believes them: map items with believed
    /// availability and respawn tick (0 when not known), and the dropped
    /// weapons it has seen.
    pub fn believed(&self) -> &[ItemSnap] {
        &self.believed
    }

    /// What the bot believes of map item `id` (`None`: no such map item).
    pub fn state(&self, id: NetId) -> Option<ItemState> {
        self.belief(id).map(|b| b.state)
    }

    /// Every map item's belief, by id.
    pub fn states(&self) -> impl Iterator<Item = (NetId, ItemState)> + '_ {
        self.beliefs.iter().map(|b| (b.id, b.state))
    }

    /// Item timings learned from pickups in the last update (its own, seen
    /// or heard), in event order.
    pub fn learned(&self) -> &[Timing] {
        &self.learned
    }

    /// A teammate said item `id` comes back at `back_at`: believed unless
    /// the bot knows of a later pickup, or the time has passed.
    pub fn told(&mut self, id: NetId, back_at: u32, clock: &BotClock) {
        if back_at <= clock.tick {
            return;
        }
        if let Some(b) = self.belief_mut(id) {
            b.state = match b.state {
                ItemState::Gone { back_at: known, exact: true } if known >= back_at => b.state,
                _ => ItemState::Gone { back_at, exact: true },
            };
        }
        self.rebuild_one(id);
    }

    /// One tick: follows the map's items, learns from this tick's events
    /// (play going live, pickups seen or heard), looks at up to
    /// [`LOOKS_PER_TICK`] items, and rebuilds [`ItemMemory::believed`].
    /// `me` is `None` while the bot has no living body (it neither sees nor
    /// hears). `fov` is the bot's field of view, degrees.
    pub fn update(&mut self, view: &BotView<'_>, me: Option<&PlayerSnap>, fov: f32) {
        let clock = view.clock;
        self.learned.clear();
        self.follow_map(view);
        for ev in &view.events {
            match *ev {
                GameEvent::Phase { phase: Phase::Live { since } } => self.went_live(view, since),
                GameEvent::ItemPickup { slot, item, origin } => {
                    if let Some(me) = me.filter(|m| m.alive)
                        && let Some(id) = self.witnessed(view, me, slot, item, origin, fov)
                    {
                        self.picked_up(view, id, &clock);
                    }
                }
                _ => {}
            }
        }
        // Believed back: the time has come.
        for b in &mut self.beliefs {
            if let ItemState::Gone { back_at, .. } = b.state
                && back_at <= clock.tick
            {
                b.state = ItemState::There;
            }
        }
        if let Some(me) = me.filter(|m| m.alive) {
            self.look(view, me, fov, &clock);
        }
        self.rebuild(view);
    }

    /// Play went live at `since`: every item is put back, but one with a
    /// first-spawn delay (powerups), which has appeared by its latest
    /// first-spawn time.
    fn went_live(&mut self, view: &BotView<'_>, since: u32) {
        for b in &mut self.beliefs {
            let first = view.items.iter().find(|i| i.id == b.id).map_or(0, |i| i.first_spawn_ticks);
            b.state = if first > 0 { ItemState::Gone { back_at: since.saturating_add(first), exact: false } } else { ItemState::There };
        }
        self.drops.clear();
    }

    fn belief(&self, id: NetId) -> Option<&Belief> {
        self.beliefs.binary_search_by_key(&id, |b| b.id).ok().and_then(|i| self.beliefs.get(i))
    }

    fn belief_mut(&mut self, id: NetId) -> Option<&mut Belief> {
        self.beliefs.binary_search_by_key(&id, |b| b.id).ok().and_then(|i| self.beliefs.get_mut(i))
    }

    /// Keeps one belief per map item in the view (items come and go with
    /// the map and `killtarget`); a new one is believed there.
    fn follow_map(&mut self, view: &BotView<'_>) {
        let mut map_items = view.items.iter().filter(|i| !i.dropped);
        let same = self.beliefs.len() == map_items.clone().count() && self.beliefs.iter().zip(&mut map_items).all(|(b, i)| b.id == i.id);
        if same {
            return;
        }
        let old = std::mem::take(&mut self.beliefs);
        self.beliefs = view
            .items
            .iter()
            .filter(|i| !i.dropped)
            .map(|i| Belief {
                id: i.id,
                state: old.iter().find(|b| b.id == i.id).map_or(ItemState::There, |b| b.state),
            })
            .collect();
        self.cursor = 0;
    }

    /// Which map item a pickup by `slot` of class `class` at `origin` was,
    /// if the bot made it, saw it or heard it (and can tell which).
    fn witnessed(&self, view: &BotView<'_>, me: &PlayerSnap, slot: quarry_sim::SlotId, class: &str, origin: Vec3, fov: f32) -> Option<NetId> {
        let exact = view.items.iter().find(|i| !i.dropped && i.classname == class && i.origin.distance_squared(origin) < 1.0);
        if slot == me.slot {
            return exact.map(|i| i.id);
        }
        let distance = origin.distance(me.eye);
        let seen = distance <= ITEM_SIGHT
            && (distance <= ITEM_NEAR || in_fov(forward(me.pitch, me.yaw), me.eye, origin, fov))
            && clear_line(view.map.world(), me.eye, origin);
        if seen {
            return exact.map(|i| i.id);
        }
        // Heard: the pickup sound says the class and about where.
        carries(view, SoundKind::ItemPickup, origin, me.eye)?;
        let nearest = exact?;
        let ambiguous = view
            .items
            .iter()
            .any(|i| !i.dropped && i.classname == class && i.id != nearest.id && i.origin.distance(origin) < HEARD_AMBIGUITY * distance);
        (!ambiguous).then_some(nearest.id)
    }

    /// A pickup of map item `id` in the last tick (a view's events happened
    /// in the tick before its clock's): it comes back a period after it.
    fn picked_up(&mut self, view: &BotView<'_>, id: NetId, clock: &BotClock) {
        let Some(period) = view.items.iter().find(|i| i.id == id).map(|i| i.respawn_ticks) else { return };
        let back_at = clock.tick.saturating_sub(1).saturating_add(period.max(1));
        if let Some(b) = self.belief_mut(id) {
            b.state = ItemState::Gone { back_at, exact: true };
            self.learned.push(Timing { item: id, back_at });
        }
    }

    /// Looks at the next items in view (round robin): a clear line shows
    /// each one's state.
    fn look(&mut self, view: &BotView<'_>, me: &PlayerSnap, fov: f32, clock: &BotClock) {
        let n = view.items.len();
        if n == 0 {
            return;
        }
        let ahead = forward(me.pitch, me.yaw);
        let mut looks = 0;
        for _ in 0..n {
            if looks >= LOOKS_PER_TICK {
                break;
            }
            self.cursor = (self.cursor + 1) % n;
            let Some(item) = view.items.get(self.cursor) else { break };
            let distance = item.origin.distance(me.eye);
            if distance > ITEM_SIGHT || (distance > ITEM_NEAR && !in_fov(ahead, me.eye, item.origin, fov)) {
                continue;
            }
            looks += 1;
            if !clear_line(view.map.world(), me.eye, item.origin) {
                continue;
            }
            self.saw(item, clock);
        }
    }

    /// A clear look at `item`: its state as it is.
    fn saw(&mut self, item: &ItemSnap, clock: &BotClock) {
        if item.dropped {
            if let Err(at) = self.drops.binary_search(&item.id) {
                self.drops.insert(at, item.id);
            }
            return;
        }
        let Some(b) = self.belief_mut(item.id) else { return };
        b.state = match (item.available, b.state) {
            (true, _) => ItemState::There,
            // Already known gone (timed, or an earlier bound).
            (false, gone @ ItemState::Gone { .. }) => gone,
            // Missing, taken some time ago: back within a period of now.
            (false, ItemState::There) => ItemState::Gone { back_at: clock.tick.saturating_add(item.respawn_ticks.max(1)), exact: false },
        };
    }

    /// The view's items as believed.
    fn rebuild(&mut self, view: &BotView<'_>) {
        self.drops.retain(|id| view.items.iter().any(|i| i.id == *id));
        self.believed.clear();
        for item in &view.items {
            let snap = if item.dropped {
                if self.drops.binary_search(&item.id).is_err() {
                    continue;
                }
                *item
            } else {
                let state = self.belief(item.id).map_or(ItemState::There, |b| b.state);
                believed_snap(item, state)
            };
            self.believed.push(snap);
        }
    }

    /// Rebuilds the believed entry of map item `id` after a change.
    fn rebuild_one(&mut self, id: NetId) {
        let Some(state) = self.state(id) else { return };
        if let Some(snap) = self.believed.iter_mut().find(|i| i.id == id) {
            *snap = believed_snap(snap, state);
        }
    }
}

/// `item` with availability and respawn tick as believed.
fn believed_snap(item: &ItemSnap, state: ItemState) -> ItemSnap {
    // Only a timed item has a respawn tick to plan around; one seen missing
    // is simply gone until it is believed back.
    let (available, respawn_at) = match state {
        ItemState::There => (true, 0),
        ItemState::Gone { back_at, exact: true } => (false, back_at),
        ItemState::Gone { exact: false, .. } => (false, 0),
    };
    ItemSnap { available, respawn_at, ..*item }
}

#[cfg(test)]
mod tests;
