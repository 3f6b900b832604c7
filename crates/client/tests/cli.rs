//! The `quarry-client` binary: arguments, exit codes and a short real session.

mod common;

use std::process::{Command, Output};

use common::FakeServer;
use quarry_client::RejectReason;

fn client(args: &[&str]) -> Output {
    // An empty config folder: no known servers from the user's own.
    let config = tempfile::tempdir().expect("tempdir");
    Command::new(env!("CARGO_BIN_EXE_quarry-client"))
        .args(args)
        .env("XDG_CONFIG_HOME", config.path())
        .output()
        .expect("run quarry-client")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn help_works() {
    let out = client(&["--help"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("connect"),
        "{}",
        text(&out.stdout)
    );
    let out = client(&["connect", "--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    for flag in [
        "--fingerprint",
        "--insecure",
        "--script",
        "--random",
        "--seed",
        "--idle",
        "--duration",
        "--rate",
        "--stats",
        "--password",
        "--name",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

#[test]
fn bad_arguments_exit_2() {
    let cases: &[&[&str]] = &[
        &["connect", "127.0.0.1:27960"], // no trust choice
        &["connect", "127.0.0.1:27960", "--fingerprint", "zz"], // bad fingerprint
        &[
            "connect",
            "127.0.0.1:27960",
            "--insecure",
            "--random",
            "--idle",
        ], // two inputs
        &["connect", "127.0.0.1:27960", "--insecure", "--seed", "3"], // seed without --random
        &[
            "connect",
            "127.0.0.1:27960",
            "--insecure",
            "--duration",
            "-1",
        ],
        &["connect", "127.0.0.1:27960", "--insecure", "--rate", "0"],
        &["fly"],
    ];
    for args in cases {
        let out = client(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_bad_script_exits_2_naming_the_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, "0 forward=127\n1 forward=500\n").expect("write");
    let out = client(&[
        "connect",
        "127.0.0.1:9",
        "--insecure",
        "--script",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains(":2: bad value") && err.contains("forward=500"),
        "{err}"
    );
}

#[test]
fn a_closed_port_fails_with_exit_1_and_a_reason() {
    // A port that was just free: nothing answers there.
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .expect("free port")
        .port();
    let target = format!("127.0.0.1:{port}");
    let out = client(&["connect", &target, "--insecure", "--connect-timeout", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("--insecure accepts any server certificate"),
        "{err}"
    );
    assert!(
        err.contains(&format!("cannot join {target}: no answer from the server")),
        "{err}"
    );
}

#[test]
fn a_refusal_prints_the_reason_and_exits_1() {
    let server = FakeServer::start(Some(RejectReason::WrongPassword));
    let (addr, fp) = (server.addr.to_string(), server.fingerprint.to_string());
    let out = client(&[
        "connect",
        &addr,
        "--fingerprint",
        &fp,
        "--password",
        "guess",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("wrong password"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_session_prints_what_it_sees_and_the_stats() {
    let server = FakeServer::start(None);
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("run.txt");
    std::fs::write(
        &script,
        "# run and greet\n0 forward=127\n0.2 say hi from the cli\n",
    )
    .expect("write");
    let (addr, fp) = (server.addr.to_string(), server.fingerprint.to_string());
    let args = [
        "connect",
        &addr,
        "--fingerprint",
        &fp,
        "--name",
        "cli",
        "--script",
        script.to_str().expect("utf-8"),
        "--duration",
        "1.3",
        "--stats",
        "-v",
    ];
    let out = client(&args);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    for want in [
        "joined q_dm1",
        "[chat] server: welcome cli",
        "[chat] cli: hi from the cli",
        "[server] cli entered the game",
        "[map] changed to q_dm2",
        "hp 100",
        "projectile of slot 0 ",
        "net: in ",
        "stats: over",
        "B/s",
    ] {
        assert!(stdout.contains(want), "`{want}` missing from:\n{stdout}");
    }
    let record = server.stop();
    assert_eq!(record.hellos, vec!["cli".to_string()]);
}

#[test]
fn a_join_address_pins_the_server_and_a_remembered_one_needs_no_fingerprint_until_it_changes() {
    let server = FakeServer::start(Some(RejectReason::WrongPassword));
    let dir = tempfile::tempdir().expect("tempdir");
    let known = dir.path().join("known_servers");
    let known_arg = known.to_str().expect("utf-8");
    let join = format!("quarry://{}/#{}", server.addr, server.fingerprint);
    // The join address pins: the handshake reaches the server, which refuses the password.
    let out = client(&["connect", &join, "--known-servers", known_arg, "--remember", "--password", "x"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("wrong password"), "{}", text(&out.stderr));
    assert!(!known.exists(), "a refused join is not remembered");
    // A plain address of a server never joined: refused, saying what to give.
    let plain = server.addr.to_string();
    let out = client(&["connect", &plain, "--known-servers", known_arg]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("quarry://HOST:PORT/#FINGERPRINT"), "{}", text(&out.stderr));
    // Remembered (as a successful join would): the plain address is pinned to it.
    let mut servers = quarry_client::join::KnownServers::default();
    let key: quarry_client::join::JoinAddress = plain.parse().expect("address");
    servers.remember(&key.server, server.fingerprint);
    servers.save(&known).expect("save");
    let out = client(&["connect", &plain, "--known-servers", known_arg, "--password", "x"]);
    assert!(text(&out.stderr).contains("wrong password"), "pinned from the file: {}", text(&out.stderr));
    // Another fingerprint for the same server: refused before connecting, naming both.
    let other = "00".repeat(32);
    let out = client(&["connect", &plain, "--fingerprint", &other, "--known-servers", known_arg]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("impersonat") && err.contains(&server.fingerprint.to_string()) && err.contains("00:00:00"), "{err}");
}

#[test]
fn a_join_with_remember_adds_the_server_to_the_known_servers_file() {
    let server = FakeServer::start(None);
    let dir = tempfile::tempdir().expect("tempdir");
    let known = dir.path().join("cfg").join("known_servers");
    let join = format!("quarry://{}/#{}", server.addr, server.fingerprint);
    let out = client(&["connect", &join, "--known-servers", known.to_str().expect("utf-8"), "--remember", "--duration", "0.3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (servers, warnings) = quarry_client::join::KnownServers::load(&known).expect("load");
    let key: quarry_client::join::JoinAddress = server.addr.to_string().parse().expect("address");
    assert_eq!(servers.get(&key.server), Some(&server.fingerprint), "remembered: {}", servers.to_text());
    assert!(warnings.is_empty(), "{warnings:?}");
}
