//! The line everyone reads when a player dies: who, by whom, how.

use crate::events::MeansOfDeath;
use crate::slots::{SlotId, Slots};
use crate::weapons::WeaponTable;

/// The obituary of `victim`, killed by `killer` (`None`: itself or the
/// world) by `means`, with names from `slots` and weapon names from `table`.
pub fn obituary(slots: &Slots, table: &WeaponTable, killer: Option<SlotId>, victim: SlotId, means: MeansOfDeath) -> String {
    let name = |s: SlotId| slots.get(s).map_or_else(|| "someone".to_owned(), |s| s.userinfo.name.clone());
    let weapon = |n: u8| table.get(n).map_or_else(|| format!("weapon {n}"), |w| w.name.replace('_', " "));
    let v = name(victim);
    match (killer, means) {
        (Some(k), MeansOfDeath::Weapon(n)) => format!("{v} was fragged by {}'s {}", name(k), weapon(n)),
        (Some(k), MeansOfDeath::Splash(n)) => format!("{v} was caught in {}'s {} blast", name(k), weapon(n)),
        (Some(k), MeansOfDeath::Telefrag) => format!("{v} was telefragged by {}", name(k)),
        (Some(k), _) => format!("{v} was killed by {}", name(k)),
        (None, MeansOfDeath::Weapon(_) | MeansOfDeath::Splash(_)) => format!("{v} blew up"),
        (None, MeansOfDeath::Falling) => format!("{v} hit the ground too hard"),
        (None, MeansOfDeath::Lava) => format!("{v} went swimming in lava"),
        (None, MeansOfDeath::Slime) => format!("{v} melted in slime"),
        (None, MeansOfDeath::Water) => format!("{v} drowned"),
        (None, MeansOfDeath::Telefrag) => format!("{v} was telefragged"),
        (None, MeansOfDeath::World) => format!("{v} was in the wrong place"),
        (None, MeansOfDeath::Suicide) => format!("{v} suicides"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slots::{ClientKind, UserInfo};

    #[test]
    fn names_the_killer_the_weapon_and_the_way() {
        let mut slots = Slots::new(4);
        let a = slots.allocate(ClientKind::Bot, UserInfo { name: "Rook".into(), ..UserInfo::default() }, 0).expect("slot");
        let b = slots.allocate(ClientKind::Bot, UserInfo { name: "Dace".into(), ..UserInfo::default() }, 0).expect("slot");
        let table = WeaponTable::default();
        let rocket = table.iter().find(|w| w.name == "rocket_launcher").map(|w| w.number).expect("a rocket launcher");
        assert_eq!(obituary(&slots, &table, Some(b), a, MeansOfDeath::Splash(rocket)), "Rook was caught in Dace's rocket launcher blast");
        assert_eq!(obituary(&slots, &table, Some(b), a, MeansOfDeath::Weapon(rocket)), "Rook was fragged by Dace's rocket launcher");
        assert_eq!(obituary(&slots, &table, None, a, MeansOfDeath::Falling), "Rook hit the ground too hard");
        assert_eq!(obituary(&slots, &table, None, SlotId(9), MeansOfDeath::Suicide), "someone suicides");
    }
}
