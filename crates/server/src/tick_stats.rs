//! Tick timing: how long each tick's work took (not counting the sleep), over
//! a sliding window, for `status`, the headless-match summary and benchmarks.

use std::time::{Duration, Instant};

/// How many recent ticks the averages cover (about 17 s at 60 Hz).
pub const WINDOW: usize = 1024;

/// A ring of the most recent tick work times plus lifetime counters.
#[derive(Debug, Clone)]
pub struct TickStats {
    samples: Vec<Duration>,
    starts: Vec<Instant>,
    next: usize,
    total_ticks: u64,
    max: Duration,
    /// Ticks that started more than one period late (the loop fell behind).
    pub late_ticks: u64,
}

impl Default for TickStats {
    fn default() -> Self {
        Self { samples: Vec::with_capacity(WINDOW), starts: Vec::with_capacity(WINDOW), next: 0, total_ticks: 0, max: Duration::ZERO, late_ticks: 0 }
    }
}

/// A summary of the window.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct TickSummary {
    /// Ticks run since startup.
    pub total_ticks: u64,
    /// Mean work time per tick over the window, in milliseconds.
    pub mean_ms: f64,
    /// 99th percentile work time over the window, in milliseconds.
    pub p99_ms: f64,
    /// Longest tick since startup, in milliseconds.
    pub max_ms: f64,
    /// Ticks per second achieved over the window.
    pub rate_hz: f64,
    /// Ticks that started late since startup.
    pub late_ticks: u64,
}

impl TickStats {
    /// Records one tick that started at `started` and whose work took `work`.
    pub fn record(&mut self, started: Instant, work: Duration) {
        if self.samples.len() < WINDOW {
            self.samples.push(work);
            self.starts.push(started);
        } else {
            self.samples[self.next] = work;
            self.starts[self.next] = started;
        }
        self.next = (self.next + 1) % WINDOW;
        self.total_ticks += 1;
        self.max = self.max.max(work);
    }

    /// Ticks recorded since startup.
    pub fn total_ticks(&self) -> u64 {
        self.total_ticks
    }

    /// The tick rate actually achieved over the window, in ticks per second
    /// (0 until two ticks have run).
    pub fn measured_rate(&self) -> f64 {
        let (Some(first), Some(last)) = (self.starts.iter().min(), self.starts.iter().max()) else { return 0.0 };
        let span = last.saturating_duration_since(*first).as_secs_f64();
        if span > 0.0 { (self.starts.len() - 1) as f64 / span } else { 0.0 }
    }

    /// Mean, p99 and max of the window.
    pub fn summary(&self) -> TickSummary {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        if self.samples.is_empty() {
            return TickSummary { late_ticks: self.late_ticks, ..TickSummary::default() };
        }
        let mut sorted = self.samples.clone();
        sorted.sort_unstable();
        let sum: Duration = sorted.iter().sum();
        // Nearest-rank percentile: the smallest sample with at least 99% at or below it.
        let rank = (sorted.len() * 99).div_ceil(100).max(1);
        TickSummary {
            total_ticks: self.total_ticks,
            mean_ms: ms(sum) / sorted.len() as f64,
            p99_ms: ms(sorted[rank - 1]),
            max_ms: ms(self.max),
            rate_hz: self.measured_rate(),
            late_ticks: self.late_ticks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_samples() {
        let mut s = TickStats::default();
        let t0 = Instant::now();
        for i in 1..=100 {
            s.record(t0 + Duration::from_millis(i * 20), Duration::from_micros(i * 10));
        }
        assert!((s.measured_rate() - 50.0).abs() < 1e-6, "{}", s.measured_rate());
        let sum = s.summary();
        assert_eq!(sum.total_ticks, 100);
        assert!((sum.mean_ms - 0.505).abs() < 1e-9, "{sum:?}");
        assert!((sum.p99_ms - 0.99).abs() < 1e-9, "{sum:?}");
        assert!((sum.max_ms - 1.0).abs() < 1e-9, "{sum:?}");
    }

    #[test]
    fn window_slides() {
        let mut s = TickStats::default();
        let t0 = Instant::now();
        for _ in 0..WINDOW {
            s.record(t0, Duration::from_millis(5));
        }
        for _ in 0..WINDOW {
            s.record(t0, Duration::from_millis(1));
        }
        let sum = s.summary();
        assert!((sum.mean_ms - 1.0).abs() < 1e-9);
        assert!((sum.max_ms - 5.0).abs() < 1e-9, "max is lifetime");
        assert_eq!(sum.total_ticks, 2 * WINDOW as u64);
    }

    #[test]
    fn empty_is_zero() {
        assert_eq!(TickStats::default().summary(), TickSummary::default());
    }
}
