//! What one line of the game log says. Each [`Line`] is one JSON object
//! on one line, with the envelope of [`Entry`]: when (UTC wall clock), which
//! match, and the match clock. Field names are stable: stats tools parse them.

use quarry_sim::accuracy::BandFigures;
use serde::Serialize;

/// A player as a record names them: slot, name and team at that moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerRef {
    /// Slot number.
    pub slot: u8,
    /// Name.
    pub name: String,
    /// Team (`free`, `red`, `blue`, `spectator`).
    pub team: &'static str,
    /// Whether a bot holds the slot.
    pub bot: bool,
}

/// A player and where they stood.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerAt {
    /// Who.
    #[serde(flatten)]
    pub player: PlayerRef,
    /// Position (origin of the body), map units; absent when it had none.
    pub pos: Option<[f32; 3]>,
}

/// The settings of a match that matter to whoever reads its results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchSettings {
    /// Frags that end the match; 0 = none.
    pub fraglimit: i32,
    /// Minutes that end the match; 0 = none.
    pub timelimit_min: f32,
    /// Captures that end a flag match; 0 = none.
    pub capturelimit: i32,
    /// Rounds won that end a round match; 0 = none.
    pub roundlimit: i32,
    /// Slots.
    pub maxclients: usize,
    /// Whether teammates can hurt each other.
    pub friendly_fire: bool,
    /// Whether weapons stay on their spawns.
    pub weapon_stay: bool,
    /// Ticks per second.
    pub tick_rate: u32,
}

/// One weapon's figures for one player.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WeaponTally {
    /// Weapon table name.
    pub weapon: String,
    /// Trigger pulls.
    pub shots: u32,
    /// Hits on other players.
    pub hits: u32,
    /// Health and armor taken from other players.
    pub damage: u32,
    /// Kills.
    pub kills: u32,
}

/// One weapon's accuracy for one player, by the range band of each shot's
/// target (`quarry_sim::accuracy` has the rules): traces (each pellet) and
/// projectiles fired, direct hits, splash-only hits and the damage they did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AccuracyLine {
    /// Weapon table name.
    pub weapon: String,
    /// The target nearer than 300 units.
    pub close: BandFigures,
    /// The target 300 to 800 units away.
    pub mid: BandFigures,
    /// The target farther than 800 units.
    pub far: BandFigures,
    /// No enemy within 30° of the aim.
    pub untargeted: BandFigures,
}

/// One scoreboard line of a finished match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoreLine {
    /// Who (with `bot`, so a stats tool can set bots beside people).
    #[serde(flatten)]
    pub player: PlayerRef,
    /// A bot's skill level (absent for people).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<f32>,
    /// Frags, deaths, kills, damage, shots, hits and the objective counts.
    #[serde(flatten)]
    pub score: quarry_sim::slots::ScoreCard,
    /// Per weapon fired since the match went live (melee left out), in
    /// weapon number order.
    pub accuracy: Vec<AccuracyLine>,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Line {
    /// The log was opened by a server.
    ServerStart {
        /// `version`.
        version: String,
        /// `sv_hostname`.
        hostname: String,
    },
    /// A match began (map loaded).
    MatchStart {
        /// Map short name.
        map: String,
        /// The map's own title, if it has one.
        title: Option<String>,
        /// Game type.
        gametype: &'static str,
        /// The match's seed (replays it).
        seed: u64,
        /// Settings that decide results.
        settings: MatchSettings,
        /// The log was opened while the match was already running.
        in_progress: bool,
        /// Who holds a slot as it starts (they stay across map changes).
        players: Vec<PlayerRef>,
    },
    /// The match phase changed (`warmup`, `countdown`, `live`, `intermission`, `over`).
    Phase {
        /// New phase.
        phase: &'static str,
    },
    /// A client entered the game.
    Connect {
        /// Who.
        player: PlayerRef,
        /// A salted hash of the address (humans): the same address gives
        /// the same hash on this server, and the address cannot be read back.
        address_hash: Option<String>,
    },
    /// A client left.
    Disconnect {
        /// Who.
        player: PlayerRef,
        /// Seconds since it entered this match.
        seconds: f32,
    },
    /// A player changed team.
    TeamChange {
        /// Who (with the new team).
        player: PlayerRef,
        /// The team left.
        from: &'static str,
        /// Moved by the server to balance the teams.
        forced: bool,
    },
    /// Someone died.
    Kill {
        /// The killer; absent for the world or a suicide.
        killer: Option<PlayerAt>,
        /// The victim.
        victim: PlayerAt,
        /// How (`weapon`, `splash`, `falling`, `lava`, `telefrag`, …).
        means: &'static str,
        /// The weapon's table name, for a hit or a blast.
        weapon: Option<String>,
        /// Killer to victim, map units, when both had a position.
        distance: Option<f32>,
        /// The killer killed a teammate.
        teamkill: bool,
    },
    /// A player's damage figures (at match end, or when they leave).
    Damage {
        /// Who.
        player: PlayerRef,
        /// Health and armor taken from others.
        given: u32,
        /// Health and armor lost.
        taken: u32,
        /// Per weapon, by table name.
        weapons: Vec<WeaponTally>,
    },
    /// A flag was taken, dropped, returned or captured.
    Flag {
        /// `taken`, `dropped`, `returned`, `captured`.
        action: &'static str,
        /// Whose flag (`red`, `blue`, `free` for the neutral one).
        flag: &'static str,
        /// Who did it; absent for a flag that returned by itself.
        player: Option<PlayerRef>,
    },
    /// A player froze (Freeze Tag).
    Frozen {
        /// Who.
        player: PlayerRef,
        /// By whom.
        by: Option<PlayerRef>,
    },
    /// A player thawed (Freeze Tag).
    Thawed {
        /// Who.
        player: PlayerRef,
        /// The teammate who thawed them; absent for an automatic thaw.
        by: Option<PlayerRef>,
    },
    /// A round began.
    RoundStart {
        /// From 1.
        number: u32,
    },
    /// A round ended.
    RoundEnd {
        /// Round number.
        number: u32,
        /// The winning team; absent for a draw.
        winner: Option<&'static str>,
        /// `elimination` or `timeout`.
        reason: &'static str,
    },
    /// Someone said something.
    Chat {
        /// The speaker; absent for the server console.
        player: Option<PlayerRef>,
        /// `all`, or the team that hears it.
        to: &'static str,
        /// The text.
        text: String,
    },
    /// An operator's command (secrets hidden).
    Admin {
        /// Where it came from (`console`).
        origin: String,
        /// The command line.
        command: String,
    },
    /// A remote admin's sign-in, refusal, command or session end (the same
    /// as its line in the audit log).
    Rcon {
        /// The admin's name as given.
        admin: String,
        /// Its role once signed in.
        role: Option<&'static str>,
        /// Its address.
        from: String,
        /// `signin`, `command` or `closed`.
        what: &'static str,
        /// The command line (secrets hidden), for `command`.
        command: Option<String>,
        /// `ok`, `refused` or `error`.
        result: &'static str,
        /// Why it was refused or failed.
        detail: String,
    },
    /// A match finished, was replaced by another map, or the server stopped.
    MatchEnd {
        /// Why (the rule that ended it, `map change`, `shutdown`).
        reason: String,
        /// Seconds of match clock.
        seconds: f32,
        /// Red and blue scores in team games.
        team_scores: Option<TeamScores>,
        /// The winning team or player; absent for a draw or no players.
        winner: Option<String>,
        /// Every player, by frags.
        scoreboard: Vec<ScoreLine>,
    },
    /// The server stopped (written last).
    ServerStop {
        /// Why.
        reason: String,
    },
    /// The log fell behind and lost records (the tick never waits for it).
    Overflow {
        /// Records lost since the last report.
        lost: u64,
    },
}

/// Red and blue scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TeamScores {
    /// Red.
    pub red: i32,
    /// Blue.
    pub blue: i32,
}

/// A record with its envelope, as it travels to the writer.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Wall clock, milliseconds since the Unix epoch.
    pub unix_ms: u64,
    /// The match it belongs to (`None` before the first map).
    pub match_id: Option<std::sync::Arc<str>>,
    /// Match clock, seconds.
    pub t: f32,
    /// What happened.
    pub record: Line,
}

/// The JSON line of an entry (the envelope first, then the event's fields).
pub fn to_json_line(entry: &Entry) -> Result<String, serde_json::Error> {
    #[derive(Serialize)]
    struct Envelope<'a> {
        ts: String,
        #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
        match_id: Option<&'a str>,
        t: f32,
        #[serde(flatten)]
        record: &'a Line,
    }
    let line = Envelope {
        ts: crate::utc::rfc3339_utc(entry.unix_ms),
        match_id: entry.match_id.as_deref(),
        t: (entry.t * 1000.0).round() / 1000.0,
        record: &entry.record,
    };
    let mut text = serde_json::to_string(&line)?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_one_object_with_the_envelope_first() {
        let player = PlayerRef { slot: 2, name: "Rook \"the\" bot".into(), team: "red", bot: true };
        let entry = Entry {
            unix_ms: 1_796_176_863_123,
            match_id: Some("m1".into()),
            t: 12.5,
            record: Line::Kill {
                killer: Some(PlayerAt { player: player.clone(), pos: Some([1.0, 2.0, 3.0]) }),
                victim: PlayerAt { player, pos: None },
                means: "splash",
                weapon: Some("rocket_launcher".into()),
                distance: Some(120.0),
                teamkill: false,
            },
        };
        let line = to_json_line(&entry).expect("serializes");
        assert!(line.ends_with('\n') && !line.trim_end().contains('\n'));
        assert!(line.starts_with(r#"{"ts":"2026-12-02T02:01:03.123Z","match":"m1","t":12.5,"event":"kill","#), "{line}");
        let v: serde_json::Value = serde_json::from_str(&line).expect("parses");
        assert_eq!(v["killer"]["name"], "Rook \"the\" bot");
        assert_eq!(v["killer"]["pos"][2], 3.0);
        assert_eq!(v["weapon"], "rocket_launcher");
        assert!(v["victim"]["pos"].is_null());
    }
}
