//! Where to join and whom to trust.
//!
//! A server prints a join address that carries its certificate's
//! fingerprint, `quarry://HOST:PORT/#AB:CD:…`, so one string both finds the
//! server and pins it; a plain `HOST[:PORT]` still works with
//! `--fingerprint`. The client remembers each server's fingerprint in its
//! known servers file (`known_servers` in the user's config folder, like
//! SSH's `known_hosts`): a server it knows is pinned without being told
//! again, and one whose fingerprint changed is refused with both
//! fingerprints named, since that is what an impersonator looks like (the
//! operator who really replaced the certificate removes the line).
//!
//! The file is a file from the user's disk: it is read bounded, a line
//! that is not `SERVER FINGERPRINT` is skipped with a warning naming it,
//! and it is rewritten whole and renamed into place.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use quarry_net::cert::Fingerprint;

use crate::options::{DEFAULT_PORT, Trust};

/// The scheme of a join address.
pub const SCHEME: &str = "quarry://";

/// The known servers file's name in the client's config folder.
pub const KNOWN_SERVERS_FILE: &str = "known_servers";

/// The largest known servers file read (far more servers than anyone joins).
pub const MAX_KNOWN_SERVERS_BYTES: u64 = 1 << 20;

/// A server to join, as given: `quarry://HOST[:PORT][/][#FINGERPRINT]` or
/// `HOST[:PORT]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinAddress {
    /// `HOST:PORT` (the port filled in when left out), as the known
    /// servers file keys it: the host in lower case, as given otherwise.
    pub server: String,
    /// The fingerprint the address carries, if any.
    pub fingerprint: Option<Fingerprint>,
}

/// A join address that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a server address: {reason} (give HOST[:PORT] or quarry://HOST:PORT/#FINGERPRINT)")]
pub struct BadJoinAddress {
    /// What was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for JoinAddress {
    type Err = BadJoinAddress;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |reason: &str| BadJoinAddress { text: text.chars().filter(|c| !c.is_control()).take(200).collect(), reason: reason.to_owned() };
        let trimmed = text.trim();
        let (rest, url) = match trimmed.get(..SCHEME.len()) {
            Some(head) if head.eq_ignore_ascii_case(SCHEME) => (&trimmed[SCHEME.len()..], true),
            _ => (trimmed, false),
        };
        let (place, fragment) = match rest.split_once('#') {
            Some((place, fragment)) if url => (place, Some(fragment)),
            Some(_) => return Err(bad("a fingerprint after '#' needs the quarry:// form")),
            None => (rest, None),
        };
        let place = place.strip_suffix('/').unwrap_or(place);
        if place.is_empty() {
            return Err(bad("no host"));
        }
        if place.contains(['/', '?', '@']) || place.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("a host, then an optional port, is all it may hold"));
        }
        let fingerprint = match fragment {
            Some(f) => Some(f.parse::<Fingerprint>().map_err(|_| bad("the fingerprint is not 32 bytes of hex (AB:CD:...)"))?),
            None => None,
        };
        Ok(Self { server: with_port(place).map_err(|reason| bad(&reason))?, fingerprint })
    }
}

impl JoinAddress {
    /// The join address a server prints: where it is and who it is.
    pub fn url(server: &str, fingerprint: &Fingerprint) -> String {
        format!("{SCHEME}{server}/#{fingerprint}")
    }
}

/// `HOST:PORT` with the default port filled in and the host lower-cased;
/// an IPv6 address is bracketed.
fn with_port(place: &str) -> Result<String, String> {
    if place.parse::<std::net::Ipv6Addr>().is_ok() {
        return Ok(format!("[{}]:{DEFAULT_PORT}", place.to_ascii_lowercase()));
    }
    let (host, port) = if let Some(inner) = place.strip_prefix('[') {
        let (host, after) = inner.split_once(']').ok_or("an IPv6 address opened with '[' must close with ']'")?;
        (format!("[{}]", host.to_ascii_lowercase()), after.strip_prefix(':'))
    } else {
        match place.rsplit_once(':') {
            Some((host, port)) => (host.to_ascii_lowercase(), Some(port)),
            None => (place.to_ascii_lowercase(), None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err("no host".to_owned());
    }
    let port = match port {
        Some(p) => p.parse::<u16>().ok().filter(|p| *p != 0).ok_or_else(|| format!("port '{p}' is not 1-65535"))?,
        None => DEFAULT_PORT,
    };
    Ok(format!("{host}:{port}"))
}

/// The servers this client has joined and their fingerprints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownServers {
    servers: BTreeMap<String, Fingerprint>,
}

/// What the known servers file says of a server's fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Never joined.
    New,
    /// Joined before with this very fingerprint.
    Same,
}

/// A server whose fingerprint is not the one it had before.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{server} offers certificate fingerprint {offered}, but it had {known} when you joined before: \
     someone may be impersonating it; if its operator replaced the certificate, remove its line from {file}"
)]
pub struct FingerprintChanged {
    /// The server.
    pub server: String,
    /// The fingerprint remembered.
    pub known: Fingerprint,
    /// The fingerprint offered now.
    pub offered: Fingerprint,
    /// The known servers file.
    pub file: String,
}

/// The known servers file could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("known servers file {}: {reason}", path.display())]
pub struct KnownServersError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: String,
}

impl KnownServers {
    /// The file in the user's config folder: `$XDG_CONFIG_HOME/quarry/`, or
    /// `$HOME/.config/quarry/` (`%APPDATA%\quarry\` on Windows). `None`
    /// when neither is set.
    pub fn default_path() -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let base = var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|h| h.join(".config"))).or_else(|| var("APPDATA"))?;
        Some(base.join("quarry").join(KNOWN_SERVERS_FILE))
    }

    /// Reads `path` (a missing file knows no server). Lines that are not
    /// `SERVER FINGERPRINT` are skipped; the warnings name each.
    pub fn load(path: &Path) -> Result<(Self, Vec<String>), KnownServersError> {
        let text = match quarry_files::read_text_file(path, MAX_KNOWN_SERVERS_BYTES) {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return Ok((Self::default(), Vec::new())),
            Err(e) => return Err(KnownServersError { path: path.to_owned(), reason: e.problem.to_string() }),
        };
        Ok(Self::parse(&text, &path.display().to_string()))
    }

    /// The servers `text` lists, and a warning per line skipped.
    pub fn parse(text: &str, origin: &str) -> (Self, Vec<String>) {
        let mut known = Self::default();
        let mut warnings = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let entry = match (words.next(), words.next(), words.next()) {
                (Some(server), Some(fp), None) => with_port(server).ok().zip(fp.parse::<Fingerprint>().ok()),
                _ => None,
            };
            match entry {
                Some((server, fp)) => {
                    known.servers.insert(server, fp);
                }
                None => warnings.push(format!("{origin}:{}: skipped: not SERVER FINGERPRINT", n + 1)),
            }
        }
        (known, warnings)
    }

    /// The fingerprint remembered for `server` (`HOST:PORT`), if any.
    pub fn get(&self, server: &str) -> Option<&Fingerprint> {
        self.servers.get(server)
    }

    /// Whether `offered` is what `server` had before (`file` names the
    /// known servers file in the refusal).
    pub fn check(&self, server: &str, offered: &Fingerprint, file: &str) -> Result<Known, FingerprintChanged> {
        match self.servers.get(server) {
            None => Ok(Known::New),
            Some(known) if known == offered => Ok(Known::Same),
            Some(known) => Err(FingerprintChanged { server: server.to_owned(), known: *known, offered: *offered, file: file.to_owned() }),
        }
    }

    /// Remembers `server`'s fingerprint (after a join with it).
    pub fn remember(&mut self, server: &str, fingerprint: Fingerprint) {
        self.servers.insert(server.to_owned(), fingerprint);
    }

    /// The file's text: a comment, then one `SERVER FINGERPRINT` line each.
    pub fn to_text(&self) -> String {
        let mut text = String::from("# Servers quarry-client has joined and their certificate fingerprints (trusted on first use).\n");
        for (server, fp) in &self.servers {
            text.push_str(&format!("{server} {fp}\n"));
        }
        text
    }

    /// Writes the file whole and renames it into place (its folder made
    /// if missing).
    pub fn save(&self, path: &Path) -> Result<(), KnownServersError> {
        crate::atomic::write_file(path, self.to_text().as_bytes())
            .map_err(|e| KnownServersError { path: path.to_owned(), reason: e.to_string() })
    }
}

/// How a join will trust the server, decided before connecting.
#[derive(Debug)]
pub struct TrustPlan {
    /// `HOST:PORT`.
    pub server: String,
    /// The certificate check.
    pub trust: Trust,
    /// The known servers to add the server to once joined (a new server,
    /// when remembering was asked for), and the file to save them to.
    pub remember: Option<(KnownServers, PathBuf)>,
    /// Lines of the known servers file that were skipped.
    pub warnings: Vec<String>,
}

impl TrustPlan {
    /// After a join: adds a new server to the known servers file, if that
    /// was planned. Returns the file written.
    pub fn remember_now(self) -> Result<Option<PathBuf>, KnownServersError> {
        match (self.remember, self.trust) {
            (Some((mut known, path)), Trust::Pinned(fp)) => {
                known.remember(&self.server, fp);
                known.save(&path)?;
                Ok(Some(path))
            }
            _ => Ok(None),
        }
    }
}

/// Why a join is refused before it starts.
#[derive(Debug, thiserror::Error)]
pub enum TrustRefusal {
    /// Nothing says which certificate to expect, or the inputs disagree:
    /// the player must say more.
    #[error("{0}")]
    Unpinned(String),
    /// The known servers file could not be read.
    #[error(transparent)]
    File(#[from] KnownServersError),
    /// The server's fingerprint is not the one remembered.
    #[error(transparent)]
    Changed(#[from] FingerprintChanged),
}

/// What a join to `address` trusts: any certificate with `insecure`;
/// else the fingerprint the address or `fingerprint` gives, checked
/// against the known servers file at `known_servers` (a changed one is
/// refused, naming both); else the one that file remembers. A server with
/// none of these is refused. `remember` plans to add a new server to the
/// file once joined ([`TrustPlan::remember_now`]).
pub fn plan_trust(address: &JoinAddress, fingerprint: Option<Fingerprint>, insecure: bool, known_servers: Option<PathBuf>, remember: bool) -> Result<TrustPlan, TrustRefusal> {
    let server = address.server.clone();
    if insecure {
        return Ok(TrustPlan { server, trust: Trust::InsecureDevelopment, remember: None, warnings: Vec::new() });
    }
    let given = match (address.fingerprint, fingerprint) {
        (Some(a), Some(b)) if a != b => return Err(TrustRefusal::Unpinned(format!("the join address carries fingerprint {a} but --fingerprint says {b}: give one"))),
        (a, b) => a.or(b),
    };
    let Some(path) = known_servers else {
        return match given {
            Some(fp) => Ok(TrustPlan { server, trust: Trust::Pinned(fp), remember: None, warnings: Vec::new() }),
            None => Err(TrustRefusal::Unpinned(format!("no fingerprint for {server}: give the join address the server printed (quarry://HOST:PORT/#FINGERPRINT) or --fingerprint"))),
        };
    };
    let (known, warnings) = KnownServers::load(&path)?;
    let Some(fp) = given.or_else(|| known.get(&server).copied()) else {
        return Err(TrustRefusal::Unpinned(format!(
            "no fingerprint for {server}, and it is not in {}: give the join address the server printed (quarry://HOST:PORT/#FINGERPRINT) or --fingerprint",
            path.display()
        )));
    };
    let fresh = known.check(&server, &fp, &path.display().to_string())? == Known::New;
    Ok(TrustPlan { server, trust: Trust::Pinned(fp), remember: (fresh && remember).then_some((known, path)), warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FP: &str = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89";

    fn fp(byte: u8) -> Fingerprint {
        Fingerprint([byte; 32])
    }

    #[test]
    fn join_addresses_carry_the_port_and_the_fingerprint() {
        let a: JoinAddress = format!("quarry://Example.org:27961/#{FP}").parse().expect("url");
        assert_eq!(a.server, "example.org:27961");
        assert_eq!(a.fingerprint, Some(FP.parse().expect("fp")));
        let b: JoinAddress = "127.0.0.1".parse().expect("bare host");
        assert_eq!((b.server.as_str(), b.fingerprint), ("127.0.0.1:27960", None));
        let c: JoinAddress = "quarry://[::1]/".parse().expect("v6");
        assert_eq!(c.server, "[::1]:27960");
        assert_eq!("::1".parse::<JoinAddress>().expect("bare v6").server, "[::1]:27960");
        let url = JoinAddress::url("127.0.0.1:27960", &fp(7));
        assert_eq!(url.parse::<JoinAddress>().expect("round trip").fingerprint, Some(fp(7)));
    }

    #[test]
    fn bad_join_addresses_say_what_is_wrong() {
        for (text, why) in [
            ("quarry://host/#nothex", "fingerprint"),
            ("host#AB", "quarry:// form"),
            ("quarry://", "no host"),
            ("host:0", "port '0'"),
            ("host:99999", "port '99999'"),
            ("quarry://user@host", "a host"),
            ("[::1", "must close"),
        ] {
            let e = text.parse::<JoinAddress>().expect_err(text).to_string();
            assert!(e.contains(why) && e.contains("give HOST[:PORT]"), "{text}: {e}");
        }
    }

    #[test]
    fn a_known_server_with_another_fingerprint_is_refused_naming_both() {
        let mut known = KnownServers::default();
        assert_eq!(known.check("h:1", &fp(1), "f"), Ok(Known::New));
        known.remember("h:1", fp(1));
        assert_eq!(known.check("h:1", &fp(1), "f"), Ok(Known::Same));
        let e = known.check("h:1", &fp(2), "/home/u/.config/quarry/known_servers").expect_err("changed");
        let text = e.to_string();
        assert!(text.contains(&fp(1).to_string()) && text.contains(&fp(2).to_string()) && text.contains("known_servers"), "{text}");
    }

    #[test]
    fn a_join_is_pinned_by_the_address_or_the_file_and_remembered_once_planned() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("known_servers");
        let url: JoinAddress = JoinAddress::url("h:1", &fp(1)).parse().expect("url");
        let bare: JoinAddress = "h:1".parse().expect("bare");
        assert!(matches!(plan_trust(&bare, None, false, Some(path.clone()), true), Err(TrustRefusal::Unpinned(_))), "an unknown server without a fingerprint");
        assert!(matches!(plan_trust(&url, Some(fp(2)), false, None, false), Err(TrustRefusal::Unpinned(_))), "two fingerprints that disagree");
        assert_eq!(plan_trust(&bare, None, true, None, true).expect("insecure").trust, Trust::InsecureDevelopment);
        let plan = plan_trust(&url, None, false, Some(path.clone()), true).expect("pinned by the address");
        assert_eq!(plan.trust, Trust::Pinned(fp(1)));
        assert_eq!(plan.remember_now().expect("saved"), Some(path.clone()));
        let again = plan_trust(&bare, None, false, Some(path.clone()), true).expect("known now");
        assert_eq!((again.trust, again.remember.is_none()), (Trust::Pinned(fp(1)), true), "a known server is not written again");
        let other: JoinAddress = JoinAddress::url("h:1", &fp(9)).parse().expect("url");
        assert!(matches!(plan_trust(&other, None, false, Some(path), true), Err(TrustRefusal::Changed(_))));
    }

    #[test]
    fn the_file_round_trips_and_bad_lines_are_skipped_by_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("quarry").join(KNOWN_SERVERS_FILE);
        let (empty, warnings) = KnownServers::load(&path).expect("missing is empty");
        assert!(empty.get("a:1").is_none() && warnings.is_empty());
        let mut known = KnownServers::default();
        known.remember("a.example:27960", fp(3));
        known.remember("[::1]:5", fp(4));
        known.save(&path).expect("save");
        let (back, warnings) = KnownServers::load(&path).expect("load");
        assert_eq!((back, warnings.len()), (known.clone(), 0));
        let text = format!("{}garbage line\nb:1 nothex\n\nc:2 {FP} extra\n", known.to_text());
        let (parsed, warnings) = KnownServers::parse(&text, "k");
        assert_eq!(parsed, known, "good lines kept");
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].starts_with("k:4: skipped"), "{warnings:?}");
    }
}
