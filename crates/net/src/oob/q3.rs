//! The Quake 3 / DarkPlaces connectionless messages, as dpmaster's
//! `doc/techinfo.txt` and ioquake3's `sv_main.c` define them. Every one is a
//! UDP datagram that begins with four `0xFF` bytes ([`super::PREFIX`]):
//!
//! ```text
//! server -> master   FF FF FF FF "heartbeat DarkPlaces\n"
//! master -> server   FF FF FF FF "getinfo CHALLENGE"
//! server -> master   FF FF FF FF "infoResponse\n" "\k\v\k\v..."   (challenge echoed)
//! anyone -> server   FF FF FF FF "getstatus [CHALLENGE]"
//! server -> anyone   FF FF FF FF "statusResponse\n" "\k\v..." "\n" ("SCORE PING \"NAME\"\n")*
//! client -> master   FF FF FF FF "getserversExt Quarry PROTOCOL ipv4 ipv6"
//! master -> client   FF FF FF FF "getserversExtResponse" ("\" 4-byte IPv4 2-byte port | "/" 16-byte IPv6 2-byte port)* ["\EOT\0\0\0"]
//! ```
//!
//! Infostring keys and values may not hold `\`, `"`, `;` or control
//! characters (a value with them would split or end the string); they are
//! replaced with `_` here. Ports and addresses in a server list are
//! big-endian.

use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use super::info::{GAME_NAME, MAX_LISTED_PLAYERS, OobInfo};
use super::{MAX_ANSWER, OobError, PREFIX};

/// The heartbeat's protocol word (DarkPlaces masters want it; dpmaster
/// then asks `getinfo` back).
pub const HEARTBEAT_PROTOCOL: &str = "DarkPlaces";

/// The longest challenge a `getinfo`/`getstatus` may carry (dpmaster's are
/// about a dozen characters; ioquake3 keeps 127).
pub const MAX_CHALLENGE: usize = 64;

/// A Quake 3 query the server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Q3Request<'a> {
    /// `getinfo [CHALLENGE]`: the short infostring.
    GetInfo {
        /// The challenge to echo (`""` when none was given).
        challenge: &'a str,
    },
    /// `getstatus [CHALLENGE]`: the rules and every player.
    GetStatus {
        /// The challenge to echo (`""` when none was given).
        challenge: &'a str,
    },
}

/// Reads a Quake 3 request from the bytes after the prefix; `Ok(None)` when
/// the word is no Quake 3 request the server answers.
pub fn parse_request(body: &[u8]) -> Result<Option<Q3Request<'_>>, OobError> {
    // A command line: the word, then at most one argument; a trailing
    // newline or NUL is what some tools add.
    let line = body.strip_suffix(b"\0").unwrap_or(body);
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let Ok(line) = std::str::from_utf8(line) else { return Err(OobError::NotText) };
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let challenge = rest.trim();
    let make: fn(&str) -> Q3Request<'_> = match word {
        "getinfo" => |c| Q3Request::GetInfo { challenge: c },
        "getstatus" => |c| Q3Request::GetStatus { challenge: c },
        _ => return Ok(None),
    };
    if challenge.len() > MAX_CHALLENGE || !challenge.bytes().all(challenge_byte) {
        return Err(OobError::BadChallenge);
    }
    Ok(Some(make(challenge)))
}

/// dpmaster's rule: ASCII 33 to 126 but `\ / ; " %`.
fn challenge_byte(b: u8) -> bool {
    (33..=126).contains(&b) && !matches!(b, b'\\' | b'/' | b';' | b'"' | b'%')
}

/// `s` made safe for an infostring: no `\`, `"`, `;` or control characters,
/// at most `max` bytes.
pub fn clean(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max));
    for c in s.chars() {
        let c = if c == '\\' || c == '"' || c == ';' || c.is_control() { '_' } else { c };
        if out.len() + c.len_utf8() > max {
            break;
        }
        out.push(c);
    }
    out
}

fn push_pair(out: &mut String, key: &str, value: &str) {
    out.push('\\');
    out.push_str(key);
    out.push('\\');
    out.push_str(&clean(value, 128));
}

/// The `getinfo` infostring, without the challenge: what a master keeps
/// and a browser lists. `clients` counts humans only; `bots` apart.
pub(crate) fn info_string(info: &OobInfo) -> String {
    let mut s = String::new();
    push_pair(&mut s, "gamename", GAME_NAME);
    push_pair(&mut s, "protocol", &info.protocol.to_string());
    push_pair(&mut s, "hostname", &info.hostname);
    push_pair(&mut s, "mapname", &info.map);
    push_pair(&mut s, "gametype", &info.gametype.replace(' ', "_"));
    push_pair(&mut s, "sv_maxclients", &info.max_clients.max(1).to_string());
    push_pair(&mut s, "clients", &info.humans().to_string());
    push_pair(&mut s, "g_humanplayers", &info.humans().to_string());
    push_pair(&mut s, "bots", &info.bots().to_string());
    push_pair(&mut s, "g_needpass", if info.needpass { "1" } else { "0" });
    push_pair(&mut s, "alpn", &info.alpn);
    push_pair(&mut s, "fingerprint", &info.fingerprint);
    s
}

/// The `getstatus` infostring, without the challenge: the info keys, the
/// version and the match's rules.
pub(crate) fn status_string(info: &OobInfo) -> String {
    let mut s = info_string(info);
    push_pair(&mut s, "version", &info.version);
    for (k, v) in info.rules.iter().take(32) {
        push_pair(&mut s, &clean(k, 32).replace(' ', "_"), v);
    }
    s
}

/// The `getstatus` player lines: humans first, then bots (ping 0).
pub(crate) fn status_players(info: &OobInfo) -> String {
    let mut s = String::new();
    let ordered = info.players.iter().filter(|p| !p.bot).chain(info.players.iter().filter(|p| p.bot));
    for p in ordered.take(MAX_LISTED_PLAYERS) {
        let ping = if p.bot { 0 } else { p.ping_ms.max(1) };
        let _ = writeln!(s, "{} {} \"{}\"", p.score, ping, clean(&p.name, 48));
    }
    s
}

fn with_challenge(base: &str, challenge: &str) -> String {
    if challenge.is_empty() {
        base.to_owned()
    } else {
        format!("{base}\\challenge\\{challenge}")
    }
}

/// The whole `infoResponse` datagram.
pub(crate) fn info_response(infostring: &str, challenge: &str) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.extend_from_slice(b"infoResponse\n");
    out.extend_from_slice(with_challenge(infostring, challenge).as_bytes());
    out.truncate(MAX_ANSWER);
    out
}

/// The whole `statusResponse` datagram; player lines that would not fit
/// in one datagram are left out, whole.
pub(crate) fn status_response(status: &str, players: &str, challenge: &str) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.extend_from_slice(b"statusResponse\n");
    out.extend_from_slice(with_challenge(status, challenge).as_bytes());
    out.truncate(MAX_ANSWER - 1);
    out.push(b'\n');
    for line in players.split_inclusive('\n') {
        if out.len() + line.len() > MAX_ANSWER {
            break;
        }
        out.extend_from_slice(line.as_bytes());
    }
    out
}

/// The heartbeat datagram.
pub fn heartbeat() -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.extend_from_slice(format!("heartbeat {HEARTBEAT_PROTOCOL}\n").as_bytes());
    out
}

/// The request a browser sends a master: Quarry servers of `protocol`, of
/// both address families, empty and full ones too.
pub fn getservers_ext(protocol: u32) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.extend_from_slice(format!("getserversExt {GAME_NAME} {protocol} empty full ipv4 ipv6").as_bytes());
    out
}

/// The request a browser sends a server.
pub fn getinfo(challenge: &str) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.extend_from_slice(format!("getinfo {challenge}").as_bytes());
    out
}

/// One `getserversExtResponse` (or `getserversResponse`) read: the servers
/// it lists and whether it was the last (it ended with `EOT`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServerList {
    /// The servers, in the master's order.
    pub servers: Vec<SocketAddr>,
    /// Whether the list ended here.
    pub last: bool,
}

/// Reads a master's server list datagram (prefix included).
pub fn parse_server_list(datagram: &[u8]) -> Result<ServerList, OobError> {
    let body = datagram.strip_prefix(&PREFIX).ok_or(OobError::NoPrefix)?;
    let mut rest = body
        .strip_prefix(b"getserversExtResponse")
        .or_else(|| body.strip_prefix(b"getserversResponse"))
        .ok_or(OobError::Unknown)?;
    let mut list = ServerList::default();
    while let Some((&mark, tail)) = rest.split_first() {
        let len = match mark {
            b'\\' => 4,
            b'/' => 16,
            _ => return Err(OobError::Malformed("server list entry")),
        };
        if mark == b'\\' && tail.starts_with(b"EOT") {
            list.last = true;
            break;
        }
        let (entry, more) = tail.split_at_checked(len + 2).ok_or(OobError::Malformed("truncated server list"))?;
        let (ip, port) = entry.split_at(len);
        let port = u16::from_be_bytes([port[0], port[1]]);
        let ip = match <[u8; 4]>::try_from(ip) {
            Ok(v4) => IpAddr::V4(Ipv4Addr::from(v4)),
            Err(_) => IpAddr::V6(Ipv6Addr::from(<[u8; 16]>::try_from(ip).map_err(|_| OobError::Malformed("address"))?)),
        };
        if port != 0 && !ip.is_unspecified() {
            list.servers.push(SocketAddr::new(ip, port));
        }
        rest = more;
    }
    Ok(list)
}

/// Reads an `infoResponse` (prefix included) into its key-value pairs.
pub fn parse_info_response(datagram: &[u8]) -> Result<Vec<(String, String)>, OobError> {
    let body = datagram.strip_prefix(&PREFIX).ok_or(OobError::NoPrefix)?;
    let text = body.strip_prefix(b"infoResponse\n").ok_or(OobError::Unknown)?;
    let text = std::str::from_utf8(text).map_err(|_| OobError::NotText)?;
    parse_infostring(text)
}

/// Splits `\k\v\k\v` into pairs.
pub fn parse_infostring(text: &str) -> Result<Vec<(String, String)>, OobError> {
    let text = text.trim_end_matches(['\n', '\0']);
    let Some(text) = text.strip_prefix('\\') else {
        return if text.is_empty() { Ok(Vec::new()) } else { Err(OobError::Malformed("infostring")) };
    };
    let parts: Vec<&str> = text.split('\\').collect();
    if !parts.len().is_multiple_of(2) || parts.len() > 2 * 128 {
        return Err(OobError::Malformed("infostring"));
    }
    Ok(parts.chunks_exact(2).map(|kv| (kv[0].to_owned(), kv[1].to_owned())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oob::info::OobPlayer;

    fn sample() -> OobInfo {
        OobInfo {
            hostname: "My \\bad\" host;".into(),
            map: "q_dm1".into(),
            gametype: "ffa".into(),
            version: "quarry-server 0.1".into(),
            protocol: 6,
            max_clients: 16,
            needpass: false,
            fingerprint: "AB:CD".into(),
            alpn: "quarry/1".into(),
            players: vec![
                OobPlayer { name: "Wren".into(), score: 3, ping_ms: 0, bot: true, seconds: 1.0 },
                OobPlayer { name: "Ann\"\n".into(), score: 5, ping_ms: 40, bot: false, seconds: 2.0 },
            ],
            rules: vec![("fraglimit".into(), "20".into())],
        }
    }

    #[test]
    fn requests_parse_and_challenges_are_checked() {
        assert_eq!(parse_request(b"getinfo abc"), Ok(Some(Q3Request::GetInfo { challenge: "abc" })));
        assert_eq!(parse_request(b"getstatus"), Ok(Some(Q3Request::GetStatus { challenge: "" })));
        assert_eq!(parse_request(b"getstatus xyz\n"), Ok(Some(Q3Request::GetStatus { challenge: "xyz" })));
        assert_eq!(parse_request(b"getinfo a\\b"), Err(OobError::BadChallenge));
        assert_eq!(parse_request(&[b'g', 0xC0]), Err(OobError::NotText));
        assert_eq!(parse_request(b"getchallenge"), Ok(None));
        assert!(parse_request(format!("getinfo {}", "x".repeat(MAX_CHALLENGE + 1)).as_bytes()).is_err());
    }

    #[test]
    fn info_counts_humans_and_bots_apart_and_cleans_values() {
        let info = sample();
        let reply = info_response(&info_string(&info), "ch4l");
        let pairs = parse_info_response(&reply).expect("parses");
        let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        assert_eq!(get("clients"), Some("1"));
        assert_eq!(get("bots"), Some("1"));
        assert_eq!(get("challenge"), Some("ch4l"));
        assert_eq!(get("gamename"), Some("Quarry"));
        assert_eq!(get("hostname"), Some("My _bad_ host_"));
        assert_eq!(get("sv_maxclients"), Some("16"));
    }

    #[test]
    fn status_lists_humans_then_bots_within_one_datagram() {
        let mut info = sample();
        let reply = status_response(&status_string(&info), &status_players(&info), "");
        let text = String::from_utf8(reply[PREFIX.len()..].to_vec()).expect("text");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "statusResponse");
        assert_eq!(&lines[2..], ["5 40 \"Ann__\"", "3 0 \"Wren\""]);
        info.players = (0..200).map(|i| OobPlayer { name: format!("{i:-<40}"), ..OobPlayer::default() }).collect();
        let big = status_response(&status_string(&info), &status_players(&info), "c");
        assert!(big.len() <= MAX_ANSWER, "{}", big.len());
        assert!(big.ends_with(b"\"\n"), "whole lines only");
    }

    #[test]
    fn server_lists_read_both_families_and_the_end() {
        let mut d = PREFIX.to_vec();
        d.extend_from_slice(b"getserversExtResponse\\");
        d.extend_from_slice(&[127, 0, 0, 1, 0x6d, 0x38]);
        d.push(b'/');
        d.extend_from_slice(&Ipv6Addr::LOCALHOST.octets());
        d.extend_from_slice(&[0x6d, 0x39]);
        d.extend_from_slice(b"\\EOT\0\0\0");
        let list = parse_server_list(&d).expect("parses");
        assert_eq!(list.servers, vec!["127.0.0.1:27960".parse().expect("addr"), "[::1]:27961".parse().expect("addr")]);
        assert!(list.last);
        assert!(parse_server_list(&d[..d.len() - 12]).is_err(), "cut inside an entry");
    }
}
