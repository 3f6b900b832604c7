//! The messages of the admin and query services and their framing: on a
//! QUIC stream, each message is its length (u32, little-endian) and its
//! body, a kind byte then the fields in the crate's codec.

use crate::codec::{DecodeError, Reader, Writer};

/// The largest message body read (a command's output is split to fit).
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The longest admin command line.
pub const MAX_LINE: usize = 1024;
/// The longest admin name.
pub const MAX_NAME: usize = 32;
/// Output lines in one message at most.
pub const MAX_LINES: usize = 512;
/// Players listed in a query answer at most.
pub const MAX_QUERY_PLAYERS: usize = 256;

/// What an admin client sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminRequestMsg {
    /// The admin's name (answered with a challenge or a refusal).
    Hello {
        /// The name in the `admins` file.
        name: String,
    },
    /// The proof of holding the key for the challenge.
    Proof {
        /// HMAC-SHA256 (see [`super::auth::proof`]).
        proof: [u8; 32],
    },
    /// A console command to run.
    Command {
        /// The line, as typed at the server console.
        line: String,
    },
    /// Tab completion of a partial line.
    Complete {
        /// The partial line.
        line: String,
    },
}

/// What the admin service answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminReplyMsg {
    /// Prove you hold the key: bound to this nonce and this TLS session.
    Challenge {
        /// A fresh random nonce.
        nonce: [u8; 32],
    },
    /// Signed in.
    Welcome {
        /// The admin's name.
        name: String,
        /// Its role.
        role: String,
    },
    /// Refused (the connection closes after it).
    Refused {
        /// Why, for the admin to read.
        reason: String,
    },
    /// A command's output.
    Output {
        /// Its lines.
        lines: Vec<String>,
        /// Whether the command ran (false: refused for the role, unknown...).
        ok: bool,
    },
    /// Completions of a partial line.
    Completions {
        /// Whole lines the partial one may become.
        lines: Vec<String>,
    },
}

const HELLO: u8 = 1;
const PROOF: u8 = 2;
const COMMAND: u8 = 3;
const COMPLETE: u8 = 4;
const CHALLENGE: u8 = 11;
const WELCOME: u8 = 12;
const REFUSED: u8 = 13;
const OUTPUT: u8 = 14;
const COMPLETIONS: u8 = 15;

impl AdminRequestMsg {
    /// The message's body.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Self::Hello { name } => {
                w.u8(HELLO);
                w.str_max(name, MAX_NAME);
            }
            Self::Proof { proof } => {
                w.u8(PROOF);
                w.bytes(proof);
            }
            Self::Command { line } => {
                w.u8(COMMAND);
                w.str_max(line, MAX_LINE);
            }
            Self::Complete { line } => {
                w.u8(COMPLETE);
                w.str_max(line, MAX_LINE);
            }
        }
        w.into_inner()
    }

    /// A body back (every length checked).
    pub fn decode(body: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(body);
        let msg = match r.u8()? {
            HELLO => Self::Hello { name: r.str(MAX_NAME, "admin name")? },
            PROOF => Self::Proof { proof: fixed(&mut r)? },
            COMMAND => Self::Command { line: r.str(MAX_LINE, "command line")? },
            COMPLETE => Self::Complete { line: r.str(MAX_LINE, "command line")? },
            k => return Err(DecodeError::UnknownTag { what: "admin request", tag: u64::from(k) }),
        };
        r.finish()?;
        Ok(msg)
    }
}

impl AdminReplyMsg {
    /// The message's body.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Self::Challenge { nonce } => {
                w.u8(CHALLENGE);
                w.bytes(nonce);
            }
            Self::Welcome { name, role } => {
                w.u8(WELCOME);
                w.str_max(name, MAX_NAME);
                w.str_max(role, MAX_NAME);
            }
            Self::Refused { reason } => {
                w.u8(REFUSED);
                w.str_max(reason, MAX_LINE);
            }
            Self::Output { lines, ok } => {
                w.u8(OUTPUT);
                w.u8(u8::from(*ok));
                put_lines(&mut w, lines);
            }
            Self::Completions { lines } => {
                w.u8(COMPLETIONS);
                put_lines(&mut w, lines);
            }
        }
        w.into_inner()
    }

    /// A body back (every length checked).
    pub fn decode(body: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(body);
        let msg = match r.u8()? {
            CHALLENGE => Self::Challenge { nonce: fixed(&mut r)? },
            WELCOME => Self::Welcome { name: r.str(MAX_NAME, "admin name")?, role: r.str(MAX_NAME, "role")? },
            REFUSED => Self::Refused { reason: r.str(MAX_LINE, "reason")? },
            OUTPUT => {
                let ok = r.u8()? != 0;
                Self::Output { ok, lines: get_lines(&mut r)? }
            }
            COMPLETIONS => Self::Completions { lines: get_lines(&mut r)? },
            k => return Err(DecodeError::UnknownTag { what: "admin reply", tag: u64::from(k) }),
        };
        r.finish()?;
        Ok(msg)
    }
}

/// Lines, as many as fit a message (each at most [`MAX_LINE`] bytes).
fn put_lines(w: &mut Writer, lines: &[String]) {
    let mut room = MAX_MESSAGE - 16;
    let fit: Vec<&str> = lines
        .iter()
        .take(MAX_LINES)
        .map(|l| crate::codec::truncate(l, MAX_LINE))
        .take_while(|l| {
            let need = l.len() + 4;
            let fits = need <= room;
            room = room.saturating_sub(need);
            fits
        })
        .collect();
    w.varint(fit.len() as u64);
    for l in fit {
        w.str_max(l, MAX_LINE);
    }
}

fn get_lines(r: &mut Reader<'_>) -> Result<Vec<String>, DecodeError> {
    let n = r.count(MAX_LINES, "lines")?;
    (0..n).map(|_| r.str(MAX_LINE, "line")).collect()
}

fn fixed(r: &mut Reader<'_>) -> Result<[u8; 32], DecodeError> {
    let b = r.take(32)?;
    let mut out = [0; 32];
    out.copy_from_slice(b);
    Ok(out)
}

/// A frame: the body's length, then the body.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 4);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    out
}

/// Reads one frame's body from `stream`; `Ok(None)` at a clean end.
pub async fn read_frame(stream: &mut quinn::RecvStream) -> Result<Option<Vec<u8>>, String> {
    let mut len = [0u8; 4];
    match stream.read_exact(&mut len).await {
        Ok(()) => {}
        Err(quinn::ReadExactError::FinishedEarly(0)) => return Ok(None),
        Err(e) => return Err(e.to_string()),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_MESSAGE {
        return Err(format!("a message of {len} bytes (at most {MAX_MESSAGE})"));
    }
    let mut body = vec![0; len];
    stream.read_exact(&mut body).await.map_err(|e| e.to_string())?;
    Ok(Some(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        for m in [
            AdminRequestMsg::Hello { name: "ops".into() },
            AdminRequestMsg::Proof { proof: [7; 32] },
            AdminRequestMsg::Command { line: "kick 3".into() },
            AdminRequestMsg::Complete { line: "bot_".into() },
        ] {
            assert_eq!(AdminRequestMsg::decode(&m.encode()), Ok(m));
        }
        for m in [
            AdminReplyMsg::Challenge { nonce: [1; 32] },
            AdminReplyMsg::Welcome { name: "ops".into(), role: "operator".into() },
            AdminReplyMsg::Refused { reason: "no".into() },
            AdminReplyMsg::Output { lines: vec!["a".into(), "b".into()], ok: true },
            AdminReplyMsg::Completions { lines: vec!["bot_skill".into()] },
        ] {
            assert_eq!(AdminReplyMsg::decode(&m.encode()), Ok(m));
        }
    }

    #[test]
    fn bad_bodies_are_errors() {
        assert!(AdminRequestMsg::decode(&[]).is_err());
        assert!(AdminRequestMsg::decode(&[99]).is_err());
        assert!(AdminRequestMsg::decode(&[PROOF, 1, 2]).is_err(), "a short proof");
        let mut long = AdminRequestMsg::Command { line: "x".into() }.encode();
        long.push(0);
        assert!(AdminRequestMsg::decode(&long).is_err(), "trailing bytes");
    }

    #[test]
    fn output_fits_one_message() {
        let lines: Vec<String> = (0..5000).map(|i| format!("{i:0>200}")).collect();
        let body = AdminReplyMsg::Output { lines, ok: true }.encode();
        assert!(body.len() <= MAX_MESSAGE);
        let AdminReplyMsg::Output { lines, .. } = AdminReplyMsg::decode(&body).expect("decode") else { panic!("kind") };
        assert!(!lines.is_empty() && lines.len() <= MAX_LINES);
    }
}
