//! Clan Arena's rules outside the round cycle ([`super::rounds`]).
//!
//! Everyone spawns with every weapon of the weapon table at its `max_ammo`
//! ([`WeaponTable::full_inventory`](crate::weapons::WeaponTable::full_inventory),
//! installed as the spawn loadout), [`CA_HEALTH`] health and [`CA_ARMOR`]
//! armor; map items do not spawn; a player never hurts itself (rockets
//! still push, so rocket jumps work) and falling does not hurt; the dead
//! stay dead until the next round.

use super::ModeDef;
use crate::events::MeansOfDeath;
use crate::mode_rules::{ModeRules, SpawnStats};
use crate::rules::GameType;

/// The registry entry.
pub(crate) const MODE: ModeDef = ModeDef { gametype: GameType::ClanArena, rules, install: super::rounds::install, check_map: |_| Ok(()) };

fn rules(rules: &mut ModeRules) {
    super::rounds::rules(rules);
    rules.full_loadout = true;
    rules.spawn_stats = Some(SpawnStats { health: CA_HEALTH, armor: CA_ARMOR });
    rules.map_items = false;
    rules.armor_decays = false;
    rules.ignores_damage = ignores_damage;
}

/// Health at spawn: 100, no bonus to decay (Quake 3 CA mods spawn at 100).
pub(super) const CA_HEALTH: i32 = 100;
/// Armor at spawn: 100, so a full fight is 200 points of damage, as in the
/// OSP/CPMA Clan Arena defaults.
pub(super) const CA_ARMOR: i32 = 100;

/// Whether damage of this kind, from `attacker` to `target`, is ignored in
/// Clan Arena (after knockback is applied): self damage and falling.
pub(super) fn ignores_damage(same_player: bool, means: MeansOfDeath) -> bool {
    same_player || means == MeansOfDeath::Falling
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_damage_and_falling_are_ignored_others_are_not() {
        assert!(ignores_damage(true, MeansOfDeath::Splash(5)));
        assert!(ignores_damage(false, MeansOfDeath::Falling));
        assert!(!ignores_damage(false, MeansOfDeath::Splash(5)));
        assert!(!ignores_damage(false, MeansOfDeath::Lava));
    }
}
