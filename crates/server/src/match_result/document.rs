//! The match result document: what one finished match was, as JSON.
//!
//! One document per match, the same bytes in `sv_matchResultDir` and in the
//! webhook's body: the match's identity (`match_id`, unique, also the file's
//! stem; a receiver dedupes on it, since delivery is at least once), map,
//! game type, seed and final state hash, its start and end times (UTC, wall
//! clock), the settings that shaped it, why it ended and who won, the team
//! scores, and per player (bot flag included) the score card (frags,
//! deaths, damage given and taken as what the victims lost, item pickups,
//! ...) and per weapon its shots, hits, splash hits and damage.
//!
//! What it must not do: read anything but the match and the cvars it is
//! handed, or carry a secret or a path (a settings cvar flagged `SECRET` is
//! never listed).

use std::collections::BTreeMap;

use quarry_console::{CvarFlags, CvarSet};
use quarry_sim::slots::ScoreCard;
use quarry_sim::{Match, Scoreboard, SlotId, Team};
use serde::Serialize;

use crate::headless::HeadlessSummary;

/// The document's version: bumped when a field changes meaning or goes.
pub const SCHEMA: u32 = 1;

/// Settings listed in every document, changed or not: the limits and the
/// rules a league checks a match was played under.
pub const KEY_SETTINGS: [&str; 10] = [
    "timelimit",
    "fraglimit",
    "capturelimit",
    "roundlimit",
    "g_friendlyFire",
    "g_weaponStay",
    "g_quadFactor",
    "g_knockback",
    "g_fallingDamage",
    "sv_maxclients",
];

/// What a result file and a webhook body hold (see the module doc).
#[derive(Debug, Clone, Serialize)]
pub struct MatchResult {
    /// [`SCHEMA`].
    pub schema: u32,
    /// Unique per match: `20261206-171500-q_dm1-ffa-` and 8 random hex digits.
    pub match_id: String,
    /// The map's name.
    pub map: String,
    /// The game type.
    pub gametype: String,
    /// When the match's first tick ran, RFC 3339 UTC.
    pub started_at: String,
    /// When the match ended, RFC 3339 UTC.
    pub ended_at: String,
    /// Match time played, seconds (simulated: a headless match runs faster
    /// than the wall clock).
    pub duration_s: f64,
    /// The match seed.
    pub seed: u64,
    /// The state hash the match ended on (a replay ends on the same).
    pub final_hash: String,
    /// Why the match ended (`fraglimit hit`, `timelimit hit`, ...).
    pub end_reason: Option<String>,
    /// The winner: `red`/`blue` in team games, a player's name otherwise;
    /// none for a draw.
    pub winner: Option<String>,
    /// Red's and blue's scores in team games.
    pub team_scores: Option<(i32, i32)>,
    /// [`KEY_SETTINGS`] and every other cvar that shapes play and differs
    /// from its default, by name, as text.
    pub settings: BTreeMap<String, String>,
    /// Every player, best first.
    pub players: Vec<PlayerResult>,
}

/// One player's line in a result.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerResult {
    /// The name they played under.
    pub name: String,
    /// Their team (`free` outside team games).
    pub team: String,
    /// Whether a bot held the slot.
    pub bot: bool,
    /// Their score card: frags, deaths, damage given and taken (health and
    /// armor lost), pickups, captures, ...
    pub score: ScoreCard,
    /// Per weapon fired, in weapon order.
    pub weapons: Vec<WeaponResult>,
}

/// One player's figures with one weapon, every range band together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WeaponResult {
    /// The weapon's name (`rocket`).
    pub weapon: String,
    /// Traces fired (each pellet) or projectiles launched.
    pub shots: u32,
    /// Traces that hit an enemy, or projectiles that struck one directly.
    pub hits: u32,
    /// Projectiles whose splash reached an enemy without a direct hit.
    pub splash_hits: u32,
    /// Health and armor enemies lost to this weapon.
    pub damage: u32,
}

/// When a match ran, milliseconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchTimes {
    /// Its first tick.
    pub started_ms: u64,
    /// Its end.
    pub ended_ms: u64,
}

/// A new match id: the end time's stamp, map and game type (the result
/// file's old stem) and 8 random hex digits, so two servers ending a match
/// on the same map in the same second still differ.
pub fn new_match_id(ended_ms: u64, map: &str, gametype: &str) -> String {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 4];
    // The system RNG does not fail on the platforms Quarry runs on; if it
    // did, the time's milliseconds still tell most ids apart.
    if ring::rand::SystemRandom::new().fill(&mut bytes).is_err() {
        bytes = u32::try_from(ended_ms % 1_000_000).unwrap_or(0).to_be_bytes();
    }
    let suffix: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}-{suffix}", crate::utc::file_stem(ended_ms, map, gametype))
}

/// The result of the match `summary` describes; `game` (the match as it
/// ended) gives the per-weapon figures.
pub fn result_of(summary: &HeadlessSummary, game: Option<&Match>, cvars: &CvarSet, map: &str, match_id: String, times: MatchTimes) -> MatchResult {
    let board = &summary.scoreboard;
    MatchResult {
        schema: SCHEMA,
        match_id,
        map: map.to_owned(),
        gametype: summary.gametype.clone(),
        started_at: crate::utc::rfc3339_utc(times.started_ms),
        ended_at: crate::utc::rfc3339_utc(times.ended_ms),
        duration_s: summary.simulated_seconds,
        seed: summary.seed,
        final_hash: summary.final_hash.clone(),
        end_reason: board.end_reason.clone(),
        winner: winner(board),
        team_scores: board.team_scores,
        settings: settings_of(cvars),
        players: board
            .rows
            .iter()
            .map(|r| PlayerResult {
                name: r.name.clone(),
                team: r.team.name().to_owned(),
                bot: r.bot,
                score: r.score,
                weapons: game.map(|g| weapons_of(g, r.slot)).unwrap_or_default(),
            })
            .collect(),
    }
}

/// [`KEY_SETTINGS`] and every other cvar that shapes play (flagged `PLAY`,
/// never a `SECRET` one) and differs from its default.
pub fn settings_of(cvars: &CvarSet) -> BTreeMap<String, String> {
    cvars
        .iter()
        .filter(|c| !c.def.flags.contains(CvarFlags::SECRET))
        .filter(|c| KEY_SETTINGS.contains(&c.def.name.as_str()) || (c.def.flags.contains(CvarFlags::PLAY) && c.value() != c.default_value()))
        .map(|c| (c.def.name.clone(), c.value().to_string()))
        .collect()
}

/// A slot's accuracy book rows, each weapon's bands added up.
fn weapons_of(game: &Match, slot: SlotId) -> Vec<WeaponResult> {
    game.accuracy(slot)
        .used()
        .map(|(n, w)| {
            let mut out = WeaponResult {
                weapon: game.weapon_name(n).map_or_else(|| format!("weapon{n}"), str::to_owned),
                shots: 0,
                hits: 0,
                splash_hits: 0,
                damage: 0,
            };
            for b in &w.bands {
                out.shots = out.shots.saturating_add(b.shots);
                out.hits = out.hits.saturating_add(b.hits);
                out.splash_hits = out.splash_hits.saturating_add(b.splash_hits);
                out.damage = out.damage.saturating_add(b.damage);
            }
            out
        })
        .collect()
}

/// The winning team by score, or the player alone at the top by frags.
fn winner(board: &Scoreboard) -> Option<String> {
    if let Some((red, blue)) = board.team_scores {
        return match red.cmp(&blue) {
            std::cmp::Ordering::Greater => Some(Team::Red.name().to_owned()),
            std::cmp::Ordering::Less => Some(Team::Blue.name().to_owned()),
            std::cmp::Ordering::Equal => None,
        };
    }
    let [first, rest @ ..] = board.rows.as_slice() else { return None };
    let tied = rest.first().is_some_and(|second| second.score.frags == first.score.frags);
    (!tied).then(|| first.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_console::{Console, CvarDef};
    use quarry_sim::ScoreRow;
    use quarry_sim::rules::{GameType, Phase};

    fn row(name: &str, team: Team, frags: i32) -> ScoreRow {
        ScoreRow { slot: SlotId(0), name: name.to_owned(), team, bot: true, score: ScoreCard { frags, ..ScoreCard::default() } }
    }

    fn board(team_scores: Option<(i32, i32)>, rows: Vec<ScoreRow>) -> Scoreboard {
        Scoreboard { gametype: GameType::Ffa, phase: Phase::Over, team_scores, end_reason: None, rows }
    }

    #[test]
    fn the_winner_is_the_better_team_or_the_player_alone_at_the_top() {
        assert_eq!(winner(&board(Some((3, 1)), vec![])).as_deref(), Some("red"));
        assert_eq!(winner(&board(Some((0, 2)), vec![])).as_deref(), Some("blue"));
        assert_eq!(winner(&board(Some((2, 2)), vec![])), None, "a team draw");
        assert_eq!(winner(&board(None, vec![row("Wren", Team::Free, 5), row("Rook", Team::Free, 3)])).as_deref(), Some("Wren"));
        assert_eq!(winner(&board(None, vec![row("Wren", Team::Free, 5), row("Rook", Team::Free, 5)])), None, "tied at the top");
        assert_eq!(winner(&board(None, vec![])), None);
    }

    #[test]
    fn settings_list_the_key_ones_and_changed_play_ones_never_a_secret() {
        let mut c = Console::<()>::new();
        c.register_cvar(CvarDef::int("fraglimit", 20, 0, 999, "").flags(CvarFlags::PLAY)).expect("fraglimit");
        c.register_cvar(CvarDef::float("g_gravity", 800.0, 0.0, 5000.0, "").flags(CvarFlags::PLAY)).expect("gravity");
        c.register_cvar(CvarDef::float("g_speed", 320.0, 0.0, 5000.0, "").flags(CvarFlags::PLAY)).expect("speed");
        c.register_cvar(CvarDef::string("sv_hostname", "q", "")).expect("host");
        c.register_cvar(CvarDef::string("g_key", "", "").flags(CvarFlags::PLAY | CvarFlags::SECRET)).expect("key");
        for (name, value) in [("g_gravity", "400"), ("sv_hostname", "mine"), ("g_key", "hunter2")] {
            c.set_cvar(name, value, false, "test").expect("set");
        }
        let settings = settings_of(c.cvars());
        let names: Vec<&str> = settings.keys().map(String::as_str).collect();
        assert_eq!(names, ["fraglimit", "g_gravity"], "unchanged key, changed play; not a plain cvar, not a secret");
        assert_eq!(settings.get("g_gravity").map(String::as_str), Some("400"));
    }

    #[test]
    fn match_ids_differ_and_start_with_the_stem() {
        let ms = 1_796_384_707_000;
        let (a, b) = (new_match_id(ms, "q_dm1", "ffa"), new_match_id(ms, "q_dm1", "ffa"));
        assert!(a.starts_with("20261204-114507-q_dm1-ffa-") && a.len() == "20261204-114507-q_dm1-ffa-".len() + 8, "{a}");
        assert_ne!(a, b, "random suffixes");
    }
}
