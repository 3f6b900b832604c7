//! Issue 13, "no input kills or starves the server", server part, against
//! the real binary.
//!
//! Symptoms: archived cvars were written only at a graceful shutdown, so a
//! SIGKILL, an abort or a panic lost every `seta`, and SIGHUP (not handled)
//! killed the process the same way (now a graceful stop, or, with a log
//! file, the signal to reopen it); temporary files of an interrupted atomic
//! write (`.archive.cfg.PID.tmp`) stayed forever; a ban list or botfile
//! that is a FIFO hung startup, and an `exec` fan-out (10^8 leaf
//! executions) never finished it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A running server with its stdout lines arriving on a channel.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Running {
    fn start(config: &Path, botfiles: &Path) -> Self {
        Self::start_with(config, botfiles, &[], "warn")
    }

    /// [`Running::start`] with more `args` and the log filter `log`.
    fn start_with(config: &Path, botfiles: &Path, args: &[&str], log: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
            .arg("--config")
            .arg(config)
            .arg("--botfiles")
            .arg(botfiles)
            .args(["--port", "0"])
            .args(args)
            .env("RUST_LOG", log)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn quarry-server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child, stdin, lines, seen: Vec::new() }
    }

    /// Waits for a stdout line containing `text`; panics with what was seen.
    fn wait_for(&mut self, text: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no line with '{text}' within {limit:?}; saw:\n{}", self.seen.join("\n"));
                }
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write stdin");
    }

    fn signal(&self, sig: &str) {
        let status = Command::new("kill").args([&format!("-{sig}"), &self.child.id().to_string()]).status().expect("kill");
        assert!(status.success(), "kill -{sig}");
    }

    /// Waits for the exit; kills and panics after `limit`.
    fn wait_exit(mut self, limit: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("quarry-server did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn archive(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("archive.cfg")).unwrap_or_default()
}

const START: Duration = Duration::from_secs(30);

#[test]
fn seta_survives_sigkill_two_seconds_later() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = Running::start(dir.path(), &dir.path().join("no-botfiles"));
    server.wait_for("listening on", START);
    server.send("seta sv_hostname \"Kill Test\"");
    server.send("echo seta-done");
    server.wait_for("seta-done", START);
    std::thread::sleep(Duration::from_secs(2));
    server.signal("KILL");
    let status = server.wait_exit(Duration::from_secs(10));
    assert!(!status.success(), "SIGKILL is not a clean exit: {status:?}");
    let text = archive(dir.path());
    assert!(text.contains("seta sv_hostname \"Kill Test\""), "archive after SIGKILL:\n{text}");
    let temp: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(temp.is_empty(), "{temp:?}");
}

#[test]
fn sighup_reopens_the_log_file_as_logrotate_expects() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("server.log");
    let mut server = Running::start_with(dir.path(), &dir.path().join("no-botfiles"), &["--log-file", log.to_str().expect("utf-8")], "info");
    server.wait_for("listening on", START);
    server.send("echo before-rotation");
    server.wait_for("before-rotation", START);
    // logrotate: rename, then SIGHUP.
    let rotated = dir.path().join("server.log.1");
    std::fs::rename(&log, &rotated).expect("rotate");
    server.signal("HUP");
    std::thread::sleep(Duration::from_millis(300));
    server.send("echo after-rotation");
    server.wait_for("after-rotation", START);
    server.send("quit");
    let status = server.wait_exit(Duration::from_secs(20));
    assert!(status.success(), "{status:?}");
    let old = std::fs::read_to_string(&rotated).expect("rotated log");
    let new = std::fs::read_to_string(&log).expect("a new log file");
    assert!(old.contains("before-rotation") && !old.contains("after-rotation"), "{old}");
    assert!(new.contains("after-rotation"), "the server kept running and writes the new file: {new}");
}

#[test]
fn sighup_is_a_graceful_stop_that_writes_the_archive() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = Running::start(dir.path(), &dir.path().join("no-botfiles"));
    server.wait_for("listening on", START);
    server.send("seta sv_hostname Hangup");
    server.send("echo seta-done");
    server.wait_for("seta-done", START);
    // At once, before the debounced write: the shutdown write has it.
    server.signal("HUP");
    let status = server.wait_exit(Duration::from_secs(20));
    assert!(status.success(), "SIGHUP stops gracefully with exit 0: {status:?}");
    assert!(archive(dir.path()).contains("seta sv_hostname \"Hangup\""), "{}", archive(dir.path()));
}

#[test]
fn stale_temp_files_are_removed_at_start_and_nothing_else() {
    let dir = tempfile::tempdir().expect("tempdir");
    // PIDs above Linux's largest pid_max (2^22): never a running process.
    let stale = [".archive.cfg.99999999.tmp", ".bans.txt.88888888.tmp"];
    let keep = [".archive.cfg.tmp", "notes.99999999.tmp", ".hidden"];
    for name in stale.iter().chain(&keep) {
        std::fs::write(dir.path().join(name), "partial").expect("write");
    }
    let mut server = Running::start(dir.path(), &dir.path().join("no-botfiles"));
    server.wait_for("listening on", START);
    server.send("quit");
    assert!(server.wait_exit(Duration::from_secs(20)).success());
    for name in stale {
        assert!(!dir.path().join(name).exists(), "{name} should be removed");
    }
    for name in keep {
        assert!(dir.path().join(name).exists(), "{name} must be kept");
    }
}

#[test]
fn special_files_and_an_exec_fanout_do_not_stall_startup() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("config");
    let botfiles = dir.path().join("botfiles");
    for sub in ["styles", "characters", "chats"] {
        std::fs::create_dir_all(botfiles.join(sub)).expect("mkdir");
    }
    std::fs::create_dir_all(&config).expect("mkdir");
    // f0 execs f1 ten times, f1 execs f2 ten times, ... : 10^8 leaves.
    for level in 0..8 {
        std::fs::write(config.join(format!("f{level}.cfg")), format!("exec f{}\n", level + 1).repeat(10)).expect("write");
    }
    std::fs::write(config.join("f8.cfg"), "sv_hostname leaf\n").expect("write");
    std::fs::write(config.join("server.cfg"), "exec f0\n").expect("write");
    std::fs::write(botfiles.join("characters/ok.bot"), "character \"Okay\" {\n}\n").expect("write");
    let fifos = ["bans.txt", "../botfiles/styles/pipe.style", "../botfiles/chats/pipe.chat"];
    let made = fifos.iter().all(|f| Command::new("mkfifo").arg(config.join(f)).status().is_ok_and(|s| s.success()));
    if !made {
        eprintln!("mkfifo unavailable; FIFO files left out");
    }
    let mut server = Running::start(&config, &botfiles);
    let budget = server.wait_for("in one top-level command", START);
    assert!(budget.contains("more than 256 files"), "{budget}");
    server.wait_for("listening on", START);
    server.send("quit");
    assert!(server.wait_exit(Duration::from_secs(20)).success());
}

#[cfg(unix)]
#[test]
fn a_dev_zero_item_table_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("items.toml")).expect("symlink");
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
        .arg("--config")
        .arg(dir.path())
        .args(["--port", "0", "--botfiles", "/nonexistent"])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a present but unusable table is a startup error");
    assert!(stderr.contains("items.toml") && stderr.contains("a character device"), "{stderr}");
    // Before the fix it read until memory ran out; a refusal takes no time.
    assert!(started.elapsed() < Duration::from_secs(20));
}
