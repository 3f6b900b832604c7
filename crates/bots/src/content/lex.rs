//! The lexer of every botfile (styles, characters, chats): words, quoted
//! strings and braces with the line each is on. Linear in the text; it
//! never fails (an unterminated string warns and ends at the line end).

use super::files::Warning;

/// One lexical token of a content file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A bare word (`set`, `kill`, `40`).
    Word(String),
    /// A quoted string, without the quotes.
    Str(String),
    /// `{`.
    Open,
    /// `}`.
    Close,
}

/// A token and the 1-based line it is on.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    /// The token.
    pub(crate) tok: Tok,
    /// Its line.
    pub(crate) line: u32,
}

/// Splits content text into tokens: `//` and `#` comments to the end of the
/// line, quoted strings (an unterminated one warns and ends at the line
/// end), braces, `;` as a separator, words.
pub(crate) fn lex(file: &str, text: &str, warnings: &mut Vec<Warning>) -> Vec<Token> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut chars = raw.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            match c {
                c if c.is_whitespace() || c == ';' => {}
                '#' => break,
                '/' if raw[at..].starts_with("//") => break,
                '{' => out.push(Token { tok: Tok::Open, line }),
                '}' => out.push(Token { tok: Tok::Close, line }),
                '"' => {
                    let mut s = String::new();
                    let mut closed = false;
                    for (_, c) in chars.by_ref() {
                        if c == '"' {
                            closed = true;
                            break;
                        }
                        s.push(c);
                    }
                    if !closed {
                        warnings.push(Warning { file: file.into(), line, message: "unterminated string; closed at end of line".into() });
                    }
                    out.push(Token { tok: Tok::Str(s), line });
                }
                _ => {
                    let mut s = String::from(c);
                    while let Some(&(_, c)) = chars.peek() {
                        if c.is_whitespace() || matches!(c, '{' | '}' | '"' | ';') {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    out.push(Token { tok: Tok::Word(s), line });
                }
            }
        }
    }
    out
}

/// The text of a token (`{`/`}` for braces).
pub(crate) fn text(t: &Token) -> &str {
    match &t.tok {
        Tok::Word(s) | Tok::Str(s) => s,
        Tok::Open => "{",
        Tok::Close => "}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexer_keeps_lines_strings_and_comments() {
        let mut w = Vec::new();
        let t = lex("f", "a \"b c\"{ // x\n# y\n}", &mut w);
        let got: Vec<(Tok, u32)> = t.into_iter().map(|t| (t.tok, t.line)).collect();
        assert_eq!(
            got,
            vec![(Tok::Word("a".into()), 1), (Tok::Str("b c".into()), 1), (Tok::Open, 1), (Tok::Close, 3)]
        );
        assert!(w.is_empty());
    }
}
