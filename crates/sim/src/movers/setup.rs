//! Turning the map's mover entities into [`Mover`] components at match
//! start: their motion, what opens them, their teams, and their starting
//! offsets in the collision world.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::entities::movers::{Mover as MapMover, MoverKind};
use quarry_map::{EntityKind, Game};

use super::binary::Binary;
use super::secret::Secret;
use super::{Activation, Motion, Mover};
use crate::MapRes;
use crate::components::NetIds;

/// How far a door's touch volume reaches out along its thinnest axis
/// (Quake 3 `Think_SpawnNewDoorTrigger`).
const DOOR_TRIGGER_REACH: f32 = 120.0;
/// Quake 3 `func_door` spawnflag: crushes instead of reversing.
const DOOR_CRUSHER: u32 = 4;
/// How far around a button or a key door a player's box counts as
/// touching it (pmove stops a box a fraction of a unit short of a wall).
const TOUCH_REACH: f32 = 2.0;

fn motion_of(m: &MapMover, bounds: (Vec3, Vec3)) -> Motion {
    if let (MoverKind::SecretDoor, Some(moves)) = (m.kind, m.secret) {
        let (first, second) = moves.offsets(bounds.0, bounds.1);
        return Motion::Secret(Secret::new(first, second, m.speed, m.wait, moves.open_once));
    }
    let Some(travel) = m.travel(bounds.0, bounds.1) else { return Motion::Fixed };
    // Quake 1 key doors stay open once unlocked.
    let wait = if m.key.is_some() { -1.0 } else { m.wait };
    match m.kind {
        MoverKind::Door if m.start_open => Motion::Binary(Binary::new(travel, Vec3::ZERO, m.speed, wait)),
        MoverKind::Door | MoverKind::Button => Motion::Binary(Binary::new(Vec3::ZERO, travel, m.speed, wait)),
        // Drawn at the top, resting lowered.
        MoverKind::Plat => Motion::Binary(Binary::new(travel, Vec3::ZERO, m.speed, m.wait)),
        MoverKind::Bobbing if m.speed > 0.0 => Motion::Bobbing { travel, period_s: m.speed, phase: m.phase },
        _ => Motion::Fixed,
    }
}

fn union(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> (Vec3, Vec3) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The volume around a door (or its team) that opens it: grown along its
/// thinnest axis.
fn door_volume(bounds: (Vec3, Vec3)) -> Activation {
    let (mut lo, mut hi) = bounds;
    let size = hi - lo;
    let mut best = 0;
    for axis in 1..3 {
        if size[axis] < size[best] {
            best = axis;
        }
    }
    lo[best] -= DOOR_TRIGGER_REACH;
    hi[best] += DOOR_TRIGGER_REACH;
    Activation::Volume { lo, hi }
}

/// The volume on top of a lowered plat that raises it.
fn plat_volume(bounds: (Vec3, Vec3)) -> Activation {
    let (lo, hi) = quarry_map::entities::movers::plat_trigger_volume(bounds);
    Activation::Volume { lo, hi }
}

/// Spawns a [`Mover`] for every map mover with collision, in entity order,
/// and puts each at its starting offset.
pub(super) fn spawn_movers(world: &mut World) {
    let mut movers = Vec::new();
    {
        let map = &world.resource::<MapRes>().0;
        let mut teams: BTreeMap<String, u32> = BTreeMap::new();
        for e in map.entities() {
            let EntityKind::Mover(m) = &e.kind else { continue };
            let Some(id) = map.world().mover_of(e.id) else { continue };
            let Some(rest_bounds) = map.world().mover_bounds(id) else { continue };
            let group = m.team.as_ref().map(|t| {
                let next = teams.len() as u32;
                *teams.entry(t.to_ascii_lowercase()).or_insert(next)
            });
            let motion = motion_of(m, rest_bounds);
            let offset = match motion {
                Motion::Binary(b) => b.offset(),
                _ => Vec3::ZERO,
            };
            let crusher = map.game() == Game::Quake3 && m.kind == MoverKind::Door && e.spawnflags & DOOR_CRUSHER != 0;
            let fire_on_start = m.kind == MoverKind::SecretDoor || (map.game() == Game::Quake1 && m.kind == MoverKind::Door);
            movers.push((
                m.clone(),
                Mover {
                    id,
                    entity: e.id,
                    kind: m.kind,
                    motion,
                    activation: Activation::Never,
                    rest_bounds,
                    offset,
                    damage: m.damage,
                    crusher,
                    group,
                    next_crush: 0,
                    health: m.health.max(0.0),
                    damage_taken: 0.0,
                    key: m.key,
                    fire_on_start,
                },
            ));
        }
    }
    // Touch volumes: a door's spans its whole team at rest; a plat's sits
    // on it lowered; a button's and a key door's are their own brushes.
    let snapshot: Vec<Mover> = movers.iter().map(|(_, m)| *m).collect();
    for (spec, m) in movers.iter_mut() {
        if !matches!(m.motion, Motion::Binary(_)) {
            continue;
        }
        let at_rest = |o: &Mover| (o.rest_bounds.0 + o.offset, o.rest_bounds.1 + o.offset);
        let touch = |o: &Mover| {
            let (lo, hi) = at_rest(o);
            Activation::Volume { lo: lo - Vec3::splat(TOUCH_REACH), hi: hi + Vec3::splat(TOUCH_REACH) }
        };
        m.activation = match m.kind {
            // Quake: a shootable button is not touched; any other is, named or not.
            MoverKind::Button if spec.health > 0.0 => Activation::Never,
            MoverKind::Button => touch(m),
            _ if spec.key.is_some() => touch(m),
            _ if spec.triggered || spec.health > 0.0 => Activation::Never,
            MoverKind::Plat => plat_volume(at_rest(m)),
            _ => {
                let team =
                    snapshot.iter().filter(|o| o.group.is_some() && o.group == m.group).map(at_rest).reduce(union);
                door_volume(team.unwrap_or(at_rest(m)))
            }
        };
    }
    for (_, m) in movers {
        world.resource_mut::<MapRes>().0.world_mut().set_mover_offset(m.id, m.offset);
        let id = world.resource_mut::<NetIds>().next_id();
        world.spawn((id, m));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn door_volume_grows_thinnest_axis() {
        let Activation::Volume { lo, hi } = door_volume((Vec3::new(0.0, 0.0, 0.0), Vec3::new(64.0, 8.0, 128.0))) else {
            panic!("volume")
        };
        assert_eq!((lo, hi), (Vec3::new(0.0, -120.0, 0.0), Vec3::new(64.0, 128.0, 128.0)));
    }
}
