//! A real dpmaster 2.2 master server on loopback, built from a temporary
//! copy of `../shared/third_party/dpmaster` (or `QUARRY_SHARED_THIRD_PARTY`),
//! for the listing and server-list tests.

use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use quarry_net::handshake::PROTOCOL_VERSION;
use quarry_net::oob::{PREFIX, q3};

/// Without the tools a listing test needs: says so and passes, unless
/// `QUARRY_REQUIRE_LISTING` is set (by `.ci/run`), then fails.
pub(crate) fn skip_or_fail(why: &str) {
    if std::env::var_os("QUARRY_REQUIRE_LISTING").is_some() {
        panic!("QUARRY_REQUIRE_LISTING is set but {why}");
    }
    eprintln!("skipping the listing test: {why}");
}

pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared third-party sources: `QUARRY_SHARED_THIRD_PARTY`, else
/// `../shared/third_party` beside the repository.
fn third_party() -> PathBuf {
    std::env::var_os("QUARRY_SHARED_THIRD_PARTY").map_or_else(|| repo_root().join("../shared/third_party"), PathBuf::from)
}

/// A running dpmaster on a free loopback port.
pub(crate) struct Dpmaster {
    child: Child,
    pub(crate) port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Dpmaster {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Dpmaster {
    /// Builds dpmaster from a temporary copy of its source and starts it.
    pub(crate) fn start() -> Result<Self, String> {
        let src = third_party().join("dpmaster");
        if !src.join("src/Makefile").is_file() {
            return Err(format!("no dpmaster source at {}", src.display()));
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let copy = dir.path().join("dpmaster");
        let cp = Command::new("cp").arg("-r").arg(&src).arg(&copy).status().map_err(|e| e.to_string())?;
        if !cp.success() {
            return Err("copying dpmaster's source failed".into());
        }
        let make = Command::new("make").arg("-C").arg(copy.join("src")).arg("release").output().map_err(|e| format!("make: {e}"))?;
        if !make.status.success() {
            return Err(format!("building dpmaster failed: {}", String::from_utf8_lossy(&make.stderr)));
        }
        let port = free_udp_port();
        let mut cmd = Command::new(copy.join("src/dpmaster"));
        cmd.args(["--allow-loopback", "-p", &port.to_string()]);
        // As root it would chroot to /var/empty and drop to nobody.
        if is_root() {
            let jail = dir.path().join("jail");
            std::fs::create_dir(&jail).map_err(|e| e.to_string())?;
            cmd.arg("-j").arg(&jail);
        }
        let child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().map_err(|e| format!("dpmaster: {e}"))?;
        let master = Self { child, port, _dir: dir };
        // Ready once it answers a list request.
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            if master.list(true).is_some() {
                return Ok(master);
            }
        }
        Err("dpmaster did not answer within 5 s".into())
    }

    pub(crate) fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The Quarry servers the master lists (`empty`: the empty ones too);
    /// `None` without an answer.
    pub(crate) fn list(&self, empty: bool) -> Option<Vec<SocketAddr>> {
        let s = UdpSocket::bind("127.0.0.1:0").ok()?;
        s.set_read_timeout(Some(Duration::from_millis(300))).ok()?;
        let ask = format!("getservers Quarry {PROTOCOL_VERSION}{}", if empty { " empty full" } else { " full" });
        s.send_to(&[&PREFIX[..], ask.as_bytes()].concat(), ("127.0.0.1", self.port)).ok()?;
        let mut servers = Vec::new();
        let mut buf = [0u8; 2048];
        loop {
            let (n, _) = s.recv_from(&mut buf).ok()?;
            let list = q3::parse_server_list(&buf[..n]).ok()?;
            servers.extend(list.servers);
            if list.last {
                return Some(servers);
            }
        }
    }

    /// Waits up to `wait` for the listing (`empty` as above) to satisfy `ok`.
    pub(crate) fn wait_for(&self, empty: bool, wait: Duration, ok: impl Fn(&[SocketAddr]) -> bool) -> Vec<SocketAddr> {
        let end = Instant::now() + wait;
        loop {
            let got = self.list(empty).unwrap_or_default();
            if ok(&got) || Instant::now() > end {
                return got;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

pub(crate) fn free_udp_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0").and_then(|s| s.local_addr()).map_or(27950, |a| a.port())
}

