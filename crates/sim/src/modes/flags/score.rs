//! Flag scoring (Quake 3 `g_team.c`): captures with their assists, and
//! defends scored when an enemy dies near what the killer's team guards.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use glam::Vec3;

use super::{ASSIST_SECONDS, CarriesFlag, CtfState, DEFEND_RADIUS, Flag, FlagBases, FlagEventKind, FlagState};
use crate::clock::MatchClock;
use crate::components::Body;
use crate::events::GameEvent;
use crate::rules::RulesState;
use crate::slots::{SlotId, Slots, Team};

/// Scores a capture of `enemy`'s flag (the neutral one in One Flag) by
/// `slot` of `team`: team score, the capturer's card, assists, statistics.
pub(super) fn capture(world: &mut World, slot: SlotId, team: Team, enemy: Team, tick: u32, counts: bool, clock: MatchClock) {
    if counts {
        let recent = clock.ticks(ASSIST_SECONDS);
        let state = world.resource::<CtfState>().clone();
        let is_recent = |m: &BTreeMap<SlotId, u32>, s: SlotId| m.get(&s).is_some_and(|t| tick.saturating_sub(*t) <= recent);
        let mut slots = world.resource_mut::<Slots>();
        let mates: Vec<SlotId> = slots.iter().filter(|(id, s)| *id != slot && s.team == team).map(|(id, _)| id).collect();
        if let Some(s) = slots.get_mut(slot) {
            s.score.captures += 1;
        }
        for m in mates {
            if (is_recent(&state.last_return, m) || is_recent(&state.last_carrier_frag, m))
                && let Some(s) = slots.get_mut(m)
            {
                s.score.assists += 1;
            }
        }
        let mut rules = world.resource_mut::<RulesState>();
        match team {
            Team::Red => rules.team_scores.0 += 1,
            _ => rules.team_scores.1 += 1,
        }
        crate::modes::stats::bump(world, team, |t| &mut t.captures);
    }
    world.write_message(GameEvent::Flag { kind: FlagEventKind::Captured, team: enemy, slot: Some(slot) });
}

/// Scores defends for `killer` (an enemy of `victim`) when a player dies.
pub(crate) fn on_kill(world: &mut World, victim: SlotId, killer: SlotId, tick: u32) {
    if world.get_resource::<CtfState>().is_none() || !world.resource::<RulesState>().phase.counts() {
        return;
    }
    let slots = world.resource::<Slots>();
    let (Some(v), Some(k)) = (slots.get(victim), slots.get(killer)) else { return };
    let (vteam, kteam) = (v.team, k.team);
    if vteam == kteam || !matches!(kteam, Team::Red | Team::Blue) {
        return;
    }
    let (Some(ve), Some(ke)) = (v.entity, k.entity) else { return };
    let victim_at = world.get::<Body>(ve).map_or(Vec3::ZERO, |b| b.0.origin);
    let killer_at = world.get::<Body>(ke).map_or(Vec3::ZERO, |b| b.0.origin);
    let carrier = world.get::<CarriesFlag>(ve).is_some();
    // What the killer's team defends: its flag (CTF) or its base, where the
    // enemy brings the neutral flag (One Flag).
    let own_flag = world
        .query::<&Flag>()
        .iter(world)
        .find(|f| f.team == kteam)
        .map(|f| f.origin)
        .or_else(|| world.get_resource::<FlagBases>().and_then(|b| b.base(kteam)));
    let near_flag = own_flag.is_some_and(|f| f.distance(victim_at) < DEFEND_RADIUS || f.distance(killer_at) < DEFEND_RADIUS);
    let carried: Vec<(SlotId, Vec3)> = world
        .query::<&Flag>()
        .iter(world)
        .filter_map(|f| match f.state {
            FlagState::Carried(c) => Some((c, f.origin)),
            _ => None,
        })
        .collect();
    let slots = world.resource::<Slots>();
    let own_carrier = carried
        .iter()
        .find(|(c, _)| *c != killer && slots.get(*c).map(|s| s.team) == Some(kteam))
        .map(|(_, o)| *o)
        .is_some_and(|o| o.distance(victim_at) < DEFEND_RADIUS || o.distance(killer_at) < DEFEND_RADIUS);
    if carrier {
        world.resource_mut::<CtfState>().last_carrier_frag.insert(killer, tick);
    }
    if (carrier || near_flag || own_carrier)
        && let Some(s) = world.resource_mut::<Slots>().get_mut(killer)
    {
        s.score.defends += 1;
    }
}
