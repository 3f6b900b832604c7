//! The ban list: addresses and address ranges refused at the handshake,
//! each with an optional expiry, kept in a file in the config directory and
//! rewritten atomically on every change.
//!
//! A line is `RANGE [until=TIME] [reason...]`: `RANGE` an address or a CIDR
//! range ([`range`]), `TIME` an RFC 3339 UTC time; a line of the older
//! `ADDRESS reason...` form is the same thing without an expiry. An expired
//! ban stops applying at once and is left out of the file the next time it
//! is written. A bad line is reported with its file and line number and
//! skipped; the rest of the file still applies.
//!
//! The file is read with [`quarry_console::read_text_file`]: a FIFO, a
//! device or a file over [`MAX_BANS_BYTES`] is refused unread. A ban list
//! that exists but can't be read is never overwritten (that would lose every
//! ban in it): bans and unbans then hold until the server stops.

mod range;

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

pub use range::{BanParseError, BanRange, parse_duration};

/// The largest ban list read: about 50 000 bans with short reasons.
pub(crate) const MAX_BANS_BYTES: u64 = 4 << 20;

/// One ban: why, and until when (seconds since the epoch; `None` = for good).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ban {
    /// The reason given (may be empty).
    pub reason: String,
    /// When it stops applying, in seconds since the epoch.
    pub until: Option<u64>,
}

impl Ban {
    /// Whether it still applies at `now` (seconds since the epoch).
    pub fn applies(&self, now: u64) -> bool {
        self.until.is_none_or(|u| now < u)
    }
}

/// A line of the bans file that was skipped.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {kind}; line skipped")]
pub struct BanLineError {
    /// The file.
    pub file: String,
    /// Its line number, from 1.
    pub line: usize,
    /// What was wrong.
    pub kind: BanParseError,
}

/// Banned ranges with the reason given and their expiry.
#[derive(Debug, Default)]
pub struct BanList {
    path: Option<PathBuf>,
    bans: BTreeMap<BanRange, Ban>,
    /// Why the file could not be read at load (then it is not overwritten).
    unreadable: Option<String>,
}

/// Now, in seconds since the epoch.
pub fn now_secs() -> u64 {
    crate::utc::now_ms() / 1000
}

impl BanList {
    /// Loads `path` (one ban a line, `//` comments); a missing file is an
    /// empty list; bad lines are reported and skipped; a file that can't be
    /// read is reported and left alone.
    pub fn load(path: &Path) -> (Self, Vec<String>) {
        let mut list = Self { path: Some(path.to_owned()), bans: BTreeMap::new(), unreadable: None };
        let mut warnings = Vec::new();
        let text = match quarry_console::read_text_file(path, MAX_BANS_BYTES) {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return (list, warnings),
            Err(e) => {
                warnings.push(format!("{e}; no bans from it apply, and ban/unban won't overwrite it (fix it and restart)"));
                list.unreadable = Some(e.to_string());
                return (list, warnings);
            }
        };
        for (i, line) in text.lines().enumerate() {
            match parse_line(line) {
                Ok(Some((range, ban))) => {
                    list.bans.insert(range, ban);
                }
                Ok(None) => {}
                Err(kind) => warnings.push(BanLineError { file: path.display().to_string(), line: i + 1, kind }.to_string()),
            }
        }
        (list, warnings)
    }

    /// The ban that refuses `ip` at `now` (seconds since the epoch), if any:
    /// the narrowest range holding it.
    pub fn find(&self, ip: IpAddr, now: u64) -> Option<(&BanRange, &Ban)> {
        self.bans.iter().filter(|(r, b)| b.applies(now) && r.contains(ip)).max_by_key(|(r, _)| r.prefix_len())
    }

    /// Whether `ip` is banned now, and why.
    pub fn reason(&self, ip: IpAddr) -> Option<&str> {
        self.find(ip, now_secs()).map(|(_, b)| b.reason.as_str())
    }

    /// Bans `range` (until `until`, seconds since the epoch, or for good)
    /// and saves the list.
    pub fn ban(&mut self, range: BanRange, reason: &str, until: Option<u64>) -> Result<(), String> {
        self.bans.insert(range, Ban { reason: reason.to_owned(), until });
        self.save(now_secs())
    }

    /// Lifts the ban on exactly `range` and saves the list; `false` if there
    /// was none.
    pub fn unban(&mut self, range: BanRange) -> Result<bool, String> {
        let had = self.bans.remove(&range).is_some();
        if had {
            self.save(now_secs())?;
        }
        Ok(had)
    }

    /// Every ban still applying at `now`, sorted by range.
    pub fn iter(&self, now: u64) -> impl Iterator<Item = (&BanRange, &Ban)> {
        self.bans.iter().filter(move |(_, b)| b.applies(now))
    }

    /// Writes the list as of `now`: expired bans are left out (and dropped).
    fn save(&mut self, now: u64) -> Result<(), String> {
        self.bans.retain(|_, b| b.applies(now));
        let Some(path) = &self.path else { return Ok(()) };
        if let Some(why) = &self.unreadable {
            return Err(format!("not saved, the ban list file was unreadable at start ({why}); the change holds until the server stops"));
        }
        let mut text = String::from("// Banned addresses: ADDRESS[/PREFIX] [until=UTC-TIME] reason (written by quarry-server; ban/unban edit it).\n");
        for (range, ban) in &self.bans {
            text.push_str(&format_line(range, ban));
            text.push('\n');
        }
        quarry_console::write_atomic(path, &text).map_err(|e| e.to_string())
    }
}

/// One line of the file: `None` for a blank or comment line.
fn parse_line(line: &str) -> Result<Option<(BanRange, Ban)>, BanParseError> {
    let line = line.split("//").next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (addr, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let range = BanRange::parse(addr)?;
    let rest = rest.trim_start();
    let (until, reason) = match rest.split_once(char::is_whitespace).unwrap_or((rest, "")) {
        (word, reason) if word.starts_with("until=") => (Some(range::parse_until(word)?), reason),
        _ => (None, rest),
    };
    Ok(Some((range, Ban { reason: reason.trim().to_owned(), until })))
}

/// The file's line for a ban (reasons are one line; `//` would start a comment).
fn format_line(range: &BanRange, ban: &Ban) -> String {
    let reason: String = ban.reason.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().replace("//", "/ /");
    match ban.until {
        Some(u) => format!("{range} until={} {reason}", crate::utc::rfc3339_utc(u.saturating_mul(1000)).replace(".000Z", "Z")).trim_end().to_owned(),
        None => format!("{range} {reason}").trim_end().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ban_persists_and_bad_lines_are_reported() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bans.txt");
        let (mut list, w) = BanList::load(&path);
        assert!(w.is_empty());
        let ip: IpAddr = "10.1.2.3".parse().expect("ip");
        list.ban(BanRange::parse("10.1.2.3").expect("range"), "cheating", None).expect("ban");
        std::fs::write(&path, format!("{}\nnot-an-ip x\n", std::fs::read_to_string(&path).expect("read"))).expect("w");
        let (again, w) = BanList::load(&path);
        assert_eq!(again.reason(ip), Some("cheating"));
        assert_eq!(w.len(), 1);
        assert!(w[0].contains(":4: 'not-an-ip' is not an IP address"), "{w:?}");
        let mut again = again;
        assert_eq!(again.unban(BanRange::parse("10.1.2.3").expect("range")), Ok(true));
        assert_eq!(BanList::load(&path).0.reason(ip), None);
    }

    fn refused(path: &Path, what: &str) {
        let (mut list, w) = BanList::load(path);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains(what) && w[0].contains("won't overwrite it"), "{w:?}");
        let e = list.ban(BanRange::parse("10.0.0.1").expect("range"), "x", None).expect_err("not saved over an unreadable file");
        assert!(e.contains("not saved"), "{e}");
        assert_eq!(list.reason("10.0.0.1".parse().expect("ip")), Some("x"), "the ban still holds in memory");
    }

    #[test]
    fn special_and_huge_ban_lists_are_refused_and_never_overwritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("bans.txt")).expect("mkdir");
        refused(&dir.path().join("bans.txt"), "a directory");
        let big = dir.path().join("big.txt");
        std::fs::write(&big, "// padding\n".repeat((MAX_BANS_BYTES / 11 + 1) as usize)).expect("write");
        refused(&big, "larger than");
        assert!(std::fs::metadata(&big).expect("big").len() > MAX_BANS_BYTES, "left as it was");
        #[cfg(unix)]
        {
            let zero = dir.path().join("zero.txt");
            std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
            refused(&zero, "a character device");
            let fifo = dir.path().join("fifo.txt");
            if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
                refused(&fifo, "a FIFO");
            } else {
                eprintln!("mkfifo unavailable; FIFO case skipped");
            }
        }
    }

    #[test]
    fn old_lines_ranges_and_expiries_load_and_expired_ones_are_dropped_on_write() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bans.txt");
        std::fs::write(
            &path,
            "// an old file\n10.0.0.5 old style reason\n192.168.0.0/16 until=2000-01-01T00:00:00Z long gone\n2001:db8::/32 until=2999-01-01T00:00:00Z later\n10.0.0.0/33 bad prefix\n10.0.0.6 until=soon x\n",
        )
        .expect("write");
        let (mut list, w) = BanList::load(&path);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("bans.txt:5:") && w[0].contains("prefix length"), "{w:?}");
        assert!(w[1].contains("bans.txt:6:") && w[1].contains("UTC time"), "{w:?}");
        let now = now_secs();
        let ip = |s: &str| s.parse::<IpAddr>().expect("ip");
        assert_eq!(list.find(ip("10.0.0.5"), now).map(|(_, b)| b.reason.as_str()), Some("old style reason"));
        assert!(list.find(ip("192.168.1.1"), now).is_none(), "expired");
        assert!(list.find(ip("192.168.1.1"), 0).is_some(), "it applied before its time");
        assert!(list.find(ip("2001:db8:5::1"), now).is_some());
        list.ban(BanRange::parse("172.16.0.0/12").expect("range"), "for a day", Some(now + 86_400)).expect("ban");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(!text.contains("192.168.0.0/16"), "the expired ban left the file: {text}");
        assert!(text.contains("10.0.0.5 old style reason") && text.contains("2001:db8::/32 until=2999-01-01T00:00:00Z later"), "{text}");
        let (again, w) = BanList::load(&path);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(again.find(ip("172.20.1.1"), now).map(|(_, b)| b.until), Some(Some(now + 86_400)));
        assert!(again.find(ip("172.20.1.1"), now + 86_400).is_none(), "over at its time");
    }

    #[test]
    fn the_narrowest_range_answers_and_reasons_stay_one_line() {
        let mut list = BanList::default();
        list.ban(BanRange::parse("10.0.0.0/8").expect("r"), "wide", None).expect("ban");
        list.ban(BanRange::parse("10.1.0.0/16").expect("r"), "narrow // not a comment\nx", None).expect("ban");
        let (range, ban) = list.find("10.1.2.3".parse().expect("ip"), now_secs()).expect("banned");
        assert_eq!(range.to_string(), "10.1.0.0/16");
        let line = format_line(range, ban);
        assert!(!line.contains("//") && !line.contains('\n'), "{line}");
        assert_eq!(parse_line(&line).expect("parses").map(|(r, _)| r), Some(*range));
    }
}
