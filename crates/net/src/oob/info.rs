//! What the out-of-band queries tell: the server's state as the tick
//! publishes it, and the answers encoded from it once per publication.

/// The name Quarry gives itself to masters and browsers (`gamename`, the
/// A2S game folder, `getserversExt`'s game).
pub const GAME_NAME: &str = "Quarry";

/// Players listed in one answer at most (an answer is one datagram).
pub const MAX_LISTED_PLAYERS: usize = 64;

/// The server's state as the out-of-band queries report it. The tick
/// builds one from the match now and then; nothing in it is secret.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OobInfo {
    /// `sv_hostname`.
    pub hostname: String,
    /// The running map's name.
    pub map: String,
    /// The game type's short name (`ffa`, `duel`, `tdm`, `ctf`...).
    pub gametype: String,
    /// The build (`version` cvar).
    pub version: String,
    /// The network protocol a client must speak to join.
    pub protocol: u32,
    /// Client slots (humans and bots share them).
    pub max_clients: u32,
    /// Whether a password is needed to join.
    pub needpass: bool,
    /// The certificate fingerprint a client pins (`AB:CD:...`).
    pub fingerprint: String,
    /// The QUIC ALPN a joining client offers.
    pub alpn: String,
    /// Who is on, bots flagged.
    pub players: Vec<OobPlayer>,
    /// Match settings shown as rules (`fraglimit`, `timelimit`...).
    pub rules: Vec<(String, String)>,
}

/// One player as the queries list it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OobPlayer {
    /// Name.
    pub name: String,
    /// Frags.
    pub score: i32,
    /// Round-trip time, ms (0 for a bot, as Quake 3 shows them).
    pub ping_ms: u32,
    /// Whether a bot plays it.
    pub bot: bool,
    /// Seconds on the server (A2S reports it).
    pub seconds: f32,
}

impl OobInfo {
    /// Humans on the server.
    pub fn humans(&self) -> usize {
        self.players.iter().filter(|p| !p.bot).count()
    }

    /// Bots on the server.
    pub fn bots(&self) -> usize {
        self.players.iter().filter(|p| p.bot).count()
    }

    /// Where the server stands for the masters: empty, some or full of
    /// humans (a change heartbeats at once, as ioquake3 does).
    pub fn occupancy(&self) -> Occupancy {
        let humans = self.humans();
        if humans == 0 {
            Occupancy::Empty
        } else if humans >= self.max_clients as usize {
            Occupancy::Full
        } else {
            Occupancy::Some
        }
    }
}

/// Whether the server has no humans, some, or as many as it has slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupancy {
    /// No human is on.
    Empty,
    /// Some humans, and room for more.
    Some,
    /// Every slot taken by a human.
    Full,
}

/// The answers encoded from one [`OobInfo`], built once per publication
/// (on the tick thread, twice a second) so a query only copies bytes.
#[derive(Debug, Clone, Default)]
pub struct Published {
    /// The Quake 3 infostring without the challenge (`\k\v...`).
    pub(crate) info_string: String,
    /// The status infostring without the challenge.
    pub(crate) status_string: String,
    /// The status answer's player lines.
    pub(crate) status_players: String,
    /// The A2S_INFO answer, whole.
    pub(crate) a2s_info: Vec<u8>,
    /// The A2S_PLAYER answer, whole.
    pub(crate) a2s_players: Vec<u8>,
    /// The A2S_RULES answer, whole.
    pub(crate) a2s_rules: Vec<u8>,
    /// The occupancy it reports.
    pub(crate) occupancy: Option<Occupancy>,
}

impl Published {
    /// Encodes every answer from `info`; `port` is the game port (A2S says it).
    pub fn new(info: &OobInfo, port: u16) -> Self {
        Self {
            info_string: super::q3::info_string(info),
            status_string: super::q3::status_string(info),
            status_players: super::q3::status_players(info),
            a2s_info: super::a2s::info_answer(info, port),
            a2s_players: super::a2s::players_answer(info),
            a2s_rules: super::a2s::rules_answer(info),
            occupancy: Some(info.occupancy()),
        }
    }

    /// The occupancy this publication reports (`None` before the first).
    pub fn occupancy(&self) -> Option<Occupancy> {
        self.occupancy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(bot: bool) -> OobPlayer {
        OobPlayer { name: "p".into(), bot, ..OobPlayer::default() }
    }

    #[test]
    fn occupancy_counts_humans_only() {
        let mut info = OobInfo { max_clients: 2, players: vec![player(true), player(true)], ..OobInfo::default() };
        assert_eq!(info.occupancy(), Occupancy::Empty, "bots alone leave it empty");
        info.players.push(player(false));
        assert_eq!((info.humans(), info.bots()), (1, 2));
        assert_eq!(info.occupancy(), Occupancy::Some);
        info.players.push(player(false));
        assert_eq!(info.occupancy(), Occupancy::Full);
    }
}
