//! The server's console commands: `status`, `serverinfo`, `quit`, the map,
//! chat and scoreboard commands, and the admin ones (`kick`, `ban`, ...);
//! the word with one player and the team locks in [`moderation`].

mod maps;
mod moderation;

pub(crate) use maps::next_map;

use quarry_console::{CommandDef, Console, ConsoleError};

use crate::state::ServerState;

/// Registers the server's commands.
pub(crate) fn register(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    register_info(console)?;
    register_match(console)?;
    register_players(console)?;
    register_admin(console)?;
    register_bans(console)?;
    moderation::register(console)?;
    maps::register(console)?;
    Ok(())
}

/// `status`, `serverinfo`, `scores`: what the server and the match are.
fn register_info(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "status",
        "status",
        "show uptime, tick rate and tick time (mean, p99, max)",
        status,
    ))?;
    console.register_command(CommandDef::new(
        "serverinfo",
        "serverinfo",
        "show the server-info cvars (what a server browser sees: name, game type, limits, version)",
        |_: &mut ServerState, console: &mut Console<ServerState>, _: &[String]| {
            let lines: Vec<String> = console
                .cvars()
                .iter()
                .filter(|c| c.def.flags.contains(quarry_console::CvarFlags::SERVER_INFO))
                .map(|c| format!("{:<20} {}", c.def.name, c.shown_value()))
                .collect();
            console.print("Server info settings:");
            for line in lines {
                console.print(line);
            }
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "scores",
        "scores",
        "show the scoreboard of the running match",
        |state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]| {
            let Some(game) = state.game.running.as_ref() else {
                return Err(ConsoleError::Command { command: "scores".into(), message: "no map is loaded".into() });
            };
            for line in game.scoreboard().to_string().lines() {
                console.print(line.to_owned());
            }
            Ok(())
        },
    ))?;
    Ok(())
}

/// `quit`, `map`, `map_restart`: the server's life and the match's.
fn register_match(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "quit",
        "quit [REASON]",
        "stop the server gracefully: finish the tick, write archived cvars, exit 0",
        |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let reason = if args.is_empty() { "quit".to_owned() } else { args.join(" ") };
            console.print(format!("shutting down: {reason}"));
            state.request_quit_after_a_tick(reason);
            Ok(())
        },
    ))?;
    console.register_command(
        CommandDef::new(
            "map",
            "map NAME|PATH",
            "load a map and start a new match on it (NAME: maps/NAME.map; PATH: any .map file); everyone stays connected",
            |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
                let [name] = args else { return Err(ConsoleError::Usage { usage: "map NAME|PATH".into() }) };
                if let Some(startup) = state.startup.as_mut() {
                    // Loaded once the startup files and command line ran.
                    startup.map = Some(name.clone());
                    return Ok(());
                }
                let hz = state.cvars.tick_rate(console.cvars());
                let line = state
                    .game
                    .change_map(console.cvars_mut(), name, hz)
                    .map_err(|e| ConsoleError::Command { command: "map".into(), message: e.to_string() })?;
                console.print(line);
                Ok(())
            },
        )
        .complete_with(|_, args, partial| if args.is_empty() { map_names(partial) } else { Vec::new() }),
    )?;
    console.register_command(CommandDef::new(
        "map_restart",
        "map_restart",
        "restart the current map with a new match (latched cvars apply)",
        |state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]| {
            if state.startup.as_ref().is_some_and(|s| s.map.is_some()) {
                // The map the startup asked for starts a new match anyway.
                return Ok(());
            }
            let hz = state.cvars.tick_rate(console.cvars());
            let line = state
                .game
                .restart(console.cvars_mut(), hz)
                .map_err(|e| ConsoleError::Command { command: "map_restart".into(), message: e.to_string() })?;
            console.print(line);
            Ok(())
        },
    ))?;
    Ok(())
}

/// `say`, `print`, `forceteam`: speaking to the players and moving them.
fn register_players(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "say",
        "say TEXT",
        "send a chat line to everyone as the server",
        |state: &mut ServerState, _: &mut Console<ServerState>, args: &[String]| {
            let Some(game) = state.game.running.as_mut() else {
                return Err(ConsoleError::Command { command: "say".into(), message: "no map is loaded".into() });
            };
            game.say(None, false, &args.join(" "))
                .map_err(|e| ConsoleError::Command { command: "say".into(), message: e.to_string() })
        },
    ))?;
    console.register_command(CommandDef::new(
        "print",
        "print TEXT",
        "print a line to every player (and this console) as the server, not as chat",
        |state: &mut ServerState, _: &mut Console<ServerState>, args: &[String]| {
            let game = state.game.running.as_mut().ok_or_else(|| err("print", "no map is loaded"))?;
            game.print(&args.join(" "));
            Ok(())
        },
    ))?;
    console.register_command(
        CommandDef::new("forceteam", "forceteam NAME|SLOT TEAM", "move a player to a team (red, blue, free, spectator), as the team command would", |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let [who, team] = args else { return Err(ConsoleError::Usage { usage: "forceteam NAME|SLOT TEAM".into() }) };
            let slot = find_client(state, who).ok_or_else(|| err("forceteam", format!("no player '{who}'")))?;
            let team = quarry_sim::Team::parse(team).ok_or_else(|| err("forceteam", format!("unknown team '{team}' (red, blue, free, spectator)")))?;
            let game = state.game.running.as_mut().ok_or_else(|| err("forceteam", "no map is loaded"))?;
            game.set_team(slot, team).map_err(|e| err("forceteam", format!("slot {} stays: {e}", slot.0)))?;
            console.print(format!("slot {} is on {}", slot.0, team.name()));
            Ok(())
        })
        .complete_with(|console, args, partial| if args.is_empty() { console.complete_name(partial) } else { Vec::new() }),
    )?;
    Ok(())
}

/// Finds a client by slot number or name.
fn find_client(state: &ServerState, who: &str) -> Option<quarry_sim::SlotId> {
    let game = state.game.running.as_ref()?;
    if let Ok(n) = who.parse::<u8>() {
        let id = quarry_sim::SlotId(n);
        return game.slots().get(id).map(|_| id);
    }
    game.slots().find_by_name(who)
}

fn err(command: &str, message: impl Into<String>) -> ConsoleError {
    ConsoleError::Command { command: command.into(), message: message.into() }
}

/// Registers `kick`, `ban` and `notarget`.
fn register_admin(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "kick",
        "kick NAME|SLOT [REASON]",
        "disconnect a player (a bot is removed) with a reason they see",
        |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let [who, reason @ ..] = args else { return Err(ConsoleError::Usage { usage: "kick NAME|SLOT [REASON]".into() }) };
            let slot = find_client(state, who).ok_or_else(|| err("kick", format!("no player '{who}'")))?;
            let reason = if reason.is_empty() { "kicked by the server".to_owned() } else { reason.join(" ") };
            let remote = state.net.as_mut().is_some_and(|n| n.kick(slot, &reason));
            if !remote && let Some(game) = state.game.running.as_mut() {
                game.disconnect(slot);
            }
            console.print(format!("kicked slot {}: {reason}", slot.0));
            Ok(())
        },
    )
    .complete_with(|console, args, partial| if args.is_empty() { console.complete_name(partial) } else { Vec::new() }))?;
    console.register_command(CommandDef::new(
        "ban",
        "ban NAME|SLOT|ADDRESS[/PREFIX] [DURATION] [REASON]",
        "ban a player's address or an address range (kicking whoever is on it), for good or for a DURATION (30m, 2h, 7d); kept in bans.txt",
        |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            const USAGE: &str = "ban NAME|SLOT|ADDRESS[/PREFIX] [DURATION] [REASON]";
            let [who, rest @ ..] = args else { return Err(ConsoleError::Usage { usage: USAGE.into() }) };
            let (until, reason) = match rest.split_first() {
                Some((d, reason)) if d.starts_with(|c: char| c.is_ascii_digit()) => {
                    let secs = crate::network::parse_duration(d).map_err(|e| err("ban", e.to_string()))?;
                    (Some(crate::network::bans_now().saturating_add(secs)), reason)
                }
                _ => (None, rest),
            };
            let reason = if reason.is_empty() { "banned".to_owned() } else { reason.join(" ") };
            let Some(net) = state.net.as_ref() else { return Err(err("ban", "the network is not running")) };
            let range = match crate::network::BanRange::parse(who) {
                Ok(range) => range,
                Err(parse) => {
                    let slot = find_client(state, who).ok_or_else(|| err("ban", format!("no player '{who}', and {parse}")))?;
                    let addr = net.addr_of(slot).ok_or_else(|| err("ban", format!("'{who}' is not a remote player")))?;
                    crate::network::BanRange::new(addr.ip(), 128)
                }
            };
            let net = state.net.as_mut().ok_or_else(|| err("ban", "the network is not running"))?;
            net.bans.ban(range, &reason, until).map_err(|e| err("ban", e))?;
            for slot in net.slots_in(&range) {
                net.kick(slot, &format!("banned: {reason}"));
            }
            match until {
                Some(u) => console.print(format!("banned {range} until {}: {reason}", crate::utc::rfc3339_utc(u.saturating_mul(1000)))),
                None => console.print(format!("banned {range}: {reason}")),
            }
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "notarget",
        "notarget NAME|SLOT",
        "toggle whether bots ignore a player (for testing and spectating)",
        |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let [who] = args else { return Err(ConsoleError::Usage { usage: "notarget NAME|SLOT".into() }) };
            let slot = find_client(state, who).ok_or_else(|| err("notarget", format!("no player '{who}'")))?;
            let now = !state.bots.is_ignored(slot);
            state.bots.set_ignored(slot, now);
            console.print(format!("bots {} slot {}", if now { "now ignore" } else { "no longer ignore" }, slot.0));
            Ok(())
        },
    ))?;
    Ok(())
}

/// Registers `unban` and `banlist`.
fn register_bans(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "unban",
        "unban ADDRESS[/PREFIX]",
        "lift a ban (the address or range exactly as banlist shows it)",
        |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let [addr] = args else { return Err(ConsoleError::Usage { usage: "unban ADDRESS[/PREFIX]".into() }) };
            let range = crate::network::BanRange::parse(addr).map_err(|e| err("unban", e.to_string()))?;
            let net = state.net.as_mut().ok_or_else(|| err("unban", "the network is not running"))?;
            match net.bans.unban(range).map_err(|e| err("unban", e))? {
                true => console.print(format!("unbanned {range}")),
                false => console.print(format!("{range} was not banned")),
            }
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "banlist",
        "banlist",
        "list the bans in force: address or range, expiry (UTC), reason",
        |state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]| {
            let now = crate::network::bans_now();
            let lines: Vec<String> = state
                .net
                .as_ref()
                .map(|n| {
                    n.bans
                        .iter(now)
                        .map(|(range, b)| match b.until {
                            Some(u) => format!("{range} until {} {}", crate::utc::rfc3339_utc(u.saturating_mul(1000)), b.reason),
                            None => format!("{range} {}", b.reason),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let count = lines.len();
            for l in lines {
                console.print(l);
            }
            console.print(format!("{count} bans"));
            Ok(())
        },
    ))?;
    Ok(())
}

fn map_names(partial: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("maps") else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".map").map(str::to_owned))
        .filter(|n| n.starts_with(partial))
        .collect();
    names.sort();
    names
}

fn status(state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]) -> Result<(), ConsoleError> {
    let cvars = console.cvars();
    let ids = state.cvars;
    let summary = state.stats.summary();
    let up = state.started.elapsed().as_secs();
    let lines = vec![
        format!("hostname: {}", cvars.string(ids.sv_hostname)),
        format!("version : {}", cvars.string(ids.version)),
        format!("uptime  : {}h {:02}m {:02}s", up / 3600, up / 60 % 60, up % 60),
        format!(
            "tick    : {} Hz target, {:.2} Hz measured{}, {} ticks, {} late",
            ids.tick_rate(cvars),
            summary.rate_hz,
            if state.fast { " (--fast: no sleeping)" } else { "" },
            summary.total_ticks,
            summary.late_ticks
        ),
        format!(
            "tick time: mean {:.4} ms, p99 {:.4} ms, max {:.4} ms (last {} ticks)",
            summary.mean_ms,
            summary.p99_ms,
            summary.max_ms,
            summary.total_ticks.min(crate::tick_stats::WINDOW as u64)
        ),
        format!(
            "tick phases: {} (mean/p99 ms)",
            crate::tick_stats::Phase::ALL
                .iter()
                .zip(state.stats.phase_summary())
                .map(|(p, (mean, p99))| format!("{} {mean:.2}/{p99:.2}", p.name()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!("map     : {}", state.map_description()),
        state.game.log.status_line(),
    ];
    let mut lines = lines;
    lines.extend(state.features.status());
    if let Some(net) = state.net.as_ref() {
        lines.extend(net.status_lines());
    }
    if let Some(game) = state.game.running.as_ref() {
        let slots = game.slots();
        lines.push(format!(
            "players : {} humans, {} bots ({} of {} slots)",
            slots.humans(),
            slots.bots(),
            slots.humans() + slots.bots(),
            slots.max()
        ));
        for (id, s) in slots.iter() {
            lines.push(format!(
                "  {:>2} {:<24} {:<9} {:<5} frags {:>3}  cmds {} stale {} dup {} flood {} clamped {}",
                id.0,
                s.userinfo.name,
                s.team.name(),
                if s.kind == quarry_sim::ClientKind::Bot { "bot" } else { "human" },
                s.score.frags,
                s.input.counters.accepted,
                s.input.counters.stale,
                s.input.counters.duplicate,
                s.input.counters.flood,
                s.input.counters.clamped
            ));
        }
    }
    for l in lines {
        console.print(l);
    }
    Ok(())
}
