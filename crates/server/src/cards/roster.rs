//! Setting a card match up on a server: the settings it runs with (as
//! console commands, run with the startup's `+commands` so the first match
//! already has them) and its bots, added through the bot manager as
//! `addbot` adds them, each with its character, its effective skill and,
//! in team games, its team.

use quarry_console::CvarSet;
use quarry_sim::{SlotId, Team};

use super::manifest::{Card, CardMatch, RosterEntry};
use crate::cli::PlusCommand;

/// The console commands that set `m` up: game type, limits (a limit the
/// card leaves out goes back to its built-in default), warmup on (a live
/// card match waits for its player; a headless one never warms up), no
/// fill bots (only the roster plays), characters on, then the map.
pub fn match_commands(m: &CardMatch) -> Vec<PlusCommand> {
    let cmd = |name: &str, args: &[String]| PlusCommand { name: name.to_owned(), args: args.to_vec() };
    let set = |cvar: &str, value: String| cmd("set", &[cvar.to_owned(), value]);
    let mut out = vec![set("g_gametype", m.gametype.name().to_owned())];
    for (cvar, value) in [("fraglimit", m.limits.fraglimit), ("capturelimit", m.limits.capturelimit), ("roundlimit", m.limits.roundlimit)] {
        out.push(match value {
            Some(v) => set(cvar, v.to_string()),
            None => cmd("reset", &[cvar.to_owned()]),
        });
    }
    out.push(set("timelimit", m.limits.timelimit_min.to_string()));
    out.push(set("g_warmup", "1".to_owned()));
    out.push(set("bot_minPlayers", "0".to_owned()));
    out.push(set("bot_maxBots", "0".to_owned()));
    out.push(set("bot_characters", "1".to_owned()));
    out.push(cmd("map", std::slice::from_ref(&m.map)));
    out
}

/// The order to add `m`'s roster in, after the player, so that the teams
/// never differ by more than one on the way (each bot then joins the side
/// it asks for: the rules' balance allows it). Free-for-all: card order.
pub fn join_order(m: &CardMatch) -> Vec<usize> {
    let of = |team: Team| m.roster.iter().enumerate().filter(|(_, e)| e.team == team).map(|(i, _)| i).collect::<Vec<_>>();
    if m.player_team == Team::Free {
        return (0..m.roster.len()).collect();
    }
    let (mut red, mut blue) = (of(Team::Red).into_iter(), of(Team::Blue).into_iter());
    let (mut r, mut b) = (usize::from(m.player_team == Team::Red), usize::from(m.player_team == Team::Blue));
    let mut out = Vec::with_capacity(m.roster.len());
    loop {
        // The smaller side first; on a tie, the side with more to come.
        let red_next = match (red.len(), blue.len()) {
            (0, 0) => break,
            (_, 0) => true,
            (0, _) => false,
            (rl, bl) => r < b || (r == b && rl >= bl),
        };
        let next = if red_next { red.next() } else { blue.next() };
        let Some(i) = next else { break };
        if red_next {
            r += 1;
        } else {
            b += 1;
        }
        out.push(i);
    }
    out
}

/// A bot a card match added.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AddedBot {
    /// Its slot.
    pub slot: SlotId,
    /// Its name on the server.
    pub name: String,
    /// Its character.
    pub character: String,
    /// Its effective skill.
    pub skill: f32,
    /// Its team (`Free` outside team games).
    pub team: Team,
}

/// Adds one bot wearing `character` at `skill` on `team`.
pub fn add_bot(bots: &mut quarry_bots::BotManager, game: &mut quarry_sim::Match, cvars: &CvarSet, character: &str, skill: f32, team: Team) -> Result<AddedBot, String> {
    bots.update_settings(cvars);
    let req = quarry_bots::AddBot {
        name: Some(character.to_owned()),
        skill: Some(skill),
        character: Some(character.to_owned()),
        team: (team != Team::Free).then_some(team),
        ..Default::default()
    };
    let slot = bots.add_bot(game, req).map_err(|e| format!("{character}: {e}"))?;
    let (name, team) = game.slots().get(slot).map_or((String::new(), team), |s| (s.userinfo.name.clone(), s.team));
    Ok(AddedBot { slot, name, character: character.to_owned(), skill, team })
}

/// Adds `m`'s roster of `card` at `difficulty` in [`join_order`] (the
/// player, or the stand-in, already in).
pub fn add_roster(bots: &mut quarry_bots::BotManager, game: &mut quarry_sim::Match, cvars: &CvarSet, card: &Card, m: &CardMatch, difficulty: f32) -> Result<Vec<AddedBot>, String> {
    let mut added = Vec::with_capacity(m.roster.len());
    for i in join_order(m) {
        let Some(RosterEntry { character, offset, team }) = m.roster.get(i) else { continue };
        added.push(add_bot(bots, game, cvars, character, card.skill(m.id.tier, difficulty, *offset), *team)?);
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::manifest::{Limits, MatchId};
    use quarry_sim::rules::GameType;

    fn team_match(player: Team, red: usize, blue: usize) -> CardMatch {
        let entry = |i: usize, team| RosterEntry { character: format!("c{i}"), offset: 0.0, team };
        let roster = (0..red).map(|i| entry(i, Team::Red)).chain((0..blue).map(|i| entry(red + i, Team::Blue))).collect();
        CardMatch {
            id: MatchId { tier: 0, index: 0 },
            title: None,
            map: "q_ctf1".into(),
            gametype: GameType::Ctf,
            limits: Limits { timelimit_min: 1.0, ..Limits::default() },
            player_team: player,
            roster,
            line: 1,
        }
    }

    #[test]
    fn teams_stay_within_one_while_the_roster_joins() {
        for (player, red, blue) in [(Team::Red, 3, 4), (Team::Blue, 4, 3), (Team::Red, 2, 3), (Team::Blue, 3, 3), (Team::Red, 0, 1)] {
            let m = team_match(player, red, blue);
            let order = join_order(&m);
            assert_eq!(order.len(), m.roster.len());
            let (mut r, mut b) = (i32::from(player == Team::Red), i32::from(player == Team::Blue));
            for i in order {
                match m.roster[i].team {
                    Team::Red => r += 1,
                    _ => b += 1,
                }
                assert!((r - b).abs() <= 1, "{player:?} {red}v{blue}: {r} red, {b} blue");
            }
        }
    }

    #[test]
    fn the_commands_set_every_limit_and_load_the_map_last() {
        let mut m = team_match(Team::Red, 1, 1);
        m.limits.capturelimit = Some(3);
        let cmds = match_commands(&m);
        let text: Vec<String> = cmds.iter().map(|c| format!("{} {}", c.name, c.args.join(" "))).collect();
        assert!(text.contains(&"set g_gametype ctf".to_owned()), "{text:?}");
        assert!(text.contains(&"set capturelimit 3".to_owned()) && text.contains(&"reset fraglimit".to_owned()), "{text:?}");
        assert!(text.contains(&"set bot_minPlayers 0".to_owned()), "{text:?}");
        assert_eq!(text.last().map(String::as_str), Some("map q_ctf1"));
    }
}
