//! Triggers a player's box touches after moving: jump pads
//! ([`jump_pad`]), teleporters with telefrags ([`teleport`]),
//! `trigger_hurt` volumes and hurting liquids ([`hurt`]), and
//! `trigger_once`/`trigger_multiple` volumes, which fire their targets
//! ([`targets`](crate::targets)).
//!
//! At match start [`install`] reads the map's trigger entities into the
//! [`TriggerSet`]. Each tick, in the `Triggers` set (after movement),
//! every living player in slot order asks the collision world which
//! trigger volumes its box overlaps
//! ([`overlap_entities`](quarry_map::CollisionWorld::overlap_entities))
//! and each one acts. Per-player pacing (jump pad re-fire, hurt and liquid
//! damage intervals) lives in [`TriggerContacts`].
//!
//! What this module must not do: apply damage itself (it queues
//! [`DamageRequest`](crate::combat::DamageRequest)s; telefrags go through
//! `combat::kill`), or run pmove.

pub mod hurt;
pub mod jump_pad;
pub mod teleport;

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::entities::{JumpPad, TriggerKind};
use quarry_map::{Contents, EntityId, EntityKind};
use quarry_movement::triggers::{MoveTrigger, MoveTriggers};

use crate::MapRes;
use crate::clock::MatchClock;
use crate::components::{Body, Life, Player};
use crate::hash::TickHash;
use crate::rules::RulesState;
use crate::schedule::SimSystems;
use crate::settings::Settings;
use crate::slots::SlotId;

/// Quake 3 `trigger_hurt` spawnflag: starts off (needs a trigger to turn on).
const HURT_START_OFF: u32 = 1;
/// Quake 3 `trigger_hurt` spawnflag: hurts once a second instead of every frame.
const HURT_SLOW: u32 = 16;

/// What touching a trigger volume does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TriggerAction {
    /// Launches the player.
    JumpPad {
        /// The pad as the map gives it.
        pad: JumpPad,
    },
    /// Moves the player to a destination.
    Teleport {
        /// Destination origin.
        destination: Vec3,
        /// Destination facing, degrees.
        yaw: f32,
    },
    /// Fires the trigger's targets (when it is ready: see
    /// [`TargetState::touch`](crate::targets::TargetState::touch)).
    Fire,
    /// Hurts the player at an interval.
    Hurt {
        /// Damage per application.
        damage: f32,
        /// Seconds between applications to one player.
        interval_s: f32,
    },
}

/// Every active trigger of the map by entity.
#[derive(Resource, Debug, Clone, Default)]
pub struct TriggerSet(pub BTreeMap<EntityId, TriggerAction>);

impl TriggerSet {
    /// Reads the map's jump pads, teleporters and hurt volumes. Teleporters
    /// without a destination, spectator-only teleporters and hurt volumes
    /// that start off are left out.
    pub fn from_map(map: &quarry_map::LoadedMap) -> Self {
        // Jump pads and teleporters as the movement core reads them (a
        // predicting client reads the same ones).
        let mut set: BTreeMap<EntityId, TriggerAction> = MoveTriggers::from_map(map)
            .0
            .into_iter()
            .map(|(id, t)| match t {
                MoveTrigger::JumpPad(pad) => (id, TriggerAction::JumpPad { pad }),
                MoveTrigger::Teleport { destination, yaw } => (id, TriggerAction::Teleport { destination, yaw }),
            })
            .collect();
        for e in map.entities() {
            // A trigger without geometry can never be touched.
            if e.bounds.is_none() {
                continue;
            }
            let action = match &e.kind {
                EntityKind::Hurt { damage } if e.spawnflags & HURT_START_OFF == 0 => {
                    let interval_s = if e.spawnflags & HURT_SLOW != 0 { 1.0 } else { hurt::HURT_INTERVAL_S };
                    TriggerAction::Hurt { damage: *damage, interval_s }
                }
                EntityKind::Trigger(t)
                    if !t.no_touch && matches!(t.kind, TriggerKind::Once | TriggerKind::Multiple) =>
                {
                    TriggerAction::Fire
                }
                _ => continue,
            };
            set.insert(e.id, action);
        }
        Self(set)
    }
}

/// One player's trigger pacing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Contact {
    /// The jump pad touched last, and the last tick it was touched.
    pub pad: Option<(EntityId, u32)>,
    /// The tick the last jump pad fired.
    pub pad_fired: u32,
    /// Per hurt volume: the next tick it may hurt this player.
    pub hurt_next: BTreeMap<EntityId, u32>,
    /// The next tick a liquid may hurt this player.
    pub liquid_next: u32,
}

/// Per-player trigger pacing, by slot.
#[derive(Resource, Debug, Clone, Default)]
pub struct TriggerContacts(pub BTreeMap<SlotId, Contact>);

/// Adds the map's triggers, their resources and systems to a new match.
pub fn install(world: &mut World, schedule: &mut Schedule) {
    let set = TriggerSet::from_map(&world.resource::<MapRes>().0);
    world.insert_resource(set);
    world.init_resource::<TriggerContacts>();
    schedule.add_systems(touch_triggers.in_set(SimSystems::Triggers));
    schedule.add_systems(
        hash_triggers.in_set(crate::schedule::HashSystems::Triggers),
    );
}

/// Runs every trigger each living player touches, players in slot order,
/// triggers by entity id; then liquid damage.
///
/// Exclusive (`&mut World`): a trigger may teleport, push or hurt a player,
/// which the next trigger touched the same tick must see.
pub fn touch_triggers(world: &mut World) {
    if !world.resource::<RulesState>().phase.allows_play() {
        return;
    }
    let clock = *world.resource::<MatchClock>();
    let params = world.resource::<Settings>().movement;
    let mut players: Vec<(SlotId, Entity)> =
        world.query::<(Entity, &Player)>().iter(world).map(|(e, p)| (p.slot, e)).collect();
    players.sort_by_key(|p| p.0);
    let mut hits = Vec::new();
    for (slot, entity) in players {
        let alive = world.get::<Life>(entity) == Some(&Life::Alive);
        let Some(state) = world.get::<Body>(entity).map(|b| b.0).filter(|_| alive) else {
            world.resource_mut::<TriggerContacts>().0.remove(&slot);
            continue;
        };
        let (mins, maxs) = state.bbox();
        hits.clear();
        world.resource::<MapRes>().0.world().overlap_entities(
            state.origin + mins,
            state.origin + maxs,
            Contents::TRIGGER,
            &mut hits,
        );
        let mut contact = world.resource_mut::<TriggerContacts>().0.remove(&slot).unwrap_or_default();
        for id in &hits {
            let Some(action) = world.resource::<TriggerSet>().0.get(id).copied() else { continue };
            let moved = match action {
                TriggerAction::JumpPad { pad } => {
                    jump_pad::touch(world, slot, entity, *id, &pad, &mut contact, clock, &params);
                    false
                }
                TriggerAction::Teleport { destination, yaw } => {
                    teleport::teleport(world, slot, entity, destination, yaw, clock);
                    true
                }
                TriggerAction::Hurt { damage, interval_s } => {
                    hurt::touch_hurt(world, slot, *id, damage, interval_s, &mut contact, clock);
                    false
                }
                TriggerAction::Fire => {
                    world.resource_scope(|world, mut targets: Mut<crate::targets::TargetState>| {
                        targets.touch(&world.resource::<crate::targets::WiringRes>().0, *id, slot, clock.tick);
                    });
                    false
                }
            };
            // A teleported player is somewhere else: the other volumes no longer apply.
            if moved {
                break;
            }
        }
        hurt::liquid_damage(world, slot, entity, &mut contact, clock);
        world.resource_mut::<TriggerContacts>().0.insert(slot, contact);
    }
}

/// Feeds the trigger pacing to the tick hash, by slot.
pub fn hash_triggers(contacts: Res<TriggerContacts>, mut hash: ResMut<TickHash>) {
    hash.mark("triggers");
    let h = &mut hash.building;
    for (slot, c) in &contacts.0 {
        h.u32(u32::from(slot.0));
        if let Some((id, tick)) = c.pad {
            h.u32(id.0);
            h.u32(tick);
        }
        h.u32(c.pad_fired);
        for (id, next) in &c.hurt_next {
            h.u32(id.0);
            h.u32(*next);
        }
        h.u32(c.liquid_next);
    }
}
