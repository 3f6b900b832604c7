//! What the game port tells server browsers, masters and monitors outside
//! QUIC (`quarry_net::oob`): the server query's answer, turned into the
//! out-of-band one, with the certificate fingerprint a browser pins and
//! the protocol a client must speak. Humans and bots are counted apart
//! here from the client table's bot flag (what the scoreboard rows carry);
//! nothing after the input queue is told.

use quarry_net::handshake::{ALPN, PROTOCOL_VERSION};
use quarry_net::oob::{OobInfo, OobPlayer};
use quarry_net::service::QueryInfo;

/// The out-of-band answer from the query's, with the server's `fingerprint`.
pub fn oob_info(query: &QueryInfo, fingerprint: &str) -> OobInfo {
    OobInfo {
        hostname: query.hostname.clone(),
        map: query.map.clone(),
        gametype: query.gametype.clone(),
        version: query.version.clone(),
        protocol: PROTOCOL_VERSION,
        max_clients: query.max_players,
        needpass: query.password,
        fingerprint: fingerprint.to_owned(),
        alpn: String::from_utf8_lossy(ALPN).into_owned(),
        players: query
            .players
            .iter()
            .map(|p| OobPlayer { name: p.name.clone(), score: p.score, ping_ms: p.ping_ms, bot: p.bot, seconds: 0.0 })
            .collect(),
        rules: query.limits.clone(),
    }
}

#[cfg(test)]
mod tests {
    use quarry_net::service::QueryPlayer;

    use super::*;

    #[test]
    fn humans_and_bots_keep_their_flags() {
        let query = QueryInfo {
            hostname: "h".into(),
            max_players: 8,
            players: vec![
                QueryPlayer { name: "Wren".into(), bot: true, team: "free".into(), ..QueryPlayer::default() },
                QueryPlayer { name: "Ann".into(), ping_ms: 40, team: "free".into(), ..QueryPlayer::default() },
            ],
            ..QueryInfo::default()
        };
        let info = oob_info(&query, "AB");
        assert_eq!((info.humans(), info.bots(), info.max_clients), (1, 1, 8));
        assert_eq!(info.protocol, PROTOCOL_VERSION);
        assert_eq!(info.fingerprint, "AB");
    }
}
