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
//! - `func_button` presses when a player touches it (or, with `health`,
//!   when shot), fires its targets once pressed and returns after `wait`.
//! - `func_door_secret` ([`secret`]) opens when shot or triggered.
//! - Doors and buttons with a `targetname` open when something fires them
//!   ([`targets`](crate::targets)); with `health`, when shot ([`shot`]);
//!   a Quake 1 key door, when a player carrying its key touches it (the
//!   key is used up and the door stays open). Movers fire their own
//!   targets when they open: Quake 1 doors and secret doors as they start,
//!   everything else on arriving (Quake 3 `Reached_BinaryMover`).
//! - Others (trains, rotating) stay where the map put them.
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
pub mod secret;
mod setup;
pub mod shot;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::entities::items::KeyKind;
use quarry_map::entities::movers::MoverKind;
use quarry_map::{EntityId, MoverId};

use crate::MapRes;
use crate::clock::MatchClock;
use crate::combat::{DamageQueue, DamageRequest};
use crate::components::{Body, Inventory, Life, NetId, Player, key_bit};
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::hash::TickHash;
use crate::rules::RulesState;
use crate::schedule::SimSystems;
use binary::{Binary, BinaryState, Transition};
use push::{PlayerBox, push_mover};
use secret::Secret;
use shot::{MoverHit, MoverHits};
use crate::slots::SlotId;
use crate::targets::TargetState;

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
    /// A Quake 1 secret door's two moves.
    Secret(Secret),
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
    /// Damage that uses it when shot (0: shooting does nothing).
    pub health: f32,
    /// Damage taken toward `health` since it was last used by it.
    pub damage_taken: f32,
    /// The key a player must carry for the touch volume to use it.
    pub key: Option<KeyKind>,
    /// Fires its targets when it starts opening (Quake 1 doors, secret
    /// doors) rather than when it arrives open.
    pub fire_on_start: bool,
}

/// Adds the map's movers and their systems to a new match.
pub fn install(world: &mut World, schedule: &mut Schedule) {
    setup::spawn_movers(world);
    world.init_resource::<MoverHits>();
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

/// The first player (in slot order) whose box is in `lo..hi` and who
/// carries `key` if one is needed.
fn first_in_volume(world: &World, players: &[(PlayerBox, Entity)], lo: Vec3, hi: Vec3, key: Option<KeyKind>) -> Option<usize> {
    players.iter().position(|(p, e)| {
        let inside = (p.origin + p.mins).cmple(hi).all() && lo.cmple(p.origin + p.maxs).all();
        inside && key.is_none_or(|k| world.get::<Inventory>(*e).is_some_and(|i| i.has_key(k)))
    })
}

/// Runs every mover one tick, by `NetId`: uses first (touch volumes,
/// keys, firings, shots; whole groups together), then motion with
/// pushing, riding and blocking, then the targets of movers that opened.
///
/// Exclusive (`&mut World`): movers run in `NetId` order, push and carry
/// players and update the collision world, so each mover sees where the
/// previous one left everything.
pub fn run_movers(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    let hits = world.resource_mut::<MoverHits>().take();
    if !world.resource::<RulesState>().phase.allows_play() {
        world.resource_mut::<TargetState>().take_mover_uses();
        return;
    }
    let mut players = living_boxes(world);
    let mut movers: Vec<(NetId, Entity, Mover)> =
        world.query::<(Entity, &NetId, &Mover)>().iter(world).map(|(e, id, m)| (*id, e, *m)).collect();
    movers.sort_by_key(|m| m.0);
    let mut events = Vec::new();
    let mut damage = Vec::new();
    let mut fires: Vec<EntityId> = Vec::new();
    let uses = world.resource_mut::<TargetState>().take_mover_uses();
    let keys_used = activate(world, &mut movers, &players, &Uses { fired: &uses, hits: &hits }, clock, &mut events, &mut fires);
    for (player, key) in keys_used {
        if let Some(mut inv) = world.get_mut::<Inventory>(player) {
            inv.keys &= !key_bit(key);
        }
    }
    let mut reversed_groups = Vec::new();
    let mut blocked = vec![false; movers.len()];
    world.resource_scope(|_, mut map: Mut<MapRes>| {
        let cw = map.0.world_mut();
        for (i, (_, _, m)) in movers.iter_mut().enumerate() {
            let before = m.motion;
            let here = centre(m);
            let target = match &mut m.motion {
                Motion::Binary(b) => {
                    let t = b.advance(clock.tick, clock.hz, clock.dt());
                    if t == Transition::Started {
                        events.push(GameEvent::Sound { kind: SoundKind::Mover, origin: here, source: None });
                    }
                    if t == Transition::Arrived && b.state == BinaryState::Pos2 && !m.fire_on_start {
                        fires.push(m.entity);
                    }
                    b.offset()
                }
                Motion::Secret(sd) => {
                    let to = sd.next_offset(clock.dt());
                    if sd.advance(to, clock.tick, clock.hz) == Transition::Started {
                        events.push(GameEvent::Sound { kind: SoundKind::Mover, origin: here, source: None });
                    }
                    to
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
                    // A secret door stops and hurts; doors and plats turn around.
                    let reverses = !m.crusher && !matches!(m.motion, Motion::Secret(_));
                    blocked[i] = reverses;
                    if clock.tick >= m.next_crush && m.damage > 0.0 {
                        m.next_crush = clock.tick + clock.ticks(CRUSH_INTERVAL_S);
                        damage.extend(blockers.iter().map(|&target| crush(target, m.damage)));
                    }
                    if reverses {
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
    {
        let mut targets = world.resource_mut::<TargetState>();
        for entity in fires {
            targets.fire(entity, None);
        }
    }
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
        band: None,
    }
}

fn centre(m: &Mover) -> Vec3 {
    (m.rest_bounds.0 + m.rest_bounds.1) * 0.5 + m.offset
}

/// What uses movers this tick besides touch volumes.
struct Uses<'a> {
    /// Movers the map's wiring fired at.
    fired: &'a [(EntityId, Option<SlotId>)],
    /// Shots and explosions.
    hits: &'a [MoverHit],
}

/// Uses every mover whose volume a living player is in (with its key, if
/// it needs one), that the wiring fired at or whose damage reached its
/// health, and its whole group; holds plats up while someone stands on
/// them. Returns the keys used up (player, key).
fn activate(
    world: &World,
    movers: &mut [(NetId, Entity, Mover)],
    players: &[(PlayerBox, Entity)],
    uses: &Uses<'_>,
    clock: MatchClock,
    events: &mut Vec<GameEvent>,
    fires: &mut Vec<EntityId>,
) -> Vec<(Entity, KeyKind)> {
    let cw = world.resource::<MapRes>().0.world();
    let mut used_groups = Vec::new();
    let mut used = vec![false; movers.len()];
    let mut keys_used = Vec::new();
    for (i, (_, _, m)) in movers.iter_mut().enumerate() {
        let at_rest = match m.motion {
            Motion::Binary(b) => b.state == BinaryState::Pos1,
            Motion::Secret(sd) => sd.is_closed(),
            _ => continue,
        };
        let toucher = match m.activation {
            Activation::Volume { lo, hi } => first_in_volume(world, players, lo, hi, m.key),
            Activation::Never => None,
        };
        // A plat or a key door only answers its volume at rest; at the
        // top, a plat's riders hold it.
        let needs_rest = m.kind == MoverKind::Plat || m.key.is_some();
        let mut go = toucher.is_some() && (at_rest || !needs_rest);
        if let (Some(p), Some(key), true) = (toucher, m.key, at_rest) {
            keys_used.push((players[p].1, key));
        }
        go |= uses.fired.iter().any(|(e, _)| *e == m.entity);
        if m.health > 0.0 {
            let (lo, hi) = (m.rest_bounds.0 + m.offset, m.rest_bounds.1 + m.offset);
            m.damage_taken += shot::damage_to(uses.hits, m.entity, lo, hi);
            if m.damage_taken >= m.health {
                m.damage_taken = 0.0;
                go = true;
            }
        }
        if go {
            used[i] = true;
            used_groups.extend(m.group);
        }
    }
    for (i, (_, _, m)) in movers.iter_mut().enumerate() {
        let here = centre(m);
        let go = used[i] || m.group.is_some_and(|g| used_groups.contains(&g));
        // (started moving, started opening from closed)
        let (started, opened) = match &mut m.motion {
            Motion::Binary(b) => {
                let closed = b.state == BinaryState::Pos1;
                let started = go && b.activate(clock.tick, clock.hz) == Transition::Started;
                if m.kind == MoverKind::Plat && b.state == BinaryState::Pos2 {
                    let riders = players.iter().any(|(p, _)| push::stands_on(cw, p, m.entity));
                    if riders {
                        b.hold_until(clock.tick + clock.ticks(PLAT_HOLD_S));
                    }
                }
                (started, started && closed)
            }
            Motion::Secret(sd) => {
                let started = go && sd.activate() == Transition::Started;
                (started, started)
            }
            _ => (false, false),
        };
        if started {
            events.push(GameEvent::Sound { kind: SoundKind::Mover, origin: here, source: None });
        }
        if opened && m.fire_on_start {
            fires.push(m.entity);
        }
    }
    keys_used
}

/// Feeds every mover's state to the tick hash, by `NetId`.
pub fn hash_movers(movers: Query<(&NetId, &Mover)>, mut hash: ResMut<TickHash>) {
    let mut rows: Vec<_> = movers.iter().collect();
    rows.sort_by_key(|(id, _)| **id);
    hash.mark("movers");
    let h = &mut hash.building;
    for (id, m) in rows {
        h.u32(id.0);
        h.vec3(m.offset);
        h.u32(m.next_crush);
        match m.motion {
            Motion::Binary(b) => {
                h.u32(b.state.code());
                h.f32(b.progress);
                h.u32(b.return_at);
            }
            Motion::Secret(sd) => {
                h.u32(sd.stage.code());
                h.u32(sd.until);
            }
            _ => {}
        }
        // Only shot movers hash their damage, so other maps hash as before.
        if m.damage_taken > 0.0 {
            h.f32(m.damage_taken);
        }
    }
}
