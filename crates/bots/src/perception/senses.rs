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

/// An enemy known about this lately is watched for, ms.
pub(crate) const WATCH_MS: f32 = 4000.0;
/// An enemy known about within this range is watched for, units.
pub(crate) const WATCH_RANGE: f32 = 1500.0;
/// The watch is kept this far above the enemy's origin (its chest), units.
const WATCH_HEIGHT: f32 = 16.0;
/// An enemy known lately that shows itself this near where the bot
/// believed it to be (plus the belief's uncertainty) was anticipated,
/// units.
const ANTICIPATE_RADIUS: f32 = 400.0;
/// An enemy known about closer than this is not watched (it is about to
/// be seen, or it is in the bot's own spot), units.
const WATCH_NEAR: f32 = 64.0;

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
    /// Enemies in sight that a teammate reported lately, or (when the bot
    /// anticipates) that it saw or heard lately and that show themselves
    /// again about where it believed them to be: the bot was looking out
    /// for them, so it notices and reacts to them as to an enemy just lost
    /// from view.
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
    /// acts on (`lag_ms` old), and forgets stale or gone tracks. With
    /// `anticipate` (`bot_tactical` 2 and up, the level that keeps its eye
    /// on the threat) an enemy the bot saw or heard lately that shows
    /// itself again near where it was believed to be is expected, like a
    /// reported one. Returns the checks spent and the noticing delays of
    /// this look.
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
        anticipate: bool,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> (usize, NoticeFigures) {
        // Who was in sight at the last look (only anticipation asks).
        let mut in_sight = SlotSet::default();
        if anticipate {
            for s in &self.sightings {
                in_sight.insert(s.slot);
            }
        }
        self.memory.begin_scan();
        let mut sightings = std::mem::take(&mut self.sightings);
        let spent = scan(view, me, t, &self.memory, current, ignored, budget, &mut sightings);
        let alert = self.hearing.alert(clock);
        let mut expected = SlotSet::default();
        for s in &sightings {
            let Some(tr) = self.memory.track(s.slot) else { continue };
            let reported = tr.knowledge == Knowledge::Reported && clock.ms_since(tr.news_tick) <= EXPECT_MS;
            let reappears = anticipate
                && !in_sight.contains(s.slot)
                && clock.ms_since(tr.news_tick) <= WATCH_MS
                && view.player(s.slot).is_some_and(|p| p.origin.distance(tr.position) <= ANTICIPATE_RADIUS + tr.uncertainty);
            if reported || reappears {
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

    /// Where a bot with no target keeps its eye (`bot_tactical` 2 and
    /// up): the nearest enemy it knows about lately ([`WATCH_MS`], within
    /// [`WATCH_RANGE`]: seen, heard or reported) but does not see, at chest
    /// height. It will likely show itself from about there, and a bot
    /// already looking that way notices it sooner and turns less to aim.
    pub fn watch_point(&self, me: &PlayerSnap, clock: &BotClock) -> Option<Vec3> {
        self.memory
            .nearest_news(me.origin, clock, WATCH_MS, WATCH_NEAR..=WATCH_RANGE, |t| !t.visible)
            .map(|t| t.position + Vec3::Z * WATCH_HEIGHT)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::testkit::{Kit, player};
    use quarry_sim::Team;
    use quarry_sim::rules::GameType;

    /// One look by a bot at the origin facing +x, with an enemy at `enemy`;
    /// whether the enemy came out expected.
    fn expected_after_look(senses: &mut Senses, enemy: Vec3, anticipate: bool, tick: u32) -> bool {
        let kit = Kit::new();
        let me = player(0, Team::Red, Vec3::ZERO);
        let mut view = kit.view(GameType::Tdm, vec![me, player(1, Team::Blue, enemy)]);
        let clock = BotClock { tick, hz: 60 };
        view.clock = clock;
        let t = Traits::at_skill(3.0);
        let mut rng = BotRng::for_slot(1, 0, 0);
        senses.look(&view, &me, &t, None, &[], 8, t.attention_lag_ms(), anticipate, &clock, &mut rng);
        senses.expected.contains(SlotId(1))
    }

    #[test]
    fn an_enemy_known_lately_showing_itself_where_it_was_believed_is_anticipated() {
        let seen_at = Vec3::new(700.0, 0.0, 24.0);
        let knew = || {
            let mut senses = Senses::default();
            senses.memory.see(SlotId(1), 600, seen_at, Vec3::ZERO, Vec3::ZERO);
            senses
        };
        // Seen a second ago, out of sight since, back 100 units on: expected
        // when the bot anticipates, not otherwise.
        assert!(expected_after_look(&mut knew(), Vec3::new(800.0, 0.0, 24.0), true, 660));
        assert!(!expected_after_look(&mut knew(), Vec3::new(800.0, 0.0, 24.0), false, 660));
        // Far from where it was believed to be: a surprise.
        assert!(!expected_after_look(&mut knew(), Vec3::new(800.0, 900.0, 24.0), true, 660));
        // Old news (over the watch's 4 s): a surprise too.
        let late = 600 + BotClock { tick: 0, hz: 60 }.ticks_ms(WATCH_MS) + 1;
        assert!(!expected_after_look(&mut knew(), Vec3::new(800.0, 0.0, 24.0), true, late));
        // In sight at the last look already: the reaction ring decides, not
        // the anticipation.
        let mut senses = knew();
        let first = expected_after_look(&mut senses, Vec3::new(800.0, 0.0, 24.0), true, 660);
        let noticed = senses.sees(SlotId(1));
        let again = expected_after_look(&mut senses, Vec3::new(810.0, 0.0, 24.0), true, 666);
        assert!(first && noticed && !again, "first {first}, noticed {noticed}, again {again}");
    }

    #[test]
    fn the_watch_is_on_the_nearest_enemy_known_lately_and_not_in_sight() {
        let me = PlayerSnap::standing(0, Team::Red, Vec3::ZERO);
        let mut senses = Senses::default();
        let clock = BotClock { tick: 900, hz: 60 };
        assert_eq!(senses.watch_point(&me, &clock), None, "nothing known, nothing watched");
        senses.memory.see(SlotId(5), 840, Vec3::new(-300.0, 0.0, 0.0), Vec3::ZERO, Vec3::ZERO);
        senses.memory.report(SlotId(4), 860, Vec3::new(0.0, 500.0, 0.0), 200.0);
        senses.memory.hear(SlotId(3), 890, Vec3::new(900.0, 0.0, 0.0), 100.0);
        // The one in sight is for the target choice, not the watch; of the
        // others the nearest (the report) is watched, at chest height.
        assert_eq!(senses.watch_point(&me, &clock), Some(Vec3::new(0.0, 500.0, WATCH_HEIGHT)));
        // Out of sight now: the nearest known is the one seen.
        senses.memory.begin_scan();
        assert_eq!(senses.watch_point(&me, &clock), Some(Vec3::new(-300.0, 0.0, WATCH_HEIGHT)));
        // Old news is not watched: just over 4 s after the sighting, the
        // report is the nearest left.
        let later = BotClock { tick: 840 + clock.ticks_ms(WATCH_MS) + 1, ..clock };
        assert_eq!(senses.watch_point(&me, &later), Some(Vec3::new(0.0, 500.0, WATCH_HEIGHT)));
        // Beyond the watch range, nothing.
        let far = PlayerSnap::standing(0, Team::Red, Vec3::new(900.0 + WATCH_RANGE + 1.0, 0.0, 0.0));
        assert_eq!(senses.watch_point(&far, &later), None);
    }
}
