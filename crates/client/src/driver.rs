//! A client played by an input at a fixed command rate.
//!
//! [`Driver::tick`] never blocks, so one thread can run many drivers: loop
//! over them, calling `tick(Instant::now())`, and sleep a little (until
//! the earliest [`Driver::next_due`]) between rounds.

use std::time::{Duration, Instant};

use quarry_net::reliable::DisconnectReason;

use crate::client::{Client, Status};
use crate::error::ClientError;
use crate::input::{Action, Input};

/// Decides when the next command is due at a steady rate. A caller that
/// falls more than one interval behind skips the missed commands rather
/// than sending a burst.
#[derive(Debug, Clone, Copy)]
pub struct Pacer {
    interval: Duration,
    next: Option<Instant>,
}

impl Pacer {
    /// Commands per second, clamped to 1..=1000 (60 if not finite).
    pub fn new(rate_hz: f64) -> Self {
        let hz = if rate_hz.is_finite() {
            rate_hz.clamp(1.0, 1000.0)
        } else {
            60.0
        };
        Self {
            interval: Duration::from_secs_f64(1.0 / hz),
            next: None,
        }
    }

    /// The time between commands.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Whether a command is due at `now` (and if so, schedules the next).
    pub fn due(&mut self, now: Instant) -> bool {
        match self.next {
            Some(next) if now < next => false,
            Some(next) if now < next + self.interval => {
                self.next = Some(next + self.interval);
                true
            }
            _ => {
                self.next = Some(now + self.interval);
                true
            }
        }
    }

    /// When the next command is due (`None` before the first).
    pub fn next_due(&self) -> Option<Instant> {
        self.next
    }
}

/// What a driver is doing after a tick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Still joining.
    Connecting,
    /// In the game, sending commands.
    Playing,
    /// The input asked to quit; the client left cleanly.
    Finished,
    /// The connection is over (refused, kicked, timed out, server gone).
    Over(DisconnectReason),
}

/// A client, the input that plays it, and its command rate.
pub struct Driver {
    client: Client,
    input: Box<dyn Input>,
    pacer: Pacer,
    joined: Option<Instant>,
    quit: bool,
}

impl Driver {
    /// Plays `client` with `input`, sending `rate_hz` commands per second
    /// once in the game. Input time starts at the first tick after the Welcome.
    pub fn new(client: Client, input: Box<dyn Input>, rate_hz: f64) -> Self {
        Self {
            client,
            input,
            pacer: Pacer::new(rate_hz),
            joined: None,
            quit: false,
        }
    }

    /// Pumps the network and, when a command is due, asks the input for a
    /// frame, performs its actions and sends its command. Never blocks.
    /// Errors only for a send the transport refused while still connected.
    pub fn tick(&mut self, now: Instant) -> Result<Progress, ClientError> {
        self.client.pump();
        if self.quit {
            return Ok(Progress::Finished);
        }
        match self.client.status() {
            Status::Connecting => return Ok(Progress::Connecting),
            Status::Disconnected(r) => return Ok(Progress::Over(r.clone())),
            Status::Connected => {}
        }
        let joined = *self.joined.get_or_insert(now);
        if !self.pacer.due(now) {
            return Ok(Progress::Playing);
        }
        let frame = self
            .input
            .poll(now.saturating_duration_since(joined), self.client.view());
        let sent = self.perform(frame.actions).and_then(|()| {
            if self.quit {
                Ok(None)
            } else {
                self.client.send_cmd(frame.cmd)
            }
        });
        match sent {
            Ok(_) if self.quit => Ok(Progress::Finished),
            Ok(_) => Ok(Progress::Playing),
            Err(e) => {
                // A send racing the connection's end is the end, not an error.
                self.client.pump();
                match self.client.status() {
                    Status::Disconnected(r) => Ok(Progress::Over(r.clone())),
                    _ => Err(e),
                }
            }
        }
    }

    fn perform(&mut self, actions: Vec<Action>) -> Result<(), ClientError> {
        for a in actions {
            match a {
                Action::Say(text) => self.client.say(text)?,
                Action::SayTeam(text) => self.client.say_team(text)?,
                Action::Command(line) => self.client.command(line)?,
                Action::Quit => {
                    self.client.disconnect();
                    self.quit = true;
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// When the next command is due (for sleeping between ticks).
    pub fn next_due(&self) -> Option<Instant> {
        self.pacer.next_due()
    }

    /// The command interval.
    pub fn interval(&self) -> Duration {
        self.pacer.interval()
    }

    /// The client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The client, mutably (to chat or disconnect from outside the input).
    pub fn client_mut(&mut self) -> &mut Client {
        &mut self.client
    }

    /// Gives the client back.
    pub fn into_client(self) -> Client {
        self.client
    }
}

/// Ticks every driver in turn from the calling thread until `done` says
/// so (checked after each round; returns `true`) or `deadline` passes
/// (returns `false`), sleeping until the next command is due between
/// rounds. The first tick error stops the loop.
///
/// ```no_run
/// # use std::time::{Duration, Instant};
/// # use quarry_client::{Driver, run_drivers};
/// # fn f(drivers: &mut [Driver]) -> Result<(), quarry_client::ClientError> {
/// // Until everyone has seen the seven others.
/// let all_see = run_drivers(drivers, Instant::now() + Duration::from_secs(5), |ds| ds.iter().all(|d| d.client().view().entity_count() >= 7))?;
/// assert!(all_see);
/// # Ok(()) }
/// ```
pub fn run_drivers(
    drivers: &mut [Driver],
    deadline: Instant,
    mut done: impl FnMut(&[Driver]) -> bool,
) -> Result<bool, ClientError> {
    loop {
        for d in drivers.iter_mut() {
            d.tick(Instant::now())?;
        }
        if done(drivers) {
            return Ok(true);
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        let next = drivers
            .iter()
            .filter_map(Driver::next_due)
            .min()
            .unwrap_or(now + Duration::from_millis(5));
        let nap = next
            .saturating_duration_since(now)
            .clamp(Duration::from_millis(1), Duration::from_millis(10));
        std::thread::sleep(nap.min(deadline.saturating_duration_since(now)));
    }
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("client", &self.client)
            .field("pacer", &self.pacer)
            .field("quit", &self.quit)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacer_keeps_the_rate_and_skips_missed_commands() {
        let t0 = Instant::now();
        let mut p = Pacer::new(10.0);
        let ms = |n| t0 + Duration::from_millis(n);
        assert!(p.due(ms(0)));
        assert!(!p.due(ms(50)));
        assert!(p.due(ms(100)));
        assert!(
            p.due(ms(230)),
            "late but within one interval: keeps the schedule"
        );
        assert_eq!(p.next_due(), Some(ms(300)));
        assert!(p.due(ms(1000)), "far behind: one command, not a burst");
        assert!(!p.due(ms(1050)));
        assert_eq!(p.next_due(), Some(ms(1100)));
        assert_eq!(Pacer::new(f64::NAN).interval(), Pacer::new(60.0).interval());
        assert_eq!(Pacer::new(0.0).interval(), Duration::from_secs(1));
    }
}
