//! Issue 50, end to end with the real programs: a real dpmaster 2.2 on
//! loopback (built from a temporary copy of `../shared/third_party/dpmaster`,
//! or `QUARRY_SHARED_THIRD_PARTY`), two `quarry-server`s with `sv_public 1`
//! heartbeating it; `quakestat` (with the project's `config/qstat.cfg`)
//! lists both through the master with names, maps and humans and bots
//! apart, and reads each one's A2S info and players; a human joining an
//! empty server makes the master list it among the non-empty ones within
//! seconds (the server heartbeats at once); a server that quits heartbeats
//! a last time; gamedig reads both servers through `protocol-quake3` and
//! `protocol-valve`, bots apart from humans; `quarry-client list` shows
//! both, and the join address it prints works with `quarry-client connect`.
//!
//! Needs `cc`, `make`, `quakestat` and gamedig (`QUARRY_GAMEDIG_DIR`, or
//! on the path); without them the test says so and
//! passes, unless `QUARRY_REQUIRE_LISTING=1` (set by `.ci/run`, which
//! installs them).

mod support;

use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use quarry_net::oob::q3;
use support::TestServer;
use support::dpmaster::{Dpmaster, repo_root, skip_or_fail};
use support::window::client_binary;

fn has(program: &str, arg: &str) -> bool {
    Command::new(program).arg(arg).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

/// `quakestat ARGS -raw ';'`, its standard output.
fn quakestat(args: &[&str]) -> String {
    let out = Command::new("quakestat").args(args).args(["-raw", ";"]).output().expect("quakestat runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A server's block in `quakestat -raw` output: its line, rules and players.
fn block(out: &str, port: u16) -> Option<&str> {
    out.split("\n\n").find(|b| b.lines().next().is_some_and(|l| l.contains(&format!("127.0.0.1:{port};"))))
}

/// gamedig: `QUARRY_GAMEDIG_DIR/node_modules/.bin/gamedig` (where `.ci/run`
/// installs it), else on the path.
fn gamedig_binary() -> Option<PathBuf> {
    let local = std::env::var_os("QUARRY_GAMEDIG_DIR").map(|d| PathBuf::from(d).join("node_modules/.bin/gamedig"));
    local.filter(|p| p.is_file()).or_else(|| has("gamedig", "--help").then(|| PathBuf::from("gamedig")))
}

/// One gamedig query's JSON.
fn gamedig_query(gamedig: &Path, protocol: &str, addr: SocketAddr) -> serde_json::Value {
    let out = Command::new(gamedig).args(["--type", protocol, &addr.to_string()]).output().expect("gamedig runs");
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("gamedig {protocol}: {e}: {text}"))
}

fn server(master: &Dpmaster, beat_to: &UdpSocket, name: &str, map: &str, bots: &str) -> TestServer {
    let beat = beat_to.local_addr().expect("addr").to_string();
    TestServer::start(&[
        "+set", "sv_public", "1", "+set", "sv_master1", &master.addr(), "+set", "sv_master2", &beat,
        "+set", "sv_hostname", name, "+set", "bot_minPlayers", bots, "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", map,
    ])
}

#[test]
fn a_real_master_lists_two_servers_and_qstat_reads_them() {
    for (program, arg) in [("cc", "--version"), ("make", "--version"), ("quakestat", "-h")] {
        if !has(program, arg) {
            return skip_or_fail(&format!("{program} is not installed"));
        }
    }
    let master = match Dpmaster::start() {
        Ok(m) => m,
        Err(why) => return skip_or_fail(&why),
    };
    // A second master of the test's own, to see each heartbeat.
    let beats = UdpSocket::bind("127.0.0.1:0").expect("udp");
    beats.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let alpha = server(&master, &beats, "Alpha", "q_dm1", "2");
    let beta = server(&master, &beats, "Beta", "q_duel1", "3");
    let (a, b) = (alpha.addr, beta.addr);
    let both = master.wait_for(true, Duration::from_secs(10), |l| l.contains(&a) && l.contains(&b));
    assert!(both.contains(&a) && both.contains(&b), "the master lists both: {both:?}");

    // qstat through the master: names, maps, humans (g_humanplayers) and bots apart.
    let cfg = repo_root().join("config/qstat.cfg");
    let cfg = cfg.to_str().expect("utf-8");
    let end = Instant::now() + Duration::from_secs(15);
    let out = loop {
        let out = quakestat(&["-cfg", cfg, "-quarrym", &master.addr(), "-R", "-P"]);
        let ready = [(a.port(), "bots=2"), (b.port(), "bots=3")].iter().all(|(p, bots)| block(&out, *p).is_some_and(|x| x.contains(bots)));
        if ready || Instant::now() > end {
            break out;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    let alpha_block = block(&out, a.port()).unwrap_or_else(|| panic!("qstat lists Alpha through the master:\n{out}"));
    let beta_block = block(&out, b.port()).unwrap_or_else(|| panic!("qstat lists Beta:\n{out}"));
    assert!(alpha_block.contains(";Alpha;q_dm1;16;2;"), "{alpha_block}");
    assert!(alpha_block.contains("g_humanplayers=0") && alpha_block.contains("bots=2"), "{alpha_block}");
    assert!(beta_block.contains(";Beta;q_duel1;") && beta_block.contains("bots=3"), "{beta_block}");
    assert!(alpha_block.contains(&format!("fingerprint={}", alpha.fingerprint)), "the pin is told: {alpha_block}");

    // qstat through A2S: info and players, for each.
    for (addr, name, bots) in [(a, "Alpha", 2), (b, "Beta", 3)] {
        let out = quakestat(&["-a2s", &addr.to_string(), "-P"]);
        let first = out.lines().next().unwrap_or_default();
        assert!(first.starts_with(&format!("A2S;{addr};{name};")), "{out}");
        assert_eq!(out.lines().skip(1).filter(|l| l.ends_with(";0;0") || l.matches(';').count() == 2).count(), bots, "A2S players:\n{out}");
    }

    // gamedig through both protocols: humans and bots apart.
    match gamedig_binary() {
        Some(gamedig) => {
            for (addr, name, bots) in [(a, "Alpha", 2), (b, "Beta", 3)] {
                for protocol in ["protocol-quake3", "protocol-valve"] {
                    let v = gamedig_query(&gamedig, protocol, addr);
                    assert_eq!(v["name"], name, "{protocol}: {v}");
                    assert_eq!(v["bots"].as_array().map(Vec::len), Some(bots), "{protocol}: {v}");
                    assert_eq!(v["players"].as_array().map(Vec::len), Some(0), "no humans yet: {protocol}: {v}");
                }
            }
        }
        None => skip_or_fail("gamedig is not installed (QUARRY_GAMEDIG_DIR or PATH)"),
    }

    // quarry-client list: both, and the join address it prints joins.
    match client_binary() {
        Some(client) => {
            let out = Command::new(&client).args(["list", "--master", &master.addr(), "--json"]).output().expect("quarry-client runs");
            let text = String::from_utf8_lossy(&out.stdout);
            let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("list --json: {e}: {text}"));
            let servers = v["servers"].as_array().cloned().unwrap_or_default();
            let find = |name: &str| servers.iter().find(|s| s["name"] == name).cloned().unwrap_or_else(|| panic!("{name} listed: {text}"));
            let (alpha_entry, beta_entry) = (find("Alpha"), find("Beta"));
            assert_eq!((alpha_entry["map"].as_str(), alpha_entry["humans"].as_u64(), alpha_entry["bots"].as_u64(), alpha_entry["slots"].as_u64()), (Some("q_dm1"), Some(0), Some(2), Some(16)), "{text}");
            assert_eq!((beta_entry["map"].as_str(), beta_entry["bots"].as_u64()), (Some("q_duel1"), Some(3)), "{text}");
            let join = beta_entry["join"].as_str().unwrap_or_default().to_owned();
            assert_eq!(join, format!("quarry://{b}/#{}", beta.fingerprint), "{text}");
            let table = Command::new(&client).args(["list", "--master", &master.addr()]).output().expect("quarry-client runs");
            let table = String::from_utf8_lossy(&table.stdout);
            assert!(table.contains("Alpha") && table.contains(&join), "{table}");
            let joined = Command::new(&client).args(["connect", &join, "--name", "Lister", "--duration", "1"]).output().expect("quarry-client runs");
            assert!(joined.status.success(), "the printed join address joins: {}{}", String::from_utf8_lossy(&joined.stdout), String::from_utf8_lossy(&joined.stderr));
        }
        None => skip_or_fail("the quarry-client binary is not built beside this test (cargo test --workspace builds it)"),
    }

    // Empty to non-empty: the master hears of it within seconds.
    let non_empty = master.list(false).unwrap_or_default();
    assert!(!non_empty.contains(&a), "Alpha has only bots, so it is empty: {non_empty:?}");
    let mut human = alpha.client("Human", None);
    let t = Instant::now();
    let mut listed = Vec::new();
    while t.elapsed() < Duration::from_secs(8) && !listed.contains(&a) {
        let _ = human.wait_events(Duration::from_millis(100));
        listed = master.list(false).unwrap_or_default();
    }
    assert!(listed.contains(&a), "a human on Alpha lists it among the non-empty within seconds: {listed:?}");
    eprintln!("the master listed Alpha as non-empty {:?} after the human connected", t.elapsed());

    // A server that quits heartbeats a last time.
    let mut buf = [0u8; 256];
    while beats.set_read_timeout(Some(Duration::from_millis(200))).is_ok() && beats.recv_from(&mut buf).is_ok() {}
    beats.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    drop(alpha);
    let (n, from) = beats.recv_from(&mut buf).expect("a last heartbeat from the server that quit");
    assert_eq!(from.port(), a.port());
    assert_eq!(&buf[..n], &q3::heartbeat()[..]);
    drop(beta);
}
