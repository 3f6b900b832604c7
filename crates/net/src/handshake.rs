//! The handshake on the control stream: Hello, then Welcome or Reject.
//!
//! The client opens one bidirectional stream right after the QUIC handshake
//! and writes a [`Hello`] frame. The server answers with a [`Welcome`] (the
//! client is in: slot, map, rates, server info, config strings) or a
//! [`RejectReason`] the client can show, then closes. The version is the
//! first field of the Hello so a server can always read it and answer
//! [`RejectReason::WrongVersion`], whatever else a future client sends.
//!
//! Deciding *whether* to accept (password, bans, free slots, names) is the
//! server's job; this module only carries the data. The stream framing and
//! tags are in [`crate::reliable`].

use crate::codec::{DecodeError, Reader, Writer};
#[cfg(test)]
use crate::codec::truncate;

/// The ALPN both sides announce in TLS; a peer without it fails the QUIC
/// handshake before any Quarry byte is read.
pub const ALPN: &[u8] = b"quarry/1";

/// The protocol version in [`Hello::version`]; bump on any wire change
/// (a peer of another version is refused with both versions named).
pub const PROTOCOL_VERSION: u32 = 6;

/// Longest player name accepted by the decoder, in bytes (the server may
/// enforce a shorter one and answer [`RejectReason::BadName`]).
pub const MAX_NAME_LEN: usize = 64;
/// Longest password, bytes.
pub const MAX_PASSWORD_LEN: usize = 256;
/// Longest key or value in an info list, bytes (ioq3 `MAX_INFO_STRING` is
/// 1024 for the whole string).
pub const MAX_INFO_LEN: usize = 256;
/// Most pairs in an info list.
pub const MAX_INFO_PAIRS: usize = 64;
/// Most config strings in a Welcome or map change.
pub const MAX_CONFIG_STRINGS: usize = 1024;
/// Longest config string value, bytes.
pub const MAX_CONFIG_STRING_LEN: usize = 1024;
/// Config string index of the item model table (class names, space-separated).
pub const CS_ITEM_MODELS: u16 = 0;
/// Config string index of the server's timing, `"TICK_RATE SNAPSHOT_RATE"`
/// ([`timing_string`]): sent again whenever `sv_fps` or the snapshot rate
/// changes, so a connected client keeps its command clock right.
pub const CS_TIMING: u16 = 1;

/// Config string index of the map's content, `"HASH SIZE"`: the SHA-256 of
/// the exact bytes of the map file the server loaded (64 lowercase hex
/// digits) and the file's length in bytes
/// ([`crate::map_transfer::map_string`], read with
/// [`crate::map_transfer::parse_map_string`]). A client loads a file with
/// that hash or asks for it ([`crate::reliable::ClientMessage::MapRequest`]).
/// Sent in the Welcome and in every map change; absent when the server has
/// no copy of the file it can describe.
pub const CS_MAP: u16 = 2;

/// Config string index of the server's movement settings that differ from
/// Quake 3's (`"g_gravity 600 pm_jumpVelocity 300"`, the movement core's
/// `MoveParams::to_settings_string`): a predicting client moves its own
/// player with the same values. Sent again whenever one changes.
pub const CS_MOVEMENT: u16 = 3;

/// The [`CS_TIMING`] value for a tick rate and a snapshot rate.
pub fn timing_string(tick_rate: u16, snapshot_rate: u16) -> String {
    format!("{tick_rate} {snapshot_rate}")
}

/// Reads a [`CS_TIMING`] value; `None` unless it is two non-zero numbers.
pub fn parse_timing(value: &str) -> Option<(u16, u16)> {
    let mut parts = value.split_ascii_whitespace();
    let tick: u16 = parts.next()?.parse().ok()?;
    let snap: u16 = parts.next()?.parse().ok()?;
    (parts.next().is_none() && tick > 0 && snap > 0).then_some((tick, snap))
}

/// Longest free-text field (map name, reject text), bytes.
pub const MAX_SHORT_TEXT: usize = 256;

/// The client's first frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hello {
    /// The client's [`PROTOCOL_VERSION`].
    pub version: u32,
    /// Player name as typed (the server validates it).
    pub name: String,
    /// The server password, if the player gave one.
    pub password: Option<String>,
    /// Capability bits for optional features (none defined yet; unknown bits are ignored).
    pub capabilities: u32,
    /// Other userinfo (`rate`, `model`, …), Quake-style key/value pairs.
    pub userinfo: Vec<(String, String)>,
}

/// What a server tells the world about itself (in the Welcome and in status).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerInfo {
    /// Server name.
    pub hostname: String,
    /// Game type name (`ffa`, `ctf`, …).
    pub gametype: String,
    /// Human players connected (bots not included).
    pub humans: u16,
    /// Bots playing.
    pub bots: u16,
    /// Slots in total.
    pub max_clients: u16,
    /// Anything else, as key/value pairs.
    pub extra: Vec<(String, String)>,
}

/// The server's "you are in".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Welcome {
    /// The client's slot number.
    pub slot: u8,
    /// The map to load.
    pub map: String,
    /// Simulation ticks per second.
    pub tick_rate: u16,
    /// Snapshots per second the client should expect.
    pub snapshot_rate: u16,
    /// Server info.
    pub server_info: ServerInfo,
    /// Config strings (index, value), Quake 3 style: models, sounds, game state.
    pub config_strings: Vec<(u16, String)>,
}

/// Why the server refused a client, shown to the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RejectReason {
    /// No free slot.
    #[error("server is full")]
    Full,
    /// Protocol versions differ.
    #[error("wrong protocol version: server {server}, client {client}")]
    WrongVersion {
        /// The server's version.
        server: u32,
        /// The client's version.
        client: u32,
    },
    /// Missing or wrong server password.
    #[error("wrong password")]
    WrongPassword,
    /// The player or address is banned.
    #[error("you are banned from this server")]
    Banned,
    /// The name is empty, too long or not allowed.
    #[error("name not allowed")]
    BadName,
    /// The server is going down.
    #[error("server is shutting down")]
    ServerShuttingDown,
    /// Anything else, with text.
    #[error("{0}")]
    Other(String),
}

pub(crate) fn write_pairs(w: &mut Writer, pairs: &[(String, String)]) {
    w.varint(pairs.len().min(MAX_INFO_PAIRS) as u64);
    for (k, v) in pairs.iter().take(MAX_INFO_PAIRS) {
        w.str_max(k, MAX_INFO_LEN);
        w.str_max(v, MAX_INFO_LEN);
    }
}

pub(crate) fn read_pairs(r: &mut Reader<'_>) -> Result<Vec<(String, String)>, DecodeError> {
    let n = r.count(MAX_INFO_PAIRS, "info pairs")?;
    (0..n).map(|_| Ok((r.str(MAX_INFO_LEN, "info key")?, r.str(MAX_INFO_LEN, "info value")?))).collect()
}

pub(crate) fn write_config_strings(w: &mut Writer, cs: &[(u16, String)]) {
    w.varint(cs.len().min(MAX_CONFIG_STRINGS) as u64);
    for (i, s) in cs.iter().take(MAX_CONFIG_STRINGS) {
        w.varint(u64::from(*i));
        w.str_max(s, MAX_CONFIG_STRING_LEN);
    }
}

pub(crate) fn read_config_strings(r: &mut Reader<'_>) -> Result<Vec<(u16, String)>, DecodeError> {
    let n = r.count(MAX_CONFIG_STRINGS, "config strings")?;
    (0..n)
        .map(|_| {
            let i = u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what: "config string index" })?;
            Ok((i, r.str(MAX_CONFIG_STRING_LEN, "config string")?))
        })
        .collect()
}

impl Hello {
    /// A Hello for this build's protocol version.
    pub fn new(name: impl Into<String>) -> Self {
        Self { version: PROTOCOL_VERSION, name: name.into(), ..Self::default() }
    }

    /// Appends the Hello body.
    ///
    /// ```text
    /// varint  version        always first, so any server can read it
    /// str     name           varint length + UTF-8, <= MAX_NAME_LEN
    /// u8      has_password   0 or 1
    /// str     password       if has_password, <= MAX_PASSWORD_LEN
    /// varint  capabilities
    /// varint  n, n × (str key, str value)   userinfo, n <= MAX_INFO_PAIRS
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        w.varint(u64::from(self.version));
        w.str_max(&self.name, MAX_NAME_LEN);
        match &self.password {
            Some(p) => {
                w.u8(1);
                w.str_max(p, MAX_PASSWORD_LEN);
            }
            None => w.u8(0),
        }
        w.varint(u64::from(self.capabilities));
        write_pairs(w, &self.userinfo);
    }

    /// Reads only the version (works on any Hello, even of another version).
    pub fn peek_version(r: &mut Reader<'_>) -> Result<u32, DecodeError> {
        r.varint_u32()
    }

    /// Reads a Hello body.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let version = r.varint_u32()?;
        let name = r.str(MAX_NAME_LEN, "name")?;
        let password = match r.u8()? {
            0 => None,
            1 => Some(r.str(MAX_PASSWORD_LEN, "password")?),
            t => return Err(DecodeError::UnknownTag { what: "password flag", tag: u64::from(t) }),
        };
        let capabilities = r.varint_u32()?;
        let userinfo = read_pairs(r)?;
        Ok(Self { version, name, password, capabilities, userinfo })
    }
}

impl Welcome {
    /// Appends the Welcome body.
    ///
    /// ```text
    /// u8      slot
    /// str     map
    /// varint  tick_rate, varint snapshot_rate
    /// str     hostname, str gametype
    /// varint  humans, varint bots, varint max_clients
    /// varint  n, n × (str key, str value)          extra server info
    /// varint  m, m × (varint index, str value)     config strings, m <= MAX_CONFIG_STRINGS
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.slot);
        w.str_max(&self.map, MAX_SHORT_TEXT);
        w.varint(u64::from(self.tick_rate));
        w.varint(u64::from(self.snapshot_rate));
        let i = &self.server_info;
        w.str_max(&i.hostname, MAX_INFO_LEN);
        w.str_max(&i.gametype, MAX_INFO_LEN);
        w.varint(u64::from(i.humans));
        w.varint(u64::from(i.bots));
        w.varint(u64::from(i.max_clients));
        write_pairs(w, &i.extra);
        write_config_strings(w, &self.config_strings);
    }

    /// Reads a Welcome body.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let u16f = |r: &mut Reader<'_>, what| u16::try_from(r.varint()?).map_err(|_| DecodeError::OutOfRange { what });
        let slot = r.u8()?;
        let map = r.str(MAX_SHORT_TEXT, "map")?;
        let tick_rate = u16f(r, "tick rate")?;
        let snapshot_rate = u16f(r, "snapshot rate")?;
        let hostname = r.str(MAX_INFO_LEN, "hostname")?;
        let gametype = r.str(MAX_INFO_LEN, "gametype")?;
        let humans = u16f(r, "humans")?;
        let bots = u16f(r, "bots")?;
        let max_clients = u16f(r, "max clients")?;
        let extra = read_pairs(r)?;
        let config_strings = read_config_strings(r)?;
        let server_info = ServerInfo { hostname, gametype, humans, bots, max_clients, extra };
        Ok(Self { slot, map, tick_rate, snapshot_rate, server_info, config_strings })
    }
}

impl RejectReason {
    /// Appends the reason.
    ///
    /// ```text
    /// u8      tag       0 full, 1 wrong version, 2 wrong password, 3 banned,
    ///                   4 bad name, 5 shutting down, 6 other
    /// varint  server, varint client     tag 1 only
    /// str     text                      tag 6 only, <= MAX_SHORT_TEXT
    /// ```
    pub fn encode(&self, w: &mut Writer) {
        match self {
            Self::Full => w.u8(0),
            Self::WrongVersion { server, client } => {
                w.u8(1);
                w.varint(u64::from(*server));
                w.varint(u64::from(*client));
            }
            Self::WrongPassword => w.u8(2),
            Self::Banned => w.u8(3),
            Self::BadName => w.u8(4),
            Self::ServerShuttingDown => w.u8(5),
            Self::Other(text) => {
                w.u8(6);
                w.str_max(text, MAX_SHORT_TEXT);
            }
        }
    }

    /// Reads a reason.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(match r.u8()? {
            0 => Self::Full,
            1 => Self::WrongVersion { server: r.varint_u32()?, client: r.varint_u32()? },
            2 => Self::WrongPassword,
            3 => Self::Banned,
            4 => Self::BadName,
            5 => Self::ServerShuttingDown,
            6 => Self::Other(r.str(MAX_SHORT_TEXT, "reject text")?),
            t => return Err(DecodeError::UnknownTag { what: "reject reason", tag: u64::from(t) }),
        })
    }
}

/// Compares a configured password with the one a client sent, in time that
/// does not depend on where they differ. No configured password (or an
/// empty one) lets everyone in.
pub fn password_matches(expected: Option<&str>, given: Option<&str>) -> bool {
    let Some(expected) = expected.filter(|e| !e.is_empty()) else { return true };
    let given = given.unwrap_or_default().as_bytes();
    let expected = expected.as_bytes();
    let mut diff = u8::from(given.len() != expected.len());
    for (i, e) in expected.iter().enumerate() {
        diff |= e ^ given.get(i).copied().unwrap_or(!e);
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_round_trips_and_rejects_junk() {
        assert_eq!(parse_timing(&timing_string(125, 40)), Some((125, 40)));
        for bad in ["", "60", "60 x", "0 30", "60 0", "60 30 1", "-1 30", "70000 30"] {
            assert_eq!(parse_timing(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn password_check() {
        assert!(password_matches(None, None));
        assert!(password_matches(Some(""), Some("x")));
        assert!(password_matches(Some("hunter2"), Some("hunter2")));
        assert!(!password_matches(Some("hunter2"), Some("hunter3")));
        assert!(!password_matches(Some("hunter2"), Some("hunter")));
        assert!(!password_matches(Some("hunter2"), Some("hunter22")));
        assert!(!password_matches(Some("hunter2"), None));
    }

    #[test]
    fn truncate_respects_char_boundaries() {
        assert_eq!(truncate("héllo", 2), "h");
        assert_eq!(truncate("abc", 10), "abc");
    }

    #[test]
    fn version_is_readable_from_any_hello() {
        let mut w = Writer::new();
        Hello { version: 77, ..Hello::new("x") }.encode(&mut w);
        w.bytes(&[0xff; 9]); // whatever a future version appends
        assert_eq!(Hello::peek_version(&mut Reader::new(w.as_slice())), Ok(77));
    }
}
