//! Who may open a QUIC connection: address validation first (QUIC Retry),
//! then a cap on open connections in all and from one IP address.
//!
//! This runs before any TLS work, on the accept task, for every Initial
//! packet that reaches the endpoint, so it only counts and compares.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Counters of what admission did, since the endpoint started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdmissionStats {
    /// New connections asked to prove their address (QUIC Retry sent).
    pub retries: u64,
    /// Connections refused because the server had `max_connections` open.
    pub refused_full: u64,
    /// Connections refused because their IP had `max_connections_per_ip` open.
    pub refused_per_ip: u64,
    /// Connections let through to the handshake.
    pub admitted: u64,
}

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
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
}

/// Why a connection was not admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// `max_connections` are open.
    Full,
    /// `max_connections_per_ip` are open from this address.
    PerIp,
}

/// One admitted connection's place in the counts; given back on drop.
#[derive(Debug)]
pub(crate) struct AdmissionGuard {
    admission: Arc<Admission>,
    ip: IpAddr,
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
        })
    }

    /// Counts a Retry sent.
    pub(crate) fn note_retry(&self) {
        self.retries.fetch_add(1, Ordering::Relaxed);
    }

    /// Takes a place for a connection from `ip`, or says why not.
    pub(crate) fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<AdmissionGuard, Refusal> {
        let ip = ip.to_canonical();
        let mut open = self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if open.total >= self.max_total {
            self.refused_full.fetch_add(1, Ordering::Relaxed);
            return Err(Refusal::Full);
        }
        let from_ip = open.per_ip.get(&ip).copied().unwrap_or(0);
        if self.max_per_ip > 0 && from_ip >= self.max_per_ip {
            self.refused_per_ip.fetch_add(1, Ordering::Relaxed);
            return Err(Refusal::PerIp);
        }
        open.total += 1;
        open.per_ip.insert(ip, from_ip + 1);
        self.admitted.fetch_add(1, Ordering::Relaxed);
        Ok(AdmissionGuard { admission: self.clone(), ip })
    }

    /// Open connections now.
    pub(crate) fn open_connections(&self) -> usize {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner).total
    }

    /// The counters.
    pub(crate) fn stats(&self) -> AdmissionStats {
        AdmissionStats {
            retries: self.retries.load(Ordering::Relaxed),
            refused_full: self.refused_full.load(Ordering::Relaxed),
            refused_per_ip: self.refused_per_ip.load(Ordering::Relaxed),
            admitted: self.admitted.load(Ordering::Relaxed),
        }
    }
}

impl Drop for AdmissionGuard {
    fn drop(&mut self) {
        let mut open = self.admission.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.per_ip.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.per_ip.remove(&self.ip);
            }
        }
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
        assert_eq!(a.admit(two).expect_err("server full"), Refusal::Full);
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
}
