//! The operator's word with one player and the teams: `tell`, `mute`,
//! `unmute`, `lock`, `unlock`. They act on remote players through the
//! network side (a bot has no one to tell, and its chat is the server's).

use quarry_console::{CommandDef, Console, ConsoleError};
use quarry_sim::Team;

use super::{err, find_client};
use crate::network::NetServer;
use crate::state::ServerState;

/// The longest line `tell` sends (a chat line's length).
const MAX_TELL_CHARS: usize = 150;

/// Registers `tell`, `mute`, `unmute`, `lock` and `unlock`.
pub(super) fn register(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(
        CommandDef::new("tell", "tell NAME|SLOT TEXT", "send a line to one player only, as the server", |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let [who, words @ ..] = args else { return Err(ConsoleError::Usage { usage: "tell NAME|SLOT TEXT".into() }) };
            if words.is_empty() {
                return Err(ConsoleError::Usage { usage: "tell NAME|SLOT TEXT".into() });
            }
            let text: String = words.join(" ").chars().filter(|c| !c.is_control()).take(MAX_TELL_CHARS).collect();
            let (slot, net) = remote(state, "tell", who)?;
            if !net.tell(slot, &text) {
                return Err(err("tell", format!("'{who}' is not a remote player")));
            }
            console.print(format!("told slot {}: {text}", slot.0));
            Ok(())
        })
        .complete_with(|console, args, partial| if args.is_empty() { console.complete_name(partial) } else { Vec::new() }),
    )?;
    for (name, muted) in [("mute", true), ("unmute", false)] {
        let help = if muted { "drop a player's chat (they are told, no one else sees it) until unmute or they leave" } else { "let a muted player chat again" };
        console.register_command(
            CommandDef::new(name, if muted { "mute NAME|SLOT" } else { "unmute NAME|SLOT" }, help, move |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
                let [who] = args else { return Err(ConsoleError::Usage { usage: format!("{name} NAME|SLOT") }) };
                let (slot, net) = remote(state, name, who)?;
                if !net.set_muted(slot, muted) {
                    return Err(err(name, format!("'{who}' is not a remote player")));
                }
                console.print(format!("slot {} is {}", slot.0, if muted { "muted" } else { "no longer muted" }));
                Ok(())
            })
            .complete_with(|console, args, partial| if args.is_empty() { console.complete_name(partial) } else { Vec::new() }),
        )?;
    }
    for (name, locked) in [("lock", true), ("unlock", false)] {
        let help = if locked { "stop players joining a team by their own choice (forceteam still moves them)" } else { "open a locked team again (no TEAM: both)" };
        console.register_command(CommandDef::new(name, if locked { "lock red|blue" } else { "unlock [red|blue]" }, help, move |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let teams = match args {
                [t] => vec![Team::parse(t).ok_or_else(|| err(name, format!("unknown team '{t}' (red, blue)")))?],
                [] if !locked => vec![Team::Red, Team::Blue],
                _ => return Err(ConsoleError::Usage { usage: if locked { "lock red|blue".into() } else { "unlock [red|blue]".into() } }),
            };
            let net = state.net.as_mut().ok_or_else(|| err(name, "the network is not running"))?;
            for team in teams {
                net.team_locks.set(team, locked).map_err(|e| err(name, e.to_string()))?;
                console.print(format!("the {} team is {}", team.name(), if locked { "locked" } else { "open" }));
            }
            Ok(())
        }))?;
    }
    Ok(())
}

/// The slot `who` names and the network, or why not.
fn remote<'a>(state: &'a mut ServerState, command: &str, who: &str) -> Result<(quarry_sim::SlotId, &'a mut NetServer), ConsoleError> {
    let slot = find_client(state, who).ok_or_else(|| err(command, format!("no player '{who}'")))?;
    let net = state.net.as_mut().ok_or_else(|| err(command, "the network is not running"))?;
    Ok((slot, net))
}
