//! Tick timing: how long each tick's work took (not counting the sleep), over
//! a sliding window, for `status`, the headless-match summary and benchmarks.

use std::time::{Duration, Instant};

/// How many recent ticks the averages cover (about 17 s at 60 Hz).
pub const WINDOW: usize = 1024;

/// The parts of a tick's work, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Reading what clients sent: connects, commands, messages.
    NetIn,
    /// Bots perceive, decide and write their commands.
    Bots,
    /// The match steps: movement, weapons, rules.
    Sim,
    /// Events, scoreboards and snapshots out to clients.
    NetOut,
}

impl Phase {
    /// Every phase, in tick order.
    pub const ALL: [Phase; 4] = [Phase::NetIn, Phase::Bots, Phase::Sim, Phase::NetOut];

    /// A short name for `status`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::NetIn => "net in",
            Phase::Bots => "bots",
            Phase::Sim => "sim",
            Phase::NetOut => "net out",
        }
    }
}

/// How long each phase of one tick took.
pub type PhaseTimes = [Duration; Phase::ALL.len()];

/// A ring of the most recent tick work times plus lifetime counters.
#[derive(Debug, Clone)]
pub struct TickStats {
    samples: Vec<Duration>,
    phases: Vec<PhaseTimes>,
    starts: Vec<Instant>,
    next: usize,
    total_ticks: u64,
    max: Duration,
    /// Ticks that started more than one period late (the loop fell behind).
    pub late_ticks: u64,
}

impl Default for TickStats {
    fn default() -> Self {
        Self {
            samples: Vec::with_capacity(WINDOW),
            phases: Vec::with_capacity(WINDOW),
            starts: Vec::with_capacity(WINDOW),
            next: 0,
            total_ticks: 0,
            max: Duration::ZERO,
            late_ticks: 0,
        }
    }
}

/// A summary of the window.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct TickSummary {
    /// Ticks run since startup.
    pub total_ticks: u64,
    /// Mean work time per tick over the window, in milliseconds.
    pub mean_ms: f64,
    /// Median work time over the window, in milliseconds.
    pub p50_ms: f64,
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
        self.record_phases(started, work, PhaseTimes::default());
    }

    /// As [`TickStats::record`], with the time each phase took.
    pub fn record_phases(&mut self, started: Instant, work: Duration, phases: PhaseTimes) {
        if self.samples.len() < WINDOW {
            self.samples.push(work);
            self.phases.push(phases);
            self.starts.push(started);
        } else {
            self.samples[self.next] = work;
            self.phases[self.next] = phases;
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

    /// Mean, p50, p99 and max of the window.
    pub fn summary(&self) -> TickSummary {
        if self.samples.is_empty() {
            return TickSummary { late_ticks: self.late_ticks, ..TickSummary::default() };
        }
        let mut sorted = self.samples.clone();
        sorted.sort_unstable();
        let p50_ms = ms(percentile(&sorted, 50));
        let (mean_ms, p99_ms) = mean_and_p99(sorted);
        TickSummary {
            total_ticks: self.total_ticks,
            mean_ms,
            p50_ms,
            p99_ms,
            max_ms: ms(self.max),
            rate_hz: self.measured_rate(),
            late_ticks: self.late_ticks,
        }
    }

    /// Mean and p99 of each phase over the window, in milliseconds, in
    /// [`Phase::ALL`] order.
    pub fn phase_summary(&self) -> [(f64, f64); Phase::ALL.len()] {
        let mut out = [(0.0, 0.0); Phase::ALL.len()];
        if self.phases.is_empty() {
            return out;
        }
        for (i, o) in out.iter_mut().enumerate() {
            *o = mean_and_p99(self.phases.iter().map(|p| p[i]).collect());
        }
        out
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Mean and nearest-rank 99th percentile (the smallest sample with at
/// least 99 % at or below it) of non-empty `samples`, in milliseconds.
fn mean_and_p99(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort_unstable();
    let sum: Duration = samples.iter().sum();
    (ms(sum) / samples.len() as f64, ms(percentile(&samples, 99)))
}

/// The nearest-rank `pct` percentile of `sorted` (ascending; zero when
/// empty): the smallest sample with at least `pct` % at or below it.
fn percentile(sorted: &[Duration], pct: usize) -> Duration {
    let rank = (sorted.len() * pct).div_ceil(100).max(1);
    sorted.get(rank - 1).copied().unwrap_or_default()
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
        assert!((sum.p50_ms - 0.5).abs() < 1e-9, "{sum:?}");
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
    fn phases_are_summarised_apart() {
        let mut s = TickStats::default();
        let t0 = Instant::now();
        for i in 1..=100u64 {
            let phases = [Duration::from_micros(i), Duration::ZERO, Duration::from_millis(2), Duration::from_micros(10 * i)];
            s.record_phases(t0, phases.iter().sum(), phases);
        }
        let p = s.phase_summary();
        assert!((p[0].1 - 0.099).abs() < 1e-9, "{p:?}");
        assert_eq!(p[1], (0.0, 0.0));
        assert!((p[2].0 - 2.0).abs() < 1e-9 && (p[2].1 - 2.0).abs() < 1e-9, "{p:?}");
        assert!((p[3].0 - 0.505).abs() < 1e-9, "{p:?}");
    }

    #[test]
    fn empty_is_zero() {
        assert_eq!(TickStats::default().summary(), TickSummary::default());
    }
}
