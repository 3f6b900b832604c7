//! Nothing in the bots or the navmesh is specific to a map: the code (not
//! its comments, not its tests) names no shipped, shared or generated map.
//! Bots are judged on maps nobody has seen, so a rule that only holds for
//! a name would be a rule fitted to a map.

use std::path::{Path, PathBuf};

/// The crates whose code must not know a map.
const CRATES: [&str; 2] = ["bots", "nav"];

/// Map names to look for: every `.map` file's stem under `dir`.
fn map_names(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            map_names(&path, out);
        } else if path.extension().is_some_and(|x| x == "map")
            && let Some(stem) = path.file_stem().and_then(|s| s.to_str())
        {
            out.push(stem.to_ascii_lowercase());
        }
    }
}

/// The `.rs` files under `dir`, tests left out (files named `tests.rs`
/// and folders named `tests`).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        let name = path.file_name().and_then(|s| s.to_str()).unwrap_or_default();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|x| x == "rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// Whether `line` holds `name` as a whole word (letters, digits and `_`
/// around it end the word).
fn names(line: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(name).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[test]
fn no_map_is_named_in_the_bots_or_the_navmesh() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut maps = Vec::new();
    map_names(&root.join("maps"), &mut maps);
    map_names(&root.join("../shared/maps"), &mut maps);
    assert!(maps.iter().any(|m| m == "q_dm1"), "the shipped maps are found: {maps:?}");
    let mut found = Vec::new();
    let mut files = 0;
    for krate in CRATES {
        let mut paths = Vec::new();
        sources(&root.join("crates").join(krate).join("src"), &mut paths);
        for path in paths {
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            // The code before the file's test module.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (n, line) in code.lines().enumerate() {
                let line = line.split("//").next().unwrap_or_default().to_ascii_lowercase();
                for m in &maps {
                    if names(&line, m) {
                        found.push(format!("{}:{}: {m}", path.display(), n + 1));
                    }
                }
                if line.contains("\"gen_") {
                    found.push(format!("{}:{}: a generated map", path.display(), n + 1));
                }
            }
        }
    }
    assert!(files > 50, "the sources are read ({files} files)");
    assert!(found.is_empty(), "map names in code:\n{}", found.join("\n"));
}

#[test]
fn a_name_counts_only_as_a_whole_word() {
    assert!(names("let m = \"dm6\";", "dm6"));
    assert!(!names("let adm6x = 1;", "dm6"));
    assert!(!names("dm66", "dm6"));
}
