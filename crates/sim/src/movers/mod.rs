//! Doors, plats and bobbing platforms: the map's movers run as Quake 3's
//! (`g_mover.c`) and move their collision through
//! [`CollisionWorld::set_mover_offset`](quarry_map::CollisionWorld::set_mover_offset),
//! so every trace after the `Movers` set sees them where they are.
//!
//! - `func_door` opens when a living player's box enters the volume Quake 3
//!   spawns around it (the door, or its `team`, grown by 120 units along
//!   its thinnest axis), waits `wait` seconds open (negative: stays open)
//!   and closes. Doors opened by a `targetname` or a key never open on touch.
//! - `func_plat` rests lowered and rises when a player steps onto its
//!   centre; it stays up while someone stands on it, then lowers.
//! - `func_bobbing` follows Quake 3's sine (`speed` seconds per cycle).
//! - Others (trains, buttons, rotating, secret doors) stay where the map
//!   put them.
//!
//! Players standing on a mover ride it, players it moves into are pushed
//! ([`push`]); a move that would crush someone is undone, the blockers take
//! the mover's damage, and doors and plats reverse (Quake 3
//! `Blocked_Door`) unless they have the CRUSHER flag.
//!
//! What this module must not do: apply damage itself or move players other
//! than by a mover's own motion.

pub mod binary;
pub mod push;
mod setup;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::entities::movers::MoverKind;
use quarry_map::{EntityId, MoverId};

use crate::MapRes;
use crate::clock::MatchClock;
use crate::combat::{DamageQueue, DamageRequest};
use crate::components::{Body, Life, NetId, Player};
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::hash::TickHash;
use crate::rules::RulesState;
use crate::schedule::SimSystems;
use binary::{Binary, Transition};
use push::{PlayerBox, push_mover};

/// Seconds between two crush damages from one mover (a Quake 3 server frame).
pub const CRUSH_INTERVAL_S: f32 = 0.05;
/// Seconds a plat stays up after someone last stood on it (Quake 3 `Touch_Plat`).
pub const PLAT_HOLD_S: f32 = 1.0;

/// How a mover moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Motion {
    /// Between two positions (doors, plats).
    Binary(Binary),
    /// Oscillates: `offset = travel * sin(2π (t / period - phase))`.
    Bobbing {
        /// Amplitude vector.
        travel: Vec3,
        /// Seconds per cycle.
        period_s: f32,
        /// Phase, 0 to 1.
        phase: f32,
    },
    /// Does not move.
    Fixed,
}

/// What makes a binary mover go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Activation {
    /// A player box in this absolute volume uses it (doors; plats at rest).
    Volume {
        /// Volume mins.
        lo: Vec3,
        /// Volume maxs.
        hi: Vec3,
    },
    /// Nothing a player can touch (targeted or locked doors).
    Never,
}

/// A moving brush entity of the map.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Mover {
    /// Its collision in the world.
    pub id: MoverId,
    /// Its map entity.
    pub entity: EntityId,
    /// What it is.
    pub kind: MoverKind,
    /// How it moves.
    pub motion: Motion,
    /// What opens it (binary movers).
    pub activation: Activation,
    /// Its bounds where the map placed it (offset zero).
    pub rest_bounds: (Vec3, Vec3),
    /// Its current offset.
    pub offset: Vec3,
    /// Damage to a player blocking it.
    pub damage: f32,
    /// Quake 3 CRUSHER: keeps pushing instead of reversing.
    pub crusher: bool,
    /// Movers of one `team` open and reverse together.
    pub group: Option<u32>,
    /// Next tick it may crush again.
    pub next_crush: u32,
}

/// Adds the map's movers and their systems to a new match.
pub fn install(world: &mut World, schedule: &mut Schedule) {
    setup::spawn_movers(world);
    schedule.add_systems(run_movers.in_set(SimSystems::Movers));
    schedule.add_systems(
        hash_movers.in_set(crate::schedule::HashSystems::Movers),
    );
}

fn living_boxes(world: &mut World) -> Vec<(PlayerBox, Entity)> {
    let mut out: Vec<(PlayerBox, Entity)> = world
        .query::<(Entity, &Player, &Body, &Life)>()
        .iter(world)
        .filter(|(.., life)| **life == Life::Alive)
        .map(|(e, p, b, _)| {
            let (mins, maxs) = b.0.bbox();
            (PlayerBox { slot: p.slot, origin: b.0.origin, mins, maxs, moved: false }, e)
        })
        .collect();
    out.sort_by_key(|(p, _)| p.slot);
    out
}

fn in_volume(players: &[(PlayerBox, Entity)], lo: Vec3, hi: Vec3) -> bool {
    players.iter().any(|(p, _)| (p.origin + p.mins).cmple(hi).all() && lo.cmple(p.origin + p.maxs).all())
}

/// Runs every mover one tick, by `NetId`: activations first (whole groups
/// together), then motion with pushing, riding and blocking.
///
/// Exclusive (`&mut World`): movers run in `NetId` order, push and carry
/// players and update the collision world, so each mover sees where the
/// previous one left everything.
pub fn run_movers(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    if !world.resource::<RulesState>().phase.allows_play() {
        return;
    }
    let mut players = living_boxes(world);
    let mut movers: Vec<(NetId, Entity, Mover)> =
        world.query::<(Entity, &NetId, &Mover)>().iter(world).map(|(e, id, m)| (*id, e, *m)).collect();
    movers.sort_by_key(|m| m.0);
    let mut events = Vec::new();
    let mut damage = Vec::new();
    activate(world, &mut movers, &players, clock, &mut events);
    let mut reversed_groups = Vec::new();
    let mut blocked = vec![false; movers.len()];
    world.resource_scope(|_, mut map: Mut<MapRes>| {
        let cw = map.0.world_mut();
        for (i, (_, _, m)) in movers.iter_mut().enumerate() {
            let before = m.motion;
            let here = centre(m);
            let target = match &mut m.motion {
                Motion::Binary(b) => {
                    if b.advance(clock.tick, clock.hz, clock.dt()) == Transition::Started {
                        events.push(GameEvent::Sound { kind: SoundKind::Mover, origin: here, source: None });
                    }
                    b.offset()
                }
                Motion::Bobbing { travel, period_s, phase } => {
                    let t = clock.tick as f32 / clock.hz.max(1) as f32;
                    *travel * (std::f32::consts::TAU * (t / *period_s - *phase)).sin()
                }
                Motion::Fixed => continue,
            };
            let bounds = (m.rest_bounds.0 + m.offset, m.rest_bounds.1 + m.offset);
            let mut boxes: Vec<PlayerBox> = players.iter().map(|(p, _)| *p).collect();
            match push_mover(cw, m.id, m.entity, bounds, m.offset, target, &mut boxes) {
                Ok(()) => {
                    m.offset = target;
                    for (p, b) in players.iter_mut().zip(boxes) {
                        p.0 = b;
                    }
                }
                Err(blockers) => {
                    m.motion = before;
                    blocked[i] = !m.crusher;
                    if clock.tick >= m.next_crush && m.damage > 0.0 {
                        m.next_crush = clock.tick + clock.ticks(CRUSH_INTERVAL_S);
                        damage.extend(blockers.iter().map(|&target| crush(target, m.damage)));
                    }
                    if !m.crusher {
                        reversed_groups.extend(m.group);
                    }
                }
            }
        }
    });
    // A blocked door turns around with its whole team (Quake 3 `Blocked_Door`).
    for (i, (_, _, m)) in movers.iter_mut().enumerate() {
        let in_group = m.group.is_some_and(|g| reversed_groups.contains(&g));
        if let Motion::Binary(b) = &mut m.motion
            && (blocked[i] || in_group)
        {
            b.reverse();
        }
    }
    for (_, e, m) in movers {
        world.entity_mut(e).insert(m);
    }
    for (p, e) in players.into_iter().filter(|(p, _)| p.moved) {
        if let Some(mut body) = world.get_mut::<Body>(e) {
            body.0.origin = p.origin;
        }
    }
    world.resource_mut::<DamageQueue>().0.extend(damage);
    for ev in events {
        world.write_message(ev);
    }
}

fn crush(target: crate::slots::SlotId, amount: f32) -> DamageRequest {
    DamageRequest {
        target,
        attacker: None,
        amount,
        dir: Vec3::ZERO,
        knockback: false,
        armor_protects: true,
        means: MeansOfDeath::World,
    }
}

fn centre(m: &Mover) -> Vec3 {
    (m.rest_bounds.0 + m.rest_bounds.1) * 0.5 + m.offset
}

/// Uses every binary mover whose volume a living player is in (and its
/// whole group); holds plats up while someone stands on them.
fn activate(
    world: &World,
    movers: &mut [(NetId, Entity, Mover)],
    players: &[(PlayerBox, Entity)],
    clock: MatchClock,
    events: &mut Vec<GameEvent>,
) {
    let cw = world.resource::<MapRes>().0.world();
    let mut used_groups = Vec::new();
    let mut used = vec![false; movers.len()];
    for (i, (_, _, m)) in movers.iter().enumerate() {
        let Motion::Binary(b) = m.motion else { continue };
        let touched = match m.activation {
            Activation::Volume { lo, hi } => in_volume(players, lo, hi),
            Activation::Never => false,
        };
        // A plat only answers its trigger at rest; at the top, riders hold it.
        let plat_at_rest = m.kind != MoverKind::Plat || b.state == binary::BinaryState::Pos1;
        if touched && plat_at_rest {
            used[i] = true;
            used_groups.extend(m.group);
        }
    }
    for (i, (_, _, m)) in movers.iter_mut().enumerate() {
        let here = centre(m);
        let Motion::Binary(b) = &mut m.motion else { continue };
        let go = used[i] || m.group.is_some_and(|g| used_groups.contains(&g));
        if go && b.activate(clock.tick, clock.hz) == Transition::Started {
            events.push(GameEvent::Sound { kind: SoundKind::Mover, origin: here, source: None });
        }
        if m.kind == MoverKind::Plat && b.state == binary::BinaryState::Pos2 {
            let riders = players.iter().any(|(p, _)| push::stands_on(cw, p, m.entity));
            if riders {
                b.hold_until(clock.tick + clock.ticks(PLAT_HOLD_S));
            }
        }
    }
}

/// Feeds every mover's state to the tick hash, by `NetId`.
pub fn hash_movers(movers: Query<(&NetId, &Mover)>, mut hash: ResMut<TickHash>) {
    let mut rows: Vec<_> = movers.iter().collect();
    rows.sort_by_key(|(id, _)| **id);
    let h = &mut hash.building;
    for (id, m) in rows {
        h.u32(id.0);
        h.vec3(m.offset);
        h.u32(m.next_crush);
        if let Motion::Binary(b) = m.motion {
            h.u32(b.state.code());
            h.f32(b.progress);
            h.u32(b.return_at);
        }
    }
}
