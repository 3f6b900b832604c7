//! Once a second (Quake 3 `ClientTimerActions`): health above the maximum
//! and armor above the maximum health count down, and regeneration heals
//! instead of decaying. Clan Arena's loadout armor does not decay (a
//! handicapped player's maximum health is below it, and nothing in that
//! mode can top it up again). Also the haste helper for movement (haste's fire
//! rate is the weapons' `HASTE_FIRE_SCALE`).

use bevy_ecs::prelude::*;
use quarry_movement::pmove::MoveParams;

use super::{ItemCatalog, ItemRules};
use crate::clock::MatchClock;
use crate::components::{Armor, Health, Life, Powerups};
use crate::mode_rules::ModeRules;
use crate::rules::RulesState;

/// Regeneration below the maximum heals to at most this share of it
/// (Quake 3: 1.1).
const REGEN_SOFT_CAP: f32 = 1.1;

/// One second of decay or regeneration for one player.
pub fn tick_second(health: &mut Health, armor: &mut Armor, regen: bool, rules: &ItemRules) {
    let max = health.max;
    if regen {
        if health.hp < max {
            let soft = (max as f32 * REGEN_SOFT_CAP) as i32;
            health.hp = (health.hp + rules.regen_below_max).min(soft);
        } else if health.hp < max * 2 {
            health.hp = (health.hp + rules.regen_above_max).min(max * 2);
        }
    } else if health.hp > max {
        health.hp = (health.hp - rules.decay_per_second).max(max);
    }
    if armor.points > max {
        armor.points = (armor.points - rules.decay_per_second).max(max);
    }
}

/// Applies a second of decay and regeneration to every living player on
/// each whole second of match time.
pub fn decay_and_regen(
    clock: Res<MatchClock>,
    rules: Res<RulesState>,
    mode: Option<Res<ModeRules>>,
    catalog: Res<ItemCatalog>,
    mut players: Query<(&Life, &mut Health, &mut Armor, &Powerups)>,
) {
    if !rules.phase.allows_play() || !clock.tick.is_multiple_of(clock.hz.max(1)) {
        return;
    }
    let armor_decays = mode.is_none_or(|m| m.armor_decays);
    // Each player's update depends only on its own state: order does not matter.
    for (life, mut health, mut armor, powerups) in &mut players {
        if *life != Life::Alive {
            continue;
        }
        let regen = Powerups::active(powerups.regen, clock.tick);
        let (mut h, mut a) = (*health, *armor);
        tick_second(&mut h, &mut a, regen, &catalog.rules);
        if !armor_decays {
            a = *armor;
        }
        if h != *health {
            *health = h;
        }
        if a != *armor {
            *armor = a;
        }
    }
}

/// The movement parameters of a player with or without haste: haste
/// multiplies the running speed by the table's `haste_speed_factor`
/// (Quake 3: 1.3).
pub fn haste_move_params(params: &MoveParams, powerups: &Powerups, tick: u32, rules: &ItemRules) -> MoveParams {
    let mut p = *params;
    if Powerups::active(powerups.haste, tick) {
        p.speed *= rules.haste_speed_factor;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_and_regen_follow_quake3() {
        let rules = ItemRules::default();
        let (mut h, mut a) = (Health { hp: 200, max: 100 }, Armor { points: 150 });
        tick_second(&mut h, &mut a, false, &rules);
        assert_eq!((h.hp, a.points), (199, 149));
        let (mut h, mut a) = (Health { hp: 100, max: 100 }, Armor { points: 100 });
        tick_second(&mut h, &mut a, false, &rules);
        assert_eq!((h.hp, a.points), (100, 100), "nothing at the maximum");
        let mut h = Health { hp: 50, max: 100 };
        tick_second(&mut h, &mut a, true, &rules);
        assert_eq!(h.hp, 65);
        h.hp = 100;
        tick_second(&mut h, &mut a, true, &rules);
        assert_eq!(h.hp, 105);
        h.hp = 98;
        tick_second(&mut h, &mut a, true, &rules);
        assert_eq!(h.hp, 110, "below the maximum regen stops at 110 %");
        h.hp = 199;
        tick_second(&mut h, &mut a, true, &rules);
        assert_eq!(h.hp, 200);
    }

    #[test]
    fn haste_scales_speed() {
        let rules = ItemRules::default();
        let p = MoveParams::default();
        let hasted = Powerups { haste: 10, ..Powerups::default() };
        assert_eq!(haste_move_params(&p, &hasted, 5, &rules).speed, 320.0 * 1.3);
        assert_eq!(haste_move_params(&p, &hasted, 10, &rules).speed, 320.0);
    }
}
