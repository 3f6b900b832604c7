//! `quarry-client`: join a Quarry server, play from a script, at random or
//! not at all, and print what the server sends.
//!
//! Exit codes: 0 after `--duration`, a `quit` step, Ctrl-C or a clean
//! server disconnect (shutdown); 1 when the connection is refused or fails
//! (the reason is printed), or the server kicks or loses us; 2 for bad
//! arguments or a bad script.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{ArgGroup, Args, Parser, Subcommand};
use quarry_client::join::{JoinAddress, KnownServers, TrustPlan, TrustRefusal, plan_trust};
use quarry_client::report::{disconnect_line, notice_lines, view_lines};
use quarry_client::{
    Client, ClientOptions, ConnectError, DisconnectReason, Driver, Fingerprint, IdleInput, Input,
    Notice, Progress, RandomInput, ScriptInput, Status, Trust, resolve,
};

mod play_cli;

#[derive(Debug, Parser)]
#[command(
    name = "quarry-client",
    version,
    about = "Quarry reference client: join a server, send input, print what it sees"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Join a server and play.
    Connect(ConnectArgs),
    /// Ask a server who is playing what, without taking a slot.
    Query(QueryArgs),
    /// List the servers the masters know (a server browser).
    List(ListArgs),
    /// Administer a server remotely: one command, or an interactive console.
    Rcon(RconArgs),
    /// Open a window and play in first person (keyboard and mouse).
    Play(play_cli::PlayArgs),
}

/// How to trust the server, for `query` and `rcon`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("trust").required(true).args(["fingerprint", "insecure"])))]
struct TrustArgs {
    /// The server certificate's SHA-256 fingerprint, as the server prints it (AB:CD:…).
    #[arg(long, value_parser = parse_fingerprint)]
    fingerprint: Option<Fingerprint>,
    /// Accept any server certificate (development only: not safe on a real network).
    #[arg(long)]
    insecure: bool,
}

impl TrustArgs {
    fn trust(&self) -> Trust {
        match self.fingerprint {
            Some(fp) => Trust::Pinned(fp),
            None => {
                eprintln!("quarry-client: WARNING: --insecure accepts any server certificate (development only)");
                Trust::InsecureDevelopment
            }
        }
    }
}

#[derive(Debug, Args)]
struct QueryArgs {
    /// The server, as HOST or HOST:PORT.
    target: String,
    #[command(flatten)]
    trust: TrustArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct ListArgs {
    /// A master server, HOST or HOST:PORT (port 27950 if none); repeat for more.
    #[arg(long = "master", value_name = "HOST[:PORT]", default_value = "dpmaster.deathmask.net")]
    masters: Vec<String>,
    /// Seconds to wait for each master and each batch of servers.
    #[arg(long, value_name = "SECONDS", default_value = "1.5", value_parser = parse_seconds)]
    timeout: Duration,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct RconArgs {
    /// The server, as HOST or HOST:PORT.
    target: String,
    #[command(flatten)]
    trust: TrustArgs,
    /// The admin key file (made by quarry-server new-admin NAME).
    #[arg(long, value_name = "FILE")]
    key: PathBuf,
    /// A command to run (the rest of the line); none opens an interactive console.
    command: Vec<String>,
}

/// Shown by `quarry-client connect --help`.
const SCRIPT_HELP: &str = "\
Script files: one step per line, `TIME WORDS...`, times in seconds since joining, never decreasing;
`#` starts a comment. Words: forward=N right=N up=N (-127..=127), yaw=DEG pitch=DEG turn=DEG_PER_S,
weapon=N, buttons=jump,attack|none, attack/+attack and -attack (also jump crouch walk use), stop,
say TEXT, say_team TEXT, cmd TEXT (the rest of the line), quit. Example:
    0.0 forward=127 yaw=90 buttons=jump
    1.5 say hello
    2.0 weapon=5 attack
    4.0 quit

Exit codes: 0 after --duration, a quit step, Ctrl-C or a server shutdown; 1 when the connection is
refused or fails (the reason is printed) or the server kicks us; 2 for bad arguments or a bad script.";

/// Whom to join and how to trust them, for `connect` and `play`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("trust").args(["fingerprint", "insecure"])))]
pub(crate) struct JoinArgs {
    /// The server: the join address it printed (quarry://HOST:PORT/#FINGERPRINT), or HOST[:PORT]
    /// with --fingerprint, or one joined before (its fingerprint is in the known servers file).
    pub(crate) target: Option<String>,
    /// The known servers file (default: known_servers in the user's config folder).
    #[arg(long, value_name = "FILE")]
    pub(crate) known_servers: Option<PathBuf>,
    /// The server certificate's SHA-256 fingerprint, as the server prints it (AB:CD:…).
    #[arg(long, value_parser = parse_fingerprint)]
    pub(crate) fingerprint: Option<Fingerprint>,
    /// Accept any server certificate (development only: not safe on a real network).
    #[arg(long)]
    pub(crate) insecure: bool,
}

#[derive(Debug, Args)]
#[command(after_long_help = SCRIPT_HELP)]
#[command(group(ArgGroup::new("input").args(["script", "random", "idle"])))]
struct ConnectArgs {
    #[command(flatten)]
    join: JoinArgs,
    /// Once joined with a fingerprint, add the server to the known servers file (trust on first
    /// use), so later joins need only HOST[:PORT].
    #[arg(long, conflicts_with = "insecure")]
    remember: bool,
    /// Player name.
    #[arg(long, default_value = "player")]
    name: String,
    /// Server password.
    #[arg(long)]
    password: Option<String>,
    /// Play a script of timed steps (see the library docs for the format).
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Play at random.
    #[arg(long)]
    random: bool,
    /// Seed for --random.
    #[arg(long, requires = "random", default_value_t = 1)]
    seed: u64,
    /// Send empty commands (the default).
    #[arg(long)]
    idle: bool,
    /// Leave after this many seconds in the game.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    duration: Option<Duration>,
    /// Commands sent per second.
    #[arg(long, value_name = "HZ", default_value_t = 60.0, value_parser = parse_rate)]
    rate: f64,
    /// Print bytes per second in and out, snapshot rate, loss and ping at the end.
    #[arg(long)]
    stats: bool,
    /// Also print the statistics once a second.
    #[arg(short, long)]
    verbose: bool,
    /// How many nearest entities to print each second.
    #[arg(long, value_name = "N", default_value_t = 5)]
    nearest: usize,
    /// Give up joining after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = parse_seconds)]
    connect_timeout: Duration,
}

fn parse_fingerprint(s: &str) -> Result<Fingerprint, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(v)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("`{s}` is not a positive number of seconds"))
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a rate in Hz"))?;
    if v.is_finite() && (1.0..=1000.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("`{s}` is not in 1..=1000 Hz"))
    }
}

/// Prints to stdout, ignoring a closed pipe (`quarry-client … | head`).
fn out(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// `quarry-client query`.
fn run_query(args: &QueryArgs) -> ExitCode {
    let addr = match resolve(&args.target) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("quarry-client: {e}");
            return ExitCode::from(2);
        }
    };
    match quarry_client::services::query(addr, args.trust.trust()) {
        Ok(info) if args.json => {
            out(&quarry_client::services::query_json(&info));
            ExitCode::SUCCESS
        }
        Ok(info) => {
            print!("{}", quarry_client::services::query_text(&info));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("quarry-client: query {addr}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `quarry-client list`: exit 0 when some server answered or no master
/// failed, 1 when every master failed.
fn run_list(args: &ListArgs) -> ExitCode {
    let listing = quarry_client::browse::list(&quarry_client::browse::ListOptions { masters: args.masters.clone(), timeout: args.timeout });
    for e in &listing.errors {
        eprintln!("quarry-client: {e}");
    }
    if args.json {
        out(&quarry_client::browse::listing_json(&listing));
    } else {
        print!("{}", quarry_client::browse::listing_text(&listing));
    }
    if listing.servers.is_empty() && listing.errors.len() == args.masters.len() { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// `quarry-client rcon`.
fn run_rcon(args: &RconArgs) -> ExitCode {
    let addr = match resolve(&args.target) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("quarry-client: {e}");
            return ExitCode::from(2);
        }
    };
    let mut session = match quarry_client::services::sign_in(addr, args.trust.trust(), &args.key) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("quarry-client: rcon {addr}: {e}");
            return ExitCode::from(1);
        }
    };
    if args.command.is_empty() {
        out(&format!("signed in to {addr} as {} ({}); Tab completes, quit or Ctrl-D leaves (the server keeps running)", session.name, session.role));
        return match quarry_client::services::interactive(session, out) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("quarry-client: rcon {addr}: {e}");
                ExitCode::from(1)
            }
        };
    }
    match session.run(&args.command.join(" ")) {
        Ok((lines, ok)) => {
            for l in lines {
                out(&l);
            }
            if ok { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Err(e) => {
            eprintln!("quarry-client: rcon {addr}: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let args = match cli.command {
        Command::Connect(args) => args,
        Command::Query(args) => return run_query(&args),
        Command::List(args) => return run_list(&args),
        Command::Rcon(args) => return run_rcon(&args),
        Command::Play(args) => return play_cli::run(&args),
    };
    let level = if args.verbose { "info" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    match connect(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("quarry-client: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn input_of(args: &ConnectArgs) -> Result<Box<dyn Input>, quarry_client::ScriptError> {
    Ok(match (&args.script, args.random) {
        (Some(path), _) => Box::new(ScriptInput::from_file(path)?),
        (None, true) => Box::new(RandomInput::new(args.seed)),
        (None, false) => Box::new(IdleInput),
    })
}

fn connect(args: &ConnectArgs) -> anyhow::Result<ExitCode> {
    let input = match input_of(args) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("quarry-client: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let join = match trust_for(&args.join, args.remember) {
        Ok(join) => join,
        Err(refusal) => {
            eprintln!("quarry-client: {}", refusal.message);
            return Ok(ExitCode::from(refusal.code));
        }
    };
    let addr = resolve(&join.server)?;
    let trust = join.trust;
    let mut options = ClientOptions {
        trust,
        ..ClientOptions::insecure(addr, args.name.clone())
    }
    .connect_timeout(args.connect_timeout);
    options.password = args.password.clone();
    let client =
        Client::connect(options).with_context(|| format!("cannot start connecting to {addr}"))?;
    out(&format!("connecting to {addr} as {}", args.name));

    let interrupted = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&interrupted))
            .context("installing the signal handler")?;
    }
    let mut driver = Driver::new(client, input, args.rate);
    let code = play(&mut driver, args, &interrupted, addr);
    // Joined with a pinned certificate: the server is known from now on.
    if driver.client().welcome().is_some()
        && let Err(e) = join.remember_now()
    {
        eprintln!("quarry-client: warning: {e}");
    }
    if args.stats && driver.client().welcome().is_some() {
        out(&format!("stats: {}", driver.client().session_stats()));
    }
    Ok(code)
}

/// Why `connect` or `play` will not start, with its exit code.
pub(crate) struct Refusal {
    pub(crate) code: u8,
    pub(crate) message: String,
}

impl Refusal {
    /// Bad or missing arguments (exit 2).
    fn usage(message: String) -> Self {
        Self { code: 2, message }
    }
}

/// The trust for `args`: `--insecure`; else the fingerprint the join
/// address or `--fingerprint` gives, checked against the known servers
/// file (a changed one is refused, naming both); else the one that file
/// remembers. A server with none of these is refused. The file is only
/// read unless `--remember` asks to add a new server to it.
pub(crate) fn trust_for(args: &JoinArgs, remember: bool) -> Result<TrustPlan, Refusal> {
    let target = args.target.as_deref().ok_or_else(|| Refusal::usage("give the server to join: the join address it printed (quarry://HOST:PORT/#FINGERPRINT) or HOST[:PORT]".to_owned()))?;
    let address: JoinAddress = target.parse().map_err(|e: quarry_client::join::BadJoinAddress| Refusal::usage(e.to_string()))?;
    if args.insecure {
        eprintln!("quarry-client: WARNING: --insecure accepts any server certificate; anyone on the path can impersonate the server (development only)");
    }
    let known = args.known_servers.clone().or_else(KnownServers::default_path);
    let plan = plan_trust(&address, args.fingerprint, args.insecure, known, remember).map_err(|e| match e {
        // A changed fingerprint is the server's failure to prove itself (exit 1), not a bad argument.
        TrustRefusal::Changed(e) => Refusal { code: 1, message: e.to_string() },
        e => Refusal::usage(e.to_string()),
    })?;
    for w in &plan.warnings {
        eprintln!("quarry-client: warning: {w}");
    }
    Ok(plan)
}

/// Runs the driver until the end; returns the exit code.
fn play(
    driver: &mut Driver,
    args: &ConnectArgs,
    interrupted: &AtomicBool,
    addr: std::net::SocketAddr,
) -> ExitCode {
    let started = Instant::now();
    let mut joined: Option<Instant> = None;
    let mut next_report: Option<Instant> = None;
    loop {
        let now = Instant::now();
        let progress = match driver.tick(now) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("quarry-client: {e}");
                return ExitCode::from(1);
            }
        };
        for n in driver.client_mut().take_notices() {
            // The end is reported below, with the exit code.
            if !matches!(n, Notice::Disconnected(_)) {
                notice_lines(&n).iter().for_each(|l| out(l));
            }
        }
        match progress {
            Progress::Connecting
                if now.duration_since(started) > args.connect_timeout + Duration::from_secs(1) =>
            {
                eprintln!(
                    "quarry-client: cannot join {addr}: {}",
                    ConnectError::NoAnswer(args.connect_timeout)
                );
                return ExitCode::from(1);
            }
            Progress::Connecting => {}
            Progress::Playing => {
                let at = *joined.get_or_insert(now);
                if args.duration.is_some_and(|d| now.duration_since(at) >= d) {
                    out("duration reached, leaving");
                    return leave(driver);
                }
            }
            Progress::Finished => {
                out("script finished, leaving");
                return leave(driver);
            }
            Progress::Over(reason) if joined.is_none() && driver.client().welcome().is_none() => {
                eprintln!(
                    "quarry-client: cannot join {addr}: {}",
                    ConnectError::from_disconnect(reason, args.connect_timeout)
                );
                return ExitCode::from(1);
            }
            Progress::Over(reason) => {
                let clean = matches!(
                    reason,
                    DisconnectReason::Quit | DisconnectReason::ServerShuttingDown
                );
                if clean {
                    out(&disconnect_line(&reason));
                    return ExitCode::SUCCESS;
                }
                eprintln!("quarry-client: {}", disconnect_line(&reason));
                return ExitCode::from(1);
            }
        }
        if interrupted.load(Ordering::Relaxed) {
            out("interrupted, leaving");
            return leave(driver);
        }
        if driver.client().is_connected() && next_report.is_none_or(|t| now >= t) {
            next_report = Some(now + Duration::from_secs(1));
            view_lines(driver.client(), args.nearest)
                .iter()
                .for_each(|l| out(l));
            if args.verbose {
                out(&format!("  net: {}", driver.client().stats()));
            }
        }
        let until = driver.next_due().map_or(Duration::from_millis(10), |t| {
            t.saturating_duration_since(Instant::now())
        });
        driver
            .client_mut()
            .wait(until.min(Duration::from_millis(50)));
    }
}

/// Leaves cleanly and waits briefly for the goodbye to go out.
fn leave(driver: &mut Driver) -> ExitCode {
    let client = driver.client_mut();
    client.disconnect();
    let end = Instant::now() + Duration::from_millis(300);
    while Instant::now() < end && !matches!(client.status(), Status::Disconnected(_)) {
        client.wait(Duration::from_millis(20));
    }
    ExitCode::SUCCESS
}
