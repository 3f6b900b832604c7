//! The out-of-band handler, sans-IO: a datagram, its source and `now` in,
//! at most one answer out, every datagram counted by what became of it.
//!
//! Order of checks, cheapest first: size, prefix, the request's syntax,
//! the source (no answer to port 0, multicast or unspecified addresses),
//! the challenge where one is needed, then the rate limits with the
//! answer's size. Nothing here allocates per source; the answers are
//! encoded once per publication ([`Published`]) and only copied.

use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use super::a2s::{self, A2sRequest};
use super::challenge::Challenges;
use super::info::Published;
use super::limit::{Limited, OobLimits, RateLimiter};
use super::q3::{self, Q3Request};
use super::{MAX_REQUEST, OobError, PREFIX};

/// What the handler did, since the endpoint started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OobStats {
    /// Out-of-band datagrams received.
    pub received: u64,
    /// Their bytes.
    pub bytes_in: u64,
    /// Answers sent (challenges included).
    pub answered: u64,
    /// Their bytes.
    pub bytes_out: u64,
    /// Challenges sent to A2S askers.
    pub challenges: u64,
    /// Dropped: the asker's address had used its share.
    pub limited_address: u64,
    /// Dropped: the global byte budget was spent.
    pub limited_global: u64,
    /// Dropped: malformed (truncated, not text, bad challenge syntax).
    pub malformed: u64,
    /// Dropped: longer than any request.
    pub oversized: u64,
    /// Dropped: a word the server does not answer.
    pub unknown: u64,
    /// Dropped: a wrong or missing A2S challenge, or a source no answer may go to.
    pub refused: u64,
    /// Answers the socket would not take (full buffer).
    pub send_failed: u64,
}

/// The handler: rate limits, challenges and counters.
#[derive(Debug)]
pub struct OobHandler {
    limiter: RateLimiter,
    challenges: Challenges,
    stats: OobStats,
    /// The masters' addresses (canonical), answered beyond the global budget.
    masters: Vec<IpAddr>,
}

impl OobHandler {
    /// A handler with `limits`, its challenges keyed by `key`, its clocks
    /// starting at `now`.
    pub fn new(limits: OobLimits, key: &[u8; 32], now: Instant) -> Self {
        Self { limiter: RateLimiter::new(limits, now), challenges: Challenges::new(key, now), stats: OobStats::default(), masters: Vec::new() }
    }

    /// The addresses of the masters the server heartbeats (at most a few):
    /// their `getinfo` is answered even when a flood has spent the global
    /// budget, so a flood cannot get the server delisted.
    pub fn set_masters(&mut self, masters: &[IpAddr]) {
        self.masters = masters.iter().take(2 * crate::transport::MAX_MASTERS).map(|ip| ip.to_canonical()).collect();
    }

    /// The counters.
    pub fn stats(&self) -> OobStats {
        self.stats
    }

    /// Counts an answer the socket refused.
    pub fn note_send_failed(&mut self) {
        self.stats.send_failed += 1;
    }

    /// Handles one datagram that began with [`PREFIX`] from `from`; returns
    /// the answer to send back to `from`, if any.
    #[must_use]
    pub fn handle(&mut self, now: Instant, from: SocketAddr, datagram: &[u8], published: &Published) -> Option<Vec<u8>> {
        self.stats.received += 1;
        self.stats.bytes_in += datagram.len() as u64;
        match self.answer(now, from, datagram, published) {
            Ok(Some(answer)) => {
                self.stats.answered += 1;
                self.stats.bytes_out += answer.len() as u64;
                Some(answer)
            }
            Ok(None) => None,
            Err(e) => {
                let s = &mut self.stats;
                match e {
                    OobError::Oversized => s.oversized += 1,
                    OobError::Unknown => s.unknown += 1,
                    OobError::Refused => s.refused += 1,
                    OobError::Limited(Limited::Address) => s.limited_address += 1,
                    OobError::Limited(Limited::Global) => s.limited_global += 1,
                    OobError::NoPrefix | OobError::NotText | OobError::BadChallenge | OobError::Malformed(_) => s.malformed += 1,
                }
                None
            }
        }
    }

    fn answer(&mut self, now: Instant, from: SocketAddr, datagram: &[u8], published: &Published) -> Result<Option<Vec<u8>>, OobError> {
        if datagram.len() > MAX_REQUEST {
            return Err(OobError::Oversized);
        }
        let body = datagram.strip_prefix(&PREFIX).ok_or(OobError::NoPrefix)?;
        let answer = match body.first() {
            Some(&(a2s::INFO | a2s::PLAYER | a2s::RULES)) => {
                let request = a2s::parse_request(body)?.ok_or(OobError::Unknown)?;
                check_source(from)?;
                self.a2s_answer(now, from.ip(), request, published)?
            }
            Some(_) => {
                let request = q3::parse_request(body)?.ok_or(OobError::Unknown)?;
                check_source(from)?;
                match request {
                    Q3Request::GetInfo { challenge } => q3::info_response(&published.info_string, challenge),
                    Q3Request::GetStatus { challenge } => q3::status_response(&published.status_string, &published.status_players, challenge),
                }
            }
            None => return Err(OobError::Malformed("nothing after the prefix")),
        };
        if answer.is_empty() {
            return Ok(None);
        }
        let master = self.masters.contains(&from.ip().to_canonical());
        self.limiter.allow(from.ip(), answer.len(), now, master).map_err(OobError::Limited)?;
        Ok(Some(answer))
    }

    fn a2s_answer(&mut self, now: Instant, ip: IpAddr, request: A2sRequest, published: &Published) -> Result<Vec<u8>, OobError> {
        let (challenge, full) = match request {
            A2sRequest::Info => return Ok(published.a2s_info.clone()),
            A2sRequest::Players(c) => (c, &published.a2s_players),
            A2sRequest::Rules(c) => (c, &published.a2s_rules),
        };
        if self.challenges.check(ip, challenge, now) {
            return Ok(full.clone());
        }
        // Asked for one, stale, a guess or someone else's: a fresh one, as
        // long as the request.
        self.stats.challenges += 1;
        Ok(a2s::challenge_answer(self.challenges.issue(ip, now)))
    }
}

/// Answers go only where a reply can be meant to go.
fn check_source(from: SocketAddr) -> Result<(), OobError> {
    let ip = from.ip().to_canonical();
    let broadcast = matches!(ip, IpAddr::V4(v4) if v4.is_broadcast());
    if from.port() == 0 || ip.is_unspecified() || ip.is_multicast() || broadcast {
        return Err(OobError::Refused);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::oob::info::{OobInfo, OobPlayer};

    fn published() -> Published {
        let info = OobInfo {
            hostname: "Quarry".into(),
            map: "q_dm1".into(),
            gametype: "ffa".into(),
            max_clients: 8,
            players: vec![OobPlayer { name: "Wren".into(), bot: true, ..OobPlayer::default() }],
            ..OobInfo::default()
        };
        Published::new(&info, 27960)
    }

    fn ask(body: &[u8]) -> Vec<u8> {
        let mut d = PREFIX.to_vec();
        d.extend_from_slice(body);
        d
    }

    #[test]
    fn getinfo_is_answered_with_the_challenge() {
        let t0 = Instant::now();
        let mut h = OobHandler::new(OobLimits::default(), &[1; 32], t0);
        let from: SocketAddr = "192.0.2.5:5000".parse().expect("addr");
        let a = h.handle(t0, from, &ask(b"getinfo xyz"), &published()).expect("answer");
        assert!(a.starts_with(&ask(b"infoResponse\n")));
        assert!(String::from_utf8_lossy(&a).ends_with("\\challenge\\xyz"));
        assert_eq!(h.stats().answered, 1);
    }

    #[test]
    fn a2s_players_needs_the_echoed_challenge() {
        let t0 = Instant::now();
        let mut h = OobHandler::new(OobLimits::default(), &[1; 32], t0);
        let from: SocketAddr = "192.0.2.5:5000".parse().expect("addr");
        let p = published();
        let c = h.handle(t0, from, &ask(&[a2s::PLAYER, 0xFF, 0xFF, 0xFF, 0xFF]), &p).expect("challenge");
        assert_eq!(c.len(), 9, "no larger than the request");
        assert_eq!(c[4], a2s::CHALLENGE);
        let mut again = vec![a2s::PLAYER];
        again.extend_from_slice(&c[5..9]);
        let list = h.handle(t0 + Duration::from_secs(1), from, &ask(&again), &p).expect("players");
        assert_eq!(list[4], 0x44);
        let other: SocketAddr = "192.0.2.6:5000".parse().expect("addr");
        let refused = h.handle(t0, other, &ask(&again), &p).expect("a challenge instead");
        assert_eq!(refused.len(), 9, "someone else's challenge buys nothing");
    }

    #[test]
    fn bad_datagrams_are_counted_by_kind_and_never_answered() {
        let t0 = Instant::now();
        let mut h = OobHandler::new(OobLimits::default(), &[1; 32], t0);
        let from: SocketAddr = "192.0.2.5:5000".parse().expect("addr");
        let p = published();
        for d in [ask(b""), ask(b"getinfo \\"), ask(&[0xC3, 0x28]), ask(&[a2s::PLAYER, 1]), ask(&vec![b'g'; 2000]), ask(b"heartbeat x")] {
            assert!(h.handle(t0, from, &d, &p).is_none(), "{d:?}");
        }
        let zero: SocketAddr = "192.0.2.5:0".parse().expect("addr");
        assert!(h.handle(t0, zero, &ask(b"getinfo"), &p).is_none());
        let s = h.stats();
        assert_eq!((s.malformed, s.oversized, s.unknown, s.refused, s.answered), (4, 1, 1, 1, 0));
    }
}
