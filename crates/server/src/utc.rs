//! Wall-clock time as the server's files write it: milliseconds since the
//! epoch, and RFC 3339 UTC text.

/// Milliseconds since the epoch, now (0 on a clock before the epoch).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `2026-12-02T02:01:03.123Z` for a time in milliseconds since the epoch.
pub fn rfc3339_utc(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX);
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z", rem / 3600, rem / 60 % 60, rem % 60, unix_ms % 1000)
}

/// Reads `2026-12-02T02:01:03Z` or `2026-12-02T02:01:03.123Z` (what
/// [`rfc3339_utc`] writes; UTC only) into milliseconds since the epoch;
/// `None` for anything else or a time before 1970.
pub fn parse_rfc3339_utc(text: &str) -> Option<u64> {
    let body = text.strip_suffix('Z')?;
    let (date, time) = body.split_once('T')?;
    let (time, frac) = match time.split_once('.') {
        Some((t, f)) if f.len() == 3 && f.bytes().all(|b| b.is_ascii_digit()) => (t, f.parse::<u64>().ok()?),
        Some(_) => return None,
        None => (time, 0),
    };
    let num = |s: &str, len: usize| if s.len() == len && s.bytes().all(|b| b.is_ascii_digit()) { s.parse::<u32>().ok() } else { None };
    let mut d = date.split('-');
    let (y, m, day) = (num(d.next()?, 4)?, num(d.next()?, 2)?, num(d.next()?, 2)?);
    let mut t = time.split(':');
    let (h, min, s) = (num(t.next()?, 2)?, num(t.next()?, 2)?, num(t.next()?, 2)?);
    if d.next().is_some() || t.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) || h > 23 || min > 59 || s > 59 {
        return None;
    }
    let days = days_from_civil(i64::from(y), m, day);
    let secs = u64::try_from(days.checked_mul(86_400)?).ok()? + u64::from(h * 3600 + min * 60 + s);
    secs.checked_mul(1000)?.checked_add(frac)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from(if m > 2 { m - 3 } else { m + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `20261203-114500-q_dm1-tdm`: a file name's stem from a time (UTC) and
/// the map and game type, with anything but letters, digits, `-` and `_`
/// made `_` (a map's name may be a path).
pub fn file_stem(unix_ms: u64, map: &str, gametype: &str) -> String {
    let stamp: String = rfc3339_utc(unix_ms).chars().filter(char::is_ascii_digit).take(14).collect();
    let (date, time) = stamp.split_at(stamp.len().min(8));
    let clean = |s: &str| s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect::<String>();
    format!("{date}-{time}-{}-{}", clean(map), clean(gametype))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stem_is_the_time_then_clean_names() {
        // 2026-12-04T11:45:07Z
        let ms = 1_796_384_707_000;
        assert_eq!(file_stem(ms, "q_dm1", "tdm"), "20261204-114507-q_dm1-tdm");
        assert_eq!(file_stem(ms, "../odd name", "ffa"), "20261204-114507-___odd_name-ffa");
    }

    #[test]
    fn timestamps_are_utc_rfc3339() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_utc(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339_utc(1_796_176_863_123), "2026-12-02T02:01:03.123Z");
    }

    #[test]
    fn timestamps_read_back() {
        for ms in [0, 951_782_400_000, 1_796_176_863_123, 4_102_444_800_000] {
            assert_eq!(parse_rfc3339_utc(&rfc3339_utc(ms)), Some(ms));
        }
        assert_eq!(parse_rfc3339_utc("2026-12-02T02:01:03Z"), Some(1_796_176_863_000));
        for bad in ["", "2026-12-02", "2026-13-02T00:00:00Z", "2026-12-02T24:00:00Z", "1969-12-31T23:59:59Z", "2026-12-02T02:01:03+01:00", "2026-12-02T02:01:03.1Z", "+026-12-02T02:01:03Z"] {
            assert_eq!(parse_rfc3339_utc(bad), None, "{bad}");
        }
    }
}
