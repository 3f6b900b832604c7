//! Damage, armor, knockback, death and obituaries.
//!
//! Everything that hurts (weapons, splash, falling, lava, telefrags, the
//! world) pushes a [`DamageRequest`] into the [`DamageQueue`]; one system
//! applies them in order each tick, so the rules for armor, friendly fire,
//! quad, handicap, scoring and death live in one place.

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::accuracy::{AccuracyBook, RangeBand};
use crate::clock::MatchClock;
use crate::components::{Armor, Body, Health, Life, Powerups};
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::mode_rules::{KillRecord, ModeRules};
use crate::rules::RulesState;
use crate::settings::Settings;
use crate::slots::{SlotId, Slots, Team};

/// Share of damage armor absorbs while it lasts (Quake 3: 66%).
pub const ARMOR_PROTECTION: f32 = 0.66;
/// Player mass for knockback (Quake 3).
pub const PLAYER_MASS: f32 = 200.0;
/// Knockback is computed from at most this much damage (Quake 3).
pub const MAX_KNOCKBACK_DAMAGE: f32 = 200.0;
/// Self-inflicted damage is scaled by this (rocket jumps cost half).
pub const SELF_DAMAGE_SCALE: f32 = 0.5;

/// One application of damage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DamageRequest {
    /// The player hurt.
    pub target: SlotId,
    /// The player responsible, if any.
    pub attacker: Option<SlotId>,
    /// Damage before armor, quad and handicap.
    pub amount: f32,
    /// Direction of the push (need not be unit; zero for none).
    pub dir: Vec3,
    /// Whether to push the target.
    pub knockback: bool,
    /// Whether armor may absorb it (falling and drowning ignore armor).
    pub armor_protects: bool,
    /// How.
    pub means: MeansOfDeath,
    /// The range band of the counted shot that dealt it, for the
    /// [`AccuracyBook`]; `None` for damage no counted shot dealt (melee,
    /// the world, falling, crushing).
    pub band: Option<RangeBand>,
}

/// Damage to apply this tick, in the order it happened.
#[derive(Resource, Debug, Default)]
pub struct DamageQueue(pub Vec<DamageRequest>);

impl DamageQueue {
    /// Queues damage.
    pub fn push(&mut self, request: DamageRequest) {
        self.0.push(request);
    }
}

/// Applies the queued damage: friendly fire, quad, handicap, self-damage
/// scale, armor, knockback, health, death and scoring.
///
/// Exclusive (`&mut World`): damage is applied in the order it happened and a
/// death calls the game mode's handlers ([`crate::mode_rules::ModeRules`]),
/// which may change any part of the match.
pub fn apply_damage(world: &mut World) {
    let requests = std::mem::take(&mut world.resource_mut::<DamageQueue>().0);
    if requests.is_empty() {
        return;
    }
    let settings = world.resource::<Settings>().clone();
    let tick = world.resource::<MatchClock>().tick;
    for req in requests {
        apply_one(world, &settings, tick, req);
    }
}

fn entity_of(world: &World, slot: SlotId) -> Option<Entity> {
    world.resource::<Slots>().get(slot).and_then(|s| s.entity)
}

fn apply_one(world: &mut World, settings: &Settings, tick: u32, req: DamageRequest) {
    let Some(target) = entity_of(world, req.target) else { return };
    if world.get::<Life>(target) != Some(&Life::Alive) {
        return;
    }
    let slots = world.resource::<Slots>();
    let team_of = |s: SlotId| slots.get(s).map_or(Team::Free, |s| s.team);
    let gametype = world.resource::<RulesState>().gametype;
    let teammates = req.attacker.is_some_and(|a| {
        a != req.target && gametype.is_team_game() && team_of(a) == team_of(req.target)
    });
    let mut amount = req.amount;
    if let Some(a) = req.attacker {
        let handicap = slots.get(a).map_or(100.0, |s| f32::from(s.userinfo.handicap));
        amount *= handicap / 100.0;
        let quad = entity_of(world, a)
            .and_then(|e| world.get::<Powerups>(e))
            .is_some_and(|p| Powerups::active(p.quad, tick));
        if quad {
            amount *= settings.quad_factor;
        }
    }
    // Knockback, even from teammates (as in Quake 3), before damage is reduced.
    if req.knockback && req.dir != Vec3::ZERO && settings.knockback > 0.0 {
        let push = amount.min(MAX_KNOCKBACK_DAMAGE) * settings.knockback / PLAYER_MASS;
        if let Some(mut body) = world.get_mut::<Body>(target) {
            body.0.apply_knockback(req.dir.normalize_or_zero() * push);
        }
    }
    if teammates && !settings.friendly_fire {
        return;
    }
    let same_player = req.attacker == Some(req.target);
    if world.get_resource::<ModeRules>().is_some_and(|r| (r.ignores_damage)(same_player, req.means)) || ModeRules::damage_off(world) {
        return;
    }
    if req.attacker == Some(req.target) {
        amount *= SELF_DAMAGE_SCALE;
    }
    let mut damage = amount.round() as i32;
    if damage <= 0 {
        return;
    }
    let mut absorbed = 0;
    if req.armor_protects && let Some(mut armor) = world.get_mut::<Armor>(target) {
        absorbed = ((damage as f32 * ARMOR_PROTECTION).ceil() as i32).min(armor.points);
        armor.points -= absorbed;
        damage -= absorbed;
    }
    let Some(mut health) = world.get_mut::<Health>(target) else { return };
    // What the victim lost: health down to zero, not past it (a hurt
    // trigger's 10,000 takes a 100-health player's 100), plus the armor
    // that absorbed (capped by the armor it had, above).
    let lost = damage.min(health.hp.max(0));
    health.hp -= damage;
    let dead = health.hp <= 0;
    let damage = lost;
    let origin = world.get::<Body>(target).map_or(Vec3::ZERO, |b| b.0.origin);
    {
        let mut slots = world.resource_mut::<Slots>();
        if let Some(s) = slots.get_mut(req.target) {
            s.score.damage_taken += (damage + absorbed) as u32;
        }
        if let Some(a) = req.attacker.filter(|a| *a != req.target && !teammates)
            && let Some(s) = slots.get_mut(a)
        {
            s.score.damage_given += (damage + absorbed) as u32;
        }
    }
    // Accuracy: what an enemy lost, in the band of the shot that dealt it.
    if let (Some(a), Some(band), Some(weapon)) = (req.attacker.filter(|a| *a != req.target && !teammates), req.band, req.means.weapon())
        && let Some(mut book) = world.get_resource_mut::<AccuracyBook>()
    {
        book.count_damage(a, weapon, band, u32::try_from(damage + absorbed).unwrap_or(0));
    }
    world.write_message(GameEvent::Damage {
        target: req.target,
        attacker: req.attacker,
        amount: damage,
        armor: absorbed,
        dir: req.dir.normalize_or_zero(),
        means: req.means,
    });
    world.write_message(GameEvent::Sound { kind: SoundKind::Pain, origin, source: Some(req.target) });
    if dead {
        kill(world, req.target, req.attacker, req.means, tick);
    }
}

/// Kills a living player: marks it dead, scores the kill and publishes it.
pub(crate) fn kill(world: &mut World, victim: SlotId, killer: Option<SlotId>, means: MeansOfDeath, tick: u32) {
    let Some(e) = entity_of(world, victim) else { return };
    if world.get::<Life>(e) != Some(&Life::Alive) {
        return;
    }
    if let Some(mut life) = world.get_mut::<Life>(e) {
        *life = Life::Dead { tick };
    }
    if let Some(mut body) = world.get_mut::<Body>(e) {
        body.0.dead = true;
    }
    // The modes' part (a defend, a freeze) before the kill is scored.
    ModeRules::record_kill(world, &KillRecord { victim, killer: killer.filter(|k| *k != victim), means, tick });
    let counts = world.resource::<RulesState>().phase.counts();
    let gametype = world.resource::<RulesState>().gametype;
    let team_delta;
    {
        let mut slots = world.resource_mut::<Slots>();
        let victim_team = slots.get(victim).map_or(Team::Free, |s| s.team);
        if let Some(s) = slots.get_mut(victim) {
            s.score.deaths += 1;
        }
        match killer.filter(|k| *k != victim) {
            Some(k) => {
                let killer_team = slots.get(k).map_or(Team::Free, |s| s.team);
                let team_kill = gametype.is_team_game() && killer_team == victim_team;
                if let Some(s) = slots.get_mut(k) {
                    if counts {
                        s.score.frags += if team_kill { -1 } else { 1 };
                    }
                    if !team_kill {
                        s.score.kills += 1;
                    }
                }
                team_delta = (killer_team, if team_kill { -1 } else { 1 });
            }
            None => {
                if let Some(s) = slots.get_mut(victim) {
                    if counts {
                        s.score.frags -= 1;
                    }
                    s.score.suicides += 1;
                }
                team_delta = (victim_team, -1);
            }
        }
    }
    if counts && gametype.frags_score_for_team() {
        let mut rules = world.resource_mut::<RulesState>();
        match team_delta.0 {
            Team::Red => rules.team_scores.0 += team_delta.1,
            Team::Blue => rules.team_scores.1 += team_delta.1,
            _ => {}
        }
    }
    let killer = killer.filter(|k| *k != victim);
    world.write_message(GameEvent::Kill { killer, victim, means });
}
