//! Text helpers of the chat layer: normalisation for matching, whole-word
//! phrase matching, the visible length of a line, and the leading
//! characters a chat line may not start with.
//!
//! One normalisation serves live chat, triggers and bot names alike:
//! Quake colour escapes (`^` and one letter or digit) are removed, ASCII
//! letters and digits are kept lower-cased, and every run of anything else
//! (punctuation, spaces, other scripts) becomes one space, with none at
//! either end. A phrase then matches only as contiguous whole words:
//! `hi` is in "Hi, Tamsin!" but not in "this" or "high".

/// Characters a chat line may not start with, at load and after token
/// substitution: `/` and `\` (a console would run the rest as a command),
/// `!` and `.` (chat-command prefixes of common server mods and admin
/// tools), `+` (a console button command), `#` (a comment in our content
/// files and a localisation key in Quake-family engines) and `;` (a
/// console statement separator).
pub const FORBIDDEN_LEADING: [char; 7] = ['/', '\\', '!', '.', '+', '#', ';'];

/// Whether `line` starts with a character the chat path would reinterpret.
pub fn starts_forbidden(line: &str) -> bool {
    line.trim_start().starts_with(FORBIDDEN_LEADING)
}

/// Removes Quake colour escapes (`^` followed by a letter or digit).
pub fn strip_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '^' && chars.peek().is_some_and(char::is_ascii_alphanumeric) {
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// The matching form of `text`: colours removed, ASCII letters and digits
/// lower-cased, every other run collapsed to one space, trimmed.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in strip_colours(text).chars() {
        if c.is_ascii_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c.to_ascii_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// Whether normalised `phrase` occurs in normalised `text` as contiguous
/// whole words. An empty phrase never matches.
pub fn contains_phrase(text: &str, phrase: &str) -> bool {
    if phrase.is_empty() {
        return false;
    }
    let (t, p) = (text.as_bytes(), phrase.as_bytes());
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|rest| rest.find(phrase)) {
        let start = from + at;
        let end = start + p.len();
        let left = start == 0 || t.get(start - 1) == Some(&b' ');
        let right = end == t.len() || t.get(end) == Some(&b' ');
        if left && right {
            return true;
        }
        from = start + 1;
    }
    false
}

/// Characters a reader sees: colour escapes don't count; at least 1.
pub fn visible_len(text: &str) -> usize {
    strip_colours(text).chars().count().max(1)
}

/// `text` cut to at most `max` characters (on a character boundary).
pub fn truncate_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str, phrase: &str) -> bool {
        contains_phrase(&normalize(text), &normalize(phrase))
    }

    #[test]
    fn normalises_colours_case_and_punctuation() {
        assert_eq!(normalize("^1HeLLo,  ^7Voss!!"), "hello voss");
        assert_eq!(normalize("  good--game :) "), "good game");
        assert_eq!(normalize("^^3x"), "x");
        assert_eq!(normalize("é?!"), "");
    }

    #[test]
    fn whole_word_vectors() {
        assert!(m("^2HeLLo, Voss!", "hello"));
        assert!(m("Hi, Tamsin", "hi"));
        assert!(m("oh hi", "hi"));
        assert!(!m("this", "hi"));
        assert!(!m("high five", "hi"));
        assert!(!m("good gamer", "good game"));
        assert!(!m("good very game", "good game"));
        assert!(m("that was a GOOD GAME all", "good game"));
        assert!(!m("egg", "gg"));
        assert!(m("gg", "gg"));
        assert!(m("ggg gg", "gg"), "a later occurrence still matches");
        assert!(!m("anything", ""));
    }

    #[test]
    fn visible_length_and_leading_characters() {
        assert_eq!(visible_len("^1abc"), 3);
        assert_eq!(visible_len(""), 1);
        assert_eq!(truncate_chars("héllo", 2), "hé");
        assert_eq!(truncate_chars("ab", 5), "ab");
        for bad in ["/kill", " \\quit", "!rank", ".help", "+attack", "#str", "; quit"] {
            assert!(starts_forbidden(bad), "{bad}");
        }
        assert!(!starts_forbidden("$map again"));
        assert!(!starts_forbidden("hi"));
    }
}
