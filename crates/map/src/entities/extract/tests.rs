//! Entity table tests: raw key/values in, typed entities out.

use super::*;
use crate::entities::items::{ArmorKind, Powerup, Weapon};
use crate::entities::{SpawnKind, Team};

fn raw(keys: &[(&str, &str)]) -> RawEntity {
    RawEntity { line: 1, keys: keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), primitives: Vec::new() }
}

fn one(game: Game, keys: &[(&str, &str)]) -> (Entity, Vec<MapWarning>) {
    let mut w = Vec::new();
    let mut e = extract_entities(&[raw(keys)], game, "t.map", crate::DEFAULT_WORLD_LIMIT, &mut w).entities;
    (e.remove(0), w)
}

fn item_of(game: Game, keys: &[(&str, &str)]) -> ItemKind {
    match one(game, keys).0.kind {
        EntityKind::Item(i) => i.kind,
        other => panic!("not an item: {other:?}"),
    }
}

#[test]
fn health_spawnflags_depend_on_the_game() {
    let q1 = |f: &str| item_of(Game::Quake1, &[("classname", "item_health"), ("spawnflags", f)]);
    assert_eq!(q1("0"), ItemKind::Health(HealthKind::Medium));
    assert_eq!(q1("1"), ItemKind::Health(HealthKind::Rotten));
    assert_eq!(q1("2"), ItemKind::Health(HealthKind::Mega));
    let (e, _) = one(Game::Quake3, &[("classname", "item_health"), ("spawnflags", "1")]);
    assert_eq!(e.kind, EntityKind::Item(Item { kind: ItemKind::Health(HealthKind::Medium), suspended: true }));
}

#[test]
fn both_games_items() {
    assert_eq!(item_of(Game::Quake1, &[("classname", "item_armorInv")]), ItemKind::Armor(ArmorKind::Red));
    assert_eq!(item_of(Game::Quake3, &[("classname", "item_armor_combat")]), ItemKind::Armor(ArmorKind::Yellow));
    assert_eq!(item_of(Game::Quake1, &[("classname", "weapon_supernailgun")]), ItemKind::Weapon(Weapon::SuperNailgun));
    assert_eq!(
        item_of(Game::Quake1, &[("classname", "item_rockets"), ("spawnflags", "1")]),
        ItemKind::Ammo { ammo: AmmoKind::Rockets, large: true }
    );
    assert_eq!(
        item_of(Game::Quake1, &[("classname", "item_weapon"), ("spawnflags", "6")]),
        ItemKind::Ammo { ammo: AmmoKind::Rockets, large: false }
    );
    assert_eq!(item_of(Game::Quake1, &[("classname", "item_artifact_super_damage")]), ItemKind::Powerup(Powerup::Quad));
    assert_eq!(item_of(Game::Quake3, &[("classname", "item_key1")]), ItemKind::Key(KeyKind::Silver));
}

#[test]
fn spawns() {
    let (e, w) = one(Game::Quake3, &[("classname", "team_CTF_blueplayer"), ("origin", "1 2 3"), ("angle", "90")]);
    let EntityKind::PlayerSpawn(s) = e.kind else { panic!("{:?}", e.kind) };
    assert_eq!(s.kind, SpawnKind::Team { team: Team::Blue, initial: true });
    assert_eq!((s.spawn_origin, s.yaw), (Vec3::new(1.0, 2.0, 3.0), 90.0));
    assert!(w.is_empty());
    let (_, w) = one(Game::Quake3, &[("classname", "info_player_deathmatch")]);
    assert_eq!(w.len(), 1, "a spawn without origin warns");
}

#[test]
fn movers_use_game_defaults_and_keys() {
    let (e, _) = one(Game::Quake1, &[("classname", "func_door"), ("angle", "-1"), ("spawnflags", "8"), ("targetname", "d")]);
    let EntityKind::Mover(m) = e.kind else { panic!() };
    assert_eq!((m.kind, m.speed, m.wait, m.lip), (MoverKind::Door, 100.0, 3.0, 8.0));
    assert_eq!(m.move_dir, Vec3::Z);
    assert_eq!(m.key, Some(KeyKind::Gold));
    assert!(m.triggered);
    let (e, _) = one(Game::Quake3, &[("classname", "func_door"), ("speed", "200"), ("lip", "0"), ("wait", "-1")]);
    let EntityKind::Mover(m) = e.kind else { panic!() };
    assert_eq!((m.speed, m.wait, m.lip, m.key), (200.0, -1.0, 0.0, None));
    let (e, _) = one(Game::Quake3, &[("classname", "func_bobbing"), ("spawnflags", "2"), ("height", "48")]);
    let EntityKind::Mover(m) = e.kind else { panic!() };
    assert_eq!((m.move_dir, m.height, m.speed), (Vec3::Y, Some(48.0), 4.0));
}

#[test]
fn jump_pads_by_game() {
    let (e, _) = one(Game::Quake3, &[("classname", "trigger_push"), ("target", "apex")]);
    assert_eq!(e.kind, EntityKind::JumpPad(JumpPad { push: Push::Toward { target: None, target_origin: None } }));
    let (e, _) = one(Game::Quake1, &[("classname", "trigger_push"), ("speed", "60"), ("angle", "-1")]);
    assert_eq!(e.kind, EntityKind::JumpPad(JumpPad { push: Push::Velocity(Vec3::Z * 600.0) }));
}

#[test]
fn unknown_classes_warn_once_and_stay_generic() {
    let mut w = Vec::new();
    let raws = [raw(&[("classname", "monster_ogre")]), raw(&[("classname", "Monster_Ogre")]), raw(&[("origin", "0 0 0")])];
    let Extracted { entities: ents, classes, .. } = extract_entities(&raws, Game::Quake1, "t.map", crate::DEFAULT_WORLD_LIMIT, &mut w);
    assert!(ents.iter().all(|e| e.kind == EntityKind::Unknown));
    assert_eq!(classes, vec![None, None, None]);
    assert_eq!(w.len(), 2, "one unknown-class warning and one missing classname: {w:?}");
    assert!(matches!(w[0].kind, WarningKind::UnknownClass { .. }));
    assert!(matches!(w[1].kind, WarningKind::MissingClassname));
    assert_eq!(w[1].location.entity, Some(2));
}

#[test]
fn classes_of_modes_quarry_does_not_model_say_so_once() {
    let mut w = Vec::new();
    let raws = [raw(&[("classname", "team_redobelisk")]), raw(&[("classname", "team_redobelisk")]), raw(&[("classname", "domination_point")])];
    let Extracted { entities: ents, .. } = extract_entities(&raws, Game::Quake3, "t.map", crate::DEFAULT_WORLD_LIMIT, &mut w);
    assert!(ents.iter().all(|e| e.kind == EntityKind::Decoration));
    assert_eq!(w.len(), 2, "once per class: {w:?}");
    assert!(w.iter().all(|w| matches!(w.kind, WarningKind::NotModelled { .. })));
    let text = w[0].to_string();
    assert!(text.contains("team_redobelisk") && text.contains("Overload") && text.contains("does not model"), "{text}");
}

#[test]
fn hurt_and_world_info() {
    let (e, _) = one(Game::Quake3, &[("classname", "trigger_hurt"), ("dmg", "1000")]);
    assert_eq!(e.kind, EntityKind::Hurt { damage: 1000.0 });
    let raws = [raw(&[("classname", "worldspawn"), ("message", "The Abandoned Base"), ("gravity", "666"), ("music", "x")])];
    let mut w = Vec::new();
    let ents = extract_entities(&raws, Game::Quake3, "t.map", crate::DEFAULT_WORLD_LIMIT, &mut w).entities;
    let info = world_info(&raws, &ents, "t.map", &mut w);
    assert_eq!(info.message.as_deref(), Some("The Abandoned Base"));
    assert_eq!(info.gravity, Some(666.0));
}

#[test]
fn an_entity_outside_the_world_is_dropped_in_its_slot() {
    let raws = [
        raw(&[("classname", "worldspawn"), ("origin", "0 0 1e9")]),
        raw(&[("classname", "info_player_deathmatch"), ("origin", "1000000 0 24"), ("targetname", "far")]),
        raw(&[("classname", "info_player_deathmatch"), ("origin", "65536 -65536 24")]),
    ];
    let mut w = Vec::new();
    let out = extract_entities(&raws, Game::Quake3, "t.map", crate::DEFAULT_WORLD_LIMIT, &mut w);
    assert_eq!(out.dropped, vec![1], "worldspawn's origin means nothing; the limit itself is inside");
    let far = &out.entities[1];
    assert_eq!((far.kind.clone(), far.origin, far.targetname.clone()), (EntityKind::Unknown, None, None));
    assert_eq!(out.classes[1], None);
    assert!(matches!(out.entities[2].kind, EntityKind::PlayerSpawn(_)));
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].location.entity, Some(1));
    let text = w[0].to_string();
    assert!(text.contains("info_player_deathmatch") && text.contains("1000000") && text.contains("65536"), "{text}");
}
