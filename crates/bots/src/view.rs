//! [`BotView`]: the read-only picture of a match the bot layers work from.
//!
//! Built once per server tick from `&Match` (never `&mut`), before any bot
//! thinks, so every bot of a tick sees the same world: players by slot,
//! available items, flying projectiles, this tick's events, the map for
//! line-of-sight traces and the live settings. The layers never touch the
//! ECS world themselves, and nothing here can change it.
//!
//! Queries against a `&World` need a `QueryState`; those are kept in a
//! [`ViewCache`] between ticks (rebuilt when a new match starts) so
//! building a view costs a handful of component reads per entity.

use bevy_ecs::prelude::*;
use bevy_ecs::world::WorldId;
use glam::Vec3;
use quarry_map::LoadedMap;
use quarry_sim::components::{Armor, Body, CurrentCmd, Health, Inventory, Life, NetId, Powerups};
use quarry_sim::events::GameEvent;
use quarry_sim::items::drop::Dropped;
use quarry_sim::items::{Gift, Item, ItemSpawn};
use quarry_sim::mode::ModeState;
use quarry_sim::scene::Obstacle;
use quarry_sim::slots::{ClientKind, MAX_SLOTS, SlotState};
use quarry_sim::sound::SoundTable;
use quarry_sim::weapons::{Projectile, WeaponTable};
use quarry_sim::{Buttons, Match, Settings, SlotId, Team};

/// Match time as the bots count it: ticks and the tick rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotClock {
    /// The tick the next step will simulate.
    pub tick: u32,
    /// Ticks per second.
    pub hz: u32,
}

impl BotClock {
    /// Seconds per tick.
    pub fn dt(&self) -> f32 {
        1.0 / self.hz.max(1) as f32
    }

    /// Ticks in `ms` milliseconds, rounded to the nearest tick (0 for 0 or less).
    pub fn ticks_ms(&self, ms: f32) -> u32 {
        if ms.is_nan() || ms <= 0.0 {
            return 0;
        }
        (ms * self.hz.max(1) as f32 / 1000.0).round().min(u32::MAX as f32 / 2.0) as u32
    }

    /// The tick `ms` milliseconds from now.
    pub fn after_ms(&self, ms: f32) -> u32 {
        self.tick.saturating_add(self.ticks_ms(ms))
    }

    /// Milliseconds since `tick` (0 if in the future).
    pub fn ms_since(&self, tick: u32) -> f32 {
        self.tick.saturating_sub(tick) as f32 * 1000.0 / self.hz.max(1) as f32
    }

    /// Seconds since the match began (for periodic signals such as tremor).
    pub fn seconds(&self) -> f32 {
        // Wrapped at one hour so sin() arguments keep their precision.
        (self.tick % (self.hz.max(1) * 3600)) as f32 / self.hz.max(1) as f32
    }
}

/// One player as a bot may see it (perception decides what it may *know*).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerSnap {
    /// Slot.
    pub slot: SlotId,
    /// Team.
    pub team: Team,
    /// Whether a bot holds the slot (for status output only; never for behaviour).
    pub is_bot: bool,
    /// Alive.
    pub alive: bool,
    /// Box origin.
    pub origin: Vec3,
    /// Velocity, units/s.
    pub velocity: Vec3,
    /// Box mins, relative to origin.
    pub mins: Vec3,
    /// Box maxs, relative to origin.
    pub maxs: Vec3,
    /// Eye position.
    pub eye: Vec3,
    /// View pitch, degrees (positive down).
    pub pitch: f32,
    /// View yaw, degrees.
    pub yaw: f32,
    /// Standing on walkable ground.
    pub on_ground: bool,
    /// Liquid depth 0..=3.
    pub water_level: u8,
    /// Pitch and yaw added to the player's commands (Quake 3's
    /// `delta_angles`; a spawn or a teleporter sets them): a bot sends the
    /// view it wants minus these. Meaningful for its own player only.
    pub delta_angles: (f32, f32),
    /// Health.
    pub health: i32,
    /// Normal maximum health.
    pub max_health: i32,
    /// Armor.
    pub armor: i32,
    /// Weapons and ammo.
    pub inventory: Inventory,
    /// Powerup expiry ticks.
    pub powerups: Powerups,
    /// Attack held in the command it last played.
    pub attacking: bool,
    /// Recently teleported (the view should not track across the jump).
    pub teleported: bool,
    /// Frozen (Freeze Tag): out of the fight until a teammate thaws it;
    /// never a target, never a threat.
    pub frozen: bool,
}

#[cfg(test)]
impl PlayerSnap {
    /// For tests: a bot of `team` in `slot`, alive and standing on the floor
    /// at `origin` with the Quake 3 box, eyes 26 above, 100 health, no armor,
    /// an empty inventory.
    pub(crate) fn standing(slot: u8, team: Team, origin: Vec3) -> Self {
        Self {
            slot: SlotId(slot),
            team,
            is_bot: true,
            alive: true,
            origin,
            velocity: Vec3::ZERO,
            mins: Vec3::new(-15.0, -15.0, -24.0),
            maxs: Vec3::new(15.0, 15.0, 32.0),
            eye: origin + Vec3::Z * 26.0,
            pitch: 0.0,
            yaw: 0.0,
            on_ground: true,
            water_level: 0,
            delta_angles: (0.0, 0.0),
            health: 100,
            max_health: 100,
            armor: 0,
            inventory: Inventory::default(),
            powerups: Powerups::default(),
            attacking: false,
            teleported: false,
            frozen: false,
        }
    }
}

impl PlayerSnap {
    /// Alive and not frozen: can fight, can be fought.
    pub fn active(&self) -> bool {
        self.alive && !self.frozen
    }

    /// Centre of the box.
    pub fn center(&self) -> Vec3 {
        self.origin + (self.mins + self.maxs) * 0.5
    }

    /// Whether a powerup expiring at `until` is active at `tick`.
    pub fn has_powerup(&self, tick: u32) -> bool {
        let p = &self.powerups;
        [p.quad, p.haste, p.regen, p.invis]
            .iter()
            .any(|&u| Powerups::active(u, tick))
    }
}

/// One pickup.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ItemSnap {
    /// Stable id.
    pub id: NetId,
    /// Class name (`item_armor_body`).
    pub classname: &'static str,
    /// What it gives.
    pub gift: Gift,
    /// Centre of its pickup box.
    pub origin: Vec3,
    /// Half-extents of its pickup box.
    pub half: Vec3,
    /// Can be taken now.
    pub available: bool,
    /// When hidden: the tick it comes back.
    pub respawn_at: u32,
    /// Ticks from a pickup to its return: public, the item table's figure
    /// (0 for a dropped weapon, which does not come back).
    pub respawn_ticks: u32,
    /// Ticks after play goes live by which it has first appeared: public,
    /// the item table's first spawn plus its jitter (0: there at once).
    pub first_spawn_ticks: u32,
    /// A weapon someone dropped.
    pub dropped: bool,
}

/// One projectile in flight (or resting).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProjectileSnap {
    /// Who fired it.
    pub owner: SlotId,
    /// Weapon number.
    pub weapon: u8,
    /// Position.
    pub origin: Vec3,
    /// Velocity.
    pub velocity: Vec3,
}

/// What the item query reads (dropped weapons are told apart with a
/// `get`: a query naming `Dropped` fails until the first weapon drops).
type ItemQuery = (Entity, &'static NetId, &'static Item, Option<&'static ItemSpawn>);

/// Cached queries for building views of one world. A query over a
/// component no entity has had yet cannot be built (projectiles before the
/// first shot); it is retried each tick until it can.
#[derive(Default)]
pub struct ViewCache {
    world: Option<WorldId>,
    items: Option<QueryState<ItemQuery>>,
    projectiles: Option<QueryState<(&'static NetId, &'static Projectile)>>,
}

impl std::fmt::Debug for ViewCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViewCache")
            .field("world", &self.world)
            .finish_non_exhaustive()
    }
}

/// The read-only world a bot decides from.
pub struct BotView<'a> {
    /// Time.
    pub clock: BotClock,
    /// Players by slot index (`None`: empty slot or no body).
    pub players: Vec<Option<PlayerSnap>>,
    /// Map items and dropped weapons, by id.
    pub items: Vec<ItemSnap>,
    /// Projectiles, by id.
    pub projectiles: Vec<ProjectileSnap>,
    /// Boxes of the living players, for scene traces (shot safety).
    pub obstacles: Vec<Obstacle>,
    /// What happened in the last tick.
    pub events: Vec<GameEvent>,
    /// The map: traces for sight and safety.
    pub map: &'a LoadedMap,
    /// Live settings (movement parameters).
    pub settings: &'a Settings,
    /// Weapon numbers, ranges, speeds and splash.
    pub weapons: &'a WeaponTable,
    /// How far each sound carries.
    pub sounds: &'a SoundTable,
    /// Whether teams matter.
    pub team_game: bool,
    /// Whether players may move and fight now.
    pub play_allowed: bool,
    /// The objective state of the game type (flags, bases, frozen players, rounds).
    pub mode: ModeState,
    /// Whether objectives count now: the match is live (not warmup or
    /// countdown) and, in round modes, a round is being fought.
    pub objectives_live: bool,
}

impl<'a> BotView<'a> {
    /// Builds this tick's view of `game`.
    pub fn build(game: &'a Match, cache: &mut ViewCache) -> Self {
        let world = game.world();
        if cache.world != Some(world.id()) {
            *cache = ViewCache {
                world: Some(world.id()),
                ..ViewCache::default()
            };
        }
        if cache.items.is_none() {
            cache.items = world.try_query();
        }
        if cache.projectiles.is_none() {
            cache.projectiles = world.try_query();
        }
        let tick = game.tick().wrapping_add(1);
        let clock = BotClock { tick, hz: game.hz() };
        let mode = game.mode_state();
        let phase = game.phase();
        let objectives_live = phase.allows_play() && phase.counts() && mode.round.is_none_or(|r| r.live);
        let players = player_snaps(game, &mode, tick);
        let items = item_snaps(world, cache, game.hz());
        let projectiles = projectile_snaps(world, cache);
        let obstacles = players
            .iter()
            .flatten()
            .filter(|p| p.alive)
            .map(|p| Obstacle {
                slot: p.slot,
                origin: p.origin,
                mins: p.mins,
                maxs: p.maxs,
            })
            .collect();
        let weapons = world.get_resource::<WeaponTable>();
        Self {
            clock,
            players,
            items,
            projectiles,
            obstacles,
            events: game.events(),
            map: game.map(),
            settings: game.settings(),
            weapons: weapons.unwrap_or_else(|| default_table()),
            sounds: world.get_resource::<SoundTable>().unwrap_or_else(|| default_sounds()),
            team_game: game.rules().gametype.is_team_game(),
            play_allowed: phase.allows_play(),
            mode,
            objectives_live,
        }
    }

    /// The player in `slot`, if it has a body.
    pub fn player(&self, slot: SlotId) -> Option<&PlayerSnap> {
        self.players.get(usize::from(slot.0)).and_then(Option::as_ref)
    }

    /// Every player with a body, in slot order.
    pub fn iter_players(&self) -> impl Iterator<Item = &PlayerSnap> + '_ {
        self.players.iter().flatten()
    }

    /// Whether `other` is an enemy of `me` (another player, not a teammate
    /// in team games). A frozen player is nobody's enemy: there is nothing
    /// to gain from shooting it.
    pub fn is_enemy(&self, me: &PlayerSnap, other: &PlayerSnap) -> bool {
        me.slot != other.slot && !other.frozen && !(self.team_game && me.team == other.team)
    }
}

/// The built-in sound table, for a match built without one.
pub(crate) fn default_sounds() -> &'static SoundTable {
    static TABLE: std::sync::OnceLock<SoundTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(SoundTable::default)
}

fn default_table() -> &'static WeaponTable {
    static TABLE: std::sync::OnceLock<WeaponTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(WeaponTable::quake3)
}

/// Every in-game player with a body, indexed by slot.
fn player_snaps(game: &Match, mode: &ModeState, tick: u32) -> Vec<Option<PlayerSnap>> {
    let world = game.world();
    let mut players = vec![None; MAX_SLOTS];
    for (id, slot) in game.slots().iter() {
        if slot.state != SlotState::InGame {
            continue;
        }
        let Some(mut snap) = slot
            .entity
            .and_then(|e| player_snap(world, e, id, slot.team, slot.kind, tick))
        else {
            continue;
        };
        snap.frozen = mode.is_frozen(id);
        if let Some(p) = players.get_mut(usize::from(id.0)) {
            *p = Some(snap);
        }
    }
    players
}

/// Every item, by net id (`hz`: the tick rate, for first-spawn times).
fn item_snaps(world: &World, cache: &mut ViewCache, hz: u32) -> Vec<ItemSnap> {
    let first_ticks = |(first, jitter): (f32, f32)| if first > 0.0 { ((first + jitter.max(0.0)) * hz as f32).ceil() as u32 } else { 0 };
    let mut items = Vec::new();
    if let Some(q) = cache.items.as_mut() {
        for (entity, id, item, spawn) in q.iter(world) {
            items.push(ItemSnap {
                id: *id,
                classname: item.classname,
                gift: item.gift,
                origin: item.origin,
                half: item.half,
                available: spawn.is_none_or(|s| s.available),
                respawn_at: spawn.map_or(0, |s| s.respawn_at),
                respawn_ticks: spawn.map_or(0, |s| s.respawn_ticks),
                first_spawn_ticks: spawn.map_or(0, |s| first_ticks(s.first_spawn)),
                dropped: world.get::<Dropped>(entity).is_some(),
            });
        }
    }
    items.sort_by_key(|i| i.id);
    items
}

/// Every projectile in flight, by net id.
fn projectile_snaps(world: &World, cache: &mut ViewCache) -> Vec<ProjectileSnap> {
    let Some(q) = cache.projectiles.as_mut() else {
        return Vec::new();
    };
    let mut rows: Vec<(NetId, ProjectileSnap)> = q
        .iter(world)
        .map(|(id, p)| {
            (
                *id,
                ProjectileSnap {
                    owner: p.owner,
                    weapon: p.weapon,
                    origin: p.origin,
                    velocity: p.velocity,
                },
            )
        })
        .collect();
    rows.sort_by_key(|(id, _)| *id);
    rows.into_iter().map(|(_, p)| p).collect()
}

fn player_snap(world: &World, e: Entity, slot: SlotId, team: Team, kind: ClientKind, tick: u32) -> Option<PlayerSnap> {
    let body = &world.get::<Body>(e)?.0;
    let health = world.get::<Health>(e).copied();
    let (mins, maxs) = body.bbox();
    let eye = body.eye();
    Some(PlayerSnap {
        slot,
        team,
        is_bot: kind == ClientKind::Bot,
        alive: world.get::<Life>(e) == Some(&Life::Alive),
        origin: body.origin,
        velocity: body.velocity,
        mins,
        maxs,
        eye,
        pitch: body.pitch,
        yaw: body.yaw,
        on_ground: body.on_ground(),
        water_level: body.water_level,
        delta_angles: (body.delta_pitch, body.delta_yaw),
        health: health.map_or(0, |h| h.hp),
        max_health: health.map_or(100, |h| h.max.max(1)),
        armor: world.get::<Armor>(e).map_or(0, |a| a.points),
        inventory: world.get::<Inventory>(e).copied().unwrap_or_default(),
        powerups: world.get::<Powerups>(e).copied().unwrap_or_default(),
        attacking: world
            .get::<CurrentCmd>(e)
            .is_some_and(|c| c.cmd.buttons.contains(Buttons::ATTACK)),
        teleported: body.teleport_time > 0.0 && tick > 0,
        frozen: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_conversions() {
        let c = BotClock { tick: 600, hz: 60 };
        assert_eq!(c.ticks_ms(1000.0), 60);
        assert_eq!(c.ticks_ms(8.0), 0);
        assert_eq!(c.ticks_ms(9.0), 1);
        assert_eq!(c.ticks_ms(-5.0), 0);
        assert_eq!(c.ticks_ms(f32::NAN), 0);
        assert_eq!(c.after_ms(500.0), 630);
        assert!((c.ms_since(540) - 1000.0).abs() < 1e-3);
        assert_eq!(c.ms_since(700), 0.0);
        assert!((c.seconds() - 10.0).abs() < 1e-6);
    }
}
