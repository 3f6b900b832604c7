//! The sim's layers, checked on its source: the core never names a game
//! mode (it asks [`quarry_sim::mode_rules::ModeRules`]), and nothing after
//! the input queue asks what kind of client filled a slot.
//!
//! Layers: the core (every module but those below) → the match flow
//! (`rules/`: phases, teams, the game type enum) → the modes (`modes/`: one
//! module per game type and the features they share) → the views of the
//! match for clients and bots (`view.rs`, `scoreboard.rs`) and the
//! [`quarry_sim::Match`] façade (`game.rs`), which calls the mode registry.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comment lines and its unit tests (the
/// `#[cfg(test)]` module at the end of the file).
fn code(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn relative(path: &Path) -> String {
    path.strip_prefix(src()).unwrap_or(path).display().to_string()
}

/// Files above the core: the match flow, the modes, the views, the façade.
fn above_core(rel: &str) -> bool {
    rel.starts_with("rules/") || rel.starts_with("modes/") || ["view.rs", "scoreboard.rs", "game.rs", "lib.rs", "test_support.rs"].contains(&rel)
}

#[test]
fn no_core_file_names_a_game_mode() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    assert!(files.len() > 40, "found only {} source files under {}", files.len(), src().display());
    let names = ["modes::", "flags::", "GameType::Ffa", "GameType::Duel", "GameType::Tdm", "GameType::Ctf", "GameType::OneFlag", "GameType::FreezeTag", "GameType::ClanArena", "Frozen", "RoundState", "CarriesFlag", "clan_arena", "between_rounds", "holds_respawn"];
    let mut found = Vec::new();
    for path in &files {
        let rel = relative(path);
        // settings.rs only gives the g_gametype cvar its default.
        if above_core(&rel) || rel == "settings.rs" {
            continue;
        }
        for (line, text) in code(path) {
            // The event payloads of modes are events like any other.
            if rel == "events.rs" && text.contains("Frozen {") {
                continue;
            }
            for name in names.iter().filter(|n| text.contains(**n)) {
                found.push(format!("{rel}:{line}: {name}: {}", text.trim()));
            }
        }
    }
    assert!(found.is_empty(), "core files name a game mode (ask ModeRules instead):\n{}", found.join("\n"));
}

#[test]
fn nothing_after_the_input_queue_asks_for_the_client_kind() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    let mut found = Vec::new();
    for path in &files {
        let rel = relative(path);
        // Slots are filled and counted before the queue; the façade passes the kind through when a client joins.
        if ["slots.rs", "game.rs", "lib.rs"].contains(&rel.as_str()) {
            continue;
        }
        for (line, text) in code(path) {
            if text.contains("ClientKind") {
                found.push(format!("{rel}:{line}: {}", text.trim()));
            }
        }
    }
    assert!(found.is_empty(), "code after the input queue reads the client kind:\n{}", found.join("\n"));
}
