//! The `botfiles/chats/*.chat` grammar, read with the content lexer
//! (`//` and `#` comments, quoted strings, braces, one statement per line):
//!
//! ```text
//! characterChat "Tamsin" {          // owner: a loaded character (case-insensitive)
//!     chat entergame {               // an event name (case-insensitive)
//!         "evening all. who's first"
//!         "$map again? fine by me"
//!     }
//!     chat kill { "one" "two" }      // several lines on one line are fine too
//!     reply greeting {               // a rule name
//!         priority 40                // 0..100 (clamped, with a warning)
//!         source any                 // any | player | bot
//!         addressed either           // either | required | forbidden
//!         trigger "hi"               // whole contiguous words; one or more
//!         trigger "hello there"
//!         "hey $other"               // responses: $self, $other, $map only
//!     }
//! }
//! ```
//!
//! Each owner block is parsed into a staging bank and kept only once its
//! closing brace is read. Nothing is fatal: an unknown event, key or
//! token, a line over [`MAX_LINE_CHARS`](super::bank::MAX_LINE_CHARS) or
//! starting with one of [`FORBIDDEN_LEADING`](super::text::FORBIDDEN_LEADING),
//! a duplicate, a cap exceeded: each warns with file and line and skips
//! that line, trigger, response or rule. Owners are checked against the
//! characters by the loader.

use super::bank::{
    Addressed, ChatBank, ChatLine, MAX_LINE_CHARS, MAX_LINES_PER_EVENT, MAX_PRIORITY, MAX_RESPONSES, MAX_RULES,
    MAX_TRIGGER_CHARS, MAX_TRIGGERS, ReplyRule, ReplySource,
};
use super::event::{ChatEvent, Token, TokenSet, token_names};
use super::text::{FORBIDDEN_LEADING, normalize, starts_forbidden};
use crate::content::Warning;
use crate::content::lex::{Tok, Token as LexToken, lex, text};

/// The tokens a reply may use.
pub fn reply_tokens() -> TokenSet {
    TokenSet::of(&[Token::SelfName, Token::Other, Token::Map])
}

/// Checks one line against the load rules; the reason on failure.
pub fn check_line(line: &str, allowed: TokenSet, what: &str) -> Result<ChatLine, String> {
    if line.trim().is_empty() {
        return Err("empty line; skipped".into());
    }
    let n = line.chars().count();
    if n > MAX_LINE_CHARS {
        return Err(format!("line is {n} characters, over {MAX_LINE_CHARS}; skipped"));
    }
    if starts_forbidden(line) {
        let leading: String = FORBIDDEN_LEADING.iter().collect();
        return Err(format!("line starts with one of {leading} (the chat path would reinterpret it); skipped"));
    }
    if line.chars().any(char::is_control) {
        return Err("line has control characters; skipped".into());
    }
    let mut tokens = TokenSet::default();
    for name in token_names(line) {
        let Some(t) = Token::parse(name) else {
            return Err(format!("unknown token ${name}; line skipped"));
        };
        if !allowed.has(t) {
            return Err(format!("{what} can't fill ${}; line skipped", t.name()));
        }
        tokens = tokens.with(t);
    }
    Ok(ChatLine { text: line.to_owned(), tokens })
}

/// Parses one chat file; returns each complete owner block with the line
/// it opened on, in file order.
pub fn parse_chat_file(file: &str, source: &str, warnings: &mut Vec<Warning>) -> Vec<(ChatBank, u32)> {
    let toks = lex(file, source, warnings);
    let mut p = ChatParser { toks: &toks, pos: 0, file, warnings };
    p.top()
}

struct ChatParser<'a> {
    toks: &'a [LexToken],
    pos: usize,
    file: &'a str,
    warnings: &'a mut Vec<Warning>,
}

impl ChatParser<'_> {
    fn warn(&mut self, line: u32, message: String) {
        self.warnings.push(Warning { file: self.file.to_owned(), line, message });
    }

    fn next(&mut self) -> Option<LexToken> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += usize::from(t.is_some());
        t
    }

    /// Word and string tokens left on `line`.
    fn line_rest(&mut self, line: u32) -> Vec<LexToken> {
        let mut out = Vec::new();
        while let Some(t) = self.toks.get(self.pos) {
            if t.line != line || matches!(t.tok, Tok::Open | Tok::Close) {
                break;
            }
            out.push(t.clone());
            self.pos += 1;
        }
        out
    }

    /// Consumes a `{` if it is next; whether it did.
    fn open(&mut self) -> bool {
        let opens = matches!(self.toks.get(self.pos), Some(LexToken { tok: Tok::Open, .. }));
        self.pos += usize::from(opens);
        opens
    }

    /// Skips to the `}` matching a consumed `{`; false at end of file.
    fn skip_block(&mut self) -> bool {
        let mut depth = 1usize;
        while let Some(t) = self.next() {
            match t.tok {
                Tok::Open => depth += 1,
                Tok::Close => {
                    depth -= 1;
                    if depth == 0 {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    fn top(&mut self) -> Vec<(ChatBank, u32)> {
        let mut out = Vec::new();
        while let Some(t) = self.next() {
            let line = t.line;
            let args = self.line_rest(line);
            let is_owner = matches!(&t.tok, Tok::Word(w) if w.eq_ignore_ascii_case("characterChat"));
            if !self.open() {
                self.warn(line, format!("'{}' without a {{ block; skipped", text(&t)));
                continue;
            }
            if !is_owner {
                self.warn(line, format!("unknown top-level key '{}'; expected characterChat; block skipped", text(&t)));
                self.skip_block();
                continue;
            }
            let owner = match args.as_slice() {
                [n] => text(n).trim().to_owned(),
                _ => String::new(),
            };
            let mut bank = ChatBank::new(&owner);
            if !self.owner_block(&mut bank) {
                self.warn(line, format!("characterChat '{owner}' is never closed; block skipped"));
                break;
            }
            if owner.is_empty() {
                self.warn(line, "characterChat needs exactly one owner name; block skipped".into());
                continue;
            }
            out.push((bank, line));
        }
        out
    }

    /// The body of an owner block; false if the file ends inside it.
    fn owner_block(&mut self, bank: &mut ChatBank) -> bool {
        loop {
            let Some(t) = self.next() else { return false };
            let line = t.line;
            let key = match &t.tok {
                Tok::Close => return true,
                Tok::Open => {
                    self.warn(line, "unexpected '{'; block skipped".into());
                    if !self.skip_block() {
                        return false;
                    }
                    continue;
                }
                Tok::Word(w) | Tok::Str(w) => w.clone(),
            };
            let args = self.line_rest(line);
            if !self.open() {
                self.warn(line, format!("'{key}' needs a name and a {{ block; skipped"));
                continue;
            }
            let name = match args.as_slice() {
                [n] => Some(text(n).to_owned()),
                _ => None,
            };
            let closed = match (key.to_ascii_lowercase().as_str(), name) {
                ("chat", Some(ev)) => match ChatEvent::parse(&ev) {
                    Some(event) => self.chat_block(event, bank),
                    None => {
                        self.warn(line, format!("unknown chat event '{ev}'; block skipped"));
                        self.skip_block()
                    }
                },
                ("reply", Some(name)) => self.reply_block(name, line, bank),
                ("chat" | "reply", None) => {
                    self.warn(line, format!("'{key}' needs exactly one name; block skipped"));
                    self.skip_block()
                }
                _ => {
                    self.warn(line, format!("unknown characterChat key '{key}'; block skipped"));
                    self.skip_block()
                }
            };
            if !closed {
                return false;
            }
        }
    }

    fn chat_block(&mut self, event: ChatEvent, bank: &mut ChatBank) -> bool {
        let allowed = event.tokens();
        loop {
            let Some(t) = self.next() else { return false };
            match t.tok {
                Tok::Close => return true,
                Tok::Open => {
                    self.warn(t.line, "unexpected '{' in a chat block; skipped".into());
                    if !self.skip_block() {
                        return false;
                    }
                }
                Tok::Word(w) => self.warn(t.line, format!("expected a quoted line, found '{w}'; skipped")),
                Tok::Str(s) => {
                    let what = format!("event {}", event.name());
                    let lines = &bank.lines[event.index()];
                    let result = check_line(&s, allowed, &what).and_then(|l| {
                        if lines.iter().any(|o| o.text == l.text) {
                            Err(format!("duplicate line in {what}; skipped"))
                        } else if event == ChatEvent::OrderEscort && crate::team::parse_order(&l.text).is_none() {
                            Err(format!("{what} must say its order (\"cover me\", \"follow me\" or \"escort me\"): teammates read it; skipped"))
                        } else if lines.len() >= MAX_LINES_PER_EVENT {
                            Err(format!("more than {MAX_LINES_PER_EVENT} lines for {what}; skipped"))
                        } else {
                            Ok(l)
                        }
                    });
                    match result {
                        Ok(l) => bank.lines[event.index()].push(l),
                        Err(m) => self.warn(t.line, m),
                    }
                }
            }
        }
    }

    fn reply_block(&mut self, name: String, opened: u32, bank: &mut ChatBank) -> bool {
        let mut rule = ReplyRule {
            name,
            priority: 0,
            source: ReplySource::Any,
            addressed: Addressed::Either,
            triggers: Vec::new(),
            responses: Vec::new(),
        };
        loop {
            let Some(t) = self.next() else { return false };
            let line = t.line;
            match &t.tok {
                Tok::Close => break,
                Tok::Open => {
                    self.warn(line, "unexpected '{' in a reply block; skipped".into());
                    if !self.skip_block() {
                        return false;
                    }
                }
                Tok::Str(s) => {
                    let mut all = vec![s.clone()];
                    all.extend(self.line_rest(line).iter().map(|t| text(t).to_owned()));
                    for r in all {
                        self.response(&mut rule, &r, line);
                    }
                }
                Tok::Word(key) => {
                    let args = self.line_rest(line);
                    self.reply_statement(&mut rule, key, &args, line);
                }
            }
        }
        let why = if rule.triggers.is_empty() || rule.responses.is_empty() {
            Some(format!("reply '{}' needs at least one trigger and one response; rule skipped", rule.name))
        } else if bank.rules.iter().any(|r| r.name.eq_ignore_ascii_case(&rule.name)) {
            Some(format!("duplicate reply rule '{}'; the first wins", rule.name))
        } else if bank.rules.len() >= MAX_RULES {
            Some(format!("more than {MAX_RULES} reply rules; '{}' skipped", rule.name))
        } else {
            None
        };
        match why {
            Some(m) => self.warn(opened, m),
            None => bank.rules.push(rule),
        }
        true
    }

    fn response(&mut self, rule: &mut ReplyRule, r: &str, line: u32) {
        let what = format!("reply {}", rule.name);
        match check_line(r, reply_tokens(), &what) {
            Ok(_) if rule.responses.iter().any(|o| o.text == r) => self.warn(line, format!("duplicate response in {what}; skipped")),
            Ok(_) if rule.responses.len() >= MAX_RESPONSES => {
                self.warn(line, format!("more than {MAX_RESPONSES} responses in {what}; skipped"));
            }
            Ok(l) => rule.responses.push(l),
            Err(m) => self.warn(line, m),
        }
    }

    fn reply_statement(&mut self, rule: &mut ReplyRule, key: &str, args: &[LexToken], line: u32) {
        let one = args.first().map(text).filter(|_| args.len() == 1);
        match (key.to_ascii_lowercase().as_str(), one) {
            ("trigger", _) if !args.is_empty() => {
                for a in args {
                    let n = normalize(text(a));
                    let why = if n.is_empty() {
                        Some(format!("trigger '{}' has no letters or digits; skipped", text(a)))
                    } else if n.len() > MAX_TRIGGER_CHARS {
                        Some(format!("trigger '{}' is over {MAX_TRIGGER_CHARS} characters; skipped", text(a)))
                    } else if rule.triggers.contains(&n) {
                        Some(format!("duplicate trigger '{}' in reply {}; skipped", text(a), rule.name))
                    } else if rule.triggers.len() >= MAX_TRIGGERS {
                        Some(format!("more than {MAX_TRIGGERS} triggers in reply {}; skipped", rule.name))
                    } else {
                        None
                    };
                    match why {
                        Some(m) => self.warn(line, m),
                        None => rule.triggers.push(n),
                    }
                }
            }
            ("priority", Some(v)) => match v.parse::<f64>().ok().filter(|p| p.is_finite()) {
                Some(p) => {
                    let clamped = p.round().clamp(0.0, f64::from(MAX_PRIORITY)) as i32;
                    if f64::from(clamped) != p {
                        self.warn(line, format!("priority {v} is outside 0..{MAX_PRIORITY} (or not whole); {clamped} used"));
                    }
                    rule.priority = clamped;
                }
                None => self.warn(line, format!("priority '{v}' is not a number; skipped")),
            },
            ("source", Some(v)) => match v.to_ascii_lowercase().as_str() {
                "any" => rule.source = ReplySource::Any,
                "player" => rule.source = ReplySource::Player,
                "bot" => rule.source = ReplySource::Bot,
                _ => self.warn(line, format!("source '{v}' must be any, player or bot; skipped")),
            },
            ("addressed", Some(v)) => match v.to_ascii_lowercase().as_str() {
                "either" => rule.addressed = Addressed::Either,
                "required" => rule.addressed = Addressed::Required,
                "forbidden" => rule.addressed = Addressed::Forbidden,
                _ => self.warn(line, format!("addressed '{v}' must be either, required or forbidden; skipped")),
            },
            ("trigger" | "priority" | "source" | "addressed", _) => {
                self.warn(line, format!("'{key}' needs {}; skipped", if key.eq_ignore_ascii_case("trigger") { "a phrase" } else { "exactly one value" }));
            }
            _ => self.warn(line, format!("unknown reply key '{key}'; skipped")),
        }
    }
}
