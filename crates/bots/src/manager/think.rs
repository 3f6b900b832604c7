//! The manager's tick: every bot observes the tick's events, thinks in a
//! rotating order within the tick's routing and line-of-sight budgets, and
//! its command (and any chat) goes out through its own `CmdSink`.

use std::time::Instant;

use quarry_sim::Match;

use super::*;

impl BotManager {
    /// Lets every bot think and pushes one command per bot slot. Call once
    /// per tick, right before `Match::step`.
    pub fn think(&mut self, game: &mut Match) {
        let started = Instant::now();
        // A background build that finished is picked up here, at the tick boundary.
        if let Some(line) = self.nav.poll() {
            self.notices.push(line);
        }
        self.sync_match(game);
        self.prune(game);
        self.fill(game);
        if self.bots.is_empty() {
            self.last_think = started.elapsed();
            return;
        }
        self.nav.set_max_nodes(self.settings.nav_max_nodes);
        if let Err(e) = self.nav.ensure(game, self.settings.nav_cell_size) {
            tracing::debug!(target: "quarry_bots", "no navmesh: {e}");
        }
        // While the mesh is built in the background nobody plans a goal (a
        // route asked for now would fail and blacklist the goal); aiming,
        // fighting and dodging go on.
        let building = self.nav.is_building();
        let status_due = self.settings.debug >= 2 && game.tick() >= self.current.next_status;
        self.outbox.cmds.clear();
        self.outbox.chat.clear();
        {
            let view = BotView::build(game, &mut self.current.view_cache);
            self.observe(&view, game);
            self.run_brains(&view, game, building, status_due);
            self.team_talk(&view, game);
        }
        if status_due {
            self.current.next_status = game.tick() + (STATUS_INTERVAL_S * game.hz() as f32) as u32;
        }
        self.deliver(game);
        let clock = crate::view::BotClock { tick: game.tick().wrapping_add(1), hz: game.hz() };
        let dead = |slot| game.player_view(slot).is_none_or(|p| !p.alive);
        for line in self.chat.due(clock, dead) {
            if self.say(game, &line) {
                self.carry(game, &line, &clock);
            }
        }
        self.last_think = started.elapsed();
    }

    /// Team calls: each bot's offer weighed and queued in its voice,
    /// orders read and answered (a taken order goes to its brain).
    fn team_talk(&mut self, view: &BotView<'_>, game: &Match) {
        let offers: Vec<(SlotId, crate::team::TeamCall)> = self
            .bots
            .iter_mut()
            .filter_map(|b| b.brain.team_call().map(|c| (b.brain.slot(), c)))
            .collect();
        let content = self.persona.content.as_ref().filter(|_| self.settings.characters);
        let answers = {
            let brains: Vec<&dyn Brain> = self.bots.iter().map(|b| b.brain.as_ref()).collect();
            self.chat
                .team_tick(view, game, &brains, &offers, content, &self.settings.chat_settings(), (self.settings.team_chatter, self.settings.team_chatter_team))
        };
        for a in answers.iter().filter(|a| a.taken) {
            if let Some(entry) = self.bots.iter_mut().find(|b| b.brain.slot() == a.bot) {
                entry.brain.take_order(a.order);
            }
        }
    }

    /// A team line was said: its fact goes to every living teammate bot,
    /// its order to the team layer.
    fn carry(&mut self, game: &Match, line: &crate::chat::Outgoing, clock: &crate::view::BotClock) {
        let Some(attach) = line.attach else { return };
        let team = game.slots().get(line.slot).map(|s| s.team);
        match attach {
            crate::team::Attachment::Fact(fact) => {
                self.chat.team_delivered(&fact, clock);
                for entry in &mut self.bots {
                    let slot = entry.brain.slot();
                    let mate = slot != line.slot && game.slots().get(slot).map(|s| s.team) == team;
                    if mate && game.player_view(slot).is_some_and(|p| p.alive) {
                        entry.brain.receive(&fact, clock);
                    }
                }
            }
            crate::team::Attachment::Order(kind) => self.chat.team_said_order(line.slot, kind),
        }
    }

    /// What the tick's events mean before anyone thinks: each bot's
    /// counters, chat events and replies, pickups.
    fn observe(&mut self, view: &BotView<'_>, game: &Match) {
        for entry in &mut self.bots {
            entry.brain.record_events(view);
        }
        {
            let brains: Vec<&dyn Brain> = self.bots.iter().map(|b| b.brain.as_ref()).collect();
            let content = self.persona.content.as_ref().filter(|_| self.settings.characters && self.settings.chat > 0);
            self.chat.hear(view, game, &brains, content, &self.settings.chat_settings());
        }
        for ev in &view.events {
            if let quarry_sim::events::GameEvent::ItemPickup { slot, item, origin } = ev
                && self.bots.iter().any(|b| b.brain.slot() == *slot)
            {
                *self.current.pickups.entry(item).or_default() += 1;
                *self.current.spots.entry((item, crate::report::spot_key(*origin))).or_default() += 1;
            }
        }
    }

    /// The objective plan, then every brain's tick, starting at a bot that
    /// rotates with the tick so a spent budget never starves the same bots.
    fn run_brains(&mut self, view: &BotView<'_>, game: &Match, building: bool, status_due: bool) {
        let settings = self.brain_settings();
        let period = (game.hz() as f32 / self.settings.think_rate.max(1) as f32)
            .round()
            .max(1.0) as u32;
        if let Ok(mut lib) = self.scripts.lock() {
            // Scripted brains query a navigator of their own over the same mesh.
            let nav = &self.nav;
            lib.offer_nav(nav.ready_generation(), || nav.shared().map(|n| Box::new(n) as Box<dyn crate::navigate::Navigator + Send>));
        }
        let world = game.map().world();
        let mut mesh_nav = self.nav.navigator(world);
        let mut fallback = crate::navigate::StraightNavigator::default();
        let mut pending = crate::navmesh::PendingNavigator;
        let nav: &mut dyn crate::navigate::Navigator = match mesh_nav.as_mut() {
            Some(n) => n,
            None if building => &mut pending,
            None => &mut fallback,
        };
        let bot_slots: Vec<SlotId> = self.bots.iter().map(|b| b.brain.slot()).collect();
        if let Some(o) = self.objectives.as_deref_mut()
            && !building
        {
            o.plan(view, &bot_slots, nav);
        }
        let objectives = self.objectives.as_deref();
        let source = active_source(&self.persona.content, self.persona.traits.as_ref(), self.settings.characters);
        let routes_before = nav.queries();
        let mut sight_left = SIGHT_BUDGET_PER_TICK;
        let n = self.bots.len();
        let first = view.clock.tick as usize % n.max(1);
        for k in 0..n {
            let Some(entry) = self.bots.get_mut((first + k) % n) else {
                continue;
            };
            let b = &mut entry.brain;
            let slot = b.slot();
            let decide = Decide {
                perceive: (view.clock.tick + u32::from(slot.0)).is_multiple_of(period),
                sight_budget: sight_left,
                plan: !building && nav.queries() - routes_before < ROUTE_BUDGET,
            };
            // `bot_tacticalTeam`: the other side plays at level 0.
            let own = match self.settings.tactical_team {
                Some(side) if !side.includes(slot, view.player(slot).map(|p| p.team)) => BrainSettings { tactical: crate::tactics::TacticalLevel::OFF, ..settings },
                _ => settings,
            };
            let mut input = BrainInput {
                view,
                nav: &mut *nav,
                source,
                objectives,
                ignored: &self.ignored,
                settings: &own,
                decide,
            };
            let out = b.tick(&mut input);
            sight_left = sight_left.saturating_sub(b.sight_checks());
            self.outbox.cmds.push((slot, out.cmd));
            if let Some(line) = out.chat {
                self.outbox.chat.push((slot, line));
            }
            if status_due {
                log_status(b.as_ref(), view);
            }
        }
    }

    /// Pushes this tick's commands, then the brains' chat, through each
    /// bot's own `CmdSink`.
    fn deliver(&mut self, game: &mut Match) {
        for &(slot, cmd) in &self.outbox.cmds {
            match CmdSink::new(game, slot) {
                Ok(mut sink) => {
                    if let Err(e) = sink.push(cmd) {
                        tracing::debug!(target: "quarry_bots", "slot {}: command refused: {e}", slot.0);
                    }
                }
                Err(e) => tracing::debug!(target: "quarry_bots", "{e}"),
            }
        }
        for (slot, line) in std::mem::take(&mut self.outbox.chat) {
            let team = line.team && game.rules().gametype.is_team_game();
            let result = CmdSink::new(game, slot).and_then(|mut sink| sink.say(team, &line.text));
            if let Err(e) = result {
                tracing::debug!(target: "quarry_bots", "slot {}: chat refused: {e}", slot.0);
            }
        }
    }
}

/// One `bot_debug 2` status line.
fn log_status(b: &dyn Brain, view: &BotView<'_>) {
    let s = b.status(Some(view));
    let at = s
        .origin
        .map_or_else(|| "-".to_owned(), |o| format!("({:.0} {:.0} {:.0})", o.x, o.y, o.z));
    // How it moves (speed across the ground, how deep in liquid, 0-3) and
    // the weapon in hand.
    let motion = view.player(b.slot()).map_or_else(String::new, |p| {
        let weapon = view.weapons.get(p.inventory.current).map_or("-", |w| w.name.as_str());
        format!(" speed {:.0} water {} weapon {weapon}", p.velocity.truncate().length(), p.water_level)
    });
    tracing::info!(
        target: "quarry_bots::status",
        "{} {at}{motion} hp {} armor {} goal {} route {} enemy {} {}{}",
        b.profile().identity.name,
        s.health,
        s.armor,
        s.goal,
        s.route.map_or_else(|| "-".to_owned(), |(i, n)| format!("{i}/{n}")),
        s.enemy.map_or_else(|| "-".to_owned(), |e| e.0.to_string()),
        if s.firing { "firing" } else { "" },
        s.stance.map_or_else(String::new, |st| format!(" stance {st}"))
    );
}
