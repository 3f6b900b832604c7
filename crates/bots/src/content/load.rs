//! Reading `botfiles/`: the directories, the files in them, and where each
//! definition came from (for warnings raised after parsing).
//!
//! Every read is bounded (see [`limits`](super::limits)): special files
//! (a FIFO, `/dev/zero`) and files over the size cap are refused with a
//! warning before they are read, and each directory is read up to its file
//! and byte caps, first by name.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use quarry_sim::weapons::WeaponTable;

use super::files::{Content, Warning};
use super::limits::{MAX_BOTFILE_BYTES, MAX_BYTES_PER_DIR, MAX_FILES_PER_DIR};

/// Loads `dir/styles/*.style`, then `dir/characters/*.bot`, then
/// `dir/chats/*.chat` (each sorted by file name) against the stock weapon
/// table. Never fails: a missing style or character directory or an
/// unreadable file is a warning; `chats/` is optional.
pub fn load_botfiles(dir: &Path) -> (Content, Vec<Warning>) {
    load_botfiles_with(dir, &WeaponTable::default())
}

/// [`load_botfiles`] checking weapon names against `table`.
pub fn load_botfiles_with(dir: &Path, table: &WeaponTable) -> (Content, Vec<Warning>) {
    let mut content = Content::default();
    let mut warnings = Vec::new();
    // Where each definition came from ("style:name" lower case -> file, line).
    let mut origins: HashMap<String, (String, u32)> = HashMap::new();
    for (sub, ext) in [("styles", "style"), ("characters", "bot")] {
        let path = dir.join(sub);
        let files = match read_botfile_dir(&path, ext, &mut warnings) {
            Ok(files) => files,
            Err(e) => {
                warnings.push(Warning { file: path.display().to_string(), line: 0, message: format!("can't read directory: {e}") });
                continue;
            }
        };
        for (name, text) in files {
            let (ns, nc) = (content.styles.len(), content.characters.len());
            let mut lines = content.parse_file(&name, &text, &mut warnings).into_iter();
            // `parse_file` returns the opening line of each accepted definition, in order.
            for s in &content.styles[ns..] {
                let line = lines.next().unwrap_or(0);
                origins.entry(format!("style:{}", s.name.to_lowercase())).or_insert((name.clone(), line));
            }
            for c in &content.characters[nc..] {
                let line = lines.next().unwrap_or(0);
                origins.entry(format!("character:{}", c.name.to_lowercase())).or_insert((name.clone(), line));
            }
        }
    }
    let origin = |key: &str| origins.get(&key.to_lowercase()).cloned().unwrap_or_else(|| (String::from("<content>"), 0));
    content.finish(table, &mut warnings, &origin);
    crate::chat::load_chats(dir, &mut content, &mut warnings);
    (content, warnings)
}

/// The `*.ext` files of `dir` as (name for warnings, text), first by file
/// name, within [`MAX_FILES_PER_DIR`] and [`MAX_BYTES_PER_DIR`]. A file that
/// can't be read, and each cap reached, is a warning; the directory itself
/// not being readable is the error.
pub(crate) fn read_botfile_dir(dir: &Path, ext: &str, warnings: &mut Vec<Warning>) -> std::io::Result<Vec<(String, String)>> {
    // Keep only the first MAX_FILES_PER_DIR names, so a directory of a
    // million files costs no more memory than one of a few hundred.
    let mut first = BTreeSet::new();
    let mut listed = 0usize;
    for entry in std::fs::read_dir(dir)?.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != ext) {
            continue;
        }
        listed += 1;
        first.insert(path);
        if first.len() > MAX_FILES_PER_DIR {
            first.pop_last();
        }
    }
    if listed > MAX_FILES_PER_DIR {
        warnings.push(Warning {
            file: dir.display().to_string(),
            line: 0,
            message: format!("{listed} .{ext} files, more than {MAX_FILES_PER_DIR}; only the first {MAX_FILES_PER_DIR} by name are read"),
        });
    }
    let mut out = Vec::new();
    let mut bytes = 0u64;
    for path in first {
        let name = path.display().to_string();
        match quarry_console::read_text_file(&path, MAX_BOTFILE_BYTES) {
            Ok(text) => {
                bytes += text.len() as u64;
                if bytes > MAX_BYTES_PER_DIR {
                    warnings.push(Warning {
                        file: name,
                        line: 0,
                        message: format!("more than {MAX_BYTES_PER_DIR} bytes of .{ext} files in this directory; this file and the ones after it are skipped"),
                    });
                    break;
                }
                out.push((name, text));
            }
            Err(e) => warnings.push(Warning { file: name, line: 0, message: format!("can't read file: {}", e.problem) }),
        }
    }
    Ok(out)
}
