//! A token cursor for the grammar: brace-depth tracking (for error
//! recovery) and `expect_*` helpers that produce line-numbered errors.

use super::tokenizer::{Token, TokenKind, Tokenizer};

/// A syntax error at a line, before it is given file and entity context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// 1-based line of the offending token (or of the end of input).
    pub(crate) line: u32,
    /// What was expected and what was found.
    pub(crate) message: String,
}

/// Shorthand for grammar results.
pub(crate) type Parsed<T> = Result<T, SyntaxError>;

/// The tokenizer plus the current brace depth.
pub(crate) struct Cursor<'a> {
    tokens: Tokenizer<'a>,
    depth: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `src`.
    pub(crate) fn new(src: &'a [u8]) -> Self {
        Cursor { tokens: Tokenizer::new(src), depth: 0 }
    }

    /// Current brace nesting: 0 between entities, 1 inside an entity, 2 inside a brush.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Line of the next token.
    pub(crate) fn line(&mut self) -> u32 {
        self.tokens.line()
    }

    fn track(&mut self, t: &Token<'_>) {
        match t.kind {
            TokenKind::OpenBrace => self.depth += 1,
            TokenKind::CloseBrace => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// Peeks at the next token.
    pub(crate) fn peek(&mut self) -> Parsed<Option<Token<'a>>> {
        self.tokens.peek().map_err(|e| SyntaxError { line: e.line, message: "unterminated quoted string".into() })
    }

    /// The kind of the next token, if any.
    pub(crate) fn peek_kind(&mut self) -> Parsed<Option<TokenKind>> {
        Ok(self.peek()?.map(|t| t.kind))
    }

    /// Consumes the next token, or `None` at the end of input.
    pub(crate) fn next(&mut self) -> Parsed<Option<Token<'a>>> {
        let t = self
            .tokens
            .next_token()
            .map_err(|e| SyntaxError { line: e.line, message: "unterminated quoted string".into() })?;
        if let Some(t) = &t {
            self.track(t);
        }
        Ok(t)
    }

    /// Consumes the next token; the end of input is an error naming `what`.
    pub(crate) fn expect_any(&mut self, what: &str) -> Parsed<Token<'a>> {
        let line = self.line();
        self.next()?.ok_or_else(|| SyntaxError { line, message: format!("expected {what}, found end of file") })
    }

    /// Consumes a token of `kind` or fails naming `what`.
    pub(crate) fn expect(&mut self, kind: TokenKind, what: &str) -> Parsed<Token<'a>> {
        let t = self.expect_any(what)?;
        if t.kind == kind {
            Ok(t)
        } else {
            Err(SyntaxError { line: t.line, message: format!("expected {what}, found {}", t.describe()) })
        }
    }

    /// Consumes a finite number.
    pub(crate) fn expect_number(&mut self) -> Parsed<f64> {
        let t = self.expect_any("a number")?;
        t.number().ok_or_else(|| SyntaxError { line: t.line, message: format!("expected a number, found {}", t.describe()) })
    }

    /// Consumes `( n n … n )` with exactly `N` numbers.
    pub(crate) fn expect_numbers<const N: usize>(&mut self) -> Parsed<[f64; N]> {
        self.expect(TokenKind::OpenParen, "`(`")?;
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.expect_number()?;
        }
        self.expect(TokenKind::CloseParen, "`)`")?;
        Ok(out)
    }

    /// Reads a texture or shader name (see [`Tokenizer::next_name`]).
    pub(crate) fn expect_name(&mut self) -> Parsed<Token<'a>> {
        let line = self.line();
        let t = self
            .tokens
            .next_name()
            .map_err(|e| SyntaxError { line: e.line, message: "unterminated quoted string".into() })?;
        t.ok_or_else(|| SyntaxError { line, message: "expected a texture name, found end of file".into() })
    }

    /// Error recovery: consumes tokens until the depth drops below `depth`,
    /// i.e. past the `}` that closes the block opened at `depth`.
    ///
    /// Returns false if the input ended first.
    pub(crate) fn skip_to_depth_below(&mut self, depth: usize) -> bool {
        while self.depth >= depth {
            match self.next() {
                Ok(Some(_)) => {}
                Ok(None) => return false,
                // An unterminated quote eats the rest of the file.
                Err(_) => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_and_recovery() {
        let mut c = Cursor::new(b"{ { ( 1 2 x ) } { } }");
        c.expect(TokenKind::OpenBrace, "`{`").expect("entity");
        c.expect(TokenKind::OpenBrace, "`{`").expect("brush");
        assert_eq!(c.depth(), 2);
        let err = c.expect_numbers::<3>().unwrap_err();
        assert!(err.message.contains("`x`"), "{}", err.message);
        assert!(c.skip_to_depth_below(2));
        assert_eq!(c.depth(), 1);
        assert_eq!(c.peek_kind().expect("peek"), Some(TokenKind::OpenBrace));
    }

    #[test]
    fn eof_errors_have_a_line() {
        let mut c = Cursor::new(b"\n\n(");
        c.next().expect("paren");
        let err = c.expect_number().unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("end of file"));
    }
}
