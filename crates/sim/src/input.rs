//! The input queue of one client slot: the single path from a user command
//! to movement, firing and weapon switching, for every kind of client.
//!
//! Commands carry their tick. The queue keeps them in tick order, drops
//! stale ones (at or before the last command consumed) and duplicates,
//! drops a flood beyond its bound, and counts each reason. A slot with no
//! new command repeats its last one, as a lagging client would; a real
//! command that arrives late for a tick already covered by a repeat is still
//! run (on the next tick), so network jitter never loses input.

use std::collections::VecDeque;

use quarry_movement::{Sanitised, UserCmd};

/// How many commands a slot may have waiting (about 130 ms at 60 Hz): a
/// client that sends more than that faster than the server consumes them is
/// flooding, and the excess is dropped.
pub const INPUT_QUEUE_BOUND: usize = 8;

/// Why commands were dropped or changed, counted per slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct InputCounters {
    /// Commands accepted into the queue.
    pub accepted: u64,
    /// Dropped: tick at or before the last consumed command.
    pub stale: u64,
    /// Dropped: a command for the same tick was already queued.
    pub duplicate: u64,
    /// Dropped: the queue was full.
    pub flood: u64,
    /// Accepted after clamping bad values (NaN/huge angles, -128 moves, unknown buttons).
    pub clamped: u64,
    /// Ticks on which the slot had no new command and its last one was repeated.
    pub repeated: u64,
}

/// What happened to a pushed command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushOutcome {
    /// Queued.
    Accepted,
    /// Queued after clamping.
    Clamped,
    /// Dropped as stale.
    Stale,
    /// Dropped as a duplicate.
    Duplicate,
    /// Dropped: queue full.
    Flood,
}

/// One slot's queue of commands.
#[derive(Debug, Clone, Default)]
pub struct InputQueue {
    queue: VecDeque<UserCmd>,
    last: Option<UserCmd>,
    repeats: u32,
    /// Counters for `status` and tests.
    pub counters: InputCounters,
}

impl InputQueue {
    /// Offers a command. The command is sanitised first.
    pub fn push(&mut self, mut cmd: UserCmd) -> PushOutcome {
        if self.last.is_some_and(|l| cmd.tick <= l.tick) {
            self.counters.stale += 1;
            return PushOutcome::Stale;
        }
        let pos = self.queue.partition_point(|c| c.tick < cmd.tick);
        if self.queue.get(pos).is_some_and(|c| c.tick == cmd.tick) {
            self.counters.duplicate += 1;
            return PushOutcome::Duplicate;
        }
        if self.queue.len() >= INPUT_QUEUE_BOUND {
            self.counters.flood += 1;
            return PushOutcome::Flood;
        }
        let outcome = match cmd.sanitise() {
            Sanitised::Clean => PushOutcome::Accepted,
            Sanitised::Clamped => {
                self.counters.clamped += 1;
                PushOutcome::Clamped
            }
        };
        self.counters.accepted += 1;
        self.queue.insert(pos, cmd);
        outcome
    }

    /// The command for this tick: the oldest queued one, or the last one
    /// repeated (with its tick advanced) when nothing new arrived. `None`
    /// before the slot ever sent a command.
    pub fn take(&mut self) -> Option<UserCmd> {
        if let Some(cmd) = self.queue.pop_front() {
            self.last = Some(cmd);
            self.repeats = 0;
            return Some(cmd);
        }
        let mut repeat = self.last?;
        self.repeats += 1;
        repeat.tick = repeat.tick.wrapping_add(self.repeats);
        self.counters.repeated += 1;
        Some(repeat)
    }

    /// Commands waiting.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The last command consumed.
    pub fn last(&self) -> Option<&UserCmd> {
        self.last.as_ref()
    }

    /// Forgets queued and last commands (a slot's new occupant, a map change
    /// that restarts tick numbering), keeping the counters.
    pub fn reset(&mut self) {
        self.queue.clear();
        self.last = None;
        self.repeats = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(tick: u32) -> UserCmd {
        UserCmd { tick, forward: 127, ..UserCmd::default() }
    }

    #[test]
    fn orders_by_tick_and_drops_stale_and_duplicates() {
        let mut q = InputQueue::default();
        assert_eq!(q.push(cmd(3)), PushOutcome::Accepted);
        assert_eq!(q.push(cmd(1)), PushOutcome::Accepted);
        assert_eq!(q.push(cmd(3)), PushOutcome::Duplicate);
        assert_eq!(q.take().map(|c| c.tick), Some(1));
        assert_eq!(q.push(cmd(1)), PushOutcome::Stale);
        assert_eq!(q.push(cmd(2)), PushOutcome::Accepted);
        assert_eq!(q.take().map(|c| c.tick), Some(2));
        assert_eq!(q.take().map(|c| c.tick), Some(3));
        assert_eq!(q.counters.stale, 1);
        assert_eq!(q.counters.duplicate, 1);
    }

    #[test]
    fn repeats_last_command_when_starved() {
        let mut q = InputQueue::default();
        assert_eq!(q.take(), None);
        q.push(UserCmd { tick: 5, forward: 50, ..UserCmd::default() });
        q.take();
        let r = q.take().expect("repeat");
        assert_eq!((r.tick, r.forward), (6, 50));
        assert_eq!(q.counters.repeated, 1);
        // A real command that arrives late for the repeated tick still runs.
        assert_eq!(q.push(cmd(6)), PushOutcome::Accepted);
        assert_eq!(q.take().map(|c| (c.tick, c.forward)), Some((6, 127)));
        assert_eq!(q.push(cmd(5)), PushOutcome::Stale);
    }

    #[test]
    fn flood_is_bounded_and_counted() {
        let mut q = InputQueue::default();
        for t in 1..=100 {
            q.push(cmd(t));
        }
        assert_eq!(q.len(), INPUT_QUEUE_BOUND);
        assert_eq!(q.counters.flood, 100 - INPUT_QUEUE_BOUND as u64);
    }

    #[test]
    fn bad_values_are_clamped_and_counted() {
        let mut q = InputQueue::default();
        let bad = UserCmd { tick: 1, pitch: f32::INFINITY, ..UserCmd::default() };
        assert_eq!(q.push(bad), PushOutcome::Clamped);
        assert_eq!(q.take().map(|c| c.pitch), Some(0.0));
        assert_eq!(q.counters.clamped, 1);
    }
}
