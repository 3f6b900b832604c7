//! What an operator reads: the console prints the final scoreboard when a
//! match ends, and `--log-file` keeps the console's lines (maps, chat,
//! joins, scores) besides the log events, while stderr does not repeat them.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{text, wait_with_deadline};

#[test]
fn a_match_end_prints_the_scoreboard_and_the_log_file_keeps_the_console() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let log = dir.path().join("server.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .arg("--config")
        .arg(dir.path())
        .arg("--maps")
        .arg(root.join("maps"))
        .arg("--botfiles")
        .arg(root.join("botfiles"))
        .arg("--log-file")
        .arg(&log)
        .args(["--port", "0", "+set", "g_warmup", "0", "+set", "g_intermission", "0", "+set", "timelimit", "0.02", "+set", "bot_minPlayers", "2"])
        .args(["+map", "q_dm1", "+say", "hello from the console"])
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn quarry-server");
    // The match lasts 1.2 s; wait until the log file shows its end.
    let start = Instant::now();
    while !std::fs::read_to_string(&log).unwrap_or_default().contains("final scores on q_dm1") && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
    }
    child.stdin.take().expect("stdin").write_all(b"quit\n").expect("write");
    let out = wait_with_deadline(child, Duration::from_secs(20));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // The console: the final scoreboard, with the bots' rows.
    let at = stdout.find("final scores on q_dm1:").unwrap_or_else(|| panic!("no final scoreboard\n{stdout}"));
    assert!(stdout[at..].contains("ffa ("), "{stdout}");
    // The log file: log events and the console's lines.
    let logged = std::fs::read_to_string(&log).expect("log file");
    // A fill bot's arrival is said, not silent.
    for want in ["server running at", "q_dm1.map loaded in", "joins (1 of 2 players)", "final scores on q_dm1:", "console: hello from the console", "shutting down: quit"] {
        assert!(logged.contains(want), "the log file lacks {want:?}\n{logged}");
    }
    // stderr: log events only, not the console's lines again.
    assert!(stderr.contains("server running at"), "{stderr}");
    assert!(!stderr.contains("final scores"), "stderr repeats the console\n{stderr}");
}
