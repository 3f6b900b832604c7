//! The server crate's layers, checked on its source.
//!
//! The core (the tick, the console's commands, the network glue, the
//! binary's modes) owns `ServerState`; every other top-level module is a
//! feature (or a library the features share) and sees only the narrow view
//! it is handed (`feature.rs`, or an accessor registered with its
//! commands): it never names `ServerState` or the `server` module. The
//! modules import each other without a cycle, and no function grows past
//! what a reader takes in at once.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The core's top-level modules: everything else is a feature.
const CORE: [&str; 19] = [
    "lib", "main", "server", "state", "feature", "commands", "game", "game_data", "cli", "clock", "cvars", "headless", "stdin_console", "tick_stats",
    "logging", "archive_writer", "secrets", "network", "modes",
];

/// The longest function allowed, in lines.
const MAX_FN_LINES: usize = 80;

/// The longest the tick itself may be, in lines.
const MAX_TICK_LINES: usize = 40;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    assert!(files.len() > 50, "found only {} source files under {}", files.len(), src().display());
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(src()).unwrap_or(path).display().to_string()
}

/// The top-level module a file belongs to (`web/frame.rs` → `web`).
fn top_module(rel: &str) -> String {
    let first = rel.split('/').next().unwrap_or(rel);
    first.trim_end_matches(".rs").to_owned()
}

/// The code of a file without comment lines and without its unit tests
/// (the `#[cfg(test)]` module at the end of the file).
fn code(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

/// The top-level modules a line names through `crate::` (including the
/// `use crate::{a, b::c}` form).
fn named_modules(line: &str, out: &mut BTreeSet<String>) {
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
            continue;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
}

#[test]
fn features_never_see_the_server_state() {
    let mut found = Vec::new();
    for path in files() {
        let rel = relative(&path);
        let top = top_module(&rel);
        if CORE.contains(&top.as_str()) {
            continue;
        }
        for (line, text) in code(&path) {
            let mut modules = BTreeSet::new();
            named_modules(&text, &mut modules);
            let core_named = modules.iter().any(|m| m == "server" || m == "state");
            if text.contains("ServerState") || core_named {
                found.push(format!("{rel}:{line}: {}", text.trim()));
            }
        }
    }
    assert!(found.is_empty(), "feature modules name the server's state (take a view: feature.rs, or an accessor with the commands):\n{}", found.join("\n"));
}

#[test]
fn the_modules_import_each_other_without_a_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in files() {
        let rel = relative(&path);
        let top = top_module(&rel);
        let mut named = BTreeSet::new();
        for (_, text) in code(&path) {
            named_modules(&text, &mut named);
        }
        named.remove(&top);
        // lib.rs declares every module: the root, not an edge of the graph.
        if top == "lib" {
            continue;
        }
        graph.entry(top).or_default().extend(named);
    }
    assert!(graph.len() > 20, "found only {} modules", graph.len());
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut cycles = Vec::new();
    fn visit<'a>(node: &'a str, graph: &'a BTreeMap<String, BTreeSet<String>>, state: &mut BTreeMap<&'a str, u8>, path: &mut Vec<&'a str>, cycles: &mut Vec<String>) {
        match state.get(node) {
            Some(2) => return,
            Some(1) => {
                let from = path.iter().position(|n| *n == node).unwrap_or(0);
                let mut cycle: Vec<&str> = path[from..].to_vec();
                cycle.push(node);
                cycles.push(cycle.join(" -> "));
                return;
            }
            _ => {}
        }
        state.insert(node, 1);
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, state, path, cycles);
        }
        path.pop();
        state.insert(node, 2);
    }
    for node in graph.keys() {
        visit(node, &graph, &mut state, &mut Vec::new(), &mut cycles);
    }
    assert!(cycles.is_empty(), "the server crate's modules import each other in a cycle:\n{}", cycles.join("\n"));
}

/// Every function in the crate's source: file, name, first line, length.
fn functions() -> Vec<(String, String, usize, usize)> {
    let mut out = Vec::new();
    for path in files() {
        let rel = relative(&path);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let signature = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn ", "async fn ", "pub async fn ", "const fn ", "pub const fn "].iter().find_map(|p| trimmed.strip_prefix(p));
            let Some(rest) = signature else { continue };
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let indent = &line[..line.len() - trimmed.len()];
            // The body ends at the first `}` at the signature's indentation.
            let end = lines.iter().enumerate().skip(i).find(|(_, l)| l.strip_prefix(indent).is_some_and(|r| r.starts_with('}'))).map(|(j, _)| j);
            if let Some(end) = end {
                out.push((rel.clone(), name, i + 1, end - i + 1));
            }
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_a_reader_takes_in() {
    let long: Vec<String> = functions().into_iter().filter(|f| f.3 > MAX_FN_LINES).map(|(file, name, line, len)| format!("{file}:{line}: fn {name}: {len} lines")).collect();
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines (split them into named steps):\n{}", long.join("\n"));
}

#[test]
fn the_tick_reads_as_a_list_of_steps() {
    let tick: Vec<_> = functions().into_iter().filter(|f| f.0 == "server/tick.rs" && f.1 == "tick").collect();
    assert_eq!(tick.len(), 1, "one Server::tick in server/tick.rs");
    assert!(tick[0].3 <= MAX_TICK_LINES, "Server::tick is {} lines; at most {MAX_TICK_LINES}", tick[0].3);
}
