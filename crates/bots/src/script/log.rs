//! A scripted bot's `log()` lines on their way to the server log. Each
//! line is cut to [`MAX_LOG_CHARS`] characters with control characters
//! written as escapes (a line cannot break the log into lines of its own
//! making); a call keeps at most [`MAX_LOG_LINES`]; and a bot writes at
//! most [`LOG_PER_SECOND`] lines a second of match time, [`LOG_BURST`] at
//! once ([`LogLimiter`], a token bucket). Lines dropped on the way are
//! counted, and the count is written before the next line that goes out.

use super::host::{MAX_LOG_CHARS, MAX_LOG_LINES};

/// Lines a second a bot may write to the log, on average.
pub const LOG_PER_SECOND: f64 = 2.0;
/// Lines a bot may write at once (after a quiet spell).
pub const LOG_BURST: f64 = 4.0;

/// `text` as a log line: control characters escaped (`\n`, `\u{1b}`),
/// cut to [`MAX_LOG_CHARS`] characters with a note of how many more there
/// were.
pub fn clean_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_LOG_CHARS + 32));
    let mut chars = text.chars();
    for c in chars.by_ref().take(MAX_LOG_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    let more = chars.count();
    if more > 0 {
        out.push_str(&format!("... ({more} more characters)"));
    }
    out
}

/// One bot's log allowance.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLimiter {
    /// Lines it may write now.
    tokens: f64,
    /// Match time of the last refill, ms.
    at_ms: Option<f64>,
    /// Lines dropped since the last line written.
    pending: u64,
    /// Lines dropped in all.
    dropped: u64,
}

impl Default for LogLimiter {
    fn default() -> Self {
        Self { tokens: LOG_BURST, at_ms: None, pending: 0, dropped: 0 }
    }
}

impl LogLimiter {
    /// The lines to write now, at match time `now_ms`, of `lines` (a
    /// call's, already cut) with `dropped_by_call` more that the call's
    /// cap dropped after them. The first line written after some were
    /// dropped says how many (`[12 log lines dropped] ...`); after a quiet
    /// spell (the allowance full again) a count still untold is written on
    /// its own. Call it with no lines to let that happen.
    pub fn admit(&mut self, now_ms: f64, lines: Vec<String>, dropped_by_call: u32) -> Vec<String> {
        self.refill(now_ms);
        let mut out = Vec::new();
        for line in lines {
            if self.tokens < 1.0 {
                self.note_dropped(1);
                continue;
            }
            self.tokens -= 1.0;
            if self.pending > 0 {
                out.push(format!("[{} log lines dropped] {line}", self.pending));
                self.pending = 0;
            } else {
                out.push(line);
            }
        }
        // The call's own extra lines came after those it kept.
        self.note_dropped(u64::from(dropped_by_call));
        if out.is_empty() && self.pending > 0 && self.tokens >= LOG_BURST {
            self.tokens -= 1.0;
            out.push(format!(
                "[{} log lines dropped] (a bot logs at most {MAX_LOG_LINES} lines a call and {LOG_PER_SECOND} a second, {MAX_LOG_CHARS} characters each)",
                self.pending
            ));
            self.pending = 0;
        }
        out
    }

    /// Lines dropped in all (the call's cap and the rate together).
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    fn note_dropped(&mut self, n: u64) {
        self.pending += n;
        self.dropped += n;
    }

    fn refill(&mut self, now_ms: f64) {
        if let Some(at) = self.at_ms {
            let elapsed = (now_ms - at).max(0.0);
            self.tokens = (self.tokens + elapsed / 1000.0 * LOG_PER_SECOND).min(LOG_BURST);
        }
        self.at_ms = Some(now_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_and_says_how_much_was_cut() {
        let line = clean_line(&"x".repeat(5000));
        assert!(line.starts_with(&"x".repeat(MAX_LOG_CHARS)), "{line}");
        assert!(line.ends_with("... (4800 more characters)"), "{line}");
        assert_eq!(clean_line("short"), "short");
        assert_eq!(clean_line(&"é".repeat(MAX_LOG_CHARS)), "é".repeat(MAX_LOG_CHARS), "characters, not bytes");
    }

    #[test]
    fn control_characters_cannot_start_a_line_of_their_own() {
        let line = clean_line("ok\nERROR quarry_server: forged\r\u{1b}[31m");
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert_eq!(line, "ok\\nERROR quarry_server: forged\\r\\u{1b}[31m");
    }

    #[test]
    fn a_bot_writes_a_few_lines_a_second_and_the_dropped_are_counted() {
        let mut l = LogLimiter::default();
        let four = || (0..4).map(|i| format!("line {i}")).collect::<Vec<_>>();
        // A burst at once, the call's extra lines counted.
        assert_eq!(l.admit(0.0, four(), 6), four());
        // Nothing left 100 ms later.
        assert!(l.admit(100.0, four(), 0).is_empty());
        // Half a second later one line's worth, telling what was dropped.
        assert_eq!(l.admit(600.0, four(), 0), ["[10 log lines dropped] line 0"]);
        assert_eq!(l.dropped(), 13);
        // Over ten seconds of calls every 100 ms, two lines a second go
        // out, each telling the lines dropped since the one before.
        let mut written = Vec::new();
        for i in 1..=100 {
            written.extend(l.admit(600.0 + f64::from(i) * 100.0, four(), 0));
        }
        assert!((19..=21).contains(&written.len()), "{} lines in 10 s", written.len());
        assert!(written.iter().all(|w| w.starts_with('[') && w.contains(" log lines dropped] line 0")), "{written:?}");
        assert_eq!(written.last().map(String::as_str), Some("[19 log lines dropped] line 0"), "a line kept in every five");
        // A quiet spell lets the last count out on its own.
        assert!(l.admit(10_800.0, Vec::new(), 0).is_empty(), "not quiet yet");
        let out = l.admit(20_000.0, Vec::new(), 0);
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("[") && out[0].contains("at most 4 lines a call and 2 a second"), "{out:?}");
        assert!(l.admit(30_000.0, Vec::new(), 0).is_empty(), "nothing untold");
    }
}
