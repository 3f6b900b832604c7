//! The fixed-rate tick clock: when the next tick is due, without drift, and
//! what to do when the server falls behind.

use std::time::{Duration, Instant};

/// How many periods behind the loop may fall before it stops trying to catch
/// up and re-anchors (Quake's "hitch"): catching up on a long stall would run
/// a burst of ticks with no time between them.
pub const MAX_CATCH_UP_TICKS: u32 = 5;

/// Deadlines for a fixed tick rate.
#[derive(Debug, Clone)]
pub struct TickClock {
    period: Duration,
    next: Instant,
}

/// What the clock says about the tick that is starting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickTiming {
    /// On time (or a little late, within one period).
    OnTime,
    /// More than one period late; the loop is catching up.
    Late,
    /// So late that the clock re-anchored; this many ticks were skipped.
    Hitch(u32),
}

impl TickClock {
    /// A clock at `hz` ticks per second whose first tick is due `now`.
    pub fn new(hz: u32, now: Instant) -> Self {
        Self { period: period_of(hz), next: now }
    }

    /// The tick period.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// Changes the rate; the next deadline is re-anchored to `now`.
    pub fn set_rate(&mut self, hz: u32, now: Instant) {
        self.period = period_of(hz);
        self.next = now;
    }

    /// How long to wait from `now` until the next tick is due.
    pub fn wait(&self, now: Instant) -> Duration {
        self.next.saturating_duration_since(now)
    }

    /// Starts the due tick at `now` and schedules the one after it.
    pub fn start_tick(&mut self, now: Instant) -> TickTiming {
        let behind = now.saturating_duration_since(self.next);
        let timing = if behind > self.period * MAX_CATCH_UP_TICKS {
            let skipped = (behind.as_secs_f64() / self.period.as_secs_f64()) as u32;
            self.next = now;
            TickTiming::Hitch(skipped)
        } else if behind > self.period {
            TickTiming::Late
        } else {
            TickTiming::OnTime
        };
        self.next += self.period;
        timing
    }
}

fn period_of(hz: u32) -> Duration {
    Duration::from_secs_f64(1.0 / f64::from(hz.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_do_not_drift() {
        let t0 = Instant::now();
        let mut c = TickClock::new(60, t0);
        for _ in 0..600 {
            // Each tick starts exactly when it is due.
            let due = t0 + c.wait(t0);
            assert_eq!(c.start_tick(due), TickTiming::OnTime);
        }
        // 600 ticks at 60 Hz end exactly 10 s after the start (to rounding of the period).
        let elapsed = c.next - t0;
        assert!((elapsed.as_secs_f64() - 10.0).abs() < 1e-6, "{elapsed:?}");
    }

    #[test]
    fn waits_until_due() {
        let t0 = Instant::now();
        let mut c = TickClock::new(50, t0);
        c.start_tick(t0);
        assert_eq!(c.wait(t0), Duration::from_millis(20));
        assert_eq!(c.wait(t0 + Duration::from_millis(30)), Duration::ZERO);
    }

    #[test]
    fn late_then_hitch() {
        let t0 = Instant::now();
        let mut c = TickClock::new(10, t0);
        c.start_tick(t0);
        assert_eq!(c.start_tick(t0 + Duration::from_millis(250)), TickTiming::Late);
        let t = t0 + Duration::from_secs(5);
        assert!(matches!(c.start_tick(t), TickTiming::Hitch(n) if n >= 40));
        assert_eq!(c.wait(t), Duration::from_millis(100));
    }
}
