//! The accuracy counters: shots, hits, splash hits and damage by weapon,
//! range band and kind of player (`human` or `bot`), from the match's
//! accuracy book (`quarry_sim::accuracy` has the rules).
//!
//! They are fed each tick from what changed in the book: the book and each
//! slot's row carry a revision (a quiet tick costs one comparison, a busy
//! one a comparison per player and the additions of those who shot), and a
//! row a count of fresh starts (a new player in the slot, the match going
//! live: then its figures count from zero). Taking
//! them each tick rather than at a match's end counts a player who leaves
//! and a match cut short. Unlike the game log's match-end record, which
//! counts from the moment the match went live, the counters count every
//! shot the server saw, warmup included.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use quarry_sim::Match;
use quarry_sim::accuracy::{BandFigures, RangeBand, SlotAccuracy};
use quarry_sim::slots::ClientKind;

/// `weapon` (table name), `band` and `player`.
type Labels = [(&'static str, String); 3];

/// The four counters and the rows already counted.
pub(super) struct AccuracyCounters {
    shots: Family<Labels, Counter>,
    hits: Family<Labels, Counter>,
    splash_hits: Family<Labels, Counter>,
    damage: Family<Labels, Counter>,
    /// Each slot's row as last counted, by slot index.
    seen: Vec<SlotAccuracy>,
    /// The book's revision when last counted.
    seen_revision: Option<u64>,
}

impl AccuracyCounters {
    /// Registers the counters.
    pub(super) fn register(registry: &mut Registry) -> Self {
        let c = Self { shots: Family::default(), hits: Family::default(), splash_hits: Family::default(), damage: Family::default(), seen: Vec::new(), seen_revision: None };
        let what = "by weapon, range band of the target (close, mid, far, untargeted) and player (human or bot)";
        registry.register("quarry_weapon_shots", format!("Shots (each pellet, each projectile) {what}"), c.shots.clone());
        registry.register("quarry_weapon_hits", format!("Shots that hit an enemy directly {what}"), c.hits.clone());
        registry.register("quarry_weapon_splash_hits", format!("Projectiles whose splash alone reached an enemy {what}"), c.splash_hits.clone());
        registry.register("quarry_weapon_damage", format!("Health and armor enemies lost to shots {what}"), c.damage.clone());
        c
    }

    /// A new match: its book starts from nothing.
    pub(super) fn forget(&mut self) {
        self.seen.clear();
        self.seen_revision = None;
    }

    /// Adds what changed in `game`'s book since the last look; only takes
    /// note of it when `count` is off (the endpoint is off: turning it on
    /// later does not add the past).
    pub(super) fn look(&mut self, game: &Match, count: bool) {
        let book = game.accuracy_book();
        if self.seen_revision == Some(book.revision()) {
            return;
        }
        self.seen_revision = Some(book.revision());
        for (id, row) in book.rows() {
            let i = usize::from(id.0);
            let before = self.seen.get(i).unwrap_or(&SlotAccuracy::ZERO);
            if (before.revision, before.started) == (row.revision, row.started) {
                continue;
            }
            let from = if before.started == row.started { *before } else { SlotAccuracy::ZERO };
            // An empty slot's row is zeros (it started over when its player left).
            if count && let Some(slot) = game.slots().get(id) {
                let player = if slot.kind == ClientKind::Bot { "bot" } else { "human" };
                self.add(game, row, &from, player);
            }
            if self.seen.len() <= i {
                self.seen.resize(i + 1, SlotAccuracy::ZERO);
            }
            if let Some(seen) = self.seen.get_mut(i) {
                *seen = *row;
            }
        }
    }

    /// Adds `row` less `from`, weapon by weapon and band by band.
    fn add(&self, game: &Match, row: &SlotAccuracy, from: &SlotAccuracy, player: &'static str) {
        for (n, w) in row.used() {
            for band in RangeBand::ALL {
                let d: BandFigures = w.band(band).since(from.weapon(n).band(band));
                if d.is_zero() {
                    continue;
                }
                let weapon = game.weapon_name(n).map_or_else(|| format!("weapon{n}"), str::to_owned);
                let labels: Labels = [("weapon", weapon), ("band", band.name().to_owned()), ("player", player.to_owned())];
                self.shots.get_or_create(&labels).inc_by(u64::from(d.shots));
                self.hits.get_or_create(&labels).inc_by(u64::from(d.hits));
                self.splash_hits.get_or_create(&labels).inc_by(u64::from(d.splash_hits));
                self.damage.get_or_create(&labels).inc_by(u64::from(d.damage));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(text: &str, name_and_labels: &str) -> Option<f64> {
        text.lines().find_map(|l| l.strip_prefix(name_and_labels)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn counters_follow_the_book_by_weapon_band_and_kind_of_player() {
        let mut registry = Registry::default();
        let mut counters = AccuracyCounters::register(&mut registry);
        let (mut game, human, bot) = crate::test_match::human_and_bot();
        crate::test_match::run(&mut game, &[human, bot], 30, true);
        counters.look(&game, true);
        crate::test_match::run(&mut game, &[human, bot], 30, true);
        counters.look(&game, true);
        // Nothing new: nothing added.
        counters.look(&game, true);
        let text = super::super::encode(&registry);
        for (slot, player) in [(human, "human"), (bot, "bot")] {
            let figures = *game.accuracy(slot).weapon(2).band(RangeBand::Mid);
            assert!(figures.shots >= 9 && figures.damage > 0, "{figures:?}");
            let key = |name: &str| format!("{name}_total{{weapon=\"machinegun\",band=\"mid\",player=\"{player}\"}}");
            assert_eq!(sample(&text, &key("quarry_weapon_shots")), Some(f64::from(figures.shots)), "{text}");
            assert_eq!(sample(&text, &key("quarry_weapon_hits")), Some(f64::from(figures.hits)), "{text}");
            assert_eq!(sample(&text, &key("quarry_weapon_splash_hits")), Some(0.0), "{text}");
            assert_eq!(sample(&text, &key("quarry_weapon_damage")), Some(f64::from(figures.damage)), "{text}");
        }
        assert!(!text.contains("band=\"far\""), "only bands with shots: {text}");
        // The bot leaves and a human takes its slot: its figures count from zero.
        game.disconnect(bot);
        let next = game.connect(ClientKind::Remote { latency_ms: 0 }, quarry_sim::UserInfo { name: "next".into(), ..Default::default() }).expect("a slot");
        game.enter_game(next).expect("enters");
        crate::test_match::run(&mut game, &[human, next], 40, true);
        counters.look(&game, true);
        let text = super::super::encode(&registry);
        let humans = f64::from(game.accuracy(human).weapon(2).band(RangeBand::Mid).shots + game.accuracy(next).weapon(2).band(RangeBand::Mid).shots);
        assert_eq!(sample(&text, "quarry_weapon_shots_total{weapon=\"machinegun\",band=\"mid\",player=\"human\"}"), Some(humans), "{text}");
    }
}
