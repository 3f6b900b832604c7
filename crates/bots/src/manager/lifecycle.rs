//! The manager's side of the match life cycle: noticing a new match (map
//! change, restart), dropping brains whose slot is gone, and keeping the
//! server topped up to `bot_minPlayers`.

use quarry_sim::Match;
use quarry_sim::slots::{ClientKind, SlotState};

use super::*;

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
        self.current.next_status = 0;
        self.current.view_cache = ViewCache::default();
        self.current.pickups.clear();
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

    /// Tops the server up to `bot_minPlayers`, one bot per pass, a pass
    /// every few seconds; removes fill bots when humans make it too many.
    pub(super) fn fill(&mut self, game: &mut Match) {
        let tick = game.tick();
        if tick < self.current.next_fill {
            return;
        }
        let hz = game.hz() as f32;
        self.current.next_fill = tick + (FILL_INTERVAL_S * hz) as u32;
        let want = self.settings.min_players;
        if !self.settings.enable || want == 0 {
            return;
        }
        let humans = game
            .slots()
            .iter()
            .filter(|(_, s)| matches!(s.kind, ClientKind::Remote { .. }))
            .count();
        let players = humans + self.bots.len();
        if players < want {
            let skill = None;
            match self.add(
                game,
                AddBot {
                    name: None,
                    skill,
                    exact: false,
                },
                true,
            ) {
                Ok(slot) => {
                    let name = game.slots().get(slot).map(|s| s.userinfo.name.clone()).unwrap_or_default();
                    tracing::info!(target: "quarry_bots", "bot_minPlayers: {name} joins ({} of {want} players)", players + 1);
                }
                Err(e) => {
                    tracing::info!(target: "quarry_bots", "bot_minPlayers: couldn't add a bot: {e}");
                    self.current.next_fill = tick + (FILL_BACKOFF_S * hz) as u32;
                }
            }
        } else if players > want
            && let Some(i) = self.last_added(|b| b.filled)
        {
            let name = self.remove_at(game, i);
            tracing::info!(target: "quarry_bots", "bot_minPlayers: {name} leaves");
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
}
