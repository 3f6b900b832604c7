//! `card NAME --as CHARACTER`: the whole card played headless,
//! match after match, a bot wearing CHARACTER standing in for the player,
//! then a results table (per match: winner, scores, the stand-in's place)
//! or, with `--json`, one JSON object. `--match T.M` plays one match.
//!
//! Every match is played, locked or not: the run is a benchmark of the
//! bots. Progression is reported as the stand-in would have earned it,
//! playing the card in order (a win counts only where the match was open to
//! it then), and the player progress file is never written: a benchmark is
//! not a player.
//!
//! Each match is a fresh server built as `--fast` builds one (the config
//! directory, `archive.cfg`, `server.cfg`, the environment and the
//! command line's `+commands`, then the card's settings, which win), with
//! the stand-in added first and the roster after it. The stand-in plays at
//! the tier's base skill plus the difficulty (an even opponent for the
//! tier), or at the skill `--as CHARACTER:SKILL` fixes for every match (how
//! far would a skill-4 Wren climb?). The match seed
//! is derived from `--seed` (default 0) and the match's place, so a run
//! repeats exactly.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use quarry_sim::Team;

use crate::cards::commands::difficulty;
use crate::cards::manifest::{Card, CardContext, CardMatch, Limits, MatchId, known_characters};
use crate::cards::outcome::{MatchResult, Placing, Winner, placing, score_line, winner};
use crate::cards::progress::{MatchStatus, Progress};
use crate::cards::roster::{AddedBot, add_bot, add_roster, match_commands};
use crate::cli::{Cli, PlusCommand};
use crate::server::{Server, ServerOptions};

/// Ticks a match may run past its time limit before the run gives up on
/// it (a match always ends on its time limit; this only guards the loop).
const OVERTIME_S: f64 = 60.0;

/// The stand-in's part of one match.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StandIn {
    /// The bot standing in.
    pub bot: AddedBot,
    /// Where it placed (`None` if it ended off the scoreboard).
    pub placing: Option<Placing>,
}

/// One match of the run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PlayedMatch {
    /// Which match.
    pub id: MatchId,
    /// Its title on the card.
    pub title: Option<String>,
    /// Whether it is its tier's boss.
    pub boss: bool,
    /// The map.
    pub map: String,
    /// The game type.
    pub gametype: &'static str,
    /// Its limits.
    pub limits: Limits,
    /// The match seed.
    pub seed: u64,
    /// Whether it was open to the stand-in, by the progress it had earned.
    pub status: MatchStatus,
    /// Whether its result counted toward that progress.
    pub counted: bool,
    /// Who won.
    pub winner: Winner,
    /// The scores in short (`3-1`, `12-9-7`).
    pub score: String,
    /// The rule that ended it.
    pub end_reason: Option<String>,
    /// The stand-in's result.
    pub stand_in: StandIn,
    /// The roster's bots.
    pub bots: Vec<AddedBot>,
    /// The final scoreboard.
    pub scoreboard: quarry_sim::Scoreboard,
    /// Ticks simulated.
    pub ticks: u32,
    /// Seconds simulated.
    pub simulated_seconds: f64,
    /// Wall-clock seconds it took.
    pub wall_seconds: f64,
    /// The state hash after the last tick (same card, seed and build: same hash).
    pub final_hash: String,
}

/// The whole run.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CardRun {
    /// The card's name.
    pub card: String,
    /// Its title.
    pub title: String,
    /// The stand-in's character.
    pub stand_in: String,
    /// The stand-in's skill when `--as NAME:SKILL` fixed it; `None`: each
    /// tier's base skill plus the difficulty.
    pub stand_in_skill: Option<f32>,
    /// `g_cardDifficulty` during the run.
    pub difficulty: f32,
    /// The seed the match seeds derive from.
    pub seed: u64,
    /// The matches, in card order.
    pub matches: Vec<PlayedMatch>,
    /// The stand-in's progress as earned.
    pub progress: RunProgress,
    /// Wall-clock seconds of the whole run.
    pub wall_seconds: f64,
}

/// What the stand-in earned.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunProgress {
    /// Matches it won (open or not).
    pub won: usize,
    /// Matches played.
    pub played: usize,
    /// Matches won that counted (they were open).
    pub earned: usize,
    /// Matches in the card.
    pub total: usize,
    /// Whether it completed the card.
    pub completed: bool,
    /// What was open at the end.
    pub open: Vec<MatchId>,
}

/// Runs `card NAME` (see the module doc) and returns the exit code:
/// 0 when every match was played, 2 for a bad card or bad flags, 1 when a
/// match could not be played.
pub fn run(cli: &Cli) -> ExitCode {
    match run_card(cli) {
        Ok(run) => {
            print_run(&run, cli.json);
            ExitCode::SUCCESS
        }
        Err(RunError::Refused(e)) => {
            eprintln!("quarry-server: {e}");
            ExitCode::from(2)
        }
        Err(RunError::Failed(e)) => {
            eprintln!("quarry-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Why a run stopped.
#[derive(Debug)]
enum RunError {
    /// Before any match: a bad card or flags.
    Refused(String),
    /// A match could not be played.
    Failed(String),
}

fn run_card(cli: &Cli) -> Result<CardRun, RunError> {
    let refuse = |e: &dyn std::fmt::Display| RunError::Refused(e.to_string());
    let name = cli.card.as_deref().ok_or_else(|| refuse(&"--card NAME names the card"))?;
    if cli.record.is_some() {
        return Err(refuse(&"--record records one match; a card run plays many (record its matches one at a time with +commands)"));
    }
    let plus = crate::cli::split_plus_commands(&cli.commands).map_err(|e| refuse(&e))?;
    let characters = crate::cards::character_names(&cli.botfiles);
    let ctx = CardContext { maps_dir: &cli.maps, characters: &characters };
    let card = Card::load(&cli.config, name, &ctx).map_err(|e| refuse(&e))?;
    let (stand_in, fixed_skill) = stand_in_of(cli, &characters)?;
    let ids = matches_to_play(cli, &card)?;
    let base_seed = cli.seed.unwrap_or(0);
    let stop = crate::server::stop_on_signals(cli.log_file.is_some());
    let wall = Instant::now();
    let shape = card.shape();
    let mut earned = Progress::default();
    let mut played = Vec::with_capacity(ids.len());
    let mut diff = 0.0;
    for (n, id) in ids.iter().enumerate() {
        let Some(m) = card.get(*id) else { continue };
        let seed = crate::game::splitmix64(base_seed ^ ((id.tier as u64) << 32 | id.index as u64));
        let setup = MatchSetup { cli, plus: &plus, card: &card, m, seed, stand_in: &stand_in, stand_in_skill: fixed_skill, check_card: n == 0 };
        let (mut p, d) = play_match(&setup, &stop)?;
        diff = d;
        p.status = earned.status(&shape, *id);
        let won = p.stand_in.placing.is_some_and(|pl| pl.result == MatchResult::Won);
        p.counted = p.status != MatchStatus::Locked;
        if p.counted {
            earned.record(*id, won);
        }
        tracing::info!(
            "card {} {id}: {} on {} ({}), winner {}, {} placed {} ({} s simulated in {:.1} s)",
            card.name,
            p.gametype,
            p.map,
            p.score,
            p.winner,
            stand_in,
            p.stand_in.placing.map_or_else(|| "-".to_owned(), |pl| pl.to_string()),
            p.simulated_seconds.round(),
            p.wall_seconds
        );
        played.push(p);
    }
    let won = played.iter().filter(|p| p.stand_in.placing.is_some_and(|pl| pl.result == MatchResult::Won)).count();
    let progress = RunProgress {
        won,
        played: played.len(),
        earned: earned.won_count(&shape),
        total: shape.iter().sum(),
        completed: earned.completed(&shape),
        open: earned.open_matches(&shape),
    };
    Ok(CardRun {
        card: card.name.clone(),
        title: card.display_title().to_owned(),
        stand_in,
        stand_in_skill: fixed_skill,
        difficulty: diff,
        seed: base_seed,
        matches: played,
        progress,
        wall_seconds: wall.elapsed().as_secs_f64(),
    })
}

/// The character standing in for the player (`--as CHARACTER[:SKILL]`),
/// as the botfiles spell it, and the skill it is fixed at, if any.
fn stand_in_of(cli: &Cli, characters: &[String]) -> Result<(String, Option<f32>), RunError> {
    let refuse = |e: &dyn std::fmt::Display| RunError::Refused(e.to_string());
    let Some(asked) = cli.stand_in.as_deref() else {
        return Err(refuse(&format!("a card run plays the card with a bot standing in for the player: give --as CHARACTER[:SKILL] ({})", known_characters(characters))));
    };
    let (asked, fixed_skill) = parse_stand_in(asked).map_err(|e| refuse(&e))?;
    let stand_in = characters
        .iter()
        .find(|c| c.eq_ignore_ascii_case(asked))
        .cloned()
        .ok_or_else(|| refuse(&format!("--as {asked}: no such character ({})", known_characters(characters))))?;
    Ok((stand_in, fixed_skill))
}

/// The match `--match` names, or every match of the card in order.
fn matches_to_play(cli: &Cli, card: &Card) -> Result<Vec<MatchId>, RunError> {
    let refuse = |e: &dyn std::fmt::Display| RunError::Refused(e.to_string());
    Ok(match cli.match_id.as_deref() {
        Some(m) => {
            let id: MatchId = m.parse().map_err(|e: String| refuse(&e))?;
            card.get(id).ok_or_else(|| refuse(&format!("card {} has no match {id}", card.name)))?;
            vec![id]
        }
        None => card.matches().map(|m| m.id).collect(),
    })
}

/// What one match of the run needs.
struct MatchSetup<'a> {
    cli: &'a Cli,
    plus: &'a [PlusCommand],
    card: &'a Card,
    m: &'a CardMatch,
    seed: u64,
    stand_in: &'a str,
    /// The stand-in's fixed skill, if `--as` gave one.
    stand_in_skill: Option<f32>,
    /// Check the whole card against this server's slots first.
    check_card: bool,
}

/// Plays one match; returns it and the difficulty it was played at.
fn play_match(s: &MatchSetup<'_>, stop: &AtomicBool) -> Result<(PlayedMatch, f32), RunError> {
    let fail = |e: &dyn std::fmt::Display| RunError::Failed(format!("card {} match {}: {e}", s.card.name, s.m.id));
    let options = ServerOptions {
        config_dir: s.cli.config.clone(),
        port: None,
        fast: true,
        maps_dir: s.cli.maps.clone(),
        seed: Some(s.seed),
        botfiles_dir: Some(s.cli.botfiles.clone()),
    };
    let mut server = Server::new(&options).map_err(|e| fail(&e))?;
    let mut commands = s.plus.to_vec();
    commands.extend(match_commands(s.m));
    server.startup(&commands);
    log_console(&mut server);
    if s.check_card {
        let slots = usize::try_from(server.console.cvars().int(server.state.game.cvars.maxclients)).unwrap_or(0);
        s.card.check_slots(slots).map_err(|e| RunError::Refused(e.to_string()))?;
    }
    if let Some(e) = &server.state.startup_error {
        return Err(fail(e));
    }
    crate::headless::check_ready(&server.state.game).map_err(|e| fail(&e))?;
    let diff = difficulty(server.console.cvars());
    let cvars = server.console.cvars();
    let skill = s.stand_in_skill.unwrap_or_else(|| s.card.skill(s.m.id.tier, diff, 0.0));
    let team = s.m.player_team;
    let state = &mut server.state;
    let game = state.game.running.as_mut().ok_or_else(|| fail(&"no map is loaded"))?;
    let stand_in = add_bot(&mut state.bots, game, cvars, s.stand_in, skill, team).map_err(|e| fail(&e))?;
    let bots = add_roster(&mut state.bots, game, cvars, s.card, s.m, diff).map_err(|e| fail(&e))?;
    if let Some(bad) = std::iter::once(&stand_in).chain(&bots).find(|b| b.team != team_of(s.m, b, &stand_in)) {
        tracing::warn!("card {} {}: {} plays on {} (the card has it elsewhere)", s.card.name, s.m.id, bad.name, bad.team.name());
    }
    log_console(&mut server);
    let wall = Instant::now();
    let hz = f64::from(server.state.game.running.as_ref().map_or(60, quarry_sim::Match::hz));
    let max_ticks = ((s.m.limits.timelimit_min * 60.0 + OVERTIME_S) * hz) as u64;
    let mut ticks = 0_u64;
    while server.state.quit_reason().is_none() {
        if stop.load(Ordering::Relaxed) {
            return Err(fail(&"stopped by a signal"));
        }
        if ticks > max_ticks {
            return Err(fail(&"the match did not end on its time limit"));
        }
        server.tick();
        ticks += 1;
        log_console(&mut server);
    }
    let summary = server.summary(wall.elapsed()).ok_or_else(|| fail(&"no match to summarise"))?;
    if let Err(e) = server.shutdown() {
        tracing::warn!("card {} {}: {e}", s.card.name, s.m.id);
    }
    let board = summary.scoreboard;
    let played = PlayedMatch {
        id: s.m.id,
        title: s.m.title.clone(),
        boss: s.card.is_boss(s.m.id),
        map: s.m.map.clone(),
        gametype: s.m.gametype.name(),
        limits: s.m.limits,
        seed: s.seed,
        status: MatchStatus::Open,
        counted: false,
        winner: winner(&board),
        score: score_line(&board),
        end_reason: board.end_reason.clone(),
        stand_in: StandIn { placing: placing(&board, stand_in.slot), bot: stand_in },
        bots,
        ticks: summary.ticks,
        simulated_seconds: summary.simulated_seconds,
        wall_seconds: summary.wall_seconds,
        final_hash: summary.final_hash,
        scoreboard: board,
    };
    Ok((played, diff))
}

/// Splits `--as CHARACTER[:SKILL]`; a skill is 1 to 5.
fn parse_stand_in(asked: &str) -> Result<(&str, Option<f32>), String> {
    let Some((name, skill)) = asked.split_once(':') else { return Ok((asked, None)) };
    let (lo, hi) = crate::cards::manifest::SKILL_RANGE;
    match skill.parse::<f32>() {
        Ok(s) if (lo..=hi).contains(&s) => Ok((name, Some(s))),
        _ => Err(format!("--as {asked}: the skill after ':' is a number from {lo} to {hi}")),
    }
}

/// The team the card gives `bot` (the stand-in plays the player's side).
fn team_of(m: &CardMatch, bot: &AddedBot, stand_in: &AddedBot) -> Team {
    if bot.slot == stand_in.slot {
        return m.player_team;
    }
    m.roster.iter().find(|e| e.character == bot.character).map_or(Team::Free, |e| e.team)
}

/// Console output of a card match goes to the log file only (kills,
/// chat, joins): the run's own output is the table.
fn log_console(server: &mut Server) {
    for line in server.drain_output() {
        tracing::info!(target: crate::logging::CONSOLE_TARGET, "{line}");
    }
}

/// Prints the run: the table, or one JSON object with `json`.
pub fn print_run(run: &CardRun, json: bool) {
    let mut out = std::io::stdout().lock();
    if json {
        match serde_json::to_string(run) {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
            }
            Err(e) => tracing::error!("couldn't encode the card run: {e}"),
        }
        return;
    }
    let _ = out.write_all(table(run).as_bytes());
}

/// The results table.
pub fn table(run: &CardRun) -> String {
    let mut out = format!(
        "card {} \"{}\": {} matches, stand-in {} at {}, g_cardDifficulty {}, seed {}\n",
        run.card,
        run.title,
        run.matches.len(),
        run.stand_in,
        run.stand_in_skill.map_or_else(|| "each tier's base skill".to_owned(), |s| format!("skill {s}")),
        run.difficulty,
        run.seed
    );
    out.push_str(&format!(
        "{:<6} {:<8} {:<5} {:<20} {:<18} {:<16} {:<7} {:<6} {:>5} {:<9} {:>7} {:>7}\n",
        "match", "map", "type", "limits", "winner", "score", "place", "result", "frags", "progress", "sim s", "wall s"
    ));
    for p in &run.matches {
        let place = p.stand_in.placing;
        out.push_str(&format!(
            "{:<6} {:<8} {:<5} {:<20} {:<18} {:<16} {:<7} {:<6} {:>5} {:<9} {:>7.1} {:>7.2}\n",
            format!("{}{}", p.id, if p.boss { "*" } else { "" }),
            p.map,
            p.gametype,
            p.limits.to_string(),
            p.winner.to_string(),
            p.score,
            place.map_or_else(|| "-".to_owned(), |pl| pl.to_string()),
            place.map_or("-", |pl| pl.result.name()),
            place.map_or_else(|| "-".to_owned(), |pl| pl.frags.to_string()),
            p.status.name(),
            p.simulated_seconds,
            p.wall_seconds
        ));
    }
    let g = &run.progress;
    let open = g.open.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    out.push_str(&format!(
        "(* the tier's boss; place: the stand-in's, among players, or of the two teams; progress: whether the match was open to the stand-in by what it had won so far)\n\
         stand-in {}: won {} of {} played; progress as earned: {} of {} won, {}\n",
        run.stand_in,
        g.won,
        g.played,
        g.earned,
        g.total,
        if g.completed { "card complete".to_owned() } else { format!("open: {}", if open.is_empty() { "none" } else { &open }) }
    ));
    let ticks: u64 = run.matches.iter().map(|p| u64::from(p.ticks)).sum();
    let sim: f64 = run.matches.iter().map(|p| p.simulated_seconds).sum();
    out.push_str(&format!(
        "simulated {ticks} ticks ({:.0} s) in {:.1} s: {:.0} ticks/s, {:.1}x real time\n",
        sim,
        run.wall_seconds,
        ticks as f64 / run.wall_seconds.max(1e-9),
        sim / run.wall_seconds.max(1e-9)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_in_may_fix_its_skill() {
        assert_eq!(parse_stand_in("Wren"), Ok(("Wren", None)));
        assert_eq!(parse_stand_in("Wren:4"), Ok(("Wren", Some(4.0))));
        assert_eq!(parse_stand_in("Wren:2.5"), Ok(("Wren", Some(2.5))));
        for bad in ["Wren:9", "Wren:", "Wren:hard", "Wren:NaN"] {
            assert!(parse_stand_in(bad).is_err(), "{bad}");
        }
    }
}
