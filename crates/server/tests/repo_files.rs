//! Checks of the files the repository ships beside the code: the shipped
//! `config/server.cfg` documents every operator-facing cvar with its real
//! default, and the Dockerfile refers to binaries, paths and ports that exist
//! (no Docker engine runs on the build machines, so this is what checks it).

use std::path::{Path, PathBuf};

use quarry_console::CvarFlags;
use quarry_server::server::{Server, ServerOptions};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo_root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn registered_server() -> Server {
    let options = ServerOptions {
        config_dir: repo_root().join("config"),
        port: None,
        fast: true,
        maps_dir: repo_root().join("maps"),
        seed: Some(1),
        botfiles_dir: Some(repo_root().join("botfiles")),
    };
    Server::new(&options).expect("server registers its cvars")
}

#[test]
fn server_cfg_lists_every_operator_facing_cvar_with_its_default() {
    let cfg = read("config/server.cfg");
    let server = registered_server();
    for cvar in server.console.cvars().iter() {
        if cvar.def.flags.contains(CvarFlags::READ_ONLY) {
            continue;
        }
        let name = &cvar.def.name;
        let line = cfg
            .lines()
            .map(|l| l.trim_start_matches("//").trim())
            .find(|l| l.starts_with(&format!("set {name} ")) || l.starts_with(&format!("seta {name} ")))
            .unwrap_or_else(|| panic!("config/server.cfg does not mention {name}"));
        let value = line.split_once(name.as_str()).map(|(_, v)| v.trim().trim_matches('"')).unwrap_or("");
        let commented = cfg.lines().any(|l| l.trim_start().starts_with("//") && l.contains(&format!(" {name} ")));
        if commented {
            assert_eq!(value, cvar.def.default, "config/server.cfg shows a stale default for {name}");
        }
    }
}

#[test]
fn shipped_server_cfg_runs_without_errors_and_starts_the_default_map() {
    let mut server = registered_server();
    server.startup(&[]);
    let out = server.drain_output();
    assert!(out.iter().all(|l| !l.starts_with("error")), "{out:?}");
    assert!(server.state.game.running.is_some(), "server.cfg must start a map: {out:?}");
    for _ in 0..10 {
        server.tick();
    }
}

#[test]
fn shipped_maps_are_what_the_generator_makes() {
    // scripts/gen_maps.py regenerates maps/ and checks its own output; CI
    // runs it through this test. Without python3 the check cannot run.
    let Ok(status) = std::process::Command::new("python3")
        .arg(repo_root().join("scripts/gen_maps.py"))
        .arg("--check")
        .current_dir(repo_root())
        .status()
    else {
        eprintln!("skipping: python3 not found");
        return;
    };
    assert!(status.success(), "scripts/gen_maps.py --check failed: maps/ differs from the generator's output");
}

#[test]
fn a_cvar_registered_after_startup_still_gets_its_command_line_value() {
    let mut server = registered_server();
    let plus = quarry_server::cli::split_plus_commands(&[
        "+set".into(),
        "some_cvar_registered_late".into(),
        "5".into(),
    ])
    .expect("plus");
    server.startup(&plus);
    // A crate that registers its cvars later (e.g. on first use) still gets the value.
    let id = server
        .console
        .register_cvar(quarry_console::CvarDef::int("some_cvar_registered_late", 1, 0, 10, "late"))
        .expect("register");
    assert_eq!(server.console.cvars().int(id), 5);
    // After startup, a set of an unknown name is refused rather than kept.
    server.execute_line("set another_unknown 1");
    let out = server.drain_output().join("\n");
    assert!(out.contains("unknown cvar 'another_unknown'"), "{out}");
}

#[test]
fn dockerfile_refers_to_things_that_exist() {
    let dockerfile = read("docker/Dockerfile");
    let root = repo_root();
    // Every COPY source in the build context exists.
    for line in dockerfile.lines().filter(|l| l.trim_start().starts_with("COPY") && !l.contains("--from=")) {
        let words: Vec<&str> = line.split_whitespace().filter(|w| !w.starts_with("--")).collect();
        for src in &words[1..words.len() - 1] {
            assert!(root.join(src).exists(), "Dockerfile copies {src}, which does not exist: {line}");
        }
    }
    // The binary it builds and runs is the one cargo builds.
    assert!(dockerfile.contains("--bin quarry-server"));
    assert!(dockerfile.contains("/src/target/release/quarry-server"));
    // Entry point flags exist on the real CLI.
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_quarry-server")).arg("--help").output().expect("run");
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in ["--config", "--log-file", "health-check"] {
        assert!(dockerfile.contains(flag) && help.contains(flag), "{flag}");
    }
    // The exposed port is the default net_port, over UDP (QUIC).
    let server = registered_server();
    let port = server.console.cvars().find("net_port").expect("net_port").def.default.clone();
    assert!(dockerfile.contains(&format!("EXPOSE {port}/udp")), "EXPOSE must match net_port {port}");
    let compose = read("docker/compose.yaml");
    assert!(compose.contains(&format!("{port}:{port}/udp")));
    assert!(compose.contains("dockerfile: docker/Dockerfile"));
    // The health file cvar the CMD sets exists.
    assert!(server.console.cvars().find("sv_healthFile").is_some());
    // Non-root user, volumes for config and logs.
    assert!(dockerfile.contains("USER quarry"));
    assert!(dockerfile.contains("VOLUME [\"/config\"]") && dockerfile.contains("VOLUME [\"/logs\"]"));
    assert!(dockerfile.contains("HEALTHCHECK"));
    // A stripped binary, and only the shipped config files: never what a run
    // in the checkout left in config/ (private key, certificate, archive, bans).
    assert!(dockerfile.contains("strip=\"symbols\""), "the image's binary is not stripped");
    for line in dockerfile.lines().filter(|l| l.trim_start().starts_with("COPY") && l.contains("config")) {
        assert!(!line.contains("config/ ") && !line.contains("config ") , "COPY of the whole config directory: {line}");
    }
    let ignore = read(".dockerignore");
    for private in ["target/", ".git/", "config/archive.cfg", "config/quarry-key.der", "config/quarry-cert.der", "config/bans.txt"] {
        assert!(ignore.lines().any(|l| l.trim() == private), ".dockerignore does not keep out {private}");
    }
    // The toolchain image is at least the workspace's rust-version.
    let manifest = read("Cargo.toml");
    let rust_version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("rust-version");
    assert!(dockerfile.contains(&format!("FROM rust:{rust_version}")), "builder image must match rust-version {rust_version}");
}

#[test]
fn the_design_lives_in_the_repository() {
    let readme = read("README.md");
    assert!(readme.contains("(docs/DESIGN.md)"), "the README links docs/DESIGN.md");
    assert!(!readme.contains("../shared/docs"), "the README points to a design outside the repository");
    let design = read("docs/DESIGN.md");
    // It names what the code has: every crate, and the sim's mode registry.
    for krate in std::fs::read_dir(repo_root().join("crates")).expect("crates").filter_map(|e| e.ok()) {
        let name = krate.file_name().to_string_lossy().into_owned();
        assert!(design.contains(&format!("`{name}`")), "docs/DESIGN.md does not describe crates/{name}");
    }
    assert!(design.contains("ModeRules") && design.contains("MODES"), "docs/DESIGN.md does not describe the mode registry");
}

#[test]
fn scripts_follow_cargo_target_dir_and_explain_a_missing_binary() {
    for script in ["scripts/bench.sh", "scripts/fuzz.sh"] {
        let text = read(script);
        assert!(text.contains("${CARGO_TARGET_DIR:-target}"), "{script} does not follow CARGO_TARGET_DIR");
    }
    assert!(!read("scripts/bench.sh").contains(" target/criterion"), "bench.sh reads criterion's figures from a fixed target/");
    // The Python scripts say what to build instead of ending in a traceback.
    for script in ["scripts/match_figures.py", "scripts/soak.py", "scripts/stuck_figures.py", "scripts/web_viewers.py"] {
        // soak.py builds the binaries itself unless told not to.
        let no_build: &[&str] = if script.ends_with("soak.py") { &["--no-build"] } else { &[] };
        let Ok(out) = std::process::Command::new("python3")
            .arg(repo_root().join(script))
            .args(no_build)
            .env("CARGO_TARGET_DIR", "/nonexistent-quarry-target")
            .output()
        else {
            eprintln!("skipping the run of {script}: python3 not found");
            continue;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{script} ran without a binary");
        assert!(!stderr.contains("Traceback"), "{script}: {stderr}");
        assert!(stderr.contains("/nonexistent-quarry-target/release/quarry-server not found") && stderr.contains("cargo build --release"), "{script}: {stderr}");
    }
}

/// Reads the block-style YAML the Agones manifests are written in (maps,
/// lists of scalars or maps, plain or double-quoted scalars, whole-line
/// comments, `---` between documents) into JSON; anything else panics.
/// No YAML crate is in the build's crate cache, and the manifests keep to this.
fn yaml_documents(text: &str) -> Vec<serde_json::Value> {
    fn scalar(v: &str) -> serde_json::Value {
        if let Some(q) = v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            return q.into();
        }
        match v {
            "true" => true.into(),
            "false" => false.into(),
            _ => v.parse::<i64>().map_or_else(|_| v.into(), Into::into),
        }
    }
    fn block(lines: &mut Vec<(usize, String)>, i: &mut usize, indent: usize) -> serde_json::Value {
        if lines[*i].1.starts_with("- ") {
            let mut list = Vec::new();
            while *i < lines.len() && lines[*i].0 == indent && lines[*i].1.starts_with("- ") {
                let rest = lines[*i].1[2..].trim().to_owned();
                if rest.contains(": ") || rest.ends_with(':') {
                    // A map in the list: its first key sits after the dash.
                    lines[*i] = (indent + 2, rest);
                    list.push(block(lines, i, indent + 2));
                } else {
                    list.push(scalar(&rest));
                    *i += 1;
                }
            }
            return list.into();
        }
        let mut map = serde_json::Map::new();
        while *i < lines.len() && lines[*i].0 == indent && !lines[*i].1.starts_with("- ") {
            let line = lines[*i].1.clone();
            let (key, value) = line.split_once(':').unwrap_or_else(|| panic!("not a key: {line}"));
            *i += 1;
            let value = value.trim();
            let nested = *i < lines.len() && (lines[*i].0 > indent || (lines[*i].0 == indent && lines[*i].1.starts_with("- ")));
            let v = if !value.is_empty() {
                scalar(value)
            } else if nested {
                let inner = lines[*i].0;
                block(lines, i, inner)
            } else {
                serde_json::Value::Null
            };
            map.insert(key.trim().to_owned(), v);
        }
        assert!(*i >= lines.len() || lines[*i].0 < indent, "bad indentation at {:?}", lines[*i]);
        map.into()
    }
    text.split("\n---")
        .map(|doc| {
            let mut lines: Vec<(usize, String)> = doc
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#') && l.trim() != "---")
                .map(|l| (l.len() - l.trim_start().len(), l.trim().to_owned()))
                .collect();
            let mut i = 0;
            let v = block(&mut lines, &mut i, 0);
            assert_eq!(i, lines.len(), "unread lines from {:?}", lines.get(i));
            v
        })
        .collect()
}

#[test]
fn the_agones_manifests_name_the_real_port_image_counters_and_health() {
    use quarry_server::agones;
    let server = registered_server();
    let cvars = server.console.cvars();
    let default = |name: &str| cvars.find(name).unwrap_or_else(|| panic!("no cvar {name}")).def.default.clone();
    let fleet = yaml_documents(&read("docker/agones/fleet.yaml")).remove(0);
    assert_eq!(fleet["kind"], "Fleet");
    let gs = &fleet["spec"]["template"]["spec"];
    // The container port is net_port's default, over UDP (QUIC).
    let port = &gs["ports"][0];
    assert_eq!(port["containerPort"].to_string(), default("net_port"));
    assert_eq!(port["protocol"], "UDP");
    // Health: on, and a period that spans more than one of the tick loop's pings.
    let health = &gs["health"];
    assert_eq!(health["disabled"], false);
    let period = health["periodSeconds"].as_u64().expect("periodSeconds");
    assert!(period > agones::HEALTH_INTERVAL.as_secs() && health["failureThreshold"].as_u64().is_some_and(|f| f >= 1), "{health}");
    // The Counters the server keeps, sized to its slots.
    for name in [agones::PLAYERS_COUNTER, agones::BOTS_COUNTER] {
        assert_eq!(gs["counters"][name]["capacity"].to_string(), default("sv_maxclients"), "counter {name}");
    }
    // The image docker/Dockerfile builds (README: `docker build ... -t quarry-server`), with the feature.
    let container = &gs["template"]["spec"]["containers"][0];
    let image = container["image"].as_str().expect("image");
    assert_eq!(image.split(':').next(), Some("quarry-server"));
    assert!(read("README.md").contains("docker build -f docker/Dockerfile -t quarry-server ."));
    assert!(read("docker/Dockerfile").contains("--features agones"), "the image is built without the agones feature");
    // Its arguments set real cvars, the shutdown at the end among them.
    let args: Vec<&str> = container["args"].as_array().expect("args").iter().filter_map(|a| a.as_str()).collect();
    for pair in args.chunks(3) {
        assert!(pair[0] == "+set" && cvars.find(pair[1]).is_some(), "{pair:?}");
    }
    assert!(args.windows(2).any(|w| w == [agones::SHUTDOWN_AT_END_CVAR, "1"]));
    let requests = &container["resources"]["requests"];
    assert!(requests["memory"].is_string() && requests["cpu"].is_string(), "{requests}");

    let autoscaler = yaml_documents(&read("docker/agones/fleetautoscaler.yaml")).remove(0);
    assert_eq!(autoscaler["kind"], "FleetAutoscaler");
    assert_eq!(autoscaler["spec"]["fleetName"], fleet["metadata"]["name"]);

    // The allocation asks for a real map and game type, by the names the server reads.
    let allocation = yaml_documents(&read("docker/agones/allocation.yaml")).remove(0);
    assert_eq!(allocation["spec"]["selectors"][0]["matchLabels"]["agones.dev/fleet"], fleet["metadata"]["name"]);
    let asked = &allocation["spec"]["metadata"]["annotations"];
    let map = asked[agones::MAP_KEY].as_str().expect("map annotation");
    assert!(agones::is_map_name(map) && repo_root().join("maps").join(format!("{map}.map")).is_file(), "{map}");
    let gametype = asked[agones::GAMETYPE_KEY].as_str().expect("gametype annotation");
    assert!(quarry_sim::rules::GameType::NAMES.contains(&gametype), "{gametype}");
}

/// The README's `quarry-server` command lines: from its indented code
/// blocks, `cargo run ... --bin quarry-server [-- ARGS]` (also after a
/// pipe) reduced to the arguments, a trailing `# comment` dropped;
/// synopses (with `[...]`) and `docker` lines left out.
fn readme_server_commands() -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in read("README.md").lines().filter(|l| l.starts_with("    ")) {
        let line = line.split(" # ").next().unwrap_or("").trim();
        let line = line.rsplit("| ").next().unwrap_or(line);
        let args = if let Some(rest) = line.strip_prefix("quarry-server") {
            rest
        } else if let Some((_, rest)) = line.split_once("--bin quarry-server") {
            rest.trim_start().strip_prefix("--").unwrap_or(rest)
        } else {
            continue;
        };
        if args.contains('[') {
            continue;
        }
        out.push(args.split_whitespace().map(str::to_owned).collect());
    }
    out
}

#[test]
fn every_readme_server_command_parses() {
    use clap::Parser;
    let commands = readme_server_commands();
    assert!(commands.len() >= 6, "{commands:?}");
    for args in commands {
        let shown = args.join(" ");
        let cli = quarry_server::cli::Cli::try_parse_from(std::iter::once("quarry-server".to_owned()).chain(args)).unwrap_or_else(|e| panic!("quarry-server {shown}: {e}"));
        quarry_server::cli::split_plus_commands(&cli.commands).unwrap_or_else(|e| panic!("quarry-server {shown}: {e}"));
    }
}
