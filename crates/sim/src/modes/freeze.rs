//! Freeze Tag: while a round is live, a killed player freezes instead of
//! dying. Outside a live round (warmup, the pause between rounds) death is
//! ordinary and the dead respawn.
//!
//! Decisions, for players and bots alike:
//! - The frozen body stays where it died (a dead body: no input, no firing,
//!   no damage, no pickups) and is **not solid**: Quake 3 freeze mods keep a
//!   solid block, but a non-solid body never traps a player in a corridor,
//!   never blocks a spawn point, and lets a rescuer stand on it.
//! - Dying to lava, slime or the world (void, `trigger_hurt`, crushers)
//!   freezes the body at a respawn spot of its team instead, so it can be
//!   reached.
//! - A live, unfrozen teammate whose origin is within `g_thawRadius` of the
//!   body adds one tick of thaw progress per tick (several teammates do not
//!   thaw faster); at `g_thawTime` the player thaws. Progress is **kept**
//!   while nobody is near (it does not decay), so a rescuer chased off can
//!   come back and finish; a new round clears it.
//! - A thawed player rises where the body stands, as if respawned there:
//!   spawn health, no armor, the spawn loadout. If a living player stands
//!   inside the body, the thawed player is moved to the nearest free spot
//!   within 96 units, so nobody ends up stuck inside anybody. The teammate nearest the
//!   body at the thawing tick gets the thaw on the score card.
//! - `g_autoThawTime` (0 = off) thaws a player frozen that long by itself.

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_movement::pmove::MoveState;

use crate::MapRes;
use crate::clock::{MatchClock, SimRng};
use crate::components::{Armor, Body, Health, Inventory, Life, Player, Powerups};
use quarry_map::Trace;
use crate::events::{GameEvent, MeansOfDeath};
use crate::hash::TickHash;
use crate::rules::{GameType, RulesState};
use crate::settings::Settings;
use crate::slots::{SlotId, Slots, Team};
use crate::spawn::{SPAWN_HEALTH_BONUS, SpawnLoadout};

/// On a frozen player's body (which is [`Life::Dead`] meanwhile).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frozen {
    /// Tick it froze.
    pub since: u32,
    /// Ticks of thaw progress so far.
    pub progress: u32,
    /// Who froze it (the killer), if a player.
    pub by: Option<SlotId>,
}

impl Frozen {
    /// Thaw progress as a share, 0..=1, for `thaw_ticks` needed.
    pub fn share(&self, thaw_ticks: u32) -> f32 {
        (self.progress as f32 / thaw_ticks.max(1) as f32).clamp(0.0, 1.0)
    }
}

/// Ticks of progress a thaw needs with the current settings (at least one).
pub fn thaw_ticks(settings: &Settings, clock: &MatchClock) -> u32 {
    clock.ticks(settings.thaw_time_s).max(1)
}

/// A death in Freeze Tag: during a live round, the victim freezes.
pub(crate) fn on_kill(world: &mut World, record: &crate::mode_rules::KillRecord) {
    let crate::mode_rules::KillRecord { victim, killer, means, tick } = *record;
    if !super::rounds::holds_respawn(world) {
        return;
    }
    let Some((e, team)) = world.resource::<Slots>().get(victim).and_then(|s| Some((s.entity?, s.team))) else { return };
    if matches!(means, MeansOfDeath::Lava | MeansOfDeath::Slime | MeansOfDeath::World) {
        relocate(world, e, team);
    }
    world.entity_mut(e).insert(Frozen { since: tick, progress: 0, by: killer });
    super::stats::bump(world, team, |t| &mut t.freezes);
    world.write_message(GameEvent::Frozen { slot: victim, by: killer });
}

/// Moves a body that died somewhere unreachable to a respawn spot of its team.
fn relocate(world: &mut World, e: Entity, team: Team) {
    let policy = crate::spawn::SpawnPolicy::of(world);
    let half = {
        let s = world.resource::<Settings>();
        Vec3::new(s.movement.bbox_half_width, s.movement.bbox_half_width, 28.0)
    };
    let others: Vec<(Vec3, Team)> = {
        let slots = world.resource::<Slots>().clone();
        let mut q = world.query::<(&Player, &Body, &Life)>();
        q.iter(world)
            .filter(|(_, _, l)| **l == Life::Alive)
            .map(|(p, b, _)| (b.0.origin, slots.get(p.slot).map_or(Team::Free, |s| s.team)))
            .collect()
    };
    let spot = world.resource_scope(|world, mut rng: Mut<SimRng>| {
        let map = &world.resource::<MapRes>().0;
        crate::spawn::select_spawn(map, policy, team, false, &others, half, &mut rng)
    });
    if let (Some(spot), Some(mut body)) = (spot, world.get_mut::<Body>(e)) {
        let mut state = MoveState::respawned(spot.origin, spot.yaw, (body.0.cmd_pitch, body.0.cmd_yaw));
        state.dead = true;
        body.0 = state;
    }
}

/// How far from the body a thawed player may be moved to get clear of a
/// living player standing inside it (the body is not solid): rings of
/// these radii, eight directions each, at the body's height then a step up.
const CLEAR_RADII: [f32; 5] = [16.0, 32.0, 48.0, 64.0, 96.0];

/// Moves a body about to thaw out of any living player (and never into the
/// map); it stays where it is when nothing near is free (pmove then nudges).
fn clear_of_players(world: &mut World, slot: SlotId, e: Entity) {
    let Some((origin, (mins, maxs))) = world.get::<Body>(e).map(|b| (b.0.origin, b.0.bbox())) else { return };
    let obstacles = crate::scene::player_obstacles(world);
    let map = &world.resource::<MapRes>().0;
    let scene = crate::scene::SceneTrace { world: map.world(), obstacles: &obstacles, skip: Some(slot) };
    let mask = quarry_movement::pmove::MOVE_MASK;
    if scene.fits(origin, mins, maxs, mask) {
        return;
    }
    let step = world.resource::<Settings>().movement.step_size.max(1.0);
    let free = CLEAR_RADII.iter().find_map(|r| {
        [0.0, step].into_iter().find_map(|dz| {
            (0..8).find_map(|i| {
                let a = i as f32 * std::f32::consts::FRAC_PI_4;
                let at = origin + Vec3::new(a.cos() * r, a.sin() * r, dz);
                // Reachable in a straight line, so it never goes through a wall.
                let path = map.world().trace(origin, at, mins, maxs, mask);
                (scene.fits(at, mins, maxs, mask) && path.fraction >= 1.0 && !path.start_solid).then_some(at)
            })
        })
    });
    if let (Some(at), Some(mut body)) = (free, world.get_mut::<Body>(e)) {
        body.0.origin = at;
    }
}

/// Frees a frozen player where its body stands (moved clear of a living
/// player standing inside the non-solid body).
fn thaw(world: &mut World, slot: SlotId, e: Entity, by: Option<SlotId>, tick: u32) {
    clear_of_players(world, slot, e);
    let loadout = world.resource::<SpawnLoadout>().0;
    let max = world.get::<Health>(e).map_or(100, |h| h.max);
    let mut entity = world.entity_mut(e);
    entity.remove::<Frozen>();
    entity.insert((
        Life::Alive,
        Health { hp: max + SPAWN_HEALTH_BONUS, max },
        Armor::default(),
        Powerups::default(),
        Inventory { ready_tick: tick, ..loadout },
    ));
    if let Some(mut body) = world.get_mut::<Body>(e) {
        body.0.dead = false;
        body.0.velocity = Vec3::ZERO;
    }
    let team = world.resource::<Slots>().get(slot).map_or(Team::Free, |s| s.team);
    match by {
        Some(r) => {
            if let Some(s) = world.resource_mut::<Slots>().get_mut(r) {
                s.score.thaws += 1;
            }
            super::stats::bump(world, team, |t| &mut t.thaws);
        }
        None => {
            if let Some(mut stats) = world.get_resource_mut::<super::ModeStats>() {
                stats.auto_thaws += 1;
            }
        }
    }
    world.write_message(GameEvent::Thawed { slot, by });
}

/// One tick of thawing, frozen players in slot order: teammates inside the
/// radius add progress; full progress or `g_autoThawTime` thaws.
///
/// Exclusive (`&mut World`): a thaw moves the body clear of living players
/// and respawns it before the next frozen player is looked at.
pub(crate) fn update_thaw(world: &mut World) {
    if world.resource::<RulesState>().gametype != GameType::FreezeTag || !super::rounds::holds_respawn(world) {
        return;
    }
    let clock = *world.resource::<MatchClock>();
    let settings = world.resource::<Settings>().clone();
    let need = thaw_ticks(&settings, &clock);
    let auto = clock.ticks(settings.auto_thaw_s);
    let slots = world.resource::<Slots>().clone();
    let team_of = |s: SlotId| slots.get(s).map_or(Team::Spectator, |s| s.team);
    let mut frozen: Vec<(SlotId, Entity, Vec3, Frozen)> =
        world.query::<(Entity, &Player, &Body, &Frozen)>().iter(world).map(|(e, p, b, f)| (p.slot, e, b.0.origin, *f)).collect();
    frozen.sort_by_key(|f| f.0);
    let mut rescuers: Vec<(SlotId, Vec3)> = world
        .query::<(&Player, &Body, &Life)>()
        .iter(world)
        .filter(|(_, _, l)| **l == Life::Alive)
        .map(|(p, b, _)| (p.slot, b.0.origin))
        .collect();
    rescuers.sort_by_key(|r| r.0);
    for (slot, e, at, mut f) in frozen {
        let team = team_of(slot);
        let nearest = rescuers
            .iter()
            .filter(|(r, o)| *r != slot && team_of(*r) == team && o.distance(at) <= settings.thaw_radius)
            .min_by(|a, b| a.1.distance(at).total_cmp(&b.1.distance(at)).then(a.0.cmp(&b.0)))
            .map(|(r, _)| *r);
        if nearest.is_some() {
            f.progress += 1;
            if let Some(mut c) = world.get_mut::<Frozen>(e) {
                c.progress = f.progress;
            }
        }
        if f.progress >= need && nearest.is_some() {
            thaw(world, slot, e, nearest, clock.tick);
        } else if auto > 0 && clock.tick >= f.since + auto {
            thaw(world, slot, e, None, clock.tick);
        }
    }
}

/// Feeds every frozen player's state to the tick hash, by slot.
pub(crate) fn hash_frozen(frozen: Query<(&Player, &Frozen)>, mut hash: ResMut<TickHash>) {
    let mut rows: Vec<_> = frozen.iter().collect();
    rows.sort_by_key(|(p, _)| p.slot);
    hash.mark("frozen");
    let h = &mut hash.building;
    for (p, f) in rows {
        h.u32(u32::from(p.slot.0));
        h.u32(f.since);
        h.u32(f.progress);
    }
}

/// The line players read for a [`GameEvent::Frozen`] or
/// [`GameEvent::Thawed`], e.g. "Rook froze Ann." or "Ann was thawed by
/// Bo."; `None` for any other event.
pub fn freeze_line(event: &GameEvent, slots: &Slots) -> Option<String> {
    let name = |s: SlotId| slots.get(s).map_or_else(|| format!("slot {}", s.0), |s| s.userinfo.name.clone());
    Some(match *event {
        GameEvent::Frozen { slot, by: Some(by) } => format!("{} froze {}.", name(by), name(slot)),
        GameEvent::Frozen { slot, by: None } => format!("{} froze.", name(slot)),
        GameEvent::Thawed { slot, by: Some(by) } => format!("{} was thawed by {}.", name(slot), name(by)),
        GameEvent::Thawed { slot, by: None } => format!("{} thawed out.", name(slot)),
        _ => return None,
    })
}
