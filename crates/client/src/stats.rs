//! Network statistics: the transport's per-second figures, plus averages
//! over the whole session for `--stats`.

use std::time::{Duration, Instant};

use quarry_net::conn::ConnStats;

/// A snapshot of the connection's figures, as [`crate::Client::stats`] returns it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClientStats {
    /// Payload bytes received in the last whole second.
    pub bytes_in_per_s: u64,
    /// Payload bytes sent in the last whole second.
    pub bytes_out_per_s: u64,
    /// Snapshots decoded in the last whole second.
    pub snapshots_per_s: u32,
    /// Share of the server's datagrams that never arrived (0..1).
    pub loss_in: f32,
    /// Share of our QUIC packets QUIC declared lost (0..1).
    pub path_loss: f32,
    /// Round-trip time as QUIC measures it.
    pub ping: Option<Duration>,
    /// Snapshots applied since connecting.
    pub snapshots_total: u64,
    /// Full (non-delta) snapshots received.
    pub full_snapshots: u64,
    /// Snapshots dropped because their delta base was unknown.
    pub snapshots_undecodable: u64,
    /// Malformed datagrams or frames received.
    pub malformed: u64,
    /// Commands sent since connecting.
    pub cmds_sent: u64,
    /// Bytes received per second on the wire as QUIC counts them (whole
    /// UDP payloads: QUIC headers, ACKs and retransmissions included; IP and
    /// UDP headers not), over about the last second.
    pub wire_in_per_s: u64,
    /// Bytes sent per second on the wire, counted the same way.
    pub wire_out_per_s: u64,
}

impl ClientStats {
    pub(crate) fn from_conn(c: &ConnStats, snapshots_total: u64, cmds_sent: u64) -> Self {
        Self {
            bytes_in_per_s: c.bytes_in_per_s,
            bytes_out_per_s: c.bytes_out_per_s,
            snapshots_per_s: c.snapshots_per_s,
            loss_in: c.loss_in,
            path_loss: c.path_loss,
            ping: c.ping,
            snapshots_total,
            full_snapshots: c.full_snapshots,
            snapshots_undecodable: c.snapshots_undecodable,
            malformed: c.malformed,
            cmds_sent,
            wire_in_per_s: c.wire.bytes_in_per_s,
            wire_out_per_s: c.wire.bytes_out_per_s,
        }
    }
}

impl std::fmt::Display for ClientStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "in {} B/s, out {} B/s (wire {} / {}), {} snapshots/s, loss {:.1}% (path {:.1}%), ping {}",
            self.bytes_in_per_s,
            self.bytes_out_per_s,
            self.wire_in_per_s,
            self.wire_out_per_s,
            self.snapshots_per_s,
            self.loss_in * 100.0,
            self.path_loss * 100.0,
            fmt_ping(self.ping),
        )
    }
}

fn fmt_ping(p: Option<Duration>) -> String {
    p.map_or_else(
        || "?".into(),
        |p| format!("{:.1} ms", p.as_secs_f64() * 1000.0),
    )
}

/// Averages of the per-second figures over the session, sampled once a
/// second while connected (the first, partial second is left out).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionStats {
    /// How long the session ran, from the first sample to the last.
    pub elapsed: Duration,
    /// Whole seconds averaged (the first, partial window is left out; with
    /// none yet, the figures are the transport's last ones).
    pub seconds: u32,
    /// Mean bytes received per second.
    pub bytes_in_per_s: f64,
    /// Mean bytes sent per second.
    pub bytes_out_per_s: f64,
    /// Mean bytes received per second on the wire (see [`ClientStats::wire_in_per_s`]).
    pub wire_in_per_s: f64,
    /// Mean bytes sent per second on the wire.
    pub wire_out_per_s: f64,
    /// Mean snapshots per second.
    pub snapshots_per_s: f64,
    /// Mean inbound datagram loss (0..1).
    pub loss_in: f64,
    /// Mean ping.
    pub ping: Option<Duration>,
    /// The last figures.
    pub last: ClientStats,
}

impl std::fmt::Display for SessionStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "over {:.1} s{}: in {:.0} B/s, out {:.0} B/s (wire {:.0} / {:.0}), {:.1} snapshots/s, loss {:.1}%, ping {}; {} snapshots ({} full, {} undecodable), {} commands sent",
            self.elapsed.as_secs_f64(),
            if self.seconds == 0 { " (too short to average: the last figures)".to_owned() } else { format!(" ({} s averaged)", self.seconds) },
            self.bytes_in_per_s,
            self.bytes_out_per_s,
            self.wire_in_per_s,
            self.wire_out_per_s,
            self.snapshots_per_s,
            self.loss_in * 100.0,
            fmt_ping(self.ping),
            self.last.snapshots_total,
            self.last.full_snapshots,
            self.last.snapshots_undecodable,
            self.last.cmds_sent,
        )
    }
}

/// Samples [`ClientStats`] once a second and sums them.
#[derive(Debug, Clone, Default)]
pub(crate) struct StatsAverager {
    next: Option<Instant>,
    first: Option<Instant>,
    latest: Option<Instant>,
    seconds: u32,
    bytes_in: f64,
    bytes_out: f64,
    wire_in: f64,
    wire_out: f64,
    snapshots: f64,
    loss: f64,
    ping: Duration,
    pings: u32,
    last: ClientStats,
}

impl StatsAverager {
    /// Takes a sample if a second has passed since the last one; the first
    /// call only starts the clock (its window is partial).
    pub(crate) fn sample(&mut self, now: Instant, s: &ClientStats) {
        self.last = s.clone();
        self.first.get_or_insert(now);
        self.latest = Some(now);
        let Some(next) = self.next else {
            // Skip the first, partial window of the transport's meter.
            self.next = Some(now + Duration::from_secs(2));
            return;
        };
        if now < next {
            return;
        }
        self.next = Some(now + Duration::from_secs(1));
        self.seconds += 1;
        self.bytes_in += s.bytes_in_per_s as f64;
        self.bytes_out += s.bytes_out_per_s as f64;
        self.wire_in += s.wire_in_per_s as f64;
        self.wire_out += s.wire_out_per_s as f64;
        self.snapshots += f64::from(s.snapshots_per_s);
        self.loss += f64::from(s.loss_in);
        if let Some(p) = s.ping {
            self.ping += p;
            self.pings += 1;
        }
    }

    pub(crate) fn session(&self) -> SessionStats {
        let n = f64::from(self.seconds.max(1));
        let mean = |v: f64| if self.seconds == 0 { 0.0 } else { v / n };
        SessionStats {
            elapsed: match (self.first, self.latest) {
                (Some(a), Some(b)) => b.saturating_duration_since(a),
                _ => Duration::ZERO,
            },
            seconds: self.seconds,
            bytes_in_per_s: if self.seconds == 0 {
                self.last.bytes_in_per_s as f64
            } else {
                mean(self.bytes_in)
            },
            bytes_out_per_s: if self.seconds == 0 {
                self.last.bytes_out_per_s as f64
            } else {
                mean(self.bytes_out)
            },
            wire_in_per_s: if self.seconds == 0 {
                self.last.wire_in_per_s as f64
            } else {
                mean(self.wire_in)
            },
            wire_out_per_s: if self.seconds == 0 {
                self.last.wire_out_per_s as f64
            } else {
                mean(self.wire_out)
            },
            snapshots_per_s: if self.seconds == 0 {
                f64::from(self.last.snapshots_per_s)
            } else {
                mean(self.snapshots)
            },
            loss_in: if self.seconds == 0 {
                f64::from(self.last.loss_in)
            } else {
                mean(self.loss)
            },
            ping: if self.pings == 0 {
                self.last.ping
            } else {
                Some(self.ping / self.pings)
            },
            last: self.last.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_whole_seconds_after_the_first() {
        let t0 = Instant::now();
        let mut a = StatsAverager::default();
        let s = |b: u64| ClientStats {
            bytes_in_per_s: b,
            bytes_out_per_s: b / 10,
            wire_in_per_s: b + 100,
            snapshots_per_s: 30,
            ping: Some(Duration::from_millis(2)),
            ..ClientStats::default()
        };
        a.sample(t0, &s(999_999));
        a.sample(t0 + Duration::from_millis(1500), &s(999_999));
        // Before any whole sample, the session shows the last figures, and says so.
        assert_eq!(a.session().bytes_in_per_s, 999_999.0);
        let early = a.session().to_string();
        assert!(early.starts_with("over 1.5 s (too short to average: the last figures)"), "{early}");
        a.sample(t0 + Duration::from_millis(2000), &s(1000));
        a.sample(t0 + Duration::from_millis(2500), &s(5)); // too soon: not counted
        a.sample(t0 + Duration::from_millis(3000), &s(3000));
        let ses = a.session();
        assert_eq!(ses.seconds, 2);
        assert_eq!(ses.bytes_in_per_s, 2000.0);
        assert_eq!(ses.bytes_out_per_s, 200.0);
        assert_eq!(ses.wire_in_per_s, 2100.0);
        assert_eq!(ses.snapshots_per_s, 30.0);
        assert_eq!(ses.ping, Some(Duration::from_millis(2)));
        assert!(ses.to_string().contains("in 2000 B/s, out 200 B/s (wire 2100 / 0)"), "{ses}");
        assert!(ses.to_string().starts_with("over 3.0 s (2 s averaged)"), "{ses}");
    }
}
