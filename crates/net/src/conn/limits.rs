//! Rate limits on what a client sends: a token bucket per reliable message
//! kind and one for datagrams. A message over its limit is dropped and
//! counted; a client that keeps flooding is disconnected.

use std::fmt;
use std::time::Instant;

use crate::reliable::ClientMessage;

/// One token bucket's setting: `per_second` tokens flow in, up to `burst`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MessageLimit {
    /// Sustained messages per second.
    pub per_second: f32,
    /// Messages allowed at once after a quiet spell.
    pub burst: u32,
}

impl MessageLimit {
    /// A limit of `per_second` with a burst of `burst`.
    pub const fn new(per_second: f32, burst: u32) -> Self {
        Self { per_second, burst }
    }
}

/// The rate limits of one client connection.
///
/// The defaults are far above what a person types or a client sends (the
/// game's own chat flood control is stricter and still answers), and far
/// below what costs the server anything.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MessageLimits {
    /// `say` and `say_team`.
    pub chat: MessageLimit,
    /// Client commands (`team`, `kill`, …).
    pub command: MessageLimit,
    /// Userinfo changes (renames, rate).
    pub userinfo: MessageLimit,
    /// "Map loaded" notices.
    pub map_loaded: MessageLimit,
    /// Map requests. The server has its own, stricter quota that it
    /// answers with a refusal and the wait; this one drops silently what
    /// is beyond any honest client, so a flood costs it no answers.
    pub map_request: MessageLimit,
    /// Command datagrams (a client sends one per frame, up to its frame rate).
    pub datagrams: MessageLimit,
    /// Messages dropped by the limits within one second that disconnect the
    /// client as flooding (0 = never).
    pub flood_disconnect: u32,
}

impl Default for MessageLimits {
    fn default() -> Self {
        Self {
            chat: MessageLimit::new(4.0, 12),
            command: MessageLimit::new(5.0, 15),
            userinfo: MessageLimit::new(1.0, 5),
            map_loaded: MessageLimit::new(1.0, 4),
            map_request: MessageLimit::new(1.0, 8),
            datagrams: MessageLimit::new(500.0, 250),
            flood_disconnect: 200,
        }
    }
}

/// A message kind with a limit of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Chat,
    Command,
    UserInfo,
    MapLoaded,
    MapRequest,
    Datagram,
}

impl Kind {
    /// The kind of a reliable message; `None` for ones never limited (quit).
    pub(crate) fn of(msg: &ClientMessage) -> Option<Kind> {
        match msg {
            ClientMessage::Chat { .. } => Some(Kind::Chat),
            ClientMessage::Command(_) => Some(Kind::Command),
            ClientMessage::UserInfo(_) => Some(Kind::UserInfo),
            ClientMessage::MapLoaded(_) => Some(Kind::MapLoaded),
            ClientMessage::MapRequest { .. } => Some(Kind::MapRequest),
            ClientMessage::Quit => None,
        }
    }
}

/// Messages and datagrams dropped by the rate limits, in total, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitedCounts {
    /// Chat messages.
    pub chat: u64,
    /// Client commands.
    pub command: u64,
    /// Userinfo changes.
    pub userinfo: u64,
    /// Map-loaded notices.
    pub map_loaded: u64,
    /// Map requests.
    pub map_request: u64,
    /// Command datagrams.
    pub datagrams: u64,
}

impl LimitedCounts {
    /// All dropped, every kind together.
    pub fn total(&self) -> u64 {
        self.chat + self.command + self.userinfo + self.map_loaded + self.map_request + self.datagrams
    }

    fn bump(&mut self, kind: Kind) {
        let n = match kind {
            Kind::Chat => &mut self.chat,
            Kind::Command => &mut self.command,
            Kind::UserInfo => &mut self.userinfo,
            Kind::MapLoaded => &mut self.map_loaded,
            Kind::MapRequest => &mut self.map_request,
            Kind::Datagram => &mut self.datagrams,
        };
        *n = n.saturating_add(1);
    }
}

impl fmt::Display for LimitedCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "chat {} cmd {} info {} map {} mapreq {} dgram {}",
            self.chat, self.command, self.userinfo, self.map_loaded, self.map_request, self.datagrams
        )
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    limit: MessageLimit,
    tokens: f32,
    last: Instant,
}

impl Bucket {
    fn new(limit: MessageLimit, now: Instant) -> Self {
        Self { limit, tokens: limit.burst.max(1) as f32, last: now }
    }

    fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f32();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + dt * self.limit.per_second.max(0.0)).min(self.limit.burst.max(1) as f32);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The buckets of one connection and what they dropped.
#[derive(Debug, Clone)]
pub(crate) struct Limiter {
    chat: Bucket,
    command: Bucket,
    userinfo: Bucket,
    map_loaded: Bucket,
    map_request: Bucket,
    datagrams: Bucket,
    flood_disconnect: u32,
    dropped: LimitedCounts,
    dropped_this_second: u64,
}

impl Limiter {
    pub(crate) fn new(limits: &MessageLimits, now: Instant) -> Self {
        Self {
            chat: Bucket::new(limits.chat, now),
            command: Bucket::new(limits.command, now),
            userinfo: Bucket::new(limits.userinfo, now),
            map_loaded: Bucket::new(limits.map_loaded, now),
            map_request: Bucket::new(limits.map_request, now),
            datagrams: Bucket::new(limits.datagrams, now),
            flood_disconnect: limits.flood_disconnect,
            dropped: LimitedCounts::default(),
            dropped_this_second: 0,
        }
    }

    /// Whether one message of `kind` may go through now; if not it is counted.
    pub(crate) fn allow(&mut self, kind: Kind, now: Instant) -> bool {
        let bucket = match kind {
            Kind::Chat => &mut self.chat,
            Kind::Command => &mut self.command,
            Kind::UserInfo => &mut self.userinfo,
            Kind::MapLoaded => &mut self.map_loaded,
            Kind::MapRequest => &mut self.map_request,
            Kind::Datagram => &mut self.datagrams,
        };
        if bucket.take(now) {
            return true;
        }
        self.dropped.bump(kind);
        self.dropped_this_second += 1;
        false
    }

    /// Whether the drops this second reached the flood limit.
    pub(crate) fn flooding(&self) -> Option<u64> {
        (self.flood_disconnect > 0 && self.dropped_this_second >= u64::from(self.flood_disconnect)).then_some(self.dropped_this_second)
    }

    /// Starts a new second for the flood count.
    pub(crate) fn roll(&mut self) {
        self.dropped_this_second = 0;
    }

    /// What was dropped so far.
    pub(crate) fn dropped(&self) -> LimitedCounts {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn bucket_allows_the_burst_then_the_rate() {
        let t0 = Instant::now();
        let limits = MessageLimits { command: MessageLimit::new(5.0, 10), ..MessageLimits::default() };
        let mut l = Limiter::new(&limits, t0);
        let burst = (0..100).filter(|_| l.allow(Kind::Command, t0)).count();
        assert_eq!(burst, 10);
        // Ten seconds at 1,000 attempts a second: 50 more get through.
        let mut passed = 0;
        for ms in 1..=10_000u64 {
            if l.allow(Kind::Command, t0 + Duration::from_millis(ms)) {
                passed += 1;
            }
        }
        assert!((49..=51).contains(&passed), "{passed}");
        assert_eq!(l.dropped().command, 100 - 10 + 10_000 - passed as u64);
        assert_eq!(l.dropped().chat, 0, "kinds have their own buckets");
    }

    #[test]
    fn flooding_is_per_second() {
        let t0 = Instant::now();
        let limits = MessageLimits { flood_disconnect: 20, ..MessageLimits::default() };
        let mut l = Limiter::new(&limits, t0);
        for _ in 0..(4 + 19) {
            l.allow(Kind::UserInfo, t0);
        }
        assert_eq!(l.flooding(), None);
        l.roll();
        for _ in 0..25 {
            l.allow(Kind::UserInfo, t0);
        }
        assert_eq!(l.flooding(), Some(25));
    }
}
