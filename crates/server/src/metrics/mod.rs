//! Prometheus metrics: `sv_metricsAddr HOST:PORT` (or `PORT`, on loopback)
//! serves `/metrics` in the text exposition format from the HTTP thread
//! ([`crate::http`]). The tick thread only updates atomics: one histogram
//! observation, a look at the tick's events and at what changed in the
//! accuracy book ([`accuracy`]) each tick, and once a second a sample of
//! the slower figures (players by team, traffic, round trips, the navmesh,
//! bots' stuck time).
//!
//! Names follow Prometheus conventions: the `quarry_` prefix, base units
//! (seconds, bytes), counters ending in `_total` (the encoder adds it).

mod accuracy;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_sim::Match;
use quarry_sim::events::GameEvent;
use quarry_sim::slots::{ClientKind, Team};

use crate::feature::{Measured, MatchView, Observer, ServerSample, TickReport};
use crate::http::HttpServer;

/// A label set of one label.
type Label1 = [(&'static str, &'static str); 1];
/// A label set of two labels.
type Label2 = [(&'static str, &'static str); 2];

/// Every metric the server exports.
#[derive(Clone)]
struct Exported {
    tick_seconds: Histogram,
    late_ticks: Counter,
    players: Family<Label2, Gauge>,
    net_bytes: Family<Label1, Counter>,
    net_dropped: Family<Label2, Counter>,
    connections: Gauge,
    rtt_seconds: Histogram,
    matches: Family<Label1, Counter>,
    kills: Family<Label1, Counter>,
    chat_lines: Family<Label1, Counter>,
    nav_build_seconds: Gauge<f64, AtomicU64>,
    nav_nodes: Gauge,
    nav_links: Gauge,
    bot_stuck_seconds: Counter<f64, AtomicU64>,
    game_log_lost: Counter,
}

impl Exported {
    fn register(registry: &mut Registry) -> Self {
        let e = Self {
            // 0.25 ms .. 64 ms: a 60 Hz tick has 16.7 ms.
            tick_seconds: Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(0.000_25, 2.0, 9)),
            late_ticks: Counter::default(),
            players: Family::default(),
            net_bytes: Family::default(),
            net_dropped: Family::default(),
            connections: Gauge::default(),
            // 5 ms .. 1.28 s.
            rtt_seconds: Histogram::new(prometheus_client::metrics::histogram::exponential_buckets(0.005, 2.0, 9)),
            matches: Family::default(),
            kills: Family::default(),
            chat_lines: Family::default(),
            nav_build_seconds: Gauge::default(),
            nav_nodes: Gauge::default(),
            nav_links: Gauge::default(),
            bot_stuck_seconds: Counter::default(),
            game_log_lost: Counter::default(),
        };
        registry.register("quarry_tick_duration_seconds", "Time the server spent on one tick (network, bots, simulation, snapshots)", e.tick_seconds.clone());
        registry.register("quarry_ticks_late", "Ticks that started after their time", e.late_ticks.clone());
        registry.register("quarry_players", "Players in the running match by team and kind (human or bot)", e.players.clone());
        registry.register("quarry_network_bytes", "Payload bytes exchanged with players, by direction", e.net_bytes.clone());
        registry.register(
            "quarry_network_dropped",
            "Messages, datagrams and connections dropped or refused, by connection class (client, handshake, query, admin, web) and reason",
            e.net_dropped.clone(),
        );
        registry.register("quarry_network_connections", "Open QUIC connections, accepted or handshaking", e.connections.clone());
        registry.register("quarry_client_rtt_seconds", "Round-trip times of connected players, sampled each second", e.rtt_seconds.clone());
        registry.register("quarry_matches", "Matches started, by game type", e.matches.clone());
        registry.register("quarry_kills", "Deaths, by means (weapon, splash, falling, lava, telefrag, suicide, ...)", e.kills.clone());
        registry.register("quarry_chat_lines", "Chat lines, by speaker (player, bot, console)", e.chat_lines.clone());
        registry.register("quarry_navmesh_build_seconds", "Time the last navmesh build took", e.nav_build_seconds.clone());
        registry.register("quarry_navmesh_nodes", "Nodes of the running map's navmesh", e.nav_nodes.clone());
        registry.register("quarry_navmesh_links", "Links of the running map's navmesh", e.nav_links.clone());
        registry.register("quarry_bot_stuck_seconds", "Seconds bots spent stuck (no progress along their route)", e.bot_stuck_seconds.clone());
        registry.register("quarry_game_log_lost_records", "Game log records lost because its writer fell behind", e.game_log_lost.clone());
        e
    }
}

/// The server's metrics and their endpoint.
pub struct Metrics {
    addr_cvar: CvarId,
    addr_seen: u64,
    registry: Arc<Registry>,
    exported: Exported,
    server: Option<HttpServer>,
    /// Matches counted (a new value of `matches_started` is a new match).
    matches_counted: u64,
    /// Running totals already counted, for the counters fed by totals.
    seen_late: u64,
    seen_lost: u64,
    /// Refusal totals already counted, by class and reason.
    seen_refused: BTreeMap<(&'static str, &'static str), u64>,
    /// Why the endpoint asked for is not serving, when it failed to start.
    failed: Option<String>,
    seen_stuck: BTreeMap<u8, u64>,
    seen_nav_builds: u32,
    /// Shots, hits, splash hits and damage by weapon, band and kind of player.
    accuracy: accuracy::AccuracyCounters,
}

impl Metrics {
    /// Registers `sv_metricsAddr` and every metric; nothing listens yet.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let addr_cvar = console.register_cvar(
            CvarDef::string(
                "sv_metricsAddr",
                "",
                "address of the Prometheus /metrics endpoint: HOST:PORT, or PORT alone for 127.0.0.1:PORT; empty = off",
            )
            .flags(CvarFlags::ARCHIVE),
        )?;
        let mut registry = Registry::default();
        let exported = Exported::register(&mut registry);
        let accuracy = accuracy::AccuracyCounters::register(&mut registry);
        Ok(Self {
            addr_cvar,
            addr_seen: u64::MAX,
            registry: Arc::new(registry),
            exported,
            server: None,
            matches_counted: 0,
            seen_late: 0,
            seen_lost: 0,
            seen_refused: BTreeMap::new(),
            failed: None,
            seen_stuck: BTreeMap::new(),
            seen_nav_builds: 0,
            accuracy,
        })
    }

    /// Starts, moves or stops the endpoint when `sv_metricsAddr` changed.
    /// Returns a console line saying what happened.
    pub fn apply_cvars(&mut self, cvars: &CvarSet) -> Option<String> {
        let cvar = cvars.get(self.addr_cvar);
        if cvar.modification_count() == self.addr_seen {
            return None;
        }
        self.addr_seen = cvar.modification_count();
        let text = cvar.value().to_string();
        if let Some(s) = self.server.take() {
            s.stop();
        }
        self.failed = None;
        if text.trim().is_empty() {
            return None;
        }
        let started = crate::http::parse_address(&text)
            .and_then(|addr| crate::http::HttpServer::start("metrics-http", addr, router(Arc::clone(&self.registry))));
        Some(match started {
            Ok(server) => {
                let line = format!("metrics on http://{}/metrics", server.local_addr());
                self.server = Some(server);
                line
            }
            Err(e) => {
                let why = format!("sv_metricsAddr {text}: {e}");
                let line = format!("error: {why}; metrics are off");
                self.failed = Some(why);
                line
            }
        })
    }

    /// Why the endpoint `sv_metricsAddr` asks for is not serving, when it
    /// failed to start (for `status`: not "off").
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Where the endpoint listens, when it does.
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.as_ref().map(HttpServer::local_addr)
    }

    /// Whether the endpoint is serving (the tick's share is skipped otherwise).
    pub fn is_on(&self) -> bool {
        self.server.is_some()
    }

    /// The counts a tick's events add.
    fn count_events(&self, game: Option<&Match>, events: &[GameEvent]) {
        let e = &self.exported;
        for ev in events {
            match ev {
                GameEvent::Kill { means, .. } => {
                    e.kills.get_or_create(&[("means", means.name())]).inc();
                }
                GameEvent::Chat { from, .. } => {
                    let who = match from.and_then(|s| game.and_then(|g| g.slots().get(s))) {
                        Some(s) if s.kind == ClientKind::Bot => "bot",
                        Some(_) => "player",
                        None => "console",
                    };
                    e.chat_lines.get_or_create(&[("from", who)]).inc();
                }
                _ => {}
            }
        }
    }

    /// A match started.
    pub fn match_started(&self, game: &Match) {
        self.exported.matches.get_or_create(&[("gametype", game.rules().gametype.name())]).inc();
    }

    /// The once-a-second figures.
    fn sample(&mut self, view: &MatchView<'_>, sample: &ServerSample) {
        let e = &self.exported;
        e.late_ticks.inc_by(sample.late_ticks.saturating_sub(self.seen_late));
        self.seen_late = sample.late_ticks.max(self.seen_late);
        e.game_log_lost.inc_by(sample.game_log_lost.saturating_sub(self.seen_lost));
        self.seen_lost = sample.game_log_lost.max(self.seen_lost);
        e.players.clear();
        if let Some(game) = view.game {
            let mut counts: BTreeMap<(Team, bool), i64> = BTreeMap::new();
            for (_, s) in game.slots().iter() {
                *counts.entry((s.team, s.kind == ClientKind::Bot)).or_default() += 1;
            }
            for ((team, bot), n) in counts {
                e.players.get_or_create(&[("team", team.name()), ("kind", if bot { "bot" } else { "human" })]).set(n);
            }
            self.sample_bots(game, view.bots);
        }
        let e = &self.exported;
        for r in &sample.refused {
            let seen = self.seen_refused.entry((r.class, r.reason)).or_default();
            e.net_dropped.get_or_create(&[("class", r.class), ("reason", r.reason)]).inc_by(r.total.saturating_sub(*seen));
            *seen = r.total.max(*seen);
        }
        if let Some(t) = &sample.traffic {
            e.net_bytes.get_or_create(&[("direction", "in")]).inc_by(t.bytes_in);
            e.net_bytes.get_or_create(&[("direction", "out")]).inc_by(t.bytes_out);
            for &(class, reason, n) in &t.dropped {
                e.net_dropped.get_or_create(&[("class", class), ("reason", reason)]).inc_by(n);
            }
            for rtt in &t.rtts {
                e.rtt_seconds.observe(*rtt);
            }
            e.connections.set(i64::try_from(t.open_connections).unwrap_or(i64::MAX));
        }
    }

    fn sample_bots(&mut self, game: &Match, bots: &quarry_bots::BotManager) {
        let e = &self.exported;
        let nav = bots.nav();
        if let Some(mesh) = nav.mesh()
            && nav.builds() != self.seen_nav_builds
        {
            self.seen_nav_builds = nav.builds();
            e.nav_build_seconds.set(mesh.build_times().total_ms / 1000.0);
            e.nav_nodes.set(i64::try_from(mesh.node_count()).unwrap_or(i64::MAX));
            e.nav_links.set(i64::try_from(mesh.link_count()).unwrap_or(i64::MAX));
        }
        let hz = f64::from(game.hz().max(1));
        let mut stuck_now = BTreeMap::new();
        for slot in bots.slots() {
            let ticks = bots.stats(slot).map_or(0, |s| s.stuck_ticks);
            let before = self.seen_stuck.get(&slot.0).copied().unwrap_or(0);
            // A bot's figures start again at zero when its slot is reused.
            let new = if ticks >= before { ticks - before } else { ticks };
            if new > 0 {
                e.bot_stuck_seconds.inc_by(new as f64 / hz);
            }
            stuck_now.insert(slot.0, ticks);
        }
        self.seen_stuck = stuck_now;
    }

    /// Stops the endpoint.
    pub fn stop(&mut self) {
        if let Some(s) = self.server.take() {
            s.stop();
        }
    }

    /// The exposition text, as `/metrics` serves it.
    pub fn encode(&self) -> String {
        encode(&self.registry)
    }
}

impl Observer for Metrics {
    fn sync(&mut self, cvars: &CvarSet, startup_done: bool) -> Option<String> {
        // The endpoint starts once the startup files and command line ran.
        if startup_done { self.apply_cvars(cvars) } else { None }
    }

    fn after_tick(&mut self, report: &TickReport<'_>) {
        let view = &report.view;
        if view.matches_started != self.matches_counted {
            self.matches_counted = view.matches_started;
            self.accuracy.forget();
            if let Some(game) = view.game {
                self.match_started(game);
            }
        }
        if let Some(game) = view.game {
            self.accuracy.look(game, self.server.is_some());
        }
        if self.server.is_none() {
            return;
        }
        self.count_events(view.game, report.events);
        if let Some(sample) = report.sample {
            self.sample(view, sample);
        }
    }

    fn tick_measured(&mut self, measured: &Measured<'_>) {
        if self.server.is_some() {
            self.exported.tick_seconds.observe(measured.tick_time.as_secs_f64());
        }
    }

    fn shutdown(&mut self, _view: &MatchView<'_>, _summary: Option<&crate::headless::HeadlessSummary>, _reason: &str) {
        self.stop();
    }

    fn status(&self, lines: &mut Vec<String>) {
        lines.push(match (self.local_addr(), self.failure()) {
            (Some(addr), _) => format!("metrics : http://{addr}/metrics"),
            (None, Some(why)) => format!("metrics : not serving: {why}"),
            (None, None) => "metrics : off (sv_metricsAddr PORT turns them on)".to_owned(),
        });
    }
}

fn encode(registry: &Registry) -> String {
    let mut text = String::new();
    if prometheus_client::encoding::text::encode(&mut text, registry).is_err() {
        text.clear();
    }
    text
}

/// `/metrics` and a one-line index.
fn router(registry: Arc<Registry>) -> axum::Router {
    use axum::http::header::CONTENT_TYPE;
    use axum::routing::get;
    axum::Router::new()
        .route(
            "/metrics",
            get(move || {
                let registry = Arc::clone(&registry);
                async move { ([(CONTENT_TYPE, "application/openmetrics-text; version=1.0.0; charset=utf-8")], encode(&registry)) }
            }),
        )
        .route("/", get(|| async { "quarry-server: metrics at /metrics\n" }))
}
