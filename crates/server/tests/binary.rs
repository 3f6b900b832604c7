//! End-to-end tests of the `quarry-server` binary: piped console, signals,
//! command-line `+commands`, bad input and the archive file.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{run_with_input, text, wait_with_deadline};

fn server(config: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quarry-server"));
    c.arg("--config").arg(config).env("RUST_LOG", "warn");
    c
}

fn run_piped(config: &Path, args: &[&str], stdin: &str) -> Output {
    let mut cmd = server(config);
    if !args.contains(&"--port") {
        // Port 0: every test server gets its own free port.
        cmd.args(["--port", "0"]);
    }
    cmd.args(args);
    run_with_input(cmd, stdin, Duration::from_secs(20))
}

#[test]
fn piped_console_without_a_tty() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_piped(dir.path(), &[], "set sv_fps 30\nstatus\nhelp set\ncvarlist sv_\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{}", out.status, text(&out.stderr));
    assert!(stdout.contains(&format!("quarry-server {}", env!("CARGO_PKG_VERSION"))), "{stdout}");
    assert!(stdout.contains("config: dir"), "{stdout}");
    assert!(stdout.contains("tick    : 30 Hz target"), "{stdout}");
    assert!(stdout.contains("usage: set NAME VALUE"), "{stdout}");
    assert!(stdout.contains("sv_hostname"), "{stdout}");
    let archive = std::fs::read_to_string(dir.path().join("archive.cfg")).expect("archive written on quit");
    assert!(archive.contains("seta sv_hostname \"Quarry\""), "{archive}");
}

#[test]
fn ticks_at_the_configured_rate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = server(dir.path())
        .args(["--port", "0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_millis(1500));
    stdin.write_all(b"status\nquit\n").expect("write");
    let out = wait_with_deadline(child, Duration::from_secs(20));
    let stdout = text(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("tick    :")).expect("status tick line");
    let measured: f64 = line
        .split(", ")
        .nth(1)
        .and_then(|s| s.split(" Hz").next())
        .and_then(|s| s.trim().parse().ok())
        .expect("measured rate");
    // Timing on a loaded CI machine varies; a fixed-rate loop still lands near 60.
    assert!((40.0..=62.0).contains(&measured), "measured {measured} Hz: {line}");
}

#[test]
fn sigterm_shuts_down_gracefully_and_writes_the_archive() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = server(dir.path())
        .args(["--port", "0", "+seta", "sv_hostname", "Signal Test"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // Wait until the banner is out, so the loop is running.
    let stdout = child.stdout.take().expect("stdout");
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    while reader.read_line(&mut line).expect("read") > 0 && !line.contains("config: dir") {
        line.clear();
    }
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    let out = wait_with_deadline(child, Duration::from_secs(20));
    assert!(out.status.success(), "exit {:?}: {}", out.status, text(&out.stderr));
    let archive = std::fs::read_to_string(dir.path().join("archive.cfg")).expect("archive");
    assert!(archive.contains("seta sv_hostname \"Signal Test\""), "{archive}");
    // The archive is read back at the next start.
    let out = run_piped(dir.path(), &[], "sv_hostname\nquit\n");
    assert!(text(&out.stdout).contains("\"sv_hostname\" is \"Signal Test\""), "{}", text(&out.stdout));
}

#[test]
fn end_of_piped_input_does_not_stop_the_server() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = server(dir.path()).args(["--port", "0"]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("spawn");
    std::thread::sleep(Duration::from_millis(700));
    assert!(child.try_wait().expect("try_wait").is_none(), "server exited on stdin EOF");
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().expect("kill");
    let out = wait_with_deadline(child, Duration::from_secs(20));
    assert!(out.status.success());
}

#[test]
fn plus_commands_run_in_order_after_config() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("server.cfg"), "set sv_fps 20\nset sv_hostname FromCfg\n").expect("cfg");
    std::fs::write(dir.path().join("extra.cfg"), "set sv_fps 40\n").expect("cfg");
    let out = run_piped(dir.path(), &["--port", "27999", "+set", "sv_fps", "30", "+exec", "extra"], "status\nnet_port\nquit\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("tick    : 40 Hz target"), "{stdout}");
    assert!(stdout.contains("hostname: FromCfg"), "{stdout}");
    assert!(stdout.contains("\"net_port\" is \"27999\""), "{stdout}");
}

#[test]
fn bad_input_gets_clear_messages_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("loop.cfg"), "exec loop.cfg\n").expect("cfg");
    let console = "frobnicate\nset no_such_cvar 1\nset sv_fps fast\nset sv_fps 5000\nset sv_hostname \"oops\n\
                   exec missing.cfg\nexec loop.cfg\nversion 2\nsv_fps\nquit\n";
    let out = run_piped(dir.path(), &["+set", "sv_fps", "abc"], console);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for expected in [
        "command line:1: sv_fps: 'abc' is not an integer",
        "unknown command or cvar 'frobnicate'",
        "unknown cvar 'no_such_cvar'",
        "sv_fps: 'fast' is not an integer",
        "sv_fps: 5000 is out of range, allowed 10..=1000",
        "unbalanced quote",
        "couldn't find",
        "recursion",
        "version is read-only",
        "\"sv_fps\" is \"60\"",
    ] {
        assert!(stdout.contains(expected), "missing {expected:?} in:\n{stdout}");
    }
}

#[test]
fn stray_command_line_words_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = server(dir.path()).arg("set").output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("start with '+'"), "{}", text(&out.stderr));
}

#[test]
fn help_explains_the_command_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server")).arg("--help").output().expect("run");
    let help = text(&out.stdout);
    assert!(out.status.success());
    for flag in ["--config", "--port", "--fast", "--log-format", "+set sv_fps 30"] {
        assert!(help.contains(flag), "{flag} missing from --help:\n{help}");
    }
}

fn health_check(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quarry-server")).arg("health-check").arg(path).output().expect("run")
}

/// Starts a server writing its health file, waits for the file, checks it,
/// then stops the server and returns the check's output.
fn health_while_running(dir: &Path, extra: &[&str]) -> Output {
    let health = dir.join("health");
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let mut child = server(dir)
        .arg("--maps")
        .arg(&maps)
        .args(["--port", "0", "+set", "sv_healthFile", &health.to_string_lossy()])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // The tick loop writes the file on its first tick; wait for it.
    let start = Instant::now();
    while !health.exists() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let check = health_check(&health);
    child.stdin.take().expect("stdin").write_all(b"quit\n").expect("write");
    let out = wait_with_deadline(child, Duration::from_secs(20));
    assert!(out.status.success());
    check
}

#[test]
fn health_check_means_a_match_is_running() {
    let dir = tempfile::tempdir().expect("tempdir");
    let running = health_while_running(dir.path(), &["+map", "q_dm1"]);
    assert!(running.status.success(), "{}", text(&running.stderr));
    assert!(text(&running.stdout).contains("healthy: ok map=q_dm1 ticks="), "{}", text(&running.stdout));
    // Stopped: the file is gone, so the check fails at once (not 30 s later).
    let stopped = health_check(&dir.path().join("health"));
    assert!(!stopped.status.success(), "healthy after shutdown: {}", text(&stopped.stdout));
    // Running with no map loaded is not healthy either.
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = health_while_running(dir.path(), &[]);
    assert!(!empty.status.success(), "healthy with no map: {}", text(&empty.stdout));
    assert!(text(&empty.stderr).contains("no match is running"), "{}", text(&empty.stderr));
    assert!(!health_check(&dir.path().join("nope")).status.success());
}

#[test]
fn map_info_reports_a_shipped_map_as_text_json_and_obj() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let map = root.join("maps/q_dm1.map");
    let dir = tempfile::tempdir().expect("tempdir");
    let obj = dir.path().join("q_dm1.obj");
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .arg("map-info")
        .arg(&map)
        .arg("--obj")
        .arg(&obj)
        .output()
        .expect("run");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("brushes:") && stdout.contains("spawns:"), "{stdout}");
    let geometry = std::fs::read_to_string(&obj).expect("obj written");
    assert!(geometry.lines().filter(|l| l.starts_with("v ")).count() > 100);
    assert!(geometry.lines().any(|l| l.starts_with("f ")));
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server")).arg("map-info").arg(&map).arg("--json").output().expect("run");
    let json = text(&out.stdout);
    assert!(json.trim_start().starts_with('{') && json.contains("\"spawn"), "{json}");
}

#[test]
fn map_info_refuses_bad_files_with_a_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .arg("map-info")
        .arg(dir.path().join("nope.map"))
        .output()
        .expect("run");
    assert!(!missing.status.success());
    assert!(text(&missing.stderr).contains("not found"), "{}", text(&missing.stderr));
    let garbage = dir.path().join("garbage.map");
    std::fs::write(&garbage, "{ \"classname\" \"worldspawn\" { ( 0 0 0 ) ( oops").expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server")).arg("map-info").arg(&garbage).output().expect("run");
    // Either a clear load error or a loaded map with warnings; never a crash.
    assert!(out.status.code().is_some(), "killed by a signal");
    assert!(!text(&out.stderr).contains("panicked"), "{}", text(&out.stderr));
}

/// `nav-info --svg` reports on a shipped map and draws its picture: the
/// legend and scale bar, and one symbol per spawn point, item and flag of
/// the map, each named in its tooltip (q_ctf1 has flags and team spawns).
#[test]
fn nav_info_builds_and_reports_a_shipped_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["q_duel1", "q_ctf1"] {
        let path = root.join(format!("maps/{name}.map"));
        let svg = dir.path().join(format!("{name}.svg"));
        let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
            .arg("nav-info")
            .arg(&path)
            .arg("--svg")
            .arg(&svg)
            .output()
            .expect("run");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(stdout.contains("nodes:") && stdout.contains("spawn to spawn:"), "{stdout}");
        let picture = std::fs::read_to_string(&svg).expect("svg written");
        assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
        // The title, the scale bar and the legend.
        assert!(picture.contains(&format!(">{name}: ")), "the map's name is the title");
        assert!(picture.contains(r#"class="scale-bar""#) && picture.contains(r#"class="scale-label""#));
        assert!(picture.contains(">jump pad</text>") && picture.contains(">weapon</text>"));
        // One symbol per spawn point, item and flag of the map.
        let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("the map loads");
        let count = |f: fn(&quarry_map::EntityKind) -> bool| map.entities().iter().filter(|e| f(&e.kind)).count();
        let spawns = count(|k| matches!(k, quarry_map::EntityKind::PlayerSpawn(_)));
        let items = count(|k| matches!(k, quarry_map::EntityKind::Item(_)));
        let flags = count(|k| matches!(k, quarry_map::EntityKind::Flag(_)));
        assert!(spawns > 1 && items > 1, "{name}: {spawns} spawns, {items} items");
        assert_eq!(picture.matches(r#"<g class="feature" data-kind="spawn">"#).count(), spawns, "{name}");
        assert_eq!(picture.matches(r#"<g class="feature" data-kind="flag">"#).count(), flags, "{name}");
        assert_eq!(picture.matches(r#"<g class="feature""#).count(), spawns + items + flags, "{name}");
        assert!(picture.contains("<title>info_player_deathmatch at (") || picture.contains("<title>team_CTF_redspawn at ("));
        assert!(picture.contains("<title>weapon_"), "{name}: a weapon is named");
        if name == "q_ctf1" {
            assert_eq!(flags, 3, "red, blue and the One Flag's neutral flag");
            for flag in ["red flag", "blue flag", "neutral flag"] {
                assert!(picture.contains(&format!(">{flag}</text>")), "{flag} in the legend");
            }
            assert!(picture.contains(">red spawn point</text>") && picture.contains(">blue spawn point</text>"));
        }
    }
}

/// A headless run's summary has the stuck hotspots (`bots.stuck_hotspots`,
/// each well formed), and `nav-info --svg --hotspots` marks the hotspots
/// of a summary on the picture; a summary without them is refused with a
/// message.
#[test]
fn stuck_hotspots_of_a_headless_run_are_drawn_on_the_navmesh_picture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut cmd, _config) = support::headless_command();
    let run = cmd
        .args(["--json", "--seed", "4", "+set", "bot_minPlayers", "6", "+set", "timelimit", "2", "+set", "fraglimit", "0", "+map", "q_dm1"])
        .output()
        .expect("run headless");
    assert!(run.status.success(), "{}", text(&run.stderr));
    let json: serde_json::Value = text(&run.stdout)
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .expect("a JSON summary");
    // One spelling for every name in the summary: the cvar's.
    assert_eq!((json["gametype"].as_str(), json.pointer("/scoreboard/gametype").and_then(|v| v.as_str())), (Some("ffa"), Some("ffa")), "{json}");
    assert_eq!(json.pointer("/scoreboard/phase").and_then(|v| v.as_str()), Some("over"), "{json}");
    assert!(json.pointer("/scoreboard/rows").and_then(|v| v.as_array()).is_some_and(|rows| rows.iter().all(|r| r["team"] == "free")), "{json}");
    let spots = json.pointer("/bots/stuck_hotspots").and_then(|v| v.as_array()).expect("stuck_hotspots in the summary");
    for h in spots {
        assert!(h.get("seconds").and_then(|v| v.as_f64()).is_some_and(|s| s > 0.0), "{h}");
        assert!(h.get("ended").and_then(|v| v.as_array()).is_some_and(|e| !e.is_empty()), "{h}");
    }
    // A summary with two hotspots (as a run on a map where bots get stuck
    // writes it), after the console lines a run prints before it.
    let summary = dir.path().join("summary.json");
    let spot = |x: f32, seconds: f32| {
        format!(r#"{{"pos":[{x},-400.0,24.0],"seconds":{seconds},"episodes":2,"bots":2,"goal":"item#7 (weapon_railgun)","link":"drop","ended":[["died",2]]}}"#)
    };
    let line = format!(r#"{{"map":"q_dm1","bots":{{"stuck_hotspots":[{},{}]}}}}"#, spot(-300.0, 12.5), spot(200.0, 3.0));
    std::fs::write(&summary, format!("match over\n{line}\n")).expect("write summary");
    let svg = dir.path().join("mesh.svg");
    let draw = |hotspots: &Path| {
        Command::new(env!("CARGO_BIN_EXE_quarry-server"))
            .arg("nav-info")
            .arg(root.join("maps/q_dm1.map"))
            .arg("--svg")
            .arg(&svg)
            .arg("--hotspots")
            .arg(hotspots)
            .output()
            .expect("run")
    };
    let out = draw(&summary);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let picture = std::fs::read_to_string(&svg).expect("svg written");
    assert_eq!(picture.matches("s stuck; goal item#7 (weapon_railgun), link drop").count(), 2, "one mark per hotspot");
    assert!(picture.contains("12.5 s stuck"), "the seconds label the mark");
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "{}").expect("write");
    let out = draw(&empty);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no bots.stuck_hotspots"), "{}", text(&out.stderr));
}

#[test]
fn navmesh_commands_build_route_and_export() {
    let dir = tempfile::tempdir().expect("tempdir");
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let svg = dir.path().join("mesh.svg");
    let console = format!(
        "navmesh info\naddbot\nnavmesh build\nnavmesh route -608 -608 28 -448 576 156\nset nav_heuristic euclid\n\
         navmesh route -608 -608 28 -448 576 156\nnavmesh export {}\nquit\n",
        svg.display()
    );
    let maps_arg = maps.to_string_lossy().into_owned();
    let out = run_piped(dir.path(), &["--maps", &maps_arg, "+map", "q_duel1"], &console);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("not built yet"), "{stdout}");
    assert!(stdout.contains("navmesh: maps") || stdout.contains("ready, cell 24"), "{stdout}");
    assert!(stdout.contains("expansions (Alt)") && stdout.contains("expansions (Euclid)"), "{stdout}");
    let picture = std::fs::read_to_string(&svg).expect("svg");
    assert!(picture.starts_with("<svg"));
    // The loaded map's name, spawn points and items are on the picture.
    assert!(picture.contains(">q_duel1"), "the title");
    assert!(picture.contains(r#"<g class="feature" data-kind="spawn">"#) && picture.contains(r#"class="scale-bar""#));
}

#[test]
fn each_mode_is_a_subcommand_and_the_old_spellings_still_work_with_a_note() {
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let bin = env!("CARGO_BIN_EXE_quarry-server");
    let help = Command::new(bin).arg("--help").output().expect("run");
    for mode in ["run", "replay", "card", "map-info", "nav-info", "health-check", "new-admin"] {
        assert!(text(&help.stdout).contains(mode), "{mode} missing from --help:\n{}", text(&help.stdout));
        let own = Command::new(bin).args([mode, "--help"]).output().expect("run");
        assert!(own.status.success() && text(&own.stdout).contains("Usage: quarry-server"), "{mode} --help:\n{}", text(&own.stdout));
    }
    let old = Command::new(bin).arg("--map-info").arg(&map).output().expect("run");
    assert!(old.status.success(), "{}", text(&old.stderr));
    assert!(text(&old.stdout).contains("brushes:"), "the old spelling still does the work: {}", text(&old.stdout));
    assert!(text(&old.stderr).contains("is now `quarry-server map-info FILE"), "{}", text(&old.stderr));
    let new = Command::new(bin).arg("map-info").arg(&map).output().expect("run");
    assert!(new.status.success() && !text(&new.stderr).contains("is now"), "{}", text(&new.stderr));
}
