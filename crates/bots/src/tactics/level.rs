//! A bot's tactical level (`bot_tactical`) as a type: each thing the
//! levels add is asked for by name (the table in the module above says
//! what each level adds), so the rule "from level N" lives in one place.

/// A tactical level, 0 ([`TacticalLevel::OFF`]) to [`super::MAX_LEVEL`];
/// each level includes those below it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct TacticalLevel(u8);

impl TacticalLevel {
    /// Level 0: no tactics at all.
    pub const OFF: Self = Self(0);

    /// The level `level`, held within 0 to [`super::MAX_LEVEL`].
    pub const fn new(level: u8) -> Self {
        Self(if level > super::MAX_LEVEL { super::MAX_LEVEL } else { level })
    }

    /// The level as a number (for reports).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Level 1 and up: the local force ratio and the stance are worked out
    /// (and reported).
    pub const fn reads_forces(self) -> bool {
        self.0 >= 1
    }

    /// Level 2 and up: armor and health are worth more when choosing an
    /// item ([`super::STACK`]).
    pub const fn fights_for_stack(self) -> bool {
        self.0 >= 2
    }

    /// Level 2 and up: a bot with no target keeps its eye on the nearest
    /// enemy it knows of lately, and one showing itself near where it was
    /// believed to be is reacted to as one just lost from view.
    pub const fn anticipates(self) -> bool {
        self.0 >= 2
    }

    /// Level 2 and up: movement follows the stance (a stealthy bot walks, a
    /// retreating one falls back and takes cover, an outnumbered one
    /// regroups, a wary one's routes prefer covered ground).
    pub const fn moves_by_stance(self) -> bool {
        self.0 >= 2
    }

    /// Level 3 and up: fights the bot should not be in are refused or
    /// broken off, and it does not chase.
    pub const fn filters_engagements(self) -> bool {
        self.0 >= 3
    }

    /// Level 4 and up: the weapon matchup against the target decides
    /// switches, range and breaking off.
    pub const fn reads_matchups(self) -> bool {
        self.0 >= 4
    }

    /// Level 5: a bot alone and outnumbered goes stealthy, fetches a dropped
    /// weapon or ammo that wins the matchup, and tells its team its stance.
    pub const fn plays_the_odds(self) -> bool {
        self.0 >= 5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_adds_to_those_below() {
        let caps = |l: TacticalLevel| [l.reads_forces(), l.fights_for_stack(), l.anticipates(), l.moves_by_stance(), l.filters_engagements(), l.reads_matchups(), l.plays_the_odds()];
        assert_eq!(caps(TacticalLevel::OFF), [false; 7]);
        assert_eq!(caps(TacticalLevel::new(2)), [true, true, true, true, false, false, false]);
        assert_eq!(caps(TacticalLevel::new(5)), [true; 7]);
        assert_eq!(TacticalLevel::new(200), TacticalLevel::new(super::super::MAX_LEVEL));
        for l in 0..super::super::MAX_LEVEL {
            let (lo, hi) = (caps(TacticalLevel::new(l)), caps(TacticalLevel::new(l + 1)));
            assert!(lo.iter().zip(&hi).all(|(a, b)| !a || *b), "level {} loses what {l} has", l + 1);
        }
    }
}
