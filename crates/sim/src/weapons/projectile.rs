//! Projectiles: rockets, grenades and plasma as entities that fly each
//! tick with a swept test against the map and the player boxes.
//!
//! A projectile is an entity with a [`Projectile`] and a
//! [`NetId`](crate::components::NetId). [`move_projectiles`] (the
//! `Projectiles` set, after player movement) moves each one in `NetId`
//! order along its tick's path (a parabola chord under gravity) with a
//! point trace (`MASK_SHOT`) that never hits its owner, as Quake 3's
//! `G_RunMissile`:
//!
//! - reaching a player: explodes there, direct damage to that player and
//!   splash to everyone else;
//! - reaching the map: bounces if the weapon bounces (velocity reflected
//!   and scaled; it comes to rest on a floor when slower than
//!   [`REST_SPEED`]), else explodes; sky removes it without a blast;
//! - starting inside solid: explodes at once;
//! - fuse out: explodes where it is (grenades after 2.5 s, stray rockets
//!   after 15 s).
//!
//! A new projectile's first move also covers [`PRESTEP_S`] (Quake 3
//! `MISSILE_PRESTEP_TIME`), so point-blank shots land on the tick they are
//! fired.
//!
//! Each explosion is also counted for accuracy, in the range band the
//! projectile was fired in: a direct hit on an enemy, or else one splash
//! hit when the blast reached one ([`crate::accuracy`]).

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{CollisionWorld, Contents};

use crate::MapRes;
use crate::accuracy::{AccuracyBook, RangeBand};
use crate::clock::MatchClock;
use crate::combat::{DamageQueue, DamageRequest};
use crate::components::NetId;
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::rules::RulesState;
use crate::scene::{Obstacle, SceneTrace};
use crate::settings::Settings;
use crate::slots::SlotId;

use super::splash::splash_hits;
use crate::movers::shot::{MoverHit, MoverHits};
use super::table::{WeaponDef, WeaponTable};

/// Extra time a new projectile's first move covers, s (Quake 3: 50 ms).
pub const PRESTEP_S: f32 = 0.05;
/// A bouncing projectile slower than this after bouncing off a floor
/// stops there (Quake 3 `G_BounceMissile`: 40 units/s).
pub const REST_SPEED: f32 = 40.0;
/// Surfaces with a normal z above this count as floors to rest on.
const FLOOR_NORMAL_Z: f32 = 0.2;

/// A flying (or resting) projectile.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Projectile {
    /// Who fired it; damage is theirs even after they die.
    pub owner: SlotId,
    /// The weapon number it came from (its numbers are in the table).
    pub weapon: u8,
    /// Position, world space.
    pub origin: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// The tick its fuse runs out and it explodes where it is.
    pub explode_tick: u32,
    /// Lying still on a floor, waiting for the fuse.
    pub resting: bool,
    /// Not moved yet (its first move covers [`PRESTEP_S`] more).
    pub fresh: bool,
    /// The range band it was fired in, for accuracy ([`crate::accuracy`]):
    /// an observation, never read by its flight and left out of the state
    /// hash.
    pub band: RangeBand,
}

/// What one tick of flight ended in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Flight {
    /// Still flying (or resting).
    Flying,
    /// Bounced off the map this tick.
    Bounced,
    /// Explodes at `at`; `direct` is the player it struck, if any.
    Explode {
        /// Explosion point (just off the surface hit).
        at: Vec3,
        /// Player hit directly.
        direct: Option<SlotId>,
        /// Brush entity (a door, a button) hit directly.
        surface: Option<quarry_map::EntityId>,
    },
    /// Flew into the sky: removed without an explosion.
    Vanish,
}

/// Moves one projectile through one tick of `dt` seconds.
pub fn fly(
    p: &mut Projectile,
    def: &WeaponDef,
    map: &CollisionWorld,
    obstacles: &[Obstacle],
    gravity: f32,
    dt: f32,
    tick: u32,
) -> Flight {
    let fused = tick >= p.explode_tick;
    if p.resting {
        return if fused { Flight::Explode { at: p.origin, direct: None, surface: None } } else { Flight::Flying };
    }
    let t = if p.fresh { dt + PRESTEP_S } else { dt };
    p.fresh = false;
    let g = if def.gravity { gravity } else { 0.0 };
    let end = p.origin + p.velocity * t - Vec3::Z * (0.5 * g * t * t);
    let scene = SceneTrace { world: map, obstacles, skip: Some(p.owner) };
    let hit = scene.trace_scene(p.origin, end, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
    if hit.trace.start_solid || hit.trace.all_solid {
        return Flight::Explode { at: p.origin, direct: hit.player, surface: None };
    }
    if !hit.trace.hit() {
        p.origin = end;
        p.velocity.z -= g * t;
        return if fused { Flight::Explode { at: p.origin, direct: None, surface: None } } else { Flight::Flying };
    }
    if let Some(player) = hit.player {
        return Flight::Explode { at: hit.trace.end, direct: Some(player), surface: None };
    }
    if hit.trace.contents.contains(Contents::SKY) {
        return Flight::Vanish;
    }
    if def.bounce <= 0.0 {
        return Flight::Explode { at: hit.trace.end, direct: None, surface: hit.trace.entity };
    }
    let n = hit.trace.normal;
    let v_hit = p.velocity - Vec3::Z * (g * t * hit.trace.fraction);
    let v = (v_hit - 2.0 * v_hit.dot(n) * n) * def.bounce;
    if n.z > FLOOR_NORMAL_Z && v.length() < REST_SPEED {
        p.origin = hit.trace.end;
        p.velocity = Vec3::ZERO;
        p.resting = true;
    } else {
        // Off the surface by a unit, as Quake 3 does, so the next trace starts clear.
        let off = hit.trace.end + n;
        p.origin = if map.point_contents(off).intersects(Contents::MASK_SHOT) { hit.trace.end } else { off };
        p.velocity = v;
    }
    if fused { Flight::Explode { at: p.origin, direct: None, surface: None } } else { Flight::Bounced }
}

/// The damage of an explosion at `at`: the direct hit and the splash.
pub fn blast(def: &WeaponDef, p: &Projectile, at: Vec3, direct: Option<SlotId>, map: &CollisionWorld, obstacles: &[Obstacle]) -> Vec<DamageRequest> {
    let mut out = Vec::new();
    if let Some(target) = direct {
        out.push(DamageRequest {
            target,
            attacker: Some(p.owner),
            amount: def.damage,
            dir: p.velocity,
            knockback: def.knockback,
            armor_protects: true,
            means: MeansOfDeath::Weapon(def.number),
            band: Some(p.band),
        });
    }
    for h in splash_hits(map, at, def.splash_damage, def.splash_radius, obstacles, direct) {
        out.push(DamageRequest {
            target: h.slot,
            attacker: Some(p.owner),
            amount: h.amount,
            dir: h.dir,
            knockback: def.knockback,
            armor_protects: true,
            means: MeansOfDeath::Splash(def.number),
            band: Some(p.band),
        });
    }
    out
}

/// Moves every projectile one tick and sets off the ones that explode.
///
/// Exclusive (`&mut World`): projectiles fly in `NetId` order and each
/// explosion queues damage and despawns its entity at once, so the next
/// projectile of the same tick sees it gone.
pub fn move_projectiles(world: &mut World) {
    if !world.resource::<RulesState>().phase.allows_play() {
        return;
    }
    let clock = *world.resource::<MatchClock>();
    let gravity = world.resource::<Settings>().movement.gravity;
    let mut list: Vec<(NetId, Entity, Projectile)> =
        world.query::<(Entity, &NetId, &Projectile)>().iter(world).map(|(e, id, p)| (*id, e, *p)).collect();
    if list.is_empty() {
        return;
    }
    list.sort_by_key(|(id, _, _)| *id);
    let obstacles = crate::scene::player_obstacles(world);
    let mut damage = Vec::new();
    let mut events = Vec::new();
    let mut credits: Vec<(SlotId, Vec<SlotId>)> = Vec::new();
    let mut blasts: Vec<Blast> = Vec::new();
    let mut gone = Vec::new();
    let mut moved = Vec::new();
    let mut hits = Vec::new();
    {
        let table = world.resource::<WeaponTable>();
        let map = world.resource::<MapRes>().0.world();
        for (_, entity, mut p) in list {
            let Some(def) = table.get(p.weapon) else {
                gone.push(entity);
                continue;
            };
            match fly(&mut p, def, map, &obstacles, gravity, clock.dt(), clock.tick) {
                Flight::Flying | Flight::Bounced => moved.push((entity, p)),
                Flight::Vanish => gone.push(entity),
                Flight::Explode { at, direct, surface } => {
                    let hurt = blast(def, &p, at, direct, map, &obstacles);
                    hits.extend(surface.map(|entity| MoverHit::Direct { entity, amount: def.damage }));
                    hits.push(MoverHit::Splash { at, amount: def.splash_damage, radius: def.splash_radius });
                    credits.push((p.owner, hurt.iter().map(|d| d.target).collect()));
                    blasts.push(Blast { projectile: p, direct, hurt: hurt.iter().map(|d| d.target).collect() });
                    damage.extend(hurt);
                    events.push(GameEvent::Sound { kind: SoundKind::Explosion, origin: at, source: Some(p.owner) });
                    gone.push(entity);
                }
            }
        }
    }
    for (entity, p) in moved {
        if let Some(mut c) = world.get_mut::<Projectile>(entity) {
            *c = p;
        }
    }
    for e in gone {
        world.despawn(e);
    }
    for (owner, targets) in credits {
        super::fire::credit_hit(world, owner, &targets);
    }
    count_blasts(world, blasts);
    world.resource_mut::<DamageQueue>().0.extend(damage);
    if let Some(mut queue) = world.get_resource_mut::<MoverHits>() {
        for h in hits {
            queue.push(h);
        }
    }
    for e in events {
        world.write_message(e);
    }
}

/// An explosion as accuracy counts it: the projectile, the player it
/// struck and everyone its blast reached (the direct target first).
struct Blast {
    projectile: Projectile,
    direct: Option<SlotId>,
    hurt: Vec<SlotId>,
}

/// Counts each explosion's direct or splash hit in the band its projectile
/// was fired in ([`crate::accuracy`]).
fn count_blasts(world: &mut World, blasts: Vec<Blast>) {
    if blasts.is_empty() || !world.contains_resource::<AccuracyBook>() {
        return;
    }
    let team_game = world.resource::<RulesState>().gametype.is_team_game();
    world.resource_scope(|world, mut book: Mut<AccuracyBook>| {
        let slots = world.resource::<crate::slots::Slots>();
        for b in blasts {
            let p = b.projectile;
            let enemy = |t: SlotId| super::fire::is_enemy(slots, team_game, p.owner, t);
            let splashed = b.hurt.into_iter().filter(|t| Some(*t) != b.direct);
            book.count_blast(p.owner, p.weapon, p.band, b.direct, splashed, enemy);
        }
    });
}
