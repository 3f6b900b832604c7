//! Bot content through the real binary: a deliberately broken botfiles
//! directory loads with warnings naming file and line, and the server still
//! starts, fills with bots and plays a headless match; the shipped
//! directory gives no warnings and the summary counts bot chat.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn headless(config: &Path, botfiles: &Path, extra: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quarry-server"));
    c.arg("--config")
        .arg(config)
        .env("RUST_LOG", "warn")
        .arg("--maps")
        .arg(repo_root().join("maps"))
        .arg("--botfiles")
        .arg(botfiles)
        .args(extra)
        .args(["--fast", "--seed", "3", "+set", "bot_minPlayers", "3", "+set", "timelimit", "0.5", "+map", "q_dm1"]);
    c.output().expect("run quarry-server")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_broken_botfiles_directory_warns_and_the_server_still_plays() {
    let config = tempfile::tempdir().expect("tempdir");
    let bf = tempfile::tempdir().expect("tempdir");
    for sub in ["styles", "characters", "chats"] {
        std::fs::create_dir_all(bf.path().join(sub)).expect("mkdir");
    }
    std::fs::write(
        bf.path().join("styles/odd.style"),
        "style \"odd\" {\n    set noSuchTrait 3\n    scale fov banana\n    weapon \"bfg\" 2\n}\nstyle \"odd\" { }\n",
    )
    .expect("write");
    std::fs::write(
        bf.path().join("characters/odd.bot"),
        "character \"Oddity\" {\n    inherit \"missing\"\n    skillBand 9 1\n    colour red\n}\ncharacter \"Plain\" {\n}\n",
    )
    .expect("write");
    std::fs::write(
        bf.path().join("chats/odd.chat"),
        "characterChat \"Oddity\" {\n    chat teabag { \"x\" }\n    chat kill {\n        \"/kill\"\n        \"ok $bogus\"\n        \"fine\"\n    }\n}\ncharacterChat \"Ghost\" { }\ncharacterChat \"Plain\" {\n",
    )
    .expect("write");
    let out = headless(config.path(), bf.path(), &[]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "exit {:?}\n{stdout}\n{stderr}", out.status);
    for (file, line) in [
        ("odd.style", 2),
        ("odd.style", 3),
        ("odd.style", 6),
        ("odd.bot", 3),
        ("odd.bot", 4),
        ("odd.chat", 2),
        ("odd.chat", 4),
        ("odd.chat", 5),
        ("odd.chat", 9),
        ("odd.chat", 10),
    ] {
        assert!(stderr.contains(&format!("{file}:{line}:")), "no warning for {file}:{line}\n{stderr}");
    }
    assert!(stdout.contains("headless match on"), "{stdout}");
    assert!(stdout.contains("bot chat:"), "the summary counts bot chat: {stdout}");
    assert!(stdout.contains("Oddity") || stdout.contains("Plain"), "bots wear the surviving characters: {stdout}");
}

#[test]
fn the_shipped_botfiles_load_without_warnings_and_bots_chat() {
    let config = tempfile::tempdir().expect("tempdir");
    let out = headless(config.path(), &repo_root().join("botfiles"), &["--json"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "exit {:?}\n{stderr}", out.status);
    assert!(!stderr.contains("bot content:"), "shipped content warns:\n{stderr}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    let chat = &json["bots"]["chat"];
    assert!(chat["lines"].is_u64(), "{chat}");
    assert!(chat["lines_per_minute"].is_f64(), "{chat}");
    assert_eq!(chat["back_to_back_repeats"], 0, "{chat}");
    assert_eq!(chat["refused"], 0, "{chat}");
}
