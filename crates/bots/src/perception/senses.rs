//! [`Senses`]: one bot's perception and memory state: what it remembers,
//! whom it sees this decision, and where something told it to look.
//!
//! In: the view, the bot's snapshot and traits, the current target and a
//! line-of-sight budget; out: the sightings of this decision and the
//! memory they update (read by `decide`), and a look hint (read by `aim`).

use glam::Vec3;
use quarry_sim::SlotId;

use super::{Sighting, scan};
use crate::content::Traits;
use crate::memory::Memory;
use crate::view::{BotClock, BotView, PlayerSnap};

/// What a bot knows and where it was told to look.
#[derive(Debug, Clone, Default)]
pub struct Senses {
    /// Enemy tracks, the last attacker and killer, the goal blacklist.
    pub memory: Memory,
    /// The enemies seen at the last decision.
    pub sightings: Vec<Sighting>,
    /// Where to look while there is no target (a hit from there, a sound)
    /// and until which tick.
    pub look_hint: Option<(Vec3, u32)>,
}

impl Senses {
    /// A new life: per-life memory, sightings and the look hint go.
    pub fn reset_life(&mut self) {
        self.memory.reset_life();
        self.sightings.clear();
        self.look_hint = None;
    }

    /// Whether `slot` was seen at the last decision.
    pub fn sees(&self, slot: SlotId) -> bool {
        self.sightings.iter().any(|s| s.slot == slot)
    }

    /// The look of a decision tick: scans for enemies (at most `budget`
    /// line-of-sight checks, `current` first), remembers who was seen and
    /// forgets stale or gone tracks. Returns the checks spent.
    #[expect(clippy::too_many_arguments, reason = "one look with everything it reads")]
    pub fn look(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        t: &Traits,
        current: Option<SlotId>,
        ignored: &[SlotId],
        budget: usize,
        clock: &BotClock,
    ) -> usize {
        self.memory.begin_scan();
        let mut sightings = std::mem::take(&mut self.sightings);
        let spent = scan(view, me, t, &self.memory, current, ignored, budget, &mut sightings);
        for s in &sightings {
            if let Some(p) = view.player(s.slot) {
                self.memory.see(s.slot, clock.tick, p.origin, p.velocity, s.seen_offset);
            }
        }
        let gone = |s: SlotId| view.player(s).is_none_or(|p| !p.active()) || ignored.contains(&s);
        self.memory.forget(clock, t.enemy_memory_msec(), gone);
        self.sightings = sightings;
        spent
    }

    /// The look hint if it still holds at this tick (an expired one is dropped).
    pub fn look_hint(&mut self, clock: &BotClock) -> Option<Vec3> {
        let (p, until) = self.look_hint?;
        if clock.tick < until {
            return Some(p);
        }
        self.look_hint = None;
        None
    }
}
