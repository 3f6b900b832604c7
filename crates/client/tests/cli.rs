//! The `quarry-client` binary: arguments, exit codes and a short real session.

mod common;

use std::process::{Command, Output};

use common::FakeServer;
use quarry_client::RejectReason;

fn client(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quarry-client"))
        .args(args)
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
