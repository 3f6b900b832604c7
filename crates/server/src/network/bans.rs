//! The ban list: IP addresses refused at the handshake, kept in a file in
//! the config directory and rewritten atomically on every change.
//!
//! The file is read with [`quarry_console::read_text_file`]: a FIFO, a
//! device or a file over [`MAX_BANS_BYTES`] is refused unread. A ban list
//! that exists but can't be read is never overwritten (that would lose every
//! ban in it): bans and unbans then hold until the server stops.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

/// The largest ban list read: about 50 000 bans with short reasons.
pub(crate) const MAX_BANS_BYTES: u64 = 4 << 20;

/// Banned addresses with the reason given.
#[derive(Debug, Default)]
pub struct BanList {
    path: Option<PathBuf>,
    bans: BTreeMap<IpAddr, String>,
    /// Why the file could not be read at load (then it is not overwritten).
    unreadable: Option<String>,
}

impl BanList {
    /// Loads `path` (one `ADDRESS reason...` per line, `//` comments); a
    /// missing file is an empty list; bad lines are reported and skipped; a
    /// file that can't be read is reported and left alone.
    pub fn load(path: &Path) -> (Self, Vec<String>) {
        let mut list = Self { path: Some(path.to_owned()), bans: BTreeMap::new(), unreadable: None };
        let mut warnings = Vec::new();
        let text = match quarry_console::read_text_file(path, MAX_BANS_BYTES) {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return (list, warnings),
            Err(e) => {
                warnings.push(format!("{e}; no bans from it apply, and ban/unban won't overwrite it (fix it and restart)"));
                list.unreadable = Some(e.to_string());
                return (list, warnings);
            }
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (addr, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            match addr.parse::<IpAddr>() {
                Ok(ip) => {
                    list.bans.insert(ip, reason.trim().to_owned());
                }
                Err(_) => warnings.push(format!("{}:{}: '{addr}' is not an IP address; line skipped", path.display(), i + 1)),
            }
        }
        (list, warnings)
    }

    /// Whether `ip` is banned, and why.
    pub fn reason(&self, ip: IpAddr) -> Option<&str> {
        self.bans.get(&ip).map(String::as_str)
    }

    /// Bans `ip` and saves the list.
    pub fn ban(&mut self, ip: IpAddr, reason: &str) -> Result<(), String> {
        self.bans.insert(ip, reason.to_owned());
        self.save()
    }

    /// Lifts a ban and saves the list; `false` if it was not banned.
    pub fn unban(&mut self, ip: IpAddr) -> Result<bool, String> {
        let had = self.bans.remove(&ip).is_some();
        if had {
            self.save()?;
        }
        Ok(had)
    }

    /// Every ban, sorted by address.
    pub fn iter(&self) -> impl Iterator<Item = (&IpAddr, &String)> {
        self.bans.iter()
    }

    fn save(&self) -> Result<(), String> {
        let Some(path) = &self.path else { return Ok(()) };
        if let Some(why) = &self.unreadable {
            return Err(format!("not saved, the ban list file was unreadable at start ({why}); the change holds until the server stops"));
        }
        let mut text = String::from("// Banned addresses: ADDRESS reason (written by quarry-server; ban/unban edit it).\n");
        for (ip, reason) in &self.bans {
            text.push_str(&format!("{ip} {reason}\n"));
        }
        quarry_console::write_atomic(path, &text).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ban_persists_and_bad_lines_are_reported() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("bans.txt");
        let (mut list, w) = BanList::load(&path);
        assert!(w.is_empty());
        let ip: IpAddr = "10.1.2.3".parse().expect("ip");
        list.ban(ip, "cheating").expect("ban");
        std::fs::write(&path, format!("{}\nnot-an-ip x\n", std::fs::read_to_string(&path).expect("read"))).expect("w");
        let (again, w) = BanList::load(&path);
        assert_eq!(again.reason(ip), Some("cheating"));
        assert_eq!(w.len(), 1);
        let mut again = again;
        assert_eq!(again.unban(ip), Ok(true));
        assert_eq!(BanList::load(&path).0.reason(ip), None);
    }

    fn refused(path: &Path, what: &str) {
        let (mut list, w) = BanList::load(path);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains(what) && w[0].contains("won't overwrite it"), "{w:?}");
        let e = list.ban("10.0.0.1".parse().expect("ip"), "x").expect_err("not saved over an unreadable file");
        assert!(e.contains("not saved"), "{e}");
        assert_eq!(list.reason("10.0.0.1".parse().expect("ip")), Some("x"), "the ban still holds in memory");
    }

    #[test]
    fn special_and_huge_ban_lists_are_refused_and_never_overwritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("bans.txt")).expect("mkdir");
        refused(&dir.path().join("bans.txt"), "a directory");
        let big = dir.path().join("big.txt");
        std::fs::write(&big, "// padding\n".repeat((MAX_BANS_BYTES / 11 + 1) as usize)).expect("write");
        refused(&big, "larger than");
        assert!(std::fs::metadata(&big).expect("big").len() > MAX_BANS_BYTES, "left as it was");
        #[cfg(unix)]
        {
            let zero = dir.path().join("zero.txt");
            std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
            refused(&zero, "a character device");
            let fifo = dir.path().join("fifo.txt");
            if std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
                refused(&fifo, "a FIFO");
            } else {
                eprintln!("mkfifo unavailable; FIFO case skipped");
            }
        }
    }
}
