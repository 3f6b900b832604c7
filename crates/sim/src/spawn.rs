//! Choosing spawn points and putting player bodies into the world.
//!
//! A spawn point is chosen away from enemies, as Quake 3 does: the fitting
//! points not blocked by a player are ranked by distance to the nearest
//! enemy, and one of the farther half is picked at random (seeded).

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{LoadedMap, SpawnKind};
use quarry_movement::pmove::MoveState;
use rand::RngExt;

use crate::clock::{MatchClock, SimRng};
use crate::components::{Armor, Body, CurrentCmd, Health, Inventory, Life, NetIds, Player, Powerups};
use crate::events::GameEvent;
use crate::mode_rules::ModeRules;
use crate::settings::Settings;
use crate::slots::{SlotId, Slots, Team};
use crate::MapRes;

/// Health a player spawns with; it decays to the maximum (Quake 3 gives 125).
pub const SPAWN_HEALTH_BONUS: i32 = 25;

/// The inventory a player spawns with; the weapon table sets it.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct SpawnLoadout(pub Inventory);

/// A place to spawn: origin and yaw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpawnSpot {
    /// Where the player box goes.
    pub origin: Vec3,
    /// Facing, degrees.
    pub yaw: f32,
}

/// How the match's game type places players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpawnPolicy {
    /// Players spawn at their team's spots ([`ModeRules::team_spawns`]).
    pub team_spawns: bool,
    /// Teammates are no threat, so spawns keep away from enemies only.
    pub team_game: bool,
}

impl SpawnPolicy {
    /// The policy of the match in `world`.
    pub fn of(world: &World) -> Self {
        Self {
            team_spawns: world.get_resource::<ModeRules>().is_some_and(|r| r.team_spawns),
            team_game: world.resource::<crate::rules::RulesState>().gametype.is_team_game(),
        }
    }
}

fn spawn_kind_allowed(kind: SpawnKind, policy: SpawnPolicy, team: Team, initial: bool) -> bool {
    // Most game types use the deathmatch spots (on a map without them every
    // spot is a fallback); with team spawns (CTF, One Flag) players use
    // their team's spots: the initial ones at match start, the respawn ones
    // after.
    if !policy.team_spawns {
        return matches!(kind, SpawnKind::Deathmatch | SpawnKind::Start);
    }
    let mine = match team {
        Team::Red => quarry_map::Team::Red,
        Team::Blue => quarry_map::Team::Blue,
        _ => return false,
    };
    matches!(kind, SpawnKind::Team { team: t, initial: i } if t == mine && i == initial)
}

/// Chooses a spawn spot for a player of `team`. `players` are the other
/// living players (position and team). `initial`: the player's first spawn
/// of the match (CTF uses the team's initial spots then). Falls back to the
/// team's other spots, then to any spot. `None` if the map has no usable spot.
pub fn select_spawn(
    map: &LoadedMap,
    policy: SpawnPolicy,
    team: Team,
    initial: bool,
    players: &[(Vec3, Team)],
    box_half: Vec3,
    rng: &mut SimRng,
) -> Option<SpawnSpot> {
    let spots_of = |initial: bool| -> Vec<SpawnSpot> {
        map.spawn_points()
            .filter(|(_, s)| s.fits && spawn_kind_allowed(s.kind, policy, team, initial))
            .map(|(_, s)| SpawnSpot { origin: s.spawn_origin, yaw: s.yaw })
            .collect()
    };
    let mut spots = spots_of(initial);
    if spots.is_empty() {
        spots = spots_of(!initial);
    }
    if spots.is_empty() {
        spots = map.spawn_points().filter(|(_, s)| s.fits).map(|(_, s)| SpawnSpot { origin: s.spawn_origin, yaw: s.yaw }).collect();
    }
    if spots.is_empty() {
        return None;
    }
    let blocked = |s: &SpawnSpot| {
        players.iter().any(|(p, _)| ((*p - s.origin).abs().cmplt(box_half * 2.0 + Vec3::ONE)).all())
    };
    let free: Vec<SpawnSpot> = spots.iter().copied().filter(|s| !blocked(s)).collect();
    let pool = if free.is_empty() { spots } else { free };
    let enemy = |t: Team| !policy.team_game || t != team;
    let mut ranked: Vec<(f32, SpawnSpot)> = pool
        .into_iter()
        .map(|s| {
            let nearest = players
                .iter()
                .filter(|(_, t)| enemy(*t))
                .map(|(p, _)| p.distance(s.origin))
                .fold(f32::INFINITY, f32::min);
            (nearest, s)
        })
        .collect();
    // Farthest first; ties keep map order (stable sort) for determinism.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let half = ranked.len().div_ceil(2);
    let pick = rng.0.random_range(0..half);
    ranked.get(pick).map(|(_, s)| *s)
}

/// Creates or re-creates the body of `slot` at a chosen spot. Returns `false`
/// when the map has no usable spawn point.
pub fn spawn_player(world: &mut World, slot: SlotId) -> bool {
    let Some(team) = world.resource::<Slots>().get(slot).map(|s| s.team) else { return false };
    let handicap = world.resource::<Slots>().get(slot).map_or(100, |s| i32::from(s.userinfo.handicap));
    let settings = world.resource::<Settings>().clone();
    let policy = SpawnPolicy::of(world);
    let mut others: Vec<(Vec3, Team)> = Vec::new();
    let mut q = world.query::<(&Player, &Body, &Life)>();
    for (p, b, life) in q.iter(world) {
        if p.slot != slot && *life == Life::Alive {
            let t = world.resource::<Slots>().get(p.slot).map_or(Team::Free, |s| s.team);
            others.push((b.0.origin, t));
        }
    }
    let half = Vec3::new(settings.movement.bbox_half_width, settings.movement.bbox_half_width, 28.0);
    let first_of_match = {
        let tick = world.resource::<MatchClock>().tick;
        let body = world.resource::<Slots>().get(slot).and_then(|s| s.entity);
        body.is_none()
            || matches!(world.resource::<crate::rules::RulesState>().phase, crate::rules::Phase::Live { since } if tick <= since + 1)
    };
    let spot = world.resource_scope(|world, mut rng: Mut<SimRng>| {
        let map = &world.resource::<MapRes>().0;
        select_spawn(map, policy, team, first_of_match, &others, half, &mut rng)
    });
    let Some(spot) = spot else { return false };
    // Every spot was taken (more players than spawn points): whoever stands
    // there is telefragged, as Quake 3's KillBox does, so nobody spawns inside
    // another player.
    let blockers: Vec<SlotId> = world
        .query::<(&Player, &Body, &Life)>()
        .iter(world)
        .filter(|(p, b, l)| p.slot != slot && **l == Life::Alive && ((b.0.origin - spot.origin).abs().cmplt(half * 2.0)).all())
        .map(|(p, _, _)| p.slot)
        .collect();
    let tick = world.resource::<MatchClock>().tick;
    for victim in blockers {
        crate::combat::kill(world, victim, Some(slot), crate::events::MeansOfDeath::Telefrag, tick);
    }
    let max = 100 * handicap / 100;
    let loadout = world.resource::<SpawnLoadout>().0;
    // The view faces the spot's angle through the delta angles, against
    // the angles the player's last command had (its mouse stays put).
    let last_cmd = world
        .resource::<Slots>()
        .get(slot)
        .and_then(|s| s.entity)
        .and_then(|e| world.get::<Body>(e))
        .map_or((0.0, 0.0), |b| (b.0.cmd_pitch, b.0.cmd_yaw));
    let body = Body(MoveState::respawned(spot.origin, spot.yaw, last_cmd));
    let (hp, armor) = match world.get_resource::<ModeRules>().and_then(|r| r.spawn_stats) {
        Some(stats) => (stats.health * handicap / 100, stats.armor),
        None => (max + SPAWN_HEALTH_BONUS, 0),
    };
    let components = (
        body,
        Health { hp, max },
        Armor { points: armor },
        Life::Alive,
        Powerups::default(),
        Inventory { ready_tick: tick, ..loadout },
        CurrentCmd::default(),
    );
    let existing = world.resource::<Slots>().get(slot).and_then(|s| s.entity);
    match existing.and_then(|e| world.get_entity_mut(e).ok()) {
        Some(mut e) => {
            e.insert(components);
            let e = e.id();
            ModeRules::spawned(world, e);
        }
        None => {
            let id = world.resource_mut::<NetIds>().next_id();
            let e = world.spawn((Player { slot }, id, components)).id();
            if let Some(s) = world.resource_mut::<Slots>().get_mut(slot) {
                s.entity = Some(e);
            }
        }
    }
    world.write_message(GameEvent::Spawned { slot, origin: spot.origin });
    true
}
