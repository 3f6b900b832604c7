//! The one source of randomness of a bot: a PCG stream seeded from the
//! match seed and the bot's slot, so a headless match replays exactly from
//! its seed and inputs. Nothing in this crate draws from any other RNG.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

/// A bot's private random stream.
#[derive(Debug, Clone)]
pub struct BotRng(Pcg32);

/// SplitMix64: spreads nearby seeds (slot 3 and slot 4) into unrelated streams.
pub fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl BotRng {
    /// The stream of the bot in `slot` for a match seeded with `seed`;
    /// `stream` separates independent uses (0: the brain, 1: the manager).
    pub fn for_slot(seed: u64, slot: u8, stream: u64) -> Self {
        let s = mix64(seed ^ mix64(u64::from(slot) << 8 | stream));
        Self(Pcg32::seed_from_u64(s))
    }

    /// A stream from a plain seed (tests, the manager).
    pub fn from_seed(seed: u64) -> Self {
        Self(Pcg32::seed_from_u64(mix64(seed)))
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        self.0.random::<f32>()
    }

    /// Uniform in `[-1, 1)`.
    pub fn signed(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// `true` with probability `p` (clamped to 0..=1).
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p.clamp(0.0, 1.0)
    }

    /// Uniform integer in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }

    /// The underlying generator (for libraries that take an `Rng`).
    pub fn inner(&mut self) -> &mut Pcg32 {
        &mut self.0
    }

    /// `+1.0` or `-1.0`, evenly.
    pub fn sign(&mut self) -> f32 {
        if self.chance(0.5) { 1.0 } else { -1.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_slots_differ() {
        let mut a = BotRng::for_slot(7, 3, 0);
        let mut b = BotRng::for_slot(7, 3, 0);
        let mut c = BotRng::for_slot(7, 4, 0);
        let va: Vec<f32> = (0..8).map(|_| a.unit()).collect();
        let vb: Vec<f32> = (0..8).map(|_| b.unit()).collect();
        let vc: Vec<f32> = (0..8).map(|_| c.unit()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
        assert!(va.iter().all(|v| (0.0..1.0).contains(v)));
    }

    #[test]
    fn helpers_stay_in_range() {
        let mut r = BotRng::from_seed(1);
        for _ in 0..1000 {
            let s = r.signed();
            assert!((-1.0..1.0).contains(&s));
            assert!(r.below(5) < 5);
        }
        assert_eq!(r.below(0), 0);
        assert!(!r.chance(0.0));
        assert!(r.chance(1.0));
    }
}
