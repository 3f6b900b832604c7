//! THE entity class table: every class name Quarry understands, Quake 1 and
//! Quake 3 alike, mapped to what it is. A name found in neither the exact
//! table nor the prefix table is unknown (warned once, kept as generic).
//!
//! To support a new class, add one row here; the extractor turns the class
//! into typed data and the world builder decides what its brushes become
//! from [`Class::brush_role`].

use super::items::{AmmoKind as A, ArmorKind, HealthKind, Holdable, ItemKind, KeyKind, Powerup as P, Weapon as W};
use super::movers::MoverKind;
use super::{SpawnKind, Team, TriggerKind};

/// How an item class is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ItemClass {
    /// Always this item.
    Fixed(ItemKind),
    /// `item_health`: Quake 1 reads spawnflags 1 rotten, 2 mega; Quake 3 it is medium.
    Health,
    /// A Quake 1 ammo box whose spawnflag 1 makes it large.
    Q1Ammo(A),
    /// Quake 1 `item_weapon`, an early ammo box: spawnflags 1 shells,
    /// 2 rockets, 4 nails, 8 large.
    Q1WeaponBox,
}

/// What a class name is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Class {
    /// `worldspawn`.
    World,
    /// Brushes merged into the world by the compiler (`func_group`, `func_detail`).
    Group,
    /// A player spawn point.
    Spawn(SpawnKind),
    /// Where the camera sits between matches.
    Intermission,
    /// A pickup.
    Item(ItemClass),
    /// `trigger_push`.
    JumpPad,
    /// `trigger_teleport`.
    Teleporter,
    /// A point that teleporters and jump pads aim at.
    Destination,
    /// A moving brush entity.
    Mover(MoverKind),
    /// A CTF flag.
    Flag(Team),
    /// `trigger_hurt`.
    Hurt,
    /// Another trigger.
    Trigger(TriggerKind),
    /// A solid brush entity that does not move (`func_wall`).
    Static,
    /// A visible but non-solid brush entity (`func_illusionary`).
    Illusionary,
    /// Known and without gameplay: lights, sounds, models, scripting targets.
    Decoration,
    /// Known, with gameplay Quarry does not model (the game mode it
    /// belongs to is named): reported once, kept as a decoration.
    NotModelled(&'static str),
}

/// What an entity's brushes become in the collision world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BrushRole {
    /// Static geometry owned by nobody (worldspawn, groups).
    World,
    /// Static geometry owned by the entity (traces report it).
    Owned,
    /// A mover the sim can offset.
    Mover,
    /// A trigger volume (contents `TRIGGER`), whatever the textures say.
    Trigger,
    /// No collision at all.
    None,
}

impl Class {
    /// What this class's brushes become.
    pub(crate) fn brush_role(self) -> BrushRole {
        match self {
            Class::World | Class::Group => BrushRole::World,
            Class::Mover(_) => BrushRole::Mover,
            Class::JumpPad | Class::Teleporter | Class::Hurt | Class::Trigger(_) => BrushRole::Trigger,
            Class::Illusionary => BrushRole::None,
            _ => BrushRole::Owned,
        }
    }
}

const fn item(kind: ItemKind) -> Class {
    Class::Item(ItemClass::Fixed(kind))
}
const fn weapon(w: W) -> Class {
    item(ItemKind::Weapon(w))
}
const fn ammo(a: A) -> Class {
    item(ItemKind::Ammo { ammo: a, large: false })
}
const fn powerup(p: P) -> Class {
    item(ItemKind::Powerup(p))
}
const fn team_spawn(team: Team, initial: bool) -> Class {
    Class::Spawn(SpawnKind::Team { team, initial })
}

/// Exact class names, lower case.
const EXACT: &[(&str, Class)] = &[
    ("worldspawn", Class::World),
    ("func_group", Class::Group),
    ("func_detail", Class::Group),
    ("func_detail_wall", Class::Group),
    ("func_detail_fence", Class::Group),
    // Spawns.
    ("info_player_deathmatch", Class::Spawn(SpawnKind::Deathmatch)),
    ("info_player_start", Class::Spawn(SpawnKind::Start)),
    ("team_ctf_redplayer", team_spawn(Team::Red, true)),
    ("team_ctf_blueplayer", team_spawn(Team::Blue, true)),
    ("team_ctf_redspawn", team_spawn(Team::Red, false)),
    ("team_ctf_bluespawn", team_spawn(Team::Blue, false)),
    ("info_player_team1", team_spawn(Team::Red, false)),
    ("info_player_team2", team_spawn(Team::Blue, false)),
    ("info_intermission", Class::Intermission),
    ("info_player_intermission", Class::Intermission),
    // Health and armor.
    ("item_health_small", item(ItemKind::Health(HealthKind::Small))),
    ("item_health", Class::Item(ItemClass::Health)),
    ("item_health_large", item(ItemKind::Health(HealthKind::Large))),
    ("item_health_mega", item(ItemKind::Health(HealthKind::Mega))),
    ("item_armor_shard", item(ItemKind::Armor(ArmorKind::Shard))),
    ("item_armor_jacket", item(ItemKind::Armor(ArmorKind::Green))),
    ("item_armor_combat", item(ItemKind::Armor(ArmorKind::Yellow))),
    ("item_armor_body", item(ItemKind::Armor(ArmorKind::Red))),
    ("item_armor1", item(ItemKind::Armor(ArmorKind::Green))),
    ("item_armor2", item(ItemKind::Armor(ArmorKind::Yellow))),
    ("item_armorinv", item(ItemKind::Armor(ArmorKind::Red))),
    // Weapons, both games.
    ("weapon_gauntlet", weapon(W::Gauntlet)),
    ("weapon_machinegun", weapon(W::Machinegun)),
    ("weapon_shotgun", weapon(W::Shotgun)),
    ("weapon_supershotgun", weapon(W::SuperShotgun)),
    ("weapon_nailgun", weapon(W::Nailgun)),
    ("weapon_supernailgun", weapon(W::SuperNailgun)),
    ("weapon_grenadelauncher", weapon(W::GrenadeLauncher)),
    ("weapon_rocketlauncher", weapon(W::RocketLauncher)),
    ("weapon_lightning", weapon(W::Lightning)),
    ("weapon_railgun", weapon(W::Railgun)),
    ("weapon_plasmagun", weapon(W::PlasmaGun)),
    ("weapon_bfg", weapon(W::Bfg)),
    ("weapon_prox_launcher", weapon(W::ProxLauncher)),
    ("weapon_chaingun", weapon(W::Chaingun)),
    // Ammo: Quake 3 names, then Quake 1 boxes.
    ("ammo_shells", ammo(A::Shells)),
    ("ammo_bullets", ammo(A::Bullets)),
    ("ammo_grenades", ammo(A::Grenades)),
    ("ammo_cells", ammo(A::Cells)),
    ("ammo_lightning", ammo(A::Lightning)),
    ("ammo_rockets", ammo(A::Rockets)),
    ("ammo_slugs", ammo(A::Slugs)),
    ("ammo_bfg", ammo(A::Bfg)),
    ("ammo_nails", ammo(A::Nails)),
    ("ammo_mines", ammo(A::Mines)),
    ("ammo_belt", ammo(A::Belt)),
    ("item_shells", Class::Item(ItemClass::Q1Ammo(A::Shells))),
    ("item_spikes", Class::Item(ItemClass::Q1Ammo(A::Nails))),
    ("item_rockets", Class::Item(ItemClass::Q1Ammo(A::Rockets))),
    ("item_cells", Class::Item(ItemClass::Q1Ammo(A::Cells))),
    ("item_weapon", Class::Item(ItemClass::Q1WeaponBox)),
    // Powerups, holdables, keys.
    ("item_quad", powerup(P::Quad)),
    ("item_haste", powerup(P::Haste)),
    ("item_regen", powerup(P::Regeneration)),
    ("item_invis", powerup(P::Invisibility)),
    ("item_enviro", powerup(P::BattleSuit)),
    ("item_flight", powerup(P::Flight)),
    ("item_artifact_super_damage", powerup(P::Quad)),
    ("item_artifact_invulnerability", powerup(P::Invulnerability)),
    ("item_artifact_invisibility", powerup(P::Invisibility)),
    ("item_artifact_envirosuit", powerup(P::EnviroSuit)),
    ("holdable_teleporter", item(ItemKind::Holdable(Holdable::Teleporter))),
    ("holdable_medkit", item(ItemKind::Holdable(Holdable::Medkit))),
    ("item_key1", item(ItemKind::Key(KeyKind::Silver))),
    ("item_key2", item(ItemKind::Key(KeyKind::Gold))),
    // Jump pads, teleporters and what they aim at.
    ("trigger_push", Class::JumpPad),
    ("trigger_teleport", Class::Teleporter),
    ("misc_teleporter_dest", Class::Destination),
    ("info_teleport_destination", Class::Destination),
    ("target_position", Class::Destination),
    ("target_push", Class::Destination),
    ("info_notnull", Class::Destination),
    // Movers.
    ("func_door", Class::Mover(MoverKind::Door)),
    ("func_door_secret", Class::Mover(MoverKind::SecretDoor)),
    ("func_plat", Class::Mover(MoverKind::Plat)),
    ("func_bobbing", Class::Mover(MoverKind::Bobbing)),
    ("func_button", Class::Mover(MoverKind::Button)),
    ("func_train", Class::Mover(MoverKind::Train)),
    ("func_rotating", Class::Mover(MoverKind::Rotating)),
    ("func_pendulum", Class::Mover(MoverKind::Pendulum)),
    // CTF.
    ("team_ctf_redflag", Class::Flag(Team::Red)),
    ("team_ctf_blueflag", Class::Flag(Team::Blue)),
    ("team_ctf_neutralflag", Class::Flag(Team::Neutral)),
    // Other triggers.
    ("trigger_hurt", Class::Hurt),
    ("trigger_once", Class::Trigger(TriggerKind::Once)),
    ("trigger_secret", Class::Trigger(TriggerKind::Once)),
    ("trigger_multiple", Class::Trigger(TriggerKind::Multiple)),
    ("trigger_relay", Class::Trigger(TriggerKind::Relay)),
    ("trigger_always", Class::Trigger(TriggerKind::Relay)),
    ("trigger_counter", Class::Trigger(TriggerKind::Counter)),
    ("trigger_changelevel", Class::Trigger(TriggerKind::ChangeLevel)),
    // Static and non-solid brush entities.
    ("func_wall", Class::Static),
    ("func_static", Class::Static),
    ("func_episodegate", Class::Static),
    ("func_bossgate", Class::Static),
    ("func_illusionary", Class::Illusionary),
    ("func_detail_illusionary", Class::Illusionary),
    // Known, no gameplay.
    ("info_null", Class::Decoration),
    ("info_player_coop", Class::Decoration),
    ("path_corner", Class::Decoration),
    ("misc_model", Class::Decoration),
    ("misc_portal_surface", Class::Decoration),
    ("misc_portal_camera", Class::Decoration),
    ("misc_explobox", Class::Decoration),
    ("misc_explobox2", Class::Decoration),
    ("air_bubbles", Class::Decoration),
    ("func_timer", Class::Decoration),
    ("item_sigil", Class::Decoration),
    // Known, not modelled: the game modes they belong to are not Quarry's.
    ("team_redobelisk", Class::NotModelled("Team Arena's Overload and Harvester")),
    ("team_blueobelisk", Class::NotModelled("Team Arena's Overload and Harvester")),
    ("team_neutralobelisk", Class::NotModelled("Team Arena's Harvester")),
    ("domination_point", Class::NotModelled("OpenArena's Domination")),
];

/// Class-name prefixes, tried after the exact table.
const PREFIXES: &[(&str, Class)] = &[
    ("light", Class::Decoration),
    ("ambient_", Class::Decoration),
    ("target_", Class::Decoration),
    ("shooter_", Class::Decoration),
    ("info_", Class::Decoration),
];

/// Looks up a class name (ASCII case-insensitive); `None` if unknown.
pub(crate) fn classify(classname: &str) -> Option<Class> {
    let lower = classname.to_ascii_lowercase();
    EXACT
        .iter()
        .find(|(name, _)| *name == lower)
        .or_else(|| PREFIXES.iter().find(|(prefix, _)| lower.starts_with(prefix)))
        .map(|&(_, class)| class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_games_and_case() {
        assert_eq!(classify("team_CTF_redflag"), Some(Class::Flag(Team::Red)));
        assert!(matches!(classify("team_redobelisk"), Some(Class::NotModelled(_))));
        assert_eq!(classify("item_armorInv"), Some(item(ItemKind::Armor(ArmorKind::Red))));
        assert_eq!(classify("item_armor_body"), classify("item_armorinv"));
        assert_eq!(classify("item_artifact_super_damage"), classify("item_quad"));
        assert_eq!(classify("item_spikes"), Some(Class::Item(ItemClass::Q1Ammo(A::Nails))));
        assert_eq!(classify("info_player_start"), Some(Class::Spawn(SpawnKind::Start)));
        assert_eq!(classify("team_CTF_bluespawn"), Some(team_spawn(Team::Blue, false)));
        assert_eq!(classify("func_bobbing"), Some(Class::Mover(MoverKind::Bobbing)));
    }

    #[test]
    fn prefixes_and_unknowns() {
        assert_eq!(classify("light_torch_small_walltorch"), Some(Class::Decoration));
        assert_eq!(classify("target_location"), Some(Class::Decoration));
        assert_eq!(classify("target_position"), Some(Class::Destination), "exact beats prefix");
        assert_eq!(classify("monster_ogre"), None);
        assert_eq!(classify("monster_shambler"), None);
        assert_eq!(classify("domination_point"), Some(Class::NotModelled("OpenArena's Domination")));
    }

    #[test]
    fn names_are_lower_case_and_unique() {
        for (i, (name, _)) in EXACT.iter().enumerate() {
            assert_eq!(*name, name.to_ascii_lowercase());
            assert!(EXACT[..i].iter().all(|(n, _)| n != name), "duplicate {name}");
        }
    }

    #[test]
    fn brush_roles() {
        assert_eq!(Class::World.brush_role(), BrushRole::World);
        assert_eq!(Class::Group.brush_role(), BrushRole::World);
        assert_eq!(Class::JumpPad.brush_role(), BrushRole::Trigger);
        assert_eq!(Class::Mover(MoverKind::Door).brush_role(), BrushRole::Mover);
        assert_eq!(Class::Illusionary.brush_role(), BrushRole::None);
        assert_eq!(Class::Static.brush_role(), BrushRole::Owned);
    }
}
