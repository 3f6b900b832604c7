//! Reading a text file that came from outside (a config, a botfile, a
//! table, the ban list) without letting the file stall or starve the
//! server.
//!
//! The dangers are special files and huge ones: a FIFO blocks `open` until
//! a writer appears, a device such as `/dev/zero` never ends, and a file
//! larger than any real config exhausts memory. [`read_text_file`] asks the
//! file system first (following symlinks) and opens only regular files of at
//! most `limit` bytes; it then reads at most `limit + 1` bytes from the open
//! file, so a file that grows (or is swapped) between the check and the
//! read is still bounded. The one window left is a regular file replaced by
//! a FIFO between the check and the `open`: that needs write access to the
//! directory, which is the operator's own.
//!
//! Every caller passes its own limit (the largest file of its kind that is
//! surely not a mistake) and gets a [`ReadFileError`] naming the path, what
//! is wrong and what is allowed.

use std::io::Read;
use std::path::{Path, PathBuf};

/// A file that could not be read as text; nothing was read into the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("couldn't read '{}': {problem}", path.display())]
pub struct ReadFileError {
    /// The path as given.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: ReadProblem,
}

impl ReadFileError {
    /// Whether the file does not exist (callers that treat a missing file
    /// as empty check this).
    pub fn is_not_found(&self) -> bool {
        self.problem == ReadProblem::NotFound
    }
}

/// What is wrong with a file [`read_text_file`] refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadProblem {
    /// Nothing exists at the path (or a symlink points nowhere).
    #[error("no such file")]
    NotFound,
    /// The path is not a regular file (a directory, FIFO, device, socket).
    #[error("it is {found}; only regular files are read")]
    NotRegular {
        /// What it is, e.g. "a FIFO".
        found: &'static str,
    },
    /// The file is larger than the caller's limit.
    #[error("it is larger than {limit} bytes, the most allowed for this file")]
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The bytes are not UTF-8 text.
    #[error("it is not UTF-8 text (first bad byte on line {line}); save it as UTF-8")]
    NotUtf8 {
        /// 1-based line of the first invalid byte.
        line: usize,
    },
    /// Any other I/O error (permissions, a failed read).
    #[error("{message}")]
    Io {
        /// The kind of the I/O error.
        kind: std::io::ErrorKind,
        /// The I/O error's message.
        message: String,
    },
}

impl From<std::io::Error> for ReadProblem {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::NotFound {
            Self::NotFound
        } else {
            Self::Io { kind: e.kind(), message: e.to_string() }
        }
    }
}

/// Reads the regular file at `path` (symlinks followed) as UTF-8 text of at
/// most `limit` bytes. A FIFO, device, socket or directory is refused
/// before it is opened; a larger file is refused without reading more than
/// `limit + 1` bytes of it.
pub fn read_text_file(path: &Path, limit: u64) -> Result<String, ReadFileError> {
    read(path, limit).map_err(|problem| ReadFileError { path: path.to_owned(), problem })
}

/// Reads the regular file at `path` (symlinks followed) as bytes, at most
/// `limit` of them, with the same checks as [`read_text_file`] (no UTF-8
/// check): for binary or not-yet-decoded files such as maps.
pub fn read_file_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadFileError> {
    read_bytes(path, limit).map_err(|problem| ReadFileError { path: path.to_owned(), problem })
}

fn read(path: &Path, limit: u64) -> Result<String, ReadProblem> {
    let bytes = read_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes().iter().take(valid).filter(|&&b| b == b'\n').count();
        ReadProblem::NotUtf8 { line }
    })
}

fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadProblem> {
    let meta = std::fs::metadata(path)?;
    check_kind(&meta)?;
    if meta.len() > limit {
        return Err(ReadProblem::TooLarge { limit });
    }
    let file = std::fs::File::open(path)?;
    // The file may have changed since the check: look at the open handle.
    check_kind(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadProblem::TooLarge { limit });
    }
    Ok(bytes)
}

fn check_kind(meta: &std::fs::Metadata) -> Result<(), ReadProblem> {
    if meta.is_file() {
        return Ok(());
    }
    Err(ReadProblem::NotRegular { found: describe(&meta.file_type()) })
}

/// What a non-regular file is, in words.
fn describe(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(path: &Path, limit: u64) -> ReadProblem {
        read_text_file(path, limit).expect_err("must be refused").problem
    }

    #[test]
    fn reads_a_regular_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.cfg");
        std::fs::write(&path, "set a 1\n").expect("write");
        assert_eq!(read_text_file(&path, 8).expect("read"), "set a 1\n");
    }

    #[test]
    fn missing_file_is_not_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        let e = read_text_file(&dir.path().join("nope.cfg"), 10).expect_err("missing");
        assert!(e.is_not_found());
        assert!(e.to_string().contains("nope.cfg") && e.to_string().contains("no such file"), "{e}");
    }

    #[test]
    fn directory_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let e = read_text_file(dir.path(), 1 << 20).expect_err("dir");
        assert_eq!(e.problem, ReadProblem::NotRegular { found: "a directory" });
        assert!(e.to_string().contains("only regular files are read"), "{e}");
    }

    #[test]
    fn too_large_file_names_the_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("big.cfg");
        std::fs::write(&path, "x".repeat(101)).expect("write");
        assert_eq!(problem(&path, 100), ReadProblem::TooLarge { limit: 100 });
        assert!(read_text_file(&path, 101).is_ok());
        let e = read_text_file(&path, 100).expect_err("big");
        assert!(e.to_string().contains("larger than 100 bytes"), "{e}");
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bin.cfg");
        std::fs::write(&path, b"ok\nok\n\xff\n").expect("write");
        assert_eq!(problem(&path, 100), ReadProblem::NotUtf8 { line: 3 });
    }

    #[cfg(unix)]
    #[test]
    fn symlink_to_dev_zero_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("zero.cfg");
        std::os::unix::fs::symlink("/dev/zero", &path).expect("symlink");
        assert_eq!(problem(&path, 1 << 20), ReadProblem::NotRegular { found: "a character device" });
    }

    #[cfg(unix)]
    #[test]
    fn fifo_is_refused_without_opening_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("pipe.cfg");
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo unavailable; FIFO case skipped");
            return;
        }
        // Opening a FIFO with no writer would block this test forever.
        assert_eq!(problem(&path, 1 << 20), ReadProblem::NotRegular { found: "a FIFO" });
    }
}
