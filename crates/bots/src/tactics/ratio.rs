//! The local force ratio: known enemies against allies around the bot.

use quarry_sim::SlotId;

use crate::memory::Memory;
use crate::view::{BotClock, BotView, PlayerSnap};

/// Enemies and allies within this distance count, units.
pub const RATIO_RANGE: f32 = 1500.0;
/// An enemy counts while the bot's news of it is at most this old, ms
/// (the reference counts what was seen within 3 s).
const NEWS_MS: f32 = 3000.0;

/// Allies (self included) against known enemies nearby, bucketed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum ForceRatio {
    /// 1v3 or worse (enemies at least three times the allies).
    Critical,
    /// 1v2, 2v3: more enemies than allies.
    Outnumbered,
    /// As many (or no enemy known).
    Even,
    /// 2v1, 3v2: more allies, short of three times.
    Advantage,
    /// 3v1 or better.
    Dominant,
}

impl ForceRatio {
    /// The bucket of `allies` (self included, at least 1) against `enemies`.
    pub fn of(allies: u32, enemies: u32) -> Self {
        let allies = allies.max(1);
        if enemies == 0 || enemies == allies {
            ForceRatio::Even
        } else if enemies >= 3 * allies {
            ForceRatio::Critical
        } else if enemies > allies {
            ForceRatio::Outnumbered
        } else if allies >= 3 * enemies {
            ForceRatio::Dominant
        } else {
            ForceRatio::Advantage
        }
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Critical => "critical",
            Self::Outnumbered => "outnumbered",
            Self::Even => "even",
            Self::Advantage => "advantage",
            Self::Dominant => "dominant",
        }
    }
}

/// The allies (itself included) and the enemies a bot counts for its
/// force ratio ([`force_ratio`] says how).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Forces {
    /// Living allies within [`RATIO_RANGE`], the bot included.
    pub allies: u32,
    /// Enemies known lately within [`RATIO_RANGE`].
    pub enemies: u32,
}

impl Forces {
    /// The ratio they make.
    pub fn ratio(self) -> ForceRatio {
        ForceRatio::of(self.allies, self.enemies)
    }
}

/// The force ratio around `me`: enemies from its memory (seen, heard or
/// reported within the last 3 s, still in the game, remembered within
/// [`RATIO_RANGE`]) against itself and, in team games, its active
/// teammates within range.
pub fn force_ratio(view: &BotView<'_>, me: &PlayerSnap, memory: &Memory, clock: &BotClock) -> ForceRatio {
    force_counts(view, me, memory, clock).ratio()
}

/// The counts behind [`force_ratio`].
pub fn force_counts(view: &BotView<'_>, me: &PlayerSnap, memory: &Memory, clock: &BotClock) -> Forces {
    let r2 = RATIO_RANGE * RATIO_RANGE;
    let live = |s: SlotId| view.player(s).is_some_and(|p| p.active());
    let enemies = memory
        .tracks()
        .iter()
        .filter(|t| clock.ms_since(t.news_tick) <= NEWS_MS && live(t.slot) && t.position.distance_squared(me.origin) <= r2)
        .count() as u32;
    let allies = 1 + if view.team_game {
        view.iter_players()
            .filter(|p| p.slot != me.slot && p.team == me.team && p.active() && p.origin.distance_squared(me.origin) <= r2)
            .count() as u32
    } else {
        0
    };
    Forces { allies, enemies }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_follow_the_reference_counts() {
        assert_eq!(ForceRatio::of(1, 3), ForceRatio::Critical);
        assert_eq!(ForceRatio::of(1, 5), ForceRatio::Critical);
        assert_eq!(ForceRatio::of(1, 2), ForceRatio::Outnumbered);
        assert_eq!(ForceRatio::of(2, 3), ForceRatio::Outnumbered);
        assert_eq!(ForceRatio::of(2, 2), ForceRatio::Even);
        assert_eq!(ForceRatio::of(1, 0), ForceRatio::Even, "nobody known about");
        assert_eq!(ForceRatio::of(2, 1), ForceRatio::Advantage);
        assert_eq!(ForceRatio::of(3, 2), ForceRatio::Advantage);
        assert_eq!(ForceRatio::of(3, 1), ForceRatio::Dominant);
    }

    #[test]
    fn the_ratio_counts_only_what_the_bot_knows() {
        use crate::objective::testkit::{Kit, player};
        use glam::Vec3;
        use quarry_sim::Team;
        use quarry_sim::rules::GameType;
        let kit = Kit::new();
        let players = vec![
            player(0, Team::Red, Vec3::ZERO),
            player(1, Team::Blue, Vec3::X * 500.0),
            player(2, Team::Blue, Vec3::Y * 500.0),
            player(3, Team::Blue, Vec3::Y * -500.0),
        ];
        let view = kit.view(GameType::Tdm, players);
        let me = view.player(SlotId(0)).copied().expect("me");
        let mut memory = Memory::default();
        let clock = view.clock;
        assert_eq!(force_ratio(&view, &me, &memory, &clock), ForceRatio::Even, "three enemies near, none known");
        memory.see(SlotId(1), clock.tick, Vec3::X * 500.0, Vec3::ZERO, Vec3::ZERO);
        memory.hear(SlotId(2), clock.tick, Vec3::Y * 450.0, 90.0);
        assert_eq!(force_ratio(&view, &me, &memory, &clock), ForceRatio::Outnumbered);
        memory.report(SlotId(3), clock.tick, Vec3::Y * -500.0, 100.0);
        assert_eq!(force_ratio(&view, &me, &memory, &clock), ForceRatio::Critical);
        let later = BotClock { tick: clock.tick + 200, ..clock };
        assert_eq!(force_ratio(&view, &me, &memory, &later), ForceRatio::Even, "old news does not count");
    }
}
