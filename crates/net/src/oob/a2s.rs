//! Source's A2S queries (Valve's "Server queries" page), which generic
//! monitors speak (qstat `-a2s`, gamedig `valve`). Every datagram begins
//! with [`super::PREFIX`]; integers are little-endian; strings end in NUL.
//!
//! ```text
//! A2S_INFO     -> 54 "Source Engine Query\0" [challenge i32]
//!              <- 49 protocol:u8 name\0 map\0 folder\0 game\0 appid:u16
//!                    players:u8 max:u8 bots:u8 type:u8 env:u8 visibility:u8
//!                    vac:u8 version\0 edf:u8 [port:u16 if edf&80] [keywords\0 if edf&20]
//! A2S_PLAYER   -> 55 challenge:i32          (FF FF FF FF asks for one)
//!              <- 41 challenge:i32          (S2C_CHALLENGE), or
//!              <- 44 count:u8 (index:u8 name\0 score:i32 seconds:f32)*
//! A2S_RULES    -> 56 challenge:i32
//!              <- 41 challenge:i32, or
//!              <- 45 count:u16 (name\0 value\0)*
//! ```
//!
//! `players` counts humans and bots, `bots` the bots, as A2S defines them
//! (a monitor shows humans as the difference). A2S_INFO is answered at
//! once, as small as `getinfo`'s answer; the player list and the rules are
//! larger, so they go only to an address that echoed a challenge (the
//! challenge round trip Valve added in 2020), which a spoofed source never
//! sees.

use super::info::{GAME_NAME, MAX_LISTED_PLAYERS, OobInfo};
use super::{MAX_ANSWER, OobError, PREFIX};

/// `A2S_INFO`'s request byte.
pub const INFO: u8 = 0x54;
/// `A2S_PLAYER`'s request byte.
pub const PLAYER: u8 = 0x55;
/// `A2S_RULES`'s request byte.
pub const RULES: u8 = 0x56;
/// `S2C_CHALLENGE`'s answer byte.
pub const CHALLENGE: u8 = 0x41;
/// What `A2S_INFO`'s request says after its byte.
pub const INFO_PAYLOAD: &[u8] = b"Source Engine Query\0";

/// An A2S request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A2sRequest {
    /// `A2S_INFO` (a challenge, if any, is ignored: the answer is small).
    Info,
    /// `A2S_PLAYER` with the challenge it carries.
    Players(u32),
    /// `A2S_RULES` with the challenge it carries.
    Rules(u32),
}

/// Reads an A2S request from the bytes after the prefix; `Ok(None)` when
/// the first byte is no A2S request.
pub fn parse_request(body: &[u8]) -> Result<Option<A2sRequest>, OobError> {
    let Some((&kind, rest)) = body.split_first() else { return Err(OobError::Malformed("empty")) };
    let challenge = |rest: &[u8]| -> Result<u32, OobError> {
        let bytes: [u8; 4] = rest.try_into().map_err(|_| OobError::Malformed("a2s challenge"))?;
        Ok(u32::from_le_bytes(bytes))
    };
    match kind {
        INFO => {
            let tail = rest.strip_prefix(INFO_PAYLOAD).ok_or(OobError::Malformed("a2s info payload"))?;
            if tail.is_empty() || tail.len() == 4 { Ok(Some(A2sRequest::Info)) } else { Err(OobError::Malformed("a2s info length")) }
        }
        PLAYER => Ok(Some(A2sRequest::Players(challenge(rest)?))),
        RULES => Ok(Some(A2sRequest::Rules(challenge(rest)?))),
        _ => Ok(None),
    }
}

fn cstr(out: &mut Vec<u8>, s: &str, max: usize) {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.extend(s.as_bytes()[..end].iter().map(|&b| if b == 0 { b'_' } else { b }));
    out.push(0);
}

fn clamp_u8(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// The whole `A2S_INFO` answer.
pub(crate) fn info_answer(info: &OobInfo, port: u16) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.push(0x49);
    out.push(17); // the protocol version Source servers report
    cstr(&mut out, &info.hostname, 128);
    cstr(&mut out, &info.map, 64);
    cstr(&mut out, "quarry", 32);
    cstr(&mut out, GAME_NAME, 32);
    out.extend_from_slice(&0u16.to_le_bytes()); // no Steam app id
    out.push(clamp_u8(info.players.len()));
    out.push(clamp_u8(info.max_clients as usize));
    out.push(clamp_u8(info.bots()));
    out.push(b'd'); // dedicated
    out.push(match std::env::consts::OS {
        "windows" => b'w',
        "macos" => b'm',
        _ => b'l',
    });
    out.push(u8::from(info.needpass));
    out.push(0); // no VAC
    cstr(&mut out, &info.version, 64);
    out.push(0x80 | 0x20); // the port and keywords follow
    out.extend_from_slice(&port.to_le_bytes());
    cstr(&mut out, &format!("{},protocol={}", info.gametype, info.protocol), 128);
    out.truncate(MAX_ANSWER);
    out
}

/// The whole `A2S_PLAYER` answer: humans first, as many as fit.
pub(crate) fn players_answer(info: &OobInfo) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.push(0x44);
    out.push(0);
    let ordered = info.players.iter().filter(|p| !p.bot).chain(info.players.iter().filter(|p| p.bot));
    let mut count = 0u8;
    for (i, p) in ordered.take(MAX_LISTED_PLAYERS).enumerate() {
        let mut entry = vec![clamp_u8(i)];
        cstr(&mut entry, &p.name, 48);
        entry.extend_from_slice(&p.score.to_le_bytes());
        entry.extend_from_slice(&p.seconds.to_le_bytes());
        if out.len() + entry.len() > MAX_ANSWER {
            break;
        }
        out.extend_from_slice(&entry);
        count += 1;
    }
    out[PREFIX.len() + 1] = count;
    out
}

/// The whole `A2S_RULES` answer.
pub(crate) fn rules_answer(info: &OobInfo) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.push(0x45);
    out.extend_from_slice(&[0, 0]);
    let mut rules: Vec<(String, String)> = vec![
        ("gametype".into(), info.gametype.clone()),
        ("protocol".into(), info.protocol.to_string()),
        ("bots".into(), info.bots().to_string()),
        ("humans".into(), info.humans().to_string()),
        ("fingerprint".into(), info.fingerprint.clone()),
        ("alpn".into(), info.alpn.clone()),
    ];
    rules.extend(info.rules.iter().take(32).cloned());
    let mut count = 0u16;
    for (k, v) in &rules {
        let mut entry = Vec::new();
        cstr(&mut entry, k, 64);
        cstr(&mut entry, v, 128);
        if out.len() + entry.len() > MAX_ANSWER {
            break;
        }
        out.extend_from_slice(&entry);
        count += 1;
    }
    out[PREFIX.len() + 1..PREFIX.len() + 3].copy_from_slice(&count.to_le_bytes());
    out
}

/// The `S2C_CHALLENGE` answer: as long as the request it answers.
pub(crate) fn challenge_answer(challenge: u32) -> Vec<u8> {
    let mut out = PREFIX.to_vec();
    out.push(CHALLENGE);
    out.extend_from_slice(&challenge.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oob::info::OobPlayer;

    fn sample() -> OobInfo {
        OobInfo {
            hostname: "Quarry".into(),
            map: "q_dm1".into(),
            gametype: "ffa".into(),
            version: "0.1".into(),
            protocol: 6,
            max_clients: 8,
            players: vec![OobPlayer { name: "Wren".into(), bot: true, ..OobPlayer::default() }, OobPlayer { name: "Ann".into(), score: 2, ping_ms: 30, ..OobPlayer::default() }],
            ..OobInfo::default()
        }
    }

    #[test]
    fn requests_parse() {
        let mut info = vec![INFO];
        info.extend_from_slice(INFO_PAYLOAD);
        assert_eq!(parse_request(&info), Ok(Some(A2sRequest::Info)));
        info.extend_from_slice(&[1, 2, 3, 4]);
        assert_eq!(parse_request(&info), Ok(Some(A2sRequest::Info)));
        assert_eq!(parse_request(&[PLAYER, 0xFF, 0xFF, 0xFF, 0xFF]), Ok(Some(A2sRequest::Players(u32::MAX))));
        assert_eq!(parse_request(&[RULES, 1, 0, 0, 0]), Ok(Some(A2sRequest::Rules(1))));
        assert!(parse_request(&[PLAYER, 1, 2]).is_err(), "truncated");
        assert!(parse_request(&[INFO, b'x']).is_err());
        assert_eq!(parse_request(&[0x99]), Ok(None));
    }

    #[test]
    fn info_reports_players_and_bots_as_a2s_defines() {
        let a = info_answer(&sample(), 27960);
        assert_eq!(a[4], 0x49);
        // After the four strings and the app id: players, max, bots.
        let mut at = 6;
        for _ in 0..4 {
            at += a[at..].iter().position(|&b| b == 0).expect("nul") + 1;
        }
        at += 2;
        assert_eq!(&a[at..at + 3], &[2, 8, 1]);
    }

    #[test]
    fn players_humans_first_and_rules_counted() {
        let p = players_answer(&sample());
        assert_eq!(p[5], 2);
        assert_eq!(&p[6..10], b"\0Ann");
        let r = rules_answer(&sample());
        assert_eq!(u16::from_le_bytes([r[5], r[6]]), 6);
        assert_eq!(challenge_answer(7).len(), 9);
    }
}
