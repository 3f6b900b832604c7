//! Every `quarry-client` command the README shows runs as written: each
//! one's arguments parse (the binary is asked for help after them, which
//! it gives only when everything before it is valid).

use std::path::Path;
use std::process::Command;

/// The README's `quarry-client` command lines: from its indented code
/// blocks, with `cargo run ... -p quarry-client --` reduced to the
/// arguments and a trailing `# comment` dropped. Synopses (with `[...]`)
/// are left out.
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).expect("README.md");
    let mut out = Vec::new();
    for line in readme.lines().filter(|l| l.starts_with("    ")) {
        let line = line.split(" # ").next().unwrap_or("").trim();
        let args = if let Some(rest) = line.strip_prefix("quarry-client ") {
            rest
        } else if let Some((_, rest)) = line.split_once("-p quarry-client -- ") {
            rest
        } else {
            continue;
        };
        if args.contains('[') {
            continue;
        }
        // The README's placeholders, as a reader fills them in.
        let filled = args.replace("AB:CD:...", &vec!["AB"; 32].join(":")).replace("ADDRESS:PORT", "127.0.0.1:27960");
        out.push(filled.split_whitespace().map(str::to_owned).collect());
    }
    out
}

#[test]
fn every_readme_client_command_parses() {
    let commands = readme_commands();
    assert!(commands.len() >= 4, "the README shows connect, rcon and query: {commands:?}");
    for args in commands {
        let out = Command::new(env!("CARGO_BIN_EXE_quarry-client")).args(&args).arg("--help").output().expect("run");
        assert!(out.status.success(), "quarry-client {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    }
}
