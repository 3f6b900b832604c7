//! Where an error the engine raised without a place happened, as near as
//! can be known. Rhai passes its limit errors (a stack overflow, a string,
//! array or map over its size, too many variables) and a stopped call out
//! through every function without wrapping them, and each function's exit
//! overwrites their position with the place it was called from, so they
//! reach the host with none. The nearest place known is the last call the
//! script made to the bot API (every API call notes its position in the
//! host state); without one, the entry point itself.

use std::sync::Arc;

use crate::script::engine::Source;

/// A place in a brain's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    /// The file.
    pub(super) file: String,
    /// Line, from 1.
    pub(super) line: usize,
    /// Column, from 1.
    pub(super) column: usize,
    /// What the place is, for the message.
    pub(super) what: String,
}

/// The place for an error without one in a call to `entry`: the API call
/// at `site` (line, column) if one of `files` (the brain first) has a
/// call there, else where `entry` is defined.
pub(super) fn near(files: &[Arc<Source>], site: Option<(usize, usize)>, entry: &str) -> Option<Place> {
    if let Some((line, column)) = site {
        for f in files {
            if let Some(called) = call_at(&f.text, line, column) {
                let inside = enclosing_fn(&f.text, line).map_or_else(String::new, |n| format!(" in {n}()"));
                return Some(Place {
                    file: f.name.clone(),
                    line,
                    column,
                    what: format!("the engine gives no place; this is the last bot API call before it, {called}(){inside}"),
                });
            }
        }
    }
    files.iter().find_map(|f| {
        let (line, column) = fn_definition(&f.text, entry)?;
        Some(Place { file: f.name.clone(), line, column, what: format!("the engine gives no place: in {entry}() or a function it calls") })
    })
}

/// The function name called at `line`, `column` (from 1, in characters)
/// of `text`: an identifier there followed by `(`.
fn call_at(text: &str, line: usize, column: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    let rest: String = l.chars().skip(column.checked_sub(1)?).collect();
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    let after = rest[name.len()..].trim_start();
    (!name.is_empty() && after.starts_with('(')).then_some(name)
}

/// The function whose definition is the last one at or above `line`.
fn enclosing_fn(text: &str, line: usize) -> Option<String> {
    text.lines().take(line).filter_map(fn_name).last()
}

/// Line and column (from 1) of `fn NAME(` in `text`.
fn fn_definition(text: &str, name: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(i, l)| {
        (fn_name(l).as_deref() == Some(name)).then(|| (i + 1, l.chars().take_while(|c| c.is_whitespace()).count() + 1))
    })
}

/// The name a line defines, if it starts `fn NAME(` or `private fn NAME(`.
fn fn_name(line: &str) -> Option<String> {
    let l = line.trim_start();
    let l = l.strip_prefix("private").map_or(l, str::trim_start);
    let rest = l.strip_prefix("fn")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let name: String = rest.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<Arc<Source>> {
        let brain = "fn on_tick(dt) {\n    helper(me());\n}\n";
        let lib = "// lib\nfn helper(x) {\n    let y = 1;\n    look_at(x.origin);\n}\n";
        vec![
            Arc::new(Source { name: "brains/b.rhai".into(), text: brain.into() }),
            Arc::new(Source { name: "brains/lib/l.rhai".into(), text: lib.into() }),
        ]
    }

    #[test]
    fn the_last_api_call_is_found_in_its_file_and_function() {
        let p = near(&files(), Some((4, 5)), "on_tick").expect("a place");
        assert_eq!((p.file.as_str(), p.line, p.column), ("brains/lib/l.rhai", 4, 5));
        assert!(p.what.ends_with("look_at() in helper()"), "{}", p.what);
        let p = near(&files(), Some((2, 12)), "on_tick").expect("a place");
        assert_eq!((p.file.as_str(), p.line, p.column), ("brains/b.rhai", 2, 12));
        assert!(p.what.ends_with("me() in on_tick()"), "{}", p.what);
    }

    #[test]
    fn without_an_api_call_the_entry_point_is_the_place() {
        let p = near(&files(), None, "on_tick").expect("a place");
        assert_eq!((p.file.as_str(), p.line, p.column), ("brains/b.rhai", 1, 1));
        assert!(p.what.contains("in on_tick() or a function it calls"), "{}", p.what);
        // A site no file has a call at falls back the same way.
        let p = near(&files(), Some((3, 5)), "on_tick").expect("a place");
        assert_eq!((p.line, p.column), (1, 1));
        assert_eq!(near(&files(), None, "on_event"), None);
    }

    #[test]
    fn function_definitions_are_recognised() {
        assert_eq!(fn_name("  private fn go_to(p) {").as_deref(), Some("go_to"));
        assert_eq!(fn_name("fn on_tick(dt) {").as_deref(), Some("on_tick"));
        assert_eq!(fn_name("fnord(1);"), None);
        assert_eq!(fn_name("// fn x()"), None);
    }
}
