//! The Quake-style tokenizer: splits console or config text into statements
//! and each statement into tokens.
//!
//! Rules, as in a Quake config:
//! - a newline or a `;` outside double quotes ends a statement;
//! - `//` outside double quotes starts a comment that runs to the end of the line;
//! - double quotes group words (and `;` or `//`) into one token; there is no
//!   escape character inside quotes, so a token can never contain `"`;
//! - an opening quote with no closing quote on the same line is an error for
//!   that statement only: the statements around it are still returned.
//!
//! The tokenizer never fails as a whole: each statement is its own `Result`,
//! so one bad line in a config file costs exactly that line.

use crate::error::TokenizeError;

/// One console statement: a command or cvar name and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The tokens; never empty (blank statements are not returned).
    pub tokens: Vec<String>,
    /// The 1-based line of the input the statement starts on.
    pub line: usize,
}

impl Statement {
    /// The first token: the command or cvar name.
    pub fn name(&self) -> &str {
        self.tokens.first().map(String::as_str).unwrap_or("")
    }

    /// The tokens after the name.
    pub fn args(&self) -> &[String] {
        self.tokens.get(1..).unwrap_or(&[])
    }
}

/// Splits `text` into statements. Blank statements and comments are dropped;
/// a statement with an unbalanced quote becomes an `Err` and tokenizing goes
/// on with the next line.
pub fn tokenize(text: &str) -> Vec<Result<Statement, TokenizeError>> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        tokenize_line(line, index + 1, &mut out);
    }
    out
}

fn tokenize_line(line: &str, line_no: usize, out: &mut Vec<Result<Statement, TokenizeError>>) {
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = line.char_indices().peekable();
    let mut current: Option<String> = None;
    let flush = |tokens: &mut Vec<String>, out: &mut Vec<Result<Statement, TokenizeError>>| {
        if !tokens.is_empty() {
            out.push(Ok(Statement { tokens: std::mem::take(tokens), line: line_no }));
        }
    };
    while let Some((pos, c)) = chars.next() {
        match c {
            '"' => {
                // A quoted token; it also ends any bare word it touches.
                let start = pos + 1;
                let mut end = None;
                for (p, c2) in chars.by_ref() {
                    if c2 == '"' {
                        end = Some(p);
                        break;
                    }
                }
                let Some(end) = end else {
                    out.push(Err(TokenizeError::UnbalancedQuote { line: line_no, column: pos + 1 }));
                    return;
                };
                let quoted = line.get(start..end).unwrap_or("");
                match current.as_mut() {
                    Some(word) => word.push_str(quoted),
                    None => current = Some(quoted.to_owned()),
                }
            }
            ';' => {
                if let Some(word) = current.take() {
                    tokens.push(word);
                }
                flush(&mut tokens, out);
            }
            '/' if chars.peek().map(|&(_, n)| n) == Some('/') => break,
            c if c.is_whitespace() => {
                if let Some(word) = current.take() {
                    tokens.push(word);
                }
            }
            c if c.is_control() => {
                // Control characters never reach a cvar value or a command name.
            }
            c => current.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(word) = current.take() {
        tokens.push(word);
    }
    flush(&mut tokens, out);
}

/// Quotes `value` for writing back into a config file so that [`tokenize`]
/// reads it as one token. Values never contain `"` (cvar validation refuses it).
pub fn quote(value: &str) -> String {
    format!("\"{value}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Vec<String>> {
        tokenize(text)
            .into_iter()
            .map(|s| s.map(|s| s.tokens).unwrap_or_else(|e| vec![format!("ERR {e}")]))
            .collect()
    }

    #[test]
    fn splits_words_and_statements() {
        assert_eq!(toks("set a 1; set b 2\necho hi"), vec![
            vec!["set", "a", "1"],
            vec!["set", "b", "2"],
            vec!["echo", "hi"]
        ]);
    }

    #[test]
    fn quotes_group_words_and_protect_separators() {
        assert_eq!(toks(r#"set motd "hello; world // not a comment""#), vec![vec![
            "set",
            "motd",
            "hello; world // not a comment"
        ]]);
        assert_eq!(toks(r#"set s """#), vec![vec!["set", "s", ""]]);
    }

    #[test]
    fn comments_run_to_end_of_line() {
        assert_eq!(toks("set a 1 // the a\n// whole line\nset b 2"), vec![
            vec!["set", "a", "1"],
            vec!["set", "b", "2"]
        ]);
        // A single slash is an ordinary character.
        assert_eq!(toks("exec cfg/a.cfg"), vec![vec!["exec", "cfg/a.cfg"]]);
    }

    #[test]
    fn unbalanced_quote_fails_that_statement_only() {
        let out = tokenize("set a 1\nset b \"oops\nset c 3");
        assert_eq!(out.len(), 3);
        assert!(out[0].is_ok());
        assert_eq!(out[1], Err(TokenizeError::UnbalancedQuote { line: 2, column: 7 }));
        assert_eq!(out[2].as_ref().map(|s| s.line), Ok(3));
    }

    #[test]
    fn blank_input_gives_nothing() {
        assert!(tokenize("  \n ; ;; \n// c").is_empty());
    }

    #[test]
    fn quote_round_trips() {
        let v = "a b; c // d";
        let out = tokenize(&format!("set x {}", quote(v)));
        assert_eq!(out[0].as_ref().map(|s| s.tokens[2].clone()), Ok(v.to_owned()));
    }

    #[test]
    fn statement_accessors() {
        let s = &tokenize("toggle a b")[0];
        let s = s.as_ref().expect("statement");
        assert_eq!(s.name(), "toggle");
        assert_eq!(s.args(), ["a".to_owned(), "b".to_owned()]);
    }
}
