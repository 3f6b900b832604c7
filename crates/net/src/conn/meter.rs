//! Per-second counters and the byte-rate budget.

use std::time::{Duration, Instant};

/// The length of a statistics window.
pub(crate) const WINDOW: Duration = Duration::from_secs(1);

/// A count per window: `current` fills, `last` is the previous whole window.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PerSecond {
    current: u64,
    last: u64,
    total: u64,
}

impl PerSecond {
    pub(crate) fn add(&mut self, n: u64) {
        self.current = self.current.saturating_add(n);
        self.total = self.total.saturating_add(n);
    }

    /// Everything added since the meter was made.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    pub(crate) fn roll(&mut self) {
        self.last = self.current;
        self.current = 0;
    }

    pub(crate) fn last(&self) -> u64 {
        self.last
    }

    pub(crate) fn current(&self) -> u64 {
        self.current
    }
}

/// Decides when a window closes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WindowClock {
    start: Instant,
}

impl WindowClock {
    pub(crate) fn new(now: Instant) -> Self {
        Self { start: now }
    }

    /// Whether a window closed at `now` (then the next one starts).
    pub(crate) fn elapsed(&mut self, now: Instant) -> bool {
        if now.saturating_duration_since(self.start) < WINDOW {
            return false;
        }
        // Skip whole idle windows rather than replaying them.
        self.start = now;
        true
    }

    pub(crate) fn next(&self) -> Instant {
        self.start + WINDOW
    }
}

/// A token bucket of bytes: `rate` bytes/s flow in, up to a burst of
/// [`BURST`] of a second's worth (at least one full datagram), and sending
/// may take it below zero; while it is negative, snapshots are skipped (the
/// Half-Life "choke" rule: the next send waits until the last one is paid).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RateBudget {
    rate: u32,
    tokens: f64,
    last: Instant,
}

/// The burst allowance, as a fraction of a second of `rate`.
const BURST: f64 = 0.2;

impl RateBudget {
    pub(crate) fn new(rate: u32, now: Instant) -> Self {
        let mut b = Self { rate, tokens: 0.0, last: now };
        b.tokens = b.cap();
        b
    }

    fn cap(&self) -> f64 {
        (f64::from(self.rate) * BURST).max(1500.0)
    }

    pub(crate) fn rate(&self) -> u32 {
        self.rate
    }

    pub(crate) fn set_rate(&mut self, rate: u32) {
        self.rate = rate;
        self.tokens = self.tokens.min(self.cap());
    }

    fn refill(&mut self, now: Instant) {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + dt * f64::from(self.rate)).min(self.cap());
    }

    /// Whether a send is allowed now.
    pub(crate) fn allows(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= 0.0
    }

    /// Pays for `bytes` sent.
    pub(crate) fn spend(&mut self, bytes: usize) {
        self.tokens -= bytes as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_limits_average_rate() {
        let t0 = Instant::now();
        let mut b = RateBudget::new(10_000, t0);
        let mut sent = 0usize;
        for i in 0..600u64 {
            // 60 attempts per second, 400 bytes each: 24 kB/s wanted.
            let now = t0 + Duration::from_micros(i * 16_667);
            if b.allows(now) {
                b.spend(400);
                sent += 400;
            }
        }
        // 10 s at 10 kB/s plus the initial burst.
        assert!(sent <= 100_000 + 2_000 + 400, "{sent}");
        assert!(sent >= 95_000, "{sent}");
    }

    #[test]
    fn windows_roll() {
        let t0 = Instant::now();
        let mut w = WindowClock::new(t0);
        assert!(!w.elapsed(t0 + Duration::from_millis(999)));
        assert!(w.elapsed(t0 + Duration::from_millis(1000)));
        assert!(!w.elapsed(t0 + Duration::from_millis(1500)));
        let mut c = PerSecond::default();
        c.add(5);
        c.roll();
        assert_eq!((c.last(), c.current()), (5, 0));
    }
}

/// The per-second traffic figures both ends of a connection keep: datagram
/// loss, bytes in and out, snapshots, on one window clock.
#[derive(Debug)]
pub(crate) struct Traffic {
    pub(crate) loss: crate::datagram::LossMeter,
    pub(crate) window: WindowClock,
    pub(crate) bytes_in: PerSecond,
    pub(crate) bytes_out: PerSecond,
    pub(crate) snapshots: PerSecond,
}

impl Traffic {
    /// Meters whose first window starts at `now`.
    pub(crate) fn new(now: Instant) -> Self {
        Self {
            loss: crate::datagram::LossMeter::new(),
            window: WindowClock::new(now),
            bytes_in: PerSecond::default(),
            bytes_out: PerSecond::default(),
            snapshots: PerSecond::default(),
        }
    }

    /// Closes the window when it has run out; returns whether it did, so a
    /// caller can roll meters of its own at the same moment.
    pub(crate) fn roll_if_due(&mut self, now: Instant) -> bool {
        if !self.window.elapsed(now) {
            return false;
        }
        self.loss.roll();
        self.bytes_in.roll();
        self.bytes_out.roll();
        self.snapshots.roll();
        true
    }

    /// The traffic part of [`ConnStats`](crate::conn::ConnStats); the rest is default.
    pub(crate) fn stats(&self) -> crate::conn::ConnStats {
        crate::conn::ConnStats {
            loss_in: self.loss.loss(),
            bytes_in_per_s: self.bytes_in.last(),
            bytes_out_per_s: self.bytes_out.last(),
            bytes_in_total: self.bytes_in.total(),
            bytes_out_total: self.bytes_out.total(),
            snapshots_per_s: self.snapshots.last() as u32,
            ..crate::conn::ConnStats::default()
        }
    }
}
