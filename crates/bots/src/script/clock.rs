//! How long a script runs, measured as the tick thread's CPU time rather
//! than wall time: a script is charged for the time it computed, not for
//! the time the machine spent on other work while it ran (a preempted call
//! on a busy machine must not fail, or a match would play differently
//! under load). Reading a thread's CPU clock is a system call (about
//! 0.2 µs), so [`CallTimer`] watches the wall clock first (cheap) and asks
//! the CPU clock only once the wall time says the limit may be passed:
//! CPU time never runs ahead of wall time.
//!
//! A call's limit counts the script's own time: the engine's and the bot
//! API's, not its navmesh queries' ([`uncharged`]), which the per-call
//! quotas bound and whose cost is the navmesh's (a cold route may take a
//! millisecond where the script took a few microseconds). The tick's
//! script time counts them too (the brain measures whole calls).
//!
//! The timer of the call running on a thread is kept here ([`timed`]), so
//! the engine can ask it from its progress callback ([`over_time`]) and the
//! host can run a query off it.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    /// The timer of the call running on this thread.
    static CURRENT: Cell<Option<CallTimer>> = const { Cell::new(None) };
    /// The time charged to the last call [`timed`] ran on this thread.
    static LAST_CHARGED: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// Runs `f` as a call limited by `timer` (asked by [`over_time`] from
/// inside it); what `f` returned and the timer as the call left it.
pub fn timed<T>(timer: CallTimer, f: impl FnOnce() -> T) -> (T, CallTimer) {
    let outer = CURRENT.replace(Some(timer));
    let out = f();
    let timer = CURRENT.replace(outer).unwrap_or(timer);
    LAST_CHARGED.set(timer.used());
    (out, timer)
}

/// The CPU time charged to the last call [`timed`] ran on this thread
/// (its own time, without its navmesh queries).
pub fn last_charged() -> Duration {
    LAST_CHARGED.get()
}

/// Whether the call running on this thread has used its time (never,
/// outside a call).
pub fn over_time() -> bool {
    CURRENT.with(|c| match c.get() {
        Some(mut t) => {
            let over = t.over();
            c.set(Some(t));
            over
        }
        None => false,
    })
}

/// Runs `f` (a navmesh query) off the clock of the call running on this
/// thread: its time does not count toward the call's limit.
pub fn uncharged<T>(f: impl FnOnce() -> T) -> T {
    if CURRENT.with(|c| c.get().is_none()) {
        return f();
    }
    let (cpu, wall) = (thread_cpu(), Instant::now());
    let out = f();
    let (cpu, wall) = (thread_cpu().saturating_sub(cpu), wall.elapsed());
    CURRENT.with(|c| {
        if let Some(mut t) = c.get() {
            t.excluded += cpu;
            t.next_look += wall;
            c.set(Some(t));
        }
    });
    out
}

/// The CPU time this thread has used so far (on systems without a thread
/// clock, wall time since the first call).
pub fn thread_cpu() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0).min(999_999_999))
    }
    #[cfg(not(target_os = "linux"))]
    {
        static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        EPOCH.get_or_init(Instant::now).elapsed()
    }
}

/// One script call's time limit: started when the call starts, asked
/// from inside the engine whether the call has run past it.
#[derive(Debug, Clone, Copy)]
pub struct CallTimer {
    /// The thread's CPU time when the call started.
    started: Duration,
    /// The CPU time the call may use.
    limit: Duration,
    /// CPU time not charged to the call (its navmesh queries).
    excluded: Duration,
    /// Before this instant the limit cannot have been reached (the CPU
    /// time used is at most the wall time passed), so no need to look.
    next_look: Instant,
}

impl CallTimer {
    /// A timer for a call that may use `limit` of CPU time, from now.
    pub fn start(limit: Duration) -> Self {
        Self { started: thread_cpu(), limit, excluded: Duration::ZERO, next_look: Instant::now() + limit }
    }

    /// The limit.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Whether the call has used its limit. Cheap (a wall clock read)
    /// until the wall time since the last look passes what was left.
    pub fn over(&mut self) -> bool {
        let now = Instant::now();
        if now < self.next_look {
            return false;
        }
        let used = self.used();
        if used >= self.limit {
            return true;
        }
        self.next_look = now + (self.limit - used);
        false
    }

    /// The CPU time charged to the call since the start (what it used
    /// less its uncharged work).
    pub fn used(&self) -> Duration {
        thread_cpu().saturating_sub(self.started).saturating_sub(self.excluded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin_cpu(d: Duration) {
        let start = thread_cpu();
        let mut x = 0u64;
        while thread_cpu().saturating_sub(start) < d {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }

    #[test]
    fn a_timer_is_over_once_the_thread_has_computed_for_its_limit() {
        let mut t = CallTimer::start(Duration::from_millis(3));
        assert!(!t.over(), "not at once");
        spin_cpu(Duration::from_millis(1));
        assert!(!t.over(), "not after a third of it");
        spin_cpu(Duration::from_millis(3));
        assert!(t.over(), "after all of it");
        assert!(t.used() >= Duration::from_millis(3));
    }

    #[test]
    fn uncharged_work_does_not_count_toward_the_limit() {
        let (over, t) = timed(CallTimer::start(Duration::from_millis(2)), || {
            uncharged(|| spin_cpu(Duration::from_millis(5)));
            over_time()
        });
        assert!(!over, "5 ms uncharged in a 2 ms call");
        assert!(t.used() < Duration::from_millis(2), "{:?}", t.used());
        let (over, _) = timed(CallTimer::start(Duration::from_millis(2)), || {
            spin_cpu(Duration::from_millis(3));
            over_time()
        });
        assert!(over, "3 ms charged");
        assert!(!over_time(), "outside a call");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn time_asleep_is_not_charged() {
        let mut t = CallTimer::start(Duration::from_millis(2));
        std::thread::sleep(Duration::from_millis(10));
        assert!(!t.over(), "10 ms asleep used no CPU time: {:?}", t.used());
        assert!(t.used() < Duration::from_millis(2));
    }
}
