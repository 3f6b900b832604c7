//! What a build needs to know about the map besides its geometry: seeds,
//! jump pads, teleporters, movers and hurt volumes, as plain data
//! ([`NavInput`]), so tests can describe a synthetic world by hand and
//! [`NavInput::from_map`] can read a loaded map.

use glam::Vec3;
use quarry_map::entities::Push;
use quarry_map::entities::items::{KeyKind, KeySet};
use quarry_map::entities::movers::{Mover, MoverKind};
use quarry_map::{CollisionWorld, Contents, Entity, EntityId, EntityKind, LoadedMap, Trace};
use serde::Serialize;

/// Why a point seeds the flood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedKind {
    /// A player spawn point.
    Spawn,
    /// An item, weapon or flag.
    Item,
    /// The centre of a jump pad's volume.
    JumpPad,
    /// A jump pad's target.
    PadTarget,
    /// A teleporter's destination.
    TeleportExit,
    /// A player already in the map.
    Player,
}

/// One point the flood starts from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Seed {
    /// Where (a player origin or an entity origin; it is dropped to the floor).
    pub point: Vec3,
    /// Why.
    pub kind: SeedKind,
    /// The entity it comes from, if any.
    pub entity: Option<EntityId>,
}

/// How a jump pad launches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PadPush {
    /// Quake 3: an arc through this target point ([`jump_pad_velocity`](crate::jump_pad_velocity)).
    Toward(Vec3),
    /// Quake 1: this velocity for as long as the player is in the volume.
    Velocity(Vec3),
}

/// A jump pad's trigger volume and push.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PadSpec {
    /// The `trigger_push` entity.
    pub entity: EntityId,
    /// Its volume's bounds (absolute).
    pub bounds: (Vec3, Vec3),
    /// How it pushes.
    pub push: PadPush,
}

/// A teleporter's trigger volume and destination.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TeleporterSpec {
    /// The `trigger_teleport` entity.
    pub entity: EntityId,
    /// Its volume's bounds (absolute).
    pub bounds: (Vec3, Vec3),
    /// Where the player appears.
    pub destination: Vec3,
}

/// A mover and the space it can occupy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MoverSpec {
    /// The mover's entity.
    pub entity: EntityId,
    /// Bounds of every position it can take (its travel swept), absolute.
    pub reach: (Vec3, Vec3),
    /// An ordinary door that opens when a player touches it: built through
    /// as if open, never re-checked.
    pub passable: bool,
    /// A Quake 1 key door: it opens when a player carrying this key touches
    /// it, so the routes of a player carrying it see through it.
    pub key: Option<KeyKind>,
}

/// A lift (`func_plat`) that rests lowered and rises when stood on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LiftSpec {
    /// The plat's entity.
    pub entity: EntityId,
    /// Its brushes' bounds at the top of its travel, absolute.
    pub raised: (Vec3, Vec3),
    /// How far it rises from where it rests, units.
    pub rise: f32,
    /// Units per second.
    pub speed: f32,
}

impl LiftSpec {
    /// Its brushes' bounds where it rests, absolute.
    pub fn lowered(&self) -> (Vec3, Vec3) {
        (self.raised.0 - Vec3::Z * self.rise, self.raised.1 - Vec3::Z * self.rise)
    }
}

/// Everything a build reads besides the trace. Obtain one from
/// [`NavInput::from_map`] or fill it by hand for a synthetic world.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NavInput {
    /// Points the flood starts from.
    pub seeds: Vec<Seed>,
    /// Jump pads.
    pub jump_pads: Vec<PadSpec>,
    /// Teleporters.
    pub teleporters: Vec<TeleporterSpec>,
    /// Movers.
    pub movers: Vec<MoverSpec>,
    /// Lifts bots can ride (every one is a mover too).
    pub lifts: Vec<LiftSpec>,
    /// Bounds of hurt volumes (`trigger_hurt`): no node inside.
    pub hazards: Vec<(Vec3, Vec3)>,
}

/// Units a mover with an unknown path (train, rotating) is assumed to
/// reach beyond its bounds when flagging links for live checks.
const UNKNOWN_MOTION_REACH: f32 = 128.0;

impl NavInput {
    /// Reads seeds (fitting spawn points, items, flags, pads, pad targets,
    /// teleporter exits), pads, teleporters, movers and hurt volumes from `map`.
    pub fn from_map(map: &LoadedMap) -> NavInput {
        let mut input = NavInput::default();
        for e in map.entities() {
            let seed = |point: Vec3, kind| Seed {
                point,
                kind,
                entity: Some(e.id),
            };
            match &e.kind {
                EntityKind::PlayerSpawn(s) if s.fits => {
                    input.seeds.push(seed(s.spawn_origin, SeedKind::Spawn))
                }
                EntityKind::Item(_) | EntityKind::Flag(_) => {
                    if let Some(spot) = item_spot(map.world(), e) {
                        input.seeds.push(seed(spot, SeedKind::Item));
                    }
                }
                EntityKind::JumpPad(pad) => {
                    let Some(bounds) = e.bounds else { continue };
                    let push = match pad.push {
                        Push::Toward {
                            target_origin: Some(t),
                            ..
                        } => PadPush::Toward(t),
                        Push::Toward {
                            target_origin: None,
                            ..
                        } => continue,
                        Push::Velocity(v) => PadPush::Velocity(v),
                    };
                    input
                        .seeds
                        .push(seed((bounds.0 + bounds.1) * 0.5, SeedKind::JumpPad));
                    if let PadPush::Toward(t) = push {
                        input.seeds.push(seed(t, SeedKind::PadTarget));
                    }
                    input.jump_pads.push(PadSpec {
                        entity: e.id,
                        bounds,
                        push,
                    });
                }
                EntityKind::Teleporter(t) => {
                    let (Some(bounds), Some((destination, _))) = (e.bounds, t.destination) else {
                        continue;
                    };
                    input.seeds.push(seed(destination, SeedKind::TeleportExit));
                    input.teleporters.push(TeleporterSpec {
                        entity: e.id,
                        bounds,
                        destination,
                    });
                }
                EntityKind::Mover(m) => {
                    let Some(bounds) = e.bounds else { continue };
                    if let Some(lift) = lift(e.id, m, bounds) {
                        input.lifts.push(lift);
                    }
                    input.movers.push(MoverSpec {
                        entity: e.id,
                        reach: reach(m, bounds),
                        passable: is_touch_door(m),
                        key: m.key.filter(|_| crate::gates::is_gate(m)),
                    });
                }
                EntityKind::Hurt { .. } => input.hazards.extend(e.bounds),
                _ => {}
            }
        }
        input
    }

    /// Adds the origins of players already in the map as seeds.
    pub fn add_players(&mut self, origins: impl IntoIterator<Item = Vec3>) {
        let seeds = origins.into_iter().filter(|p| p.is_finite());
        self.seeds.extend(seeds.map(|point| Seed {
            point,
            kind: SeedKind::Player,
            entity: None,
        }));
    }

    /// The doors a player carrying `keys` walks through: the touch-open
    /// ones and the key doors whose key is in `keys`.
    pub(crate) fn passable_doors(&self, keys: KeySet) -> Vec<EntityId> {
        self.movers
            .iter()
            .filter(|m| m.passable || m.key.is_some_and(|k| keys.contains(k)))
            .map(|m| m.entity)
            .collect()
    }
}

/// Half size of the box Quake 3 drops items with (`ITEM_RADIUS`).
const ITEM_RADIUS: f32 = 15.0;

/// Where an item or flag rests in `world`: as the sim places it, a
/// non-suspended item's 30-unit box is dropped from its origin onto the
/// floor (Quake 3 `FinishSpawningItem`; Quake 1 items drop too), and
/// suspended ones stay at their origin. An item that starts in solid stays
/// where it is. `None` for an entity without an origin or that is not an
/// item. (In a world with its gates open, an item set down on a trapdoor
/// lands where it falls when the trapdoor opens.)
pub fn item_spot(world: &dyn Trace, e: &Entity) -> Option<Vec3> {
    let origin = e.origin?;
    let suspended = match &e.kind {
        EntityKind::Item(item) => item.suspended,
        EntityKind::Flag(_) => false,
        _ => return None,
    };
    if suspended {
        return Some(origin);
    }
    let half = Vec3::splat(ITEM_RADIUS);
    let tr = world.trace(
        origin,
        origin - Vec3::Z * 4096.0,
        -half,
        half,
        Contents::SOLID,
    );
    Some(if tr.start_solid { origin } else { tr.end })
}

/// Whether a mover is an ordinary door that opens when touched: not
/// opened by a trigger (`targetname`), no key, not shot open. The same
/// rule the sim uses to give a door its touch volume.
pub fn is_touch_door(m: &Mover) -> bool {
    m.kind == MoverKind::Door && !m.triggered && m.key.is_none() && m.health <= 0.0
}

/// A plat that rises when stood on (one opened by a trigger instead, and
/// one with no travel, is not a lift bots can call).
fn lift(entity: EntityId, m: &Mover, raised: (Vec3, Vec3)) -> Option<LiftSpec> {
    let rise = -m.travel(raised.0, raised.1)?.z;
    let callable = m.kind == MoverKind::Plat && !m.triggered && rise > 1.0 && m.speed > 0.0;
    callable.then_some(LiftSpec { entity, raised, rise, speed: m.speed })
}

fn reach(m: &Mover, (lo, hi): (Vec3, Vec3)) -> (Vec3, Vec3) {
    match m.travel(lo, hi) {
        Some(t) if m.kind == MoverKind::Bobbing => ((lo - t).min(lo + t), (hi - t).max(hi + t)),
        Some(t) => (lo.min(lo + t), hi.max(hi + t)),
        None => (
            lo - Vec3::splat(UNKNOWN_MOTION_REACH),
            hi + Vec3::splat(UNKNOWN_MOTION_REACH),
        ),
    }
}

/// A copy of `map`'s collision world with every mover where a match starts
/// it (as the sim does): plats lowered, doors with the start-open flag
/// open, everything else where the map drew it. For tools that build
/// from a file without running a match (`nav-info`).
pub fn match_start_world(map: &LoadedMap) -> CollisionWorld {
    let mut world = map.world().clone();
    for e in map.entities() {
        let (EntityKind::Mover(m), Some((lo, hi))) = (&e.kind, e.bounds) else {
            continue;
        };
        let Some(id) = world.mover_of(e.id) else {
            continue;
        };
        let start_open = (m.kind == MoverKind::Door && m.start_open) || m.kind == MoverKind::Plat;
        if let (true, Some(travel)) = (start_open, m.travel(lo, hi)) {
            world.set_mover_offset(id, travel);
        }
    }
    world
}

/// A copy of `world` with every touch-open door of `map` and every gate
/// bots open ([`crate::gates::Gate::bots_open`]) moved to its open position: the
/// world the flood probes, so doorways get nodes and links (links through
/// gates are re-checked against the live world on every route, so a closed
/// gate bars them) ([`NavMesh::build_for_map`](crate::NavMesh::build_for_map)
/// uses it; a caller wrapping the trace for [`NavMesh::build`](crate::NavMesh::build) can too).
pub fn doors_open_world(world: &CollisionWorld, map: &LoadedMap) -> CollisionWorld {
    let openable: std::collections::BTreeSet<_> =
        crate::gates::gates(map).into_iter().filter(crate::gates::Gate::bots_open).map(|g| g.entity).collect();
    let mut out = world.clone();
    open_movers(&mut out, map, |e, m| is_touch_door(m) || openable.contains(&e));
    out
}

/// A copy of `world` with every mover of `map` that `open` picks at its
/// open position (a start-open one where the map drew it, which is open).
pub(crate) fn movers_open(world: &CollisionWorld, map: &LoadedMap, open: impl Fn(&Mover) -> bool) -> CollisionWorld {
    let mut out = world.clone();
    open_movers(&mut out, map, |_, m| open(m));
    out
}

/// Moves every mover of `map` that `open` picks (by entity and parameters)
/// to its open position in `world`.
fn open_movers(world: &mut CollisionWorld, map: &LoadedMap, open: impl Fn(EntityId, &Mover) -> bool) {
    for e in map.entities() {
        let (EntityKind::Mover(m), Some((lo, hi))) = (&e.kind, e.bounds) else {
            continue;
        };
        if !open(e.id, m) {
            continue;
        }
        let (Some(id), Some(travel)) = (world.mover_of(e.id), m.travel(lo, hi)) else {
            continue;
        };
        let offset = if m.start_open { Vec3::ZERO } else { travel };
        world.set_mover_offset(id, offset);
    }
}
