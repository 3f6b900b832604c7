//! Encoding of control-stream frames and disconnect reasons.

use super::*;

const C_HELLO: u8 = 1;
const C_CHAT: u8 = 16;
const C_COMMAND: u8 = 17;
const C_USERINFO: u8 = 18;
const C_MAP_LOADED: u8 = 19;
const C_QUIT: u8 = 20;
const C_MAP_REQUEST: u8 = 21;

const S_WELCOME: u8 = 2;
const S_REJECT: u8 = 3;
const S_CHAT: u8 = 16;
const S_PRINT: u8 = 17;
const S_SCOREBOARD: u8 = 18;
const S_MAP_CHANGE: u8 = 19;
const S_CONFIG_STRING: u8 = 20;
const S_CONSOLE: u8 = 21;
const S_DISCONNECT: u8 = 22;
const S_MODE: u8 = 23;
const S_MAP_CHUNK: u8 = 24;
const S_MAP_REFUSED: u8 = 25;

fn write_scope(w: &mut Writer, s: ChatScope) {
    match s {
        ChatScope::All => w.u8(0),
        ChatScope::Team => w.u8(1),
        ChatScope::Private(slot) => {
            w.u8(2);
            w.u8(slot);
        }
    }
}

fn read_scope(r: &mut Reader<'_>) -> Result<ChatScope, DecodeError> {
    Ok(match r.u8()? {
        0 => ChatScope::All,
        1 => ChatScope::Team,
        2 => ChatScope::Private(r.u8()?),
        t => return Err(DecodeError::UnknownTag { what: "chat scope", tag: u64::from(t) }),
    })
}

impl DisconnectReason {
    /// Appends the reason.
    ///
    /// ```text
    /// u8   tag     0 quit, 1 timeout, 2 kicked, 3 rejected, 4 shutting down,
    ///              5 misbehaving, 6 connection lost
    /// str  text    tags 2, 5, 6 (<= MAX_SHORT_TEXT)
    /// reject       tag 3: RejectReason::encode
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        match self {
            Self::Quit => w.u8(0),
            Self::Timeout => w.u8(1),
            Self::Kicked(t) => {
                w.u8(2);
                w.str_max(t, MAX_SHORT_TEXT);
            }
            Self::Rejected(r) => {
                w.u8(3);
                r.encode(w);
            }
            Self::ServerShuttingDown => w.u8(4),
            Self::Misbehaving(t) => {
                w.u8(5);
                w.str_max(t, MAX_SHORT_TEXT);
            }
            Self::ConnectionLost(t) => {
                w.u8(6);
                w.str_max(t, MAX_SHORT_TEXT);
            }
        }
    }

    /// Reads a reason.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match r.u8()? {
            0 => Self::Quit,
            1 => Self::Timeout,
            2 => Self::Kicked(r.str(MAX_SHORT_TEXT, "kick text")?),
            3 => Self::Rejected(RejectReason::decode(r)?),
            4 => Self::ServerShuttingDown,
            5 => Self::Misbehaving(r.str(MAX_SHORT_TEXT, "reason text")?),
            6 => Self::ConnectionLost(r.str(MAX_SHORT_TEXT, "reason text")?),
            t => return Err(DecodeError::UnknownTag { what: "disconnect reason", tag: u64::from(t) }),
        })
    }

    /// The QUIC application close code for this reason (the reason bytes
    /// carry the details; the code lets other tools tell them apart).
    pub fn close_code(&self) -> u32 {
        match self {
            Self::Quit => 0,
            Self::Kicked(_) => 1,
            Self::ServerShuttingDown => 2,
            Self::Misbehaving(_) => 3,
            Self::Rejected(_) => 4,
            Self::Timeout | Self::ConnectionLost(_) => 5,
        }
    }
}

/// The close code and reason bytes to put in the QUIC CONNECTION_CLOSE
/// frame for `reason` (the encoded reason, at most ~300 bytes).
pub fn disconnect_to_close(reason: &DisconnectReason) -> (u32, Vec<u8>) {
    let mut w = Writer::new();
    reason.encode(&mut w);
    (reason.close_code(), w.into_inner())
}

/// The reason a peer gave in its CONNECTION_CLOSE frame; a generic
/// [`DisconnectReason::ConnectionLost`] when the bytes are not ours.
pub fn disconnect_from_close(code: u64, reason: &[u8]) -> DisconnectReason {
    let mut r = Reader::new(reason);
    match DisconnectReason::decode(&mut r) {
        Ok(d) if r.finish().is_ok() => d,
        _ => DisconnectReason::ConnectionLost(format!("closed by peer (code {code})")),
    }
}

fn write_scoreboard(w: &mut Writer, s: &Scoreboard) {
    w.str_max(&s.gametype, MAX_SHORT_TEXT);
    w.str_max(&s.phase, MAX_SHORT_TEXT);
    match s.team_scores {
        Some((red, blue)) => {
            w.u8(1);
            w.svarint(i64::from(red));
            w.svarint(i64::from(blue));
        }
        None => w.u8(0),
    }
    w.varint(s.rows.len().min(MAX_SCORE_ROWS) as u64);
    for row in s.rows.iter().take(MAX_SCORE_ROWS) {
        w.u8(row.slot);
        w.str_max(&row.name, crate::handshake::MAX_NAME_LEN);
        w.u8(row.team);
        w.u8(u8::from(row.bot));
        w.svarint(i64::from(row.score));
        w.svarint(i64::from(row.deaths));
        w.varint(u64::from(row.ping_ms));
    }
}

fn read_scoreboard(r: &mut Reader<'_>) -> Result<Scoreboard, DecodeError> {
    let gametype = r.str(MAX_SHORT_TEXT, "gametype")?;
    let phase = r.str(MAX_SHORT_TEXT, "phase")?;
    let team_scores = match r.u8()? {
        0 => None,
        1 => Some((r.svarint_i32()?, r.svarint_i32()?)),
        t => return Err(DecodeError::UnknownTag { what: "team scores flag", tag: u64::from(t) }),
    };
    let n = r.count(MAX_SCORE_ROWS, "score rows")?;
    let mut rows = Vec::with_capacity(n);
    for _ in 0..n {
        let slot = r.u8()?;
        let name = r.str(crate::handshake::MAX_NAME_LEN, "name")?;
        let team = r.u8()?;
        let bot = match r.u8()? {
            0 => false,
            1 => true,
            t => return Err(DecodeError::UnknownTag { what: "bot flag", tag: u64::from(t) }),
        };
        let score = r.svarint_i32()?;
        let deaths = r.svarint_i32()?;
        let ping_ms = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "ping" })?;
        rows.push(ScoreRow { slot, name, team, bot, score, deaths, ping_ms });
    }
    Ok(Scoreboard { gametype, phase, team_scores, rows })
}

impl ClientFrame {
    /// Encodes the frame payload (the caller adds the length prefix with
    /// [`crate::codec::encode_frame`]).
    ///
    /// ```text
    /// u8  tag   1 hello, 16 chat, 17 command, 18 userinfo, 19 map loaded, 20 quit,
    ///           21 map request
    /// hello:      Hello::encode
    /// chat:       scope (u8 0 all, 1 team, 2 private + u8 slot), str text (<= MAX_CHAT_LEN)
    /// command:    str line (<= MAX_TEXT_LEN)
    /// userinfo:   varint n, n × (str key, str value)
    /// map loaded: str map
    /// map request: [u8; 32] hash, varint offset
    /// ```
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Self::Hello(h) => {
                w.u8(C_HELLO);
                h.encode(&mut w);
            }
            Self::Message(ClientMessage::Chat { scope, text }) => {
                w.u8(C_CHAT);
                write_scope(&mut w, *scope);
                w.str_max(text, MAX_CHAT_LEN);
            }
            Self::Message(ClientMessage::Command(line)) => {
                w.u8(C_COMMAND);
                w.str_max(line, MAX_TEXT_LEN);
            }
            Self::Message(ClientMessage::UserInfo(pairs)) => {
                w.u8(C_USERINFO);
                write_pairs(&mut w, pairs);
            }
            Self::Message(ClientMessage::MapLoaded(map)) => {
                w.u8(C_MAP_LOADED);
                w.str_max(map, MAX_SHORT_TEXT);
            }
            Self::Message(ClientMessage::Quit) => w.u8(C_QUIT),
            Self::Message(ClientMessage::MapRequest { hash, offset }) => {
                w.u8(C_MAP_REQUEST);
                hash.encode(&mut w);
                w.varint(*offset);
            }
        }
        w.into_inner()
    }

    /// The protocol version of a Hello frame, read without decoding the
    /// rest (so a server can answer "wrong version" to any future client);
    /// `None` if the payload is not a Hello.
    pub fn peek_hello_version(payload: &[u8]) -> Option<u32> {
        let mut r = Reader::new(payload);
        match r.u8() {
            Ok(C_HELLO) => Hello::peek_version(&mut r).ok(),
            _ => None,
        }
    }

    /// Decodes one frame payload; trailing bytes are an error.
    pub fn decode(payload: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(payload);
        let f = match r.u8()? {
            C_HELLO => Self::Hello(Hello::decode(&mut r)?),
            C_CHAT => Self::Message(ClientMessage::Chat { scope: read_scope(&mut r)?, text: r.str(MAX_CHAT_LEN, "chat")? }),
            C_COMMAND => Self::Message(ClientMessage::Command(r.str(MAX_TEXT_LEN, "command")?)),
            C_USERINFO => Self::Message(ClientMessage::UserInfo(read_pairs(&mut r)?)),
            C_MAP_LOADED => Self::Message(ClientMessage::MapLoaded(r.str(MAX_SHORT_TEXT, "map")?)),
            C_QUIT => Self::Message(ClientMessage::Quit),
            C_MAP_REQUEST => Self::Message(ClientMessage::MapRequest { hash: MapHash::decode(&mut r)?, offset: r.varint()? }),
            t => return Err(DecodeError::UnknownTag { what: "client frame", tag: u64::from(t) }),
        };
        r.finish()?;
        Ok(f)
    }
}

impl ServerFrame {
    /// Encodes the frame payload.
    ///
    /// ```text
    /// u8  tag   2 welcome, 3 reject, 16 chat, 17 print, 18 scoreboard,
    ///           19 map change, 20 config string, 21 console output, 22 disconnect,
    ///           23 mode, 24 map chunk, 25 map refused
    /// welcome:  Welcome::encode          reject: RejectReason::encode
    /// chat:     u8 has_from, [u8 slot], str name, scope, str text
    /// print, console output: str text (<= MAX_TEXT_LEN)
    /// scoreboard: str gametype, str phase, u8 has_teams, [svarint red, blue],
    ///           varint n, n × (u8 slot, str name, u8 team, u8 bot,
    ///                          svarint score, svarint deaths, varint ping)
    /// map change: str map, varint m, m × (varint index, str value)
    /// config string: varint index, str value
    /// disconnect: DisconnectReason::encode
    /// mode:     ModeUpdate::encode
    /// map chunk: MapChunk::encode
    /// map refused: [u8; 32] hash, MapRefusal::encode
    /// ```
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new();
        match self {
            Self::Welcome(welcome) => {
                w.u8(S_WELCOME);
                welcome.encode(&mut w);
            }
            Self::Reject(reason) => {
                w.u8(S_REJECT);
                reason.encode(&mut w);
            }
            Self::Message(m) => encode_server_message(m, &mut w),
        }
        w.into_inner()
    }

    /// Decodes one frame payload; trailing bytes are an error.
    pub fn decode(payload: &[u8]) -> Result<Self, DecodeError> {
        let mut r = Reader::new(payload);
        let m = |m| Ok::<_, DecodeError>(Self::Message(m));
        let f = match r.u8()? {
            S_WELCOME => Self::Welcome(Welcome::decode(&mut r)?),
            S_REJECT => Self::Reject(RejectReason::decode(&mut r)?),
            S_CHAT => {
                let from = match r.u8()? {
                    0 => None,
                    1 => Some(r.u8()?),
                    t => return Err(DecodeError::UnknownTag { what: "chat sender flag", tag: u64::from(t) }),
                };
                let name = r.str(crate::handshake::MAX_NAME_LEN, "chat name")?;
                let scope = read_scope(&mut r)?;
                m(ServerMessage::Chat { from, name, scope, text: r.str(MAX_CHAT_LEN, "chat")? })?
            }
            S_PRINT => m(ServerMessage::Print(r.str(MAX_TEXT_LEN, "print")?))?,
            S_SCOREBOARD => m(ServerMessage::Scoreboard(read_scoreboard(&mut r)?))?,
            S_MAP_CHANGE => {
                let map = r.str(MAX_SHORT_TEXT, "map")?;
                m(ServerMessage::MapChange { map, config_strings: read_config_strings(&mut r)? })?
            }
            S_CONFIG_STRING => {
                let index = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "config string index" })?;
                m(ServerMessage::ConfigString { index, value: r.str(crate::handshake::MAX_CONFIG_STRING_LEN, "config string")? })?
            }
            S_CONSOLE => m(ServerMessage::ConsoleOutput(r.str(MAX_TEXT_LEN, "console output")?))?,
            S_DISCONNECT => m(ServerMessage::Disconnect(DisconnectReason::decode(&mut r)?))?,
            S_MODE => m(ServerMessage::Mode(ModeUpdate::decode(&mut r)?))?,
            S_MAP_CHUNK => m(ServerMessage::MapChunk(MapChunk::decode(&mut r)?))?,
            S_MAP_REFUSED => m(ServerMessage::MapRefused { hash: MapHash::decode(&mut r)?, reason: MapRefusal::decode(&mut r)? })?,
            t => return Err(DecodeError::UnknownTag { what: "server frame", tag: u64::from(t) }),
        };
        r.finish()?;
        Ok(f)
    }
}

fn encode_server_message(m: &ServerMessage, w: &mut Writer) {
    match m {
        ServerMessage::Chat { from, name, scope, text } => {
            w.u8(S_CHAT);
            match from {
                Some(slot) => {
                    w.u8(1);
                    w.u8(*slot);
                }
                None => w.u8(0),
            }
            w.str_max(name, crate::handshake::MAX_NAME_LEN);
            write_scope(w, *scope);
            w.str_max(text, MAX_CHAT_LEN);
        }
        ServerMessage::Print(t) => {
            w.u8(S_PRINT);
            w.str_max(t, MAX_TEXT_LEN);
        }
        ServerMessage::Scoreboard(s) => {
            w.u8(S_SCOREBOARD);
            write_scoreboard(w, s);
        }
        ServerMessage::MapChange { map, config_strings } => {
            w.u8(S_MAP_CHANGE);
            w.str_max(map, MAX_SHORT_TEXT);
            write_config_strings(w, config_strings);
        }
        ServerMessage::ConfigString { index, value } => {
            w.u8(S_CONFIG_STRING);
            w.varint(u64::from(*index));
            w.str_max(value, crate::handshake::MAX_CONFIG_STRING_LEN);
        }
        ServerMessage::ConsoleOutput(t) => {
            w.u8(S_CONSOLE);
            w.str_max(t, MAX_TEXT_LEN);
        }
        ServerMessage::Disconnect(reason) => {
            w.u8(S_DISCONNECT);
            reason.encode(w);
        }
        ServerMessage::Mode(u) => {
            w.u8(S_MODE);
            u.encode(w);
        }
        ServerMessage::MapChunk(c) => {
            w.u8(S_MAP_CHUNK);
            c.encode(w);
        }
        ServerMessage::MapRefused { hash, reason } => {
            w.u8(S_MAP_REFUSED);
            hash.encode(w);
            reason.encode(w);
        }
    }
}
