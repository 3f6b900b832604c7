//! What observers may read of a match each tick, in plain types: the
//! entities a client is shown (players, projectiles, items, movers) and a
//! player's own full state. The network layer turns these into snapshots;
//! nothing here knows about the wire.

use bevy_ecs::prelude::*;
use glam::Vec3;

use crate::components::{Armor, Body, Health, Inventory, Life, NetId, Player, Powerups};
use crate::modes::flags::{BLUE_FLAG_BIT, CarriesFlag, Flag, FlagState, NEUTRAL_FLAG_BIT, RED_FLAG_BIT};
use crate::items::drop::Dropped;
use crate::items::{Item, ItemSpawn};
use crate::movers::Mover;
use crate::slots::{SlotId, Slots, Team};
use crate::weapons::Projectile;

/// Ids of movers in views: the map entity index with this bit set, so they
/// never collide with [`NetId`]s.
pub const MOVER_ID_BIT: u32 = 1 << 31;

/// What kind of thing an [`EntityView`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// A player body.
    Player {
        /// Whose.
        slot: SlotId,
        /// Alive or a corpse.
        alive: bool,
        /// Crouching.
        crouched: bool,
        /// Holding fire with a weapon that has ammo (for the flash and a
        /// lightning beam others see: Quake 3's `EF_FIRING`).
        firing: bool,
    },
    /// A rocket, grenade or plasma ball.
    Projectile {
        /// Who fired it.
        owner: SlotId,
    },
    /// A pickup (a map item or a dropped weapon).
    Item {
        /// Its class name.
        classname: &'static str,
        /// Whether it can be picked up now (hidden while respawning).
        available: bool,
        /// A weapon someone dropped.
        dropped: bool,
    },
    /// A door or platform; `origin` is its offset from where the map put it.
    Mover {
        /// The map entity index.
        entity: u32,
    },
}

/// One entity as an observer sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntityView {
    /// Stable id ([`NetId`], or a mover id with [`MOVER_ID_BIT`]).
    pub id: u32,
    /// What it is.
    pub kind: ViewKind,
    /// Position (movers: offset).
    pub origin: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// View pitch, degrees (players).
    pub pitch: f32,
    /// View or travel yaw, degrees.
    pub yaw: f32,
    /// Team (players).
    pub team: Team,
    /// Weapon in hand (players) or weapon that fired it (projectiles).
    pub weapon: u8,
    /// Powerup bits (players): 1 quad, 2 haste, 4 regen, 8 invisibility,
    /// 16 carries the red flag, 32 carries the blue flag (CTF), 64 carries
    /// the neutral flag (One Flag).
    pub powerups: u8,
}

/// A player's own state, in full.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnView {
    /// Body id.
    pub id: u32,
    /// Position.
    pub origin: Vec3,
    /// Velocity.
    pub velocity: Vec3,
    /// Pitch and yaw, degrees.
    pub angles: (f32, f32),
    /// Pitch and yaw added to every command's angles (Quake 3's
    /// `delta_angles`): a client sends the view it wants minus these.
    pub delta_angles: (f32, f32),
    /// Health.
    pub health: i32,
    /// Armor.
    pub armor: i32,
    /// Weapons, ammo, weapon in hand.
    pub inventory: Inventory,
    /// Powerup bits as in [`EntityView::powerups`].
    pub powerups: u8,
    /// Alive.
    pub alive: bool,
    /// On ground.
    pub on_ground: bool,
    /// Crouched.
    pub crouched: bool,
    /// Jump held and used (no jump until it is released).
    pub jump_held: bool,
    /// pmove's timers, seconds: knockback, landing, teleport, water jump.
    pub move_timers: [f32; 4],
}

fn flag_bits(flag: Option<&CarriesFlag>) -> u8 {
    match flag {
        Some(CarriesFlag(Team::Red)) => RED_FLAG_BIT,
        Some(CarriesFlag(Team::Blue)) => BLUE_FLAG_BIT,
        Some(CarriesFlag(_)) => NEUTRAL_FLAG_BIT,
        None => 0,
    }
}

fn powerup_bits(p: &Powerups, tick: u32) -> u8 {
    let mut bits = 0;
    for (i, until) in [p.quad, p.haste, p.regen, p.invis].into_iter().enumerate() {
        if Powerups::active(until, tick) {
            bits |= 1 << i;
        }
    }
    bits
}

/// Every entity an observer is shown, sorted by id. Reads the world only:
/// a kind of component never registered has no entities to show (so the
/// optional parts of an entity are looked up one by one, never queried).
pub fn entity_views(world: &World) -> Vec<EntityView> {
    let tick = world.resource::<crate::clock::MatchClock>().tick;
    let slots = world.resource::<Slots>().clone();
    let mut out = Vec::new();
    let blank = |id: u32, kind: ViewKind, origin: Vec3| EntityView {
        id,
        kind,
        origin,
        velocity: Vec3::ZERO,
        pitch: 0.0,
        yaw: 0.0,
        team: Team::Free,
        weapon: 0,
        powerups: 0,
    };
    if let Some(mut players) = world.try_query::<(Entity, &NetId, &Player, &Body, &Life)>() {
        for (e, id, p, body, life) in players.iter(world) {
            let (inv, pw, flag) = (world.get::<Inventory>(e), world.get::<Powerups>(e), world.get::<CarriesFlag>(e));
            let alive = *life == Life::Alive;
            let held = slots.get(p.slot).and_then(|s| s.input.last()).is_some_and(|c| c.buttons.contains(crate::Buttons::ATTACK));
            let loaded = inv.is_some_and(|i| i.ammo.get(usize::from(i.current)).is_some_and(|&a| a != 0));
            let firing = alive && held && loaded;
            out.push(EntityView {
                velocity: body.0.velocity,
                pitch: body.0.pitch,
                yaw: body.0.yaw,
                team: slots.get(p.slot).map_or(Team::Free, |s| s.team),
                weapon: inv.map_or(0, |i| i.current),
                powerups: pw.map_or(0, |p| powerup_bits(p, tick)) | flag_bits(flag),
                ..blank(id.0, ViewKind::Player { slot: p.slot, alive, crouched: body.0.crouched, firing }, body.0.origin)
            });
        }
    }
    if let Some(mut projectiles) = world.try_query::<(&NetId, &Projectile)>() {
        for (id, pr) in projectiles.iter(world) {
            out.push(EntityView {
                velocity: pr.velocity,
                weapon: pr.weapon,
                yaw: pr.velocity.y.atan2(pr.velocity.x).to_degrees(),
                ..blank(id.0, ViewKind::Projectile { owner: pr.owner }, pr.origin)
            });
        }
    }
    if let Some(mut items) = world.try_query::<(Entity, &NetId, &Item)>() {
        for (e, id, item) in items.iter(world) {
            let (spawn, dropped) = (world.get::<ItemSpawn>(e), world.get::<Dropped>(e));
            let available = spawn.is_none_or(|s| s.available);
            let kind = ViewKind::Item { classname: item.classname, available, dropped: dropped.is_some() };
            out.push(EntityView { velocity: dropped.map_or(Vec3::ZERO, |d| d.velocity), ..blank(id.0, kind, item.origin) });
        }
    }
    if let Some(mut flags) = world.try_query::<(&NetId, &Flag)>() {
        for (id, f) in flags.iter(world) {
            let kind = ViewKind::Item {
                classname: Flag::classname(f.team),
                available: !matches!(f.state, FlagState::Carried(_)),
                dropped: matches!(f.state, FlagState::Dropped { .. }),
            };
            out.push(EntityView { team: f.team, ..blank(id.0, kind, f.origin) });
        }
    }
    if let Some(mut movers) = world.try_query::<&Mover>() {
        for m in movers.iter(world) {
            let entity = m.entity.0;
            out.push(blank(MOVER_ID_BIT | entity, ViewKind::Mover { entity }, m.offset));
        }
    }
    out.sort_by_key(|e| e.id);
    out
}

/// The full state of `slot`'s body, if it has one.
pub fn own_view(world: &World, slot: SlotId) -> Option<OwnView> {
    let tick = world.resource::<crate::clock::MatchClock>().tick;
    let e = world.resource::<Slots>().get(slot)?.entity?;
    let body = world.get::<Body>(e)?;
    Some(OwnView {
        id: world.get::<NetId>(e)?.0,
        origin: body.0.origin,
        velocity: body.0.velocity,
        angles: (body.0.pitch, body.0.yaw),
        delta_angles: (body.0.delta_pitch, body.0.delta_yaw),
        health: world.get::<Health>(e).map_or(0, |h| h.hp),
        armor: world.get::<Armor>(e).map_or(0, |a| a.points),
        inventory: world.get::<Inventory>(e).copied().unwrap_or_default(),
        powerups: world.get::<Powerups>(e).map_or(0, |p| powerup_bits(p, tick)) | flag_bits(world.get::<CarriesFlag>(e)),
        alive: world.get::<Life>(e) == Some(&Life::Alive),
        on_ground: body.0.on_ground(),
        crouched: body.0.crouched,
        jump_held: body.0.jump_held,
        move_timers: [body.0.knockback_time, body.0.land_time, body.0.teleport_time, body.0.water_jump_time],
    })
}
