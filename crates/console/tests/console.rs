//! End-to-end behaviour of the console through its public API: statements,
//! exec files, pending values, built-in commands and completion.

use quarry_console::{CommandDef, Console, ConsoleError, CvarDef, CvarError, CvarFlags, ExecError};

/// A host context that counts how often its command ran.
#[derive(Default)]
struct Host {
    kicks: Vec<String>,
}

fn console() -> Console<Host> {
    let mut c = Console::new();
    c.register_cvar(CvarDef::int("sv_fps", 60, 10, 1000, "server ticks per second")).expect("sv_fps");
    c.register_cvar(CvarDef::bool("bot_enable", true, "allow bots").flags(CvarFlags::ARCHIVE)).expect("bot_enable");
    c.register_cvar(CvarDef::enumeration("g_gametype", "ffa", &["ffa", "duel", "tdm"], "game type"))
        .expect("g_gametype");
    c.register_cvar(CvarDef::string("sv_hostname", "Quarry", "server name")).expect("sv_hostname");
    c.register_command(CommandDef::new("kick", "kick NAME", "remove a player", |host: &mut Host, console, args| {
        let [name] = args else { return Err(ConsoleError::Usage { usage: "kick NAME".into() }) };
        host.kicks.push(name.clone());
        console.print(format!("kicked {name}"));
        Ok(())
    }))
    .expect("kick");
    c.set_allow_pending(false);
    c
}

fn run(c: &mut Console<Host>, text: &str) -> (Vec<String>, Vec<ConsoleError>) {
    let mut host = Host::default();
    let d = c.execute(&mut host, text, "console");
    (c.drain_output(), d.into_iter().map(|d| d.error).collect())
}

fn value(c: &Console<Host>, name: &str) -> String {
    c.cvars().find(name).map(|c| c.value().to_string()).expect("cvar exists")
}

#[test]
fn plus_set_reaches_a_cvar_registered_later() {
    // Mirrors the server: command line applied during startup, a crate registers afterwards.
    let mut c: Console<Host> = Console::new();
    let mut host = Host::default();
    let diags = c.execute(&mut host, "set some_cvar_registered_late 5", "command line");
    assert!(diags.is_empty(), "{diags:?}");
    let id = c
        .register_cvar(CvarDef::int("some_cvar_registered_late", 1, 0, 10, "registered after +set"))
        .expect("register");
    assert_eq!(c.cvars().int(id), 5);
}

#[test]
fn bad_input_gets_a_message_and_changes_nothing() {
    let mut c = console();
    let cases = [
        ("frobnicate 1", "unknown command or cvar 'frobnicate'"),
        ("set no_such_cvar 1", "unknown cvar 'no_such_cvar'"),
        ("set sv_fps fast", "sv_fps: 'fast' is not an integer"),
        ("set sv_fps 5", "sv_fps: 5 is out of range, allowed 10..=1000"),
        ("set g_gametype ctf9", "allowed values: ffa, duel, tdm"),
        ("set sv_hostname \"unclosed", "unbalanced quote"),
        ("exec does_not_exist.cfg", "couldn't find"),
        ("set sv_fps", "usage: set NAME VALUE"),
    ];
    for (input, expected) in cases {
        let (out, errors) = run(&mut c, input);
        assert_eq!(errors.len(), 1, "{input}: {errors:?}");
        let joined = out.join("\n");
        assert!(joined.contains(expected), "{input}: got {joined:?}");
        assert!(joined.starts_with("error: console:1: "), "{input}: {joined:?}");
    }
    assert_eq!(value(&c, "sv_fps"), "60");
    assert_eq!(value(&c, "g_gametype"), "ffa");
    assert_eq!(value(&c, "sv_hostname"), "Quarry");
    assert_eq!(c.cvars().pending().count(), 0);
}

#[test]
fn one_bad_statement_does_not_stop_the_rest() {
    let mut c = console();
    let (_, errors) = run(&mut c, "set sv_fps 30; bogus; set g_gametype tdm\nset sv_hostname \"a");
    assert_eq!(errors.len(), 2);
    assert_eq!(value(&c, "sv_fps"), "30");
    assert_eq!(value(&c, "g_gametype"), "tdm");
}

#[test]
fn cvar_name_alone_prints_and_with_value_sets() {
    let mut c = console();
    let (out, _) = run(&mut c, "sv_fps");
    assert_eq!(out, vec!["\"sv_fps\" is \"60\" (default \"60\")"]);
    run(&mut c, "SV_FPS 90");
    assert_eq!(value(&c, "sv_fps"), "90");
    run(&mut c, "sv_hostname My Quarry Server");
    assert_eq!(value(&c, "sv_hostname"), "My Quarry Server");
}

#[test]
fn host_commands_get_the_host() {
    let mut c = console();
    let mut host = Host::default();
    c.execute(&mut host, "kick Alice; kick \"Bob the Bot\"", "console");
    assert_eq!(host.kicks, vec!["Alice", "Bob the Bot"]);
}

#[test]
fn toggle_flips_bools_and_cycles_values() {
    let mut c = console();
    run(&mut c, "toggle bot_enable");
    assert_eq!(value(&c, "bot_enable"), "0");
    run(&mut c, "toggle g_gametype ffa duel tdm");
    assert_eq!(value(&c, "g_gametype"), "duel");
    run(&mut c, "toggle g_gametype ffa duel tdm; toggle g_gametype ffa duel tdm");
    assert_eq!(value(&c, "g_gametype"), "ffa");
    let (_, e) = run(&mut c, "toggle sv_fps");
    assert!(matches!(e[..], [ConsoleError::Command { .. }]), "{e:?}");
}

#[test]
fn reset_seta_and_help() {
    let mut c = console();
    run(&mut c, "set sv_fps 120; reset sv_fps; seta sv_hostname Arena");
    assert_eq!(value(&c, "sv_fps"), "60");
    assert!(c.cvars().find("sv_hostname").expect("cvar").is_archived());
    let (out, _) = run(&mut c, "help sv_fps");
    assert_eq!(out[0], "sv_fps: server ticks per second");
    assert!(out[1].contains("allowed 10..=1000") && out[1].contains("default \"60\""), "{out:?}");
    let (out, _) = run(&mut c, "help set");
    assert!(out[1].contains("usage: set NAME VALUE"), "{out:?}");
}

#[test]
fn cvarlist_and_cmdlist_filter_by_prefix() {
    let mut c = console();
    let (out, _) = run(&mut c, "cvarlist sv_");
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].contains("sv_fps") && out[1].contains("sv_hostname"));
    assert_eq!(out[2], "2 cvars (A archive, S server info, C cheat, R read-only, L latched)");
    let (out, _) = run(&mut c, "cmdlist k");
    assert_eq!(out, vec!["kick             remove a player", "1 commands"]);
}

#[test]
fn completion_of_names_and_arguments() {
    let c = console();
    assert_eq!(c.complete("sv_"), (0, vec!["sv_fps".to_owned(), "sv_hostname".to_owned()]));
    assert_eq!(c.complete("set g_"), (4, vec!["g_gametype".to_owned()]));
    assert_eq!(c.complete("echo x; tog"), (8, vec!["toggle".to_owned()]));
    assert_eq!(c.complete("kick A").1, Vec::<String>::new());
}

mod exec {
    use super::*;

    fn write(dir: &std::path::Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).expect("write cfg");
    }

    #[test]
    fn nested_exec_runs_in_order_and_reports_file_and_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "a.cfg", "set sv_fps 20\nexec b\nset g_gametype duel\n");
        write(dir.path(), "b.cfg", "// comment\nset sv_fps 40\nset sv_fps oops\n");
        let mut c = console();
        c.set_config_dir(dir.path());
        let (out, errors) = run(&mut c, "exec a.cfg");
        assert_eq!(value(&c, "sv_fps"), "40");
        assert_eq!(value(&c, "g_gametype"), "duel");
        assert_eq!(errors.len(), 0, "inner errors are reported by the inner exec: {errors:?}");
        let line = out.iter().find(|l| l.contains("oops")).expect("error printed");
        assert!(line.contains("b.cfg:3:"), "{line}");
    }

    #[test]
    fn recursion_is_refused_with_the_chain() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "a.cfg", "exec b.cfg\n");
        write(dir.path(), "b.cfg", "set sv_fps 33\nexec a.cfg\n");
        let mut c = console();
        c.set_config_dir(dir.path());
        let mut host = Host::default();
        let d = c.exec_file(&mut host, "a.cfg").expect("outer exec runs");
        assert!(d.is_empty());
        let out = c.drain_output().join("\n");
        assert!(out.contains("recursion") && out.contains("a.cfg -> b.cfg -> a.cfg"), "{out}");
        assert_eq!(value(&c, "sv_fps"), "33");
    }

    #[test]
    fn depth_limit_stops_long_chains() {
        let dir = tempfile::tempdir().expect("tempdir");
        for i in 0..40 {
            write(dir.path(), &format!("c{i}.cfg"), &format!("exec c{}.cfg\n", i + 1));
        }
        let mut c = console();
        c.set_config_dir(dir.path());
        let mut host = Host::default();
        c.exec_file(&mut host, "c0").expect("outer exec runs");
        let out = c.drain_output().join("\n");
        assert!(out.contains("nesting deeper than 16 files"), "{out}");
    }

    #[test]
    fn missing_and_unreadable_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("bin.cfg"), [0xff, 0xfe, 0x00]).expect("write");
        let mut c = console();
        c.set_config_dir(dir.path());
        let mut host = Host::default();
        assert!(matches!(c.exec_file(&mut host, "nope.cfg"), Err(ExecError::NotFound { .. })));
        let e = c.exec_file(&mut host, "bin.cfg").expect_err("binary");
        assert!(e.to_string().contains("not UTF-8"), "{e}");
    }

    #[test]
    fn archive_round_trips_through_exec() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut c = console();
        run(&mut c, "set bot_enable 0; seta sv_hostname \"Dusk; Arena\"");
        let path = dir.path().join("archive.cfg");
        quarry_console::write_archive(&path, c.cvars()).expect("archive");
        let mut fresh = console();
        fresh.set_config_dir(dir.path());
        let mut host = Host::default();
        let d = fresh.exec_file(&mut host, "archive.cfg").expect("exec");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(value(&fresh, "bot_enable"), "0");
        assert_eq!(value(&fresh, "sv_hostname"), "Dusk; Arena");
    }
}

#[test]
fn late_registration_rejects_bad_pending_value_with_warning() {
    let mut c: Console<Host> = Console::new();
    run(&mut c, "set sv_maxclients 500");
    let id = c.register_cvar(CvarDef::int("sv_maxclients", 16, 1, 64, "slots")).expect("register");
    assert_eq!(c.cvars().int(id), 16);
    let out = c.drain_output().join("\n");
    assert!(out.contains("1..=64"), "{out}");
    let e = c.register_cvar(CvarDef::int("sv_maxclients", 16, 1, 64, "slots")).expect_err("dup");
    assert!(matches!(e, CvarError::AlreadyRegistered { .. }));
}
