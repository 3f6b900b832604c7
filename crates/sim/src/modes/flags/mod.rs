//! Capture the flag: two flags at their bases (from the map's
//! `team_CTF_redflag` / `team_CTF_blueflag`), taken by touching the enemy
//! flag, captured by touching your own base while your own flag is home,
//! dropped where the carrier dies (or in front of a carrier who presses
//! drop, where `g_flagDrop` allows: a hand-over to a teammate, which the
//! dropper cannot undo for [`DROP_HOLD_OFF_SECONDS`]), returned by a touch
//! of its own team or after `g_flagReturnTime` seconds.
//!
//! Scoring follows Quake 3 (`g_team.c`): a capture is +1 team score and
//! counts in the capturer's [`ScoreCard::captures`](crate::slots::ScoreCard);
//! a return counts in `returns`; teammates who returned their flag or
//! fragged the enemy carrier within [`ASSIST_SECONDS`] before a capture get
//! an assist; killing the enemy carrier, or an enemy near your own flag or
//! your own carrier, is a defend.
//!
//! One Flag (`one_flag.rs`): one neutral flag (`team_CTF_neutralflag`) at
//! its stand; the team flag entities are only bases (not items). Anyone
//! takes the neutral flag by touch, home or dropped; its carrier captures
//! by touching the *enemy* base; dropped, it returns only by timeout.
//!
//! The flag entities exist only in CTF and One Flag. They show in entity views as items
//! with the flag's class name (available while not carried, `dropped` while
//! lying in the field); a carrier's player view has the flag's powerup bit
//! ([`RED_FLAG_BIT`], [`BLUE_FLAG_BIT`]), as Quake 3's `PW_REDFLAG`.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use glam::Vec3;
use quarry_map::{EntityKind, LoadedMap};
use quarry_movement::Buttons;

use crate::MapRes;
use crate::clock::MatchClock;
use crate::components::{Body, CurrentCmd, Life, NetId, Player};
use crate::events::GameEvent;
use crate::hash::TickHash;
use crate::rules::{GameType, Phase, RulesState};
use crate::settings::Settings;
use crate::slots::{SlotId, Slots, Team};
use crate::components::NetIds;

mod one_flag;
mod score;

use score::capture;

/// Powerup bit of a player carrying the red flag.
pub const RED_FLAG_BIT: u8 = 1 << 4;
/// Powerup bit of a player carrying the blue flag.
pub const BLUE_FLAG_BIT: u8 = 1 << 5;
/// Powerup bit of a player carrying the neutral flag (One Flag), as Quake 3
/// Team Arena's `PW_NEUTRALFLAG`.
pub const NEUTRAL_FLAG_BIT: u8 = 1 << 6;
/// Half-extents of a flag's touch box (Quake 3 flags use the item box, 15).
pub const FLAG_HALF: Vec3 = Vec3::new(15.0, 15.0, 15.0);
/// A return or carrier frag this recent before a capture earns an assist.
pub const ASSIST_SECONDS: f32 = 10.0;
/// Killing an enemy this close to your own flag or carrier is a defend.
pub const DEFEND_RADIUS: f32 = 1000.0;
/// A carrier who drops the flag on purpose cannot take it back for this
/// long (anyone else can, at once).
pub const DROP_HOLD_OFF_SECONDS: f32 = 2.0;
/// How far in front of a carrier a flag dropped on purpose lands: clear of
/// the dropper's box and the flag's, so a teammate steps onto it.
const DROP_AHEAD: f32 = 56.0;
/// Player box, relative to its origin (Quake 3 defaults).
const PLAYER_MINS: Vec3 = Vec3::new(-15.0, -15.0, -24.0);
const PLAYER_MAXS: Vec3 = Vec3::new(15.0, 15.0, 32.0);

pub use crate::events::FlagEventKind;

/// The line players read for a flag event, e.g. "Rook captured the blue flag."
pub fn flag_line(kind: FlagEventKind, team: Team, who: Option<&str>) -> String {
    let flag = if team == Team::Free { "the flag".to_owned() } else { format!("the {} flag", team.name()) };
    match (kind, who) {
        (FlagEventKind::Taken, Some(w)) => format!("{w} took {flag}."),
        (FlagEventKind::Dropped, Some(w)) => format!("{w} dropped {flag}."),
        (FlagEventKind::Returned, Some(w)) => format!("{w} returned {flag}."),
        (FlagEventKind::Captured, Some(w)) => format!("{w} captured {flag}!"),
        (FlagEventKind::Returned, None) => format!("{} returned to base.", capitalised(&flag)),
        (FlagEventKind::Taken, None) => format!("{} was taken.", capitalised(&flag)),
        (FlagEventKind::Dropped, None) => format!("{} was dropped.", capitalised(&flag)),
        (FlagEventKind::Captured, None) => format!("{} was captured!", capitalised(&flag)),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Where a flag is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagState {
    /// At its base.
    Home,
    /// Carried by `slot`.
    Carried(SlotId),
    /// Lying in the field; returns home at tick `return_at`.
    Dropped {
        /// Tick it returns by itself.
        return_at: u32,
    },
}

/// A team's flag.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Flag {
    /// Whose flag.
    pub team: Team,
    /// Its base (the map entity dropped to the floor).
    pub base: Vec3,
    /// Where it is now (follows its carrier).
    pub origin: Vec3,
    /// Home, carried or dropped.
    pub state: FlagState,
    /// A player who dropped it on purpose and the tick until which that
    /// player cannot take it back.
    pub held_off: Option<(SlotId, u32)>,
}

impl Flag {
    /// Whether `slot` may take the flag at `tick` (not its own recent drop).
    pub fn takeable_by(&self, slot: SlotId, tick: u32) -> bool {
        !self.held_off.is_some_and(|(s, until)| s == slot && tick < until)
    }

    /// The entity class name of a team's flag.
    pub fn classname(team: Team) -> &'static str {
        match team {
            Team::Red => "team_CTF_redflag",
            Team::Blue => "team_CTF_blueflag",
            _ => "team_CTF_neutralflag",
        }
    }
}

/// On a player carrying an enemy flag: whose flag.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CarriesFlag(pub Team);

/// Recent deeds for assists, and the live start the flags were reset for.
#[derive(Resource, Debug, Clone, Default)]
pub struct CtfState {
    /// Slot -> tick it last returned its flag.
    pub last_return: BTreeMap<SlotId, u32>,
    /// Slot -> tick it last fragged an enemy carrier.
    pub last_carrier_frag: BTreeMap<SlotId, u32>,
    /// The tick play went live that the flags were last reset for.
    pub reset_for: Option<u32>,
}

/// Where each team scores: its flag stand (CTF), the stand the neutral
/// flag is brought to by the *other* team (One Flag). Set at install.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct FlagBases(pub Vec<(Team, Vec3)>);

impl FlagBases {
    /// The base of `team`.
    pub fn base(&self, team: Team) -> Option<Vec3> {
        self.0.iter().find(|b| b.0 == team).map(|b| b.1)
    }
}

/// The neutral flag's stand (`team_CTF_neutralflag`), if the map has one.
pub fn map_neutral_flag(map: &LoadedMap) -> Option<Vec3> {
    map.entities().iter().find_map(|e| match (&e.kind, e.origin) {
        (EntityKind::Flag(quarry_map::Team::Neutral), Some(o)) => Some(o),
        _ => None,
    })
}

/// The flag bases a map has: `(team, origin)` of red and blue flags.
pub fn map_flags(map: &LoadedMap) -> Vec<(Team, Vec3)> {
    map.entities()
        .iter()
        .filter_map(|e| match (&e.kind, e.origin) {
            (EntityKind::Flag(quarry_map::Team::Red), Some(o)) => Some((Team::Red, o)),
            (EntityKind::Flag(quarry_map::Team::Blue), Some(o)) => Some((Team::Blue, o)),
            _ => None,
        })
        .collect()
}

/// Which of red and blue flags a map lacks (empty when it can host CTF).
pub fn missing_flags(map: &LoadedMap) -> Vec<Team> {
    let flags = map_flags(map);
    [Team::Red, Team::Blue].into_iter().filter(|t| !flags.iter().any(|(f, _)| f == t)).collect()
}

/// Adds the flags (CTF: red and blue; One Flag: the neutral one, with the
/// team flags as bases) and their systems to a new match.
pub(crate) fn install(world: &mut World, schedule: &mut Schedule) {
    let gametype = world.resource::<RulesState>().gametype;
    if !gametype.has_flags() {
        return;
    }
    world.insert_resource(CtfState::default());
    let bases: Vec<(Team, Vec3)> = {
        let map = &world.resource::<MapRes>().0;
        let mut seen = Vec::new();
        for (team, origin) in map_flags(map) {
            // The first flag of each team counts; Quake 3 uses one per team.
            if seen.iter().any(|(t, _)| *t == team) {
                continue;
            }
            let floor = crate::scene::drop_to_floor(map.world(), origin, FLAG_HALF);
            seen.push((team, floor));
        }
        seen
    };
    world.insert_resource(FlagBases(bases.clone()));
    let flags = if gametype == GameType::OneFlag {
        let map = &world.resource::<MapRes>().0;
        let stand = map_neutral_flag(map).map(|o| crate::scene::drop_to_floor(map.world(), o, FLAG_HALF));
        stand.map(|at| (Team::Free, at)).into_iter().collect()
    } else {
        bases
    };
    for (team, base) in flags {
        let id = world.resource_mut::<NetIds>().next_id();
        world.spawn((id, Flag { team, base, origin: base, state: FlagState::Home, held_off: None }));
    }
    schedule.add_systems(update_flags.in_set(crate::schedule::SimSystems::AfterDamage).after(crate::items::decay::decay_and_regen));
    schedule.add_systems(hash_flags.in_set(crate::schedule::HashSystems::Flags));
}

/// Whether the player with entity `e` carries a flag (the team balance
/// leaves carriers where they are).
pub(crate) fn carries_flag(world: &World, e: Entity) -> bool {
    world.get::<CarriesFlag>(e).is_some()
}

/// A death in a flag mode: killing an enemy is scored as a defend when it
/// carried a flag or was near the killer's flag or carrier.
pub(crate) fn on_kill(world: &mut World, record: &crate::mode_rules::KillRecord) {
    if let Some(killer) = record.killer {
        score::on_kill(world, record.victim, killer, record.tick);
    }
}

fn overlaps(player: Vec3, flag: Vec3) -> bool {
    let (lo, hi) = (player + PLAYER_MINS, player + PLAYER_MAXS);
    let (flo, fhi) = (flag - FLAG_HALF, flag + FLAG_HALF);
    lo.cmple(fhi).all() && flo.cmple(hi).all()
}

fn other(team: Team) -> Team {
    if team == Team::Red { Team::Blue } else { Team::Red }
}

/// Removes the carried-flag marker from `slot`'s body, if it has one.
fn take_from_carrier(world: &mut World, slot: SlotId) {
    let body = world.resource::<Slots>().get(slot).and_then(|s| s.entity);
    if let Some(mut b) = body.and_then(|b| world.get_entity_mut(b).ok()) {
        b.remove::<CarriesFlag>();
    }
}

fn send_home(world: &mut World, e: Entity) {
    let Some(mut flag) = world.get_mut::<Flag>(e) else { return };
    flag.held_off = None;
    if let FlagState::Carried(slot) = flag.state {
        flag.state = FlagState::Home;
        flag.origin = flag.base;
        take_from_carrier(world, slot);
    } else {
        flag.state = FlagState::Home;
        flag.origin = flag.base;
    }
}

/// One tick of the flags: reset on going live, carriers carry or drop,
/// dropped flags time out, then players touch flags in slot order.
///
/// Exclusive (`&mut World`): touches are resolved in slot order and a capture
/// or return changes flags, scores and carriers before the next touch.
pub(crate) fn update_flags(world: &mut World) {
    let clock = *world.resource::<MatchClock>();
    let tick = clock.tick;
    let phase = world.resource::<RulesState>().phase;
    let return_ticks = clock.ticks(world.resource::<Settings>().flag_return_s);
    let allow_drop = world.resource::<Settings>().flag_drop;
    let hold_off_ticks = clock.ticks(DROP_HOLD_OFF_SECONDS);
    let mut flags: Vec<(NetId, Entity)> = world.query::<(&NetId, Entity, &Flag)>().iter(world).map(|(id, e, _)| (*id, e)).collect();
    flags.sort_by_key(|(id, _)| *id);
    if let Phase::Live { since } = phase
        && world.resource::<CtfState>().reset_for != Some(since)
    {
        world.resource_mut::<CtfState>().reset_for = Some(since);
        for (_, e) in &flags {
            send_home(world, *e);
        }
    }
    if !phase.allows_play() {
        return;
    }
    // Carriers carry; a dead or vanished carrier drops the flag where he was.
    for (_, e) in &flags {
        let Some(flag) = world.get::<Flag>(*e).copied() else { continue };
        let FlagState::Carried(slot) = flag.state else { continue };
        let body = world.resource::<Slots>().get(slot).and_then(|s| s.entity);
        // (alive and still marked as carrying, where the body is)
        let carrier = body.and_then(|b| {
            let alive = world.get::<Life>(b)? == &Life::Alive && world.get::<CarriesFlag>(b).is_some();
            Some((alive, world.get::<Body>(b)?.0.origin))
        });
        let let_go = allow_drop && body.and_then(|b| world.get::<CurrentCmd>(b)).is_some_and(|c| c.pressed(Buttons::DROP));
        match carrier {
            Some((true, o)) if !let_go => {
                if let Some(mut f) = world.get_mut::<Flag>(*e) {
                    f.origin = o;
                }
            }
            other => {
                take_from_carrier(world, slot);
                let map = world.resource::<MapRes>().0.world();
                let (at, held_off) = match other {
                    // Dropped on purpose: in front, clear of the dropper,
                    // who cannot take it back for a moment.
                    Some((true, o)) => {
                        let yaw = body.and_then(|b| world.get::<Body>(b)).map_or(0.0, |b| b.0.yaw);
                        (ahead_of(map, o, yaw), Some((slot, tick + hold_off_ticks)))
                    }
                    // Dead or gone: where the carrier was.
                    other => (crate::scene::drop_to_floor(map, other.map_or(flag.origin, |(_, o)| o), FLAG_HALF), None),
                };
                if let Some(mut f) = world.get_mut::<Flag>(*e) {
                    f.origin = at;
                    f.state = FlagState::Dropped { return_at: tick + return_ticks };
                    f.held_off = held_off;
                }
                world.write_message(GameEvent::Flag { kind: FlagEventKind::Dropped, team: flag.team, slot: Some(slot) });
            }
        }
    }
    // Dropped flags left alone long enough go home.
    for (_, e) in &flags {
        let Some(flag) = world.get::<Flag>(*e).copied() else { continue };
        if let FlagState::Dropped { return_at } = flag.state
            && tick >= return_at
        {
            send_home(world, *e);
            if phase.counts()
                && let Some(mut stats) = world.get_resource_mut::<crate::modes::ModeStats>()
            {
                stats.flag_timeouts += 1;
            }
            world.write_message(GameEvent::Flag { kind: FlagEventKind::Returned, team: flag.team, slot: None });
        }
    }
    // Touches, players in slot order.
    let mut players: Vec<(SlotId, Entity, Vec3)> = world
        .query::<(Entity, &Player, &Body, &Life)>()
        .iter(world)
        .filter(|(_, _, _, l)| **l == Life::Alive)
        .map(|(e, p, b, _)| (p.slot, e, b.0.origin))
        .collect();
    players.sort_by_key(|(s, ..)| *s);
    for (slot, body, origin) in players {
        let team = world.resource::<Slots>().get(slot).map_or(Team::Spectator, |s| s.team);
        if !matches!(team, Team::Red | Team::Blue) {
            continue;
        }
        if world.resource::<RulesState>().gametype == GameType::OneFlag {
            one_flag::touch(world, &flags, one_flag::Toucher { slot, body, origin, team }, phase, clock);
            continue;
        }
        for (_, e) in &flags {
            let Some(flag) = world.get::<Flag>(*e).copied() else { continue };
            if matches!(flag.state, FlagState::Carried(_)) || !overlaps(origin, flag.origin) {
                continue;
            }
            let carrying = world.get::<CarriesFlag>(body).copied();
            if flag.team != team {
                if carrying.is_none() && flag.takeable_by(slot, tick) {
                    if let Some(mut f) = world.get_mut::<Flag>(*e) {
                        f.state = FlagState::Carried(slot);
                        f.origin = origin;
                        f.held_off = None;
                    }
                    world.entity_mut(body).insert(CarriesFlag(flag.team));
                    world.write_message(GameEvent::Flag { kind: FlagEventKind::Taken, team: flag.team, slot: Some(slot) });
                }
            } else if matches!(flag.state, FlagState::Dropped { .. }) {
                send_home(world, *e);
                world.resource_mut::<CtfState>().last_return.insert(slot, tick);
                if phase.counts() {
                    if let Some(s) = world.resource_mut::<Slots>().get_mut(slot) {
                        s.score.returns += 1;
                    }
                    crate::modes::stats::bump(world, team, |t| &mut t.returns);
                }
                world.write_message(GameEvent::Flag { kind: FlagEventKind::Returned, team: flag.team, slot: Some(slot) });
            } else if let Some(CarriesFlag(enemy)) = carrying {
                // Own flag home: a capture.
                let enemy_flag = flags.iter().map(|(_, e)| *e).find(|e| world.get::<Flag>(*e).is_some_and(|f| f.team == enemy));
                if let Some(ef) = enemy_flag {
                    send_home(world, ef);
                }
                world.entity_mut(body).remove::<CarriesFlag>();
                capture(world, slot, team, enemy, tick, phase.counts(), clock);
            }
        }
    }
}

/// Where a flag dropped on purpose by a carrier at `origin` looking along
/// `yaw` (degrees) lands: [`DROP_AHEAD`] units in front, or short of a wall
/// there, on the floor below.
fn ahead_of(world: &quarry_map::CollisionWorld, origin: Vec3, yaw: f32) -> Vec3 {
    let forward = Vec3::new(yaw.to_radians().cos(), yaw.to_radians().sin(), 0.0);
    let tr = world.trace(origin, origin + forward * DROP_AHEAD, -FLAG_HALF, FLAG_HALF, quarry_map::Contents::SOLID);
    let at = if tr.start_solid || tr.all_solid { origin } else { tr.end };
    crate::scene::drop_to_floor(world, at, FLAG_HALF)
}

/// Feeds every flag's state to the tick hash, by `NetId`.
pub(crate) fn hash_flags(flags: Query<(&NetId, &Flag)>, mut hash: ResMut<TickHash>) {
    let mut rows: Vec<_> = flags.iter().collect();
    rows.sort_by_key(|(id, _)| **id);
    hash.mark("flags");
    let h = &mut hash.building;
    for (id, f) in rows {
        h.u32(id.0);
        h.vec3(f.origin);
        match f.state {
            FlagState::Home => h.u32(0),
            FlagState::Carried(s) => {
                h.u32(1);
                h.u32(u32::from(s.0));
            }
            FlagState::Dropped { return_at } => {
                h.u32(2);
                h.u32(return_at);
            }
        }
        // Only a drop on purpose sets it: matches without one hash as before.
        if let Some((slot, until)) = f.held_off {
            h.u32(3);
            h.u32(u32::from(slot.0));
            h.u32(until);
        }
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn flag_lines_read_naturally() {
        assert_eq!(flag_line(FlagEventKind::Captured, Team::Blue, Some("Rook")), "Rook captured the blue flag!");
        assert_eq!(flag_line(FlagEventKind::Returned, Team::Red, None), "The red flag returned to base.");
    }
}
