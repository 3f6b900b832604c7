//! The out-of-band rate limits: a token bucket per address (hashed into a
//! fixed table, so a flood of spoofed sources allocates nothing and only
//! shares buckets) and one global budget of answer bytes a second, as
//! ioquake3's `SVC_RateLimitAddress` and its outbound leaky bucket do.
//!
//! A spoofed flood from many addresses meets the global budget; one from
//! a single address (or aimed at one victim) meets its bucket first. The
//! table's hash is keyed at random per process, so a sender cannot pick
//! sources that all land in someone else's bucket.

use std::hash::{BuildHasher, Hasher};
use std::net::IpAddr;
use std::time::Instant;

/// Buckets in the address table: collisions only make two addresses share
/// a budget, which costs them answers, never the server memory.
pub const ADDRESS_BUCKETS: usize = 4096;

/// The limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OobLimits {
    /// Answers an address may get at once.
    pub address_burst: f32,
    /// Answers a second an address earns back.
    pub address_rate: f32,
    /// Answer bytes the server may send at once, to everyone.
    pub global_burst_bytes: f32,
    /// Answer bytes a second the server earns back, to everyone.
    pub global_bytes_per_sec: f32,
}

impl Default for OobLimits {
    /// A browser's refresh asks once per server and `qstat -a2s` a few
    /// times; 32 KB/s answers about a hundred `getinfo`s a second, far above
    /// what a listed server sees, and is what a spoofed flood can draw.
    fn default() -> Self {
        Self { address_burst: 8.0, address_rate: 4.0, global_burst_bytes: 32_768.0, global_bytes_per_sec: 32_768.0 }
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f32,
    /// Milliseconds since the limiter's start when last filled.
    at_ms: u64,
}

/// Why an answer was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limited {
    /// The address's bucket is empty.
    Address,
    /// The global byte budget is spent.
    Global,
}

/// The per-address table and the global budget.
#[derive(Debug)]
pub struct RateLimiter {
    limits: OobLimits,
    start: Instant,
    hasher: std::collections::hash_map::RandomState,
    table: Box<[Bucket]>,
    global: Bucket,
}

impl RateLimiter {
    /// A limiter whose clock starts at `start`.
    pub fn new(limits: OobLimits, start: Instant) -> Self {
        let full = Bucket { tokens: limits.address_burst, at_ms: 0 };
        Self {
            limits,
            start,
            hasher: std::collections::hash_map::RandomState::new(),
            table: vec![full; ADDRESS_BUCKETS].into_boxed_slice(),
            global: Bucket { tokens: limits.global_burst_bytes, at_ms: 0 },
        }
    }

    fn slot(&self, ip: IpAddr) -> usize {
        let mut h = self.hasher.build_hasher();
        match crate::transport::address_group(ip) {
            IpAddr::V4(v4) => h.write(&v4.octets()),
            IpAddr::V6(v6) => h.write(&v6.octets()),
        }
        (h.finish() % ADDRESS_BUCKETS as u64) as usize
    }

    fn refill(b: &mut Bucket, now_ms: u64, rate_per_sec: f32, cap: f32) {
        let dt = now_ms.saturating_sub(b.at_ms) as f32 / 1000.0;
        b.tokens = (b.tokens + dt * rate_per_sec).min(cap);
        b.at_ms = now_ms;
    }

    /// Whether `ip` may get an answer of `bytes` now; spends its share of
    /// both budgets if so, nothing if not. A `master` (an address the
    /// server heartbeats) skips the global budget, so a flood from
    /// elsewhere cannot get the server delisted; its own bucket still holds.
    pub fn allow(&mut self, ip: IpAddr, bytes: usize, now: Instant, master: bool) -> Result<(), Limited> {
        let now_ms = u64::try_from(now.saturating_duration_since(self.start).as_millis()).unwrap_or(u64::MAX);
        let l = self.limits;
        let slot = self.slot(ip);
        let bucket = self.table.get_mut(slot).ok_or(Limited::Address)?;
        Self::refill(bucket, now_ms, l.address_rate, l.address_burst);
        if bucket.tokens < 1.0 {
            return Err(Limited::Address);
        }
        if !master {
            Self::refill(&mut self.global, now_ms, l.global_bytes_per_sec, l.global_burst_bytes);
            let cost = bytes as f32;
            if self.global.tokens < cost {
                return Err(Limited::Global);
            }
            self.global.tokens -= cost;
        }
        if let Some(b) = self.table.get_mut(slot) {
            b.tokens -= 1.0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_address_gets_a_burst_then_its_rate() {
        let t0 = Instant::now();
        let mut l = RateLimiter::new(OobLimits::default(), t0);
        let ip: IpAddr = "198.51.100.7".parse().expect("ip");
        let burst = (0..50).filter(|_| l.allow(ip, 10, t0, false).is_ok()).count();
        assert_eq!(burst, 8);
        assert_eq!(l.allow(ip, 10, t0, false), Err(Limited::Address));
        assert!(l.allow(ip, 10, t0 + Duration::from_millis(300), false).is_ok(), "earned back");
    }

    #[test]
    fn many_addresses_meet_the_global_budget_and_the_table_stays_fixed() {
        let t0 = Instant::now();
        let limits = OobLimits::default();
        let mut l = RateLimiter::new(limits, t0);
        let mut sent = 0usize;
        for i in 0..100_000u32 {
            if l.allow(IpAddr::from(i.to_be_bytes()), 1000, t0, false).is_ok() {
                sent += 1000;
            }
        }
        assert!(sent as f32 <= limits.global_burst_bytes, "{sent}");
        assert_eq!(l.table.len(), ADDRESS_BUCKETS);
        // One second later the budget has come back, by its rate.
        let later = (0..100u32).filter(|i| l.allow(IpAddr::from((i + 200_000).to_be_bytes()), 1000, t0 + Duration::from_secs(1), false).is_ok()).count();
        assert_eq!(later, (limits.global_bytes_per_sec / 1000.0) as usize);
        // A master is still answered with the budget spent, within its bucket.
        let master: IpAddr = "203.0.113.1".parse().expect("ip");
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!((0..20).filter(|_| l.allow(master, 1000, t1, true).is_ok()).count(), 8);
    }

    #[test]
    fn an_ipv6_64_is_one_address() {
        let t0 = Instant::now();
        let mut l = RateLimiter::new(OobLimits::default(), t0);
        let n = (0..50u16).filter(|i| l.allow(format!("2001:db8::{i:x}").parse().expect("ip"), 10, t0, false).is_ok()).count();
        assert_eq!(n, 8);
    }
}
