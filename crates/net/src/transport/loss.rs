//! The seeded datagram-loss test hook.

/// Drops a fraction of Quarry datagrams, seeded, so tests over real
/// sockets can run under loss. Applies to datagrams only (QUIC's own
/// packets and the control stream are untouched), on both the sending and
/// the receiving side of the endpoint it is configured on; configure it on
/// the server to lose datagrams in both directions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossHook {
    /// Fraction dropped, 0.0..=1.0.
    pub rate: f64,
    /// Seed of the drop sequence.
    pub seed: u64,
}

/// SplitMix64: a tiny, seedable, good-enough generator for test hooks and
/// the simulated network (no dependency, same sequence everywhere).
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A float in 0.0..1.0.
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.next_f64() < p
    }
}

/// A [`LossHook`] in use: its generator and counters.
#[derive(Debug, Clone)]
pub(crate) struct Dropper {
    rate: f64,
    rng: SplitMix64,
    pub(crate) dropped: u64,
}

impl Dropper {
    pub(crate) fn new(hook: Option<LossHook>) -> Option<Self> {
        hook.map(|h| Self { rate: h.rate.clamp(0.0, 1.0), rng: SplitMix64::new(h.seed), dropped: 0 })
    }

    /// Whether to drop the next datagram.
    pub(crate) fn drop_next(&mut self) -> bool {
        let d = self.rng.chance(self.rate);
        self.dropped += u64::from(d);
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_is_roughly_honoured_and_seeded() {
        let mut a = Dropper::new(Some(LossHook { rate: 0.2, seed: 7 })).expect("hook");
        let mut b = Dropper::new(Some(LossHook { rate: 0.2, seed: 7 })).expect("hook");
        let da: Vec<bool> = (0..10_000).map(|_| a.drop_next()).collect();
        let db: Vec<bool> = (0..10_000).map(|_| b.drop_next()).collect();
        assert_eq!(da, db);
        assert!((1800..2200).contains(&a.dropped), "{}", a.dropped);
    }
}
