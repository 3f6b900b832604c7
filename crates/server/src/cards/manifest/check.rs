//! The manifest as TOML gives it (every field with its span) and the
//! checks that turn one `[[tier.match]]` into a [`CardMatch`]: map, game
//! type, limits, roster and teams, characters.

use std::path::{Path, PathBuf};

use quarry_sim::Team;
use quarry_sim::rules::GameType;
use serde::Deserialize;
use toml::Spanned;

use super::{CardContext, CardMatch, CardProblem, Limits, MAX_OFFSET, MatchId, RosterEntry, known_characters};

/// Whether the map at `path` loads and hosts `gametype`.
pub(super) fn map_hosts(path: &Path, gametype: GameType) -> Result<(), String> {
    let map = quarry_map::load(path, &quarry_map::LoadOptions::default()).map_err(|e| format!("map {}: {e}", path.display()))?;
    quarry_sim::Match::check_hostable(&map, gametype).map_err(|e| e.to_string())
}

type Problem = (usize, CardProblem);

/// Checks one match; returns it (its `line` still a byte offset), the map
/// file and where its game type is written.
pub(super) fn check_match(id: MatchId, raw: RawMatch, ctx: &CardContext<'_>) -> Result<(CardMatch, PathBuf, usize), Problem> {
    let map_at = raw.map.span().start;
    let map_name = raw.map.get_ref().clone();
    let map_path = crate::game::resolve_map(ctx.maps_dir, &map_name)
        .ok()
        .filter(|p| p.is_file())
        .ok_or_else(|| (map_at, CardProblem::UnknownMap { path: ctx.maps_dir.join(format!("{map_name}.map")).display().to_string(), name: map_name.clone() }))?;
    let gametype_at = raw.gametype.span().start;
    let gametype = GameType::parse(raw.gametype.get_ref()).ok_or_else(|| (gametype_at, CardProblem::UnknownGameType(raw.gametype.get_ref().clone())))?;
    let limits = check_limits(gametype, &raw, map_at)?;
    let title = raw.title.clone();
    let (roster, player_team, roster_at) = check_roster(gametype, raw, ctx, map_at)?;
    let card_match = CardMatch { id, title, map: map_name, gametype, limits, player_team, roster, line: roster_at };
    Ok((card_match, map_path, gametype_at))
}

fn check_limits(gametype: GameType, raw: &RawMatch, map_at: usize) -> Result<Limits, Problem> {
    let uses = if gametype.has_flags() {
        "capturelimit"
    } else if gametype.is_round_based() {
        "roundlimit"
    } else {
        "fraglimit"
    };
    let mut limits = Limits::default();
    for (name, value, slot, max) in [
        ("fraglimit", &raw.fraglimit, &mut limits.fraglimit, 9999),
        ("capturelimit", &raw.capturelimit, &mut limits.capturelimit, 9999),
        ("roundlimit", &raw.roundlimit, &mut limits.roundlimit, 999),
    ] {
        let Some(v) = value else { continue };
        if name != uses {
            return Err((v.span().start, CardProblem::LimitNotUsed { limit: name, gametype: gametype.name(), uses }));
        }
        if !(0..=max).contains(v.get_ref()) {
            return Err((v.span().start, CardProblem::OutOfRange { field: name, value: *v.get_ref() as f64, min: 0.0, max: max as f64 }));
        }
        *slot = Some(*v.get_ref());
    }
    let Some(t) = &raw.timelimit else { return Err((map_at, CardProblem::NoTimelimit)) };
    if !(t.get_ref().is_finite() && *t.get_ref() > 0.0 && *t.get_ref() <= 1440.0) {
        return Err((t.span().start, CardProblem::OutOfRange { field: "timelimit", value: *t.get_ref(), min: 0.0, max: 1440.0 }));
    }
    limits.timelimit_min = *t.get_ref();
    Ok(limits)
}

/// The roster as the game type wants it, the player's team and where the
/// roster is written.
fn check_roster(gametype: GameType, raw: RawMatch, ctx: &CardContext<'_>, map_at: usize) -> Result<(Vec<RosterEntry>, Team, usize), Problem> {
    let name = gametype.name();
    let mut out = Vec::new();
    let (player_team, roster_at) = if gametype.is_team_game() {
        if let Some(r) = &raw.roster {
            return Err((r.span().start, CardProblem::WrongRosterShape(format!("a {name} match lists `red` and `blue`, not `roster`"))));
        }
        let (Some(red), Some(blue), Some(side)) = (raw.red, raw.blue, raw.player_team) else {
            return Err((map_at, CardProblem::NoTeams(name)));
        };
        let team = match side.get_ref().to_ascii_lowercase().as_str() {
            "red" => Team::Red,
            "blue" => Team::Blue,
            other => return Err((side.span().start, CardProblem::WrongRosterShape(format!("player_team is \"red\" or \"blue\", not \"{other}\"")))),
        };
        let at = red.span().start.min(blue.span().start);
        let (r, b) = (red.get_ref().len() + usize::from(team == Team::Red), blue.get_ref().len() + usize::from(team == Team::Blue));
        if r == 0 || b == 0 || r.abs_diff(b) > 1 {
            return Err((at, CardProblem::UnevenTeams { red: r, blue: b }));
        }
        for (side, list) in [(Team::Red, red), (Team::Blue, blue)] {
            for e in list.into_inner() {
                out.push(check_entry(e, side, ctx)?);
            }
        }
        (team, at)
    } else {
        if let Some(t) = raw.red.as_ref().map(Spanned::span).or(raw.blue.as_ref().map(Spanned::span)).or(raw.player_team.as_ref().map(Spanned::span)) {
            return Err((t.start, CardProblem::WrongRosterShape(format!("{name} has no teams: list the bots in `roster`"))));
        }
        let Some(roster) = raw.roster else { return Err((map_at, CardProblem::NoRoster(name))) };
        let at = roster.span().start;
        if roster.get_ref().is_empty() {
            return Err((at, CardProblem::NoRoster(name)));
        }
        if gametype == GameType::Duel && roster.get_ref().len() != 1 {
            return Err((at, CardProblem::DuelRoster(roster.get_ref().len())));
        }
        for e in roster.into_inner() {
            out.push(check_entry(e, Team::Free, ctx)?);
        }
        (Team::Free, at)
    };
    let players = out.len() + 1;
    if players > quarry_sim::slots::MAX_SLOTS {
        return Err((roster_at, CardProblem::TooManyPlayers { players, slots: quarry_sim::slots::MAX_SLOTS }));
    }
    for (i, e) in out.iter().enumerate() {
        if out.iter().take(i).any(|o| o.character == e.character) {
            return Err((roster_at, CardProblem::DuplicateCharacter(e.character.clone())));
        }
    }
    Ok((out, player_team, roster_at))
}

fn check_entry(raw: Spanned<RawEntry>, team: Team, ctx: &CardContext<'_>) -> Result<RosterEntry, Problem> {
    let at = raw.span().start;
    let raw = raw.into_inner();
    let character = ctx
        .characters
        .iter()
        .find(|c| c.eq_ignore_ascii_case(raw.character.get_ref()))
        .ok_or_else(|| (raw.character.span().start, CardProblem::UnknownCharacter { name: raw.character.get_ref().clone(), known: known_characters(ctx.characters) }))?;
    if !(raw.offset.is_finite() && raw.offset.abs() <= MAX_OFFSET) {
        return Err((at, CardProblem::OutOfRange { field: "offset", value: raw.offset, min: -MAX_OFFSET, max: MAX_OFFSET }));
    }
    Ok(RosterEntry { character: character.clone(), offset: raw.offset as f32, team })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCard {
    pub(super) version: Option<Spanned<i64>>,
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    #[serde(default)]
    pub(super) tier: Vec<Spanned<RawTier>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTier {
    pub(super) name: Option<String>,
    pub(super) base_skill: Spanned<f64>,
    #[serde(rename = "match", default)]
    pub(super) matches: Vec<Spanned<RawMatch>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMatch {
    title: Option<String>,
    map: Spanned<String>,
    gametype: Spanned<String>,
    fraglimit: Option<Spanned<i64>>,
    capturelimit: Option<Spanned<i64>>,
    roundlimit: Option<Spanned<i64>>,
    timelimit: Option<Spanned<f64>>,
    roster: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    player_team: Option<Spanned<String>>,
    red: Option<Spanned<Vec<Spanned<RawEntry>>>>,
    blue: Option<Spanned<Vec<Spanned<RawEntry>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEntry {
    character: Spanned<String>,
    #[serde(default)]
    offset: f64,
}
