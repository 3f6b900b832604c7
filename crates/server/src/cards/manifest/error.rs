//! Why a card is refused: [`CardError`] (the file, the line, the
//! [`CardProblem`]).

use super::{CARD_VERSION, MAX_MATCHES_PER_TIER, MAX_TIERS, MIN_MATCHES_PER_TIER};

/// Why a card was refused.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// The name is not a card name.
    #[error("'{0}' is not a card name (letters, digits, '_', '-'; or give a path to a .toml file)")]
    BadName(String),
    /// The file could not be read.
    #[error("card {name}: {source}")]
    Read {
        /// The card asked for.
        name: String,
        /// Why.
        source: quarry_console::ReadFileError,
    },
    /// The file is read but something in it is wrong.
    #[error("{file}:{line}: {problem}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line of what is wrong.
        line: usize,
        /// What is wrong.
        problem: CardProblem,
    },
}

impl CardError {
    /// The problem, for a card that was read.
    pub fn problem(&self) -> Option<&CardProblem> {
        match self {
            Self::Invalid { problem, .. } => Some(problem),
            _ => None,
        }
    }

    /// The line, for a card that was read.
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::Invalid { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// What is wrong in a card.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CardProblem {
    /// Not TOML, or a field of the wrong type or unknown.
    #[error("{0}")]
    Syntax(String),
    /// `version` is missing.
    #[error("no `version`: this server reads version {CARD_VERSION} cards (add `version = {CARD_VERSION}`)")]
    NoVersion,
    /// `version` is another format's.
    #[error("version {0} is not a card format this server reads (it reads version {CARD_VERSION})")]
    BadVersion(i64),
    /// No tiers, or too many.
    #[error("a card has 1 to {MAX_TIERS} tiers ([[tier]]); this one has {0}")]
    TierCount(usize),
    /// A tier with too few or too many matches.
    #[error("tier {tier} has {count} matches; a tier has {MIN_MATCHES_PER_TIER} to {MAX_MATCHES_PER_TIER} ([[tier.match]]), the last one its boss")]
    MatchCount {
        /// The tier.
        tier: usize,
        /// How many it has.
        count: usize,
    },
    /// A skill out of range.
    #[error("{field} {value} is out of range ({min} to {max})")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// Its value.
        value: f64,
        /// The least allowed.
        min: f64,
        /// The most allowed.
        max: f64,
    },
    /// The map is not in the maps directory.
    #[error("unknown map '{name}' (no {path})")]
    UnknownMap {
        /// The map as written.
        name: String,
        /// Where it was looked for.
        path: String,
    },
    /// The map loads but cannot host the game type.
    #[error("{0}")]
    MapCannotHost(String),
    /// The game type is not one this server has.
    #[error("unknown game type '{0}' (known: ffa, duel, tdm, ctf, 1fctf, ft, ca)")]
    UnknownGameType(String),
    /// A limit the game type does not use.
    #[error("{limit} does not apply to {gametype} (it ends on {uses})")]
    LimitNotUsed {
        /// The limit given.
        limit: &'static str,
        /// The game type.
        gametype: &'static str,
        /// What it ends on.
        uses: &'static str,
    },
    /// No `timelimit`.
    #[error("no `timelimit`: every card match needs one above 0, so a headless run of the card is sure to end")]
    NoTimelimit,
    /// A character botfiles do not have.
    #[error("unknown character '{name}' (botfiles/characters has: {known})")]
    UnknownCharacter {
        /// The name as written.
        name: String,
        /// The characters there are.
        known: String,
    },
    /// A character twice in one match.
    #[error("character '{0}' plays twice in this match")]
    DuplicateCharacter(String),
    /// A free-for-all or duel match without a roster.
    #[error("a {0} match lists its bots in `roster`")]
    NoRoster(&'static str),
    /// A roster where teams belong, or teams where a roster belongs.
    #[error("{0}")]
    WrongRosterShape(String),
    /// A team game without its teams.
    #[error("a {0} match is a team game: list `red` and `blue` and the player's side (`player_team = \"red\"` or \"blue\")")]
    NoTeams(&'static str),
    /// Teams (the player counted) more than one apart, or a side nobody plays.
    #[error("teams of {red} red and {blue} blue (the player counted) don't fit: each side needs a player and they may differ by one at most")]
    UnevenTeams {
        /// Red players, the player included if red.
        red: usize,
        /// Blue players, the player included if blue.
        blue: usize,
    },
    /// A duel with other than one opponent.
    #[error("a duel has exactly one opponent in `roster`; this one has {0}")]
    DuelRoster(usize),
    /// More players than slots.
    #[error("{players} players (the roster and the player) don't fit in {slots} slots (sv_maxclients)")]
    TooManyPlayers {
        /// The roster plus the player.
        players: usize,
        /// The slots.
        slots: usize,
    },
}
