//! Chat: `say` to everyone, `say_team` to one's team (in team games only),
//! server prints; a per-client flood limit. Chat is published as events for
//! other crates (network, bots) to deliver and observe.

/// The longest chat line accepted, in characters; longer lines are cut.
pub const MAX_CHAT_CHARS: usize = 150;
/// Messages a client may send in a burst.
pub const CHAT_BURST: u32 = 4;
/// Ticks to earn back one message of burst (1 s at 60 Hz).
pub const CHAT_REFILL_TICKS: u32 = 60;

/// Token-bucket flood limit for one client's chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatLimiter {
    tokens: u32,
    last_refill: u32,
    /// Messages refused by the limit.
    pub dropped: u32,
}

impl Default for ChatLimiter {
    fn default() -> Self {
        Self { tokens: CHAT_BURST, last_refill: 0, dropped: 0 }
    }
}

impl ChatLimiter {
    /// Whether a message sent at `tick` is allowed (and spends a token if so).
    pub fn allow(&mut self, tick: u32) -> bool {
        let earned = tick.saturating_sub(self.last_refill) / CHAT_REFILL_TICKS;
        if earned > 0 {
            self.tokens = (self.tokens + earned).min(CHAT_BURST);
            self.last_refill += earned * CHAT_REFILL_TICKS;
        }
        if self.tokens == 0 {
            self.dropped += 1;
            return false;
        }
        self.tokens -= 1;
        true
    }
}

/// Who a chat line goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ChatScope {
    /// Everyone.
    All,
    /// Only the sender's team (red or blue).
    Team(crate::slots::Team),
}

/// Cleans a chat line: control and Unicode format characters (see
/// [`crate::text`]) removed, cut to [`MAX_CHAT_CHARS`].
/// Returns `None` for a line with nothing left, and whether it was cut.
pub fn clean_chat(text: &str) -> Option<(String, bool)> {
    let cleaned: String = text.chars().filter(|&c| !crate::text::is_hidden_char(c)).collect();
    let trimmed = cleaned.trim();
    if trimmed.is_empty() {
        return None;
    }
    let cut = trimmed.chars().count() > MAX_CHAT_CHARS;
    Some((trimmed.chars().take(MAX_CHAT_CHARS).collect(), cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_one_per_second() {
        let mut l = ChatLimiter::default();
        for _ in 0..CHAT_BURST {
            assert!(l.allow(10));
        }
        assert!(!l.allow(10));
        // One message a second comes back.
        assert!(l.allow(60));
        assert!(!l.allow(61));
        assert!(!l.allow(119));
        assert!(l.allow(120));
        assert_eq!(l.dropped, 3);
    }

    #[test]
    fn clean_cuts_and_strips() {
        assert_eq!(clean_chat("  \u{1b}hi "), Some(("hi".into(), false)));
        assert_eq!(clean_chat(" \n "), None);
        assert_eq!(clean_chat("gg \u{202E}ez\u{200B}"), Some(("gg ez".into(), false)));
        assert_eq!(clean_chat("\u{2066}\u{2069}"), None);
        let (long, cut) = clean_chat(&"a".repeat(500)).expect("line");
        assert!(cut);
        assert_eq!(long.len(), MAX_CHAT_CHARS);
    }
}
