//! Who may see the web view. Without `sv_webPassword` (loopback only),
//! whoever reaches it; with it, HTTP Basic (any user name), the password
//! compared in constant time (ring's HMAC verification under a random key)
//! behind the same lockout by address as the join password and the admin
//! keys ([`quarry_net::lockout`]): after
//! [`FREE_TRIES`](quarry_net::lockout::FREE_TRIES) wrong passwords an
//! address waits, each further failure doubling the wait, and while it
//! waits every request from it is answered 429 with `Retry-After`, its
//! password not looked at. Each wrong password is logged (warn, with the
//! address: the lockout bounds how many lines one address makes), and so
//! is each lockout; [`WebRefusals`] counts them.
//!
//! An address is an IPv4 address or an IPv6 /64, as the game port counts
//! connections ([`quarry_net::transport::address_group`]): one IPv6 host is
//! routinely given a whole /64, and would otherwise get fresh tries from
//! each of its addresses.
//!
//! A request with no credentials at all is no guess (a browser's first
//! request carries none, to be told to ask): it gets the challenge, 401,
//! and is not counted. Clients behind one address (a NAT, a reverse proxy)
//! share its lockout.
//!
//! The check runs before every route ([`guard`], a middleware), so a route
//! added later is guarded too.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use quarry_net::lockout::Lockout;
use quarry_net::transport::address_group;
use tracing::warn;

use crate::http::ClientAddr;

/// What the web view has refused since the server started: for `status`
/// and `/metrics` ([`super::WebView::refusals`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WebRefusals {
    /// Requests with a wrong password (each one logged).
    pub wrong_passwords: u64,
    /// Lockouts begun (an address that failed too often made to wait).
    pub lockouts: u64,
    /// Requests refused, unheard, because their address was locked out.
    pub locked_out: u64,
    /// Streams of frames refused because [`super::MAX_STREAMS`] were open.
    pub streams_full: u64,
}

/// The counts behind [`WebRefusals`], shared by the HTTP thread and the
/// view across restarts of its server.
#[derive(Debug, Default)]
pub(super) struct Counters {
    wrong_passwords: AtomicU64,
    lockouts: AtomicU64,
    locked_out: AtomicU64,
    streams_full: AtomicU64,
}

impl Counters {
    /// The counts now.
    pub(super) fn read(&self) -> WebRefusals {
        WebRefusals {
            wrong_passwords: self.wrong_passwords.load(Ordering::Relaxed),
            lockouts: self.lockouts.load(Ordering::Relaxed),
            locked_out: self.locked_out.load(Ordering::Relaxed),
            streams_full: self.streams_full.load(Ordering::Relaxed),
        }
    }

    /// Counts a stream refused because the streams are all taken.
    pub(super) fn stream_refused(&self) {
        self.streams_full.fetch_add(1, Ordering::Relaxed);
    }
}

/// What the check says of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Served.
    Pass,
    /// No credentials: told to ask for them (401), not counted.
    Challenge,
    /// A wrong password (401, counted, logged).
    Wrong,
    /// The address is locked out for this long still (429).
    Wait(Duration),
}

/// The web view's password check, with its lockout.
pub(super) struct Gate {
    /// The password as an HMAC under a random key (`None`: none asked).
    password: Option<(ring::hmac::Key, ring::hmac::Tag)>,
    lockout: Arc<Mutex<Lockout>>,
    counters: Arc<Counters>,
}

impl Gate {
    /// The check of `password` (empty: none; every request passes), failures
    /// kept in `lockout` and counted in `counters`. `None` when there is no
    /// randomness for the key.
    pub(super) fn new(password: &str, lockout: Arc<Mutex<Lockout>>, counters: Arc<Counters>) -> Option<Self> {
        let password = if password.is_empty() {
            None
        } else {
            let key = ring::hmac::Key::generate(ring::hmac::HMAC_SHA256, &ring::rand::SystemRandom::new()).ok()?;
            let tag = ring::hmac::sign(&key, password.as_bytes());
            Some((key, tag))
        };
        Some(Self { password, lockout, counters })
    }

    fn lockout(&self) -> MutexGuard<'_, Lockout> {
        // A panic while it was held leaves a table that is still whole.
        self.lockout.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Checks a request from `ip` carrying `headers`, at `now`.
    fn check(&self, ip: IpAddr, headers: &HeaderMap, now: Instant) -> Verdict {
        let Some((key, tag)) = &self.password else { return Verdict::Pass };
        // Held through the comparison, so requests sent at once from one
        // address are judged one after another: no more than the free
        // tries get past before the lockout.
        let group = address_group(ip);
        let mut lockout = self.lockout();
        if let Some(wait) = lockout.wait(group, now) {
            lockout.note_refused();
            self.counters.locked_out.fetch_add(1, Ordering::Relaxed);
            return Verdict::Wait(wait);
        }
        let Some(given) = credentials(headers) else { return Verdict::Challenge };
        if ring::hmac::verify(key, given.as_bytes(), tag.as_ref()).is_ok() {
            lockout.succeed(group);
            return Verdict::Pass;
        }
        let wait = lockout.fail(group, now);
        drop(lockout);
        self.counters.wrong_passwords.fetch_add(1, Ordering::Relaxed);
        warn!(%ip, "web view: wrong password from {ip}");
        if let Some(wait) = wait {
            self.counters.lockouts.fetch_add(1, Ordering::Relaxed);
            warn!(%ip, "web view: {group} locked out for {} s after repeated wrong passwords", seconds(wait));
        }
        Verdict::Wrong
    }
}

/// A wait in whole seconds, rounded up (what `Retry-After` says).
fn seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// The password an `Authorization` header gives (HTTP Basic, any user
/// name); `None` when the request has no such header. A header that is
/// not Basic, or not well formed, gives a password no one has.
fn credentials(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?;
    let password = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b| base64_decode(b.trim()))
        .and_then(|raw| String::from_utf8(raw).ok())
        .and_then(|pair| pair.split_once(':').map(|(_, p)| p.to_owned()));
    // An empty guess is still a guess; it can never match (an empty
    // password means none is asked).
    Some(password.unwrap_or_default())
}

/// Standard base64 (what browsers send for Basic credentials).
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let bytes = text.trim_end_matches('=').as_bytes();
    if bytes.len() > 1024 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut acc = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            acc |= value(*c)? << (18 - 6 * i);
        }
        let n = match chunk.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        out.extend_from_slice(&acc.to_be_bytes()[1..1 + n]);
    }
    Some(out)
}

/// 401 with the challenge a browser answers by asking for the password.
fn unauthorised() -> Response {
    (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Basic realm=\"quarry web view\"")], "the web view needs its password (sv_webPassword)\n").into_response()
}

/// 429 for a locked-out address, with how long it must wait.
fn locked_out(wait: Duration) -> Response {
    let secs = seconds(wait);
    (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, secs.to_string())], format!("too many wrong passwords from this address: try again in {secs} s\n")).into_response()
}

/// The middleware every route of the view runs behind: passes a request
/// the [`Gate`] lets through, answers the others itself.
pub(super) async fn guard(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    // The listener gives every connection's address; were it missing, all
    // such requests would share one lockout rather than escape it.
    let ip = request.extensions().get::<ConnectInfo<ClientAddr>>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.0.ip().to_canonical());
    match gate.check(ip, request.headers(), Instant::now()) {
        Verdict::Pass => next.run(request).await,
        Verdict::Challenge | Verdict::Wrong => unauthorised(),
        Verdict::Wait(wait) => locked_out(wait),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basic(text: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, text.parse().expect("header"));
        h
    }

    fn gate(password: &str) -> Gate {
        Gate::new(password, Arc::default(), Arc::default()).expect("randomness")
    }

    // "user:secret", "user:secreu"
    const RIGHT: &str = "Basic dXNlcjpzZWNyZXQ=";
    const WRONG: &str = "Basic dXNlcjpzZWNyZXU=";

    #[test]
    fn basic_credentials_decode() {
        assert_eq!(base64_decode("dXNlcjpzZWNyZXQ=").as_deref(), Some(&b"user:secret"[..]));
        assert_eq!(base64_decode("YQ").as_deref(), Some(&b"a"[..]));
        assert!(base64_decode("a!b=").is_none());
        assert!(base64_decode("a").is_none());
    }

    #[test]
    fn the_password_is_checked() {
        let g = gate("secret");
        let ip: IpAddr = "203.0.113.7".parse().expect("ip");
        let now = Instant::now();
        assert_eq!(g.check(ip, &HeaderMap::new(), now), Verdict::Challenge);
        assert_eq!(g.check(ip, &basic(RIGHT), now), Verdict::Pass);
        assert_eq!(g.check(ip, &basic(WRONG), now), Verdict::Wrong);
        assert_eq!(g.check(ip, &basic("Bearer x"), now), Verdict::Wrong, "another scheme is a wrong password");
        let open = gate("");
        assert_eq!(open.check(ip, &HeaderMap::new(), now), Verdict::Pass);
        assert_eq!(open.check(ip, &basic(WRONG), now), Verdict::Pass, "no password asked");
    }

    #[test]
    fn guessing_is_locked_out_by_address_and_counted() {
        use quarry_net::lockout::{FIRST_WAIT, FREE_TRIES};
        let g = gate("secret");
        let ip: IpAddr = "203.0.113.7".parse().expect("ip");
        let other: IpAddr = "198.51.100.1".parse().expect("ip");
        let t0 = Instant::now();
        for _ in 0..FREE_TRIES {
            assert_eq!(g.check(ip, &basic(WRONG), t0), Verdict::Wrong);
        }
        // Locked out: even the right password, or none, is refused unheard.
        assert_eq!(g.check(ip, &basic(RIGHT), t0), Verdict::Wait(FIRST_WAIT));
        assert_eq!(g.check(ip, &HeaderMap::new(), t0), Verdict::Wait(FIRST_WAIT));
        assert_eq!(g.check(other, &basic(RIGHT), t0), Verdict::Pass, "another address is not locked out");
        let v6 = |s: &str| s.parse::<IpAddr>().expect("ip");
        for _ in 0..FREE_TRIES {
            assert_eq!(g.check(v6("2001:db8:1:2::1"), &basic(WRONG), t0), Verdict::Wrong);
        }
        assert_eq!(g.check(v6("2001:db8:1:2::ffff"), &basic(RIGHT), t0), Verdict::Wait(FIRST_WAIT), "an IPv6 /64 is one address");
        assert_eq!(g.check(v6("2001:db8:1:3::1"), &basic(RIGHT), t0), Verdict::Pass, "another /64");
        let counts = g.counters.read();
        assert_eq!((counts.wrong_passwords, counts.lockouts, counts.locked_out), (u64::from(2 * FREE_TRIES), 2, 3), "{counts:?}");
        // After the wait the right password is heard, and clears the record.
        let later = t0 + FIRST_WAIT;
        assert_eq!(g.check(ip, &basic(RIGHT), later), Verdict::Pass);
        assert_eq!(g.check(ip, &basic(WRONG), later), Verdict::Wrong, "a free try again");
        assert_eq!(seconds(Duration::from_millis(1500)), 2);
    }
}
