//! `quarry-loadgen`: many players in one process against one server, for
//! soak and load tests (see `quarry_client::load`). Prints one line a second
//! and a JSON summary line at the end; exit 0 unless it could not start.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use quarry_client::load::{LoadOptions, run_load};
use quarry_client::{Fingerprint, Trust, resolve};

#[derive(Debug, Parser)]
#[command(name = "quarry-loadgen", version, about = "Many Quarry players in one process, for soak and load tests")]
struct Args {
    /// The server, as HOST:PORT.
    target: String,
    /// Pin the server's certificate (SHA-256 fingerprint, as the server prints it).
    #[arg(long, conflicts_with = "insecure")]
    fingerprint: Option<String>,
    /// Accept any certificate (development only).
    #[arg(long)]
    insecure: bool,
    /// The server password.
    #[arg(long)]
    password: Option<String>,
    /// Players.
    #[arg(long, default_value = "64")]
    clients: usize,
    /// Seconds to play.
    #[arg(long, default_value = "60")]
    seconds: f64,
    /// Commands per second per player.
    #[arg(long, default_value = "60")]
    rate: f64,
    /// Share of datagrams dropped on each link, each way (0..1).
    #[arg(long, default_value = "0")]
    loss: f64,
    /// Seed of the players' input and of the loss.
    #[arg(long, default_value = "1")]
    seed: u64,
    /// Players per local 127.0.0.x address (0 = all on one).
    #[arg(long, default_value = "8")]
    per_address: usize,
    /// Network runtime threads.
    #[arg(long, default_value = "1")]
    threads: usize,
}

fn out(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn main() -> ExitCode {
    let args = Args::parse();
    let server = match resolve(&args.target) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("quarry-loadgen: {e}");
            return ExitCode::from(2);
        }
    };
    let trust = match (&args.fingerprint, args.insecure) {
        (Some(f), _) => match f.parse::<Fingerprint>() {
            Ok(fp) => Trust::Pinned(fp),
            Err(e) => {
                eprintln!("quarry-loadgen: --fingerprint: {e}");
                return ExitCode::from(2);
            }
        },
        (None, true) => Trust::InsecureDevelopment,
        (None, false) => {
            eprintln!("quarry-loadgen: give --fingerprint or --insecure");
            return ExitCode::from(2);
        }
    };
    let Some(duration) = Duration::try_from_secs_f64(args.seconds).ok() else {
        eprintln!("quarry-loadgen: --seconds must be a positive number");
        return ExitCode::from(2);
    };
    if !(0.0..1.0).contains(&args.loss) || !(1.0..=1000.0).contains(&args.rate) {
        eprintln!("quarry-loadgen: --loss must be in 0..1 and --rate in 1..=1000");
        return ExitCode::from(2);
    }
    let options = LoadOptions {
        server,
        trust,
        password: args.password,
        clients: args.clients.clamp(1, 1024),
        duration,
        rate_hz: args.rate,
        loss: args.loss,
        seed: args.seed,
        clients_per_address: args.per_address,
        threads: args.threads.clamp(1, 16),
    };
    let report = match run_load(&options, |s| {
        out(&format!(
            "second {:>4}: {:>3} playing, snapshots/s min {:>3} mean {:>5.1}, {} commands sent",
            s.second, s.playing, s.min_snapshots_per_s, s.mean_snapshots_per_s, s.cmds_sent
        ));
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("quarry-loadgen: {e}");
            return ExitCode::from(1);
        }
    };
    let steady: Vec<_> = report.seconds.iter().skip(5).collect();
    let min_rate = steady.iter().map(|s| s.min_snapshots_per_s).min().unwrap_or(0);
    let mean_rate = if steady.is_empty() { 0.0 } else { steady.iter().map(|s| s.mean_snapshots_per_s).sum::<f64>() / steady.len() as f64 };
    let cpu = report.cpu_seconds.unwrap_or(f64::NAN);
    out(&format!(
        "{{\"joined\":{},\"never_joined\":{},\"dropped\":{},\"cmds_sent\":{},\"snapshots\":{},\"min_snapshots_per_s\":{},\"mean_snapshots_per_s\":{:.2},\"cpu_seconds\":{:.2},\"wall_seconds\":{:.2},\"cpu_percent\":{:.1}}}",
        report.joined,
        report.never_joined,
        report.dropped.len(),
        report.cmds_sent,
        report.snapshots,
        min_rate,
        mean_rate,
        cpu,
        report.wall_seconds,
        100.0 * cpu / report.wall_seconds.max(1e-9),
    ));
    for (i, reason) in &report.dropped {
        eprintln!("quarry-loadgen: player {i} dropped: {reason}");
    }
    ExitCode::SUCCESS
}
