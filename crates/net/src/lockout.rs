//! Lockout by address: an address that fails a secret (the server
//! password, an admin key) a few times must wait before it may try again,
//! and the wait doubles with every further failure. While it waits, its
//! attempts are refused without the secret being looked at, so guessing
//! gains nothing. Memory is bounded: at most [`MAX_ADDRESSES`] addresses.
//! An address is an IPv4 address or an IPv6 /64
//! ([`crate::transport::address_group`]): one IPv6 host holds a whole /64,
//! and would otherwise get fresh tries from each address in it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Failures an address may have before it has to wait.
pub const FREE_TRIES: u32 = 3;
/// The first wait; each later failure doubles it.
pub const FIRST_WAIT: Duration = Duration::from_secs(1);
/// The longest wait.
pub const MAX_WAIT: Duration = Duration::from_secs(300);
/// Addresses remembered at most (the oldest is forgotten first).
pub const MAX_ADDRESSES: usize = 4096;
/// An address with no attempt for this long is forgotten.
const FORGET_AFTER: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone, Copy)]
struct Record {
    failures: u32,
    locked_until: Option<Instant>,
    last: Instant,
}

/// Failures by address.
#[derive(Debug, Default)]
pub struct Lockout {
    records: HashMap<IpAddr, Record>,
    /// Attempts refused because the address was locked out, in total.
    pub refused: u64,
}

impl Lockout {
    /// How long `ip` must still wait at `now`, if it is locked out.
    pub fn wait(&self, ip: IpAddr, now: Instant) -> Option<Duration> {
        let until = self.records.get(&crate::transport::address_group(ip))?.locked_until?;
        (until > now).then(|| until - now)
    }

    /// Counts a refusal of a locked-out address.
    pub fn note_refused(&mut self) {
        self.refused += 1;
    }

    /// Records a failure from `ip`; returns the wait it now has, if any.
    pub fn fail(&mut self, ip: IpAddr, now: Instant) -> Option<Duration> {
        self.prune(now);
        let r = self.records.entry(crate::transport::address_group(ip)).or_insert(Record { failures: 0, locked_until: None, last: now });
        r.failures = r.failures.saturating_add(1);
        r.last = now;
        let over = r.failures.checked_sub(FREE_TRIES)?;
        let wait = FIRST_WAIT.saturating_mul(1u32 << over.min(16)).min(MAX_WAIT);
        r.locked_until = Some(now + wait);
        Some(wait)
    }

    /// A success from `ip`: its record is cleared.
    pub fn succeed(&mut self, ip: IpAddr) {
        self.records.remove(&crate::transport::address_group(ip));
    }

    /// Addresses remembered now.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no address is remembered.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    fn prune(&mut self, now: Instant) {
        if self.records.len() < MAX_ADDRESSES {
            return;
        }
        self.records.retain(|_, r| now.saturating_duration_since(r.last) < FORGET_AFTER);
        while self.records.len() >= MAX_ADDRESSES {
            let Some(oldest) = self.records.iter().min_by_key(|(ip, r)| (r.last, **ip)).map(|(ip, _)| *ip) else { break };
            self.records.remove(&oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_start_after_the_free_tries_and_double() {
        let mut l = Lockout::default();
        let ip: IpAddr = "203.0.113.9".parse().expect("ip");
        let t0 = Instant::now();
        for _ in 0..FREE_TRIES - 1 {
            assert_eq!(l.fail(ip, t0), None);
        }
        assert_eq!(l.fail(ip, t0), Some(FIRST_WAIT));
        assert_eq!(l.wait(ip, t0), Some(FIRST_WAIT));
        assert_eq!(l.wait(ip, t0 + FIRST_WAIT), None, "the wait runs out");
        assert_eq!(l.fail(ip, t0), Some(FIRST_WAIT * 2));
        assert_eq!(l.fail(ip, t0), Some(FIRST_WAIT * 4));
        for _ in 0..40 {
            l.fail(ip, t0);
        }
        assert_eq!(l.wait(ip, t0), Some(MAX_WAIT));
        l.succeed(ip);
        assert_eq!(l.wait(ip, t0), None);
        assert_eq!(l.fail(ip, t0), None, "a right password starts the count again");
    }

    #[test]
    fn an_ipv6_host_is_locked_out_across_its_slash_64() {
        let mut l = Lockout::default();
        let t0 = Instant::now();
        for i in 1..=FREE_TRIES {
            l.fail(format!("2001:db8:7:7::{i}").parse().expect("ip"), t0);
        }
        assert_eq!(l.wait("2001:db8:7:7:ffff::1".parse().expect("ip"), t0), Some(FIRST_WAIT), "a fresh address in the /64 waits too");
        assert_eq!(l.wait("2001:db8:7:8::1".parse().expect("ip"), t0), None, "the next /64 does not");
    }

    #[test]
    fn memory_is_bounded() {
        let mut l = Lockout::default();
        let t0 = Instant::now();
        for i in 0..(MAX_ADDRESSES as u32 + 500) {
            l.fail(IpAddr::from(i.to_be_bytes()), t0 + Duration::from_millis(u64::from(i)));
        }
        assert!(l.len() <= MAX_ADDRESSES, "{}", l.len());
        let newest = IpAddr::from((MAX_ADDRESSES as u32 + 499).to_be_bytes());
        assert!(l.records.contains_key(&newest), "the newest address is kept");
    }
}
