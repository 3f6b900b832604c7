//! A load generator: many players in one process, on one shared network
//! runtime, each playing seeded random input at a command rate, with an
//! optional datagram loss on every link. Used by `scripts/soak.sh` (through
//! the `quarry-loadgen` binary) and by load tests.
//!
//! One process for all clients matters on a small machine: a process per
//! client costs a runtime and a scheduler each and starves the server of CPU.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use quarry_net::transport::LossHook;

use crate::{Client, ClientOptions, Driver, Progress, RandomInput, Trust};

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// The server.
    pub server: SocketAddr,
    /// How to trust its certificate.
    pub trust: Trust,
    /// The server password, if any.
    pub password: Option<String>,
    /// Players.
    pub clients: usize,
    /// How long to play.
    pub duration: Duration,
    /// Commands per second per player.
    pub rate_hz: f64,
    /// Share of datagrams dropped on each link, each way (0 = none).
    pub loss: f64,
    /// Seeds the players' input and the loss.
    pub seed: u64,
    /// Players bound to one local address: the rest go to the next
    /// 127.0.0.x, so per-address connection limits are met as from real
    /// hosts (loopback targets only; 0 = all on the wildcard).
    pub clients_per_address: usize,
    /// Network runtime threads shared by all players.
    pub threads: usize,
}

/// One second of the run, for the time series.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadSecond {
    /// Seconds since the start.
    pub second: u32,
    /// Players in the game.
    pub playing: usize,
    /// Lowest snapshots per second of a player in the game.
    pub min_snapshots_per_s: u32,
    /// Mean snapshots per second over players in the game.
    pub mean_snapshots_per_s: f64,
    /// Commands sent so far, all players.
    pub cmds_sent: u64,
}

/// What the run measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadReport {
    /// One entry a second.
    pub seconds: Vec<LoadSecond>,
    /// Players that joined.
    pub joined: usize,
    /// Players that never joined.
    pub never_joined: usize,
    /// Players the server disconnected before the end, with the reason.
    pub dropped: Vec<(usize, String)>,
    /// Commands sent, all players.
    pub cmds_sent: u64,
    /// Snapshots decoded, all players.
    pub snapshots: u64,
    /// CPU seconds this process used (user + system), if known.
    pub cpu_seconds: Option<f64>,
    /// Wall seconds.
    pub wall_seconds: f64,
}

/// Why a load run could not start.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The shared runtime did not start.
    #[error("starting the network runtime: {0}")]
    Runtime(std::io::Error),
    /// A player could not start connecting.
    #[error("player {index}: {source}")]
    Connect {
        /// Which player.
        index: usize,
        /// Why.
        source: crate::ConnectError,
    },
}

/// The local address of player `index`.
fn local_address(options: &LoadOptions, index: usize) -> Option<SocketAddr> {
    if options.clients_per_address == 0 || !options.server.ip().is_loopback() || options.server.is_ipv6() {
        return None;
    }
    let host = 10 + index / options.clients_per_address;
    let host = u8::try_from(host.min(250)).unwrap_or(250);
    Some(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, host)), 0))
}

/// Runs the load; `each_second` sees every second's figures as they come.
pub fn run_load(options: &LoadOptions, mut each_second: impl FnMut(&LoadSecond)) -> Result<LoadReport, LoadError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(options.threads.max(1))
        .thread_name("quarry-loadgen")
        .enable_all()
        .build()
        .map_err(LoadError::Runtime)?;
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    let mut drivers = Vec::with_capacity(options.clients);
    for index in 0..options.clients {
        let mut o = ClientOptions { trust: options.trust, ..ClientOptions::insecure(options.server, format!("load{index:02}")) }
            .connect_timeout(Duration::from_secs(20));
        o.password = options.password.clone();
        o.net.runtime = Some(runtime.handle().clone());
        o.net.local = local_address(options, index);
        if options.loss > 0.0 {
            o.settings.loss = Some(LossHook { rate: options.loss, seed: options.seed.wrapping_mul(1000).wrapping_add(index as u64) });
        }
        let client = Client::connect(o).map_err(|source| LoadError::Connect { index, source })?;
        let seed = options.seed.wrapping_mul(7919).wrapping_add(index as u64);
        drivers.push(Driver::new(client, Box::new(RandomInput::new(seed)), options.rate_hz));
    }
    let mut report = LoadReport::default();
    let mut joined = vec![false; drivers.len()];
    let mut over: Vec<Option<String>> = vec![None; drivers.len()];
    let mut snapshots_at_second: Vec<u64> = vec![0; drivers.len()];
    let mut next_second = start + Duration::from_secs(1);
    let end = start + options.duration;
    while Instant::now() < end {
        let now = Instant::now();
        for (i, d) in drivers.iter_mut().enumerate() {
            if over[i].is_some() {
                continue;
            }
            match d.tick(now) {
                Ok(Progress::Playing) => joined[i] = true,
                Ok(Progress::Over(reason)) => over[i] = Some(reason.to_string()),
                Ok(Progress::Finished) => over[i] = Some("finished".into()),
                Ok(Progress::Connecting) => {}
                Err(e) => over[i] = Some(e.to_string()),
            }
        }
        if now >= next_second {
            let mut rates = Vec::new();
            let mut cmds_sent = 0;
            for (i, d) in drivers.iter().enumerate() {
                cmds_sent += d.client().stats().cmds_sent;
                let total = d.client().stats().snapshots_total;
                if joined[i] && over[i].is_none() {
                    rates.push(u32::try_from(total.saturating_sub(snapshots_at_second[i])).unwrap_or(u32::MAX));
                }
                snapshots_at_second[i] = total;
            }
            let second = LoadSecond {
                second: u32::try_from(now.duration_since(start).as_secs()).unwrap_or(u32::MAX),
                playing: rates.len(),
                min_snapshots_per_s: rates.iter().copied().min().unwrap_or(0),
                mean_snapshots_per_s: if rates.is_empty() { 0.0 } else { f64::from(rates.iter().sum::<u32>()) / rates.len() as f64 },
                cmds_sent,
            };
            each_second(&second);
            report.seconds.push(second);
            next_second += Duration::from_secs(1);
        }
        let wake = drivers.iter().filter_map(Driver::next_due).min().unwrap_or(now + Duration::from_millis(5));
        std::thread::sleep(wake.saturating_duration_since(Instant::now()).clamp(Duration::from_micros(500), Duration::from_millis(5)));
    }
    for (i, d) in drivers.iter().enumerate() {
        let stats = d.client().stats();
        report.cmds_sent += stats.cmds_sent;
        report.snapshots += stats.snapshots_total;
        if let Some(reason) = &over[i]
            && joined[i]
        {
            report.dropped.push((i, reason.clone()));
        }
    }
    report.joined = joined.iter().filter(|&&j| j).count();
    report.never_joined = joined.len() - report.joined;
    // Leave cleanly so the server frees every slot at once.
    for d in &mut drivers {
        d.client_mut().disconnect();
    }
    let settle = Instant::now() + Duration::from_millis(500);
    while Instant::now() < settle {
        for d in &mut drivers {
            d.client_mut().pump();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(drivers);
    report.wall_seconds = start.elapsed().as_secs_f64();
    report.cpu_seconds = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    Ok(report)
}

/// CPU seconds (user + system) this process has used, from `/proc/self/stat`.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start past ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_spread_over_loopback_addresses() {
        let options = LoadOptions {
            server: "127.0.0.1:27960".parse().expect("addr"),
            trust: Trust::InsecureDevelopment,
            password: None,
            clients: 64,
            duration: Duration::from_secs(1),
            rate_hz: 60.0,
            loss: 0.0,
            seed: 1,
            clients_per_address: 8,
            threads: 1,
        };
        let hosts: std::collections::BTreeSet<_> = (0..64).filter_map(|i| local_address(&options, i)).map(|a| a.ip()).collect();
        assert_eq!(hosts.len(), 8);
        let remote = LoadOptions { server: "192.0.2.1:27960".parse().expect("addr"), ..options };
        assert_eq!(local_address(&remote, 3), None, "only a loopback target gets spread");
    }

    #[test]
    fn cpu_time_is_read() {
        let Some(t) = cpu_seconds() else { return };
        assert!(t >= 0.0);
    }
}
