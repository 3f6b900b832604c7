//! The firing system: for every living player, in slot order, weapon
//! selection ([`super::switch`]), then the trigger.
//!
//! Runs in the `Weapons` set, before movement, so shots leave from where
//! the shooter stood when the command was written and hit the boxes as
//! they were at the end of the last tick (rewound further for a remote
//! shooter, [`super::lagcomp`]).
//!
//! A shot happens when attack is held, no switch is under way and the
//! weapon is ready (`Inventory::ready_tick`). It uses `ammo_use` ammo,
//! makes the weapon wait `interval_ms` (÷ [`HASTE_FIRE_SCALE`] with
//! haste; fractions of a tick carry over so rates stay exact), counts one
//! `score.shots` and publishes `Sound { Gunfire(weapon) }` at the muzzle.
//! A shot that damages an enemy (another player not on the shooter's
//! team) counts one `score.hits`, however many pellets or splash targets
//! it reached (Quake 3 accuracy). The melee weapon fires only when it
//! reaches someone and, as in Quake 3, is left out of accuracy.
//! Projectiles are spawned here and fly from the `Projectiles` set.
//!
//! Each hitscan or projectile shot also gets its range band here and is
//! counted in the [`AccuracyBook`] per trace, weapon and band (the rules
//! are in [`crate::accuracy`]); none of that is read by play.

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{CollisionWorld, Contents};
use quarry_movement::Buttons;

use crate::MapRes;
use crate::accuracy::{AccuracyBook, RangeBand, band_of_shot};
use crate::clock::{MatchClock, SimRng};
use crate::combat::{DamageQueue, DamageRequest};
use crate::components::{Body, CurrentCmd, Inventory, Life, Player, Powerups};
use crate::events::{GameEvent, SoundKind};
use crate::rules::RulesState;
use crate::scene::Obstacle;
use crate::settings::Settings;
use crate::slots::{SlotId, Slots, Team};
use crate::components::NetIds;

use super::aim::{ViewBasis, eye_position, muzzle};
use super::hitscan::{Shot, fire_hitscan, trace_melee};
use super::lagcomp::LagHistory;
use super::projectile::Projectile;
use super::switch::{WeaponCounters, begin_switch, finish_switch, ms_ticks, select};
use super::table::{WeaponDef, WeaponKind, WeaponTable};

/// Haste divides fire intervals by this (Quake 3 `PM_Weapon`).
pub const HASTE_FIRE_SCALE: f32 = 1.3;

/// Whether `target` counts as an enemy of `shooter` for accuracy.
pub fn is_enemy(slots: &Slots, team_game: bool, shooter: SlotId, target: SlotId) -> bool {
    if shooter == target {
        return false;
    }
    let team = |s: SlotId| slots.get(s).map_or(Team::Free, |s| s.team);
    !(team_game && team(shooter) == team(target))
}

/// Credits `shooter` with one hit if any of `targets` is an enemy.
pub fn credit_hit(world: &mut World, shooter: SlotId, targets: &[SlotId]) {
    let team_game = world.resource::<RulesState>().gametype.is_team_game();
    let mut slots = world.resource_mut::<Slots>();
    if targets.iter().any(|&t| is_enemy(&slots, team_game, shooter, t))
        && let Some(s) = slots.get_mut(shooter)
    {
        s.score.hits += 1;
    }
}

/// Where a shot starts: the muzzle, or just short of the wall between the
/// eye and the muzzle, so shots never start inside solid.
fn shot_start(map: &CollisionWorld, eye: Vec3, forward: Vec3) -> Vec3 {
    map.trace(eye, muzzle(eye, forward), Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT).end
}

/// What one player's trigger did this tick, applied after the loop.
#[derive(Default)]
struct Outcome {
    damage: Vec<DamageRequest>,
    events: Vec<GameEvent>,
    projectiles: Vec<Projectile>,
    shots: Vec<SlotId>,
    hits: Vec<(SlotId, Vec<SlotId>)>,
    surfaces: Vec<(quarry_map::EntityId, f32)>,
    counted: Vec<Counted>,
}

/// A shot as accuracy counts it, once the loop is done.
enum Counted {
    /// A hitscan trigger pull: the players each trace hit.
    Traces { shooter: SlotId, weapon: u8, band: RangeBand, rays: Vec<Vec<SlotId>> },
    /// A projectile launched.
    Launch { shooter: SlotId, weapon: u8, band: RangeBand },
}

/// Switches and fires every living player's weapon (the `Weapons` set).
///
/// Exclusive (`&mut World`): shooters fire in slot order, each shot traces
/// the scene (players rewound by lag compensation), draws from the match RNG
/// and spawns projectiles, so one shooter's result is in the world before the
/// next fires.
pub fn fire_weapons(world: &mut World) {
    if !world.resource::<RulesState>().phase.allows_play() {
        return;
    }
    let clock = *world.resource::<MatchClock>();
    let settings = world.resource::<Settings>().clone();
    let team_game = world.resource::<RulesState>().gametype.is_team_game();
    let mut shooters: Vec<(SlotId, Entity)> = world
        .query::<(Entity, &Player, &Life)>()
        .iter(world)
        .filter(|(_, _, l)| **l == Life::Alive)
        .map(|(e, p, _)| (p.slot, e))
        .collect();
    shooters.sort_by_key(|(s, _)| *s);
    let obstacles = crate::scene::player_obstacles(world);
    let mut out = Outcome::default();
    world.resource_scope(|world, mut counters: Mut<WeaponCounters>| {
        world.resource_scope(|world, mut rng: Mut<SimRng>| {
            for &(slot, entity) in &shooters {
                let (Some(cmd), Some(body), Some(mut inv)) = (
                    world.get::<CurrentCmd>(entity).map(|c| c.cmd),
                    world.get::<Body>(entity).map(|b| b.0),
                    world.get::<Inventory>(entity).copied(),
                ) else {
                    continue;
                };
                let haste = world.get::<Powerups>(entity).is_some_and(|p| Powerups::active(p.haste, clock.tick));
                let latency_ms = world.resource::<Slots>().get(slot).map_or(0, |s| s.latency_ms());
                let Some(state) = counters.get_mut(slot) else { continue };
                let table = world.resource::<WeaponTable>();
                select(table, &mut inv, cmd.weapon, state, &clock);
                finish_switch(table, &mut inv, &clock);
                let firing = cmd.buttons.contains(Buttons::ATTACK) && inv.switching_to.is_none() && clock.tick >= inv.ready_tick;
                if firing {
                    if !table.can_fire(&inv, inv.current) {
                        if let Some(best) = table.best_available(&inv).filter(|b| *b != inv.current) {
                            begin_switch(table, &mut inv, best, &clock);
                            state.carry = 0.0;
                        }
                    } else if let Some(def) = table.get(inv.current) {
                        // Along the view: the command's angles plus the delta angles.
                        let (pitch, yaw) = body.view_of(cmd.pitch, cmd.yaw);
                        let basis = ViewBasis::from_angles(pitch, yaw);
                        let eye = eye_position(&body, &settings.movement);
                        let map = world.resource::<MapRes>().0.world();
                        let history = world.resource::<LagHistory>();
                        let seen = if matches!(def.kind, WeaponKind::Projectile) {
                            None
                        } else {
                            history.rewound(&obstacles, &shooters, latency_ms, settings.max_unlag_ms, &clock)
                        };
                        let boxes = seen.as_deref().unwrap_or(&obstacles);
                        let band = if matches!(def.kind, WeaponKind::Melee) {
                            RangeBand::Untargeted
                        } else {
                            let slots = world.resource::<Slots>();
                            band_of_shot(eye, basis.forward, slot, boxes, |t| is_enemy(slots, team_game, slot, t))
                        };
                        let shot = Shot { shooter: slot, start: shot_start(map, eye, basis.forward), basis, band };
                        if trigger(def, &shot, map, boxes, &mut rng, &clock, &mut out) {
                            if let Some(ammo) = inv.ammo.get_mut(usize::from(def.number)) {
                                *ammo -= def.ammo_use;
                            }
                            let interval = def.interval_ms as f32 / 1000.0 * clock.hz as f32
                                / if haste { HASTE_FIRE_SCALE } else { 1.0 };
                            // Ticks from now to the next shot, relative (no large floats).
                            let late = if inv.ready_tick == clock.tick { state.carry } else { 0.0 };
                            let wait = (interval - late).max(1.0);
                            let whole = wait.ceil();
                            inv.ready_tick = clock.tick.saturating_add(whole as u32);
                            state.carry = whole - wait;
                        }
                    }
                }
                if let Some(mut i) = world.get_mut::<Inventory>(entity) {
                    *i = inv;
                }
            }
        });
    });
    apply(world, out);
}

/// Pulls the trigger of `def`; `false` when nothing fired (a melee swing at air).
fn trigger(
    def: &WeaponDef,
    shot: &Shot,
    map: &CollisionWorld,
    boxes: &[Obstacle],
    rng: &mut SimRng,
    clock: &MatchClock,
    out: &mut Outcome,
) -> bool {
    let slot = shot.shooter;
    match def.kind {
        WeaponKind::Melee => {
            let Some(hit) = trace_melee(def, shot, map, boxes) else { return false };
            out.damage.push(hit);
        }
        WeaponKind::Hitscan => {
            let mut result = fire_hitscan(def, shot, map, boxes, rng);
            for d in &mut result.damage {
                d.band = Some(shot.band);
            }
            out.counted.push(Counted::Traces { shooter: slot, weapon: def.number, band: shot.band, rays: result.hits_by_ray() });
            // A single ray's path, for clients to draw (a rail's trail, a
            // lightning beam); pellets are too many to be worth the bytes.
            if let [end] = result.ends[..] {
                out.events.push(GameEvent::Shot { slot, weapon: def.number, start: shot.start, end });
            }
            out.hits.push((slot, result.hit_slots().collect()));
            out.damage.extend(result.damage);
            out.surfaces.extend(result.surfaces);
            out.shots.push(slot);
        }
        WeaponKind::Projectile => {
            let mut dir = shot.basis.forward;
            dir.z += def.aim_lift;
            let dir = dir.normalize_or(shot.basis.forward);
            out.projectiles.push(Projectile {
                owner: slot,
                weapon: def.number,
                origin: shot.start,
                velocity: dir * def.speed,
                explode_tick: clock.tick + ms_ticks(clock, def.fuse_ms),
                resting: false,
                fresh: true,
                band: shot.band,
            });
            out.counted.push(Counted::Launch { shooter: slot, weapon: def.number, band: shot.band });
            out.shots.push(slot);
        }
    }
    out.events.push(GameEvent::Sound { kind: SoundKind::Gunfire(def.number), origin: shot.start, source: Some(slot) });
    true
}

fn apply(world: &mut World, out: Outcome) {
    {
        let mut slots = world.resource_mut::<Slots>();
        for slot in out.shots {
            if let Some(s) = slots.get_mut(slot) {
                s.score.shots += 1;
            }
        }
    }
    for (shooter, targets) in out.hits {
        credit_hit(world, shooter, &targets);
    }
    count_accuracy(world, out.counted);
    for p in out.projectiles {
        let id = world.resource_mut::<NetIds>().next_id();
        world.spawn((p, id));
    }
    world.resource_mut::<DamageQueue>().0.extend(out.damage);
    if let Some(mut hits) = world.get_resource_mut::<crate::movers::shot::MoverHits>() {
        for (entity, amount) in out.surfaces {
            hits.push(crate::movers::shot::MoverHit::Direct { entity, amount });
        }
    }
    for e in out.events {
        world.write_message(e);
    }
}

/// Counts the tick's shots in the [`AccuracyBook`] (the rules are in
/// [`crate::accuracy`]).
fn count_accuracy(world: &mut World, counted: Vec<Counted>) {
    if counted.is_empty() || !world.contains_resource::<AccuracyBook>() {
        return;
    }
    let team_game = world.resource::<RulesState>().gametype.is_team_game();
    world.resource_scope(|world, mut book: Mut<AccuracyBook>| {
        let slots = world.resource::<Slots>();
        for c in counted {
            match c {
                Counted::Traces { shooter, weapon, band, rays } => {
                    let enemy = |t: SlotId| is_enemy(slots, team_game, shooter, t);
                    book.count_hitscan(shooter, weapon, band, rays.iter().map(Vec::as_slice), enemy);
                }
                Counted::Launch { shooter, weapon, band } => book.count_launch(shooter, weapon, band),
            }
        }
    });
}
