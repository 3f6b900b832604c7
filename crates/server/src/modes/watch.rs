//! A recording played in the web view (`quarry-server replay FILE --web
//! ADDR`): the match rebuilt as [`super::replay::replay`] does, then stepped at
//! real time (times the chosen speed) while the page watches, with pause,
//! speed and seek from the page ([`ReplayControl`]). Every stored state
//! hash is still checked; a divergence stops the playback with the error.
//!
//! Seeking forward plays the ticks in between as fast as it can; seeking
//! back builds the match again and plays up to the tick (the sim is
//! deterministic, so that is the same match), keeping the viewers
//! connected: the web view moves to the new server.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use quarry_record::{Recording, Ticks};

use super::replay::{ReplayError, ReplayOptions, build, open, scratch, step};
use crate::server::Server;
use crate::web::{CONTROL_QUEUE, ReplayControl, ReplayStatus, WebView};

/// Most ticks played in one go at high speed before controls are read again.
const MAX_STEPS_AT_ONCE: u32 = 256;
/// How long the loop sleeps between looks at the clock and the controls.
const LOOP_SLEEP: Duration = Duration::from_millis(4);

/// A playback: the recording, its server and where it stands.
struct Playback<'a> {
    rec: &'a Recording,
    maps_dir: Option<&'a Path>,
    scratch: &'a Path,
    server: Server,
    /// The recorded ticks still to play.
    ticks: Ticks<'a>,
    /// How many have been played.
    played: u64,
    paused: bool,
    speed: f32,
}

impl Playback<'_> {
    fn step(&mut self) -> Result<(), ReplayError> {
        let Some(t) = self.ticks.next() else { return Ok(()) };
        step(&mut self.server, &t?)?;
        self.played += 1;
        Ok(())
    }

    fn at_end(&self) -> bool {
        self.played >= self.rec.tick_count()
    }

    fn tick(&self) -> u32 {
        self.server.state.game.running.as_ref().map_or(0, quarry_sim::Match::tick)
    }

    /// Goes to match tick `to` (clamped to the recording).
    fn seek(&mut self, to: u32) -> Result<(), ReplayError> {
        if to < self.tick() {
            let mut fresh = build(self.rec, self.scratch, self.maps_dir)?;
            std::mem::swap(web(&mut fresh)?, web(&mut self.server)?);
            self.server = fresh;
            self.ticks = self.rec.ticks();
            self.played = 0;
        }
        while !self.at_end() && self.tick() < to {
            self.step()?;
        }
        Ok(())
    }

    fn control(&mut self, c: ReplayControl) -> Result<(), ReplayError> {
        match c {
            ReplayControl::Pause => self.paused = true,
            ReplayControl::Play => {
                if self.at_end() {
                    self.seek(0)?;
                }
                self.paused = false;
            }
            ReplayControl::Speed(s) => self.speed = s,
            ReplayControl::Seek(t) => self.seek(t)?,
        }
        Ok(())
    }

    fn status(&self) -> ReplayStatus {
        ReplayStatus { tick: self.tick(), last: self.rec.last_tick().unwrap_or(0), paused: self.paused || self.at_end(), speed: self.speed }
    }

    /// Publishes a frame now with the playback's state (after a control,
    /// when no tick may come to carry it).
    fn show(&mut self) -> Result<(), ReplayError> {
        let status = self.status();
        let state = &mut self.server.state;
        let view = state.features.get_mut::<WebView>().ok_or_else(no_web_view)?;
        view.set_replay_status(Some(status));
        let map = state.game.running.as_ref().map(|g| g.map().name().to_owned()).unwrap_or_default();
        if let Some(game) = state.game.running.as_ref() {
            view.publish_now(game, &map, &state.bots);
        }
        Ok(())
    }
}

/// The web view a server registers.
fn web(server: &mut Server) -> Result<&mut WebView, ReplayError> {
    server.state.features.get_mut::<WebView>().ok_or_else(no_web_view)
}

fn no_web_view() -> ReplayError {
    ReplayError::Setup("the server has no web view".to_owned())
}

/// Plays `path` in the web view on `addr` (a password, if not empty, is
/// asked of viewers; beyond loopback one is needed) until the process is
/// stopped. Returns only on an error; `on_ready` is told the address bound.
pub fn watch(path: &Path, options: &ReplayOptions, addr: SocketAddr, password: &str, on_ready: impl FnOnce(SocketAddr, &Recording)) -> Result<(), ReplayError> {
    let rec = open(path, options)?;
    let scratch = scratch()?;
    let mut server = build(&rec, scratch.path(), options.maps_dir.as_deref())?;
    // The floor the page draws comes from a navmesh; a replay has no bots
    // to ask for one, so it is built here (it changes nothing in the sim).
    if let Some(game) = server.state.game.running.as_ref() {
        let cell = server.state.bots.settings().nav_cell_size;
        if let Err(e) = server.state.bots.nav_mut().build_now(game, cell) {
            tracing::warn!("replay: no navmesh for the web view's floor: {e}");
        }
    }
    let (tx, mut controls) = tokio::sync::mpsc::channel(CONTROL_QUEUE);
    let bound = web(&mut server)?.serve(addr, password, Some(tx)).map_err(|e| ReplayError::Setup(format!("--web {addr}: {e}")))?;
    on_ready(bound, &rec);
    let hz = f64::from(rec.header.hz.max(1));
    let mut play = Playback { rec: &rec, maps_dir: options.maps_dir.as_deref(), scratch: scratch.path(), server, ticks: rec.ticks(), played: 0, paused: false, speed: 1.0 };
    play.show()?;
    let mut owed = 0.0f64;
    let mut clock = Instant::now();
    loop {
        let mut changed = false;
        while let Ok(c) = controls.try_recv() {
            play.control(c)?;
            changed = true;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(clock).as_secs_f64();
        clock = now;
        if play.paused || play.at_end() {
            owed = 0.0;
        } else {
            owed += elapsed * hz * f64::from(play.speed);
            let mut steps = 0;
            while owed >= 1.0 && !play.at_end() && steps < MAX_STEPS_AT_ONCE {
                let status = play.status();
                web(&mut play.server)?.set_replay_status(Some(status));
                play.step()?;
                owed -= 1.0;
                steps += 1;
            }
            // Too far behind (a slow machine at 16x): drop the debt rather
            // than race to catch up.
            owed = owed.min(f64::from(MAX_STEPS_AT_ONCE));
            if play.at_end() {
                changed = true;
            }
        }
        if changed {
            play.show()?;
        }
        std::thread::sleep(LOOP_SLEEP);
    }
}
