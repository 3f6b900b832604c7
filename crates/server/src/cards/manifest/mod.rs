//! A match card's manifest, `config/cards/NAME.toml`: parsed with spans and
//! checked against what this server has (maps, game types, characters,
//! slots), every refusal naming the file and line.
//!
//! ```toml
//! version = 1
//! title = "The Quarry Ladder"
//!
//! [[tier]]
//! name = "Initiation"
//! base_skill = 1.5
//!
//! [[tier.match]]
//! map = "q_dm1"
//! gametype = "ffa"
//! fraglimit = 10
//! timelimit = 5
//! roster = [{ character = "Mote", offset = -0.5 }, { character = "Tuck" }]
//!
//! [[tier.match]]
//! map = "q_ctf1"
//! gametype = "ctf"
//! capturelimit = 3
//! timelimit = 8
//! player_team = "red"
//! red = [{ character = "Quill" }]
//! blue = [{ character = "Rook", offset = 0.5 }, { character = "Harrow" }]
//! ```
//!
//! The rules a card must keep, and why:
//! - `version` is [`CARD_VERSION`]: a card written for another format is
//!   refused rather than half understood.
//! - Every tier has [`MIN_MATCHES_PER_TIER`] to [`MAX_MATCHES_PER_TIER`]
//!   matches; the last one is the tier's boss (a shipped card has four).
//! - `timelimit` is required and above 0: a card is also a headless
//!   benchmark, and a headless match must be sure to end.
//! - A limit the game type does not use is refused (a `capturelimit` on an
//!   FFA match is a mistake, not a setting); one left out is the cvar's
//!   built-in default, never the operator's config, so the same card plays
//!   the same everywhere.
//! - Free-for-all and Duel list a `roster`; team games list `red` and
//!   `blue` and the player's side (`player_team`), with teams (the player
//!   counted) that differ by at most one, as the server's team balance
//!   (`g_teamForceBalance`) would refuse anything else. Duel has exactly one
//!   opponent. No character plays twice in one match.
//! - The roster and the player fit the server's slots (`sv_maxclients`,
//!   checked by [`Card::check_slots`] once the config has run).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use quarry_sim::Team;
use quarry_sim::rules::GameType;

mod check;
mod error;

pub use error::{CardError, CardProblem};

/// The manifest format this server reads.
pub const CARD_VERSION: i64 = 1;
/// The largest card file read (a real card is a few kilobytes).
pub const MAX_CARD_BYTES: u64 = 1 << 20;
/// The most tiers a card may have.
pub const MAX_TIERS: usize = 32;
/// The fewest matches a tier may have: at least one open match and a boss.
pub const MIN_MATCHES_PER_TIER: usize = 2;
/// The most matches a tier may have.
pub const MAX_MATCHES_PER_TIER: usize = 16;
/// The largest skill offset of one bot, either way (the skill is clamped to
/// 1-5 anyway; a larger offset is a typo).
pub const MAX_OFFSET: f64 = 4.0;
/// The lowest and highest skill a bot plays at.
pub const SKILL_RANGE: (f32, f32) = (1.0, 5.0);

/// A match's place in its card: tier and match, both from 0 (`1.3` is the
/// fourth match of the second tier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct MatchId {
    /// The tier, from 0.
    pub tier: usize,
    /// The match in its tier, from 0.
    pub index: usize,
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.tier, self.index)
    }
}

impl std::str::FromStr for MatchId {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("'{s}' is not a match: give TIER.MATCH, both from 0 (e.g. 1.3)");
        let (t, m) = s.split_once('.').ok_or_else(bad)?;
        Ok(Self { tier: t.parse().map_err(|_| bad())?, index: m.parse().map_err(|_| bad())? })
    }
}

/// The effective skill of a card bot: the tier's base, plus the difficulty
/// adjustment (`g_cardDifficulty`), plus the bot's own offset, clamped to
/// 1-5. A value that is not a number (it cannot come from a checked card)
/// counts as the lowest skill.
pub fn effective_skill(base: f32, difficulty: f32, offset: f32) -> f32 {
    let s = base + difficulty + offset;
    if s.is_nan() { SKILL_RANGE.0 } else { s.clamp(SKILL_RANGE.0, SKILL_RANGE.1) }
}

/// One bot of a match's roster.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RosterEntry {
    /// The character (as `botfiles/characters` spells it).
    pub character: String,
    /// Added to the tier's base skill.
    pub offset: f32,
    /// Its team: red or blue in team games, `Free` otherwise.
    pub team: Team,
}

/// The limits a card match sets; `None` is the cvar's built-in default.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Limits {
    /// `fraglimit` (FFA, Duel, TDM).
    pub fraglimit: Option<i64>,
    /// `capturelimit` (CTF, One Flag).
    pub capturelimit: Option<i64>,
    /// `roundlimit` (Freeze Tag, Clan Arena).
    pub roundlimit: Option<i64>,
    /// `timelimit`, minutes (always set).
    pub timelimit_min: f64,
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (v, what) in [(self.fraglimit, "frags"), (self.capturelimit, "caps"), (self.roundlimit, "rounds")] {
            if let Some(v) = v {
                write!(f, "{v} {what}, ")?;
            }
        }
        write!(f, "{} min", self.timelimit_min)
    }
}

/// One match of a card.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CardMatch {
    /// Where it stands in the card.
    pub id: MatchId,
    /// Its name on the card, if it has one.
    pub title: Option<String>,
    /// The map as the card names it (`q_dm1`, or a path to a .map file).
    pub map: String,
    /// The game type.
    #[serde(serialize_with = "gametype_name")]
    pub gametype: GameType,
    /// Its limits.
    pub limits: Limits,
    /// The player's team (`Free` outside team games).
    pub player_team: Team,
    /// The bots, in the card's order (red before blue in team games).
    pub roster: Vec<RosterEntry>,
    /// The line of the match's roster (or its map) in the card, for errors found later.
    #[serde(skip)]
    pub line: usize,
}

fn gametype_name<S: serde::Serializer>(g: &GameType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(g.name())
}

/// One tier: a base skill and its matches, the last of them the boss.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Tier {
    /// Its name on the card.
    pub name: String,
    /// The skill its bots play at before offsets and difficulty.
    pub base_skill: f32,
    /// Its matches; the last is the boss.
    pub matches: Vec<CardMatch>,
}

/// A checked match card.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Card {
    /// Its name: the file's stem (`ladder` for `config/cards/ladder.toml`).
    pub name: String,
    /// The file it came from.
    #[serde(skip)]
    pub path: PathBuf,
    /// Its title, or its name.
    pub title: String,
    /// What it is, if it says.
    pub description: Option<String>,
    /// The tiers, in order.
    pub tiers: Vec<Tier>,
}

/// What a card is checked against.
#[derive(Debug, Clone)]
pub struct CardContext<'a> {
    /// Where bare map names are looked up (`--maps`).
    pub maps_dir: &'a Path,
    /// The characters the server has (`botfiles/characters`).
    pub characters: &'a [String],
}

/// Finds a card: a bare name is `config_dir/cards/NAME.toml`; anything with
/// a path separator or a `.toml` extension is a path as given.
pub fn card_path(config_dir: &Path, arg: &str) -> Result<PathBuf, CardError> {
    if arg.contains(['/', '\\']) || arg.ends_with(".toml") {
        return Ok(PathBuf::from(arg));
    }
    if arg.is_empty() || !arg.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-')) {
        return Err(CardError::BadName(arg.to_owned()));
    }
    Ok(config_dir.join("cards").join(format!("{arg}.toml")))
}

/// The names of the cards in `config_dir/cards`, sorted.
pub fn card_names(config_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(config_dir.join("cards")) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".toml").map(str::to_owned))
        .collect();
    names.sort();
    names
}

impl Card {
    /// Reads and checks the card `arg` (a name or a path; see [`card_path`]).
    pub fn load(config_dir: &Path, arg: &str, ctx: &CardContext<'_>) -> Result<Self, CardError> {
        let path = card_path(config_dir, arg)?;
        let text = quarry_console::read_text_file(&path, MAX_CARD_BYTES).map_err(|source| CardError::Read { name: arg.to_owned(), source })?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| arg.to_owned());
        let mut card = Self::parse(&text, &path.display().to_string(), ctx)?;
        card.name = name;
        card.path = path;
        Ok(card)
    }

    /// Parses and checks card text; `file` names it in errors. Each map is
    /// loaded once to check that it hosts its game type.
    pub fn parse(text: &str, file: &str, ctx: &CardContext<'_>) -> Result<Self, CardError> {
        let fail = |offset: usize, problem: CardProblem| CardError::Invalid { file: file.to_owned(), line: line_of(text, offset), problem };
        let raw: check::RawCard = toml::from_str(text).map_err(|e| fail(e.span().map_or(0, |s| s.start), CardProblem::Syntax(e.message().trim().to_owned())))?;
        match raw.version {
            None => return Err(fail(0, CardProblem::NoVersion)),
            Some(v) if *v.get_ref() != CARD_VERSION => return Err(fail(v.span().start, CardProblem::BadVersion(*v.get_ref()))),
            Some(_) => {}
        }
        if raw.tier.is_empty() || raw.tier.len() > MAX_TIERS {
            let at = raw.tier.get(MAX_TIERS).map_or(text.len(), |t| t.span().start);
            return Err(fail(at, CardProblem::TierCount(raw.tier.len())));
        }
        let mut hosts = BTreeMap::new();
        let mut tiers = Vec::with_capacity(raw.tier.len());
        for (t, raw_tier) in raw.tier.into_iter().enumerate() {
            let tier_at = raw_tier.span().start;
            let raw_tier = raw_tier.into_inner();
            if raw_tier.matches.len() < MIN_MATCHES_PER_TIER || raw_tier.matches.len() > MAX_MATCHES_PER_TIER {
                return Err(fail(tier_at, CardProblem::MatchCount { tier: t, count: raw_tier.matches.len() }));
            }
            let base = raw_tier.base_skill;
            let (lo, hi) = (f64::from(SKILL_RANGE.0), f64::from(SKILL_RANGE.1));
            if !(lo..=hi).contains(base.get_ref()) {
                return Err(fail(base.span().start, CardProblem::OutOfRange { field: "base_skill", value: *base.get_ref(), min: lo, max: hi }));
            }
            let mut matches = Vec::with_capacity(raw_tier.matches.len());
            for (m, raw_match) in raw_tier.matches.into_iter().enumerate() {
                let id = MatchId { tier: t, index: m };
                let checked = check::check_match(id, raw_match.into_inner(), ctx).map_err(|(at, p)| fail(at, p))?;
                let (card_match, map_path, gametype_at) = checked;
                // Each map and game type is loaded and checked once.
                let key = (map_path.clone(), card_match.gametype.name());
                let verdict = hosts.entry(key).or_insert_with(|| check::map_hosts(&map_path, card_match.gametype));
                if let Err(why) = verdict {
                    return Err(fail(gametype_at, CardProblem::MapCannotHost(why.clone())));
                }
                let mut card_match = card_match;
                card_match.line = line_of(text, card_match.line);
                matches.push(card_match);
            }
            tiers.push(Tier { name: raw_tier.name.unwrap_or_else(|| format!("tier {t}")), base_skill: *base.get_ref() as f32, matches });
        }
        Ok(Self {
            name: String::new(),
            path: PathBuf::from(file),
            title: raw.title.unwrap_or_default(),
            description: raw.description,
            tiers,
        })
    }

    /// Checks that every match's roster and the player fit `slots`
    /// (`sv_maxclients`), naming the first match that does not.
    pub fn check_slots(&self, slots: usize) -> Result<(), CardError> {
        for m in self.matches() {
            let players = m.roster.len() + 1;
            if players > slots {
                return Err(CardError::Invalid { file: self.path.display().to_string(), line: m.line, problem: CardProblem::TooManyPlayers { players, slots } });
            }
        }
        Ok(())
    }

    /// Every match, tier by tier.
    pub fn matches(&self) -> impl Iterator<Item = &CardMatch> {
        self.tiers.iter().flat_map(|t| t.matches.iter())
    }

    /// The match `id`, if the card has it.
    pub fn get(&self, id: MatchId) -> Option<&CardMatch> {
        self.tiers.get(id.tier)?.matches.get(id.index)
    }

    /// How many matches each tier has (what progression needs to know).
    pub fn shape(&self) -> Vec<usize> {
        self.tiers.iter().map(|t| t.matches.len()).collect()
    }

    /// The effective skill of a bot with `offset` in tier `tier` at
    /// `difficulty`.
    pub fn skill(&self, tier: usize, difficulty: f32, offset: f32) -> f32 {
        let base = self.tiers.get(tier).map_or(SKILL_RANGE.0, |t| t.base_skill);
        effective_skill(base, difficulty, offset)
    }

    /// Whether `id` is its tier's boss (the tier's last match).
    pub fn is_boss(&self, id: MatchId) -> bool {
        self.tiers.get(id.tier).is_some_and(|t| id.index + 1 == t.matches.len())
    }

    /// The card's title, or its name when it has none.
    pub fn display_title(&self) -> &str {
        if self.title.is_empty() { &self.name } else { &self.title }
    }
}

/// The known characters as one line ("none loaded" when there are none).
pub fn known_characters(characters: &[String]) -> String {
    if characters.is_empty() { "none loaded".to_owned() } else { characters.join(", ") }
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len())).map_or(1, |t| t.bytes().filter(|b| *b == b'\n').count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    fn characters() -> Vec<String> {
        ["Brannock", "Calloway", "Mote", "Rook", "Tuck", "Wren"].map(str::to_owned).to_vec()
    }

    fn parse(text: &str) -> Result<Card, CardError> {
        let maps = repo().join("maps");
        let chars = characters();
        Card::parse(text, "cards/test.toml", &CardContext { maps_dir: &maps, characters: &chars })
    }

    /// A good card with one tier of an FFA match and a CTF boss; `edit`
    /// replaces text in it.
    fn card_text(edit: &[(&str, &str)]) -> String {
        let mut text = "version = 1\n\
                        title = \"Test\"\n\
                        \n\
                        [[tier]]\n\
                        name = \"One\"\n\
                        base_skill = 2\n\
                        \n\
                        [[tier.match]]\n\
                        map = \"q_dm1\"\n\
                        gametype = \"ffa\"\n\
                        fraglimit = 5\n\
                        timelimit = 0.5\n\
                        roster = [{ character = \"tuck\", offset = -0.5 }, { character = \"Mote\" }]\n\
                        \n\
                        [[tier.match]]\n\
                        map = \"q_ctf1\"\n\
                        gametype = \"ctf\"\n\
                        capturelimit = 2\n\
                        timelimit = 1\n\
                        player_team = \"blue\"\n\
                        red = [{ character = \"Rook\", offset = 1 }, { character = \"Wren\" }]\n\
                        blue = [{ character = \"Brannock\" }]\n"
            .to_owned();
        for (from, to) in edit {
            assert!(text.contains(from), "the test card has no {from:?}");
            text = text.replacen(from, to, 1);
        }
        text
    }

    /// The line and problem of a refused card.
    fn refused(edit: &[(&str, &str)]) -> (usize, CardProblem, String) {
        let e = parse(&card_text(edit)).expect_err("refused");
        let shown = e.to_string();
        assert!(shown.starts_with("cards/test.toml:"), "file:line first: {shown}");
        (e.line().expect("a line"), e.problem().cloned().expect("a problem"), shown)
    }

    #[test]
    fn a_good_card_parses_with_canonical_names_and_its_boss() {
        let card = parse(&card_text(&[])).expect("parses");
        assert_eq!(card.title, "Test");
        assert_eq!(card.shape(), [2]);
        let ffa = card.get(MatchId { tier: 0, index: 0 }).expect("0.0");
        assert_eq!(ffa.gametype, GameType::Ffa);
        assert_eq!(ffa.roster[0], RosterEntry { character: "Tuck".into(), offset: -0.5, team: Team::Free }, "botfiles' spelling");
        assert_eq!(ffa.limits, Limits { fraglimit: Some(5), capturelimit: None, roundlimit: None, timelimit_min: 0.5 });
        let ctf = card.get(MatchId { tier: 0, index: 1 }).expect("0.1");
        assert!(card.is_boss(ctf.id) && !card.is_boss(ffa.id));
        assert_eq!(ctf.player_team, Team::Blue);
        assert_eq!(ctf.roster.iter().map(|e| e.team).collect::<Vec<_>>(), [Team::Red, Team::Red, Team::Blue]);
        assert_eq!(ctf.line, 21, "the roster's line, for errors found later");
        assert_eq!(card.skill(0, 0.0, 1.0), 3.0);
        assert!(card.get(MatchId { tier: 1, index: 0 }).is_none());
    }

    #[test]
    fn the_skill_is_base_plus_difficulty_plus_offset_clamped_to_one_to_five() {
        assert_eq!(effective_skill(2.5, 0.0, 0.0), 2.5);
        assert_eq!(effective_skill(2.5, 1.0, -0.5), 3.0);
        assert_eq!(effective_skill(2.5, -2.0, 0.0), 1.0, "clamped at 1");
        assert_eq!(effective_skill(4.5, 2.0, 1.0), 5.0, "clamped at 5");
        assert_eq!(effective_skill(1.0, -2.0, -4.0), 1.0);
        assert_eq!(effective_skill(f32::NAN, 0.0, 0.0), 1.0, "never NaN");
        // The same card gives the same skills every time.
        let a = parse(&card_text(&[])).expect("parses");
        let b = parse(&card_text(&[])).expect("parses");
        assert_eq!(a, b);
    }

    #[test]
    fn the_shipped_ladder_has_four_tiers_of_four_over_every_map_and_game_type() {
        let chars = crate::cards::character_names(&repo().join("botfiles"));
        assert_eq!(chars.len(), 16, "{chars:?}");
        let maps = repo().join("maps");
        let card = Card::load(&repo().join("config"), "ladder", &CardContext { maps_dir: &maps, characters: &chars }).expect("the ladder is a good card");
        assert_eq!(card.name, "ladder");
        assert!(card.tiers.len() >= 4 && card.tiers.iter().all(|t| t.matches.len() == 4), "{:?}", card.shape());
        let types: std::collections::BTreeSet<&str> = card.matches().map(|m| m.gametype.name()).collect();
        assert_eq!(types.len(), 7, "every game type: {types:?}");
        let used: std::collections::BTreeSet<&str> = card.matches().map(|m| m.map.as_str()).collect();
        assert_eq!(used.into_iter().collect::<Vec<_>>(), ["q_ctf1", "q_dm1", "q_duel1"]);
        card.check_slots(16).expect("fits the default sv_maxclients");
        let bases: Vec<f32> = card.tiers.iter().map(|t| t.base_skill).collect();
        assert!(bases.windows(2).all(|w| w[0] < w[1]), "tiers get harder: {bases:?}");
    }

    #[test]
    fn an_unknown_map_is_refused_at_its_line() {
        let (line, problem, shown) = refused(&[("map = \"q_ctf1\"", "map = \"q_nowhere\"")]);
        assert_eq!(line, 16);
        assert!(matches!(problem, CardProblem::UnknownMap { ref name, .. } if name == "q_nowhere"), "{problem:?}");
        assert!(shown.contains("q_nowhere.map"), "{shown}");
    }

    #[test]
    fn a_map_that_cannot_host_the_game_type_is_refused() {
        let (line, problem, _) = refused(&[("map = \"q_ctf1\"", "map = \"q_dm1\"")]);
        assert_eq!(line, 17, "the game type's line");
        assert!(matches!(problem, CardProblem::MapCannotHost(_)), "{problem:?}");
    }

    #[test]
    fn an_unknown_character_is_refused_at_its_line_with_the_known_ones() {
        let (line, problem, shown) = refused(&[("{ character = \"Wren\" }", "{ character = \"Nobody\" }")]);
        assert_eq!(line, 21);
        assert!(matches!(problem, CardProblem::UnknownCharacter { ref name, .. } if name == "Nobody"), "{problem:?}");
        assert!(shown.contains("Brannock, Calloway"), "{shown}");
    }

    #[test]
    fn an_unknown_game_type_is_refused_at_its_line() {
        let (line, problem, _) = refused(&[("gametype = \"ffa\"", "gametype = \"deathball\"")]);
        assert_eq!((line, problem), (10, CardProblem::UnknownGameType("deathball".into())));
    }

    #[test]
    fn a_missing_or_other_version_is_refused() {
        let (line, problem, _) = refused(&[("version = 1", "version = 2")]);
        assert_eq!((line, problem), (1, CardProblem::BadVersion(2)));
        let (line, problem, _) = refused(&[("version = 1", "")]);
        assert_eq!((line, problem), (1, CardProblem::NoVersion));
        let (line, problem, _) = refused(&[("version = 1", "version = \"one\"")]);
        assert_eq!(line, 1);
        assert!(matches!(problem, CardProblem::Syntax(_)), "{problem:?}");
    }

    #[test]
    fn a_roster_too_large_for_the_slots_is_refused_at_its_line() {
        let card = parse(&card_text(&[])).expect("parses");
        card.check_slots(4).expect("3 bots and the player fit 4 slots");
        let e = card.check_slots(3).expect_err("4 players in 3 slots");
        assert_eq!(e.line(), Some(21), "the CTF roster's line");
        assert_eq!(e.problem(), Some(&CardProblem::TooManyPlayers { players: 4, slots: 3 }));
        assert!(e.to_string().starts_with("cards/test.toml:21: 4 players"), "{e}");
        // A duel has two players, whatever the slots.
        let (line, problem, _) = refused(&[("gametype = \"ffa\"", "gametype = \"duel\"")]);
        assert_eq!((line, problem), (13, CardProblem::DuelRoster(2)));
    }

    #[test]
    fn a_team_game_without_teams_or_with_uneven_ones_is_refused() {
        let (line, problem, _) = refused(&[("gametype = \"ffa\"", "gametype = \"tdm\"")]);
        assert_eq!(line, 13, "a roster where teams belong");
        assert!(matches!(problem, CardProblem::WrongRosterShape(_)), "{problem:?}");
        let (line, problem, _) = refused(&[("player_team = \"blue\"\n", "")]);
        assert_eq!((line, problem), (16, CardProblem::NoTeams("ctf")));
        parse(&card_text(&[("blue = [{ character = \"Brannock\" }]", "blue = []")])).expect("the player alone on blue against two: one apart");
        let (line, problem, _) = refused(&[("blue = [{ character = \"Brannock\" }]", "blue = []"), ("player_team = \"blue\"", "player_team = \"red\"")]);
        assert_eq!((line, problem), (21, CardProblem::UnevenTeams { red: 3, blue: 0 }));
        let (_, problem, _) = refused(&[("player_team = \"blue\"", "player_team = \"red\"")]);
        assert_eq!(problem, CardProblem::UnevenTeams { red: 3, blue: 1 });
        let (line, problem, _) = refused(&[("fraglimit = 5\n", "fraglimit = 5\nplayer_team = \"red\"\n")]);
        assert_eq!(line, 12, "teams in a free-for-all");
        assert!(matches!(problem, CardProblem::WrongRosterShape(_)), "{problem:?}");
    }

    #[test]
    fn limits_the_game_type_does_not_use_and_a_missing_timelimit_are_refused() {
        let (line, problem, _) = refused(&[("fraglimit = 5", "capturelimit = 5")]);
        assert_eq!((line, problem), (11, CardProblem::LimitNotUsed { limit: "capturelimit", gametype: "ffa", uses: "fraglimit" }));
        let (line, problem, _) = refused(&[("timelimit = 0.5\n", "")]);
        assert_eq!((line, problem), (9, CardProblem::NoTimelimit));
        let (line, problem, _) = refused(&[("timelimit = 0.5", "timelimit = 0")]);
        assert_eq!(line, 12);
        assert!(matches!(problem, CardProblem::OutOfRange { field: "timelimit", .. }), "{problem:?}");
    }

    #[test]
    fn other_mistakes_are_refused_at_their_line() {
        let (line, problem, _) = refused(&[("{ character = \"Mote\" }", "{ character = \"tuck\" }")]);
        assert_eq!((line, problem), (13, CardProblem::DuplicateCharacter("Tuck".into())));
        let (line, problem, _) = refused(&[("base_skill = 2", "base_skill = 7")]);
        assert_eq!(line, 6);
        assert!(matches!(problem, CardProblem::OutOfRange { field: "base_skill", .. }), "{problem:?}");
        let (line, problem, _) = refused(&[("offset = -0.5", "offset = -9")]);
        assert_eq!(line, 13);
        assert!(matches!(problem, CardProblem::OutOfRange { field: "offset", .. }), "{problem:?}");
        let (line, problem, _) = refused(&[("fraglimit = 5", "fraglimt = 5")]);
        assert_eq!(line, 11, "an unknown field");
        assert!(matches!(problem, CardProblem::Syntax(ref m) if m.contains("fraglimt")), "{problem:?}");
        let (line, problem, _) = refused(&[("title = \"Test\"", "title = \"Test")]);
        assert_eq!(line, 2, "bad TOML");
        assert!(matches!(problem, CardProblem::Syntax(_)), "{problem:?}");
        // A tier with only its boss.
        let one = card_text(&[]);
        let cut = one.find("\n[[tier.match]]\nmap = \"q_ctf1\"").expect("second match");
        let e = parse(&one[..cut]).expect_err("one match");
        assert_eq!((e.line(), e.problem()), (Some(4), Some(&CardProblem::MatchCount { tier: 0, count: 1 })));
        let e = parse("version = 1\n").expect_err("no tiers");
        assert_eq!(e.problem(), Some(&CardProblem::TierCount(0)));
    }

    #[test]
    fn card_names_and_paths_and_match_ids() {
        let dir = Path::new("config");
        assert_eq!(card_path(dir, "ladder").ok(), Some(PathBuf::from("config/cards/ladder.toml")));
        assert_eq!(card_path(dir, "/tmp/x.toml").ok(), Some(PathBuf::from("/tmp/x.toml")));
        assert!(matches!(card_path(dir, "bad name"), Err(CardError::BadName(_))));
        assert_eq!("1.3".parse::<MatchId>(), Ok(MatchId { tier: 1, index: 3 }));
        assert_eq!(MatchId { tier: 1, index: 3 }.to_string(), "1.3");
        for bad in ["1", "a.b", "1.-1", ""] {
            assert!(bad.parse::<MatchId>().is_err(), "{bad}");
        }
        let e = Card::load(dir, "/nonexistent/x.toml", &CardContext { maps_dir: dir, characters: &[] }).expect_err("missing");
        assert!(e.to_string().contains("no such file"), "{e}");
    }
}
