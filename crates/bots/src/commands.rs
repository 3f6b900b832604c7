//! The bot console commands — `addbot [name] [skill] [exact]`,
//! `removebot [name]`, `kickbots`, `botlist`, `botcharacters`,
//! `botreload` — registered on any console whose host can hand out the bot
//! manager and the running match.
//!
//! The server wires them with a function from its state to a
//! [`BotAccess`]; nothing here knows the server's types.

use quarry_console::{CommandDef, Console, ConsoleError, CvarError};
use quarry_sim::{Match, Team};

use crate::content::parse_skill;
use crate::manager::{AddBot, AddBotError, BotManager};

/// What the bot commands need from the host: the manager and the match, if any.
pub struct BotAccess<'a> {
    /// The bots.
    pub bots: &'a mut BotManager,
    /// The running match.
    pub game: Option<&'a mut Match>,
}

fn fail(command: &str, message: impl ToString) -> ConsoleError {
    ConsoleError::Command {
        command: command.into(),
        message: message.to_string(),
    }
}

/// `addbot`'s usage line.
pub const ADDBOT_USAGE: &str = "addbot [NAME] [SKILL 1-5] [exact] [brain=NAME] [owner=PLAYER] [character=NAME] [team=red|blue]";

/// Parses `addbot` arguments ([`ADDBOT_USAGE`]); a lone number is a skill;
/// the `key=value` options may stand anywhere.
pub fn parse_addbot(args: &[String]) -> Result<AddBot, String> {
    let mut req = AddBot::default();
    let mut rest: Vec<&str> = Vec::new();
    for a in args {
        match a.split_once('=') {
            Some((k, v)) if k.eq_ignore_ascii_case("brain") && !v.is_empty() => req.brain = Some(v.to_owned()),
            Some((k, v)) if k.eq_ignore_ascii_case("owner") && !v.is_empty() => req.owner = Some(v.to_owned()),
            Some((k, v)) if k.eq_ignore_ascii_case("character") && !v.is_empty() => req.character = Some(v.to_owned()),
            Some((k, v)) if k.eq_ignore_ascii_case("team") => match Team::parse(v) {
                Some(team @ (Team::Red | Team::Blue)) => req.team = Some(team),
                _ => return Err(format!("team '{v}': a bot joins red or blue (or leave team= out)")),
            },
            Some(_) => return Err(format!("unknown or empty option '{a}' (options: brain=NAME, owner=PLAYER, character=NAME, team=red|blue)")),
            None => rest.push(a),
        }
    }
    if rest.last().is_some_and(|a| a.eq_ignore_ascii_case("exact")) {
        req.exact = true;
        rest.pop();
    }
    match rest.as_slice() {
        [] => {}
        [one] => match parse_skill(one) {
            Some(s) if one.parse::<f32>().is_ok() => req.skill = Some(s),
            _ if one.parse::<f32>().is_ok() => return Err(AddBotError::UnknownSkill((*one).to_owned()).to_string()),
            _ => req.name = Some((*one).to_owned()),
        },
        [name, skill] => {
            req.name = Some((*name).to_owned());
            req.skill =
                Some(parse_skill(skill).ok_or_else(|| AddBotError::UnknownSkill((*skill).to_owned()).to_string())?);
        }
        _ => return Err(format!("usage: {ADDBOT_USAGE}")),
    }
    if req.exact && req.name.is_none() {
        return Err("exact needs a name".to_owned());
    }
    Ok(req)
}

/// Registers the bot commands. `access` reaches the manager and the match
/// from the host's context.
pub fn register_commands<C: 'static>(
    console: &mut Console<C>,
    access: fn(&mut C) -> BotAccess<'_>,
) -> Result<(), CvarError> {
    console.register_command(CommandDef::new(
        "addbot",
        ADDBOT_USAGE,
        "add a bot (NAME: any, or one from the pool; SKILL overrides bot_skill for this bot; exact: the name must be free; brain: a scripted brain from botfiles/brains; owner: the player a scripted brain serves; character: the botfiles character it plays; team: the side it joins in team games)",
        move |host: &mut C, console: &mut Console<C>, args: &[String]| {
            let req = parse_addbot(args).map_err(|m| fail("addbot", m))?;
            let a = access(host);
            a.bots.update_settings(console.cvars());
            let game = a.game.ok_or_else(|| fail("addbot", AddBotError::NoMap))?;
            let slot = a.bots.add_bot(game, req).map_err(|e| fail("addbot", e))?;
            let name = game.slots().get(slot).map_or_else(String::new, |s| s.userinfo.name.clone());
            console.print(format!("added bot {name} in slot {}", slot.0));
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "removebot",
        "removebot [NAME]",
        "remove the named bot, or the last one added",
        move |host: &mut C, console: &mut Console<C>, args: &[String]| {
            if args.len() > 1 {
                return Err(ConsoleError::Usage {
                    usage: "removebot [NAME]".into(),
                });
            }
            let a = access(host);
            let game = a.game.ok_or_else(|| fail("removebot", "no map is loaded"))?;
            let name = a
                .bots
                .remove_bot(game, args.first().map(String::as_str))
                .map_err(|e| fail("removebot", e))?;
            console.print(format!("removed bot {name}"));
            Ok(())
        },
    )
    .complete_with(|console, args, partial| if args.is_empty() { console.complete_name(partial) } else { Vec::new() }))?;
    console.register_command(CommandDef::new(
        "kickbots",
        "kickbots",
        "remove every bot",
        move |host: &mut C, console: &mut Console<C>, _: &[String]| {
            let a = access(host);
            let n = match a.game {
                Some(game) => a.bots.kick_all(game),
                None => 0,
            };
            console.print(format!("removed {n} bot{}", if n == 1 { "" } else { "s" }));
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "botlist",
        "botlist",
        "list the bots (slot, name, skill, state, goal, route, enemy, frags) and the navmesh state",
        move |host: &mut C, console: &mut Console<C>, _: &[String]| {
            let a = access(host);
            a.bots.update_settings(console.cvars());
            let game = a.game.map(|g| &*g);
            for line in a.bots.list_lines(game) {
                console.print(line);
            }
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "botcharacters",
        "botcharacters",
        "list the bot characters: style, skill band, pick weight, whether it has a chat bank, which bots wear it",
        move |host: &mut C, console: &mut Console<C>, _: &[String]| {
            let a = access(host);
            a.bots.update_settings(console.cvars());
            for line in a.bots.character_lines() {
                console.print(line);
            }
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "botreload",
        "botreload",
        "re-read bot styles, characters, chats and scripted brains from the botfiles directory; bots keep their character where its name survives, scripted bots move to a brain's new version (a brain that fails to compile keeps its last good one)",
        move |host: &mut C, console: &mut Console<C>, _: &[String]| {
            let a = access(host);
            a.bots.update_settings(console.cvars());
            // Brains first: a content failure must not keep old brains.
            if let Some(b) = a.bots.load_brains() {
                console.print(format!("brains: {} loaded ({})", b.loaded.len(), if b.loaded.is_empty() { "-".to_owned() } else { b.loaded.join(", ") }));
                for e in &b.errors {
                    console.print(format!("brain not loaded (the last good version stays): {e}"));
                }
            }
            let r = a.bots.reload_content().map_err(|e| fail("botreload", e))?;
            console.print(format!(
                "reloaded {} styles, {} characters, {} chat banks ({} warning{}, see the log); {} bot{} kept their character",
                r.styles,
                r.characters,
                r.chats,
                r.warnings,
                if r.warnings == 1 { "" } else { "s" },
                r.kept,
                if r.kept == 1 { "" } else { "s" }
            ));
            Ok(())
        },
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn addbot_arguments() {
        assert_eq!(parse_addbot(&args("")), Ok(AddBot::default()));
        assert_eq!(
            parse_addbot(&args("Kestrel")).map(|r| r.name),
            Ok(Some("Kestrel".into()))
        );
        assert_eq!(parse_addbot(&args("4")).map(|r| r.skill), Ok(Some(4.0)));
        let r = parse_addbot(&args("Kestrel 2.5 exact")).expect("parses");
        assert_eq!(
            (r.name.as_deref(), r.skill, r.exact),
            (Some("Kestrel"), Some(2.5), true)
        );
        let bad = parse_addbot(&args("Kestrel hard")).expect_err("bad skill");
        assert!(bad.contains("unknown skill 'hard'"), "{bad}");
        assert!(
            parse_addbot(&args("9"))
                .expect_err("out of range")
                .contains("unknown skill '9'")
        );
        assert!(parse_addbot(&args("a 1 b c")).is_err());
        assert!(parse_addbot(&args("exact")).is_err());
    }
}
