//! Secrets kept in files (`sv_passwordFile`, `sv_webPasswordFile`): a
//! container's secrets are mounted as files, which keeps them out of the
//! command line and `docker inspect`. Setting the file cvar reads the
//! file's first line into the secret cvar it names.
//!
//! Fail closed: a secret file that cannot be read at startup stops the
//! server (exit 2, naming the file) before any socket is bound, since
//! running without it would open a private server or an unguarded view.
//! Set again later at the console, an unreadable file leaves the secret as
//! it was and says why.

use quarry_console::{CvarDef, CvarError, CvarId, CvarSet};

/// The largest secret file read (a secret is one short line).
const MAX_SECRET_FILE_BYTES: u64 = 4096;

/// A file cvar and the secret cvar its file fills.
#[derive(Debug, Clone, Copy)]
struct SecretFile {
    file: CvarId,
    secret: CvarId,
    /// The file cvar's modification count when last read.
    seen: u64,
}

/// The server's secret files.
#[derive(Debug, Clone, Default)]
pub struct SecretFiles {
    files: Vec<SecretFile>,
}

/// A secret file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{cvar} {path}: {problem}; refusing to run without the secret it holds ({secret})")]
pub struct SecretFileError {
    /// The file cvar (`sv_passwordFile`).
    pub cvar: String,
    /// The file.
    pub path: String,
    /// Why it could not be read.
    pub problem: String,
    /// The secret cvar it fills (`sv_password`).
    pub secret: String,
}

impl SecretFiles {
    /// Registers the file cvar for each `(file cvar, secret cvar)` pair (the
    /// secret cvars are registered already).
    pub fn register<C: 'static>(console: &mut quarry_console::Console<C>, pairs: &[(&str, &str, &str)]) -> Result<Self, CvarError> {
        let mut files = Vec::new();
        for (file, secret, help) in pairs {
            let secret = console.cvars().id(secret).ok_or_else(|| CvarError::Unknown { name: (*secret).to_owned() })?;
            let file = console.register_cvar(CvarDef::string(file, "", help))?;
            files.push(SecretFile { file, secret, seen: 0 });
        }
        Ok(Self { files })
    }

    /// Reads each secret file whose cvar changed since the last call into
    /// its secret. Returns a line per file read, and the first file that
    /// could not be read (its secret is left as it was).
    pub fn sync(&mut self, cvars: &mut CvarSet) -> (Vec<String>, Option<SecretFileError>) {
        let mut lines = Vec::new();
        let mut failed = None;
        for f in &mut self.files {
            let cvar = cvars.get(f.file);
            if cvar.modification_count() == f.seen {
                continue;
            }
            f.seen = cvar.modification_count();
            let path = cvar.value().to_string();
            if path.is_empty() {
                continue;
            }
            let (file_name, secret_name) = (cvar.def.name.clone(), cvars.get(f.secret).def.name.clone());
            let error = |problem: String| SecretFileError { cvar: file_name.clone(), path: path.clone(), problem, secret: secret_name.clone() };
            let result = quarry_console::read_text_file(std::path::Path::new(&path), MAX_SECRET_FILE_BYTES)
                .map_err(|e| error(e.problem.to_string()))
                .and_then(|text| {
                    let value = text.lines().next().unwrap_or("").trim_end_matches('\r').to_owned();
                    cvars.force_set(f.secret, &value).map_err(|e| error(e.to_string()))
                });
            match result {
                Ok(_) => lines.push(format!("{secret_name} set from {path}")),
                Err(e) => {
                    lines.push(format!("error: {e}; {secret_name} is unchanged"));
                    failed.get_or_insert(e);
                }
            }
        }
        (lines, failed)
    }
}

#[cfg(test)]
mod tests {
    use quarry_console::{Console, CvarDef, CvarFlags};

    use super::*;

    fn console() -> (Console<()>, SecretFiles) {
        let mut c = Console::<()>::new();
        c.register_cvar(CvarDef::string("pw", "", "").flags(CvarFlags::SECRET)).expect("pw");
        let files = SecretFiles::register(&mut c, &[("pwFile", "pw", "file")]).expect("register");
        (c, files)
    }

    #[test]
    fn a_file_fills_its_secret_and_a_missing_one_is_an_error_that_keeps_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let good = dir.path().join("pw.txt");
        std::fs::write(&good, "hunter2\r\nsecond line\n").expect("write");
        let (mut c, mut files) = console();
        c.set_cvar("pwFile", &good.display().to_string(), false, "test").expect("set");
        let (lines, failed) = files.sync(c.cvars_mut());
        assert_eq!((failed, c.cvars().find("pw").map(|v| v.value().to_string())), (None, Some("hunter2".to_owned())), "{lines:?}");
        let missing = dir.path().join("nope");
        c.set_cvar("pwFile", &missing.display().to_string(), false, "test").expect("set");
        let (_, failed) = files.sync(c.cvars_mut());
        let e = failed.expect("a missing file is an error");
        assert_eq!((e.cvar.as_str(), e.secret.as_str()), ("pwFile", "pw"));
        assert!(e.to_string().contains(&missing.display().to_string()), "{e}");
        assert_eq!(c.cvars().find("pw").map(|v| v.value().to_string()).as_deref(), Some("hunter2"), "the secret stays as it was");
        // Not read again until the cvar changes.
        assert_eq!(files.sync(c.cvars_mut()), (Vec::new(), None));
    }
}
