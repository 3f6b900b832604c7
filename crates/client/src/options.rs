//! How to reach a server and who to be there.

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use quarry_net::cert::{Fingerprint, ServerVerification};
use quarry_net::handshake::Hello;
use quarry_net::transport::TransportSettings;

use crate::error::ConnectError;

/// How the client decides to trust the server's certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// Only a certificate with this SHA-256 fingerprint (what the server
    /// prints at start).
    Pinned(Fingerprint),
    /// Any certificate. For development only: anyone on the path can
    /// impersonate the server. The transport logs a warning when used.
    InsecureDevelopment,
}

impl Trust {
    /// The transport's check for this trust.
    pub fn verification(self) -> ServerVerification {
        match self {
            Self::Pinned(fp) => ServerVerification::Pinned(fp),
            Self::InsecureDevelopment => ServerVerification::accept_any_for_development(),
        }
    }
}

/// Everything [`crate::Client::connect`] needs.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// The server's address.
    pub server: SocketAddr,
    /// Player name (the server validates it).
    pub name: String,
    /// The server password, if it has one.
    pub password: Option<String>,
    /// How to trust the certificate.
    pub trust: Trust,
    /// Extra userinfo pairs sent in the handshake (`rate`, `model`, …).
    pub userinfo: Vec<(String, String)>,
    /// How long joining may take before [`ConnectError::NoAnswer`]; also the
    /// transport's Welcome deadline.
    pub connect_timeout: Duration,
    /// QUIC and protocol settings (defaults suit a game).
    pub settings: TransportSettings,
    /// Where the connection runs: a shared runtime and a local address
    /// (load generators); by default its own runtime and the wildcard.
    pub net: quarry_net::transport::ClientOptions,
    /// Whether a map change is answered at once (`true`, a headless client
    /// with nothing to load) or only when the caller has loaded the map and
    /// calls [`crate::Client::confirm_map_loaded`].
    pub confirm_map_changes: bool,
}

impl ClientOptions {
    /// Options that pin the server's certificate fingerprint.
    pub fn pinned(server: SocketAddr, name: impl Into<String>, fingerprint: Fingerprint) -> Self {
        Self::with_trust(server, name, Trust::Pinned(fingerprint))
    }

    /// Options that accept any certificate (development and tests only).
    pub fn insecure(server: SocketAddr, name: impl Into<String>) -> Self {
        Self::with_trust(server, name, Trust::InsecureDevelopment)
    }

    fn with_trust(server: SocketAddr, name: impl Into<String>, trust: Trust) -> Self {
        Self {
            server,
            name: name.into(),
            password: None,
            trust,
            userinfo: Vec::new(),
            connect_timeout: Duration::from_secs(5),
            settings: TransportSettings::default(),
            net: quarry_net::transport::ClientOptions::default(),
            confirm_map_changes: true,
        }
    }

    /// Sets whether map changes are confirmed at once
    /// ([`ClientOptions::confirm_map_changes`]).
    #[must_use]
    pub fn confirm_map_changes(mut self, at_once: bool) -> Self {
        self.confirm_map_changes = at_once;
        self
    }

    /// Sets the server password.
    #[must_use]
    pub fn password(mut self, password: impl Into<String>) -> Self {
        self.password = Some(password.into());
        self
    }

    /// Sets the join deadline.
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The handshake's first frame.
    pub(crate) fn hello(&self) -> Hello {
        Hello {
            password: self.password.clone(),
            userinfo: self.userinfo.clone(),
            ..Hello::new(self.name.clone())
        }
    }
}

/// Resolves `HOST:PORT` (a name or an address; IPv6 as `[::1]:27960`) to
/// the first address it names.
pub fn resolve(target: &str) -> Result<SocketAddr, ConnectError> {
    let fail = |reason: String| ConnectError::Resolve {
        target: target.to_owned(),
        reason,
    };
    // A bare host (or IPv6 address) means the default port, as in Quake.
    let with_port = if target.parse::<std::net::Ipv6Addr>().is_ok() {
        format!("[{target}]:{DEFAULT_PORT}")
    } else if target.rsplit_once(':').is_none() || (target.ends_with(']') && target.starts_with('[')) {
        format!("{target}:{DEFAULT_PORT}")
    } else {
        target.to_owned()
    };
    let mut addrs = with_port
        .to_socket_addrs()
        .map_err(|e| fail(format!("{e} (give HOST or HOST:PORT, e.g. 127.0.0.1:{DEFAULT_PORT})")))?;
    addrs.next().ok_or_else(|| fail("no addresses".into()))
}

/// The port a server listens on unless told otherwise (`net_port`).
pub const DEFAULT_PORT: u16 = 27960;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_addresses_and_names() {
        assert_eq!(
            resolve("127.0.0.1:27960").ok(),
            "127.0.0.1:27960".parse().ok()
        );
        assert!(resolve("localhost:27960").is_ok_and(|a| a.ip().is_loopback()));
        // No port: the default one.
        assert_eq!(resolve("127.0.0.1").ok(), "127.0.0.1:27960".parse().ok());
        assert!(resolve("localhost").is_ok_and(|a| a.ip().is_loopback() && a.port() == DEFAULT_PORT));
        assert_eq!(resolve("::1").ok(), "[::1]:27960".parse().ok());
        assert_eq!(resolve("[::1]").ok(), "[::1]:27960".parse().ok());
        let e = resolve("127.0.0.1:99999").expect_err("port out of range");
        assert!(e.to_string().contains("give HOST or HOST:PORT"), "{e}");
    }

    #[test]
    fn hello_carries_name_and_password() {
        let o =
            ClientOptions::insecure("127.0.0.1:1".parse().expect("addr"), "ranger").password("pw");
        let h = o.hello();
        assert_eq!(
            (h.name.as_str(), h.password.as_deref()),
            ("ranger", Some("pw"))
        );
        assert_eq!(h.version, quarry_net::handshake::PROTOCOL_VERSION);
    }
}
