//! A `quarry-server` child process for end-to-end tests: started on a free
//! port with its own config directory, driven through its piped console,
//! its output kept line by line, and its memory and tick figures read back.

#![allow(dead_code, reason = "each test crate uses a different part of the harness")]

pub(crate) mod dpmaster;
pub(crate) mod window;

use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quarry_net::cert::{Fingerprint, ServerVerification};
use quarry_net::handshake::{Hello, PROTOCOL_VERSION};
use quarry_net::transport::{ClientConfig, ClientTransport, TransportSettings};

/// A running server binary on q_dm1 (unless `extra` says otherwise).
pub(crate) struct TestServer {
    child: Child,
    stdin: ChildStdin,
    /// Its IPv4 loopback address.
    pub(crate) addr: SocketAddr,
    /// Its certificate, for pinning.
    pub(crate) fingerprint: Fingerprint,
    _dir: tempfile::TempDir,
    output: Arc<Mutex<Vec<String>>>,
}

/// What one `status` said.
#[derive(Debug, Clone, Default)]
pub(crate) struct Status {
    /// Ticks per second measured over the window.
    pub(crate) rate_hz: f64,
    /// Ticks that started late since startup.
    pub(crate) late: u64,
    /// 99th percentile tick work over the window, ms.
    pub p99_ms: f64,
    /// Longest tick since startup, ms.
    pub(crate) max_ms: f64,
    /// Connected humans.
    pub(crate) humans: usize,
    /// Bots in play.
    pub(crate) bots: usize,
    /// Open QUIC connections.
    pub(crate) open_connections: usize,
    /// Connections refused because the address had too many.
    pub(crate) refused_per_address: u64,
    /// Attempts refused by the password lockout.
    pub(crate) lockouts: u64,
    /// Commands accepted per player name.
    pub(crate) cmds: Vec<(String, u64)>,
    /// The whole text.
    pub(crate) text: String,
}

impl Status {
    /// Commands accepted from the player called `name` (0 if not present).
    pub(crate) fn cmds_of(&self, name: &str) -> u64 {
        self.cmds.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c)
    }

    fn parse(lines: &[String]) -> Self {
        let mut s = Status { text: lines.join("\n"), ..Status::default() };
        let number_after = |line: &str, key: &str| -> Option<f64> {
            let at = line.find(key)? + key.len();
            line[at..].split_whitespace().next()?.trim_end_matches([',', '%']).parse().ok()
        };
        for l in lines {
            if l.starts_with("tick    :") {
                s.rate_hz = number_after(l, "target, ").unwrap_or(0.0);
                s.late = l.split(", ").find_map(|p| p.strip_suffix(" late")?.parse().ok()).unwrap_or(0);
            } else if l.starts_with("tick time:") {
                s.p99_ms = number_after(l, "p99 ").unwrap_or(f64::MAX);
                s.max_ms = number_after(l, "max ").unwrap_or(f64::MAX);
            } else if l.starts_with("net: ") {
                s.open_connections = number_after(l, "net: ").unwrap_or(0.0) as usize;
                s.refused_per_address = l
                    .split("(server full) ")
                    .nth(1)
                    .and_then(|r| r.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0);
                s.lockouts = l.rsplit("; ").next().and_then(|r| r.split_whitespace().next()?.parse().ok()).unwrap_or(0);
            } else if l.starts_with("players :") {
                s.humans = number_after(l, "players : ").unwrap_or(0.0) as usize;
                s.bots = number_after(l, "humans, ").unwrap_or(0.0) as usize;
            } else if let Some(at) = l.find("  cmds ") {
                let words: Vec<&str> = l[..at].split_whitespace().collect();
                // "  id NAME team kind frags N": the name is the second word.
                if let (Some(name), Some(n)) = (words.get(1), number_after(l, "  cmds ")) {
                    s.cmds.push(((*name).to_owned(), n as u64));
                }
            }
        }
        s
    }
}

impl TestServer {
    /// Starts the server binary with `extra` command-line words after the
    /// defaults (free port, no warm-up, q_dm1).
    pub(crate) fn start(extra: &[&str]) -> Self {
        Self::start_with(&[], extra)
    }

    /// Starts the server binary with `flags` (before the console words)
    /// and `extra` console words after the defaults.
    pub(crate) fn start_with(flags: &[&str], extra: &[&str]) -> Self {
        Self::start_in(tempfile::tempdir().expect("tempdir"), flags, extra)
    }

    /// The same with `dir` as the config folder (prepared by the test).
    pub(crate) fn start_in(dir: tempfile::TempDir, flags: &[&str], extra: &[&str]) -> Self {
        let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
        let mut child = Command::new(env!("CARGO_BIN_EXE_quarry-server"))
            .arg("--config")
            .arg(dir.path())
            .arg("--maps")
            .arg(&maps)
            .args(flags)
            .args(["--port", "0", "+set", "g_warmup", "0", "+map", "q_dm1"])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let output = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("listening on udp") {
                    let _ = tx.send(line.clone());
                }
                if let Ok(mut o) = sink.lock() {
                    o.push(line);
                }
            }
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).expect("server announces its port");
        // "listening on udp [::]:PORT, certificate fingerprint AB:CD:..."
        let port: u16 = line
            .split_whitespace()
            .nth(3)
            .and_then(|a| a.trim_end_matches(',').rsplit(':').next().map(str::to_owned))
            .and_then(|p| p.parse().ok())
            .expect("port");
        let fingerprint: Fingerprint = line.rsplit(' ').next().and_then(|f| f.parse().ok()).expect("fingerprint");
        Self { child, stdin, addr: SocketAddr::from(([127, 0, 0, 1], port)), fingerprint, _dir: dir, output }
    }

    /// Types `line` into the server console.
    pub(crate) fn console(&mut self, line: &str) {
        let _ = writeln!(self.stdin, "{line}");
    }

    /// Everything the server printed so far.
    pub(crate) fn output(&self) -> String {
        self.output.lock().map(|o| o.join("\n")).unwrap_or_default()
    }

    /// How many lines the server has printed so far.
    pub(crate) fn output_lines(&self) -> usize {
        self.output.lock().map_or(0, |o| o.len())
    }

    /// The lines printed since line `from`.
    pub(crate) fn output_since(&self, from: usize) -> Vec<String> {
        self.output.lock().map(|o| o.get(from..).map(<[String]>::to_vec).unwrap_or_default()).unwrap_or_default()
    }

    /// Waits up to `wait` for a line containing `text` printed after line `from`.
    pub(crate) fn wait_for(&self, from: usize, text: &str, wait: Duration) -> bool {
        let end = Instant::now() + wait;
        while Instant::now() < end {
            if self.output_since(from).iter().any(|l| l.contains(text)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Runs `status` and parses what it prints.
    pub(crate) fn status(&mut self) -> Status {
        let from = self.output_lines();
        self.console("status");
        let end = Instant::now() + Duration::from_secs(5);
        loop {
            let lines = self.output_since(from);
            let start = lines.iter().position(|l| l.starts_with("hostname:"));
            if let Some(start) = start {
                let lines = &lines[start..];
                if let Some(p) = lines.iter().position(|l| l.starts_with("players :")) {
                    let s = Status::parse(lines);
                    if lines.len() > p + s.humans + s.bots {
                        return Status::parse(&lines[..=p + s.humans + s.bots]);
                    }
                }
            }
            assert!(Instant::now() < end, "no status within 5 s: {lines:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server process's resident memory, in KiB (from /proc).
    pub(crate) fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }

    /// Whether the process is still running.
    pub(crate) fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// A client for this server, pinned to its certificate.
    pub(crate) fn client(&self, name: &str, password: Option<&str>) -> ClientTransport {
        self.client_at(self.addr, name, password)
    }

    /// A client joining through `addr` (the server's port on another address).
    pub(crate) fn client_at(&self, addr: SocketAddr, name: &str, password: Option<&str>) -> ClientTransport {
        let hello = Hello { version: PROTOCOL_VERSION, name: name.into(), password: password.map(str::to_owned), ..Hello::default() };
        let config = ClientConfig {
            server: addr,
            verification: ServerVerification::Pinned(self.fingerprint),
            hello,
            settings: TransportSettings::default(),
        };
        ClientTransport::connect(config).expect("connect")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
    }
}

/// Waits for a server process to exit and returns its output; kills it and
/// fails the test if it runs past `limit`.
pub(crate) fn wait_with_deadline(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("try_wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("quarry-server did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// Runs `cmd` with piped output, feeds it `stdin`, and waits (at most
/// `limit`) for it to exit.
pub(crate) fn run_with_input(mut cmd: Command, stdin: &str, limit: Duration) -> Output {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn quarry-server");
    // A server that exits before reading its input (a refused flag, a
    // quick `quit`) closes the pipe: that is an outcome to judge from its
    // output, not a harness failure.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    wait_with_deadline(child, limit)
}

/// A headless server command on a fresh copy of the shipped config (never
/// the checkout's archive), with the shipped maps and botfiles; the
/// directory lives as long as the returned guard.
pub(crate) fn headless_command() -> (Command, tempfile::TempDir) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["server.cfg", "items.toml", "weapons.toml"] {
        std::fs::copy(root.join("config").join(name), dir.path().join(name)).expect("copy shipped config");
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quarry-server"));
    cmd.arg("--config").arg(dir.path()).arg("--maps").arg(root.join("maps")).arg("--botfiles").arg(root.join("botfiles")).arg("--fast");
    cmd.env("RUST_LOG", "warn");
    (cmd, dir)
}

/// Process output as text.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Pumps every client for `duration`, sending a command per 16 ms from `cmd(i, tick)`.
pub(crate) fn pump(clients: &mut [ClientTransport], duration: Duration, mut cmd: impl FnMut(usize, u32) -> quarry_sim::UserCmd) -> Vec<Vec<quarry_net::transport::ClientEvent>> {
    let mut events = vec![Vec::new(); clients.len()];
    let start = Instant::now();
    while start.elapsed() < duration {
        for (i, c) in clients.iter_mut().enumerate() {
            events[i].extend(c.poll_events());
            let tick = c.latest_snapshot().map_or(0, |s| s.server_tick) + 1;
            if c.is_connected() {
                let _ = c.send_cmd(quarry_sim::UserCmd { tick, ..cmd(i, tick) });
            }
        }
        std::thread::sleep(Duration::from_millis(16));
    }
    events
}
