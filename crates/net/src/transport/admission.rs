//! Who may open a QUIC connection: address validation first (QUIC Retry),
//! then a cap on open connections in all and from one address.
//!
//! An address is an IPv4 address or an IPv6 /64: one host (or one home
//! network) is routinely given a whole /64, so counting each IPv6 address
//! apart would let one host open every connection the server has.
//!
//! A full server does not simply refuse: a connection that has not joined
//! (not accepted into the game, no admin signed in on it) makes room by
//! closing the oldest such connection that finished its handshake. Holding
//! connections open without joining then costs an attacker its own oldest
//! ones rather than the players their places.
//!
//! This runs before any TLS work, on the accept task, for every Initial
//! packet that reaches the endpoint, so it only counts and compares.

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tracing::debug;

/// Counters of what admission did, since the endpoint started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdmissionStats {
    /// New connections asked to prove their address (QUIC Retry sent).
    pub retries: u64,
    /// Connections refused because the server had `max_connections` open,
    /// every one of them joined or still handshaking.
    pub refused_full: u64,
    /// Connections refused because their address had `max_connections_per_ip` open.
    pub refused_per_ip: u64,
    /// Connections let through to the handshake.
    pub admitted: u64,
    /// Connections that had not joined, closed to make room for a new one.
    pub evicted: u64,
}

/// The close code of a connection closed to make room.
pub const EVICTED: u32 = 0x45;

/// The open-connection counts and the limits, shared by the accept task and
/// every connection's guard.
#[derive(Debug)]
pub(crate) struct Admission {
    max_total: usize,
    max_per_ip: usize,
    open: Mutex<Open>,
    retries: AtomicU64,
    refused_full: AtomicU64,
    refused_per_ip: AtomicU64,
    admitted: AtomicU64,
    evicted: AtomicU64,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
    /// Every admitted connection, oldest first.
    entries: BTreeMap<u64, Entry>,
    next: u64,
}

#[derive(Debug)]
struct Entry {
    address: IpAddr,
    /// Accepted into the game, or an admin signed in on it.
    joined: bool,
    /// The connection, once its handshake finished (what eviction closes).
    conn: Option<quinn::Connection>,
}

impl Open {
    /// Takes `id`'s place out of the counts; `None` if it was gone already.
    fn release(&mut self, id: u64) -> Option<Entry> {
        let entry = self.entries.remove(&id)?;
        self.total = self.total.saturating_sub(1);
        if let Some(n) = self.per_address.get_mut(&entry.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per_address.remove(&entry.address);
            }
        }
        Some(entry)
    }
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// `max_connections` are open and every one has joined (or is still
    /// handshaking).
    Full,
    /// `max_connections_per_ip` are open from this address.
    PerIp,
}

/// One admitted connection's place in the counts; given back on drop.
#[derive(Debug)]
pub(crate) struct AdmissionGuard {
    ticket: Ticket,
}

/// A handle on one admitted connection's place: what the connection's
/// owner tells admission about it.
#[derive(Debug, Clone)]
pub(crate) struct Ticket {
    admission: Arc<Admission>,
    id: u64,
}

/// The address connections are counted under: an IPv4 address, or the /64
/// an IPv6 address is in (a v4-mapped address counts as its IPv4 one).
pub fn address_group(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !((1u128 << 64) - 1))),
    }
}

impl Admission {
    /// Limits: `max_total` open connections, `max_per_ip` from one address (0 = none).
    pub(crate) fn new(max_total: usize, max_per_ip: usize) -> Arc<Self> {
        Arc::new(Self {
            max_total: max_total.max(1),
            max_per_ip,
            open: Mutex::new(Open::default()),
            retries: AtomicU64::new(0),
            refused_full: AtomicU64::new(0),
            refused_per_ip: AtomicU64::new(0),
            admitted: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts a Retry sent.
    pub(crate) fn note_retry(&self) {
        self.retries.fetch_add(1, Ordering::Relaxed);
    }

    /// Takes a place for a connection from `ip` (closing the oldest
    /// connection that has not joined when the server is full), or says
    /// why not.
    pub(crate) fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<AdmissionGuard, Refusal> {
        let address = address_group(ip);
        let mut open = self.lock();
        let from_address = open.per_address.get(&address).copied().unwrap_or(0);
        if self.max_per_ip > 0 && from_address >= self.max_per_ip {
            self.refused_per_ip.fetch_add(1, Ordering::Relaxed);
            return Err(Refusal::PerIp);
        }
        if open.total >= self.max_total {
            let oldest_idle = open.entries.iter().find(|(_, e)| !e.joined && e.conn.is_some()).map(|(id, _)| *id);
            let Some(conn) = oldest_idle.and_then(|id| open.release(id)).and_then(|e| e.conn) else {
                self.refused_full.fetch_add(1, Ordering::Relaxed);
                return Err(Refusal::Full);
            };
            debug!(addr = %conn.remote_address(), "closing a connection that has not joined to make room");
            conn.close(EVICTED.into(), b"server full: a connection that had not joined made room");
            self.evicted.fetch_add(1, Ordering::Relaxed);
        }
        let from_address = open.per_address.get(&address).copied().unwrap_or(0);
        open.total += 1;
        open.per_address.insert(address, from_address + 1);
        let id = open.next;
        open.next += 1;
        open.entries.insert(id, Entry { address, joined: false, conn: None });
        self.admitted.fetch_add(1, Ordering::Relaxed);
        Ok(AdmissionGuard { ticket: Ticket { admission: self.clone(), id } })
    }

    /// Open connections now.
    pub(crate) fn open_connections(&self) -> usize {
        self.lock().total
    }

    /// The counters.
    pub(crate) fn stats(&self) -> AdmissionStats {
        AdmissionStats {
            retries: self.retries.load(Ordering::Relaxed),
            refused_full: self.refused_full.load(Ordering::Relaxed),
            refused_per_ip: self.refused_per_ip.load(Ordering::Relaxed),
            admitted: self.admitted.load(Ordering::Relaxed),
            evicted: self.evicted.load(Ordering::Relaxed),
        }
    }
}

impl AdmissionGuard {
    /// The handle the connection's owner keeps.
    pub(crate) fn ticket(&self) -> Ticket {
        self.ticket.clone()
    }
}

impl Ticket {
    /// The connection finished its handshake: from now on a full server
    /// may close it to make room, until it joins.
    pub(crate) fn attach(&self, conn: &quinn::Connection) {
        if let Some(e) = self.admission.lock().entries.get_mut(&self.id) {
            e.conn = Some(conn.clone());
        }
    }

    /// The connection joined (accepted into the game, or an admin signed
    /// in): it is never closed to make room.
    pub(crate) fn mark_joined(&self) {
        if let Some(e) = self.admission.lock().entries.get_mut(&self.id) {
            e.joined = true;
            e.conn = None;
        }
    }
}

impl Drop for AdmissionGuard {
    fn drop(&mut self) {
        self.ticket.admission.lock().release(self.ticket.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_ip_and_total_limits_hold_and_places_come_back() {
        let a = Admission::new(3, 2);
        let one: IpAddr = "192.0.2.1".parse().expect("ip");
        let two: IpAddr = "192.0.2.2".parse().expect("ip");
        let g1 = a.admit(one).expect("first");
        let _g2 = a.admit(one).expect("second");
        assert_eq!(a.admit(one).expect_err("third from one ip"), Refusal::PerIp);
        let _g3 = a.admit(two).expect("other ip");
        assert_eq!(a.admit(two).expect_err("server full, none to close"), Refusal::Full);
        drop(g1);
        assert_eq!(a.open_connections(), 2);
        a.admit(one).expect("place given back");
        let s = a.stats();
        assert_eq!((s.admitted, s.refused_per_ip, s.refused_full), (4, 1, 1));
    }

    #[test]
    fn v4_mapped_v6_counts_as_the_v4_address() {
        let a = Admission::new(10, 1);
        let v4: IpAddr = "198.51.100.7".parse().expect("ip");
        let mapped: IpAddr = "::ffff:198.51.100.7".parse().expect("ip");
        let _g = a.admit(v4).expect("first");
        assert_eq!(a.admit(mapped).expect_err("same host"), Refusal::PerIp);
    }

    #[test]
    fn an_ipv6_host_counts_as_its_slash_64() {
        let a = Admission::new(10, 2);
        let one: IpAddr = "2001:db8:1:2::1".parse().expect("ip");
        let two: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("ip");
        let other: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        let _g1 = a.admit(one).expect("first");
        let _g2 = a.admit(two).expect("same /64");
        assert_eq!(a.admit("2001:db8:1:2:abcd::1".parse().expect("ip")).expect_err("a third from the /64"), Refusal::PerIp);
        let _g3 = a.admit(other).expect("another /64");
        assert_eq!(address_group(two), "2001:db8:1:2::".parse::<IpAddr>().expect("ip"));
    }

    #[test]
    fn a_joined_connection_is_never_made_to_make_room() {
        let a = Admission::new(2, 0);
        let g1 = a.admit("192.0.2.1".parse().expect("ip")).expect("first");
        g1.ticket().mark_joined();
        let _g2 = a.admit("192.0.2.2".parse().expect("ip")).expect("second");
        // Neither has an attached connection that has not joined.
        assert_eq!(a.admit("192.0.2.3".parse().expect("ip")).expect_err("full"), Refusal::Full);
        drop(g1);
        assert_eq!(a.open_connections(), 1);
        let _g3 = a.admit("192.0.2.3".parse().expect("ip")).expect("a place came back");
        assert_eq!(a.stats().evicted, 0);
    }
}
