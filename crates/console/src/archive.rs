//! Writing archived cvars back to a config file, atomically: the new text
//! goes to a temporary file in the same directory, is fsynced, and is renamed
//! over the old file, so a crash at any point leaves either the old file or
//! the new one, never half of one.

use std::io::Write;
use std::path::Path;

use crate::cvars::CvarSet;
use crate::error::ArchiveError;
use crate::tokenize::quote;

/// The archive file's text: a `seta` line for every archived cvar, then the
/// archived pending values nothing registered this run (kept so a module that
/// was not loaded this time does not lose its settings).
pub fn archive_text(cvars: &CvarSet) -> String {
    let mut out = String::from(
        "// Archived cvars, written by quarry-server at shutdown (seta sets one).\n\
         // Executed at startup before server.cfg, so server.cfg and +set win over it.\n",
    );
    for c in cvars.iter().filter(|c| c.is_archived()) {
        out.push_str(&format!("seta {} {}\n", c.def.name, quote(&c.value().to_string())));
    }
    let pending: Vec<_> = cvars.pending().filter(|(_, p)| p.archive).collect();
    if !pending.is_empty() {
        out.push_str("// Not registered by anything this run; kept so they are not lost.\n");
        for (name, p) in pending {
            out.push_str(&format!("seta {} {}\n", name, quote(&p.value)));
        }
    }
    out
}

/// Writes `text` to `path` atomically (temp file, fsync, rename, fsync of the directory).
pub fn write_atomic(path: &Path, text: &str) -> Result<(), ArchiveError> {
    let err = |source| ArchiveError { path: path.to_owned(), source };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => std::path::PathBuf::from("."),
    };
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "archive".into());
    let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable. Opening a directory fails on some
        // platforms; the rename has still happened then.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(e)
    })
}

/// Writes the archive file for `cvars` to `path` atomically.
pub fn write_archive(path: &Path, cvars: &CvarSet) -> Result<(), ArchiveError> {
    write_atomic(path, &archive_text(cvars))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CvarDef, CvarFlags, SetMode};

    #[test]
    fn archive_lists_archived_and_pending_archived_only() {
        let mut s = CvarSet::new();
        s.register(CvarDef::string("sv_hostname", "Quarry", "").flags(CvarFlags::ARCHIVE)).expect("r");
        s.register(CvarDef::int("sv_fps", 60, 10, 1000, "")).expect("r");
        s.set("future", "7", SetMode { allow_pending: true, archive: true }, "t").expect("p");
        s.set("transient", "1", SetMode { allow_pending: true, archive: false }, "t").expect("p");
        let text = archive_text(&s);
        assert!(text.contains("seta sv_hostname \"Quarry\"\n"), "{text}");
        assert!(text.contains("seta future \"7\"\n"), "{text}");
        assert!(!text.contains("sv_fps") && !text.contains("transient"), "{text}");
    }

    #[test]
    fn write_replaces_whole_file_and_leaves_no_temp() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("archive.cfg");
        std::fs::write(&path, "old contents that are longer than the new ones").expect("w");
        write_atomic(&path, "new\n").expect("write");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new\n");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").filter_map(Result::ok).collect();
        assert_eq!(leftovers.len(), 1, "temp file left behind");
    }

    #[test]
    fn failed_write_keeps_old_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("no/such/dir/archive.cfg");
        let e = write_atomic(&missing, "x").expect_err("must fail");
        assert!(e.to_string().contains("archive.cfg"), "{e}");
    }
}
