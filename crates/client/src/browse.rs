//! The server browser (`quarry-client list`): ask each master for the
//! Quarry servers it lists (`getserversExt Quarry PROTOCOL`, both address
//! families), then ask every server `getinfo` over plain UDP, a bounded
//! number at a time, and report what each says with the round trip and
//! the join address (`quarry://HOST:PORT/#FINGERPRINT`) that
//! `quarry-client connect` takes.
//!
//! Everything here reads datagrams from anywhere: each is parsed with
//! `quarry_net::oob`'s bounds-checked readers, answers from addresses not
//! asked and answers without the challenge sent are ignored, and the lists
//! are capped ([`MAX_SERVERS`]).

use std::collections::HashMap;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::time::{Duration, Instant};

use quarry_net::cert::Fingerprint;
use quarry_net::handshake::PROTOCOL_VERSION;
use quarry_net::oob::{GAME_NAME, q3};
use quarry_net::transport::split_host_port;

use crate::join::JoinAddress;

/// Servers taken from all masters at most.
pub const MAX_SERVERS: usize = 1024;
/// `getinfo` requests in flight at once.
pub const PARALLEL: usize = 32;

/// What to ask and how long to wait.
#[derive(Debug, Clone)]
pub struct ListOptions {
    /// The masters, `HOST` or `HOST:PORT` (port 27950 if none).
    pub masters: Vec<String>,
    /// How long to wait for a master's list, and for each batch of servers.
    pub timeout: Duration,
}

/// One server as its `getinfo` answer describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    /// Where it answered.
    pub addr: SocketAddr,
    /// `hostname`.
    pub name: String,
    /// `mapname`.
    pub map: String,
    /// `gametype`.
    pub gametype: String,
    /// `clients`: humans.
    pub humans: u32,
    /// `bots`.
    pub bots: u32,
    /// `sv_maxclients`.
    pub slots: u32,
    /// Whether it wants a password.
    pub needpass: bool,
    /// Round trip of the `getinfo`, ms.
    pub ping_ms: u32,
    /// The join address: with the certificate fingerprint when it gave a valid one.
    pub join: String,
}

/// What went wrong with one master (the others still count).
#[derive(Debug, thiserror::Error)]
pub enum BrowseError {
    /// The master's name is not HOST or HOST:PORT.
    #[error("master '{0}': give HOST or HOST:PORT")]
    BadMaster(String),
    /// The master's name did not resolve.
    #[error("master '{master}': {source}")]
    Resolve {
        /// The master as given.
        master: String,
        /// Why.
        source: std::io::Error,
    },
    /// No socket to ask from.
    #[error("socket: {0}")]
    Socket(std::io::Error),
}

/// The servers found and the masters that failed.
#[derive(Debug, Default)]
pub struct Listing {
    /// The servers that answered, by name.
    pub servers: Vec<ServerEntry>,
    /// Servers listed that did not answer in time.
    pub silent: usize,
    /// Masters that could not be asked.
    pub errors: Vec<BrowseError>,
}

/// Asks the masters, then the servers.
pub fn list(options: &ListOptions) -> Listing {
    let mut listing = Listing::default();
    let sockets = match Sockets::bind() {
        Ok(s) => s,
        Err(e) => {
            listing.errors.push(e);
            return listing;
        }
    };
    let mut servers = Vec::new();
    for m in &options.masters {
        match master_addrs(m) {
            Ok(addrs) => {
                for a in addrs {
                    for s in sockets.ask_master(a, options.timeout) {
                        if !servers.contains(&s) && servers.len() < MAX_SERVERS {
                            servers.push(s);
                        }
                    }
                }
            }
            Err(e) => listing.errors.push(e),
        }
    }
    for batch in servers.chunks(PARALLEL) {
        let got = sockets.ask_servers(batch, options.timeout);
        listing.silent += batch.len() - got.len();
        listing.servers.extend(got);
    }
    listing.servers.sort_by(|a, b| a.name.cmp(&b.name).then(a.addr.cmp(&b.addr)));
    listing
}

fn master_addrs(master: &str) -> Result<Vec<SocketAddr>, BrowseError> {
    let (host, port) = split_host_port(master.trim()).ok_or_else(|| BrowseError::BadMaster(master.to_owned()))?;
    let all: Vec<SocketAddr> = (host, port).to_socket_addrs().map_err(|source| BrowseError::Resolve { master: master.to_owned(), source })?.collect();
    // One address of each family, as a server's heartbeats go.
    Ok(all.iter().find(|a| a.is_ipv4()).into_iter().chain(all.iter().find(|a| a.is_ipv6())).copied().collect())
}

/// An IPv4 socket and, where the host has IPv6, an IPv6 one.
struct Sockets {
    v4: UdpSocket,
    v6: Option<UdpSocket>,
}

impl Sockets {
    fn bind() -> Result<Self, BrowseError> {
        let v4 = UdpSocket::bind("0.0.0.0:0").map_err(BrowseError::Socket)?;
        v4.set_read_timeout(Some(Duration::from_millis(20))).map_err(BrowseError::Socket)?;
        let v6 = UdpSocket::bind("[::]:0").ok().filter(|s| s.set_read_timeout(Some(Duration::from_millis(20))).is_ok());
        Ok(Self { v4, v6 })
    }

    fn for_addr(&self, a: SocketAddr) -> Option<&UdpSocket> {
        if a.is_ipv4() { Some(&self.v4) } else { self.v6.as_ref() }
    }

    fn each(&self) -> impl Iterator<Item = &UdpSocket> {
        std::iter::once(&self.v4).chain(self.v6.as_ref())
    }

    /// The servers one master lists, until its `EOT` or `timeout`.
    fn ask_master(&self, master: SocketAddr, timeout: Duration) -> Vec<SocketAddr> {
        let Some(socket) = self.for_addr(master) else { return Vec::new() };
        if socket.send_to(&q3::getservers_ext(PROTOCOL_VERSION), master).is_err() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let end = Instant::now() + timeout;
        let mut buf = [0u8; 2048];
        while Instant::now() < end {
            let Ok((n, from)) = socket.recv_from(&mut buf) else { continue };
            if from != master {
                continue;
            }
            let Ok(list) = q3::parse_server_list(buf.get(..n).unwrap_or(&[])) else { continue };
            out.extend(list.servers.into_iter().take(MAX_SERVERS));
            if list.last || out.len() >= MAX_SERVERS {
                break;
            }
        }
        out
    }

    /// `getinfo` to each of `servers` at once; the answers within `timeout`.
    fn ask_servers(&self, servers: &[SocketAddr], timeout: Duration) -> Vec<ServerEntry> {
        let start = Instant::now();
        let challenge = format!("q{:08x}", rand::random::<u32>());
        let mut waiting: HashMap<SocketAddr, Instant> = HashMap::new();
        for &s in servers {
            if let Some(socket) = self.for_addr(s)
                && socket.send_to(&q3::getinfo(&challenge), s).is_ok()
            {
                waiting.insert(canonical(s), Instant::now());
            }
        }
        let mut out = Vec::new();
        let mut buf = [0u8; 2048];
        while !waiting.is_empty() && start.elapsed() < timeout {
            for socket in self.each() {
                let Ok((n, from)) = socket.recv_from(&mut buf) else { continue };
                let from = canonical(from);
                let Some(&sent) = waiting.get(&from) else { continue };
                let Ok(pairs) = q3::parse_info_response(buf.get(..n).unwrap_or(&[])) else { continue };
                if let Some(entry) = entry_of(from, &pairs, &challenge, sent.elapsed()) {
                    waiting.remove(&from);
                    out.push(entry);
                }
            }
        }
        out
    }
}

fn canonical(a: SocketAddr) -> SocketAddr {
    SocketAddr::new(a.ip().to_canonical(), a.port())
}

/// A server's entry from its `infoResponse`, if it is a Quarry server
/// that echoed our challenge.
fn entry_of(addr: SocketAddr, pairs: &[(String, String)], challenge: &str, rtt: Duration) -> Option<ServerEntry> {
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    if get("challenge") != Some(challenge) || get("gamename") != Some(GAME_NAME) {
        return None;
    }
    let num = |k: &str| get(k).and_then(|v| v.parse().ok()).unwrap_or(0);
    let place = addr.to_string();
    let join = match get("fingerprint").and_then(|f| f.parse::<Fingerprint>().ok()) {
        Some(fp) => JoinAddress::url(&place, &fp),
        None => place,
    };
    Some(ServerEntry {
        addr,
        name: get("hostname").unwrap_or("").to_owned(),
        map: get("mapname").unwrap_or("").to_owned(),
        gametype: get("gametype").unwrap_or("").to_owned(),
        humans: num("clients"),
        bots: num("bots"),
        slots: num("sv_maxclients"),
        needpass: get("g_needpass") == Some("1"),
        ping_ms: u32::try_from(rtt.as_millis()).unwrap_or(u32::MAX),
        join,
    })
}

/// The listing as a table, one server a line.
pub fn listing_text(listing: &Listing) -> String {
    let mut s = format!("{:<24} {:<12} {:<6} {:>6} {:>4} {:>5} {:>5}  {}\n", "NAME", "MAP", "TYPE", "HUMANS", "BOTS", "SLOTS", "PING", "JOIN");
    for e in &listing.servers {
        let name: String = e.name.chars().take(24).collect();
        let lock = if e.needpass { " (password)" } else { "" };
        s.push_str(&format!("{name:<24} {:<12} {:<6} {:>6} {:>4} {:>5} {:>5}  {}{lock}\n", e.map, e.gametype, e.humans, e.bots, e.slots, e.ping_ms, e.join));
    }
    s.push_str(&format!("{} server(s) answered, {} did not\n", listing.servers.len(), listing.silent));
    s
}

/// The listing as one JSON object.
pub fn listing_json(listing: &Listing) -> String {
    use crate::services::json_str;
    let servers: Vec<String> = listing
        .servers
        .iter()
        .map(|e| {
            format!(
                "{{\"address\":{},\"name\":{},\"map\":{},\"gametype\":{},\"humans\":{},\"bots\":{},\"slots\":{},\"password\":{},\"ping_ms\":{},\"join\":{}}}",
                json_str(&e.addr.to_string()),
                json_str(&e.name),
                json_str(&e.map),
                json_str(&e.gametype),
                e.humans,
                e.bots,
                e.slots,
                e.needpass,
                e.ping_ms,
                json_str(&e.join)
            )
        })
        .collect();
    let errors: Vec<String> = listing.errors.iter().map(|e| json_str(&e.to_string())).collect();
    format!("{{\"servers\":[{}],\"silent\":{},\"errors\":[{}]}}", servers.join(","), listing.silent, errors.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(kv: &[(&str, &str)]) -> Vec<(String, String)> {
        kv.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn entries_need_our_challenge_and_our_game() {
        let addr: SocketAddr = "127.0.0.1:27960".parse().expect("addr");
        let fp = format!("{}", Fingerprint::of(b"cert"));
        let good = pairs(&[("challenge", "c1"), ("gamename", "Quarry"), ("hostname", "A"), ("clients", "1"), ("bots", "3"), ("sv_maxclients", "8"), ("fingerprint", &fp)]);
        let e = entry_of(addr, &good, "c1", Duration::from_millis(12)).expect("entry");
        assert_eq!((e.humans, e.bots, e.slots, e.ping_ms), (1, 3, 8, 12));
        assert_eq!(e.join, format!("quarry://127.0.0.1:27960/#{fp}"));
        assert!(entry_of(addr, &good, "other", Duration::ZERO).is_none(), "a stale or spoofed answer");
        let other_game = pairs(&[("challenge", "c1"), ("gamename", "Xonotic")]);
        assert!(entry_of(addr, &other_game, "c1", Duration::ZERO).is_none());
        let listing = Listing { servers: vec![e], ..Listing::default() };
        assert!(listing_json(&listing).contains("\"humans\":1,\"bots\":3"));
        assert!(listing_text(&listing).contains("quarry://127.0.0.1:27960/#"));
    }
}
