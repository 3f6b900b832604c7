//! The built-in console commands: `set`, `seta`, `reset`, `toggle`, `exec`,
//! `cvarlist`, `cmdlist`, `help`, `echo`.

use crate::console::{CommandDef, Console};
use crate::cvar::CvarKind;
use crate::error::{ConsoleError, CvarError};

fn usage<C>(console: &Console<C>, name: &str) -> ConsoleError {
    ConsoleError::Usage { usage: console.command(name).map(|c| c.usage.clone()).unwrap_or_default() }
}

fn cvar_names<C>(console: &Console<C>, args: &[String], partial: &str) -> Vec<String> {
    if args.is_empty() { console.cvars().names_with_prefix(partial) } else { Vec::new() }
}

fn set_command<C: 'static>(name: &'static str, archive: bool, help: &str) -> CommandDef<C> {
    CommandDef::new(name, &format!("{name} NAME VALUE"), help, move |_, console: &mut Console<C>, args| {
        let [cvar, value @ ..] = args else { return Err(usage(console, name)) };
        if value.is_empty() {
            return Err(usage(console, name));
        }
        console.set_cvar(cvar, &value.join(" "), archive, name)
    })
    .complete_with(cvar_names)
}

/// Registers the built-ins on a fresh console.
pub(crate) fn register<C: 'static>(console: &mut Console<C>) {
    let defs: Vec<CommandDef<C>> = vec![
        set_command("set", false, "set a cvar (or remember the value for a cvar registered later, during startup)"),
        set_command("seta", true, "set a cvar and archive it (the host writes the archive file after a change and at shutdown)"),
        CommandDef::new("reset", "reset NAME", "put a cvar back to its default", |_, console, args| {
            let [name] = args else { return Err(usage(console, "reset")) };
            console.cvars_mut().reset(name)?;
            Ok(())
        })
        .complete_with(cvar_names),
        CommandDef::new(
            "toggle",
            "toggle NAME [VALUE VALUE ...]",
            "flip a bool cvar, or cycle a cvar through the listed values",
            toggle,
        )
        .complete_with(cvar_names),
        CommandDef::new("exec", "exec FILE", "run the statements of a config file", |host, console, args| {
            let [file] = args else { return Err(usage(console, "exec")) };
            console.exec_file(host, file)?;
            Ok(())
        })
        .complete_with(complete_cfg_files),
        CommandDef::new("cvarlist", "cvarlist [PREFIX]", "list cvars with flags, type and value", |_, console, args| {
            let prefix = args.first().map(String::as_str).unwrap_or("");
            let mut lines = Vec::new();
            for name in console.cvars().names_with_prefix(prefix) {
                if let Some(c) = console.cvars().find(&name) {
                    lines.push(format!("{} {:<6} {:<24} \"{}\"", c.def.flags.letters(), c.def.kind.type_name(), c.def.name, c.shown_value()));
                }
            }
            let count = lines.len();
            for l in lines {
                console.print(l);
            }
            console.print(format!("{count} cvars (A archive, S server info, C cheat, R read-only, L latched)"));
            Ok(())
        }),
        CommandDef::new(
            "cvardump",
            "cvardump [PREFIX]",
            "print cvars as a commented config: each description, allowed values and `// set NAME DEFAULT`",
            |_, console, args| {
                let prefix = args.first().map(String::as_str).unwrap_or("");
                let mut lines = Vec::new();
                for name in console.cvars().names_with_prefix(prefix) {
                    let Some(c) = console.cvars().find(&name) else { continue };
                    if c.def.flags.contains(crate::CvarFlags::READ_ONLY) {
                        continue;
                    }
                    lines.push(format!("// {} ({}: {})", c.def.description, c.def.kind.type_name(), c.def.kind.allowed()));
                    lines.push(format!("// set {} {}", c.def.name, crate::quote(&c.def.default)));
                    lines.push(String::new());
                }
                for l in lines {
                    console.print(l);
                }
                Ok(())
            },
        ),
        CommandDef::new("cmdlist", "cmdlist [PREFIX]", "list commands", |_, console, args| {
            let prefix = args.first().map(|p| p.to_ascii_lowercase()).unwrap_or_default();
            let lines: Vec<String> = console
                .commands()
                .filter(|c| c.name.to_ascii_lowercase().starts_with(&prefix))
                .map(|c| format!("{:<16} {}", c.name, c.help))
                .collect();
            let count = lines.len();
            for l in lines {
                console.print(l);
            }
            console.print(format!("{count} commands"));
            Ok(())
        }),
        CommandDef::new("help", "help [NAME]", "describe a command or cvar; without a name, list the commands", help)
            .complete_with(|console, args, partial| {
                if !args.is_empty() {
                    return Vec::new();
                }
                let (_, names) = console.complete(partial);
                names
            }),
        CommandDef::new("echo", "echo TEXT", "print text", |_, console, args| {
            console.print(args.join(" "));
            Ok(())
        }),
    ];
    for def in defs {
        // Built-in names are valid by construction.
        let _ = console.register_command(def);
    }
}

fn toggle<C>(_: &mut C, console: &mut Console<C>, args: &[String]) -> Result<(), ConsoleError> {
    let [name, values @ ..] = args else { return Err(usage(console, "toggle")) };
    let Some(cvar) = console.cvars().find(name) else {
        return Err(CvarError::Unknown { name: name.clone() }.into());
    };
    let current = cvar.value().to_string();
    let next = if values.is_empty() {
        if cvar.def.kind != CvarKind::Bool {
            return Err(ConsoleError::Command {
                command: "toggle".into(),
                message: format!("{name} is not a bool; give the values to cycle through"),
            });
        }
        if cvar.value().as_bool() { "0".to_owned() } else { "1".to_owned() }
    } else {
        let pos = values.iter().position(|v| v.eq_ignore_ascii_case(&current));
        let i = pos.map_or(0, |p| (p + 1) % values.len());
        values[i].clone()
    };
    let canonical = cvar.def.name.clone();
    console.set_cvar(&canonical, &next, false, "toggle")?;
    let now = console.cvars().find(&canonical).map(|c| c.value().to_string()).unwrap_or_default();
    console.print(format!("{canonical} is now \"{now}\""));
    Ok(())
}

fn help<C>(_: &mut C, console: &mut Console<C>, args: &[String]) -> Result<(), ConsoleError> {
    if args.is_empty() {
        let lines: Vec<String> = console.commands().map(|c| format!("  {:<16} {}", c.name, c.help)).collect();
        console.print("commands (help NAME describes one command or cvar; cvarlist lists the cvars):".to_owned());
        for l in lines {
            console.print(l);
        }
        return Ok(());
    }
    let [name] = args else { return Err(usage(console, "help")) };
    if let Some(cmd) = console.command(name) {
        let text = vec![format!("{}: {}", cmd.name, cmd.help), format!("  usage: {}", cmd.usage)];
        for l in text {
            console.print(l);
        }
        return Ok(());
    }
    if let Some(c) = console.cvars().find(name) {
        let mut flags = Vec::new();
        for (f, word) in [
            (crate::CvarFlags::ARCHIVE, "archive"),
            (crate::CvarFlags::SERVER_INFO, "server-info"),
            (crate::CvarFlags::CHEAT, "cheat"),
            (crate::CvarFlags::READ_ONLY, "read-only"),
            (crate::CvarFlags::LATCHED, "latched until map change"),
            (crate::CvarFlags::SECRET, "secret (never printed)"),
            (crate::CvarFlags::PLAY, "shapes play (recorded; a replay sets it)"),
        ] {
            if c.def.flags.contains(f) {
                flags.push(word);
            }
        }
        let mut text = vec![
            format!("{}: {}", c.def.name, c.def.description),
            format!(
                "  type {}, allowed {}, default \"{}\", current \"{}\"",
                c.def.kind.type_name(),
                c.def.kind.allowed(),
                c.def.default,
                c.shown_value()
            ),
        ];
        if !flags.is_empty() {
            text.push(format!("  flags: {}", flags.join(", ")));
        }
        if let Some(l) = c.latched() {
            text.push(format!("  next map: \"{l}\""));
        }
        for l in text {
            console.print(l);
        }
        return Ok(());
    }
    Err(ConsoleError::UnknownCommand { name: name.clone(), suggestion: console.nearest_name(name) })
}

fn complete_cfg_files<C>(console: &Console<C>, args: &[String], partial: &str) -> Vec<String> {
    if !args.is_empty() {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(console.config_dir()) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".cfg") && n.starts_with(partial))
        .collect();
    names.sort();
    names
}
