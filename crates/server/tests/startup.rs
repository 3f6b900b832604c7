//! What the command line does at startup, through the binary: its settings
//! reach the first match (latched ones too), they are for this run only
//! (the archive keeps what it held), and a headless run with a map that
//! does not load fails instead of measuring another map.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use support::{run_with_input, text};

mod support;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A config directory like a fresh checkout's: the shipped server.cfg (which
/// loads q_dm1) and tables, no archive.
fn shipped_config() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["server.cfg", "items.toml", "weapons.toml", "sounds.toml"] {
        std::fs::copy(root().join("config").join(name), dir.path().join(name)).expect("copy shipped config");
    }
    dir
}

/// Runs the server on `config` with `args`, feeds `stdin`, and waits for it to exit.
fn run(config: &Path, args: &[&str], stdin: &str) -> Output {
    run_logging(config, args, stdin, "warn")
}

/// [`run`] with the log filter `log` (RUST_LOG).
fn run_logging(config: &Path, args: &[&str], stdin: &str, log: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quarry-server"));
    cmd.arg("--config")
        .arg(config)
        .arg("--maps")
        .arg(root().join("maps"))
        .arg("--botfiles")
        .arg(root().join("botfiles"))
        .args(["--port", "0"])
        .args(args)
        .env("RUST_LOG", log);
    run_with_input(cmd, stdin, Duration::from_secs(60))
}

fn archived(config: &Path, name: &str) -> Option<String> {
    let archive = std::fs::read_to_string(config.join("archive.cfg")).ok()?;
    archive.lines().find_map(|l| l.strip_prefix(&format!("seta {name} ")).map(|v| v.trim_matches('"').to_owned()))
}

#[test]
fn command_line_settings_reach_the_first_match() {
    let config = shipped_config();
    let out = run(config.path(), &["+set", "g_gametype", "tdm", "+set", "sv_maxclients", "8"], "status\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{}", out.status, text(&out.stderr));
    // server.cfg's map is loaded once, after the command line: as TDM, with 8 slots.
    assert!(stdout.contains("map     : ") && stdout.contains("q_dm1.map (tdm,"), "{stdout}");
    assert!(stdout.contains("(0 of 8 slots)"), "{stdout}");
    assert_eq!(stdout.matches(" loaded in ").count(), 1, "one map load at startup\n{stdout}");
}

#[test]
fn the_command_line_map_wins_over_server_cfg() {
    let config = shipped_config();
    let out = run(config.path(), &["+set", "g_gametype", "duel", "+map", "q_duel1"], "status\nquit\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("q_duel1.map (duel,"), "{stdout}");
    assert!(!stdout.contains("q_dm1.map loaded"), "server.cfg's map was loaded too\n{stdout}");
}

#[test]
fn command_line_values_are_for_this_run_only() {
    let config = shipped_config();
    let out = run(config.path(), &["+set", "sv_hostname", "bench run", "+set", "bot_chat", "0"], "status\nquit\n");
    assert!(text(&out.stdout).contains("hostname: bench run"), "{}", text(&out.stdout));
    assert_eq!(archived(config.path(), "sv_hostname").as_deref(), Some("Quarry"));
    assert_eq!(archived(config.path(), "bot_chat").as_deref(), Some("1"));
    // Set again at the console, a value is the operator's and is kept.
    run(config.path(), &["+set", "sv_hostname", "bench run"], "set sv_hostname Arena\nquit\n");
    assert_eq!(archived(config.path(), "sv_hostname").as_deref(), Some("Arena"));
    // The next plain start uses the archive, not the earlier one-off values.
    let out = run(config.path(), &[], "status\nquit\n");
    assert!(text(&out.stdout).contains("hostname: Arena"), "{}", text(&out.stdout));
}

#[test]
fn a_headless_run_leaves_the_archive_as_it_was() {
    let config = shipped_config();
    run(config.path(), &[], "quit\n");
    let before = std::fs::read(config.path().join("archive.cfg")).expect("archive written by the first run");
    let out = run(
        config.path(),
        &["--fast", "--seed", "3", "+set", "bot_skill", "4.5", "+set", "sv_hostname", "bench run", "+set", "timelimit", "0.05", "+set", "bot_minPlayers", "2"],
        "",
    );
    assert!(out.status.success(), "exit {:?}\n{}\n{}", out.status, text(&out.stdout), text(&out.stderr));
    assert_eq!(std::fs::read(config.path().join("archive.cfg")).expect("archive"), before, "the headless run changed archive.cfg");
}

#[test]
fn a_headless_run_whose_map_does_not_load_fails() {
    let config = shipped_config();
    let out = run(config.path(), &["--fast", "--json", "+map", "nope", "+set", "timelimit", "1"], "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "exit {:?}\n{}\n{stderr}", out.status, text(&out.stdout));
    assert!(stderr.contains("map nope") && stderr.contains("not found"), "{stderr}");
    assert!(!text(&out.stdout).contains("\"final_hash\""), "a summary of another map was printed");
}

#[test]
fn commands_that_act_on_the_match_get_the_map_first() {
    let config = shipped_config();
    let out = run(config.path(), &["+set", "bot_minPlayers", "0", "+map", "q_duel1", "+map_restart", "+addbot", "+addbot"], "status\nquit\n");
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("error:"), "{stdout}");
    assert!(stdout.contains("q_duel1.map (") && stdout.contains("0 humans, 2 bots"), "{stdout}");
}

#[test]
fn a_command_line_seta_is_kept() {
    let config = shipped_config();
    run(config.path(), &["+seta", "sv_hostname", "Kept", "+set", "bot_chat", "0"], "quit\n");
    assert_eq!(archived(config.path(), "sv_hostname").as_deref(), Some("Kept"));
    assert_eq!(archived(config.path(), "bot_chat").as_deref(), Some("1"));
}

#[test]
fn a_password_is_never_printed_and_flags_go_before_commands() {
    let config = shipped_config();
    let out = run(config.path(), &["+set", "sv_password", "hunter2"], "sv_password\ncvarlist sv_pass\nstatus\nquit\n");
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{all}");
    assert!(!all.contains("hunter2"), "the password was printed:\n{all}");
    assert!(all.contains("sv_password \"(set, hidden)\""), "the banner should say it is set\n{all}");
    // A flag after a +command would have become part of the password.
    let out = run(config.path(), &["+set", "sv_password", "hunter2", "--log-file", "x.log"], "quit\n");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("'--log-file' comes after '+set'"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

#[test]
fn started_from_the_wrong_directory_it_says_so_and_creates_nothing() {
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .current_dir(elsewhere.path())
        .args(["--port", "0"])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("run quarry-server");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("config directory 'config' not found") && stderr.contains("--config DIR"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(elsewhere.path()).expect("dir").filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "it created {left:?}");
}

#[test]
fn a_plain_start_says_each_thing_once() {
    let config = shipped_config();
    let out = run_logging(config.path(), &["+set", "sv_hostname", "Quiet"], "help\nstatus\nquit\n", "info");
    let stdout = text(&out.stdout);
    let all = format!("{stdout}{}", text(&out.stderr));
    assert!(out.status.success(), "{all}");
    assert_eq!(all.matches("listening").count(), 1, "the listening line once\n{all}");
    assert!(!all.contains("hitch"), "{all}");
    assert!(stdout.contains("config: changed from defaults: ") && !stdout.contains("set from defaults"), "{stdout}");
    assert!(stdout.contains("commands (help NAME describes") && stdout.contains("  map "), "help lists the commands\n{stdout}");
    assert!(!stdout.lines().any(|l| l.trim_end() == "network :"), "an empty status line\n{stdout}");
    let out = run_logging(config.path(), &["--fast", "--seed", "2", "+set", "timelimit", "0.05"], "", "info");
    assert!(!text(&out.stderr).contains("hitch"), "{}", text(&out.stderr));
}

#[test]
fn the_environment_configures_a_container_and_the_command_line_still_wins() {
    let config = shipped_config();
    let secret = config.path().join("password");
    std::fs::write(&secret, "hunter2\n").expect("password file");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quarry-server"));
    cmd.arg("--config")
        .arg(config.path())
        .arg("--maps")
        .arg(root().join("maps"))
        .args(["--port", "0", "+set", "sv_fps", "30"])
        .env("RUST_LOG", "warn")
        .env("QUARRY_SV_HOSTNAME", "From Env")
        .env("QUARRY_G_GRAVITY", "heavy")
        .env("QUARRY_BOT_MINPLAYERS", "0")
        .env("QUARRY_SV_FPS", "20")
        .env("QUARRY_SV_PASSWORDFILE", &secret)
        .env("QUARRY_NOT_A_CVAR", "ignored")
        .env("QUARRY_SHARED_MAPS", "/nowhere");
    let out = run_with_input(cmd, "status\nsv_password\nquit\n", Duration::from_secs(60));
    let stdout = text(&out.stdout);
    let all = format!("{stdout}{}", text(&out.stderr));
    assert!(out.status.success(), "{all}");
    assert!(stdout.contains("hostname: From Env"), "{stdout}");
    assert!(all.contains("environment QUARRY_G_GRAVITY") && all.contains("heavy"), "a bad value's error names the variable: {all}");
    assert!(stdout.contains("0 humans, 0 bots"), "{stdout}");
    assert!(stdout.contains("tick    : 30 Hz target"), "the command line wins over the environment\n{stdout}");
    assert!(stdout.contains("sv_password set from") && stdout.contains("\"sv_password\" is \"(set, hidden)\""), "{stdout}");
    assert!(!all.contains("hunter2"), "the password was printed\n{all}");
    assert!(text(&out.stderr).contains("QUARRY_NOT_A_CVAR names no cvar"), "a misspelt variable is warned of: {all}");
    assert!(!all.contains("QUARRY_SHARED_MAPS names no cvar"), "the test knobs are not: {all}");
    // Like the command line, the environment is for this run.
    assert_eq!(archived(config.path(), "sv_hostname").as_deref(), Some("Quarry"));
}

#[test]
fn a_secret_file_that_cannot_be_read_stops_the_server_before_it_binds_anything() {
    let config = shipped_config();
    let missing = config.path().join("no-such-secret");
    let missing = missing.to_str().expect("utf-8");
    let web = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let web_port = web.local_addr().expect("addr").port().to_string();
    drop(web);
    for (cvar, secret) in [("sv_passwordFile", "sv_password"), ("sv_webPasswordFile", "sv_webPassword")] {
        let out = run(config.path(), &["+set", cvar, missing, "+set", "sv_webAddr", &web_port, "+set", "sv_metricsAddr", "0"], "status\nquit\n");
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{cvar}: exit 2\n{stdout}\n{stderr}");
        assert!(stderr.contains(&format!("{cvar} {missing}: no such file; refusing to run without the secret it holds ({secret})")), "{stderr}");
        assert!(!stdout.contains("listening on udp") && !stdout.contains("web view") && !stdout.contains("metrics on"), "nothing is bound: {stdout}");
    }
    // The same file readable: the server runs with the secret, never printed.
    std::fs::write(config.path().join("pw"), "s3cret-pass\n").expect("write");
    let pw = config.path().join("pw");
    let out = run(config.path(), &["+set", "sv_passwordFile", pw.to_str().expect("utf-8")], "status\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("sv_password set from") && !stdout.contains("s3cret-pass"), "{stdout}");
    // An admins file that cannot be read (a key it names is missing).
    std::fs::write(config.path().join("admins"), "alice admin\n").expect("write");
    let out = run(config.path(), &[], "quit\n");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(stderr.contains("remote admin:") && stderr.contains("refusing to start"), "{stderr}");
    assert!(!stdout.contains("listening on udp"), "{stdout}");
}

#[test]
fn lines_typed_ahead_at_a_terminal_all_run_in_order() {
    // `script` (util-linux, in every Debian) runs the server on a pseudo
    // terminal, so the console reads with line editing, as at a real one.
    let config = shipped_config();
    let server = format!(
        "{} --config {} --maps {} --port 0 +set bot_minPlayers 0",
        env!("CARGO_BIN_EXE_quarry-server"),
        config.path().display(),
        root().join("maps").display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &server, "/dev/null"])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs the server on a terminal");
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().expect("stdin");
        // Three lines in one write, before the prompt is up: typed ahead.
        stdin.write_all(b"echo ahead-one\necho ahead-two\necho ahead-three\n").expect("type ahead");
        stdin.flush().expect("flush");
        std::thread::sleep(Duration::from_secs(3));
        // And three more in one write at the prompt: a paste.
        stdin.write_all(b"echo paste-one\necho paste-two\necho paste-three\nquit\n").expect("paste");
    }
    let out = support::wait_with_deadline(child, Duration::from_secs(60));
    let stdout = without_escapes(&text(&out.stdout)).replace('\r', "");
    let outputs: Vec<&str> = stdout.lines().map(|l| l.trim_start_matches("] ").trim()).filter(|l| l.starts_with("ahead-") || l.starts_with("paste-")).collect();
    assert_eq!(outputs, ["ahead-one", "ahead-two", "ahead-three", "paste-one", "paste-two", "paste-three"], "every line ran, in order:\n{stdout}");
}

/// `text` without terminal escape sequences (`ESC [ ... final`).
fn without_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn status_counts_the_services_and_says_why_metrics_are_not_serving() {
    let config = shipped_config();
    // The metrics port is taken: the server runs, and `status` says so
    // rather than "off".
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("addr").to_string();
    let out = run(config.path(), &["+set", "sv_metricsAddr", &addr, "+set", "bot_minPlayers", "0"], "status\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains(&format!("metrics : not serving: sv_metricsAddr {addr}:")), "{stdout}");
    assert!(stdout.contains("services: queries 0 answered, 0 rate-limited; admin sign-ins 0 ok, 0 failed, 0 locked out, 0 busy"), "{stdout}");
    assert!(stdout.contains("closed to make room (not joined)"), "{stdout}");
    drop(taken);
}

#[test]
fn a_config_folder_given_from_elsewhere_finds_the_maps_and_botfiles_beside_it() {
    // /srv/quarry/{config,maps,botfiles}, started from another folder.
    let srv = tempfile::tempdir().expect("tempdir");
    let config = srv.path().join("config");
    std::fs::create_dir(&config).expect("config");
    for name in ["server.cfg", "items.toml", "weapons.toml", "sounds.toml"] {
        std::fs::copy(root().join("config").join(name), config.join(name)).expect("copy config");
    }
    std::fs::create_dir(srv.path().join("maps")).expect("maps");
    std::fs::copy(root().join("maps/q_dm1.map"), srv.path().join("maps/q_dm1.map")).expect("copy map");
    std::fs::create_dir_all(srv.path().join("botfiles/characters")).expect("botfiles");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quarry-server"));
    cmd.current_dir(elsewhere.path()).arg("--config").arg(&config).args(["--port", "0", "+set", "bot_minPlayers", "0"]).env("RUST_LOG", "info");
    let out = run_with_input(cmd, "status\nquit\n", Duration::from_secs(60));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("q_dm1.map loaded"), "the map beside the config folder: {stdout}\n{stderr}");
    assert!(stderr.contains("beside the config folder"), "{stderr}");
}

#[test]
fn serverinfo_shows_what_a_browser_sees_and_a_typo_gets_a_suggestion() {
    let config = shipped_config();
    let out = run(config.path(), &["+set", "bot_minPlayers", "0", "+set", "sv_hostname", "Info Test"], "serverinfo\nstatsu\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("Server info settings:"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("sv_hostname") && l.ends_with("Info Test")), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("g_gametype") && l.ends_with("ffa")), "{stdout}");
    assert!(stdout.contains("unknown command or cvar 'statsu'; did you mean 'status'?"), "{stdout}");
}
