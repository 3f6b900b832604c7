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
}
