//! [`ChatBank`]: one character's voice, as loaded from a `characterChat`
//! block. Event lines per [`ChatEvent`], reply rules in file order, and the
//! two choices made from them: which rule answers a message and which line
//! is said.

use super::event::{ChatEvent, ChatTokens, TokenSet};
use super::text::{FORBIDDEN_LEADING, contains_phrase, starts_forbidden, truncate_chars};
use crate::rng::BotRng;

/// Longest chat line accepted at load, characters.
pub const MAX_LINE_CHARS: usize = 160;
/// Most lines one event of one character keeps.
pub const MAX_LINES_PER_EVENT: usize = 64;
/// Most reply rules per character.
pub const MAX_RULES: usize = 32;
/// Most triggers per rule.
pub const MAX_TRIGGERS: usize = 16;
/// Most responses per rule.
pub const MAX_RESPONSES: usize = 16;
/// Longest trigger, characters after normalisation.
pub const MAX_TRIGGER_CHARS: usize = 48;
/// Highest rule priority (lower ones are clamped to 0).
pub const MAX_PRIORITY: i32 = 100;

/// One line as written, with the tokens it uses.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatLine {
    /// The text, tokens unreplaced.
    pub text: String,
    /// Tokens it needs.
    pub tokens: TokenSet,
}

/// Who a reply rule listens to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplySource {
    /// Anyone.
    Any,
    /// People only.
    Player,
    /// Bots only.
    Bot,
}

/// Whether a reply rule needs the message to name the bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addressed {
    /// Named or not.
    Either,
    /// Only when named.
    Required,
    /// Only when not named.
    Forbidden,
}

/// One `reply <name> { ... }` rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyRule {
    /// Rule name.
    pub name: String,
    /// 0..=100; higher wins.
    pub priority: i32,
    /// Who it listens to.
    pub source: ReplySource,
    /// Whether the bot must be named.
    pub addressed: Addressed,
    /// Trigger phrases, normalised.
    pub triggers: Vec<String>,
    /// Responses (tokens `$self`, `$other`, `$map` only).
    pub responses: Vec<ChatLine>,
}

/// A character's chat lines and reply rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatBank {
    /// The character it belongs to (as the character spells it).
    pub owner: String,
    /// Lines per event, index [`ChatEvent::index`].
    pub lines: [Vec<ChatLine>; ChatEvent::ALL.len()],
    /// Reply rules in file order.
    pub rules: Vec<ReplyRule>,
}

/// What a message looks like to one bot.
#[derive(Debug, Clone, Copy)]
pub struct Heard<'a> {
    /// The normalised text.
    pub text: &'a str,
    /// Whether a bot said it.
    pub from_bot: bool,
    /// Whether it names this bot.
    pub addressed: bool,
}

impl ChatBank {
    /// An empty bank for `owner`.
    pub fn new(owner: &str) -> Self {
        Self { owner: owner.to_owned(), lines: Default::default(), rules: Vec::new() }
    }

    /// The lines of `event`.
    pub fn lines(&self, event: ChatEvent) -> &[ChatLine] {
        self.lines.get(event.index()).map_or(&[], Vec::as_slice)
    }

    /// The rule that answers `heard`, as its index: among rules whose
    /// source and addressed filters pass and with a trigger in the text,
    /// the highest priority, then the longest matching trigger, then the
    /// first in the file.
    pub fn best_rule(&self, heard: Heard<'_>) -> Option<usize> {
        let mut best: Option<(usize, i32, usize)> = None;
        for (i, r) in self.rules.iter().enumerate() {
            let source_ok = match r.source {
                ReplySource::Any => true,
                ReplySource::Player => !heard.from_bot,
                ReplySource::Bot => heard.from_bot,
            };
            let addressed_ok = match r.addressed {
                Addressed::Either => true,
                Addressed::Required => heard.addressed,
                Addressed::Forbidden => !heard.addressed,
            };
            if !source_ok || !addressed_ok {
                continue;
            }
            let Some(len) = r.triggers.iter().filter(|t| contains_phrase(heard.text, t)).map(String::len).max() else {
                continue;
            };
            // Strictly better only, so an equal later rule loses (file order).
            if best.is_none_or(|(_, p, l)| (r.priority, len) > (p, l)) {
                best = Some((i, r.priority, len));
            }
        }
        best.map(|b| b.0)
    }
}

/// Picks a line: uniformly among `lines` whose tokens all have values,
/// never `last` (the index said last time here) nor a line whose text is
/// `avoid` (the bot's previous line); the chosen index and the finished
/// text, or `None` (silence) when nothing is usable.
pub fn pick_line(
    lines: &[ChatLine],
    tokens: &ChatTokens,
    last: Option<usize>,
    avoid: Option<&str>,
    rng: &mut BotRng,
) -> Option<(usize, String)> {
    let usable: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| Some(*i) != last && Some(l.text.as_str()) != avoid)
        .filter_map(|(i, l)| finish_line(&tokens.substitute(&l.text)?).map(|t| (i, t)))
        .collect();
    if usable.is_empty() {
        return None;
    }
    let k = rng.below(usable.len() as u32) as usize;
    usable.into_iter().nth(k)
}

/// A substituted line made safe to say: control characters removed, cut to
/// [`MAX_LINE_CHARS`], and dropped if empty or if it now starts with one of
/// [`FORBIDDEN_LEADING`] (a player named `/kill`).
pub fn finish_line(text: &str) -> Option<String> {
    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
    let cut = truncate_chars(clean.trim(), MAX_LINE_CHARS).trim_end();
    if cut.is_empty() || starts_forbidden(cut) {
        return None;
    }
    debug_assert!(!cut.starts_with(FORBIDDEN_LEADING));
    Some(cut.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::event::Token;
    use crate::chat::text::normalize;

    fn line(t: &str) -> ChatLine {
        ChatLine { text: t.into(), tokens: TokenSet::default() }
    }

    fn rule(name: &str, priority: i32, addressed: Addressed, triggers: &[&str]) -> ReplyRule {
        ReplyRule {
            name: name.into(),
            priority,
            source: ReplySource::Any,
            addressed,
            triggers: triggers.iter().map(|t| normalize(t)).collect(),
            responses: vec![line("ok")],
        }
    }

    fn heard(text: &str, addressed: bool) -> (String, bool) {
        (normalize(text), addressed)
    }

    #[test]
    fn priority_then_length_then_file_order() {
        let mut b = ChatBank::new("Tamsin");
        b.rules = vec![
            rule("greet", 20, Addressed::Either, &["hi", "hello"]),
            rule("greetLong", 20, Addressed::Either, &["hello there"]),
            rule("help", 40, Addressed::Either, &["help"]),
            rule("greetTwin", 20, Addressed::Either, &["hello there"]),
            rule("direct", 0, Addressed::Required, &["tamsin"]),
        ];
        let best = |t: &str, a: bool| {
            let (n, a) = heard(t, a);
            b.best_rule(Heard { text: &n, from_bot: false, addressed: a }).map(|i| b.rules[i].name.as_str())
        };
        assert_eq!(best("hi all", false), Some("greet"));
        assert_eq!(best("Hello there, you", false), Some("greetLong"), "longer trigger wins at equal priority; first of equals");
        assert_eq!(best("hello there, help!", false), Some("help"), "priority first");
        assert_eq!(best("tamsin?", true), Some("direct"));
        assert_eq!(best("tamsin?", false), None, "required addressing");
        assert_eq!(best("this high thing", false), None, "whole words only");
    }

    #[test]
    fn source_filter() {
        let mut b = ChatBank::new("x");
        let mut r = rule("p", 10, Addressed::Either, &["gg"]);
        r.source = ReplySource::Player;
        b.rules.push(r);
        let n = normalize("gg");
        assert_eq!(b.best_rule(Heard { text: &n, from_bot: false, addressed: false }), Some(0));
        assert_eq!(b.best_rule(Heard { text: &n, from_bot: true, addressed: false }), None);
    }

    #[test]
    fn line_pick_skips_missing_tokens_and_the_last_line() {
        let lines = vec![
            ChatLine { text: "nice $weapon".into(), tokens: TokenSet::of(&[Token::Weapon]) },
            line("one"),
            line("two"),
        ];
        let tokens = ChatTokens { self_name: "me".into(), map: "m".into(), ..ChatTokens::default() };
        let mut rng = BotRng::from_seed(1);
        let mut last = None;
        for _ in 0..50 {
            let (i, text) = pick_line(&lines, &tokens, last, None, &mut rng).expect("a line");
            assert_ne!(i, 0, "needs a weapon");
            assert_ne!(Some(i), last, "never back to back");
            assert!(text == "one" || text == "two");
            last = Some(i);
        }
        assert_eq!(pick_line(&lines[..2], &tokens, Some(1), None, &mut rng), None, "silence rather than a repeat");
        assert_eq!(pick_line(&lines[1..], &tokens, None, Some("one"), &mut rng).map(|l| l.1).as_deref(), Some("two"));
    }

    #[test]
    fn finished_lines_are_safe() {
        assert_eq!(finish_line("/kill me").as_deref(), None);
        assert_eq!(finish_line("  hi\u{7} ").as_deref(), Some("hi"));
        assert_eq!(finish_line(&"a".repeat(300)).map(|l| l.len()), Some(MAX_LINE_CHARS));
    }
}
