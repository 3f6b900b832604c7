//! Match time and the match's random numbers.

use bevy_ecs::prelude::*;
use rand::SeedableRng;

/// The match clock: which tick is being simulated and how long one lasts.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MatchClock {
    /// The tick being simulated (starts at 1 for the first step).
    pub tick: u32,
    /// Ticks per second.
    pub hz: u32,
}

impl MatchClock {
    /// Seconds per tick.
    pub fn dt(&self) -> f32 {
        1.0 / self.hz.max(1) as f32
    }

    /// Ticks in `seconds` (rounded up, at least 1 for a positive time).
    pub fn ticks(&self, seconds: f32) -> u32 {
        if seconds <= 0.0 {
            return 0;
        }
        ((seconds * self.hz as f32).ceil() as u32).max(1)
    }

    /// Seconds since tick 0.
    pub fn seconds(&self) -> f64 {
        f64::from(self.tick) / f64::from(self.hz.max(1))
    }
}

/// The match's only source of randomness, seeded from the match seed.
#[derive(Resource, Debug, Clone)]
pub struct SimRng(pub rand_pcg::Pcg64Mcg);

impl SimRng {
    /// An RNG for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(rand_pcg::Pcg64Mcg::seed_from_u64(seed))
    }
}
