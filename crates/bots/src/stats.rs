//! [`BotStats`]: what a bot did over its time in the manager, counted
//! from its own behaviour and from the match's events (for `botlist`,
//! `report` and tuning). Counting never changes behaviour.

use quarry_sim::SlotId;
use quarry_sim::components::MAX_WEAPONS;
use quarry_sim::events::{GameEvent, MeansOfDeath, SoundKind};

use crate::view::BotView;

/// Counters of one bot over its life in the manager (for `botlist`, match
/// summaries and tuning).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BotStats {
    /// Ticks alive.
    pub alive_ticks: u64,
    /// Ticks alive with a route and no corner progress for 2 s.
    pub stuck_ticks: u64,
    /// Current run of idle ticks (alive, not moving, not holding on purpose).
    pub idle_run: u64,
    /// Longest idle run, ticks.
    pub max_idle_run: u64,
    /// Decisions taken.
    pub decisions: u64,
    /// Routes dropped for lack of progress.
    pub stuck_events: u64,
    /// Jump-pad links completed.
    pub jump_pads: u64,
    /// Teleporter links completed.
    pub teleports: u64,
    /// Lift rides completed.
    pub lifts: u64,
    /// Times the bot went into a liquid (water, slime or lava) over its
    /// waist: swimming, or falling into lava.
    pub swims: u64,
    /// Gates (doors a trigger, a button or a shot opens) opened on the way
    /// to a goal.
    pub gates_opened: u64,
    /// Acquisitions, and the sum of their reaction delays in ms.
    pub acquisitions: u64,
    /// Sum of rolled reaction delays, ms.
    pub reaction_ms_sum: f64,
    /// Trigger presses that started a shot or burst.
    pub trigger_pulls: u64,
    /// Fresh acquisitions, and their reaction delays without the peripheral
    /// penalty (comparable to the skill table's reaction time), ms.
    pub fresh_acquisitions: u64,
    /// Sum of those delays, ms.
    pub fresh_reaction_ms_sum: f64,
    /// Shots fired per weapon number (from the bot's own gunfire).
    pub shots: [u32; MAX_WEAPONS],
    /// Shots per weapon that hurt an enemy (one per shot, however many pellets).
    pub hits: [u32; MAX_WEAPONS],
    /// Tick of the last hit counted per weapon (pellets and splash count once).
    pub last_hit_tick: [u32; MAX_WEAPONS],
    /// Kills.
    pub kills: u32,
    /// Deaths.
    pub deaths: u32,
    /// Items picked up.
    pub pickups: u32,
    /// Hits on enemies with a known distance (one per shot, as `hits`).
    pub engagements: u64,
    /// Sum of the distances, bot to enemy, of those hits (units).
    pub engagement_range_sum: f64,
    /// Enemies noticed after coming into view.
    pub noticed: u64,
    /// Sum of their delays from first in view to noticed, ms.
    pub notice_ms_sum: f64,
    /// First shots at an enemy after it came into view.
    pub first_shots: u64,
    /// Sum of their delays from first in view to the first shot, ms.
    pub first_shot_ms_sum: f64,
    /// First hits on an enemy after it came into view.
    pub first_hits: u64,
    /// Sum of their delays from first in view to the first hit, ms.
    pub first_hit_ms_sum: f64,
    /// The fastest the view turned in any tick, degrees/s.
    pub peak_turn_deg_s: f64,
    /// Sounds heard (enemies', doors' and lifts'), and reports taken in.
    pub noises_heard: u64,
    /// Noises and reports the bot went to look into.
    pub investigations: u64,
    /// Teammates' facts taken in.
    pub reports_heard: u64,
    /// Investigations of a teammate's enemy report that found that enemy.
    pub report_finds: u64,
    /// Orders taken.
    pub orders_taken: u64,
    /// Ticks alive in each stance (`bot_tactical` 1 and up), in
    /// [`crate::tactics::Stance::ALL`] order.
    pub stance_ticks: [u64; 5],
    /// Enemies in sight not engaged, per reason (`bot_tactical` 3 and
    /// up, counted when a look first suppresses them), in
    /// [`crate::tactics::Suppress::ALL`] order.
    pub suppressed: [u64; 3],
    /// Fights broken off (the target suppressed).
    pub breakoffs: u64,
    /// Ticks alive in stealth.
    pub stealth_ticks: u64,
    /// Ticks in stealth spent walking.
    pub stealth_walk_ticks: u64,
    /// Times it fell back (`bot_tactical` 2 and up: the stance turned to
    /// retreat and movement followed).
    pub retreats: u64,
    /// Moves into cover from a threat started (a retreat, a fight lost on
    /// weapons broken off).
    pub cover_moves: u64,
    /// Fights where it changed range for the weapon matchup (level 4 and up).
    pub repositions: u64,
    /// Weapon switches the matchup asked for (level 4 and up).
    pub matchup_switches: u64,
    /// Dropped weapons and ammo it went for to win a matchup (level 5).
    pub matchup_pickups: u64,
    /// Stance calls it made in team chat (level 5).
    pub stance_calls: u64,
}

impl BotStats {
    /// Share of alive time spent stuck (no corner progress for 2 s), 0..=1.
    pub fn stuck_share(&self) -> f64 {
        if self.alive_ticks == 0 {
            0.0
        } else {
            self.stuck_ticks as f64 / self.alive_ticks as f64
        }
    }

    /// Mean distance at which this bot hurt enemies (its engagement range), units.
    pub fn mean_engagement_range(&self) -> Option<f64> {
        (self.engagements > 0).then(|| self.engagement_range_sum / self.engagements as f64)
    }

    /// Items picked up per minute of alive time at `hz` ticks per second.
    pub fn pickups_per_minute(&self, hz: u32) -> Option<f64> {
        let minutes = self.alive_ticks as f64 / f64::from(hz.max(1)) / 60.0;
        (minutes > 0.0).then(|| f64::from(self.pickups) / minutes)
    }

    /// Mean time from an enemy's first tick in view to noticing it, ms.
    pub fn mean_notice_ms(&self) -> Option<f64> {
        (self.noticed > 0).then(|| self.notice_ms_sum / self.noticed as f64)
    }

    /// Mean time from an enemy's first tick in view to the first shot at it, ms.
    pub fn mean_first_shot_ms(&self) -> Option<f64> {
        (self.first_shots > 0).then(|| self.first_shot_ms_sum / self.first_shots as f64)
    }

    /// Mean time from an enemy's first tick in view to the first hit on it, ms.
    pub fn mean_first_hit_ms(&self) -> Option<f64> {
        (self.first_hits > 0).then(|| self.first_hit_ms_sum / self.first_hits as f64)
    }

    /// Mean rolled reaction delay of fresh acquisitions without the peripheral penalty, ms.
    pub fn mean_fresh_reaction_ms(&self) -> Option<f64> {
        (self.fresh_acquisitions > 0).then(|| self.fresh_reaction_ms_sum / self.fresh_acquisitions as f64)
    }
}

impl BotStats {
    /// Counts what this tick's events say about the bot in `slot`: shots
    /// and hits per weapon (pellets and splash count one hit per shot),
    /// kills, deaths, pickups.
    pub fn record_events(&mut self, slot: SlotId, view: &BotView<'_>) {
        let me = slot;
        let tick = view.clock.tick;
        for ev in &view.events {
            match *ev {
                GameEvent::Sound {
                    kind: SoundKind::Gunfire(w),
                    source: Some(s),
                    ..
                } if s == me => {
                    if let Some(n) = self.shots.get_mut(usize::from(w)) {
                        *n += 1;
                    }
                }
                GameEvent::Damage {
                    target,
                    attacker: Some(a),
                    means,
                    ..
                } if a == me && target != me => {
                    let w = match means {
                        MeansOfDeath::Weapon(w) | MeansOfDeath::Splash(w) => w,
                        _ => continue,
                    };
                    let (enemy, range) = match (view.player(me), view.player(target)) {
                        (Some(m), Some(t)) => (view.is_enemy(m, t), Some(m.origin.distance(t.origin))),
                        _ => (true, None),
                    };
                    let i = usize::from(w);
                    if enemy && self.last_hit_tick.get(i).is_some_and(|&t| t != tick) {
                        self.last_hit_tick[i] = tick;
                        self.hits[i] += 1;
                        if let Some(r) = range {
                            self.engagements += 1;
                            self.engagement_range_sum += f64::from(r);
                        }
                    }
                }
                GameEvent::Kill {
                    killer: Some(k),
                    victim,
                    ..
                } if k == me && victim != me => self.kills += 1,
                GameEvent::Kill { victim, .. } if victim == me => self.deaths += 1,
                GameEvent::ItemPickup { slot, .. } if slot == me => self.pickups += 1,
                _ => {}
            }
        }
    }
}
