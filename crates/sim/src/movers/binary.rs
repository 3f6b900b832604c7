//! The two-position mover of Quake 3 (`g_mover.c` binary movers): doors
//! and plats travel between `pos1` (where they rest) and `pos2` at a fixed
//! speed, wait at `pos2`, and come back unless `wait` is negative.
//!
//! Call order per tick: [`Binary::activate`] for each use (touch, plat
//! trigger), then [`Binary::advance`] once; [`Binary::reverse`] when the
//! move was blocked. Time is in ticks; the state is plain data so it can be
//! hashed and tested without a world.

use glam::Vec3;

/// Where a binary mover is in its cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryState {
    /// At rest at `pos1` (a closed door, a lowered plat).
    Pos1,
    /// At `pos2` (an open door, a raised plat), waiting to return.
    Pos2,
    /// Moving from `pos1` to `pos2`.
    ToPos2,
    /// Moving from `pos2` back to `pos1`.
    ToPos1,
}

impl BinaryState {
    /// A stable number for the state hash.
    pub fn code(self) -> u32 {
        match self {
            Self::Pos1 => 1,
            Self::Pos2 => 2,
            Self::ToPos2 => 3,
            Self::ToPos1 => 4,
        }
    }
}

/// A binary mover's motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Binary {
    /// Offset at rest.
    pub pos1: Vec3,
    /// Offset at the other end.
    pub pos2: Vec3,
    /// Units per second.
    pub speed: f32,
    /// Seconds to wait at `pos2`; negative: stay there.
    pub wait_s: f32,
    /// Where it is in its cycle.
    pub state: BinaryState,
    /// How far along from `pos1` (0) to `pos2` (1).
    pub progress: f32,
    /// At `pos2`: the tick it starts back.
    pub return_at: u32,
}

/// What changed during a tick, for sounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// Nothing worth a sound.
    None,
    /// Started moving.
    Started,
    /// Arrived at an end.
    Arrived,
}

impl Binary {
    /// A mover resting at `pos1`.
    pub fn new(pos1: Vec3, pos2: Vec3, speed: f32, wait_s: f32) -> Self {
        Self { pos1, pos2, speed, wait_s, state: BinaryState::Pos1, progress: 0.0, return_at: 0 }
    }

    /// The current offset.
    pub fn offset(&self) -> Vec3 {
        self.pos1.lerp(self.pos2, self.progress)
    }

    /// Used (touched, triggered) at `tick` (Quake 3 `Use_BinaryMover` as a
    /// door trigger calls it): at rest it starts toward `pos2`; at `pos2`
    /// it waits longer; on the way back it turns around.
    pub fn activate(&mut self, tick: u32, hz: u32) -> Transition {
        match self.state {
            BinaryState::Pos1 => {
                self.state = BinaryState::ToPos2;
                Transition::Started
            }
            BinaryState::Pos2 => {
                self.hold(tick, hz);
                Transition::None
            }
            BinaryState::ToPos1 => {
                self.state = BinaryState::ToPos2;
                Transition::Started
            }
            BinaryState::ToPos2 => Transition::None,
        }
    }

    /// At `pos2`, restarts the wait from `tick` (someone is in the way or
    /// on the plat).
    pub fn hold(&mut self, tick: u32, hz: u32) {
        self.hold_until(tick + ticks(self.wait_s.max(0.0), hz));
    }

    /// At `pos2`, stays at least until `tick` (a plat with a rider).
    pub fn hold_until(&mut self, tick: u32) {
        if self.state == BinaryState::Pos2 && self.wait_s >= 0.0 {
            self.return_at = self.return_at.max(tick);
        }
    }

    /// Turns a moving mover around (it was blocked).
    pub fn reverse(&mut self) {
        self.state = match self.state {
            BinaryState::ToPos2 => BinaryState::ToPos1,
            BinaryState::ToPos1 => BinaryState::ToPos2,
            s => s,
        };
    }

    /// Moves one tick of `dt` seconds at `tick`; returns what happened.
    pub fn advance(&mut self, tick: u32, hz: u32, dt: f32) -> Transition {
        let distance = self.pos1.distance(self.pos2);
        let step = if distance > 0.0 && self.speed > 0.0 { self.speed * dt / distance } else { 1.0 };
        match self.state {
            BinaryState::Pos1 => Transition::None,
            BinaryState::Pos2 => {
                if self.wait_s >= 0.0 && tick >= self.return_at {
                    self.state = BinaryState::ToPos1;
                    return Transition::Started;
                }
                Transition::None
            }
            BinaryState::ToPos2 => {
                self.progress = (self.progress + step).min(1.0);
                if self.progress >= 1.0 {
                    self.state = BinaryState::Pos2;
                    self.return_at = tick + ticks(self.wait_s.max(0.0), hz);
                    return Transition::Arrived;
                }
                Transition::None
            }
            BinaryState::ToPos1 => {
                self.progress = (self.progress - step).max(0.0);
                if self.progress <= 0.0 {
                    self.state = BinaryState::Pos1;
                    return Transition::Arrived;
                }
                Transition::None
            }
        }
    }
}

fn ticks(seconds: f32, hz: u32) -> u32 {
    crate::clock::MatchClock { tick: 0, hz }.ticks(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn door_cycle_to_the_tick() {
        // 128 units at 400 u/s = 0.32 s = 20 ticks at 62.5 Hz; use 50 Hz: 16 ticks.
        let mut d = Binary::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 128.0), 400.0, 2.0);
        let (hz, dt) = (50, 0.02);
        assert_eq!(d.activate(1, hz), Transition::Started);
        let mut arrived = None;
        for tick in 1..100 {
            if d.advance(tick, hz, dt) == Transition::Arrived {
                arrived = Some(tick);
                break;
            }
        }
        let arrived = arrived.expect("arrives");
        assert_eq!(arrived, 16);
        assert_eq!(d.offset(), Vec3::new(0.0, 0.0, 128.0));
        assert_eq!(d.return_at, arrived + 100);
        d.activate(arrived + 50, hz);
        assert_eq!(d.return_at, arrived + 150, "touching an open door keeps it open");
        assert_eq!(d.advance(arrived + 150, hz, dt), Transition::Started);
        d.advance(arrived + 151, hz, dt);
        d.reverse();
        assert_eq!(d.state, BinaryState::ToPos2, "blocked on the way back: opens again");
    }

    #[test]
    fn negative_wait_stays_open() {
        let mut d = Binary::new(Vec3::ZERO, Vec3::X * 10.0, 1000.0, -1.0);
        d.activate(0, 60);
        for t in 0..10_000 {
            d.advance(t, 60, 1.0 / 60.0);
        }
        assert_eq!(d.state, BinaryState::Pos2);
    }
}
