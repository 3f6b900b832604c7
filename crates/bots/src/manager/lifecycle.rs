//! The manager's side of the match life cycle: noticing a new match (map
//! change, restart), dropping brains whose slot is gone, and keeping the
//! server padded with bots by one of two rules:
//!
//! | rule | bots wanted | a bot leaves |
//! |---|---|---|
//! | `bot_minPlayers N` | enough for `N` players, humans and bots together | the fill bot added last |
//! | `bot_maxBots M`, `bot_zeroAt Z` | `M` with nobody on, else `max(0, M - ⌊humans·M/Z⌋)`; at most the slots humans leave free ([`eased_bot_target`]) | a fill bot picked by the match-seeded RNG |
//!
//! `bot_maxBots` above 0 wins: `bot_minPlayers` is then ignored (the log
//! says so once). Either way each pass (every [`FILL_INTERVAL_S`]) moves
//! the bot count one step toward the target, a bot joining (its character
//! picked by weight, as `addbot` picks it) or leaving through the normal
//! join and leave paths. Bots added by hand count toward the target, but
//! only bots the fill added are ever removed. In a team game a leaving
//! bot is from the larger team when it has a fill bot, so the teams stay
//! even and the balance moves nobody. A human joining a full server takes
//! a bot's slot at once, one from the team the human will join
//! ([`BotManager::make_room_for_human`]).

use quarry_sim::Match;
use quarry_sim::slots::{ClientKind, SlotState};

use super::*;

/// Separates the fill's RNG stream from every other draw of the match.
const FILL_RNG_STREAM: u64 = 0x6669_6c6c_5f72_6e67;

/// The bot count `bot_maxBots` eases toward with `humans` on a server of
/// `max_clients` slots: `max_bots` with no humans (a server stays warm for
/// the first player to arrive), else
/// `max(0, max_bots - ⌊humans · max_bots / zero_at⌋)`, so `zero_at` humans
/// or more want no bots; never more than `max_clients - humans`. A
/// `zero_at` of 0 counts as 1 (the cvar refuses it).
pub fn eased_bot_target(max_bots: usize, zero_at: usize, humans: usize, max_clients: usize) -> usize {
    let eased = max_bots.saturating_sub(humans.saturating_mul(max_bots) / zero_at.max(1));
    eased.min(max_clients.saturating_sub(humans))
}

impl BotManager {
    /// Notices a new match (map change, restart): brains forget deadlines,
    /// the fill clock restarts, RNGs re-seed from the new match seed.
    pub(super) fn sync_match(&mut self, game: &Match) {
        let key = (game.seed(), game.world().id());
        if self.current.key == Some(key) {
            return;
        }
        let first = self.current.key.is_none();
        self.current.key = Some(key);
        self.current.seed = mix64(game.seed());
        self.current.next_fill = game.tick();
        self.current.fill_rng = None;
        self.current.next_status = 0;
        self.current.view_cache = ViewCache::default();
        self.current.pickups.clear();
        self.current.spots.clear();
        // Objective play follows the game type (fails closed without one).
        self.objectives = Some(crate::objective::provider_for(game.rules().gametype));
        self.chat.new_match(self.current.seed);
        for b in &mut self.bots {
            b.brain.new_match(self.current.seed);
        }
        if !first {
            tracing::debug!(target: "quarry_bots", "new match: {} bots carried over", self.bots.len());
        }
    }

    /// Drops brains whose slot is no longer a bot's (kicked elsewhere, or a
    /// human took it).
    pub(super) fn prune(&mut self, game: &Match) {
        let (keep, gone): (Vec<BotEntry>, Vec<BotEntry>) = std::mem::take(&mut self.bots)
            .into_iter()
            .partition(|b| game.slots().get(b.brain.slot()).is_some_and(|s| s.kind == ClientKind::Bot));
        self.bots = keep;
        for b in gone {
            let profile = b.brain.profile();
            self.persona.traits.release(&profile.identity);
            if let Some(c) = &self.persona.content {
                c.release(&profile.identity.name);
            }
            self.chat.forget(profile.slot);
        }
    }

    /// Moves the bot count one step toward the fill rule's target
    /// (`bot_maxBots`, else `bot_minPlayers`; see the module doc), a pass
    /// every few seconds: adds a fill bot, or lets one go.
    pub(super) fn fill(&mut self, game: &mut Match) {
        let tick = game.tick();
        if tick < self.current.next_fill {
            return;
        }
        let hz = game.hz() as f32;
        self.current.next_fill = tick + (FILL_INTERVAL_S * hz) as u32;
        let (max_bots, min_players) = (self.settings.max_bots, self.settings.min_players);
        let clash = max_bots > 0 && min_players > 0;
        if clash && !self.min_players_overridden {
            tracing::warn!(target: "quarry_bots", "bot_maxBots {max_bots} is on: bot_minPlayers {min_players} is ignored (set bot_maxBots 0 to use it)");
        }
        self.min_players_overridden = clash;
        if !self.settings.enable || (max_bots == 0 && min_players == 0) {
            return;
        }
        let humans = game
            .slots()
            .iter()
            .filter(|(_, s)| matches!(s.kind, ClientKind::Remote { .. }))
            .count();
        let bots = self.bots.len();
        let eased = max_bots > 0;
        let (rule, target) = if eased {
            ("bot_maxBots", eased_bot_target(max_bots, self.settings.zero_at, humans, game.slots().max()))
        } else {
            ("bot_minPlayers", min_players.saturating_sub(humans))
        };
        if bots < target {
            let skill = None;
            match self.add(
                game,
                AddBot {
                    name: None,
                    skill,
                    exact: false,
                    ..Default::default()
                },
                true,
            ) {
                Ok(slot) => {
                    let name = game.slots().get(slot).map(|s| s.userinfo.name.clone()).unwrap_or_default();
                    if eased {
                        tracing::info!(target: "quarry_bots", "bot_maxBots: {name} joins ({} of {target} bots, {humans} humans)", bots + 1);
                    } else {
                        tracing::info!(target: "quarry_bots", "bot_minPlayers: {name} joins ({} of {min_players} players)", humans + bots + 1);
                    }
                }
                Err(e) => {
                    tracing::info!(target: "quarry_bots", "{rule}: couldn't add a bot: {e}");
                    self.current.next_fill = tick + (FILL_BACKOFF_S * hz) as u32;
                }
            }
        } else if bots > target
            && let Some(i) = self.fill_leaver(game, eased)
        {
            let name = self.remove_at(game, i);
            tracing::info!(target: "quarry_bots", "{rule}: {name} leaves");
        }
        // Keep the slot state honest: a bot slot that never entered is entered now.
        let stuck: Vec<SlotId> = self
            .bots
            .iter()
            .map(|b| b.brain.slot())
            .filter(|s| game.slots().get(*s).is_some_and(|s| s.state == SlotState::Connecting))
            .collect();
        for s in stuck {
            let _ = game.enter_game(s);
        }
    }

    /// The fill bot to let go: the one added last (`bot_minPlayers`), or,
    /// `eased` (`bot_maxBots`), one picked by the fill's RNG, seeded from
    /// the match seed. In a team game it is one from the larger team when
    /// that team has a fill bot, so the teams stay even and the balance
    /// moves nobody (a human who just joined the larger team was its
    /// latest joiner, and moved). `None` when the fill added none.
    fn fill_leaver(&mut self, game: &Match, eased: bool) -> Option<usize> {
        let thin = super::roster::team_to_thin(game, None);
        let on_team = |b: &BotEntry| thin.is_none_or(|t| game.slots().get(b.brain.slot()).is_some_and(|s| s.team == t));
        let from_thin = self.bots.iter().any(|b| b.filled && on_team(b));
        let leaves = |b: &BotEntry| b.filled && (!from_thin || on_team(b));
        if !eased {
            return self.last_added(leaves);
        }
        let filled: Vec<usize> = self.bots.iter().enumerate().filter(|(_, b)| leaves(b)).map(|(i, _)| i).collect();
        if filled.is_empty() {
            return None;
        }
        let seed = self.current.seed;
        let rng = self.current.fill_rng.get_or_insert_with(|| BotRng::from_seed(seed ^ FILL_RNG_STREAM));
        let pick = rng.below(u32::try_from(filled.len()).unwrap_or(u32::MAX));
        usize::try_from(pick).ok().and_then(|i| filled.get(i).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::eased_bot_target;

    #[test]
    fn no_humans_wants_every_bot() {
        assert_eq!(eased_bot_target(6, 8, 0, 16), 6);
        assert_eq!(eased_bot_target(6, 1, 0, 16), 6, "even when one human would clear them");
    }

    #[test]
    fn one_human_eases_by_a_step_rounded_down() {
        // 6 - ⌊1·6/8⌋ = 6 - 0.
        assert_eq!(eased_bot_target(6, 8, 1, 16), 6);
        // 6 - ⌊1·6/4⌋ = 6 - 1.
        assert_eq!(eased_bot_target(6, 4, 1, 16), 5);
        assert_eq!(eased_bot_target(8, 8, 1, 16), 7);
    }

    #[test]
    fn some_humans_ease_it_down() {
        // 6 - ⌊humans·6/4⌋: 6, 5, 3, 2, 0.
        let wanted: Vec<usize> = (0..5).map(|h| eased_bot_target(6, 4, h, 16)).collect();
        assert_eq!(wanted, [6, 5, 3, 2, 0]);
        assert_eq!(eased_bot_target(8, 8, 3, 16), 5);
        assert_eq!(eased_bot_target(10, 3, 2, 32), 4, "10 - ⌊20/3⌋");
    }

    #[test]
    fn many_humans_want_no_bots() {
        for humans in [8, 9, 12, 16] {
            assert_eq!(eased_bot_target(6, 8, humans, 16), 0, "{humans} humans");
        }
        assert_eq!(eased_bot_target(6, 8, 40, 16), 0, "more humans than slots");
    }

    #[test]
    fn never_more_than_the_free_slots() {
        assert_eq!(eased_bot_target(6, 8, 0, 4), 4);
        assert_eq!(eased_bot_target(6, 8, 1, 4), 3);
        assert_eq!(eased_bot_target(6, 8, 3, 4), 1);
        assert_eq!(eased_bot_target(6, 8, 4, 4), 0);
    }

    #[test]
    fn off_and_degenerate_inputs() {
        assert_eq!(eased_bot_target(0, 8, 0, 16), 0, "bot_maxBots 0 wants none");
        assert_eq!(eased_bot_target(6, 0, 0, 16), 6, "bot_zeroAt 0 counts as 1");
        assert_eq!(eased_bot_target(6, 0, 1, 16), 0);
        assert_eq!(eased_bot_target(usize::MAX, 8, usize::MAX, usize::MAX), 0, "no overflow");
    }

    #[test]
    fn never_rises_as_humans_arrive() {
        for (max, zero) in [(1, 1), (3, 8), (6, 4), (8, 8), (16, 5), (64, 64)] {
            let wanted: Vec<usize> = (0..=64).map(|h| eased_bot_target(max, zero, h, 64)).collect();
            assert!(wanted.windows(2).all(|w| w[1] <= w[0]), "{max}/{zero}: {wanted:?}");
        }
    }
}
