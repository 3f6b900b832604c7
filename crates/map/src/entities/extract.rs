//! Raw entities to typed [`Entity`] values through the class table.

use std::collections::HashSet;

use glam::Vec3;

use super::classes::{Class, ItemClass, classify};
use super::items::{AmmoKind, HealthKind, Item, ItemKind, KeyKind};
use super::keys::Keys;
use super::movers::{Mover, MoverKind, SecretMoves};
use super::{Entity, EntityId, EntityKind, Game, JumpPad, PlayerSpawn, Push, Teleporter, Trigger, TriggerKind, WorldInfo};
use crate::options::within_world;
use crate::parse::RawEntity;
use crate::warning::{MapWarning, WarningKind};

/// Quake 1 `trigger_push` speed when the map gives none (`triggers.qc`).
const Q1_PUSH_SPEED: f32 = 1000.0;
/// Quake 1 multiplies a push's speed by 10 (`other.velocity = self.speed * self.movedir * 10`).
const Q1_PUSH_SCALE: f32 = 10.0;
/// `trigger_hurt` damage when the map gives none (both games).
const HURT_DAMAGE: f32 = 5.0;

/// The typed entities of a file, in file order.
pub(crate) struct Extracted {
    /// One per raw entity.
    pub(crate) entities: Vec<Entity>,
    /// Each entity's class, `None` for unknown and dropped ones.
    pub(crate) classes: Vec<Option<Class>>,
    /// Indices of entities dropped for lying outside the world limit: the
    /// caller must not build their brushes.
    pub(crate) dropped: Vec<usize>,
}

/// Types every entity; an entity (other than worldspawn) whose origin is
/// beyond `world_limit` on some axis is dropped with a warning: it keeps
/// its slot as [`EntityKind::Unknown`] with no origin, names or keys read.
/// Warnings go to `warnings`.
pub(crate) fn extract_entities(
    raw: &[RawEntity],
    game: Game,
    file: &str,
    world_limit: f32,
    warnings: &mut Vec<MapWarning>,
) -> Extracted {
    let mut unknown_seen = HashSet::new();
    let mut entities = Vec::with_capacity(raw.len());
    let mut classes = Vec::with_capacity(raw.len());
    let mut dropped = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let mut keys = Keys::new(r, file, i);
        let classname = keys.string("classname").unwrap_or_default();
        let class = classify(&classname);
        let origin = keys.vec3("origin");
        if let Some(o) = origin.filter(|o| class != Some(Class::World) && !within_world(f64::from(o.abs().max_element()), world_limit)) {
            keys.warn(WarningKind::OutsideWorld { classname: classname.clone(), origin: o, limit: world_limit });
            entities.push(Entity {
                id: EntityId(i as u32),
                classname,
                kind: EntityKind::Unknown,
                origin: None,
                spawnflags: 0,
                targetname: None,
                target: None,
                targets: Vec::new(),
                killtarget: None,
                delay: 0.0,
                bounds: None,
                keys: r.keys.clone(),
                line: r.line,
            });
            classes.push(None);
            dropped.push(i);
            warnings.append(&mut keys.warnings);
            continue;
        }
        if classname.is_empty() {
            keys.warn(WarningKind::MissingClassname);
        } else if class.is_none() && unknown_seen.insert(classname.to_ascii_lowercase()) {
            keys.warn(WarningKind::UnknownClass { classname: classname.clone() });
        } else if let Some(Class::NotModelled(mode)) = class
            && unknown_seen.insert(classname.to_ascii_lowercase())
        {
            keys.warn(WarningKind::NotModelled { classname: classname.clone(), mode });
        }
        let spawnflags = keys.spawnflags();
        let kind = match class {
            Some(c) => kind_of(c, game, spawnflags, origin, &mut keys),
            None => EntityKind::Unknown,
        };
        entities.push(Entity {
            id: EntityId(i as u32),
            classname,
            kind,
            origin,
            spawnflags,
            targetname: keys.string("targetname"),
            target: keys.string("target"),
            targets: Vec::new(),
            killtarget: keys.string("killtarget"),
            delay: keys.f32_or("delay", 0.0).max(0.0),
            bounds: None,
            keys: r.keys.clone(),
            line: r.line,
        });
        classes.push(class);
        warnings.append(&mut keys.warnings);
    }
    Extracted { entities, classes, dropped }
}

fn kind_of(class: Class, game: Game, spawnflags: u32, origin: Option<Vec3>, keys: &mut Keys<'_>) -> EntityKind {
    match class {
        Class::World => EntityKind::World,
        Class::Group => EntityKind::Group,
        Class::Spawn(kind) => {
            if origin.is_none() {
                keys.warn(WarningKind::BadValue { key: "origin".into(), value: keys.str("origin").unwrap_or("").into() });
            }
            let spawn_origin = origin.unwrap_or(Vec3::ZERO);
            EntityKind::PlayerSpawn(PlayerSpawn { kind, yaw: keys.yaw(), spawn_origin, fits: false })
        }
        Class::Intermission => EntityKind::Intermission,
        Class::Item(ic) => EntityKind::Item(Item {
            kind: item_kind(ic, game, spawnflags),
            suspended: game == Game::Quake3 && spawnflags & 1 != 0,
        }),
        Class::JumpPad => EntityKind::JumpPad(jump_pad(keys)),
        Class::Teleporter => EntityKind::Teleporter(Teleporter { target: None, destination: None }),
        Class::Destination => EntityKind::Destination,
        Class::Mover(kind) => EntityKind::Mover(mover(kind, game, spawnflags, keys)),
        Class::Flag(team) => EntityKind::Flag(team),
        Class::Hurt => EntityKind::Hurt { damage: keys.nonzero_f32_or("dmg", HURT_DAMAGE) },
        Class::Trigger(kind) => EntityKind::Trigger(trigger(kind, game, spawnflags, keys)),
        Class::Static => EntityKind::Static,
        Class::Illusionary => EntityKind::Illusionary,
        Class::Decoration | Class::NotModelled(_) => EntityKind::Decoration,
    }
}

fn item_kind(ic: ItemClass, game: Game, flags: u32) -> ItemKind {
    match ic {
        ItemClass::Fixed(kind) => kind,
        ItemClass::Health => ItemKind::Health(match game {
            Game::Quake1 if flags & 2 != 0 => HealthKind::Mega,
            Game::Quake1 if flags & 1 != 0 => HealthKind::Rotten,
            _ => HealthKind::Medium,
        }),
        ItemClass::Q1Ammo(ammo) => ItemKind::Ammo { ammo, large: flags & 1 != 0 },
        ItemClass::Q1WeaponBox => {
            let ammo = if flags & 2 != 0 {
                AmmoKind::Rockets
            } else if flags & 4 != 0 {
                AmmoKind::Nails
            } else {
                AmmoKind::Shells
            };
            ItemKind::Ammo { ammo, large: flags & 8 != 0 }
        }
    }
}

/// Quake 1 `trigger_multiple` wait (`triggers.qc`).
const Q1_TRIGGER_WAIT: f32 = 0.2;
/// Quake 3 `trigger_multiple` wait (`g_trigger.c`).
const Q3_TRIGGER_WAIT: f32 = 0.5;
/// Quake 1 `SPAWNFLAG_NOTOUCH`.
const Q1_NOTOUCH: u32 = 1;

fn trigger(kind: TriggerKind, game: Game, flags: u32, keys: &mut Keys<'_>) -> Trigger {
    let wait = match (kind, game) {
        (TriggerKind::Multiple, Game::Quake1) => keys.nonzero_f32_or("wait", Q1_TRIGGER_WAIT),
        (TriggerKind::Multiple, Game::Quake3) => keys.nonzero_f32_or("wait", Q3_TRIGGER_WAIT),
        _ => -1.0,
    };
    let count = match kind {
        TriggerKind::Counter => keys.nonzero_f32_or("count", 2.0).max(1.0) as u32,
        _ => 0,
    };
    let touchable = matches!(kind, TriggerKind::Once | TriggerKind::Multiple);
    Trigger { kind, wait, count, no_touch: touchable && game == Game::Quake1 && flags & Q1_NOTOUCH != 0 }
}

fn jump_pad(keys: &mut Keys<'_>) -> JumpPad {
    if keys.string("target").is_some() {
        return JumpPad { push: Push::Toward { target: None, target_origin: None } };
    }
    let speed = keys.nonzero_f32_or("speed", Q1_PUSH_SPEED);
    JumpPad { push: Push::Velocity(keys.move_dir() * speed * Q1_PUSH_SCALE) }
}

fn mover(kind: MoverKind, game: Game, flags: u32, keys: &mut Keys<'_>) -> Mover {
    let dir = match kind {
        MoverKind::Plat => Vec3::Z,
        MoverKind::Bobbing if flags & 1 != 0 => Vec3::X,
        MoverKind::Bobbing if flags & 2 != 0 => Vec3::Y,
        MoverKind::Bobbing => Vec3::Z,
        _ => keys.move_dir(),
    };
    let mut m = Mover::with_defaults(kind, game, dir);
    m.speed = keys.nonzero_f32_or("speed", m.speed);
    // Quake 1 treats 0 as unset for wait and lip; Quake 3 takes an explicit 0.
    (m.wait, m.lip) = match game {
        Game::Quake1 => (keys.nonzero_f32_or("wait", m.wait), keys.nonzero_f32_or("lip", m.lip)),
        Game::Quake3 => (keys.f32_or("wait", m.wait), keys.f32_or("lip", m.lip)),
    };
    m.height = keys.opt_f32("height");
    m.damage = keys.f32_or("dmg", m.damage);
    m.health = keys.f32_or("health", 0.0);
    m.phase = keys.f32_or("phase", 0.0);
    m.team = keys.string("team");
    m.triggered = keys.string("targetname").is_some();
    m.start_open = kind == MoverKind::Door && flags & 1 != 0;
    if game == Game::Quake1 && kind == MoverKind::Door {
        m.key = match flags {
            f if f & 8 != 0 => Some(KeyKind::Gold),
            f if f & 16 != 0 => Some(KeyKind::Silver),
            _ => None,
        };
    }
    if kind == MoverKind::SecretDoor {
        let secret = SecretMoves::new(keys.yaw(), flags, keys.opt_f32("t_width"), keys.opt_f32("t_length"));
        // Quake 1: shot open unless only a trigger opens it; any damage does.
        if !m.triggered || flags & SecretMoves::YES_SHOOT != 0 {
            m.health = m.health.max(1.0);
        }
        m.secret = Some(secret);
    }
    m
}

/// The worldspawn keys Quarry reads (the first worldspawn's).
pub(crate) fn world_info(raw: &[RawEntity], entities: &[Entity], file: &str, warnings: &mut Vec<MapWarning>) -> WorldInfo {
    let Some(i) = entities.iter().position(|e| e.kind == EntityKind::World) else {
        return WorldInfo::default();
    };
    let Some(r) = raw.get(i) else {
        return WorldInfo::default();
    };
    let mut keys = Keys::new(r, file, i);
    let info = WorldInfo { message: keys.string("message"), gravity: keys.opt_f32("gravity") };
    warnings.append(&mut keys.warnings);
    info
}

#[cfg(test)]
mod tests;
