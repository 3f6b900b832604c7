//! Traffic figures for the metrics: what crossed the network and what was
//! dropped since the last sample, by reason, and each client's round trip.
//! Totals come from the connections' own counters; a client that leaves
//! between two samples takes its last (under a second of) traffic with it.

use quarry_net::conn::{ConnStats, LimitedCounts};

use super::NetServer;

/// What one connection had been counted for at the last sample.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counted {
    bytes_in: u64,
    bytes_out: u64,
    limited: LimitedCounts,
    malformed: u64,
    snapshot_cap: u64,
}

/// Endpoint-wide figures at the last sample.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct EndpointCounted {
    refused_full: u64,
    refused_per_ip: u64,
    evicted: u64,
    lockouts: u64,
    services: quarry_net::service::ServiceStats,
}

/// One sample: amounts since the previous one.
#[derive(Debug, Clone, Default)]
pub struct TrafficSample {
    /// Payload bytes received from clients.
    pub bytes_in: u64,
    /// Payload bytes sent to clients.
    pub bytes_out: u64,
    /// Messages, datagrams and connections dropped: (connection class,
    /// reason, count). Classes: `client` (an accepted player), `handshake`
    /// (a connection not yet let in), `query` and `admin` (the services).
    pub dropped: Vec<(&'static str, &'static str, u64)>,
    /// Each accepted client's round-trip time, seconds.
    pub rtts: Vec<f64>,
    /// Accepted clients.
    pub clients: usize,
    /// Open connections (accepted and still handshaking).
    pub open_connections: usize,
}

impl NetServer {
    /// What crossed the network since the last call.
    pub fn traffic_sample(&mut self) -> TrafficSample {
        let mut sample = TrafficSample { clients: self.clients.len(), open_connections: self.transport.open_connections(), ..TrafficSample::default() };
        let mut limited = LimitedCounts::default();
        let (mut malformed, mut snapshot_cap) = (0, 0);
        for (conn, client) in &mut self.clients {
            let Some(stats) = self.transport.stats(*conn) else { continue };
            let was = client.counted;
            client.counted = counted(&stats);
            sample.bytes_in += stats.bytes_in_total.saturating_sub(was.bytes_in);
            sample.bytes_out += stats.bytes_out_total.saturating_sub(was.bytes_out);
            let l = stats.limited;
            limited.chat += l.chat.saturating_sub(was.limited.chat);
            limited.command += l.command.saturating_sub(was.limited.command);
            limited.userinfo += l.userinfo.saturating_sub(was.limited.userinfo);
            limited.map_loaded += l.map_loaded.saturating_sub(was.limited.map_loaded);
            limited.map_request += l.map_request.saturating_sub(was.limited.map_request);
            limited.datagrams += l.datagrams.saturating_sub(was.limited.datagrams);
            malformed += stats.malformed.saturating_sub(was.malformed);
            snapshot_cap += stats.snapshots_rate_limited.saturating_sub(was.snapshot_cap);
            if let Some(ping) = stats.ping {
                sample.rtts.push(ping.as_secs_f64());
            }
        }
        let a = self.transport.admission_stats();
        let v = self.transport.service_stats();
        let was = self.endpoint_counted;
        self.endpoint_counted = EndpointCounted { refused_full: a.refused_full, refused_per_ip: a.refused_per_ip, evicted: a.evicted, lockouts: self.lockout.refused, services: v };
        let w = was.services;
        sample.dropped = vec![
            ("client", "rate_limit_chat", limited.chat),
            ("client", "rate_limit_command", limited.command),
            ("client", "rate_limit_userinfo", limited.userinfo),
            ("client", "rate_limit_map_loaded", limited.map_loaded),
            ("client", "rate_limit_map_request", limited.map_request),
            ("client", "rate_limit_datagram", limited.datagrams),
            ("client", "malformed", malformed),
            ("client", "snapshot_rate_cap", snapshot_cap),
            ("handshake", "server_full", a.refused_full.saturating_sub(was.refused_full)),
            ("handshake", "per_address_limit", a.refused_per_ip.saturating_sub(was.refused_per_ip)),
            ("handshake", "password_lockout", self.lockout.refused.saturating_sub(was.lockouts)),
            ("handshake", "closed_not_joined", a.evicted.saturating_sub(was.evicted)),
            ("query", "rate_limited", v.queries_limited.saturating_sub(w.queries_limited)),
            ("admin", "wrong_key", v.admin_failures.saturating_sub(w.admin_failures)),
            ("admin", "locked_out", v.admin_locked_out.saturating_sub(w.admin_locked_out)),
            ("admin", "busy", v.admin_busy.saturating_sub(w.admin_busy)),
        ];
        sample
    }
}

fn counted(stats: &ConnStats) -> Counted {
    Counted {
        bytes_in: stats.bytes_in_total,
        bytes_out: stats.bytes_out_total,
        limited: stats.limited,
        malformed: stats.malformed,
        snapshot_cap: stats.snapshots_rate_limited,
    }
}
