//! The movement system: runs pmove for every player body, in slot order,
//! against the map and the other players' boxes, and turns what pmove
//! reports into sounds and falling damage (pmove's Quake 3 fall severity:
//! medium 5, far 10; crouching doubles, water reduces, as in bg_pmove).

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_movement::pmove::{self, MoveEvent};

use crate::MapRes;
use crate::clock::MatchClock;
use crate::combat::{DamageQueue, DamageRequest};
use crate::components::{Body, CurrentCmd, Player, Powerups};
use crate::events::{GameEvent, MeansOfDeath, SoundKind};
use crate::rules::RulesState;
use crate::scene::SceneTrace;
use crate::settings::Settings;


/// How far beyond its own speed a move may reach (step-up, ground probe,
/// jump): other players' boxes beyond this cannot be touched this tick.
const REACH_MARGIN: f32 = 64.0;

/// Moves every player by its command for this tick.
///
/// Exclusive (`&mut World`): players move in slot order and each moved box is
/// an obstacle for the players after it in the same tick.
pub fn move_players(world: &mut World) {
    if !world.resource::<RulesState>().phase.allows_play() {
        return;
    }
    let settings = world.resource::<Settings>().clone();
    let dt = world.resource::<MatchClock>().dt();
    let tick = world.resource::<MatchClock>().tick;
    let item_rules = world.get_resource::<crate::items::ItemCatalog>().map(|c| c.rules.clone());
    let mut obstacles = crate::scene::player_obstacles(world);
    let mut bodies: Vec<(Entity, crate::slots::SlotId)> = world
        .query::<(Entity, &Player)>()
        .iter(world)
        .map(|(e, p)| (e, p.slot))
        .collect();
    bodies.sort_by_key(|(_, s)| *s);
    let mut damage = Vec::new();
    let mut events = Vec::new();
    let mut crushed = Vec::new();
    world.resource_scope(|world, map: Mut<MapRes>| {
        let mut near = Vec::with_capacity(obstacles.len());
        for (entity, slot) in bodies {
            let Some(cmd) = world.get::<CurrentCmd>(entity).map(|c| c.cmd) else { continue };
            // Haste speeds movement (the item rules say by how much).
            let params = match (&item_rules, world.get::<Powerups>(entity)) {
                (Some(rules), Some(p)) => crate::items::decay::haste_move_params(&settings.movement, p, tick, rules),
                _ => settings.movement,
            };
            let Some(mut body) = world.get_mut::<Body>(entity) else { continue };
            // Broad phase: only boxes this move could reach are traced against.
            let reach = body.0.velocity.length() * dt + REACH_MARGIN;
            let (mins, maxs) = body.0.bbox();
            let (lo, hi) = (body.0.origin + mins - Vec3::splat(reach), body.0.origin + maxs + Vec3::splat(reach));
            near.clear();
            near.extend(obstacles.iter().filter(|o| {
                o.slot != slot && (o.origin + o.mins).cmple(hi).all() && (o.origin + o.maxs).cmpge(lo).all()
            }));
            let scene = SceneTrace { world: map.0.world(), obstacles: &near, skip: Some(slot) };
            let out = pmove::pmove(&mut body.0, &cmd, &scene, &params, dt);
            let origin = body.0.origin;
            let alive = !body.0.dead;
            if let Some(o) = obstacles.iter_mut().find(|o| o.slot == slot) {
                o.origin = origin;
                (o.mins, o.maxs) = body.0.bbox();
            }
            if !alive {
                continue;
            }
            if out.stuck {
                // Nowhere within reach is free (a mover closed on it): crushed.
                crushed.push(slot);
            }
            for ev in out.events() {
                match *ev {
                    MoveEvent::Jumped => events.push(GameEvent::Sound { kind: SoundKind::Jump, origin, source: Some(slot) }),
                    MoveEvent::Footstep => {
                        events.push(GameEvent::Sound { kind: SoundKind::Footstep, origin, source: Some(slot) })
                    }
                    MoveEvent::Fall(severity) => {
                        events.push(GameEvent::Sound { kind: SoundKind::Land, origin, source: Some(slot) });
                        if settings.falling_damage && severity.damage() > 0 {
                            damage.push(DamageRequest {
                                target: slot,
                                attacker: None,
                                amount: severity.damage() as f32,
                                dir: Vec3::ZERO,
                                knockback: false,
                                armor_protects: false,
                                means: MeansOfDeath::Falling,
                                band: None,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
    });
    world.resource_mut::<DamageQueue>().0.extend(damage);
    for slot in crushed {
        crate::combat::kill(world, slot, None, MeansOfDeath::World, tick);
    }
    for e in events {
        world.write_message(e);
    }
}
