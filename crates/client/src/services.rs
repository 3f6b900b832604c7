//! `quarry-client query` and `quarry-client rcon`: the server query and
//! remote administration, over the server's own QUIC port and pinned
//! certificate.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::path::Path;

use quarry_net::service::client::{AdminSession, ServiceError};
use quarry_net::service::{AdminKey, QueryInfo};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use crate::Trust;

/// Asks `addr` who is playing what.
pub fn query(addr: SocketAddr, trust: Trust) -> Result<QueryInfo, ServiceError> {
    quarry_net::service::client::query(addr, trust.verification())
}

/// The query answer as text: the server, the match, then one line per player.
pub fn query_text(info: &QueryInfo) -> String {
    let limits: Vec<String> = info.limits.iter().filter(|(_, v)| v != "0").map(|(k, v)| format!("{k} {v}")).collect();
    let mut out = format!(
        "{} ({})\nmap {} ({}, {}), {} of {} players{}{}\n",
        info.hostname,
        info.version,
        info.map,
        info.gametype,
        info.phase,
        info.players.len(),
        info.max_players,
        if limits.is_empty() { String::new() } else { format!("; {}", limits.join(", ")) },
        if info.password { "; password" } else { "" }
    );
    for p in &info.players {
        let ping = if p.bot { "bot".to_owned() } else { format!("{} ms", p.ping_ms) };
        out.push_str(&format!("  {:<20} {:>5}  {:<9} {ping}\n", p.name, p.score, p.team));
    }
    out
}

/// The query answer as one JSON object.
pub fn query_json(info: &QueryInfo) -> String {
    let players: Vec<String> = info
        .players
        .iter()
        .map(|p| format!("{{\"name\":{},\"score\":{},\"ping_ms\":{},\"bot\":{},\"team\":{}}}", json_str(&p.name), p.score, p.ping_ms, p.bot, json_str(&p.team)))
        .collect();
    let limits: Vec<String> = info.limits.iter().map(|(k, v)| format!("{}:{}", json_str(k), json_str(v))).collect();
    format!(
        "{{\"hostname\":{},\"version\":{},\"map\":{},\"gametype\":{},\"phase\":{},\"limits\":{{{}}},\"max_players\":{},\"password\":{},\"players\":[{}]}}",
        json_str(&info.hostname),
        json_str(&info.version),
        json_str(&info.map),
        json_str(&info.gametype),
        json_str(&info.phase),
        limits.join(","),
        info.max_players,
        info.password,
        players.join(",")
    )
}

/// `s` as a JSON string.
pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Signs in to `addr` with the key file at `key`.
pub fn sign_in(addr: SocketAddr, trust: Trust, key: &Path) -> Result<AdminSession, String> {
    let key = AdminKey::read(key).map_err(|e| e.to_string())?;
    AdminSession::connect(addr, trust.verification(), &key).map_err(|e| e.to_string())
}

/// Completion by asking the server.
struct RemoteHelper<'a> {
    session: &'a RefCell<AdminSession>,
}

impl Completer for RemoteHelper<'_> {
    type Candidate = String;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        let before = line.get(..pos).unwrap_or(line);
        let whole = self.session.try_borrow_mut().ok().and_then(|mut s| s.complete(before).ok()).unwrap_or_default();
        Ok((0, whole))
    }
}

impl Hinter for RemoteHelper<'_> {
    type Hint = String;
}
impl Highlighter for RemoteHelper<'_> {}
impl Validator for RemoteHelper<'_> {}
impl Helper for RemoteHelper<'_> {}

/// An interactive remote console: history, the server's Tab completion,
/// each command's output printed; `quit` or Ctrl-D ends it (the server
/// keeps running). Returns whether every command ran.
pub fn interactive(session: AdminSession, mut print: impl FnMut(&str)) -> Result<bool, String> {
    let prompt = format!("{}@rcon> ", session.name);
    let session = RefCell::new(session);
    let config = rustyline::Config::builder().completion_type(rustyline::CompletionType::List).auto_add_history(true).build();
    let mut editor: Editor<RemoteHelper<'_>, DefaultHistory> = Editor::with_config(config).map_err(|e| e.to_string())?;
    editor.set_helper(Some(RemoteHelper { session: &session }));
    let mut all_ok = true;
    loop {
        match editor.readline(&prompt) {
            Ok(line) => {
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                if line == "quit" || line == "exit" {
                    break;
                }
                let (lines, ok) = session.borrow_mut().run(line).map_err(|e| e.to_string())?;
                all_ok &= ok;
                for l in lines {
                    print(&l);
                }
            }
            Err(ReadlineError::Interrupted | ReadlineError::Eof) => break,
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(all_ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_json_escapes_names() {
        let info = QueryInfo { hostname: "a\"b".into(), players: vec![quarry_net::service::QueryPlayer { name: "x\\y".into(), ..Default::default() }], ..Default::default() };
        let json = query_json(&info);
        assert!(json.contains(r#""hostname":"a\"b""#) && json.contains(r#""name":"x\\y""#), "{json}");
    }
}
