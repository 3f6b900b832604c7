//! One ban's parts as the bans file and the `ban` command spell them: an
//! address or CIDR range (`10.0.0.0/8`, `2001:db8::/32`), an expiry
//! (`until=2026-12-08T10:00:00Z`) and a duration (`30m`, `2h`, `7d`).
//!
//! Ranges are parsed here rather than with a crate (none is in the tree);
//! an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is the IPv4 address, in a
//! range and in a connecting peer alike, so a dual-stack socket's peers
//! match IPv4 bans.

use std::fmt;
use std::net::IpAddr;

/// The longest ban a duration may ask for (ten years, in seconds): longer
/// is a typo, and a permanent ban is written without a duration.
pub(crate) const MAX_DURATION_SECS: u64 = 10 * 365 * 86_400;

/// An address range: the network's address (host bits cleared) and its
/// prefix length. A single address is a full-length range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BanRange {
    net: IpAddr,
    len: u8,
}

/// Why a range or duration was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BanParseError {
    /// Not an address (before any `/`).
    #[error("'{0}' is not an IP address (expected e.g. 10.1.2.3, 10.0.0.0/8 or 2001:db8::/32)")]
    Address(String),
    /// The prefix length is not a number within the family's bits.
    #[error("'{0}' is not a prefix length (0-32 for IPv4, 0-128 for IPv6)")]
    Prefix(String),
    /// Not a duration.
    #[error("'{0}' is not a duration (a number then s, m, h, d or w, e.g. 30m, 2h, 7d; at most 10 years)")]
    Duration(String),
    /// Not an RFC 3339 UTC time.
    #[error("'{0}' is not a UTC time (expected until=YYYY-MM-DDTHH:MM:SSZ)")]
    Expiry(String),
}

impl BanRange {
    /// Parses `ADDRESS` or `ADDRESS/LEN`; host bits past the prefix are
    /// cleared (`10.1.2.3/8` is `10.0.0.0/8`).
    pub fn parse(text: &str) -> Result<Self, BanParseError> {
        let (addr, len) = match text.split_once('/') {
            Some((a, l)) => (a, Some(l)),
            None => (text, None),
        };
        let ip: IpAddr = addr.parse().map_err(|_| BanParseError::Address(clip(addr)))?;
        let bits = if ip.is_ipv4() { 32 } else { 128 };
        let len = match len {
            None => bits,
            Some(l) => l.parse::<u8>().ok().filter(|n| *n <= bits).ok_or_else(|| BanParseError::Prefix(clip(l)))?,
        };
        Ok(Self::new(ip, len))
    }

    /// The range of `len` bits at `ip` (clamped to the family's bits); an
    /// IPv4-mapped IPv6 range of at least 96 bits is the IPv4 range.
    pub fn new(ip: IpAddr, len: u8) -> Self {
        let (ip, len) = match ip {
            IpAddr::V6(v6) if len >= 96 => match v6.to_ipv4_mapped() {
                Some(v4) => (IpAddr::V4(v4), len - 96),
                None => (ip, len),
            },
            _ => (ip, len),
        };
        let len = len.min(if ip.is_ipv4() { 32 } else { 128 });
        Self { net: mask(ip, len), len }
    }

    /// The prefix length in bits.
    pub fn prefix_len(&self) -> u8 {
        self.len
    }

    /// Whether `ip` (an IPv4-mapped address as IPv4) is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        ip.is_ipv4() == self.net.is_ipv4() && mask(ip, self.len) == self.net
    }
}

impl fmt::Display for BanRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let full = if self.net.is_ipv4() { 32 } else { 128 };
        if self.len == full { write!(f, "{}", self.net) } else { write!(f, "{}/{}", self.net, self.len) }
    }
}

/// `ip` with every bit past the first `len` cleared.
fn mask(ip: IpAddr, len: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let keep = if len == 0 { 0 } else { u32::MAX << (32 - u32::from(len.min(32))) };
            IpAddr::V4((u32::from(v4) & keep).into())
        }
        IpAddr::V6(v6) => {
            let keep = if len == 0 { 0 } else { u128::MAX << (128 - u32::from(len.min(128))) };
            IpAddr::V6((u128::from(v6) & keep).into())
        }
    }
}

/// Parses a duration (`90s`, `30m`, `2h`, `7d`, `1w`) into seconds.
pub fn parse_duration(text: &str) -> Result<u64, BanParseError> {
    let bad = || BanParseError::Duration(clip(text));
    let unit = text.chars().last().ok_or_else(bad)?;
    let scale: u64 = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        'w' => 7 * 86_400,
        _ => return Err(bad()),
    };
    let digits = &text[..text.len() - unit.len_utf8()];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u64 = digits.parse().map_err(|_| bad())?;
    n.checked_mul(scale).filter(|s| (1..=MAX_DURATION_SECS).contains(s)).ok_or_else(bad)
}

/// Parses the file's `until=TIME` word into seconds since the epoch.
pub(crate) fn parse_until(word: &str) -> Result<u64, BanParseError> {
    let time = word.strip_prefix("until=").unwrap_or(word);
    crate::utc::parse_rfc3339_utc(time).map(|ms| ms / 1000).ok_or_else(|| BanParseError::Expiry(clip(time)))
}

/// Outside text as an error repeats it: at most 64 characters, no controls.
fn clip(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("ip")
    }

    #[test]
    fn ranges_match_their_addresses_and_no_others() {
        let r = BanRange::parse("10.1.2.3/8").expect("range");
        assert_eq!(r.to_string(), "10.0.0.0/8");
        assert!(r.contains(ip("10.200.0.1")));
        assert!(!r.contains(ip("11.0.0.1")));
        assert!(r.contains(ip("::ffff:10.9.9.9")), "an IPv4-mapped peer is its IPv4 address");
        assert!(!r.contains(ip("::a00:1")), "an IPv6 address is not in an IPv4 range");
        let one = BanRange::parse("192.0.2.7").expect("one");
        assert_eq!(one.to_string(), "192.0.2.7");
        assert!(one.contains(ip("192.0.2.7")) && !one.contains(ip("192.0.2.8")));
        let v6 = BanRange::parse("2001:db8::/32").expect("v6");
        assert!(v6.contains(ip("2001:db8:1::5")) && !v6.contains(ip("2001:db9::1")));
        assert_eq!(BanRange::parse("::ffff:10.0.0.0/104").expect("mapped"), BanRange::parse("10.0.0.0/8").expect("v4"));
        assert!(BanRange::parse("0.0.0.0/0").expect("all").contains(ip("8.8.8.8")));
    }

    #[test]
    fn bad_ranges_say_what_is_allowed() {
        assert!(matches!(BanRange::parse("10.0.0.0/33"), Err(BanParseError::Prefix(_))));
        assert!(matches!(BanRange::parse("10.0.0.0/"), Err(BanParseError::Prefix(_))));
        assert!(matches!(BanRange::parse("::/129"), Err(BanParseError::Prefix(_))));
        assert!(matches!(BanRange::parse("host.example"), Err(BanParseError::Address(_))));
        assert!(matches!(BanRange::parse(""), Err(BanParseError::Address(_))));
    }

    #[test]
    fn durations_have_a_unit_and_a_ceiling() {
        assert_eq!(parse_duration("30m"), Ok(1800));
        assert_eq!(parse_duration("2h"), Ok(7200));
        assert_eq!(parse_duration("7d"), Ok(604_800));
        assert_eq!(parse_duration("1w"), Ok(604_800));
        for bad in ["", "m", "5", "0m", "-5m", "+5m", "5x", "99999999999999999999d", "11000d", "5é"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn expiry_reads_what_the_file_writes() {
        assert_eq!(parse_until("until=2026-12-02T02:01:03Z"), Ok(1_796_176_863));
        assert!(parse_until("until=tomorrow").is_err());
    }
}
