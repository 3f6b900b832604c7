//! The live web view (`sv_webAddr`): one self-contained page (HTML,
//! JavaScript and CSS embedded in the binary, no CDN) and a Server-Sent
//! Events stream of frames, served by the operator's HTTP thread, never
//! the tick thread.
//!
//! | file | what |
//! |---|---|
//! | `access.rs` | who may see it: the password check, with a lockout by address, before every route; [`WebRefusals`] |
//! | `frame.rs` | [`WebFrame`]: what the page draws at one tick, built on the tick thread |
//! | `history.rs` | [`History`]: the feed of kills, chat, flags and rounds, the heat map of deaths and the stuck hotspots |
//! | `floor.rs` | the map layer: the navmesh's floor and links, the movers' bounds |
//! | `minds.rs` | [`Minds`]: the bots whose minds viewers asked for (`POST /mind`), each for a lease the page renews |
//! | `control.rs` | a recording played in the view: [`ReplayControl`]s from the page, [`ReplayStatus`] in the frames |
//! | `page.html` | the page: a top-down canvas with pan and zoom, the walkable floor shaded by height, players, items, projectiles, flags, the bots' minds, overlays, the scoreboard, the feed and a legend |
//!
//! `/` is the page, `/frames` the stream, `/map` the map layer (sent once
//! per navmesh: each frame names the one it goes with, and the page
//! fetches it again when that changes), `/history` the deaths and stuck
//! hotspots (each frame names its revision), `/mind` (`POST`, a bot's mind
//! in the frames from now on, for [`MIND_LEASE`] unless asked again: the
//! frames carry only the minds someone looks at), and `/control` (`POST`,
//! only while a recording plays: pause, play, speed, seek).
//!
//! The tick publishes a frame `sv_webRate` times a second into a `watch`
//! channel, which keeps only the latest: a slow viewer skips frames and
//! never holds one up, and nothing queues without bound. A viewer that
//! stops reading altogether is dropped by the bounded listener once its
//! socket's send buffer is full and a write has waited
//! [`crate::http::listener::STALL`]. At most [`MAX_STREAMS`] streams are
//! open at once (more are answered 503 with `Retry-After`), fewer than the
//! listener's connections, so the page and the requests it makes always
//! find a place however many watch.
//! An address other than loopback needs `sv_webPassword` (HTTP Basic, any
//! user name), so the view is never open to a network by accident; an
//! address that guesses it wrong too often is locked out (`access.rs`).

mod access;
mod control;
mod floor;
mod minds;
mod frame;
mod history;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_sim::Match;
use tokio::sync::watch;

pub use access::WebRefusals;
pub use frame::{FrameBot, FrameFlag, FrameItem, FramePlayer, FrameRound, FrameTrack, MAX_TRACKS, WebFrame};
pub use control::{CONTROL_QUEUE, ControlQuery, MAX_SPEED, MIN_SPEED, ReplayControl, ReplayStatus};
pub use history::{FeedLine, History, HistorySource};
pub use minds::{MIND_LEASE, MindQuery, Minds};

use crate::feature::{Measured, Observer, Refused, TickReport};
use crate::http::HttpServer;

/// The page, embedded.
const PAGE: &str = include_str!("page.html");

/// Streams of frames open at once. Each holds one of the listener's
/// [`crate::http::listener::MAX_CONNECTIONS`]; the rest are kept for the
/// page, the map, the history and the controls.
pub const MAX_STREAMS: usize = 64;

/// What a stream refused because all are taken is told to wait, seconds.
const STREAMS_FULL_RETRY: u64 = 10;

/// Handles to the web view's cvars.
#[derive(Debug, Clone, Copy)]
struct WebCvars {
    addr: CvarId,
    rate: CvarId,
    password: CvarId,
}

/// The live web view: its cvars, its HTTP server while on, and the
/// channel frames go out on.
pub struct WebView {
    cvars: WebCvars,
    seen: (u64, u64),
    server: Option<HttpServer>,
    frames: watch::Sender<Option<Arc<Published>>>,
    /// The map's floor as JSON (`/map`), made once per navmesh.
    floor: watch::Sender<Arc<String>>,
    /// The navmesh generation the floor was made from.
    floor_of: Option<u64>,
    /// What the match's history (`/history`) is made from.
    history_json: watch::Sender<Arc<HistorySource>>,
    /// What the view remembers of the match.
    history: History,
    /// Where the recording being played stands (`replay FILE --web ADDR`).
    replay: Option<ReplayStatus>,
    /// Streams of frames open now.
    viewers: Arc<AtomicUsize>,
    /// The bots whose minds viewers asked for.
    minds: Minds,
    /// Wrong web passwords by address (kept when the server restarts).
    lockout: Arc<Mutex<quarry_net::lockout::Lockout>>,
    /// What the view refused.
    refused: Arc<access::Counters>,
    /// What frames cost the tick.
    cost: FrameCost,
    /// The frame built this tick, handed over after it ([`WebView::hand_over`]).
    pending: Option<Arc<Published>>,
    /// A headless match (`--fast`) serves no view: it is a measurement.
    headless: bool,
}

impl std::fmt::Debug for WebView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebView").field("on", &self.server.is_some()).finish_non_exhaustive()
    }
}

/// What the HTTP handlers share.
#[derive(Clone)]
struct Shared {
    frames: watch::Receiver<Option<Arc<Published>>>,
    /// Streams of frames open now.
    viewers: Arc<AtomicUsize>,
    /// The bots whose minds viewers asked for.
    minds: Minds,
    floor: watch::Receiver<Arc<String>>,
    history: watch::Receiver<Arc<HistorySource>>,
    /// Where controls of a replay go, while one plays.
    control: Option<tokio::sync::mpsc::Sender<ReplayControl>>,
    /// What the view refused.
    refused: Arc<access::Counters>,
}

impl WebView {
    /// Registers the cvars. A `headless` match's view never serves (the
    /// cvars are kept, for `replay FILE --web ADDR`, which serves it itself).
    pub fn register<C: 'static>(console: &mut Console<C>, headless: bool) -> Result<Self, CvarError> {
        let a = CvarFlags::ARCHIVE;
        let cvars = WebCvars {
            addr: console.register_cvar(
                CvarDef::string("sv_webAddr", "", "address of the live web view (a page and a stream of the match, top down): HOST:PORT, or PORT for 127.0.0.1; another host needs sv_webPassword; empty = off").flags(a),
            )?,
            rate: console.register_cvar(CvarDef::int("sv_webRate", 15, 1, 30, "frames a second the web view gets").flags(a))?,
            password: console.register_cvar(CvarDef::string("sv_webPassword", "", "password of the web view (HTTP Basic, any user name); needed to serve it beyond loopback (never printed)").flags(CvarFlags::SECRET))?,
        };
        let (frames, _) = watch::channel(None);
        let (floor, _) = watch::channel(Arc::new(String::from(floor::EMPTY)));
        let (history_json, _) = watch::channel(Arc::new(HistorySource::default()));
        Ok(Self { cvars, seen: (u64::MAX, u64::MAX), server: None, frames, floor, floor_of: None, history_json, history: History::default(), replay: None, viewers: Arc::default(), minds: Minds::default(), lockout: Arc::default(), refused: Arc::default(), cost: FrameCost::default(), pending: None, headless })
    }

    /// Starts, moves or stops the view when its address or password
    /// changed; returns a console line saying what happened.
    pub fn apply_cvars(&mut self, cvars: &CvarSet) -> Option<String> {
        let seen = (cvars.get(self.cvars.addr).modification_count(), cvars.get(self.cvars.password).modification_count());
        if seen == self.seen {
            return None;
        }
        self.seen = seen;
        if let Some(s) = self.server.take() {
            s.stop();
        }
        let text = cvars.string(self.cvars.addr);
        if text.trim().is_empty() {
            return None;
        }
        let password = cvars.string(self.cvars.password);
        let addr = match crate::http::parse_address(&text) {
            Ok(a) => a,
            Err(e) => return Some(format!("error: sv_webAddr: {e}; the web view is off")),
        };
        if !addr.ip().is_loopback() && password.is_empty() {
            return Some(format!("error: sv_webAddr {addr} is not loopback: set sv_webPassword first (the view shows every player's position); the web view is off"));
        }
        Some(match self.serve(addr, &password, None) {
            Ok(addr) => format!("web view on http://{addr}/"),
            Err(e) => format!("error: sv_webAddr: {e}; the web view is off"),
        })
    }

    /// Serves the view on `addr` (stopping any server already running),
    /// with `password` (empty: none, and then only loopback is allowed);
    /// `control` takes a replay's controls. Returns the address bound.
    pub fn serve(&mut self, addr: std::net::SocketAddr, password: &str, control: Option<tokio::sync::mpsc::Sender<ReplayControl>>) -> Result<std::net::SocketAddr, String> {
        if let Some(s) = self.server.take() {
            s.stop();
        }
        if !addr.ip().is_loopback() && password.is_empty() {
            return Err(format!("{addr} is not loopback: a password is needed (the view shows every player's position)"));
        }
        let gate = access::Gate::new(password, Arc::clone(&self.lockout), Arc::clone(&self.refused)).ok_or("no randomness for the password check")?;
        let shared = Shared { frames: self.frames.subscribe(), viewers: Arc::clone(&self.viewers), minds: self.minds.clone(), floor: self.floor.subscribe(), history: self.history_json.subscribe(), control, refused: Arc::clone(&self.refused) };
        let server = HttpServer::start("web-http", addr, router(shared, gate)).map_err(|e| e.to_string())?;
        let bound = server.local_addr();
        self.server = Some(server);
        Ok(bound)
    }

    /// Where the recording being played stands (every frame carries it).
    pub fn set_replay_status(&mut self, status: Option<ReplayStatus>) {
        self.replay = status;
    }

    /// Publishes a frame of `game` now, due or not (a paused replay whose
    /// state changed).
    pub fn publish_now(&mut self, game: &Match, map: &str, bots: &quarry_bots::BotManager) {
        if self.server.is_some() {
            self.publish(game, map, bots);
            self.hand_over();
        }
    }

    /// Hands the frame built this tick, if any, to the viewers' streams.
    /// Called once the tick's work is done and timed: waking the HTTP
    /// thread can let it run on this core for a while (the scheduler
    /// favours a thread that has slept), which is then the tick loop's
    /// idle time, not the tick's.
    pub fn hand_over(&mut self) {
        let Some(frame) = self.pending.take() else { return };
        let started = std::time::Instant::now();
        self.frames.send_replace(Some(frame));
        self.cost.handed_over(started.elapsed());
    }

    /// Where the view listens, when it does.
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.as_ref().map(HttpServer::local_addr)
    }

    /// The number of viewers of the stream now.
    pub fn viewers(&self) -> usize {
        self.viewers.load(Ordering::Relaxed)
    }

    /// What the view has refused since the server started: wrong
    /// passwords, lockouts begun, requests of locked-out addresses, streams
    /// past [`MAX_STREAMS`].
    pub fn refusals(&self) -> WebRefusals {
        self.refused.read()
    }

    /// After a tick: takes its `events` into the history, publishes a
    /// frame when one is due (`sv_webRate` a second) and someone is
    /// watching, the history every couple of seconds when it changed, and
    /// the map layer when a new navmesh is ready (`nav`: its generation and
    /// the mesh).
    pub fn show_tick(&mut self, game: Option<&Match>, events: &[quarry_sim::events::GameEvent], map: &str, bots: &quarry_bots::BotManager, cvars: &CvarSet) {
        let Some(game) = game else { return };
        if self.server.is_none() {
            return;
        }
        let nav = bots.nav();
        let nav = nav.ready_generation().zip(nav.mesh());
        self.history.observe(game, events);
        if let Some((generation, mesh)) = nav
            && self.floor_of != Some(generation)
        {
            self.floor_of = Some(generation);
            self.floor.send_replace(Arc::new(floor::map_json(generation, mesh, game.map())));
        }
        if self.viewers() == 0 {
            return;
        }
        if let Some(source) = self.history.publish(game, bots.stuck_revision(), || bots.stuck_episodes()) {
            self.history_json.send_replace(Arc::new(source));
        }
        let rate = u32::try_from(cvars.int(self.cvars.rate)).unwrap_or(15).max(1);
        let every = (game.hz() / rate).max(1);
        if !game.tick().is_multiple_of(every) {
            return;
        }
        self.publish(game, map, bots);
    }

    fn publish(&mut self, game: &Match, map: &str, bots: &quarry_bots::BotManager) {
        let started = std::time::Instant::now();
        let mut frame = WebFrame::build(game, map);
        frame.floor = self.floor_of.unwrap_or(0);
        let minds = self.minds.wanted();
        frame.bots = if minds.is_empty() { Vec::new() } else { bots.overlays(|slot| minds.contains(&slot.0)).iter().map(FrameBot::from_overlay).collect() };
        frame.feed = self.history.feed();
        frame.history = self.history.revision();
        frame.replay = self.replay;
        self.pending = Some(Arc::new(Published { frame, json: std::sync::OnceLock::new() }));
        self.cost.built(started.elapsed());
    }

    /// What frames cost the tick lately: a line for `status`.
    pub fn cost_line(&self) -> String {
        self.cost.line()
    }
}

impl Observer for WebView {
    fn sync(&mut self, cvars: &CvarSet, startup_done: bool) -> Option<String> {
        // The view starts once the startup files and command line ran.
        if startup_done && !self.headless { self.apply_cvars(cvars) } else { None }
    }

    fn after_tick(&mut self, report: &TickReport<'_>) {
        let v = &report.view;
        self.show_tick(v.game, report.events, v.map_name, v.bots, v.cvars);
    }

    fn tick_measured(&mut self, _measured: &Measured<'_>) {
        self.hand_over();
    }

    fn status(&self, lines: &mut Vec<String>) {
        lines.push(match self.local_addr() {
            Some(addr) => {
                let r = self.refusals();
                format!(
                    "web view: http://{addr}/, {} watching; {}; refused {} wrong passwords, {} locked out ({} lockouts), {} streams over the cap",
                    self.viewers(),
                    self.cost_line(),
                    r.wrong_passwords,
                    r.locked_out,
                    r.lockouts,
                    r.streams_full
                )
            }
            None => "web view: off (sv_webAddr PORT turns it on)".to_owned(),
        });
    }

    fn refusals(&self, out: &mut Vec<Refused>) {
        let r = WebView::refusals(self);
        for (reason, total) in [("wrong_password", r.wrong_passwords), ("locked_out", r.locked_out), ("streams_full", r.streams_full)] {
            out.push(Refused { class: "web", reason, total });
        }
    }
}

/// A frame handed to the viewers: encoded as JSON once, off the tick
/// thread, by the first stream that sends it.
#[derive(Debug)]
struct Published {
    frame: WebFrame,
    json: std::sync::OnceLock<String>,
}

impl Published {
    fn json(&self) -> &str {
        self.json.get_or_init(|| self.frame.to_json())
    }
}

/// What the last frames cost the tick thread: building them (in the
/// tick), and handing them over (waking the viewers' streams, after the
/// tick). Encoding them is the HTTP thread's.
#[derive(Debug, Default)]
struct FrameCost {
    /// Microseconds of the last [`FrameCost::KEPT`] frames: built, handed over.
    recent: std::collections::VecDeque<(u32, u32)>,
}

impl FrameCost {
    const KEPT: usize = 256;

    fn us(d: Duration) -> u32 {
        u32::try_from(d.as_micros()).unwrap_or(u32::MAX)
    }

    fn built(&mut self, built: Duration) {
        if self.recent.len() == Self::KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back((Self::us(built), 0));
    }

    fn handed_over(&mut self, took: Duration) {
        if let Some(last) = self.recent.back_mut() {
            last.1 = Self::us(took);
        }
    }

    fn line(&self) -> String {
        if self.recent.is_empty() {
            return "no frames yet".to_owned();
        }
        let mut built: Vec<u32> = self.recent.iter().map(|r| r.0).collect();
        let mut total: Vec<u32> = self.recent.iter().map(|r| r.1).collect();
        built.sort_unstable();
        total.sort_unstable();
        let p = |v: &[u32], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        format!("frames built in {} µs (p99 {}) in the tick, handed over in {} µs (p99 {}) after it, last {}", p(&built, 0.5), p(&built, 0.99), p(&total, 0.5), p(&total, 0.99), self.recent.len())
    }
}

/// The page, and the stream at `/frames`, every route behind the `gate`.
fn router(shared: Shared, gate: access::Gate) -> axum::Router {
    use axum::routing::get;
    axum::Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-store")], PAGE).into_response() }))
        .route(
            "/map",
            get(|State(s): State<Shared>| async move {
                let floor = Arc::clone(&s.floor.borrow());
                ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], floor.as_str().to_owned()).into_response()
            }),
        )
        .route(
            "/history",
            get(|State(s): State<Shared>| async move {
                let history = Arc::clone(&s.history.borrow());
                ([(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], history.to_json()).into_response()
            }),
        )
        .route(
            "/mind",
            axum::routing::post(|State(s): State<Shared>, axum::extract::Query(q): axum::extract::Query<MindQuery>| async move {
                match s.minds.ask(&q) {
                    Ok(()) => (StatusCode::OK, "ok\n").into_response(),
                    Err(e) => (StatusCode::BAD_REQUEST, format!("{e}\n")).into_response(),
                }
            }),
        )
        .route(
            "/control",
            axum::routing::post(|State(s): State<Shared>, axum::extract::Query(q): axum::extract::Query<ControlQuery>| async move {
                let Some(control) = &s.control else {
                    return (StatusCode::NOT_FOUND, "no recording is playing: controls are for replay FILE --web ADDR\n").into_response();
                };
                match ReplayControl::parse(&q) {
                    Ok(c) => match control.try_send(c) {
                        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
                        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "too many controls waiting; try again\n").into_response(),
                    },
                    Err(e) => (StatusCode::BAD_REQUEST, format!("{e}\n")).into_response(),
                }
            }),
        )
        .route(
            "/frames",
            get(|State(s): State<Shared>| async move {
                let Some(viewer) = Viewer::admit(&s.viewers) else {
                    s.refused.stream_refused();
                    let text = format!("the web view has {MAX_STREAMS} streams open; try again later\n");
                    return (StatusCode::SERVICE_UNAVAILABLE, [(header::RETRY_AFTER, STREAMS_FULL_RETRY.to_string())], text).into_response();
                };
                let stream = futures_stream(s.frames.clone(), viewer);
                Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))).into_response()
            }),
        )
        .layer(axum::middleware::from_fn_with_state(Arc::new(gate), access::guard))
        .with_state(shared)
}

/// One open stream of frames, counted while it lives.
struct Viewer(Arc<AtomicUsize>);

impl Viewer {
    /// Counts a new stream in `count`; `None` when [`MAX_STREAMS`] are open.
    fn admit(count: &Arc<AtomicUsize>) -> Option<Self> {
        count.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n < MAX_STREAMS).then_some(n + 1)).ok()?;
        Some(Self(Arc::clone(count)))
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Each new frame as an SSE event; a viewer that reads slowly sees only the
/// latest when it reads again.
fn futures_stream(rx: watch::Receiver<Option<Arc<Published>>>, viewer: Viewer) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold((rx, viewer), |(mut rx, viewer)| async move {
        loop {
            rx.changed().await.ok()?;
            let latest = rx.borrow_and_update().clone();
            if let Some(frame) = latest {
                return Some((Ok(Event::default().event("frame").data(frame.json())), (rx, viewer)));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_capped() {
        let count = Arc::new(AtomicUsize::new(0));
        let open: Vec<Viewer> = (0..MAX_STREAMS).filter_map(|_| Viewer::admit(&count)).collect();
        assert_eq!(open.len(), MAX_STREAMS);
        assert!(Viewer::admit(&count).is_none(), "one past the cap");
        drop(open);
        assert_eq!(count.load(Ordering::Relaxed), 0);
        assert!(Viewer::admit(&count).is_some(), "a place again once one closed");
    }
}
