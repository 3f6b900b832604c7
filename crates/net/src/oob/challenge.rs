//! A2S challenges: a keyed hash of the asker's address and the current
//! 30-second window, so the server keeps nothing per asker and a challenge
//! is good for 30 to 60 seconds, from that address only. The key comes
//! from the operating system's RNG when the endpoint starts; challenges
//! never touch the match, so they need no seed.

use std::net::IpAddr;
use std::time::Instant;

use ring::hmac;

/// How long one challenge window lasts, ms (a challenge is accepted in its
/// window and the next).
pub const WINDOW_MS: u64 = 30_000;

/// The value A2S clients send to ask for a challenge.
pub const ASK: u32 = u32::MAX;

/// Issues and checks challenges.
#[derive(Debug)]
pub struct Challenges {
    key: hmac::Key,
    start: Instant,
}

impl Challenges {
    /// Challenges under `key`, with windows counted from `start`.
    pub fn new(key: &[u8; 32], start: Instant) -> Self {
        Self { key: hmac::Key::new(hmac::HMAC_SHA256, key), start }
    }

    fn window(&self, now: Instant) -> u64 {
        u64::try_from(now.saturating_duration_since(self.start).as_millis()).unwrap_or(u64::MAX) / WINDOW_MS
    }

    fn value(&self, ip: IpAddr, window: u64) -> u32 {
        let mut data = [0u8; 24];
        let ip = ip.to_canonical();
        match ip {
            IpAddr::V4(v4) => data[..4].copy_from_slice(&v4.octets()),
            IpAddr::V6(v6) => data[..16].copy_from_slice(&v6.octets()),
        }
        data[16..].copy_from_slice(&window.to_le_bytes());
        let tag = hmac::sign(&self.key, &data);
        let b = tag.as_ref();
        let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        // Never the value that asks for a challenge.
        if v == ASK { 0x5eed_0001 } else { v }
    }

    /// The challenge `ip` gets now.
    pub fn issue(&self, ip: IpAddr, now: Instant) -> u32 {
        self.value(ip, self.window(now))
    }

    /// Whether `challenge` is one `ip` got in this window or the last.
    pub fn check(&self, ip: IpAddr, challenge: u32, now: Instant) -> bool {
        let w = self.window(now);
        challenge != ASK && (self.value(ip, w) == challenge || (w > 0 && self.value(ip, w - 1) == challenge))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_challenge_is_good_for_its_address_for_a_while() {
        let t0 = Instant::now();
        let c = Challenges::new(&[7; 32], t0);
        let a: IpAddr = "192.0.2.1".parse().expect("ip");
        let b: IpAddr = "192.0.2.2".parse().expect("ip");
        let ch = c.issue(a, t0);
        assert!(c.check(a, ch, t0 + Duration::from_secs(45)));
        assert!(!c.check(b, ch, t0), "another address");
        assert!(!c.check(a, ch, t0 + Duration::from_secs(61)), "expired");
        assert!(!c.check(a, ASK, t0));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().expect("ip");
        assert!(c.check(mapped, ch, t0), "the same address through a dual-stack socket");
    }
}
