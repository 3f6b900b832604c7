//! Seeing is not noticing, and noticing is not reacting.
//!
//! - [`Noticing`]: an enemy in view who is not the bot's target is noticed
//!   by a roll each look ([`notice_chance`]): likelier close, near the view
//!   centre, at higher skill and when alert; an enemy that just fired or
//!   runs faster than [`FAST_SPEED`] is always noticed. An enemy noticed
//!   stays noticed while it stays in view (a short gap forgiven).
//! - [`ThreatRing`]: the reaction delay line. Each look pushes the enemies
//!   noticed into a ring of [`RING_LEN`] entries; the bot acts on the entry
//!   a reaction time old (the Counter-Strike bots' model), so it turns
//!   toward and targets what it saw that long ago. The rest of the reaction
//!   (jitter, the peripheral penalty) is paid before the first shot.
//! - The figures: from first in view to noticed, and to the first shot, per
//!   bot ([`crate::stats::BotStats`]).

use quarry_sim::SlotId;
use quarry_sim::slots::MAX_SLOTS;

use super::Sighting;
use crate::content::Traits;
use crate::rng::BotRng;
use crate::view::{BotClock, BotView};

/// An enemy moving faster than this (horizontally, units/s) is always noticed.
pub const FAST_SPEED: f32 = 200.0;
/// Entries in the reaction ring.
pub const RING_LEN: usize = 20;
/// An enemy out of view no longer than this stays noticed, ms.
const NOTICE_GAP_MS: f32 = 600.0;
/// Alert bots notice this much more readily.
const ALERT_BONUS: f32 = 1.5;

/// A set of slots, one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SlotSet(u128);

const _: () = assert!(MAX_SLOTS <= 128, "SlotSet holds 128 slots");

impl SlotSet {
    /// Adds `s`.
    pub fn insert(&mut self, s: SlotId) {
        self.0 |= 1u128 << (s.0 & 127);
    }

    /// Whether `s` is in.
    pub fn contains(self, s: SlotId) -> bool {
        self.0 & (1u128 << (s.0 & 127)) != 0
    }

    /// Removes `s`.
    pub fn remove(&mut self, s: SlotId) {
        self.0 &= !(1u128 << (s.0 & 127));
    }

    /// Every slot in `self` or `other`.
    pub fn union(self, other: SlotSet) -> SlotSet {
        SlotSet(self.0 | other.0)
    }
}

/// The chance to notice an enemy `distance` away, `off_axis` degrees from
/// the view centre, per look (before the always-noticed cases).
pub fn notice_chance(t: &Traits, distance: f32, off_axis: f32, alert: bool) -> f32 {
    let near = (1.0 - distance / t.sight_range.max(1.0)).clamp(0.2, 1.0);
    let centred = (1.0 - 0.7 * off_axis / (t.fov * 0.5).max(1.0)).clamp(0.3, 1.0);
    let p = t.notice_chance * near * centred * if alert { ALERT_BONUS } else { 1.0 };
    p.clamp(0.0, 1.0)
}

/// One enemy while it is in view.
#[derive(Debug, Clone, Copy, PartialEq)]
struct InView {
    slot: SlotId,
    /// First tick of this stretch in view.
    first: u32,
    /// Last tick it was in view.
    last: u32,
    noticed: bool,
    /// Its first shot was counted.
    shot: bool,
    /// Its first hit was counted.
    hit: bool,
}

/// What the bot has noticed, and since when enemies have been in view.
#[derive(Debug, Clone, Default)]
pub struct Noticing {
    in_view: Vec<InView>,
}

/// What a look newly noticed: who, and the delay from first in view, ms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoticeFigures {
    /// One per enemy noticed at this look.
    pub noticed: Vec<(SlotId, f32)>,
}

impl Noticing {
    /// A new life.
    pub fn reset_life(&mut self) {
        self.in_view.clear();
    }

    /// Filters a look's sightings down to the enemies noticed; `target` and
    /// the `expected` (a teammate said they were coming) are always kept.
    /// Returns the delays of those newly noticed.
    #[expect(clippy::too_many_arguments, reason = "one look with everything it weighs")]
    pub fn filter(
        &mut self,
        sightings: &mut Vec<Sighting>,
        view: &BotView<'_>,
        t: &Traits,
        target: Option<SlotId>,
        expected: SlotSet,
        alert: bool,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> NoticeFigures {
        let gap = clock.ticks_ms(NOTICE_GAP_MS);
        self.in_view.retain(|v| clock.tick.saturating_sub(v.last) <= gap);
        let mut figures = NoticeFigures::default();
        sightings.retain(|s| {
            let i = match self.in_view.iter().position(|v| v.slot == s.slot) {
                Some(i) => i,
                None => {
                    self.in_view.push(InView { slot: s.slot, first: clock.tick, last: clock.tick, noticed: false, shot: false, hit: false });
                    self.in_view.len() - 1
                }
            };
            let Some(v) = self.in_view.get_mut(i) else { return false };
            v.last = clock.tick;
            if !v.noticed {
                let loud = view.player(s.slot).is_some_and(|p| p.attacking || p.velocity.truncate().length() > FAST_SPEED);
                v.noticed = target == Some(s.slot) || expected.contains(s.slot) || loud || rng.chance(notice_chance(t, s.distance, s.off_axis, alert));
                if v.noticed {
                    figures.noticed.push((s.slot, clock.ms_since(v.first)));
                }
            }
            v.noticed
        });
        figures
    }

    /// The first shot at `slot`: the delay from its first tick in view, ms,
    /// once per stretch in view.
    pub fn first_shot(&mut self, slot: SlotId, clock: &BotClock) -> Option<f32> {
        let v = self.in_view.iter_mut().find(|v| v.slot == slot && v.noticed && !v.shot)?;
        v.shot = true;
        Some(clock.ms_since(v.first))
    }

    /// The first hit on `slot`: the delay from its first tick in view, ms,
    /// once per stretch in view.
    pub fn first_hit(&mut self, slot: SlotId, clock: &BotClock) -> Option<f32> {
        let v = self.in_view.iter_mut().find(|v| v.slot == slot && v.noticed && !v.hit)?;
        v.hit = true;
        Some(clock.ms_since(v.first))
    }
}

/// The reaction delay line: what was noticed at each recent look.
#[derive(Debug, Clone, Default)]
pub struct ThreatRing {
    entries: [(u32, SlotSet); RING_LEN],
    next: usize,
    len: usize,
}

impl ThreatRing {
    /// A new life.
    pub fn reset_life(&mut self) {
        *self = Self::default();
    }

    /// Records the enemies noticed at the look of `tick`.
    pub fn push(&mut self, tick: u32, noticed: impl Iterator<Item = SlotId>) {
        let mut set = SlotSet::default();
        noticed.for_each(|s| set.insert(s));
        if let Some(e) = self.entries.get_mut(self.next) {
            *e = (tick, set);
        }
        self.next = (self.next + 1) % RING_LEN;
        self.len = (self.len + 1).min(RING_LEN);
    }

    /// The enemies the bot acts on now: those in the newest entry at least
    /// `lag_ms` old; none while no entry is that old yet.
    pub fn attended(&self, lag_ms: f32, clock: &BotClock) -> SlotSet {
        let lag = clock.ticks_ms(lag_ms);
        (1..=self.len)
            .filter_map(|back| self.entries.get((self.next + RING_LEN - back) % RING_LEN))
            .find(|(tick, _)| clock.tick.saturating_sub(*tick) >= lag)
            .map_or_else(SlotSet::default, |(_, set)| *set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noticing_is_likelier_close_centred_skilled_and_alert() {
        let s3 = Traits::at_skill(3.0);
        let s1 = Traits::at_skill(1.0);
        let s5 = Traits::at_skill(5.0);
        let base = notice_chance(&s3, 300.0, 0.0, false);
        assert!(base > notice_chance(&s3, 1800.0, 0.0, false));
        assert!(base > notice_chance(&s3, 300.0, 60.0, false));
        assert!(notice_chance(&s5, 300.0, 0.0, false) > notice_chance(&s1, 300.0, 0.0, false));
        assert!(notice_chance(&s3, 300.0, 0.0, true) > base);
    }

    #[test]
    fn the_ring_answers_with_what_was_seen_a_reaction_ago() {
        let clock = |tick| BotClock { tick, hz: 60 };
        let mut ring = ThreatRing::default();
        let a = SlotId(3);
        for tick in (0..60).step_by(6) {
            ring.push(tick, (tick >= 30).then_some(a).into_iter());
        }
        // Seen from tick 30; at tick 54 a 300 ms (18-tick) lag reads tick 36.
        assert!(ring.attended(300.0, &clock(54)).contains(a));
        // A 500 ms (30-tick) lag reads tick 24: not yet.
        assert!(!ring.attended(500.0, &clock(54)).contains(a));
        // Longer than the ring remembers: nothing.
        assert!(!ring.attended(60_000.0, &clock(54)).contains(a));
    }
}
