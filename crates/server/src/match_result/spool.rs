//! The spool: match results not yet delivered to the webhook, one file
//! each in `<sv_matchResultDir>/pending/`, named `<match_id>.json` (so
//! name order is age order).
//!
//! A document is spooled before its first delivery attempt and removed only
//! after the endpoint answered 2xx, so nothing undelivered is lost to a
//! failed request, a stop or a crash: the next start sends what is left.
//! Each file is written atomically (temp file, fsync, rename), so a crash
//! leaves a whole document or none.
//!
//! Bounded: past [`MAX_PENDING`] files the oldest are deleted with a
//! warning. The result file in `sv_matchResultDir` itself is kept, so what
//! an endpoint down for a very long time misses can still be sent by hand.
//!
//! What it must not do: run on the tick thread (every call here touches the
//! disk).

use std::path::{Path, PathBuf};

/// The most documents waiting: well past a day of matches at one a minute.
pub const MAX_PENDING: usize = 2000;
/// The largest document read back (a 64-player match is far smaller).
pub const MAX_DOCUMENT_BYTES: u64 = 4 << 20;
/// The spool's folder inside `sv_matchResultDir`.
pub const PENDING_DIR: &str = "pending";

/// A spool operation that failed, naming the path.
#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    /// The folder could not be made or listed.
    #[error("{}: {source}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A document could not be written.
    #[error("{0}")]
    Write(#[from] quarry_console::ArchiveError),
    /// A document could not be read back (gone, too large, not text).
    #[error("{0}")]
    Read(#[from] quarry_console::ReadFileError),
    /// A delivered document could not be removed.
    #[error("{}: {source}", path.display())]
    Remove {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// The folder of documents waiting for delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spool {
    dir: PathBuf,
    limit: usize,
}

impl Spool {
    /// The spool in `dir`, holding at most `limit` documents.
    pub fn new(dir: PathBuf, limit: usize) -> Self {
        Self { dir, limit: limit.max(1) }
    }

    /// The spool of the results folder `results_dir`.
    pub fn of_results(results_dir: &Path) -> Self {
        Self::new(results_dir.join(PENDING_DIR), MAX_PENDING)
    }

    /// The spool's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Spools `text` as `<id>.json` (the folder is made if missing), then
    /// deletes the oldest documents past the limit; returns the ones
    /// deleted.
    pub fn put(&self, id: &str, text: &str) -> Result<Vec<PathBuf>, SpoolError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| SpoolError::Folder { path: self.dir.clone(), source })?;
        quarry_console::write_atomic(&self.dir.join(format!("{id}.json")), text)?;
        let pending = self.pending()?;
        let over = pending.len().saturating_sub(self.limit);
        let mut dropped = Vec::new();
        for path in pending.into_iter().take(over) {
            self.remove(&path)?;
            dropped.push(path);
        }
        Ok(dropped)
    }

    /// The documents waiting, oldest first (none when the folder is missing).
    pub fn pending(&self) -> Result<Vec<PathBuf>, SpoolError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(SpoolError::Folder { path: self.dir.clone(), source }),
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        Ok(paths)
    }

    /// A waiting document's text, at most [`MAX_DOCUMENT_BYTES`].
    pub fn read(&self, path: &Path) -> Result<String, SpoolError> {
        Ok(quarry_console::read_text_file(path, MAX_DOCUMENT_BYTES)?)
    }

    /// Removes a delivered document (one already gone is no error).
    pub fn remove(&self, path: &Path) -> Result<(), SpoolError> {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(SpoolError::Remove { path: path.to_owned(), source: e }),
            _ => Ok(()),
        }
    }

    /// Removes temp files an interrupted write left; returns them.
    pub fn clean(&self) -> Vec<PathBuf> {
        quarry_console::remove_stale_temp_files(&self.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_wait_oldest_first_and_the_oldest_go_past_the_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let spool = Spool::new(dir.path().join("pending"), 2);
        assert!(spool.pending().expect("a missing folder is empty").is_empty());
        for id in ["20261207-090000-a", "20261207-080000-b"] {
            assert!(spool.put(id, "{}").expect("put").is_empty());
        }
        let dropped = spool.put("20261207-100000-c", "{\"c\":1}").expect("put");
        assert_eq!(dropped, [spool.dir().join("20261207-080000-b.json")], "the oldest goes");
        let pending = spool.pending().expect("list");
        assert_eq!(pending, [spool.dir().join("20261207-090000-a.json"), spool.dir().join("20261207-100000-c.json")]);
        assert_eq!(spool.read(&pending[1]).expect("read"), "{\"c\":1}");
        spool.remove(&pending[0]).expect("remove");
        spool.remove(&pending[0]).expect("removing twice is fine");
        assert_eq!(spool.pending().expect("list").len(), 1);
        std::fs::write(spool.dir().join("notes.txt"), "x").expect("write");
        assert_eq!(spool.pending().expect("list").len(), 1, "only .json documents");
    }
}
