//! The native brain acting on its tactics (`bot_tactical`): falling back
//! (level 2: health counts as critical, and a threat near sends it to
//! cover), the weapon matchup against its target (level 4: switch, change
//! range, or break off and take cover).

use glam::Vec3;

use super::NativeBrain;
use crate::navigate::Navigator;
use crate::tactics::{Matchup, Stance, judge_matchup};
use crate::tactics::TacticalLevel;
use crate::view::{BotClock, BotView, PlayerSnap};

/// Cover is looked for this far along the routes, units.
pub(super) const COVER_RANGE: f32 = 900.0;
/// A threat counts for a retreat while the news of it is this fresh, ms.
const THREAT_NEWS_MS: f32 = 3000.0;
/// A threat counts for a retreat this close, units.
const THREAT_RANGE: f32 = 1500.0;
/// A fight broken off on weapons keeps the bot looking for cover this long, ms.
const CONTACT_MS: f32 = 3000.0;
/// An enemy broken off from on weapons is not chased for this long, ms.
const AVOID_MS: f32 = 10_000.0;
/// A cover spot found is kept this long while the threat stays put, ms.
const COVER_KEEP_MS: f32 = 2000.0;
/// The threat must move this far for the cover to be looked for again, units.
const COVER_THREAT_MOVE: f32 = 200.0;
/// With no cover found, the next look waits this long, ms.
const NO_COVER_WAIT_MS: f32 = 1000.0;
/// A dropped weapon or ammo this close may be fetched for a matchup, units.
pub(super) const OPPORTUNITY_RANGE: f32 = 700.0;
/// The last enemy fought counts for a pickup this long, ms.
const FOE_MEMORY_MS: f32 = 10_000.0;
/// Closing in for a matchup, the bot holds fire until this near the range
/// it closes to, units.
const CLOSING_SLACK: f32 = 300.0;
/// An outnumbered bot regroups with a teammate further than this, units.
const REGROUP_NEAR: f32 = 300.0;
/// ... and within this, units.
const REGROUP_RANGE: f32 = 2000.0;
/// An enemy's eye stands this high above its origin, units.
const EYE_HEIGHT: f32 = 26.0;

/// What the tactics keep between ticks: cover, contact, the last foe, the
/// pickup and switch a matchup asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct TacticalState {
    /// The spot found, the threat it hides from, and until when it is kept.
    spot: Option<(Vec3, Vec3, u32)>,
    /// No new look before this tick (the last one found nothing).
    quiet_until: u32,
    /// The threat of a fight broken off on weapons, and until when.
    contact: Option<(Vec3, u32)>,
    /// Falling back last tick (to count retreats once each).
    retreating: bool,
    /// The last enemy's weapon judged against, the range, and when.
    foe: Option<(u8, f32, u32)>,
    /// The pickup last offered to win a matchup (counted once taken up).
    opportunity: Option<quarry_sim::components::NetId>,
    /// The weapon wanted when a matchup asked the choice to reconsider.
    switch_asked: Option<u8>,
    /// An enemy it is hopelessly outgunned by: not chased until then.
    avoid: Option<(quarry_sim::SlotId, u32)>,
    /// Playing an objective at the last plan (a carrier, an attacker, a
    /// defender): it runs, whatever its stance.
    pub(super) on_objective: bool,
}

impl NativeBrain {
    /// Level 4 and up, on a decision: the matchup against the target in
    /// sight (none without one). A new change of range is counted once.
    pub(super) fn judge_target_matchup(&mut self, view: &BotView<'_>, me: &PlayerSnap, level: TacticalLevel) {
        if !level.reads_matchups() {
            self.matchup = None;
            return;
        }
        let Some(x) = self.target.now(view, &self.senses).filter(|x| x.visible) else {
            self.matchup = None;
            return;
        };
        let enemy = view.weapons.get(x.player.inventory.current);
        let wanted = self.gunner.weapon.wanted;
        let range = x.position.distance(me.origin);
        self.cover.foe = Some((x.player.inventory.current, range, view.clock.tick));
        let m = judge_matchup(view.weapons, &me.inventory, &self.profile.resolved.weapon_bias, wanted, enemy, range);
        let was = self.matchup.filter(|(s, _)| *s == x.engagement.slot).map(|(_, m)| m);
        if matches!(m, Matchup::Reposition { .. }) && !matches!(was, Some(Matchup::Reposition { .. })) {
            self.profile.stats.repositions += 1;
        }
        self.matchup = Some((x.engagement.slot, m));
    }

    /// Level 4 and up: whether the enemy in sight at `at` holding `weapon`
    /// beats the bot at every range within reach (the fight is to be
    /// broken off). Remembers the threat, so the bot takes cover from it.
    pub(super) fn outgunned(&mut self, view: &BotView<'_>, me: &PlayerSnap, enemy: &PlayerSnap, clock: &BotClock) -> bool {
        let theirs = view.weapons.get(enemy.inventory.current);
        let range = enemy.origin.distance(me.origin);
        let m = judge_matchup(view.weapons, &me.inventory, &self.profile.resolved.weapon_bias, self.gunner.weapon.wanted, theirs, range);
        self.cover.foe = Some((enemy.inventory.current, range, clock.tick));
        if m == Matchup::BreakOff {
            self.cover.avoid = Some((enemy.slot, clock.after_ms(AVOID_MS)));
        }
        m == Matchup::BreakOff
    }

    /// Whether the bot's last look for cover found none within
    /// [`COVER_RANGE`] (and the next look is not due yet): in the open, a
    /// fight is not refused (turning away there only hands the enemy free
    /// shots).
    pub(super) fn no_cover_near(&self, clock: &BotClock) -> bool {
        clock.tick < self.cover.quiet_until
    }

    /// Whether `slot` is an enemy the bot broke off from on weapons lately
    /// (it is not chased).
    pub(super) fn avoids(&self, slot: quarry_sim::SlotId, clock: &BotClock) -> bool {
        self.cover.avoid.is_some_and(|(s, until)| s == slot && clock.tick < until)
    }

    /// Whether the matchup says to hold fire (unless the target is shooting
    /// the bot, which the caller checks): closing in on `target`, at
    /// `range_now`, from a range where the weapon is losing (more than
    /// [`CLOSING_SLACK`] beyond the range it closes to) while it faces away,
    /// shots only give the bot away; once it faces the bot, the bot fires
    /// as it closes. A bot playing an objective goes its own way rather
    /// than close in, and fires.
    pub(super) fn holds_fire(&self, range_now: Option<f32>, target: Option<&PlayerSnap>, me: &PlayerSnap) -> bool {
        !self.cover.on_objective
            && matches!((self.matchup_range(), range_now), (Some(want), Some(now)) if now > want + CLOSING_SLACK)
            && target.is_some_and(|p| !crate::tactics::faces(p, me))
    }

    /// A fight not taken: the bot takes cover from `enemy` (the nearest
    /// such enemy counts) for a while.
    pub(super) fn break_contact(&mut self, enemy: &PlayerSnap, clock: &BotClock) {
        let nearer = self.cover.contact.is_none_or(|(eye, until)| clock.tick >= until || self.last_origin.distance(enemy.eye) < self.last_origin.distance(eye));
        if nearer {
            self.cover.contact = Some((enemy.eye, clock.after_ms(CONTACT_MS)));
        }
    }

    /// The range the matchup asks to fight the target at, if it asks one.
    pub(super) fn matchup_range(&self) -> Option<f32> {
        match self.matchup {
            Some((s, Matchup::Reposition { range, .. })) if self.target.slot() == Some(s) => Some(range),
            _ => None,
        }
    }

    /// Before the weapon choice: a matchup that says another weapon wins
    /// here has the choice reconsidered now, carefully.
    pub(super) fn reconsider_weapon(&mut self, clock: &BotClock) {
        if matches!(self.matchup, Some((s, Matchup::Switch { .. })) if self.target.slot() == Some(s)) {
            self.gunner.weapon.reconsider(clock);
            self.cover.switch_asked = Some(self.gunner.weapon.wanted);
        }
    }

    /// After the weapon choice: a switch the matchup asked for that changed
    /// the weapon is counted.
    pub(super) fn count_matchup_switch(&mut self, wanted: u8) {
        if let Some(before) = self.cover.switch_asked.take()
            && before != wanted
        {
            self.profile.stats.matchup_switches += 1;
        }
    }

    /// Each tick alive, level 2 and up: a fall back starting is counted.
    pub(super) fn note_retreat(&mut self, level: TacticalLevel) {
        let retreating = level.moves_by_stance() && self.tactics.stance == Stance::Retreat;
        if retreating && !self.cover.retreating {
            self.profile.stats.retreats += 1;
        }
        self.cover.retreating = retreating;
    }

    /// What it is breaking contact from: the enemy of a fight broken off on
    /// weapons lately, else, falling back, the nearest enemy it knows of
    /// lately (seen, heard or reported) within [`THREAT_RANGE`].
    fn threat(&self, me: &PlayerSnap, level: TacticalLevel, clock: &BotClock) -> Option<Vec3> {
        if let Some((eye, until)) = self.cover.contact
            && clock.tick < until
        {
            return Some(eye);
        }
        if !level.moves_by_stance() || self.tactics.stance != Stance::Retreat {
            return None;
        }
        self.senses
            .memory
            .nearest_news(me.origin, clock, THREAT_NEWS_MS, 0.0..=THREAT_RANGE, |_| true)
            .map(|t| t.position + Vec3::Z * EYE_HEIGHT)
    }

    /// Level 2 and up, when planning: the cover spot to offer the planner
    /// (kept while the threat stays put; a look that found nothing waits a
    /// second before the next).
    pub(super) fn cover_offer(&mut self, nav: &mut dyn Navigator, me: &PlayerSnap, level: TacticalLevel, clock: &BotClock) -> Option<Vec3> {
        let Some(threat) = level.moves_by_stance().then(|| self.threat(me, level, clock)).flatten() else {
            self.cover.spot = None;
            return None;
        };
        if let Some((spot, from, until)) = self.cover.spot
            && clock.tick < until
            && from.distance(threat) < COVER_THREAT_MOVE
        {
            return Some(spot);
        }
        if clock.tick < self.cover.quiet_until {
            return None;
        }
        let had = self.cover.spot.is_some();
        self.cover.spot = nav.cover(me.origin, threat, COVER_RANGE).map(|s| (s, threat, clock.after_ms(COVER_KEEP_MS)));
        match self.cover.spot {
            Some(_) if !had => self.profile.stats.cover_moves += 1,
            Some(_) => {}
            None => self.cover.quiet_until = clock.after_ms(NO_COVER_WAIT_MS),
        }
        self.cover.spot.map(|(s, ..)| s)
    }

    /// Level 2 and up in a team game, when planning with no cover wanted
    /// and no objective offered:
    /// a bot outnumbered (cautious or stealthy) falls back on its nearest
    /// living teammate, if one is further than [`REGROUP_NEAR`] and within
    /// [`REGROUP_RANGE`] (a player knows where its teammates are).
    pub(super) fn regroup_offer(&self, view: &BotView<'_>, me: &PlayerSnap, level: TacticalLevel) -> Option<Vec3> {
        let outnumbered = matches!(self.tactics.stance, Stance::Cautious | Stance::Stealth) && self.tactics.ratio <= crate::tactics::ForceRatio::Outnumbered;
        if !level.moves_by_stance() || !view.team_game || !outnumbered {
            return None;
        }
        view.iter_players()
            .filter(|p| p.slot != me.slot && p.team == me.team && p.active())
            .map(|p| (p.origin.distance(me.origin), p))
            .filter(|(d, _)| (REGROUP_NEAR..=REGROUP_RANGE).contains(d))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.slot.0.cmp(&b.1.slot.0)))
            .map(|(_, p)| p.origin)
    }

    /// Level 5, when planning: the nearest dropped weapon or ammo within
    /// [`OPPORTUNITY_RANGE`] that would win the matchup against the last
    /// enemy fought (within [`FOE_MEMORY_MS`]).
    pub(super) fn opportunity(&self, view: &BotView<'_>, me: &PlayerSnap, level: TacticalLevel, clock: &BotClock) -> Option<crate::view::ItemSnap> {
        if !level.plays_the_odds() {
            return None;
        }
        let (weapon, range, tick) = self.cover.foe?;
        if clock.ms_since(tick) > FOE_MEMORY_MS {
            return None;
        }
        let enemy = view.weapons.get(weapon)?;
        let bias = &self.profile.resolved.weapon_bias;
        self.senses
            .memory
            .items
            .believed()
            .iter()
            .filter(|i| i.available && (i.dropped || matches!(i.gift, quarry_sim::items::Gift::Ammo { .. })))
            .filter(|i| i.origin.distance(me.origin) <= OPPORTUNITY_RANGE)
            .filter(|i| crate::tactics::pickup_wins(view.weapons, &me.inventory, bias, &i.gift, enemy, range))
            .min_by(|a, b| a.origin.distance(me.origin).total_cmp(&b.origin.distance(me.origin)).then(a.id.cmp(&b.id)))
            .copied()
    }

    /// After planning: a pickup offered for a matchup that became the goal
    /// is counted once.
    pub(super) fn note_opportunity(&mut self, offered: Option<crate::view::ItemSnap>) {
        let goal = match self.planner.goal.map(|g| g.kind) {
            Some(crate::decide::GoalKind::Item(id)) => Some(id),
            _ => None,
        };
        let taken = offered.map(|i| i.id).filter(|id| goal == Some(*id));
        if taken.is_some() && taken != self.cover.opportunity {
            self.profile.stats.matchup_pickups += 1;
        }
        self.cover.opportunity = taken.or(self.cover.opportunity.filter(|id| goal == Some(*id)));
    }

    /// A new life: no cover, no contact.
    pub(super) fn reset_cover(&mut self) {
        self.cover = TacticalState::default();
        self.matchup = None;
    }
}
