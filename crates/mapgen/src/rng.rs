//! SplitMix64: the generator's own small seeded RNG, so a seed writes the
//! same map whatever version of any RNG crate the workspace uses.

/// A seeded random number generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x5175_6172_7279_6d61)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A whole number in `lo..=hi` (`lo` when `hi < lo`).
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        if hi <= lo {
            return lo;
        }
        let span = u64::from((hi - lo) as u32) + 1;
        lo + (self.next_u64() % span) as i32
    }

    /// A multiple of `step` in `lo..=hi` (both multiples of `step`).
    pub fn step(&mut self, lo: i32, hi: i32, step: i32) -> i32 {
        lo + self.range(0, (hi - lo) / step.max(1)) * step.max(1)
    }

    /// One of `items`; `None` when there are none.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let i = (self.next_u64() % items.len().max(1) as u64) as usize;
        items.get(i).copied()
    }

    /// `true` with probability one half.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers_within_bounds() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            let x = a.range(-5, 9);
            assert_eq!(x, b.range(-5, 9));
            assert!((-5..=9).contains(&x));
            assert_eq!(a.step(64, 256, 32) % 32, 0);
            b.step(64, 256, 32);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
