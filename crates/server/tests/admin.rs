//! Remote administration and the server query end to end, through the real
//! binary over QUIC: admins made with `new-admin` (key files mode 0600),
//! an admin and an operator running commands, the operator refused one
//! outside its role, and refusals for a wrong key, a proof replayed from
//! another connection and an address locked out after failures, each with
//! an audit line; the query answering without taking a slot.

use std::process::Command;

use quarry_net::cert::ServerVerification;
use quarry_net::service::client::{AdminSession, ServiceError, query};
use quarry_net::service::{AdminKey, auth::key_path};

mod support;
use support::TestServer;

fn new_admin(dir: &std::path::Path, name: &str, role: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_quarry-server")).arg("--config").arg(dir).args(["new-admin", name, "--role", role]).output().expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn admins_sign_in_with_keys_roles_limit_them_and_every_refusal_is_audited() {
    let dir = tempfile::tempdir().expect("tempdir");
    let said = new_admin(dir.path(), "root", "admin") + &new_admin(dir.path(), "ops", "operator");
    let root_key = AdminKey::read(&key_path(dir.path(), "root")).expect("root key");
    let ops_key = AdminKey::read(&key_path(dir.path(), "ops")).expect("ops key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(key_path(dir.path(), "root")).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "key files are private");
    }
    let secret = std::fs::read_to_string(key_path(dir.path(), "root")).expect("key text");
    let secret = secret.lines().last().expect("key line").trim_start_matches("key ").to_owned();
    assert!(!said.contains(&secret), "new-admin never prints the key");
    let config = dir.path().to_owned();
    let logs = tempfile::tempdir().expect("tempdir");
    let game_log = logs.path().join("games.log");
    let game_log_arg = game_log.to_str().expect("utf-8 path").to_owned();
    let mut server = TestServer::start_in(dir, &[], &["+set", "bot_minPlayers", "2", "+set", "sv_gameLog", &game_log_arg]);
    let pinned = ServerVerification::Pinned(server.fingerprint);

    // The query: no slot taken, bots marked.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let info = query(server.addr, pinned).expect("query");
    assert_eq!(info.map, "q_dm1");
    assert!(info.players.iter().any(|p| p.bot), "bots are listed and marked: {info:?}");
    assert!(info.players.iter().all(|p| p.name != "query"), "a query takes no slot");
    // Another fingerprint: said plainly, for the query and for rcon alike.
    let other = ServerVerification::Pinned(quarry_net::cert::Fingerprint([0xab; 32]));
    let e = query(server.addr, other).expect_err("a wrong fingerprint");
    assert!(matches!(e, ServiceError::CertificateMismatch { .. }) && e.to_string().contains("does not match the fingerprint given"), "{e}");
    let e = AdminSession::connect(server.addr, other, &root_key).expect_err("a wrong fingerprint");
    assert!(!e.to_string().contains("ApplicationVerificationFailure"), "{e}");

    // An admin runs anything; an operator only its list.
    let mut root = AdminSession::connect(server.addr, pinned, &root_key).expect("root signs in");
    assert_eq!(root.role, "admin");
    let (lines, ok) = root.run("status").expect("status");
    assert!(ok && lines.iter().any(|l| l.starts_with("hostname")), "{lines:?}");
    let bot = info.players.iter().find(|p| p.bot).map(|p| p.name.clone()).expect("a bot");
    let (lines, ok) = root.run(&format!("kick {bot}")).expect("kick");
    assert!(ok, "kick ran: {lines:?}");
    let completions = root.complete("bot_sk").expect("complete");
    assert!(completions.iter().any(|c| c.starts_with("bot_skill")), "{completions:?}");
    drop(root);
    let mut ops = AdminSession::connect(server.addr, pinned, &ops_key).expect("ops signs in");
    assert!(ops.run("status").expect("status").1);
    let (lines, ok) = ops.run("quit").expect("answer");
    assert!(!ok && lines.iter().any(|l| l.contains("'quit' is not allowed for the operator role")), "{lines:?}");
    drop(ops);

    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(server.status().open_connections, 0, "finished sessions and queries give their places back");
    // An admin added while the server runs signs in after `adminreload`.
    new_admin(&config, "late", "operator");
    let late_key = AdminKey::read(&key_path(&config, "late")).expect("late key");
    assert!(AdminSession::connect(server.addr, pinned, &late_key).is_err(), "not known before the reload");
    server.console("adminreload");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let mut late = AdminSession::connect(server.addr, pinned, &late_key).expect("known after adminreload");
    assert!(late.run("status").expect("status").1);
    drop(late);
    std::thread::sleep(std::time::Duration::from_millis(300));
    // A wrong key for a real name.
    let impostor = AdminKey::generate("ops").expect("key");
    let e = AdminSession::connect(server.addr, pinned, &impostor).expect_err("wrong key");
    assert!(matches!(&e, ServiceError::Refused(r) if r.contains("wrong key")), "{e}");
    // A proof seen on one connection, replayed on another.
    let mut seen = None;
    let first = AdminSession::connect_with(server.addr, pinned, "ops", |nonce, exported| {
        let p = ops_key.proof(nonce, exported);
        seen = Some(p);
        p
    });
    assert!(first.is_ok(), "the first use signs in");
    drop(first);
    let replayed = seen.expect("a proof");
    let e = AdminSession::connect_with(server.addr, pinned, "ops", |_, _| replayed).expect_err("replayed");
    assert!(matches!(&e, ServiceError::Refused(r) if r.contains("wrong key")), "{e}");
    // A third failure in a row locks the address out: a wrong key waits
    // (a second at first, doubling with each further failure), but the
    // real admin behind the same address (NAT, a bastion) still signs in:
    // a key proof cannot be guessed, so the lockout does not shut it out.
    for _ in 0..2 {
        let _ = AdminSession::connect(server.addr, pinned, &impostor);
    }
    let e = AdminSession::connect(server.addr, pinned, &impostor).expect_err("locked out");
    assert!(matches!(&e, ServiceError::Refused(r) if r.contains("too many failed sign-ins")), "{e}");
    let during = AdminSession::connect(server.addr, pinned, &ops_key);
    assert!(during.is_ok(), "the right key signs in during the lockout: {:?}", during.err());
    drop(during);

    // The audit log: sign-ins, the refused command, the refused sign-ins;
    // never a key.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let audit = std::fs::read_to_string(config.join("admin_audit.log")).expect("audit log");
    let lines: Vec<serde_json::Value> = audit.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    let count = |event: &str, result: &str| lines.iter().filter(|l| l["event"] == event && l["result"] == result).count();
    assert!(count("signin", "ok") >= 3, "{audit}");
    assert!(count("command", "ok") >= 3, "{audit}");
    assert_eq!(count("command", "refused"), 1, "{audit}");
    assert!(count("signin", "refused") >= 4, "{audit}");
    assert!(lines.iter().any(|l| l["event"] == "signin" && l["result"] == "refused" && l["detail"].as_str().is_some_and(|d| d.contains("too many failed sign-ins"))), "a locked-out attempt is audited: {audit}");
    assert!(lines.iter().any(|l| l["command"] == format!("kick {bot}") && l["admin"] == "root" && l["from"].as_str().is_some_and(|f| f.starts_with("127.0.0.1"))), "{audit}");
    for key in [&root_key, &ops_key] {
        let text = std::fs::read_to_string(key_path(&config, &key.name)).expect("key");
        let hex_key = text.lines().last().unwrap_or_default().trim_start_matches("key ");
        assert!(!audit.contains(hex_key) && !server.output().contains(hex_key), "no key in the logs");
    }
    assert!(!audit.contains(&hex(&replayed)), "no proof in the logs");
    // The game log has the same events.
    drop(server);
    let text = std::fs::read_to_string(&game_log).expect("game log");
    let rcon: Vec<serde_json::Value> = text.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).filter(|v| v["event"] == "rcon").collect();
    assert!(rcon.iter().any(|v| v["what"] == "command" && v["admin"] == "root" && v["command"] == format!("kick {bot}") && v["result"] == "ok"), "{text}");
    assert!(rcon.iter().any(|v| v["what"] == "signin" && v["result"] == "refused"), "{text}");
}

#[test]
fn the_query_answers_for_a_full_server_and_in_intermission() {
    let server = TestServer::start(&["+set", "sv_maxclients", "3", "+set", "bot_minPlayers", "3", "+set", "timelimit", "0.2", "+set", "fraglimit", "0", "+set", "g_intermission", "30"]);
    let pinned = ServerVerification::Pinned(server.fingerprint);
    let start = std::time::Instant::now();
    let mut full = None;
    while start.elapsed() < std::time::Duration::from_secs(11) && full.is_none() {
        let info = query(server.addr, pinned).expect("query");
        if info.players.len() == 3 {
            full = Some(info);
        }
        std::thread::sleep(std::time::Duration::from_millis(700));
    }
    let full = full.expect("the server filled");
    assert_eq!((full.players.len(), full.max_players, full.phase.as_str()), (3, 3, "live"), "{full:?}");
    // A full server still answers: a query takes no slot.
    let mut intermission = None;
    while start.elapsed() < std::time::Duration::from_secs(25) && intermission.is_none() {
        std::thread::sleep(std::time::Duration::from_millis(700));
        let info = query(server.addr, pinned).expect("query");
        if info.phase == "intermission" {
            intermission = Some(info);
        }
    }
    let info = intermission.expect("the match reached its intermission");
    assert_eq!(info.players.len(), 3, "the scoreboard stands in the intermission: {info:?}");
    assert!(info.limits.iter().any(|(k, v)| k == "timelimit" && v == "0.2"), "{info:?}");
}

#[test]
fn an_admin_signs_in_while_another_address_holds_every_sign_in_it_may() {
    let dir = tempfile::tempdir().expect("tempdir");
    new_admin(dir.path(), "root", "admin");
    let root_key = AdminKey::read(&key_path(dir.path(), "root")).expect("root key");
    let config = dir.path().to_owned();
    let server = TestServer::start_in(dir, &[], &[]);
    let pinned = ServerVerification::Pinned(server.fingerprint);
    let addr = server.addr;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (ok, failed) = std::thread::scope(|scope| {
        // 127.0.0.2 opens 8 admin connections (all an address may hold)
        // and never sends its proofs, again and again.
        for _ in 0..8 {
            scope.spawn(|| {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = AdminSession::connect_from(Some(([127, 0, 0, 2], 0).into()), addr, pinned, "root", |_, _| {
                        std::thread::sleep(std::time::Duration::from_secs(5));
                        [0; 32]
                    });
                }
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
        let (mut ok, mut failed) = (0, Vec::new());
        for _ in 0..10 {
            match AdminSession::connect(addr, pinned, &root_key).and_then(|mut s| s.run("status")) {
                Ok((_, true)) => ok += 1,
                other => failed.push(format!("{other:?}")),
            }
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (ok, failed)
    });
    assert_eq!(ok, 10, "every real sign-in worked: {failed:?}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let audit = std::fs::read_to_string(config.join("admin_audit.log")).expect("audit log");
    assert!(audit.lines().any(|l| l.contains("sign-ins already in progress from 127.0.0.2")), "the refused connections are audited: {audit}");
}
