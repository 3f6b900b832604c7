//! What the manager tells about its bots: the `botlist` rows and lines, a
//! bot's counters, the match report with its chat and objective figures.

use quarry_sim::Match;

use super::*;

impl BotManager {
    /// The figures of the match so far (see [`crate::report`]).
    pub fn report(&self, game: &Match) -> crate::report::MatchReport {
        let rows = self
            .bots
            .iter()
            .map(|b| {
                let p = b.brain.profile();
                let name = game
                    .slots()
                    .get(p.slot)
                    .map_or_else(|| p.identity.name.clone(), |s| s.userinfo.name.clone());
                let character = self.persona.content.as_ref().and_then(|c| c.character_of(&p.identity.name));
                let style = character.and_then(|c| c.style.clone());
                crate::report::BotFigures::new(p.slot, name, p.skill, &p.stats, game.hz())
                    .with_character(character.map(|c| c.name.clone()), style)
                    .with_stuck(&p.stuck)
            })
            .collect();
        crate::report::MatchReport::new(game, rows, &self.current.pickups, &self.current.spots, self.nav.describe())
            .with_chat(self.chat.figures().clone())
            .with_team(self.chat.team_figures().clone(), game.rules().gametype.is_team_game())
            .with_objective(self.objectives.as_ref().and_then(|o| o.report()))
    }

    /// What bots said in this match.
    pub fn chat_figures(&self) -> &crate::chat::ChatFigures {
        self.chat.figures()
    }

    /// Counters of the bot in `slot`.
    pub fn stats(&self, slot: SlotId) -> Option<BotStats> {
        self.bots.iter().find(|b| b.brain.slot() == slot).map(|b| b.brain.profile().stats)
    }

    /// What the bot in `slot` believes about enemies' whereabouts: each
    /// track with how it knows (seen, heard, reported) and how sure it is.
    pub fn beliefs(&self, slot: SlotId) -> Option<Vec<crate::memory::EnemyTrack>> {
        self.bots.iter().find(|b| b.brain.slot() == slot).map(|b| b.brain.beliefs())
    }

    /// What the bot in `slot` believes of each map item: there, or gone
    /// until when (and whether it timed the pickup).
    pub fn item_beliefs(&self, slot: SlotId) -> Option<Vec<(quarry_sim::components::NetId, crate::item_memory::ItemState)>> {
        self.bots.iter().find(|b| b.brain.slot() == slot).map(|b| b.brain.item_beliefs())
    }

    /// The order the bot in `slot` follows, if any.
    pub fn order(&self, slot: SlotId) -> Option<crate::team::Order> {
        self.bots.iter().find(|b| b.brain.slot() == slot).and_then(|b| b.brain.order())
    }

    /// What the bot in `slot` is doing (its goal, route, target), as
    /// `bot_debug 2` prints it.
    pub fn status(&self, slot: SlotId, game: &Match) -> Option<crate::brain::BrainStatus> {
        let mut cache = crate::view::ViewCache::default();
        let view = crate::view::BotView::build(game, &mut cache);
        self.bots.iter().find(|b| b.brain.slot() == slot).map(|b| b.brain.status(Some(&view)))
    }

    /// Each bot's slot and the skill it plays at now (as [`BotManager::list`]
    /// says it), without the rest of a listing: cheap enough for a tick.
    pub fn skills(&self) -> impl Iterator<Item = (SlotId, f32)> + '_ {
        let settings = self.brain_settings();
        self.bots.iter().map(move |b| {
            let p = b.brain.profile();
            (p.slot, skill_now(p, &settings))
        })
    }

    /// The `botlist` rows.
    pub fn list(&self, game: Option<&Match>) -> Vec<BotRow> {
        let settings = self.brain_settings();
        self.bots
            .iter()
            .map(|b| {
                let p = b.brain.profile();
                let slot = game.and_then(|g| g.slots().get(p.slot));
                let name = slot.map_or_else(|| p.identity.name.clone(), |s| s.userinfo.name.clone());
                let status = b.brain.status(None);
                let alive = game.and_then(|g| g.player_view(p.slot));
                let status = BrainStatus {
                    origin: alive.map(|p| p.origin),
                    health: alive.map_or(0, |p| p.health),
                    ..status
                };
                let enemy = status
                    .enemy
                    .and_then(|e| game.and_then(|g| g.slots().get(e)).map(|s| s.userinfo.name.clone()));
                BotRow {
                    slot: p.slot,
                    name,
                    skill: skill_now(p, &settings),
                    filled: b.filled,
                    status,
                    enemy,
                    frags: slot.map_or(0, |s| s.score.frags),
                    stats: p.stats,
                }
            })
            .collect()
    }

    /// What the web view draws of the minds of the bots `want` names: each
    /// one's goal, the route ahead with how each corner is reached, its
    /// combat target and stance, its field of view and what it believes
    /// about enemies' whereabouts.
    pub fn overlays(&self, want: impl Fn(SlotId) -> bool) -> Vec<BotOverlay> {
        self.bots
            .iter()
            .filter(|b| want(b.brain.slot()))
            .map(|b| {
                let status = b.brain.status(None);
                BotOverlay {
                    slot: b.brain.slot(),
                    goal: status.goal,
                    route: b.brain.route_ahead(),
                    enemy: status.enemy,
                    stance: status.stance,
                    role: self.objectives.as_ref().and_then(|o| o.role(b.brain.slot())),
                    fov: b.brain.profile().resolved.traits.fov,
                    tracks: b.brain.beliefs(),
                }
            })
            .collect()
    }

    /// Every bot's stuck episodes this match, closed and open (with its
    /// slot), for a live view to gather into hotspots off the tick thread
    /// ([`crate::stuck::hotspots`]).
    pub fn stuck_episodes(&self) -> Vec<(u32, crate::stuck::StuckEpisode)> {
        self.bots
            .iter()
            .flat_map(|b| {
                let p = b.brain.profile();
                p.stuck.episodes().map(move |e| (u32::from(p.slot.0), *e))
            })
            .collect()
    }

    /// Changes whenever a bot's stuck episode closes (or a bot with some
    /// leaves): a live view gathers the episodes again only then.
    pub fn stuck_revision(&self) -> u64 {
        self.bots.iter().map(|b| b.brain.profile().stuck.closed()).sum::<u64>().wrapping_add(self.bots.len() as u64)
    }

    /// `botlist` as text lines.
    pub fn list_lines(&self, game: Option<&Match>) -> Vec<String> {
        let rows = self.list(game);
        let mut out = Vec::with_capacity(rows.len() + 3);
        out.push(match (&self.objectives, game) {
            (Some(o), _) => o.describe(),
            (None, Some(g)) => crate::objective::provider_for(g.rules().gametype).describe(),
            (None, None) => "objective: none (no match)".to_owned(),
        });
        if rows.is_empty() {
            out.push("no bots".to_owned());
        } else {
            out.push(format!(
                "{:>4} {:<16} {:>5} {:<6} {:<14} {:>7} {:<16} {:>5}",
                "slot", "name", "skill", "state", "goal", "route", "enemy", "frags"
            ));
            for r in rows {
                let state = match (self.settings.pause, r.status.alive, r.status.origin.is_some()) {
                    (true, ..) => "paused",
                    (false, true, _) => "alive",
                    (false, false, true) => "dead",
                    // No body: spectating, or waiting in a Duel queue.
                    (false, false, false) => "waiting",
                };
                let route = r
                    .status
                    .route
                    .map_or_else(|| "-".to_owned(), |(i, n)| format!("{i}/{n}"));
                out.push(format!(
                    "{:>4} {:<16} {:>5.2} {:<6} {:<14} {:>7} {:<16} {:>5}{}{}",
                    r.slot.0,
                    r.name,
                    r.skill,
                    state,
                    r.status.goal,
                    route,
                    r.enemy.unwrap_or_else(|| "-".to_owned()),
                    r.frags,
                    if r.status.firing && r.status.alive { "  firing" } else { "" },
                    if r.filled { "  (fill)" } else { "" }
                ));
            }
        }
        out.push(self.nav.describe());
        out
    }
}

/// The skill a bot plays at: its life's once it has lived, else the one
/// its next life will get from the settings.
fn skill_now(p: &crate::brain::BotProfile, settings: &crate::brain::BrainSettings) -> f32 {
    if p.stats.alive_ticks > 0 { p.skill } else { p.effective_skill(settings) }
}
