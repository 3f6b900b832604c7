//! [`Senses`]: one bot's perception and memory state: what it remembers,
//! whom it sees and has noticed this decision, what it heard, and where
//! something told it to look.
//!
//! In: the view, the bot's snapshot and traits, the current target and a
//! line-of-sight budget; out: the sightings of this decision (noticed
//! enemies only) and the memory they update, the enemies it acts on (the
//! reaction ring, read by `decide`), and a look hint (read by `aim`).

use glam::Vec3;
use quarry_sim::SlotId;

use super::hearing::Hearing;
use super::notice::{NoticeFigures, Noticing, SlotSet, ThreatRing};
use super::{Sighting, scan};
use crate::content::Traits;
use crate::memory::{Knowledge, Memory};
use crate::rng::BotRng;

/// A teammate's report of an enemy keeps the bot looking out for it this
/// long, ms.
pub(crate) const EXPECT_MS: f32 = 5000.0;
use crate::view::{BotClock, BotView, PlayerSnap};

/// What a bot knows and where it was told to look.
#[derive(Debug, Clone, Default)]
pub struct Senses {
    /// Enemy tracks, the last attacker and killer, the goal blacklist.
    pub memory: Memory,
    /// The enemies seen and noticed at the last decision.
    pub sightings: Vec<Sighting>,
    /// The enemies the bot acts on: noticed a reaction time ago, or
    /// expected.
    pub attended: SlotSet,
    /// Enemies in sight that a teammate reported lately: the bot was
    /// looking out for them, so it notices and reacts to them as to an
    /// enemy just lost from view.
    pub expected: SlotSet,
    /// Who is in view and noticed.
    pub noticing: Noticing,
    /// The reaction delay line.
    pub ring: ThreatRing,
    /// Enemies in sight the bot chooses not to engage (its tactics).
    pub suppressed: SlotSet,
    /// The noise or report kept, and alertness.
    pub hearing: Hearing,
    /// Where to look while there is no target (a hit from there, a sound)
    /// and until which tick.
    pub look_hint: Option<(Vec3, u32)>,
}

impl Senses {
    /// A new life: per-life memory, sightings and the look hint go.
    pub fn reset_life(&mut self) {
        self.memory.reset_life();
        self.sightings.clear();
        self.attended = SlotSet::default();
        self.expected = SlotSet::default();
        self.suppressed = SlotSet::default();
        self.noticing.reset_life();
        self.ring.reset_life();
        self.hearing.reset_life();
        self.look_hint = None;
    }

    /// Whether `slot` was seen at the last decision.
    pub fn sees(&self, slot: SlotId) -> bool {
        self.sightings.iter().any(|s| s.slot == slot)
    }

    /// The look of a decision tick: scans for enemies (at most `budget`
    /// line-of-sight checks, `current` first), keeps those noticed,
    /// remembers them, pushes them into the reaction ring and reads what it
    /// acts on (`lag_ms` old), and forgets stale or gone tracks. Returns the
    /// checks spent and the noticing delays of this look.
    #[expect(clippy::too_many_arguments, reason = "one look with everything it reads")]
    pub fn look(
        &mut self,
        view: &BotView<'_>,
        me: &PlayerSnap,
        t: &Traits,
        current: Option<SlotId>,
        ignored: &[SlotId],
        budget: usize,
        lag_ms: f32,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> (usize, NoticeFigures) {
        self.memory.begin_scan();
        let mut sightings = std::mem::take(&mut self.sightings);
        let spent = scan(view, me, t, &self.memory, current, ignored, budget, &mut sightings);
        let alert = self.hearing.alert(clock);
        let mut expected = SlotSet::default();
        for s in &sightings {
            let reported = self.memory.track(s.slot).filter(|tr| tr.knowledge == Knowledge::Reported);
            if reported.is_some_and(|tr| clock.ms_since(tr.news_tick) <= EXPECT_MS) {
                expected.insert(s.slot);
            }
        }
        let figures = self.noticing.filter(&mut sightings, view, t, current, expected, alert, clock, rng);
        self.ring.push(clock.tick, sightings.iter().map(|s| s.slot));
        self.attended = self.ring.attended(lag_ms, clock);
        self.expected = expected;
        for s in &sightings {
            if let Some(p) = view.player(s.slot) {
                self.memory.see(s.slot, clock.tick, p.origin, p.velocity, s.seen_offset);
            }
        }
        let gone = |s: SlotId| view.player(s).is_none_or(|p| !p.active()) || ignored.contains(&s);
        self.memory.forget(clock, t.enemy_memory_msec(), gone);
        self.sightings = sightings;
        (spent, figures)
    }

    /// Whether the bot acts on `slot` seen now: noticed a reaction time
    /// ago, or expected.
    pub fn attends(&self, slot: SlotId) -> bool {
        !self.suppressed.contains(slot) && (self.attended.contains(slot) || self.expected.contains(slot))
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
