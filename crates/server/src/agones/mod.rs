//! Running as an Agones game server: the server tells the fleet's
//! SDK sidecar where it stands, behind the cargo feature `agones`.
//!
//! | Agones call | when the server makes it | how |
//! |---|---|---|
//! | annotation | once, right before `Ready`: `quarry-fingerprint` = the certificate fingerprint, so an allocation returns address, port and the fingerprint a client pins (Agones stores it as `agones.dev/sdk-quarry-fingerprint`) | `PUT /metadata/annotation` `{"key": "quarry-fingerprint", "value": "AB:CD:..."}` |
//! | `Ready` | once, on the first tick with a map loaded and the UDP socket bound | `POST /ready`, retried every second until the sidecar answers (it may start after us) |
//! | `Health` | every [`HEALTH_INTERVAL`] from the tick loop: a hung tick stops them, and Agones marks the server `Unhealthy` | `POST /health` |
//! | Counters | `players` (humans) and `bots` whenever they change, each with capacity `sv_maxclients` | `PATCH /v1beta1/counters/NAME` `{"count": "N", "capacity": "M"}` |
//! | `Allocated` | seen by polling the GameServer every second; its annotations (or labels) [`GAMETYPE_KEY`] and [`MAP_KEY`] set `g_gametype` and load the map | `GET /gameserver`, `status.state == "Allocated"` |
//! | `Shutdown` | after the first match that ends once the server was allocated, with `sv_agonesShutdownAtEnd 1`; and at any graceful exit (`quit`, a signal) | `POST /shutdown`, then the process exits 0 |
//!
//! Nothing here blocks the tick thread: its calls only push into a bounded
//! queue that a worker thread drains over HTTP (a full queue drops the call
//! and counts it), and an allocation comes back through a second bounded
//! queue the tick drains. The worker never pings `Health` on its own.
//!
//! Without the feature, or without `AGONES_SDK_HTTP_PORT` in the
//! environment (Agones sets it in every game server pod), or in a headless
//! run, the server uses [`NoopSdk`] and this module costs one branch a tick.
//! A Counter must be declared in the GameServer spec (`counters:` in
//! `docker/agones/fleet.yaml`); one the sidecar does not know (404) is
//! reported once and not updated again.
//!
//! Why the SDK's HTTP gateway and not the `agones` crate: that crate builds
//! its gRPC stubs with `protoc` and brings tonic; the gateway needs neither,
//! and the requests are a handful of fixed JSON bodies to localhost (see
//! `http.rs` for why that client is written by hand).
//!
//! The REST paths and bodies are those of the Agones documentation:
//! <https://agones.dev/site/docs/guides/client-sdks/rest/> (lifecycle,
//! `GET /gameserver`) and the SDK's `sdks/swagger/beta.swagger.json`
//! (`PATCH /v1beta1/counters/{name}`, int64 fields as JSON strings).

#[cfg(feature = "agones")]
pub mod http;
#[cfg(feature = "agones")]
pub mod sdk;

use std::time::{Duration, Instant};

use quarry_console::{Console, CvarDef, CvarError, CvarId};
use quarry_sim::slots::ClientKind;

use crate::feature::{Controller, MatchView, Requests, TickReport};

/// The cvar that shuts the server down after an allocated match.
pub const SHUTDOWN_AT_END_CVAR: &str = "sv_agonesShutdownAtEnd";
/// How often the tick loop pings `Health` (Agones' default period is 5 s).
pub const HEALTH_INTERVAL: Duration = Duration::from_secs(2);
/// The environment variable Agones sets to the SDK gateway's port.
pub const PORT_ENV: &str = "AGONES_SDK_HTTP_PORT";
/// The annotation (or label) naming the map an allocation asks for.
pub const MAP_KEY: &str = "quarry.map";
/// The annotation (or label) naming the game type an allocation asks for.
pub const GAMETYPE_KEY: &str = "quarry.gametype";
/// The annotation key the certificate fingerprint is set under (Agones
/// prefixes SDK annotations: the GameServer shows
/// `agones.dev/sdk-quarry-fingerprint`).
pub const FINGERPRINT_KEY: &str = "quarry-fingerprint";
/// The Counter of humans in slots.
pub const PLAYERS_COUNTER: &str = "players";
/// The Counter of bots in slots.
pub const BOTS_COUNTER: &str = "bots";
/// How long a graceful exit waits for the calls still queued (`Shutdown`).
pub const FINISH_WAIT: Duration = Duration::from_secs(3);

/// What an allocation asks for, from the GameServer's metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allocation {
    /// [`MAP_KEY`]: a map name in the maps directory.
    pub map: Option<String>,
    /// [`GAMETYPE_KEY`]: a `g_gametype` value.
    pub gametype: Option<String>,
}

impl Allocation {
    /// Reads [`MAP_KEY`] and [`GAMETYPE_KEY`] from a GameServer as
    /// `GET /gameserver` returns it: an annotation wins over a label of the
    /// same name; empty values are absent.
    pub fn from_gameserver(gameserver: &serde_json::Value) -> Self {
        let meta = &gameserver["object_meta"];
        let read = |key: &str| {
            ["annotations", "labels"]
                .iter()
                .find_map(|kind| meta[*kind][key].as_str().map(str::trim).filter(|v| !v.is_empty()))
                .map(str::to_owned)
        };
        Self { map: read(MAP_KEY), gametype: read(GAMETYPE_KEY) }
    }
}

/// Whether `name` can be a map asked for by an allocation: a name in the
/// maps directory (letters, digits, `_`, `-`, `.`; no path), at most 64 bytes.
pub fn is_map_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The calls the server makes to the fleet. The tick thread makes them,
/// so none may block: an implementation queues and returns.
pub trait FleetSdk: Send {
    /// The server takes players (`Ready`).
    fn ready(&mut self);
    /// The tick loop is alive (`Health`).
    fn health(&mut self);
    /// The session is over: remove this server (`Shutdown`).
    fn shutdown(&mut self);
    /// Sets Counter `name` to `count` of `capacity`.
    fn set_counter(&mut self, name: &'static str, count: u64, capacity: u64);
    /// Sets the GameServer annotation `key` (Agones prefixes it `agones.dev/sdk-`).
    fn set_annotation(&mut self, key: &'static str, value: String);
    /// An allocation seen since the last call, if any (`Allocated`).
    fn allocated(&mut self) -> Option<Allocation>;
    /// Calls dropped because the queue was full.
    fn dropped(&self) -> u64;
    /// Sends what is queued and stops, waiting at most `limit` (at shutdown).
    fn finish(&mut self, limit: Duration);
}

/// The SDK when not running under Agones: every call does nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoopSdk;

impl FleetSdk for NoopSdk {
    fn ready(&mut self) {}
    fn health(&mut self) {}
    fn shutdown(&mut self) {}
    fn set_counter(&mut self, _: &'static str, _: u64, _: u64) {}
    fn set_annotation(&mut self, _: &'static str, _: String) {}
    fn allocated(&mut self) -> Option<Allocation> {
        None
    }
    fn dropped(&self) -> u64 {
        0
    }
    fn finish(&mut self, _: Duration) {}
}

/// The server's side of the fleet: the SDK and what the tick has told it.
pub struct Agones {
    sdk: Box<dyn FleetSdk>,
    active: bool,
    shutdown_at_end: CvarId,
    ready_sent: bool,
    last_health: Option<Instant>,
    /// Humans, bots and slots last sent.
    counts: Option<(u64, u64, u64)>,
    allocated: bool,
    shutdown_sent: bool,
}

impl Agones {
    /// Registers `sv_agonesShutdownAtEnd` and connects to the SDK gateway
    /// when this build has the `agones` feature, the run is live and
    /// `AGONES_SDK_HTTP_PORT` is set; otherwise the SDK is [`NoopSdk`].
    pub fn register<C: 'static>(console: &mut Console<C>, fast: bool) -> Result<Self, CvarError> {
        let shutdown_at_end = console.register_cvar(CvarDef::bool(
            SHUTDOWN_AT_END_CVAR,
            false,
            "Agones: after the first match that ends once the server was allocated, tell Agones to shut it down and exit \
             (a build with --features agones under Agones; ignored otherwise)",
        ))?;
        let mut agones = Self {
            sdk: Box::new(NoopSdk),
            active: false,
            shutdown_at_end,
            ready_sent: false,
            last_health: None,
            counts: None,
            allocated: false,
            shutdown_sent: false,
        };
        agones.connect_from_env(fast);
        Ok(agones)
    }

    /// `AGONES_SDK_HTTP_PORT`: the gateway's port, in a live run.
    fn connect_from_env(&mut self, fast: bool) {
        let Ok(port) = std::env::var(PORT_ENV) else { return };
        if fast {
            return;
        }
        match port.parse::<u16>() {
            Err(e) => tracing::warn!("{PORT_ENV}={port:?} is not a port ({e}); not talking to Agones"),
            #[cfg(feature = "agones")]
            Ok(port) => self.connect(port),
            #[cfg(not(feature = "agones"))]
            Ok(_) => tracing::warn!("{PORT_ENV} is set but this build has no Agones support (build with --features agones): Agones will never see it Ready"),
        }
    }

    /// Talks to the SDK gateway on localhost:`port` from now on (the
    /// environment variable's job; public for tests).
    #[cfg(feature = "agones")]
    pub fn connect(&mut self, port: u16) {
        tracing::info!("Agones: SDK gateway at http://localhost:{port}");
        self.set_sdk(Box::new(sdk::HttpSdk::start(port)));
    }

    /// Uses `sdk` from now on (tests give a recording one).
    pub fn set_sdk(&mut self, sdk: Box<dyn FleetSdk>) {
        self.sdk = sdk;
        self.active = true;
    }

    /// Whether the server talks to Agones.
    pub fn active(&self) -> bool {
        self.active
    }

    /// Whether an allocation was seen.
    pub fn allocated(&self) -> bool {
        self.allocated
    }

    /// Calls dropped because the SDK's queue was full.
    pub fn dropped(&self) -> u64 {
        self.sdk.dropped()
    }
}

impl Controller for Agones {
    /// After each tick: `Health` every [`HEALTH_INTERVAL`], `Ready` once a
    /// map is loaded and the socket bound, the Counters when they change,
    /// and an allocation asked of the console (origin `agones`).
    fn after_tick(&mut self, report: &TickReport<'_>, requests: &mut Requests) {
        if !self.active {
            return;
        }
        let now = report.started;
        if self.last_health.is_none_or(|t| now.duration_since(t) >= HEALTH_INTERVAL) {
            self.last_health = Some(now);
            self.sdk.health();
        }
        let view = &report.view;
        let Some(game) = view.game else { return };
        if !self.ready_sent && view.listening {
            self.ready_sent = true;
            // Before Ready, so no allocation can come without it.
            if let Some(fingerprint) = view.fingerprint {
                self.sdk.set_annotation(FINGERPRINT_KEY, fingerprint.to_owned());
            }
            self.sdk.ready();
            requests.print(format!("Agones: ready on {}", view.map_name));
        }
        self.count(game);
        if let Some(allocation) = self.sdk.allocated() {
            self.allocated = true;
            ask_for(&allocation, requests);
        }
    }

    /// With `sv_agonesShutdownAtEnd 1` on an allocated server, sends
    /// `Shutdown` and asks the loop to stop (the next map is then not loaded).
    fn match_over(&mut self, view: &MatchView<'_>, requests: &mut Requests) {
        if !self.active || !self.allocated || !view.cvars.bool(self.shutdown_at_end) {
            return;
        }
        self.shutdown_sent = true;
        self.sdk.shutdown();
        requests.print(format!("Agones: the match is over; shutting down ({SHUTDOWN_AT_END_CVAR} 1)"));
        requests.quit(format!("match over ({SHUTDOWN_AT_END_CVAR})"));
    }

    /// At a graceful exit: `Shutdown` if not sent yet (the server is going
    /// away whatever stopped it), then waits up to [`FINISH_WAIT`] for the
    /// queued calls to reach the sidecar.
    fn shutdown(&mut self) {
        if !self.active {
            return;
        }
        if !self.shutdown_sent {
            self.shutdown_sent = true;
            self.sdk.shutdown();
        }
        self.sdk.finish(FINISH_WAIT);
        let dropped = self.sdk.dropped();
        if dropped > 0 {
            tracing::warn!("Agones: {dropped} SDK calls were dropped because the queue to the sidecar was full");
        }
        self.active = false;
    }
}

impl Agones {
    /// Sends the Counters when the humans, bots or slots changed.
    fn count(&mut self, game: &quarry_sim::Match) {
        let slots = game.slots();
        let (mut humans, mut bots) = (0, 0);
        for (_, slot) in slots.iter() {
            if slot.kind == ClientKind::Bot {
                bots += 1;
            } else {
                humans += 1;
            }
        }
        let counts = (humans, bots, slots.max() as u64);
        if self.counts != Some(counts) {
            let before = self.counts;
            self.counts = Some(counts);
            if before.is_none_or(|(h, _, m)| (h, m) != (humans, counts.2)) {
                self.sdk.set_counter(PLAYERS_COUNTER, humans, counts.2);
            }
            if before.is_none_or(|(_, b, m)| (b, m) != (bots, counts.2)) {
                self.sdk.set_counter(BOTS_COUNTER, bots, counts.2);
            }
        }
    }
}

/// The allocation's game type and map, asked of the console as an operator
/// would type them (and so in the game log's admin lines).
fn ask_for(allocation: &Allocation, requests: &mut Requests) {
    let asked: Vec<String> = [(GAMETYPE_KEY, &allocation.gametype), (MAP_KEY, &allocation.map)]
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
        .collect();
    requests.print(if asked.is_empty() { "Agones: allocated".to_owned() } else { format!("Agones: allocated ({})", asked.join(", ")) });
    if let Some(gametype) = &allocation.gametype {
        requests.run("set", &["g_gametype", gametype]);
    }
    match &allocation.map {
        Some(map) if !is_map_name(map) => {
            requests.print(format!("error: Agones: {MAP_KEY} \"{map}\" is not a map name (letters, digits, _ - . only); the map stays"));
            if allocation.gametype.is_some() {
                requests.run("map_restart", &[]);
            }
        }
        Some(map) => requests.run("map", &[map]),
        None if allocation.gametype.is_some() => requests.run("map_restart", &[]),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_annotation_wins_over_a_label_and_empty_values_are_absent() {
        let gs = serde_json::json!({
            "object_meta": {
                "annotations": { "quarry.map": "q_duel1", "quarry.gametype": " " },
                "labels": { "quarry.map": "q_dm1", "quarry.gametype": "duel" }
            },
            "status": { "state": "Allocated" }
        });
        let a = Allocation::from_gameserver(&gs);
        assert_eq!(a, Allocation { map: Some("q_duel1".into()), gametype: Some("duel".into()) });
        let none = Allocation::from_gameserver(&serde_json::json!({ "status": { "state": "Allocated" } }));
        assert_eq!(none, Allocation::default());
    }

    #[test]
    fn only_plain_names_are_maps() {
        for ok in ["q_dm1", "oacmpdm8", "q-ctf.1"] {
            assert!(is_map_name(ok), "{ok}");
        }
        for bad in ["", "../etc/passwd", "/abs/q_dm1", ".hidden", "a b", "q;quit", &"x".repeat(65)] {
            assert!(!is_map_name(bad), "{bad}");
        }
    }

    #[test]
    fn the_noop_sdk_does_nothing_and_an_inactive_server_sends_nothing() {
        let mut console: Console<()> = Console::new();
        let agones = Agones::register(&mut console, true).expect("register");
        assert!(!agones.active());
        assert!(console.cvars().find(SHUTDOWN_AT_END_CVAR).is_some());
        let mut noop = NoopSdk;
        noop.ready();
        noop.set_counter(PLAYERS_COUNTER, 1, 16);
        assert_eq!(noop.allocated(), None);
        assert_eq!(noop.dropped(), 0);
    }
}
