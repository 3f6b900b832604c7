//! The server query: who is playing what, without taking a slot. The tick
//! publishes a [`QueryInfo`] now and then; a query connection (ALPN
//! [`super::QUERY_ALPN`]) gets the latest one on a stream and is closed.
//! QUIC validates the address before anything larger than the client's
//! own packets goes back (and `validate_addresses` makes every peer prove
//! it first), so a spoofed query cannot turn the server into an amplifier;
//! each address may ask a few times a second at most.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

use crate::codec::{DecodeError, Reader, Writer};

/// Queries an address may make at once.
pub const QUERY_BURST: f64 = 5.0;
/// Queries per second an address earns back.
pub const QUERY_RATE: f64 = 2.0;
/// Addresses remembered by the rate limit at most.
const MAX_ADDRESSES: usize = 4096;
/// The longest text field.
const MAX_TEXT: usize = 256;

/// One player in a query answer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueryPlayer {
    /// Name.
    pub name: String,
    /// Score (frags).
    pub score: i32,
    /// Round-trip time in ms (0 for a bot).
    pub ping_ms: u32,
    /// Whether a bot plays it.
    pub bot: bool,
    /// Team name (`free`, `red`, `blue`, `spectator`).
    pub team: String,
}

/// What a query answers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueryInfo {
    /// Server name.
    pub hostname: String,
    /// Build.
    pub version: String,
    /// Map name.
    pub map: String,
    /// Game type.
    pub gametype: String,
    /// Match phase (`warmup`, `live`, `intermission`...).
    pub phase: String,
    /// Limits that apply: name and value (`fraglimit 20`, `timelimit 10`).
    pub limits: Vec<(String, String)>,
    /// Client slots.
    pub max_players: u32,
    /// Whether a password is needed to join.
    pub password: bool,
    /// Who is on, bots marked.
    pub players: Vec<QueryPlayer>,
}

impl QueryInfo {
    /// The answer's body.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        for s in [&self.hostname, &self.version, &self.map, &self.gametype, &self.phase] {
            w.str_max(s, MAX_TEXT);
        }
        let limits = &self.limits[..self.limits.len().min(32)];
        w.varint(limits.len() as u64);
        for (k, v) in limits {
            w.str_max(k, MAX_TEXT);
            w.str_max(v, MAX_TEXT);
        }
        w.varint(u64::from(self.max_players));
        w.u8(u8::from(self.password));
        let players = &self.players[..self.players.len().min(super::wire::MAX_QUERY_PLAYERS)];
        w.varint(players.len() as u64);
        for p in players {
            w.str_max(&p.name, MAX_TEXT);
            w.svarint(i64::from(p.score));
            w.varint(u64::from(p.ping_ms));
            w.u8(u8::from(p.bot));
            w.str_max(&p.team, MAX_TEXT);
        }
        w.into_inner()
    }

    /// A body back (every length checked).
    pub fn decode(body: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(body);
        let text = |r: &mut Reader<'_>, what| r.str(MAX_TEXT, what);
        let (hostname, version, map, gametype, phase) = (text(&mut r, "hostname")?, text(&mut r, "version")?, text(&mut r, "map")?, text(&mut r, "gametype")?, text(&mut r, "phase")?);
        let n = r.count(32, "limits")?;
        let mut limits = Vec::with_capacity(n);
        for _ in 0..n {
            limits.push((text(&mut r, "limit")?, text(&mut r, "limit value")?));
        }
        let max_players = r.varint_u32()?;
        let password = r.u8()? != 0;
        let n = r.count(super::wire::MAX_QUERY_PLAYERS, "players")?;
        let mut players = Vec::with_capacity(n);
        for _ in 0..n {
            players.push(QueryPlayer { name: text(&mut r, "name")?, score: r.svarint_i32()?, ping_ms: r.varint_u32()?, bot: r.u8()? != 0, team: text(&mut r, "team")? });
        }
        r.finish()?;
        Ok(Self { hostname, version, map, gametype, phase, limits, max_players, password, players })
    }
}

/// A token bucket per address.
#[derive(Debug, Default)]
pub(crate) struct QueryLimit {
    buckets: HashMap<IpAddr, (f64, Instant)>,
}

impl QueryLimit {
    /// Whether `ip` may ask now (and spends a token if so).
    pub(crate) fn allow(&mut self, ip: IpAddr, now: Instant) -> bool {
        if self.buckets.len() >= MAX_ADDRESSES && !self.buckets.contains_key(&ip) {
            // Full buckets carry nothing: forget those first, then the oldest.
            self.buckets.retain(|_, (tokens, at)| *tokens + now.saturating_duration_since(*at).as_secs_f64() * QUERY_RATE < QUERY_BURST);
            while self.buckets.len() >= MAX_ADDRESSES {
                let Some(oldest) = self.buckets.iter().min_by_key(|(ip, (_, at))| (*at, **ip)).map(|(ip, _)| *ip) else { break };
                self.buckets.remove(&oldest);
            }
        }
        let (tokens, at) = self.buckets.entry(ip).or_insert((QUERY_BURST, now));
        *tokens = (*tokens + now.saturating_duration_since(*at).as_secs_f64() * QUERY_RATE).min(QUERY_BURST);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn answers_round_trip() {
        let info = QueryInfo {
            hostname: "Quarry".into(),
            version: "quarry-server 0.1".into(),
            map: "q_dm1".into(),
            gametype: "tdm".into(),
            phase: "live".into(),
            limits: vec![("fraglimit".into(), "20".into())],
            max_players: 16,
            password: true,
            players: vec![QueryPlayer { name: "Wren".into(), score: -2, ping_ms: 0, bot: true, team: "red".into() }],
        };
        assert_eq!(QueryInfo::decode(&info.encode()), Ok(info));
        assert!(QueryInfo::decode(&[1, 2, 3]).is_err());
    }

    #[test]
    fn an_address_gets_a_burst_then_a_few_a_second() {
        let mut l = QueryLimit::default();
        let ip: IpAddr = "198.51.100.7".parse().expect("ip");
        let t0 = Instant::now();
        let burst = (0..20).filter(|_| l.allow(ip, t0)).count();
        assert_eq!(burst, QUERY_BURST as usize);
        assert!(l.allow(ip, t0 + Duration::from_millis(600)), "earned back");
        assert!(l.allow("198.51.100.8".parse().expect("ip"), t0), "another address has its own");
        for i in 0..(MAX_ADDRESSES as u32 + 100) {
            l.allow(IpAddr::from(i.to_be_bytes()), t0);
        }
        assert!(l.buckets.len() <= MAX_ADDRESSES);
    }
}
