//! The native brain's reactions to what its senses bring: a noise or a
//! teammate's report acted on after the reaction time, and (tactics level 3
//! and up) the enemies in sight it chooses not to engage (level 4: those
//! it is outgunned by at every range within reach).

use glam::Vec3;

use super::NativeBrain;
use crate::brain::BrainInput;
use crate::decide::SOFT_OBJECTIVE;
use crate::perception::hearing::{Busy, INVESTIGATE_MS, investigate_chance};
use crate::tactics::TacticalLevel;
use crate::view::{BotClock, BotView, PlayerSnap};

impl NativeBrain {
    /// The noise (or report) kept, once its reaction time is over: an
    /// enemy's goes into memory at its estimated place, the bot looks that
    /// way, and rolls whether to go and look.
    pub(super) fn act_on_noise(&mut self, input: &BrainInput<'_, '_>, me: &PlayerSnap, clock: &BotClock) {
        if self.investigation.is_some_and(|(_, until)| clock.tick >= until) {
            self.investigation = None;
        }
        let Some(noise) = self.senses.hearing.due(clock) else { return };
        let view = input.view;
        if let Some(source) = noise.source
            && !noise.reported
        {
            self.senses.memory.hear(source, noise.tick, noise.estimate, noise.error);
        }
        let target = self.target.now(view, &self.senses);
        let t = self.profile.resolved.traits;
        let teammates = if view.team_game {
            view.iter_players()
                .filter(|p| p.slot != me.slot && p.team == me.team && p.active())
                .count() as u32
        } else {
            0
        };
        let objective = input
            .objectives
            .and_then(|o| o.objective(view, me))
            .is_some_and(|o| o.priority >= SOFT_OBJECTIVE);
        let busy = Busy {
            teammates,
            objective,
            fighting: target.is_some_and(|x| x.visible),
            hurt: crate::items::wants_health(me, &t),
        };
        let go = self.rng.chance(investigate_chance(&noise, t.investigate_range, busy));
        // A noise is looked toward; a teammate's word only when the bot
        // goes there (a player keeps its eyes on its own way).
        if (go || !noise.reported) && target.is_none() && self.senses.look_hint.is_none() {
            self.senses.look_hint = Some((noise.estimate + Vec3::Z * 26.0, clock.after_ms(1000.0)));
        }
        if go {
            self.investigation = Some((noise.estimate, clock.after_ms(INVESTIGATE_MS)));
            self.profile.stats.investigations += 1;
            self.team.lead = noise.source.filter(|_| noise.reported);
        }
    }

    /// Tactics (level 3 and up): the enemies in sight the bot will not
    /// engage this look; a target among them is let go (the fight broken
    /// off). Each suppression is counted once per stretch. A bot playing
    /// an objective refuses no fight: its feet follow the objective
    /// whatever it shoots at, and a defender at its post is there to fight.
    pub(super) fn filter_engagements(&mut self, view: &BotView<'_>, me: &PlayerSnap, level: TacticalLevel, clock: &BotClock) {
        let before = self.senses.suppressed;
        self.senses.suppressed = Default::default();
        // With no cover near (the last look found none), no fight is
        // refused: a bot that turns away in the open takes the shots
        // anyway, without giving any back.
        if !level.filters_engagements() || self.cover.on_objective || self.no_cover_near(clock) {
            return;
        }
        for i in 0..self.senses.sightings.len() {
            let Some(slot) = self.senses.sightings.get(i).map(|s| s.slot) else { break };
            let Some(p) = view.player(slot) else { continue };
            let attacker = self.senses.memory.ms_since_hit_by(slot, clock);
            let facing = crate::tactics::faces(p, me);
            // Level 4: a hopeless fight is left, unless the enemy is
            // shooting the bot now, faces away (fair game), or the bot's
            // side has the numbers there.
            let in_sight = u32::try_from(self.senses.sightings.len()).unwrap_or(u32::MAX);
            let supported = self.tactics.forces.allies > self.tactics.forces.enemies.max(in_sight);
            let outgunned = level.reads_matchups() && facing && !supported && attacker.is_none_or(|ms| ms > crate::tactics::RETURN_FIRE_MS);
            let why = self
                .tactics
                .suppress(level, slot, p.origin, attacker, facing, crate::tactics::reaches(p, me, view.weapons), &self.senses.memory, view, clock)
                .or_else(|| (outgunned && self.outgunned(view, me, p, clock)).then_some(crate::tactics::Suppress::Matchup));
            if let Some(why) = why {
                // Level 2 and up: out of its sight, too.
                self.break_contact(p, clock);
                self.senses.suppressed.insert(slot);
                if !before.contains(slot)
                    && let Some(n) = self.profile.stats.suppressed.get_mut(why as usize)
                {
                    *n += 1;
                }
            }
        }
        if let Some(e) = self.target.engagement
            && self.senses.suppressed.contains(e.slot)
        {
            self.target.engagement = None;
            self.profile.stats.breakoffs += 1;
        }
    }
}
