//! Admin keys and the proof that signs an admin in without sending a
//! secret.
//!
//! Each admin has a 32-byte random key in a key file of its own (mode
//! 0600), and a line `NAME ROLE` in the server's `admins` file. To sign in,
//! the client names itself; the server answers with a fresh random nonce;
//! the client returns HMAC-SHA256 under its key of the name, the nonce and
//! 32 bytes of keying material exported from this connection's TLS session
//! (RFC 5705, label [`EXPORTER_LABEL`], the nonce as context). Both ends
//! derive the same material only on the same TLS session, so a proof seen
//! on one connection is worthless on any other, and the key never crosses
//! the wire. The server checks with ring's constant-time verification.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

/// The TLS exporter label of the admin proof.
pub const EXPORTER_LABEL: &[u8] = b"EXPORTER-quarry-admin/1";
/// What a key file starts with.
const KEY_FILE_MAGIC: &str = "quarry-admin-key 1";
/// The largest key or admins file read.
const MAX_FILE: u64 = 64 * 1024;
/// Admins at most in the `admins` file.
const MAX_ADMINS: usize = 256;

/// Why admin keys could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum AdminKeyError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not what it should be.
    #[error("{path}:{line}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// The line (1-based; 0 for the whole file).
        line: usize,
        /// What is wrong and what is allowed.
        reason: String,
    },
    /// No randomness from the system.
    #[error("no randomness from the system")]
    Random,
}

/// A role: what an admin may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Every command.
    Admin,
    /// The server's list of operator commands.
    Operator,
}

impl Role {
    /// Its name in the `admins` file.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Operator => "operator",
        }
    }

    /// The role named `s`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "admin" => Some(Self::Admin),
            "operator" => Some(Self::Operator),
            _ => None,
        }
    }
}

/// One admin's key.
#[derive(Clone)]
pub struct AdminKey {
    /// The admin's name.
    pub name: String,
    key: [u8; 32],
}

impl std::fmt::Debug for AdminKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminKey").field("name", &self.name).finish_non_exhaustive()
    }
}

/// 32 random bytes.
pub fn random32() -> Result<[u8; 32], AdminKeyError> {
    let mut out = [0u8; 32];
    SystemRandom::new().fill(&mut out).map_err(|_| AdminKeyError::Random)?;
    Ok(out)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<[u8; 32]> {
    let s = s.as_bytes();
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in s.chunks(2).enumerate() {
        let text = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(text, 16).ok()?;
    }
    Some(out)
}

/// Whether `name` may name an admin: 1-32 letters, digits, `-`, `_`, `.`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= super::wire::MAX_NAME && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn read_small(path: &Path) -> Result<String, AdminKeyError> {
    let shown = path.display().to_string();
    let io = |source| AdminKeyError::Io { path: shown.clone(), source };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > MAX_FILE {
        return Err(AdminKeyError::Invalid { path: shown, line: 0, reason: format!("{len} bytes; at most {MAX_FILE}") });
    }
    std::fs::read_to_string(path).map_err(io)
}

impl AdminKey {
    /// A new random key for `name`.
    pub fn generate(name: &str) -> Result<Self, AdminKeyError> {
        Ok(Self { name: name.to_owned(), key: random32()? })
    }

    /// Writes the key file (mode 0600 on Unix, written whole and renamed
    /// into place); refuses to overwrite one.
    pub fn write(&self, path: &Path) -> Result<(), AdminKeyError> {
        let shown = path.display().to_string();
        let io = |source| AdminKeyError::Io { path: shown.clone(), source };
        if path.exists() {
            return Err(AdminKeyError::Invalid { path: shown, line: 0, reason: "a key file is there already (delete it first to make a new key)".into() });
        }
        let text = format!("{KEY_FILE_MAGIC}\nname {}\nkey {}\n", self.name, hex(&self.key));
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        {
            use std::io::Write;
            let mut f = options.open(&tmp).map_err(io)?;
            f.write_all(text.as_bytes()).map_err(io)?;
            f.sync_all().map_err(io)?;
        }
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads a key file.
    pub fn read(path: &Path) -> Result<Self, AdminKeyError> {
        let shown = path.display().to_string();
        let text = read_small(path)?;
        let bad = |line: usize, reason: &str| AdminKeyError::Invalid { path: shown.clone(), line, reason: reason.to_owned() };
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(KEY_FILE_MAGIC) {
            return Err(bad(1, "not an admin key file (it starts with 'quarry-admin-key 1')"));
        }
        let name = lines.next().and_then(|l| l.trim().strip_prefix("name ")).map(str::trim).filter(|n| valid_name(n)).ok_or_else(|| bad(2, "expected 'name NAME' (letters, digits, - _ .)"))?;
        let key = lines.next().and_then(|l| l.trim().strip_prefix("key ")).and_then(|k| unhex(k.trim())).ok_or_else(|| bad(3, "expected 'key' and 64 hex digits"))?;
        Ok(Self { name: name.to_owned(), key })
    }

    /// The proof for `nonce` on a session whose exported keying material
    /// is `exported`.
    pub fn proof(&self, nonce: &[u8; 32], exported: &[u8; 32]) -> [u8; 32] {
        let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &self.key), &proof_message(&self.name, nonce, exported));
        let mut out = [0u8; 32];
        out.copy_from_slice(tag.as_ref());
        out
    }
}

/// What the proof signs.
fn proof_message(name: &str, nonce: &[u8; 32], exported: &[u8; 32]) -> Vec<u8> {
    let mut m = Vec::with_capacity(96 + name.len());
    m.extend_from_slice(b"quarry-admin/1\0");
    m.extend_from_slice(name.as_bytes());
    m.push(0);
    m.extend_from_slice(nonce);
    m.extend_from_slice(exported);
    m
}

/// The admins a server knows: name, role and key.
#[derive(Debug, Clone, Default)]
pub struct AdminKeys {
    admins: BTreeMap<String, (Role, AdminKey)>,
}

impl AdminKeys {
    /// Reads the `admins` file at `path` (lines `NAME ROLE`; `#` comments)
    /// and each admin's key file `DIR/NAME.key` beside it. A bad line or
    /// key is an error naming the file and line.
    pub fn load(path: &Path) -> Result<Self, AdminKeyError> {
        let shown = path.display().to_string();
        let text = read_small(path)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut admins = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |reason: String| AdminKeyError::Invalid { path: shown.clone(), line: i + 1, reason };
            let mut words = line.split_whitespace();
            let (Some(name), Some(role), None) = (words.next(), words.next(), words.next()) else {
                return Err(bad("expected 'NAME ROLE'".into()));
            };
            if !valid_name(name) {
                return Err(bad(format!("'{name}' is not a name (1-32 letters, digits, - _ .)")));
            }
            let role = Role::parse(role).ok_or_else(|| bad(format!("role '{role}': expected admin or operator")))?;
            if admins.len() >= MAX_ADMINS {
                return Err(bad(format!("more than {MAX_ADMINS} admins")));
            }
            let key = AdminKey::read(&key_path(dir, name))?;
            if key.name != name {
                return Err(bad(format!("the key file for {name} names {}", key.name)));
            }
            admins.insert(name.to_owned(), (role, key));
        }
        Ok(Self { admins })
    }

    /// Admins known.
    pub fn len(&self) -> usize {
        self.admins.len()
    }

    /// Whether none is known.
    pub fn is_empty(&self) -> bool {
        self.admins.is_empty()
    }

    /// The admins' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.admins.keys().map(String::as_str)
    }

    /// Checks `proof` from `name` in constant time; the role on success.
    /// An unknown name is checked against a throwaway key, so the time
    /// does not tell names apart.
    pub fn verify(&self, name: &str, nonce: &[u8; 32], exported: &[u8; 32], proof: &[u8; 32]) -> Option<Role> {
        let known = self.admins.get(name);
        let key = known.map_or([0u8; 32], |(_, k)| k.key);
        let ok = hmac::verify(&hmac::Key::new(hmac::HMAC_SHA256, &key), &proof_message(name, nonce, exported), proof).is_ok();
        known.filter(|_| ok).map(|(role, _)| *role)
    }
}

/// Where `name`'s key file is, beside the `admins` file in `dir`.
pub fn key_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("admin-{name}.key"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_holds_only_for_its_key_nonce_and_session() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = AdminKey::generate("ops").expect("key");
        key.write(&key_path(dir.path(), "ops")).expect("write");
        let other = AdminKey::generate("ops").expect("key");
        std::fs::write(dir.path().join("admins"), "# who may administer\nops operator\n").expect("admins");
        let keys = AdminKeys::load(&dir.path().join("admins")).expect("load");
        let (nonce, session) = ([1u8; 32], [2u8; 32]);
        let proof = key.proof(&nonce, &session);
        assert_eq!(keys.verify("ops", &nonce, &session, &proof), Some(Role::Operator));
        assert_eq!(keys.verify("ops", &nonce, &[3; 32], &proof), None, "another TLS session");
        assert_eq!(keys.verify("ops", &[9; 32], &session, &proof), None, "another nonce");
        assert_eq!(keys.verify("ops", &nonce, &session, &other.proof(&nonce, &session)), None, "another key");
        assert_eq!(keys.verify("nobody", &nonce, &session, &proof), None);
    }

    #[cfg(unix)]
    #[test]
    fn key_files_are_private_and_never_overwritten() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = key_path(dir.path(), "root");
        let key = AdminKey::generate("root").expect("key");
        key.write(&path).expect("write");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(key.write(&path).is_err(), "an existing key is kept");
        assert_eq!(AdminKey::read(&path).expect("read").key, key.key);
    }

    #[test]
    fn bad_files_name_the_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let admins = dir.path().join("admins");
        std::fs::write(&admins, "ops boss\n").expect("write");
        let e = AdminKeys::load(&admins).expect_err("bad role").to_string();
        assert!(e.contains("admins:1") && e.contains("admin or operator"), "{e}");
        std::fs::write(&admins, "\nops operator\n").expect("write");
        let e = AdminKeys::load(&admins).expect_err("no key file").to_string();
        assert!(e.contains("admin-ops.key"), "{e}");
        std::fs::write(key_path(dir.path(), "ops"), "quarry-admin-key 1\nname ops\nkey zz\n").expect("write");
        let e = AdminKeys::load(&admins).expect_err("bad key").to_string();
        assert!(e.contains(":3") && e.contains("hex"), "{e}");
    }
}
