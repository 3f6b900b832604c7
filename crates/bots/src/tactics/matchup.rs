//! Weapon matchups (`bot_tactical` 4 and up): the bot weighs, at the range
//! it fights at, its best weapon against the one its enemy holds (a player
//! sees which weapon another carries, never its ammo), and when it is
//! losing there it changes weapon, changes range, or breaks off.
//!
//! A weapon's strength at a range is its suitability there (the weapon
//! choice's table) times how well the range fits the weapon's ideal band
//! (`ideal_range` in the weapons table): 1 inside the band, falling off by
//! [`FIT_FALLOFF`] units outside it, never under [`MIN_FIT`].

use quarry_sim::components::Inventory;
use quarry_sim::weapons::{WeaponDef, WeaponTable};

use crate::content::WeaponBias;

/// The bot is losing, and acts on it, when its strength is under this
/// share of its enemy's (measured: acting on milder deficits, switching or
/// moving as soon as the weapon in hand is under 0.75 of the enemy's, cost
/// a level-4 team 8-23 frags in ten minutes of 4v4 on q_dm1; the weapon
/// choice and combat movement already handle the small differences).
pub const LOSING: f32 = 0.5;
/// Under this share, with no range within reach that wins, the fight is
/// hopeless: break off.
pub const HOPELESS: f32 = 0.4;
/// A better range is worth moving to only this far from the current one,
/// units: further, closing in or backing off costs more than it wins.
pub const MAX_REPOSITION: f32 = 700.0;
/// A range this far outside a weapon's band fits it no better than [`MIN_FIT`], units.
pub const FIT_FALLOFF: f32 = 600.0;
/// The least a range fits any weapon.
pub const MIN_FIT: f32 = 0.2;
/// A new range sits this share of the band's width inside it.
const BAND_MARGIN: f32 = 0.15;

/// How well `range` fits the band `[near, far]`: 1 inside, less outside.
pub fn band_fit(band: [f32; 2], range: f32) -> f32 {
    let outside = (band[0] - range).max(range - band[1]).max(0.0);
    (1.0 - outside / FIT_FALLOFF).max(MIN_FIT)
}

/// How strong `def` is at `range` (no ammo or taste counted).
pub fn strength(def: &WeaponDef, range: f32) -> f32 {
    crate::weapons::suitability(def, range) * band_fit(def.ideal_band(), range)
}

/// How strong weapon `n` is in this bot's hands at `range`: its strength
/// with the bot's taste and ammo (0 if it cannot fire).
fn my_strength(table: &WeaponTable, inv: &Inventory, bias: &WeaponBias, n: u8, range: f32) -> f32 {
    table
        .get(n)
        .map_or(0.0, |d| crate::weapons::score(table, inv, n, range, bias) * band_fit(d.ideal_band(), range))
}

/// What the matchup says to do: the bot switches when another weapon it
/// holds wins here; else it moves to the range (within [`MAX_REPOSITION`])
/// where one of its weapons wins; else it breaks off when it stands under
/// [`HOPELESS`], and fights on otherwise. It acts only when clearly losing
/// (under [`LOSING`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Matchup {
    /// Not losing: fight as it comes.
    Even,
    /// Losing with this weapon, winning with `weapon` at this range.
    Switch {
        /// The weapon to switch to.
        weapon: u8,
    },
    /// Losing here, winning with `weapon` at `range` (closer or further).
    Reposition {
        /// The weapon to fight with.
        weapon: u8,
        /// The range to fight at, units.
        range: f32,
    },
    /// Losing at every range within reach: leave.
    BreakOff,
}

/// The matchup at `range` between this bot (its inventory and taste, the
/// weapon it asks for, `wanted`) and an enemy holding `enemy` (`None`: it
/// holds nothing that fires, and the bot cannot lose on weapons).
pub fn judge(table: &WeaponTable, inv: &Inventory, bias: &WeaponBias, wanted: u8, enemy: Option<&WeaponDef>, range: f32) -> Matchup {
    let Some(enemy) = enemy else { return Matchup::Even };
    let theirs = |r: f32| strength(enemy, r);
    let best_here = table
        .iter()
        .map(|d| (d.number, my_strength(table, inv, bias, d.number, range)))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
    let Some((best, mine)) = best_here else { return Matchup::BreakOff };
    if my_strength(table, inv, bias, wanted, range) >= LOSING * theirs(range) {
        return Matchup::Even;
    }
    if mine >= theirs(range) {
        return Matchup::Switch { weapon: best };
    }
    let here = mine / theirs(range).max(1e-3);
    // Where would it win: each weapon at the nearest range inside its band.
    let mut pick: Option<(u8, f32, f32)> = None;
    for d in table.iter() {
        if !table.can_fire(inv, d.number) {
            continue;
        }
        let [near, far] = d.ideal_band();
        let inset = (far - near) * BAND_MARGIN;
        let r = range.clamp(near + inset, (far - inset).max(near + inset));
        if (r - range).abs() > MAX_REPOSITION {
            continue;
        }
        let margin = my_strength(table, inv, bias, d.number, r) / theirs(r).max(1e-3);
        if pick.is_none_or(|(_, _, m)| margin > m) {
            pick = Some((d.number, r, margin));
        }
    }
    match pick {
        Some((weapon, r, margin)) if margin >= 1.0 => Matchup::Reposition { weapon, range: r },
        _ if here < HOPELESS => Matchup::BreakOff,
        // Losing, but not badly, and nowhere near does better: fight on.
        _ => Matchup::Even,
    }
}

/// A pickup is worth going for to win a matchup when what it gives is
/// this much stronger than the bot's best weapon.
pub const PICKUP_GAIN: f32 = 1.25;

/// Level 5: whether taking `gift` lets the bot fight an enemy holding
/// `enemy` at `range` clearly better than it can now: a weapon it does not
/// hold (or holds without ammo) and ammo for a weapon it holds empty, when
/// that weapon is at least [`PICKUP_GAIN`] times as strong there as the
/// bot's best, and not weaker than the enemy's.
pub fn pickup_wins(table: &WeaponTable, inv: &Inventory, bias: &WeaponBias, gift: &quarry_sim::items::Gift, enemy: &WeaponDef, range: f32) -> bool {
    use quarry_sim::items::Gift;
    let n = match *gift {
        Gift::Weapon { weapon, .. } if !table.can_fire(inv, weapon) => weapon,
        Gift::Ammo { weapon, .. } if inv.has(weapon) && !table.can_fire(inv, weapon) => weapon,
        _ => return false,
    };
    let Some(def) = table.get(n) else { return false };
    let best = table
        .iter()
        .map(|d| my_strength(table, inv, bias, d.number, range))
        .fold(0.0, f32::max);
    let gained = strength(def, range) * bias.of(n);
    gained >= PICKUP_GAIN * best && gained >= strength(enemy, range)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holding(table: &WeaponTable, names: &[&str]) -> Inventory {
        let mut inv = Inventory::default();
        for n in names {
            if let Some(d) = table.by_name(n) {
                inv.weapons |= 1 << d.number;
                inv.ammo[usize::from(d.number)] = 50;
            }
        }
        inv
    }

    #[test]
    fn a_shotgun_against_a_railgun_far_off_closes_in_or_leaves() {
        let table = WeaponTable::quake3();
        let bias = WeaponBias::default();
        let rail = table.by_name("railgun");
        let shotgun = table.by_name("shotgun").map_or(0, |d| d.number);
        let inv = holding(&table, &["shotgun"]);
        // 900 units: the shotgun's band is out of reach; leave.
        assert_eq!(judge(&table, &inv, &bias, shotgun, rail, 1500.0), Matchup::BreakOff);
        // 600 units: close to the shotgun's band.
        match judge(&table, &inv, &bias, shotgun, rail, 600.0) {
            Matchup::Reposition { weapon, range } => assert!(weapon == shotgun && range < 250.0, "{range}"),
            m => panic!("closes in, got {m:?}"),
        }
        // Up close the shotgun wins.
        assert_eq!(judge(&table, &inv, &bias, shotgun, rail, 150.0), Matchup::Even);
        // With a railgun of its own, it switches.
        let both = holding(&table, &["shotgun", "railgun"]);
        let number = rail.map_or(0, |d| d.number);
        assert_eq!(judge(&table, &both, &bias, shotgun, rail, 1500.0), Matchup::Switch { weapon: number });
        // Against an empty hand there is nothing to lose to.
        assert_eq!(judge(&table, &inv, &bias, shotgun, None, 1500.0), Matchup::Even);
    }

    #[test]
    fn a_railgun_lying_near_wins_a_long_fight_a_shotgun_loses() {
        let table = WeaponTable::quake3();
        let bias = WeaponBias::default();
        let rail = table.by_name("railgun").expect("railgun");
        let inv = holding(&table, &["shotgun", "machinegun"]);
        let gift = quarry_sim::items::Gift::Weapon { weapon: rail.number, ammo: 10, ammo_cap: 200 };
        assert!(pickup_wins(&table, &inv, &bias, &gift, rail, 1200.0));
        // Up close a railgun is no gain over a shotgun.
        let shotgun = table.by_name("shotgun").expect("shotgun");
        assert!(!pickup_wins(&table, &inv, &bias, &gift, shotgun, 150.0));
        // Held with ammo already: nothing to gain.
        let armed = holding(&table, &["railgun"]);
        assert!(!pickup_wins(&table, &armed, &bias, &gift, rail, 1200.0));
    }

    #[test]
    fn band_fit_is_one_inside_and_falls_off_outside() {
        assert_eq!(band_fit([100.0, 500.0], 300.0), 1.0);
        assert!((band_fit([100.0, 500.0], 800.0) - 0.5).abs() < 1e-6);
        assert_eq!(band_fit([100.0, 500.0], 5000.0), MIN_FIT);
    }
}
