//! The ban list: IP addresses refused at the handshake, kept in a file in
//! the config directory and rewritten atomically on every change.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

/// Banned addresses with the reason given.
#[derive(Debug, Default)]
pub struct BanList {
    path: Option<PathBuf>,
    bans: BTreeMap<IpAddr, String>,
}

impl BanList {
    /// Loads `path` (one `ADDRESS reason...` per line, `//` comments); a
    /// missing file is an empty list; bad lines are reported and skipped.
    pub fn load(path: &Path) -> (Self, Vec<String>) {
        let mut list = Self { path: Some(path.to_owned()), bans: BTreeMap::new() };
        let mut warnings = Vec::new();
        let Ok(text) = std::fs::read_to_string(path) else { return (list, warnings) };
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
}
