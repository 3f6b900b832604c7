//! The .map tokenizer: braces, parens, brackets, quoted strings and bare
//! words, with `//` comments, tracking 1-based line numbers.
//!
//! It works on bytes: map files are ASCII in practice, but Quake 1 messages
//! may hold high-bit characters, which are carried through lossily.
//!
//! One quirk of the format: Quake 1 texture names may start with `{`
//! (`{grate`, masked textures), so a `{` directly followed by a name
//! character is part of a word, not a brace. Structural braces are always
//! followed by whitespace or a quote in files written by editors.

use std::borrow::Cow;

/// The kind of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// `{`
    OpenBrace,
    /// `}`
    CloseBrace,
    /// `(`
    OpenParen,
    /// `)`
    CloseParen,
    /// `[`
    OpenBracket,
    /// `]`
    CloseBracket,
    /// A `"…"` string; `text` excludes the quotes.
    Quoted,
    /// Anything else up to whitespace or punctuation: numbers, keywords, names.
    Word,
}

/// One token with its text and where it starts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    pub(crate) kind: TokenKind,
    pub(crate) text: &'a [u8],
    pub(crate) line: u32,
    start: usize,
}

impl<'a> Token<'a> {
    /// The token text as a string (lossy for non-UTF-8 bytes).
    pub(crate) fn as_str(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.text)
    }

    /// Whether this is a word equal to `keyword` (ASCII case-insensitive).
    pub(crate) fn is_word(&self, keyword: &str) -> bool {
        self.kind == TokenKind::Word && self.text.eq_ignore_ascii_case(keyword.as_bytes())
    }

    /// The token read as a finite number.
    pub(crate) fn number(&self) -> Option<f64> {
        if self.kind != TokenKind::Word {
            return None;
        }
        let v: f64 = std::str::from_utf8(self.text).ok()?.parse().ok()?;
        v.is_finite().then_some(v)
    }

    /// A short human description for error messages.
    pub(crate) fn describe(&self) -> String {
        match self.kind {
            TokenKind::Quoted => format!("\"{}\"", self.as_str()),
            _ => format!("`{}`", self.as_str()),
        }
    }
}

/// An unterminated quoted string, the only thing the tokenizer rejects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnterminatedQuote {
    /// Line where the string starts.
    pub(crate) line: u32,
}

/// A pull tokenizer with one token of lookahead.
pub(crate) struct Tokenizer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    peeked: Option<Token<'a>>,
}

fn is_punct(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'"')
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'*' | b'-' | b'.' | b'!' | b'~')
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer at the start of `src`, line 1.
    pub(crate) fn new(src: &'a [u8]) -> Self {
        Tokenizer { src, pos: 0, line: 1, peeked: None }
    }

    /// The line of the next token (or of the end of input).
    pub(crate) fn line(&mut self) -> u32 {
        match self.peek() {
            Ok(Some(t)) => t.line,
            _ => self.line,
        }
    }

    fn skip_space_and_comments(&mut self) {
        while let Some(&b) = self.src.get(self.pos) {
            if b == b'\n' {
                self.line += 1;
                self.pos += 1;
            } else if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b == b'/' && self.src.get(self.pos + 1) == Some(&b'/') {
                while self.src.get(self.pos).is_some_and(|&c| c != b'\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// Looks at the next token without consuming it.
    pub(crate) fn peek(&mut self) -> Result<Option<Token<'a>>, UnterminatedQuote> {
        if self.peeked.is_none() {
            self.peeked = self.lex()?;
        }
        Ok(self.peeked)
    }

    /// Consumes and returns the next token; `None` at the end of input.
    pub(crate) fn next_token(&mut self) -> Result<Option<Token<'a>>, UnterminatedQuote> {
        match self.peeked.take() {
            Some(t) => Ok(Some(t)),
            None => self.lex(),
        }
    }

    /// Reads a texture name: a quoted string, or raw bytes up to whitespace
    /// (so names like `{grate` or `+0button` survive intact).
    pub(crate) fn next_name(&mut self) -> Result<Option<Token<'a>>, UnterminatedQuote> {
        if let Some(t) = self.peeked.take() {
            // Re-lex from the start of the peeked token in name mode.
            self.pos = t.start;
            self.line = t.line;
        }
        self.skip_space_and_comments();
        let start = self.pos;
        match self.src.get(start) {
            None => Ok(None),
            Some(b'"') => self.lex(),
            Some(_) => {
                while self.src.get(self.pos).is_some_and(|b| !b.is_ascii_whitespace()) {
                    self.pos += 1;
                }
                let text = &self.src[start..self.pos];
                Ok(Some(Token { kind: TokenKind::Word, text, line: self.line, start }))
            }
        }
    }

    fn lex(&mut self) -> Result<Option<Token<'a>>, UnterminatedQuote> {
        self.skip_space_and_comments();
        let start = self.pos;
        let line = self.line;
        let Some(&b) = self.src.get(start) else {
            return Ok(None);
        };
        let single = |kind| Token { kind, text: &self.src[start..start + 1], line, start };
        let kind = match b {
            b'{' if !self.src.get(start + 1).is_some_and(|&c| is_name_start(c)) => Some(TokenKind::OpenBrace),
            b'}' => Some(TokenKind::CloseBrace),
            b'(' => Some(TokenKind::OpenParen),
            b')' => Some(TokenKind::CloseParen),
            b'[' => Some(TokenKind::OpenBracket),
            b']' => Some(TokenKind::CloseBracket),
            _ => None,
        };
        if let Some(kind) = kind {
            let token = single(kind);
            self.pos += 1;
            return Ok(Some(token));
        }
        if b == b'"' {
            let body = start + 1;
            let Some(len) = self.src[body..].iter().position(|&c| c == b'"') else {
                return Err(UnterminatedQuote { line });
            };
            let text = &self.src[body..body + len];
            self.line += text.iter().filter(|&&c| c == b'\n').count() as u32;
            self.pos = body + len + 1;
            return Ok(Some(Token { kind: TokenKind::Quoted, text, line, start }));
        }
        // A word; a leading `{` belongs to it (see the module docs).
        self.pos += 1;
        while self.src.get(self.pos).is_some_and(|&c| !c.is_ascii_whitespace() && !is_punct(c)) {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        Ok(Some(Token { kind: TokenKind::Word, text, line, start }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, String, u32)> {
        let mut t = Tokenizer::new(src.as_bytes());
        let mut out = Vec::new();
        while let Some(tok) = t.next_token().expect("lex") {
            out.push((tok.kind, tok.as_str().into_owned(), tok.line));
        }
        out
    }

    #[test]
    fn punctuation_words_quotes_and_lines() {
        use TokenKind::*;
        let toks = kinds("{\n\"classname\" \"worldspawn\"\n( 1 -2.5 3e1 ) [ ]\n}");
        let expect = [
            (OpenBrace, "{", 1),
            (Quoted, "classname", 2),
            (Quoted, "worldspawn", 2),
            (OpenParen, "(", 3),
            (Word, "1", 3),
            (Word, "-2.5", 3),
            (Word, "3e1", 3),
            (CloseParen, ")", 3),
            (OpenBracket, "[", 3),
            (CloseBracket, "]", 3),
            (CloseBrace, "}", 4),
        ];
        let expect: Vec<_> = expect.iter().map(|&(k, s, l)| (k, s.to_string(), l)).collect();
        assert_eq!(toks, expect);
    }

    #[test]
    fn comments_are_skipped_and_counted() {
        let toks = kinds("// entity 0\n// brush 0\n{ // trailing\n}");
        assert_eq!(toks.len(), 2);
        assert_eq!(toks[0].2, 3);
        assert_eq!(toks[1].2, 4);
    }

    #[test]
    fn brace_prefixed_texture_is_a_word() {
        let toks = kinds("{grate {\n");
        assert_eq!(toks[0], (TokenKind::Word, "{grate".into(), 1));
        assert_eq!(toks[1].0, TokenKind::OpenBrace);
    }

    #[test]
    fn unpadded_parens() {
        let toks = kinds("(1 2 3)");
        assert_eq!(toks.len(), 5);
        assert_eq!(toks[1].1, "1");
        assert_eq!(toks[4].0, TokenKind::CloseParen);
    }

    #[test]
    fn name_mode_reads_to_whitespace_after_peek() {
        let mut t = Tokenizer::new(b"  {trans[1] next");
        assert!(t.peek().expect("lex").is_some());
        let name = t.next_name().expect("lex").expect("a name");
        assert_eq!(name.as_str(), "{trans[1]");
        assert_eq!(t.next_token().expect("lex").expect("word").as_str(), "next");
    }

    #[test]
    fn multiline_quote_advances_line() {
        let toks = kinds("\"a\nb\" x");
        assert_eq!(toks[1].2, 2);
    }

    #[test]
    fn unterminated_quote_is_an_error() {
        let mut t = Tokenizer::new(b"\n\"open");
        assert_eq!(t.next_token().unwrap_err(), UnterminatedQuote { line: 2 });
    }

    #[test]
    fn numbers() {
        let mut t = Tokenizer::new(b"12.5 nan abc -0");
        let mut nums = Vec::new();
        while let Some(tok) = t.next_token().expect("lex") {
            nums.push(tok.number());
        }
        assert_eq!(nums, vec![Some(12.5), None, None, Some(-0.0)]);
    }
}
