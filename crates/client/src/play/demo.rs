//! `play --demo FILE`: a recording played in the window, from a player's
//! eyes or flying free, with pause, speed and seek.
//!
//! The server's [`DemoFeed`] builds the recorded match again and hands,
//! tick by tick, what the followed player's client would have been sent;
//! a local [`crate::client::Client`] takes it in, so the view, HUD,
//! scoreboard and chat are the live game's. This module keeps the time:
//! ticks are played as real time passes (times the speed), and the view
//! is pinned a tick behind the newest, between two snapshots it has.

use std::path::{Path, PathBuf};

use std::time::Instant;

use quarry_net::transport::ClientEvent;
use quarry_server::modes::demo::{DemoFeed, Viewpoint};
use quarry_server::modes::replay::ReplayOptions;

use super::PlayError;

/// Slowest and fastest playback.
const SPEEDS: (f32, f32) = (0.125, 16.0);
/// Most ticks played in one frame (a slow frame at 16x drops the rest of
/// its debt rather than stall the window).
const MAX_TICKS_PER_FRAME: u32 = 256;

/// A recording being played, and where its playback stands.
#[derive(Debug)]
pub struct Demo {
    feed: DemoFeed,
    paused: bool,
    speed: f32,
    /// How far into the next tick the playback is (0..1).
    fraction: f64,
    last: Option<Instant>,
    /// The view must start over (a seek or another player).
    restarted: bool,
}

/// What a demo command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DemoReply {
    /// Done; a line for the console (may be empty).
    Done(String),
    /// Not a demo command.
    NotMine,
}

impl Demo {
    /// Opens `path` (a map stored by its hash only is looked for in
    /// `maps`, the first folder that has a file of its name) and follows
    /// `follow`, or the first player in the game.
    pub fn open(path: &Path, follow: Option<&str>, maps: &[PathBuf]) -> Result<Self, PlayError> {
        let header = quarry_record::read(path).map_err(|e| PlayError::Demo(e.to_string()))?.header;
        let file = format!("{}.map", quarry_server::modes::replay::plain_map_name(&header.map_name).map_err(|e| PlayError::Demo(e.to_string()))?);
        let maps_dir = maps.iter().find(|dir| dir.join(&file).is_file()).cloned();
        let options = ReplayOptions { force: false, maps_dir };
        let mut feed = DemoFeed::open(path, &options).map_err(|e| PlayError::Demo(format!("{}: {e}", path.display())))?;
        // Play up to the first tick anyone is in, to follow them from there.
        while feed.viewpoint().is_none() && feed.step().map_err(|e| PlayError::Demo(format!("{}: {e}", path.display())))? {}
        if let Some(name) = follow {
            let slot = feed.player_named(name).ok_or_else(|| {
                let names: Vec<String> = feed.players().into_iter().map(|p| p.name).collect();
                PlayError::Demo(format!("{}: no player named '{name}' at the start (players: {})", path.display(), names.join(", ")))
            })?;
            feed.set_viewpoint(Viewpoint::Player(slot));
        }
        Ok(Demo { feed, paused: false, speed: 1.0, fraction: 0.0, last: None, restarted: true })
    }

    /// The map's name.
    pub fn map_name(&self) -> &str {
        self.feed.map_name()
    }

    /// The map's text.
    pub fn map_text(&self) -> &str {
        self.feed.map_text()
    }

    /// Plays the ticks due by `now` and returns what the viewer was sent.
    pub fn advance(&mut self, now: Instant) -> Result<Vec<ClientEvent>, PlayError> {
        let elapsed = self.last.map_or(0.0, |t| now.saturating_duration_since(t).as_secs_f64());
        self.last = Some(now);
        if !self.paused && !self.feed.at_end() {
            self.fraction += elapsed * f64::from(self.feed.hz()) * f64::from(self.speed);
            let mut steps = 0;
            while self.fraction >= 1.0 && steps < MAX_TICKS_PER_FRAME {
                if !self.feed.step().map_err(|e| PlayError::Demo(e.to_string()))? {
                    break;
                }
                self.fraction -= 1.0;
                steps += 1;
            }
            self.fraction = self.fraction.clamp(0.0, 1.0);
        }
        if self.feed.at_end() || self.paused {
            self.fraction = 0.0;
        }
        Ok(self.feed.take_events())
    }

    /// The tick to show now: a tick behind the newest played, so the view
    /// is always between two snapshots it has.
    pub fn shown_tick(&self) -> f64 {
        (f64::from(self.feed.tick()) - 1.0 + self.fraction).max(0.0)
    }

    /// Whether the view must start over (once: the flag is cleared).
    pub fn take_restarted(&mut self) -> bool {
        std::mem::take(&mut self.restarted)
    }

    /// Whether the viewer flies free.
    pub fn is_free(&self) -> bool {
        self.feed.viewpoint() == Some(Viewpoint::Free)
    }

    /// A line for the screen: where the playback is and whom it follows.
    pub fn status_line(&self) -> String {
        let hz = self.feed.hz();
        let clock = |tick: u32| format!("{}:{:02}", tick / hz / 60, tick / hz % 60);
        let who = match self.feed.viewpoint() {
            Some(Viewpoint::Player(slot)) => self.feed.players().into_iter().find(|p| p.slot == slot).map_or_else(|| format!("slot {}", slot.0), |p| p.name),
            Some(Viewpoint::Free) => "free camera".to_owned(),
            None => "nobody yet".to_owned(),
        };
        let state = if self.feed.at_end() {
            "end".to_owned()
        } else if self.paused {
            "paused".to_owned()
        } else {
            format!("x{}", self.speed)
        };
        format!("DEMO {} / {}  {state}  {who}", clock(self.feed.tick()), clock(self.feed.last_tick()))
    }

    /// What the demo adds to a screenshot's camera note: the tick drawn
    /// (`shown`, as the session has it) and whom it follows (-1: nobody).
    pub fn note(&self, shown: Option<f64>) -> String {
        let slot = match self.feed.viewpoint() {
            Some(Viewpoint::Player(slot)) => i32::from(slot.0),
            _ => -1,
        };
        format!("demo_tick {}\ndemo_slot {slot}\n", shown.unwrap_or(-1.0))
    }

    /// Runs a demo command: `demo_pause` (toggles), `demo_speed X`,
    /// `demo_seek SECONDS` (`+S`/`-S` from here), `follow NAME|next|prev|free`.
    pub fn command(&mut self, cmd: &str, rest: &str) -> Result<DemoReply, PlayError> {
        let line = match cmd {
            "demo_pause" => {
                self.paused = !self.paused;
                self.fraction = 0.0;
                String::new()
            }
            "demo_speed" => match rest {
                "faster" => self.set_speed(self.speed * 2.0),
                "slower" => self.set_speed(self.speed / 2.0),
                _ => match rest.parse::<f32>() {
                    Ok(s) if s.is_finite() && s > 0.0 => self.set_speed(s),
                    _ => format!("usage: demo_speed X ({} to {}), faster or slower", SPEEDS.0, SPEEDS.1),
                },
            },
            "demo_seek" => match seek_target(rest, self.feed.tick(), self.feed.hz()) {
                Some(to) => {
                    self.feed.seek(to.min(self.feed.last_tick())).map_err(|e| PlayError::Demo(e.to_string()))?;
                    self.fraction = 0.0;
                    self.restarted = true;
                    String::new()
                }
                None => "usage: demo_seek SECONDS, +SECONDS or -SECONDS".to_owned(),
            },
            "follow" => self.follow(rest),
            _ => return Ok(DemoReply::NotMine),
        };
        Ok(DemoReply::Done(line))
    }

    fn set_speed(&mut self, speed: f32) -> String {
        self.speed = speed.clamp(SPEEDS.0, SPEEDS.1);
        format!("speed x{}", self.speed)
    }

    fn follow(&mut self, who: &str) -> String {
        let players = self.feed.players();
        let current = match self.feed.viewpoint() {
            Some(Viewpoint::Player(slot)) => players.iter().position(|p| p.slot == slot),
            _ => None,
        };
        let step = |by: isize| -> Option<Viewpoint> {
            let n = players.len() as isize;
            if n == 0 {
                return None;
            }
            let from = current.map_or(if by > 0 { -1 } else { 0 }, |i| i as isize);
            players.get((from + by).rem_euclid(n) as usize).map(|p| Viewpoint::Player(p.slot))
        };
        let target = match who {
            "" | "next" => step(1),
            "prev" => step(-1),
            "free" => Some(Viewpoint::Free),
            name => self.feed.player_named(name).map(Viewpoint::Player),
        };
        match target {
            Some(v) => {
                self.feed.set_viewpoint(v);
                self.restarted = true;
                String::new()
            }
            None => {
                let names: Vec<String> = players.into_iter().map(|p| p.name).collect();
                format!("follow: no player '{who}' (players: {}; or next, prev, free)", names.join(", "))
            }
        }
    }
}

/// The tick `arg` seeks to from `tick`: seconds from the start, or
/// `+S`/`-S` from `tick`.
fn seek_target(arg: &str, tick: u32, hz: u32) -> Option<u32> {
    let seconds: f64 = arg.trim_start_matches('+').parse().ok().filter(|s: &f64| s.is_finite())?;
    let ticks = seconds * f64::from(hz);
    let to = if arg.starts_with('+') || arg.starts_with('-') { f64::from(tick) + ticks } else { ticks };
    Some(to.clamp(0.0, f64::from(u32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::seek_target;

    #[test]
    fn seeking_reads_seconds_from_the_start_or_from_here() {
        assert_eq!(seek_target("30", 100, 60), Some(1800));
        assert_eq!(seek_target("+10", 100, 60), Some(700));
        assert_eq!(seek_target("-10", 1000, 60), Some(400));
        assert_eq!(seek_target("-100", 1000, 60), Some(0), "never before the start");
        assert_eq!(seek_target("soon", 0, 60), None);
        assert_eq!(seek_target("NaN", 0, 60), None);
    }
}
