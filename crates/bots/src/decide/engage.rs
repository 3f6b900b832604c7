//! [`Targeting`]: one bot's combat target over time: the engagement (who,
//! since when it may fire, when it was last seen), acquisitions with their
//! reaction delay, re-acquisition after a short loss, dropping a target
//! that died or was forgotten, and the enemy to chase.
//!
//! In: the sightings and memory of a decision ([`Senses`]), the traits, the
//! clock and the bot's RNG; out: the engagement, and an [`Acquired`] for
//! each acquisition so the aim and fire layer can start over.

use glam::Vec3;
use quarry_sim::SlotId;

use super::goal::pursuit_point;
use super::target::{TargetCandidate, choose_target};
use crate::content::Traits;
use crate::memory::{Knowledge, Memory};
use crate::perception::{Senses, Sighting, reaction_delay_ms};
use crate::rng::BotRng;
use crate::view::{BotClock, BotView, PlayerSnap};

/// A target unseen longer than this is being re-acquired when seen again, ms.
const REACQUIRE_GAP_MS: f32 = 100.0;

/// The engagement with the combat target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Engagement {
    /// The target.
    pub slot: SlotId,
    /// May fire from this tick.
    pub fire_after: u32,
    /// Last tick it was seen.
    pub last_seen: u32,
    /// The belief must snap to the truth next aim update.
    pub snap: bool,
    /// The reaction delay rolled for this acquisition, ms.
    pub reaction_ms: f32,
    /// Whether it was a fresh acquisition (not a re-acquisition).
    pub fresh: bool,
}

/// One acquisition, for the statistics and the aim and fire layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Acquired {
    /// A fresh acquisition (a new belief, lead and mistake roll follow).
    pub fresh: bool,
    /// The reaction delay rolled, ms.
    pub delay_ms: f32,
    /// For a fresh one, the delay it would have had dead ahead, ms.
    pub centred_delay_ms: Option<f32>,
}

/// The combat target as this tick sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TargetNow {
    /// The engagement.
    pub engagement: Engagement,
    /// The target's snapshot.
    pub player: PlayerSnap,
    /// Seen at the last decision.
    pub visible: bool,
    /// Where the bot believes it is: its origin when seen, else the
    /// remembered position.
    pub position: Vec3,
}

/// The enemy to chase: who, the pursuit point, whether it is seen, and
/// seconds since it was last seen or heard.
pub type Chase = (SlotId, Vec3, bool, f32);

/// A bot's combat target state.
#[derive(Debug, Clone, Default)]
pub struct Targeting {
    /// The current engagement.
    pub engagement: Option<Engagement>,
    /// This engagement's roll: pick the best-scored enemy, not the nearest.
    best_target_roll: bool,
}

impl Targeting {
    /// A new life: no target.
    pub fn reset_life(&mut self) {
        self.engagement = None;
    }

    /// Rolls whether the next pick is the best-scored (`targetSelection`).
    pub fn roll(&mut self, t: &Traits, rng: &mut BotRng) {
        self.best_target_roll = rng.chance(t.target_selection);
    }

    /// The target's slot.
    pub fn slot(&self) -> Option<SlotId> {
        self.engagement.map(|e| e.slot)
    }

    /// Someone died: a dead target is dropped and the pick rolled again.
    pub fn died(&mut self, victim: SlotId, t: &Traits, rng: &mut BotRng) {
        if self.engagement.is_some_and(|e| e.slot == victim) {
            self.engagement = None;
            self.roll(t, rng);
        }
    }

    /// An acquisition of `slot`: a reaction delay (longer off-axis, shorter
    /// re-acquiring), less `paid_ms` already spent noticing (the reaction
    /// ring's lag), and the engagement starts over.
    #[expect(clippy::too_many_arguments, reason = "one acquisition with everything it weighs")]
    pub fn acquire(
        &mut self,
        slot: SlotId,
        off_axis: f32,
        fresh: bool,
        paid_ms: f32,
        t: &Traits,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Acquired {
        let fresh = fresh || self.engagement.is_none_or(|e| e.slot != slot);
        let jitter = rng.signed();
        let delay = reaction_delay_ms(t, off_axis, fresh, jitter);
        let centred_delay_ms = fresh.then(|| reaction_delay_ms(t, 0.0, true, jitter));
        self.engagement = Some(Engagement {
            slot,
            fire_after: clock.after_ms(delay - if fresh { paid_ms } else { 0.0 }),
            last_seen: clock.tick,
            snap: fresh,
            reaction_ms: delay,
            fresh,
        });
        Acquired {
            fresh,
            delay_ms: delay,
            centred_delay_ms,
        }
    }

    /// An acquisition of an enemy a teammate announced: the re-acquire
    /// share of the reaction (the bot was looking out for it), but a new
    /// belief and aim start over as for any fresh one.
    fn acquire_expected(&mut self, slot: SlotId, off_axis: f32, t: &Traits, clock: &BotClock, rng: &mut BotRng) -> Acquired {
        let jitter = rng.signed();
        let delay = reaction_delay_ms(t, off_axis, false, jitter);
        self.engagement = Some(Engagement { slot, fire_after: clock.after_ms(delay), last_seen: clock.tick, snap: true, reaction_ms: delay, fresh: true });
        Acquired { fresh: true, delay_ms: delay, centred_delay_ms: None }
    }

    /// Target choice after a decision's look: the pick among the seen
    /// enemies (kept unless beaten by the stickiness margin), acquired or
    /// re-acquired after a gap; with nobody seen, an unseen target is kept
    /// while it is remembered. Returns the acquisition, if one happened.
    pub fn choose(
        &mut self,
        view: &BotView<'_>,
        senses: &Senses,
        t: &Traits,
        clock: &BotClock,
        rng: &mut BotRng,
    ) -> Option<Acquired> {
        let current = self.slot();
        // Only what the bot noticed a reaction time ago (the target aside).
        let acted_on: Vec<Sighting> = senses
            .sightings
            .iter()
            .filter(|s| !senses.suppressed.contains(s.slot) && (Some(s.slot) == current || senses.attends(s.slot)))
            .copied()
            .collect();
        let candidates = candidates(view, &acted_on, &senses.memory, clock);
        // The ring's lag was paid by a newly noticed enemy, not by the
        // target, nor by one a teammate announced (it was expected).
        let paid = |pick: SlotId| if Some(pick) == current || senses.expected.contains(pick) { 0.0 } else { t.attention_lag_ms() };
        let seen_current = current.filter(|c| senses.sees(*c));
        let mut acquired = None;
        match choose_target(&candidates, seen_current, self.best_target_roll, t) {
            Some(pick) => {
                let off = senses
                    .sightings
                    .iter()
                    .find(|s| s.slot == pick)
                    .map_or(0.0, |s| s.off_axis);
                match self.engagement {
                    Some(e) if e.slot == pick => {
                        let gap = clock.ms_since(e.last_seen);
                        if gap > REACQUIRE_GAP_MS {
                            acquired = Some(self.acquire(pick, off, gap > t.reacquire_msec, paid(pick), t, clock, rng));
                        }
                    }
                    // An expected enemy is reacted to as one just lost from view.
                    _ if senses.expected.contains(pick) => acquired = Some(self.acquire_expected(pick, off, t, clock, rng)),
                    _ => acquired = Some(self.acquire(pick, off, true, paid(pick), t, clock, rng)),
                }
                if let Some(e) = self.engagement.as_mut() {
                    e.last_seen = clock.tick;
                }
            }
            None => {
                // Keep an unseen target while it is remembered from what the
                // bot saw or heard itself (a teammate's word about it is a
                // lead, not a fight).
                if let Some(e) = self.engagement
                    && senses.memory.track(e.slot).is_none_or(|tr| tr.knowledge == Knowledge::Reported)
                {
                    self.engagement = None;
                    self.roll(t, rng);
                }
            }
        }
        acquired
    }

    /// The target this tick, if it is still in the game.
    pub fn now(&self, view: &BotView<'_>, senses: &Senses) -> Option<TargetNow> {
        let (e, p) = self
            .engagement
            .and_then(|e| view.player(e.slot).filter(|p| p.active()).map(|p| (e, *p)))?;
        let visible = senses.sees(e.slot);
        let position = if visible {
            p.origin
        } else {
            senses.memory.track(e.slot).map_or(p.origin, |tr| tr.position)
        };
        Some(TargetNow {
            engagement: e,
            player: p,
            visible,
            position,
        })
    }

    /// The aim update has taken the snap of a fresh acquisition.
    pub fn snapped(&mut self) {
        if let Some(e) = self.engagement.as_mut() {
            e.snap = false;
        }
    }

    /// The enemy to chase: the combat target if remembered, else the
    /// freshest enemy last known by sight (a heard or reported one is a
    /// lead to investigate, rolled for in the brain); the point is led
    /// along its last velocity.
    pub fn chase(&self, view: &BotView<'_>, memory: &Memory, t: &Traits, clock: &BotClock) -> Option<Chase> {
        let track = match self.engagement.and_then(|e| memory.track(e.slot)) {
            Some(tr) => Some(tr),
            None => memory
                .tracks()
                .iter()
                .filter(|tr| tr.knowledge == Knowledge::Seen)
                .max_by_key(|tr| (tr.news_tick, std::cmp::Reverse(tr.slot))),
        }?;
        view.player(track.slot).filter(|p| p.active())?;
        let unseen = clock.ms_since(track.news_tick) / 1000.0;
        let point = pursuit_point(track.position, track.velocity, track.visible, unseen, t);
        Some((track.slot, point, track.visible, unseen))
    }
}

/// The enemies seen at this decision with what target choice weighs.
pub fn candidates(view: &BotView<'_>, sightings: &[Sighting], memory: &Memory, clock: &BotClock) -> Vec<TargetCandidate> {
    sightings
        .iter()
        .filter_map(|s| {
            let p = view.player(s.slot)?;
            let max = (p.max_health as f32 + 0.66 * 100.0).max(1.0);
            Some(TargetCandidate {
                slot: s.slot,
                distance: s.distance,
                strength: ((p.health as f32 + 0.66 * p.armor as f32) / max).clamp(0.0, 1.0),
                attacker: memory.ms_since_hit_by(s.slot, clock).is_some_and(|ms| ms < 2500.0),
                powered: p.has_powerup(clock.tick),
                firing: p.attacking,
                killer: memory.last_killer == Some(s.slot),
            })
        })
        .collect()
}
