//! The tick, as Quake's `SV_Frame` reads: one call per step, in order.
//!
//! 1. settings: cvar changes the loop depends on, then the tick's
//!    [`ServerSettings`] read once;
//! 2. the features' `before_tick` (a new match's recording starts with the
//!    clients it has), then the network's input (joins, commands, admin
//!    requests, the query's answer);
//! 3. the bots think and push their commands into the same input queues;
//! 4. the match steps; the observers see the tick;
//! 5. the network's output (events and snapshots);
//! 6. the controllers, each one's requests run before the next one looks;
//! 7. the match's end (a headless run stops, a server rotates);
//! 8. the tick's time is taken, then the features that report on it run.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the game log is told the bots' skills, in ticks.
const BOT_SKILLS_EVERY_TICKS: u64 = 16;

use quarry_sim::events::GameEvent;

use super::Server;
use crate::cvars::ServerSettings;
use crate::feature::{MatchView, Measured, Request, Requests, ServerSample, TickReport};
use crate::tick_stats::{Phase, PhaseTimes};

/// Why a headless run stops when its match never went live
/// ([`crate::game::GameHost::never_started`]); such a run exits 1.
pub const NEVER_STARTED: &str = "the match never went live";

/// Times the phases of one tick.
struct PhaseTimer {
    started: Instant,
    lap: Instant,
    phases: PhaseTimes,
}

impl PhaseTimer {
    fn start() -> Self {
        let now = Instant::now();
        Self { started: now, lap: now, phases: PhaseTimes::default() }
    }

    fn split(&mut self, phase: Phase) {
        let now = Instant::now();
        self.phases[phase as usize] = now - self.lap;
        self.lap = now;
    }
}

/// The features' view of `state` (a macro, so the borrows stay on the
/// fields it names and the features can be borrowed beside them).
macro_rules! match_view {
    ($server:expr, $map_name:expr) => {
        MatchView {
            game: $server.state.game.running.as_ref(),
            map_name: $map_name,
            map_path: $server.state.game.map_path.as_deref(),
            matches_started: $server.state.game.matches_started,
            headless: $server.state.game.headless,
            listening: $server.state.net.is_some(),
            fingerprint: $server.state.net.as_ref().map(|n| n.fingerprint_text()),
            bots: &$server.state.bots,
            cvars: $server.console.cvars(),
            config_dir: &$server.config_dir,
        }
    };
}

impl Server {
    /// One tick of game work (see the module doc).
    pub fn tick(&mut self) {
        let mut timer = PhaseTimer::start();
        let settings = self.settings_for_tick();
        let map_name = self.state.game.map_name();
        self.state.features.before_tick(&match_view!(self, &map_name));
        self.network_in(&settings, &map_name);
        timer.split(Phase::NetIn);
        self.bots_think();
        timer.split(Phase::Bots);
        let events = self.step_match(settings.tick_rate);
        self.observe(&events, &map_name, timer.started, settings.tick_rate);
        timer.split(Phase::Sim);
        self.network_out(&events, &settings, &map_name);
        timer.split(Phase::NetOut);
        self.control(&events, &map_name, timer.started, settings.tick_rate);
        self.end_of_match_or_never_started();
        let tick_time = timer.started.elapsed();
        self.state.stats.record_phases(timer.started, tick_time, timer.phases);
        self.measured(timer.started, tick_time, &map_name);
    }

    /// Applies cvar changes the loop depends on, then gives the settings
    /// this tick runs with (read again only after a cvar changed).
    fn settings_for_tick(&mut self) -> Arc<ServerSettings> {
        self.sync_cvars();
        let generation = self.console.cvars().generation();
        match &self.settings {
            Some((seen, settings)) if *seen == generation => Arc::clone(settings),
            _ => {
                let settings = Arc::new(self.state.cvars.read(self.console.cvars()));
                self.settings = Some((generation, Arc::clone(&settings)));
                settings
            }
        }
    }

    /// Joins, commands and admin requests in; the query's answer out,
    /// twice a second.
    fn network_in(&mut self, settings: &ServerSettings, map_name: &str) {
        if let Some(net) = self.state.net.as_mut() {
            let facts = crate::network::ServerFacts {
                hostname: &settings.hostname,
                password: &settings.password,
                tick_rate: settings.tick_rate,
                snapshot_rate: settings.snapshot_rate,
                map: self.state.game.map_offer.as_ref(),
                download: settings.download,
                votes: &settings.votes,
                tick: self.state.stats.total_ticks(),
            };
            let bots = &mut self.state.bots;
            let mut make_room = |game: &mut quarry_sim::Match| {
                bots.make_room_for_human(game);
            };
            for line in net.poll(self.state.game.running.as_mut(), &mut make_room, &facts, map_name) {
                self.console.print(line);
            }
        }
        self.decide_vote();
        self.serve_admin_requests();
        if let Some(net) = self.state.net.as_ref()
            && self.state.stats.total_ticks().is_multiple_of(u64::from((settings.tick_rate / 2).max(1)))
        {
            let info = super::rcon::query_info(&self.state, self.console.cvars());
            net.publish_query(&info);
            net.publish_oob(&info);
            net.set_masters(settings.listing.clone());
        }
    }

    /// A vote the players' ballots (or its time) decided: announced to
    /// everyone; a passed one's commands run on the console as `vote`.
    fn decide_vote(&mut self) {
        let tick = self.state.stats.total_ticks();
        let Some(decision) = self.state.net.as_mut().and_then(|n| n.decide_vote(tick)) else { return };
        let (announce, commands) = match decision {
            // The slot may have changed hands while the vote ran.
            crate::votes::Decision::Passed(crate::votes::VoteKind::Kick { slot, name })
                if self.state.game.running.as_ref().and_then(|g| g.slots().get(quarry_sim::SlotId(slot))).is_none_or(|s| s.userinfo.name != name) =>
            {
                (format!("vote void: {name} left before it passed"), Vec::new())
            }
            crate::votes::Decision::Passed(kind) => (format!("vote passed: {}", kind.describe()), kind.commands()),
            crate::votes::Decision::Failed(why) => (why, Vec::new()),
        };
        // Straight to the players: a passed vote may replace the match
        // (and its pending prints) within this call.
        if let Some(net) = self.state.net.as_mut() {
            net.announce(&announce);
        }
        self.console.print(announce);
        let mut requests = Requests::default();
        for (name, args) in commands {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            requests.run(&name, &args);
        }
        self.carry_out("vote", requests);
    }

    /// Bots think right before the step and push their commands into the
    /// same input queue the network just filled.
    fn bots_think(&mut self) {
        let Some(game) = self.state.game.running.as_mut() else { return };
        self.state.bots.update_settings(self.console.cvars());
        self.state.bots.think(game);
        for line in self.state.bots.take_notices() {
            self.console.print(line);
        }
        // The game log's match end says each bot's skill; told a few times a second.
        if self.state.stats.total_ticks().is_multiple_of(BOT_SKILLS_EVERY_TICKS) {
            self.state.game.log.set_bot_skills(self.state.bots.skills().map(|(slot, skill)| (slot.0, skill)));
        }
    }

    /// The match steps once; returns its events.
    fn step_match(&mut self, hz: u32) -> Vec<GameEvent> {
        let net = self.state.net.as_ref();
        let address_of = move |slot| net.and_then(|n| n.address_hash(slot));
        let (lines, events) = self.state.game.tick(self.console.cvars(), hz, &address_of);
        for line in lines {
            self.console.print(line);
        }
        events
    }

    /// The observers see the tick (the figures once a second).
    fn observe(&mut self, events: &[GameEvent], map_name: &str, started: Instant, hz: u32) {
        let tick = self.state.stats.total_ticks() + 1;
        let sample = tick.is_multiple_of(u64::from(hz.max(1))).then(|| self.sample());
        let report = TickReport { view: match_view!(self, map_name), tick, hz, events, started, sample: sample.as_ref() };
        self.state.features.after_tick(&report);
    }

    /// The server's once-a-second figures for the features that export them.
    fn sample(&mut self) -> ServerSample {
        ServerSample {
            late_ticks: self.state.stats.late_ticks,
            game_log_lost: self.state.game.log.lost(),
            traffic: self.state.net.as_mut().map(crate::network::NetServer::traffic_sample),
            refused: self.state.features.refusals(),
        }
    }

    /// Events and snapshots out.
    fn network_out(&mut self, events: &[GameEvent], settings: &ServerSettings, map_name: &str) {
        let server_tick = u32::try_from(self.state.stats.total_ticks() + 1).unwrap_or(u32::MAX);
        let every = (settings.tick_rate / settings.snapshot_rate).max(1);
        if let (Some(net), Some(game)) = (self.state.net.as_mut(), self.state.game.running.as_mut()) {
            for line in net.after_tick(game, events, server_tick, every, map_name) {
                self.console.print(line);
            }
        }
    }

    /// The controllers look at the tick and ask for changes; each one's
    /// requests run before the next one looks.
    fn control(&mut self, events: &[GameEvent], map_name: &str, started: Instant, hz: u32) {
        let tick = self.state.stats.total_ticks() + 1;
        for index in 0..self.state.features.controller_count() {
            let report = TickReport { view: match_view!(self, map_name), tick, hz, events, started, sample: None };
            let mut requests = Requests::default();
            let Some(origin) = self.state.features.control_one(index, &report, &mut requests) else { continue };
            self.carry_out(origin, requests);
        }
    }

    /// Runs what a controller asked for, under its origin.
    fn carry_out(&mut self, origin: &str, mut requests: Requests) {
        for request in requests.take() {
            match request {
                Request::Print(line) => self.console.print(line),
                Request::Quit(reason) => self.state.request_quit(reason),
                Request::Run { name, args } => {
                    let line = std::iter::once(name.clone()).chain(args.iter().map(|a| format!("\"{a}\""))).collect::<Vec<_>>().join(" ");
                    self.state.game.log.admin(self.console.cvars(), origin, &line);
                    if let Err(error) = self.console.dispatch(&mut self.state, &name, &args, origin, 0) {
                        self.console.print(format!("error: {origin}: {line}: {error}"));
                    }
                }
            }
        }
    }

    /// A match that ended moves on; a headless one that never went live stops.
    fn end_of_match_or_never_started(&mut self) {
        if self.state.game.match_over() {
            self.end_of_match();
        } else if self.state.game.never_started() {
            let players = self.state.game.running.as_ref().map_or(0, |g| g.slots().iter().filter(|(_, s)| s.team != quarry_sim::Team::Spectator).count());
            self.console.print(format!("the match never went live: {players} player(s) in it after its time limit (a duel needs two: bot_minPlayers 2)"));
            self.state.request_quit(NEVER_STARTED.to_owned());
        }
    }

    /// After the tick's time is taken: the features that report on it.
    fn measured(&mut self, started: Instant, tick_time: Duration, map_name: &str) {
        let map_name = self.state.game.running.is_some().then_some(map_name);
        let measured = Measured { started, tick_time, stats: &self.state.stats, map_name, cvars: self.console.cvars() };
        self.state.features.tick_measured(&measured);
    }

    /// The match ended: the features hear of it, then a headless run stops
    /// and a server moves to the next map of `sv_mapRotation` (or restarts
    /// this one) unless a controller stopped it.
    fn end_of_match(&mut self) {
        let summary = self.summary(self.state.started.elapsed());
        let map_name = self.state.game.map_name();
        let asked = self.state.features.match_over(&match_view!(self, &map_name), summary.as_ref());
        if self.state.fast {
            self.state.request_quit("match over".to_owned());
            return;
        }
        if let Some(game) = self.state.game.running.as_ref() {
            self.console.print(format!("final scores on {map_name}:"));
            for line in game.scoreboard().to_string().lines() {
                self.console.print(line.to_owned());
            }
        }
        for (origin, requests) in asked {
            self.carry_out(origin, requests);
        }
        if self.state.quit.is_some() {
            return;
        }
        self.next_match();
    }

    /// Loads the next map of the pool (`sv_mapPoolFile`) or the rotation,
    /// or restarts this one.
    fn next_match(&mut self) {
        // A card match plays again rather than rotate.
        let card = self.state.features.get::<crate::cards::live::LiveCards>().is_some_and(|c| c.current.is_some());
        let next = if card { None } else { crate::commands::next_map(&self.state, &mut self.console) };
        let hz = self.clock_hz();
        let result = match next {
            Some(name) => self.state.game.change_map(self.console.cvars_mut(), &name, hz),
            None => self.state.game.restart(self.console.cvars_mut(), hz),
        };
        match result {
            Ok(line) => self.console.print(line),
            Err(e) => {
                self.console.print(format!("error: next map: {e}; restarting the current one"));
                if let Err(e) = self.state.game.restart(self.console.cvars_mut(), hz) {
                    self.console.print(format!("error: restart failed: {e}"));
                }
            }
        }
    }

    /// Tells clients the server is going away, lets every feature finish,
    /// then writes the archive file atomically (after any write still in
    /// flight). A headless match leaves the archive as it was.
    pub fn shutdown(&mut self) -> Result<Option<std::path::PathBuf>, quarry_console::ArchiveError> {
        let reason = self.state.quit_reason().unwrap_or("quit").to_owned();
        if let Some(net) = self.state.net.as_mut() {
            net.shutdown(&reason);
        }
        let summary = self.summary(self.state.started.elapsed());
        let map_name = self.state.game.map_name();
        self.state.features.shutdown(&match_view!(self, &map_name), summary.as_ref(), &reason);
        let game = &mut self.state.game;
        game.log.close(game.running.as_ref(), &reason);
        if self.state.fast {
            return Ok(None);
        }
        self.archive.flush(self.console.cvars()).map(Some)
    }
}
