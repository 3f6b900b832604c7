//! Writing archived cvars back to a config file, atomically: the new text
//! goes to a temporary file in the same directory, is fsynced, and is renamed
//! over the old file, so a crash at any point leaves either the old file or
//! the new one, never half of one. A crash between the create and the
//! rename leaves the temporary file (`.NAME.PID.tmp`) behind;
//! [`remove_stale_temp_files`] clears those at the next start.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cvars::CvarSet;
use crate::error::ArchiveError;
use crate::tokenize::quote;

/// The archive file's text: a `seta` line for every archived cvar, then the
/// archived pending values nothing registered this run (kept so a module that
/// was not loaded this time does not lose its settings).
pub fn archive_text(cvars: &CvarSet) -> String {
    let mut out = String::from(
        "// Archived cvars, written by quarry-server after a change and at shutdown (seta sets one).\n\
         // Executed at startup before server.cfg, so server.cfg and +set win over it.\n",
    );
    for c in cvars.iter().filter(|c| c.is_archived()) {
        out.push_str(&format!("seta {} {}\n", c.def.name, quote(&c.archived_value().to_string())));
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
    let tmp = dir.join(temp_name(&file_name, std::process::id()));
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

/// The temporary file [`write_atomic`] uses for `file_name` in process `pid`.
fn temp_name(file_name: &str, pid: u32) -> String {
    format!(".{file_name}.{pid}.tmp")
}

/// The process id in a [`write_atomic`] temporary file name
/// (`.NAME.PID.tmp`, NAME not empty, PID decimal digits), if it is one.
fn temp_file_pid(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (file, pid) = inner.rsplit_once('.')?;
    if file.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether another process with id `pid` is running (from `/proc`; where
/// there is no `/proc`, none is assumed to be).
fn other_process_running(pid: u32) -> bool {
    pid != std::process::id() && Path::new("/proc").join(pid.to_string()).exists()
}

/// Removes the temporary files an interrupted [`write_atomic`] left in
/// `dir`: regular files named exactly `.NAME.PID.tmp` whose PID is not a
/// running process other than this one. Call it at start, before this
/// process writes anything: a file with this process's own id is then
/// stale too (a container restarts its server with the same id, often 1).
/// Returns the files removed; a file that can't be removed is left alone.
pub fn remove_stale_temp_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let Some(pid) = entry.file_name().to_str().and_then(temp_file_pid) else { continue };
        // Not following symlinks: only a plain file we could have made.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !is_file || other_process_running(pid) {
            continue;
        }
        let path = entry.path();
        if std::fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed.sort();
    removed
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
    fn one_off_values_are_not_archived_until_set_again() {
        let mut s = CvarSet::new();
        s.register(CvarDef::string("sv_hostname", "Quarry", "").flags(CvarFlags::ARCHIVE)).expect("r");
        s.set("sv_hostname", "bench run", SetMode { allow_pending: false, archive: false }, "command line").expect("set");
        s.keep_archived("sv_hostname", "Quarry");
        assert_eq!(s.get(s.id("sv_hostname").expect("id")).value().to_string(), "bench run");
        assert!(archive_text(&s).contains("seta sv_hostname \"Quarry\"\n"), "{}", archive_text(&s));
        let generation = s.archive_generation();
        s.set("sv_hostname", "Arena", SetMode { allow_pending: false, archive: false }, "console").expect("set");
        assert!(s.archive_generation() > generation);
        assert!(archive_text(&s).contains("seta sv_hostname \"Arena\"\n"), "{}", archive_text(&s));
        // Setting the one-off value again on purpose keeps it too.
        s.set("sv_hostname", "bench run", SetMode { allow_pending: false, archive: false }, "command line").expect("set");
        s.keep_archived("sv_hostname", "Arena");
        s.set("sv_hostname", "bench run", SetMode { allow_pending: false, archive: false }, "console").expect("set");
        assert!(archive_text(&s).contains("seta sv_hostname \"bench run\"\n"), "{}", archive_text(&s));
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
    fn temp_pattern_is_exact() {
        assert_eq!(temp_file_pid(".archive.cfg.123.tmp"), Some(123));
        assert_eq!(temp_file_pid(".bans.txt.7.tmp"), Some(7));
        for name in ["archive.cfg.1.tmp", ".archive.cfg.tmp", "..1.tmp", ".a.1x.tmp", ".a.1.tmp.bak", ".a..tmp", ".a.-1.tmp"] {
            assert_eq!(temp_file_pid(name), None, "{name}");
        }
    }

    #[test]
    fn stale_temp_files_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        // PIDs above the largest Linux pid_max (2^22): never a running process.
        let stale = [".archive.cfg.99999999.tmp", ".bans.txt.88888888.tmp"];
        let own = temp_name("archive.cfg", std::process::id());
        let keep = ["archive.cfg", ".archive.cfg.tmp", ".notes.txt", "x.99999999.tmp"];
        for n in stale.iter().chain(&keep) {
            std::fs::write(d.join(n), "x").expect("write");
        }
        std::fs::write(d.join(&own), "x").expect("write");
        std::fs::create_dir(d.join(".dir.77777777.tmp")).expect("mkdir");
        let removed = remove_stale_temp_files(d);
        let mut want: Vec<PathBuf> = stale.iter().map(|n| d.join(n)).chain([d.join(&own)]).collect();
        want.sort();
        assert_eq!(removed, want);
        for n in keep {
            assert!(d.join(n).exists(), "{n} must be kept");
        }
        assert!(d.join(".dir.77777777.tmp").is_dir(), "directories are never removed");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn temp_file_of_a_running_process_is_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Process 1 is always running on Linux (and is not this test).
        let name = temp_name("archive.cfg", 1);
        std::fs::write(dir.path().join(&name), "x").expect("write");
        if std::process::id() != 1 {
            assert!(remove_stale_temp_files(dir.path()).is_empty());
            assert!(dir.path().join(&name).exists());
        }
    }

    #[test]
    fn failed_write_keeps_old_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("no/such/dir/archive.cfg");
        let e = write_atomic(&missing, "x").expect_err("must fail");
        assert!(e.to_string().contains("archive.cfg"), "{e}");
    }
}
