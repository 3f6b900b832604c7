//! The server list's state, apart from the window that draws it: the
//! servers the masters listed (from [`crate::browse`], the code behind
//! `quarry-client list`), in the order the player sorted them, the empty
//! ones hidden on request, and which one is picked.
//!
//! The pick follows the server, not the row: a refresh that reorders the
//! list keeps the same server picked while it is still listed.

use std::net::SocketAddr;

use crate::browse::{Listing, ServerEntry};

/// How the list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    /// Lowest ping first (the default, as in most browsers).
    #[default]
    Ping,
    /// By name.
    Name,
    /// Most humans first, then most bots.
    Players,
    /// By map, then name.
    Map,
}

impl SortKey {
    /// The key after this one, for a key that cycles through them.
    pub fn next(self) -> Self {
        match self {
            Self::Ping => Self::Name,
            Self::Name => Self::Players,
            Self::Players => Self::Map,
            Self::Map => Self::Ping,
        }
    }

    /// Its name, as `sort NAME` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ping => "ping",
            Self::Name => "name",
            Self::Players => "players",
            Self::Map => "map",
        }
    }

    /// The key `name` names.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Ping, Self::Name, Self::Players, Self::Map].into_iter().find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// The servers known to the list and what the player made of them.
#[derive(Debug, Default)]
pub struct ServerList {
    servers: Vec<ServerEntry>,
    /// Servers the masters listed that did not answer.
    pub silent: usize,
    /// What went wrong with masters, in their words.
    pub errors: Vec<String>,
    sort: SortKey,
    hide_empty: bool,
    picked: Option<SocketAddr>,
    /// Whether a listing has come in yet.
    pub listed: bool,
}

impl ServerList {
    /// Takes a fresh listing, keeping the pick if that server is still in it.
    pub fn set_listing(&mut self, listing: Listing) {
        self.servers = listing.servers;
        self.silent = listing.silent;
        self.errors = listing.errors.iter().map(ToString::to_string).collect();
        self.listed = true;
        if self.picked.is_some_and(|a| !self.rows().iter().any(|e| e.addr == a)) {
            self.picked = None;
        }
        if self.picked.is_none() {
            self.picked = self.rows().first().map(|e| e.addr);
        }
    }

    /// The servers shown, in order.
    pub fn rows(&self) -> Vec<&ServerEntry> {
        let mut rows: Vec<&ServerEntry> = self.servers.iter().filter(|e| !self.hide_empty || e.humans + e.bots > 0).collect();
        // Ties go by name (any case), then address, so the order is stable.
        let by_name = |a: &ServerEntry, b: &ServerEntry| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.addr.cmp(&b.addr));
        match self.sort {
            SortKey::Ping => rows.sort_by(|a, b| a.ping_ms.cmp(&b.ping_ms).then_with(|| by_name(a, b))),
            SortKey::Name => rows.sort_by(|a, b| by_name(a, b)),
            SortKey::Players => rows.sort_by(|a, b| b.humans.cmp(&a.humans).then(b.bots.cmp(&a.bots)).then_with(|| by_name(a, b))),
            SortKey::Map => rows.sort_by(|a, b| a.map.to_lowercase().cmp(&b.map.to_lowercase()).then_with(|| by_name(a, b))),
        }
        rows
    }

    /// Every server listed, shown or not.
    pub fn len(&self) -> usize {
        self.servers.len()
    }

    /// Whether no server is listed.
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// The order.
    pub fn sort(&self) -> SortKey {
        self.sort
    }

    /// Orders the list by `key`.
    pub fn set_sort(&mut self, key: SortKey) {
        self.sort = key;
    }

    /// Whether servers with nobody on them are hidden.
    pub fn hides_empty(&self) -> bool {
        self.hide_empty
    }

    /// Hides the servers with nobody on them, or shows them again.
    pub fn set_hide_empty(&mut self, hide: bool) {
        self.hide_empty = hide;
        if self.picked.is_some_and(|a| !self.rows().iter().any(|e| e.addr == a)) {
            self.picked = self.rows().first().map(|e| e.addr);
        }
    }

    /// The picked server's row (0-based), if it is shown.
    pub fn picked_row(&self) -> Option<usize> {
        let a = self.picked?;
        self.rows().iter().position(|e| e.addr == a)
    }

    /// The picked server.
    pub fn picked(&self) -> Option<&ServerEntry> {
        let a = self.picked?;
        self.servers.iter().find(|e| e.addr == a)
    }

    /// Picks the server on row `row` (0-based); `false` past the end.
    pub fn pick_row(&mut self, row: usize) -> bool {
        let Some(addr) = self.rows().get(row).map(|e| e.addr) else { return false };
        self.picked = Some(addr);
        true
    }

    /// Moves the pick `delta` rows, stopping at either end.
    pub fn move_pick(&mut self, delta: isize) {
        let count = self.rows().len();
        if count == 0 {
            return;
        }
        let row = self.picked_row().map_or(0, |r| r.saturating_add_signed(delta).min(count - 1));
        self.pick_row(row);
    }

    /// Picks by what a player types: a row number (from 1), else the first
    /// row whose name, map or address holds `text` (any case). `false` when
    /// none matches.
    pub fn pick_matching(&mut self, text: &str) -> bool {
        let text = text.trim();
        if let Ok(n) = text.parse::<usize>() {
            return n >= 1 && self.pick_row(n - 1);
        }
        let needle = text.to_lowercase();
        if needle.is_empty() {
            return false;
        }
        let found = self.rows().iter().position(|e| {
            e.name.to_lowercase().contains(&needle) || e.map.to_lowercase().contains(&needle) || e.addr.to_string().contains(&needle)
        });
        found.is_some_and(|row| self.pick_row(row))
    }

    /// One line on what the list holds: how many servers, hidden, silent.
    pub fn summary(&self) -> String {
        let shown = self.rows().len();
        let mut s = match self.servers.len() {
            1 => "1 server".to_owned(),
            n => format!("{n} servers"),
        };
        if shown < self.servers.len() {
            s.push_str(&format!(", {} empty hidden", self.servers.len() - shown));
        }
        if self.silent > 0 {
            s.push_str(&format!(", {} did not answer", self.silent));
        }
        s.push_str(&format!("; sorted by {}", self.sort.name()));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(port: u16, name: &str, map: &str, humans: u32, bots: u32, ping_ms: u32) -> ServerEntry {
        ServerEntry {
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            name: name.to_owned(),
            map: map.to_owned(),
            gametype: "ffa".to_owned(),
            humans,
            bots,
            slots: 16,
            needpass: false,
            ping_ms,
            join: format!("127.0.0.1:{port}"),
        }
    }

    fn list() -> ServerList {
        let mut l = ServerList::default();
        l.set_listing(Listing {
            servers: vec![entry(1, "Bravo", "q_dm1", 0, 0, 30), entry(2, "alpha", "dm6", 2, 1, 80), entry(3, "Charlie", "dm6", 0, 4, 10)],
            silent: 1,
            errors: Vec::new(),
        });
        l
    }

    fn names(l: &ServerList) -> Vec<&str> {
        l.rows().iter().map(|e| e.name.as_str()).collect()
    }

    #[test]
    fn the_list_sorts_by_each_key() {
        let mut l = list();
        assert_eq!(names(&l), ["Charlie", "Bravo", "alpha"], "by ping");
        l.set_sort(SortKey::Name);
        assert_eq!(names(&l), ["alpha", "Bravo", "Charlie"], "names ignore case");
        l.set_sort(SortKey::Players);
        assert_eq!(names(&l), ["alpha", "Charlie", "Bravo"], "humans first, then bots");
        l.set_sort(SortKey::Map);
        assert_eq!(names(&l), ["alpha", "Charlie", "Bravo"]);
        assert_eq!(SortKey::parse("PLAYERS"), Some(SortKey::Players));
        assert_eq!(SortKey::Map.next(), SortKey::Ping);
    }

    #[test]
    fn the_pick_follows_its_server_through_a_refresh_and_a_filter() {
        let mut l = list();
        assert_eq!(l.picked().map(|e| e.name.as_str()), Some("Charlie"), "the first row is picked at first");
        l.move_pick(1);
        assert_eq!(l.picked().map(|e| e.name.as_str()), Some("Bravo"));
        l.move_pick(10);
        assert_eq!(l.picked_row(), Some(2), "the pick stops at the end");
        assert!(l.pick_matching("bravo"));
        l.set_sort(SortKey::Name);
        assert_eq!((l.picked().map(|e| e.name.as_str()), l.picked_row()), (Some("Bravo"), Some(1)));
        l.set_hide_empty(true);
        assert_eq!(names(&l), ["alpha", "Charlie"]);
        assert_eq!(l.picked().map(|e| e.name.as_str()), Some("alpha"), "a hidden server cannot stay picked");
        assert!(l.summary().contains("1 empty hidden") && l.summary().contains("1 did not answer"), "{}", l.summary());
        assert!(l.pick_matching("2") && l.picked().is_some_and(|e| e.name == "Charlie"));
        assert!(!l.pick_matching("9") && !l.pick_matching("nowhere") && !l.pick_matching(" "));
        // A refresh without the picked server picks the first row.
        l.set_listing(Listing { servers: vec![entry(2, "alpha", "dm6", 2, 1, 80)], silent: 0, errors: Vec::new() });
        assert_eq!(l.picked().map(|e| e.name.as_str()), Some("alpha"));
    }

    #[test]
    fn an_empty_list_has_no_pick() {
        let mut l = ServerList::default();
        l.set_listing(Listing::default());
        l.move_pick(1);
        assert!(l.picked().is_none() && l.is_empty() && l.listed);
        assert!(l.summary().starts_with("0 servers"));
    }
}
