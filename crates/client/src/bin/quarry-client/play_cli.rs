//! `quarry-client play`: the first-person window.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use quarry_client::join::KnownServers;
use quarry_client::play::{BrowserOptions, PlayOptions, default_config_path};
use quarry_client::{ClientOptions, Trust, resolve};

use super::{JoinArgs, parse_seconds, trust_for};

/// Shown by `quarry-client play --help`.
const PLAY_HELP: &str = "\
Keys (rebind with `bind KEY COMMAND` in the console): WASD move, space jump, c/ctrl crouch,
shift walk, mouse1 fire, 1-8 and the wheel pick weapons, g drop the flag, tab scores, t chat,
y team chat, ~ console, f1 \"follow me\", f2 \"drop it\", f3 net graph, f11 fullscreen, f12 screenshot,
escape frees the mouse (click to take it again). Settings (sensitivity, fov, name, cl_interp) and
bindings are saved to client.cfg in the user's config folder.

Without a server (and without --demo), play opens the server list: the masters (--master) are asked
for Quarry servers and each is shown with its name, map, game type, humans+bots/slots and ping.
Up/Down pick, Enter or a double click joins, F5 asks again, S sorts, E hides empty servers, A types or
pastes a join address, Esc quits; `disconnect` in a game comes back to the list. The list's commands
(console and scripts): refresh, sort [ping|name|players|map], hide_empty [on|off], select N|TEXT,
join, connect ADDRESS, screenshot NAME.png, quit.

Scripts (--script FILE): `SECONDS COMMAND` per line (the clock stops while a server is joined); commands are what a key runs (+forward,
-forward, weapon 5, +attack, +scores, say hi) plus `turn YAW [PITCH]`, `aim [on|off]`, `hunt [on|off]`,
`screenshot NAME.png` (into --screenshots) and `quit`.

Demos (--demo FILE, a .qdemo recording): the match is played again from the followed player's eyes.
p pauses, [ and ] halve and double the speed, the arrows seek 10 seconds back and forth, home goes to
the start, mouse1 and mouse2 watch the next and previous player, f flies free (WASD, space, crouch).
Console and script commands: demo_pause, demo_speed X, demo_seek SECONDS (or +S, -S),
follow NAME|next|prev|free.

Exit codes: 0 when the player quits or the server ends the game cleanly; 1 when the connection is
refused or fails, the map is missing, or the window cannot open; 2 for bad arguments or a bad script.";

#[derive(Debug, Args)]
#[command(after_long_help = PLAY_HELP)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    join: JoinArgs,
    /// Do not add a server joined by fingerprint to the known servers file (by default it is
    /// remembered: trust on first use, and a changed fingerprint is refused later).
    #[arg(long)]
    no_remember: bool,
    /// Player name (default: the `name` setting, "player").
    #[arg(long)]
    name: Option<String>,
    /// Server password.
    #[arg(long)]
    password: Option<String>,
    /// Folders to look for the server's map in (NAME.map, or one folder down). Repeatable.
    #[arg(long, value_name = "DIR", default_value = "maps")]
    maps: Vec<PathBuf>,
    /// Play a script of timed command lines instead of the keyboard and mouse.
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// Where screenshots are written.
    #[arg(long, value_name = "DIR", default_value = ".")]
    screenshots: PathBuf,
    /// Window width.
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(320..=7680))]
    width: u32,
    /// Window height.
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(200..=4320))]
    height: u32,
    /// Start fullscreen.
    #[arg(long)]
    fullscreen: bool,
    /// The settings file (default: client.cfg in the user's config folder).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Neither read nor write a settings file.
    #[arg(long, conflicts_with = "config")]
    no_config: bool,
    /// Write each frame's time in ms, one per line, here when the game ends.
    #[arg(long, value_name = "FILE")]
    frame_times: Option<PathBuf>,
    /// Most frames per second.
    #[arg(long, default_value_t = 250.0)]
    max_fps: f32,
    /// Leave after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    duration: Option<Duration>,
    /// Print the network figures once a second, and the prediction and frame figures at the end.
    #[arg(long)]
    stats: bool,
    /// Play this recording (.qdemo) instead of joining a server.
    #[arg(long, value_name = "FILE", conflicts_with = "target")]
    demo: Option<PathBuf>,
    /// In a demo, watch this player first (default: the first in the game).
    #[arg(long, value_name = "NAME", requires = "demo")]
    follow: Option<String>,
    /// Give up joining after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = parse_seconds)]
    connect_timeout: Duration,
    /// Without a server: the master servers the server list asks, HOST or HOST:PORT (port 27950
    /// if none). Repeatable.
    #[arg(long = "master", value_name = "HOST[:PORT]", default_value = "dpmaster.deathmask.net", conflicts_with_all = ["target", "demo"])]
    masters: Vec<String>,
    /// Seconds the server list waits for each master and each batch of servers.
    #[arg(long, value_name = "SECONDS", default_value = "1.5", value_parser = parse_seconds)]
    list_timeout: Duration,
}

/// Runs `play`; returns the exit code.
pub(crate) fn run(args: &PlayArgs) -> ExitCode {
    // A demo runs the server's replay, whose notes on the recording (cvars
    // a replay does not take, tables left at their defaults) are for
    // operators, not for someone watching.
    let default = if args.demo.is_some() { "warn,quarry_server=error" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    // Without a server the window opens the server list.
    let browse = args.demo.is_none() && args.join.target.is_none();
    if browse && args.join.fingerprint.is_some() {
        eprintln!("quarry-client: --fingerprint pins the server given with it: give the server too (the server list pins each server by the fingerprint it lists)");
        return ExitCode::from(2);
    }
    if browse && args.join.insecure {
        eprintln!("quarry-client: WARNING: --insecure accepts any server certificate; anyone on the path can impersonate the server (development only)");
    }
    let join = match &args.demo {
        // A demo joins nobody; the server list picks whom to join later.
        Some(_) => None,
        None if browse => None,
        None => match trust_for(&args.join, !args.no_remember) {
            Ok(join) => Some(join),
            Err(refusal) => {
                eprintln!("quarry-client: {}", refusal.message);
                return ExitCode::from(refusal.code);
            }
        },
    };
    let addr = match join.as_ref().map(|j| resolve(&j.server)).transpose() {
        Ok(a) => a.unwrap_or_else(|| std::net::SocketAddr::from(([127, 0, 0, 1], 0))),
        Err(e) => {
            eprintln!("quarry-client: {e}");
            return ExitCode::from(1);
        }
    };
    let trust = join.as_ref().map_or(Trust::InsecureDevelopment, |j| j.trust);
    let mut client = ClientOptions { trust, ..ClientOptions::insecure(addr, args.name.clone().unwrap_or_default()) }
        .connect_timeout(args.connect_timeout);
    client.password = args.password.clone();
    let options = PlayOptions {
        client,
        maps: args.maps.clone(),
        script: args.script.clone(),
        screenshots: args.screenshots.clone(),
        width: args.width,
        height: args.height,
        fullscreen: args.fullscreen,
        config: if args.no_config { None } else { args.config.clone().or_else(default_config_path) },
        frame_times: args.frame_times.clone(),
        max_fps: args.max_fps,
        quit_after: args.duration,
        stats: args.stats,
        demo: args.demo.clone(),
        follow: args.follow.clone(),
        browser: browse.then(|| BrowserOptions {
            masters: args.masters.clone(),
            timeout: args.list_timeout,
            known_servers: args.join.known_servers.clone().or_else(KnownServers::default_path),
            insecure: args.join.insecure,
            remember: !args.no_remember,
        }),
    };
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        eprintln!("quarry-client: play needs a display (DISPLAY is not set); under CI run it inside xvfb-run");
        return ExitCode::from(1);
    }
    let report = match quarry_client::play::run(options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("quarry-client: {e}");
            return ExitCode::from(if matches!(e, quarry_client::play::PlayError::Script(_)) { 2 } else { 1 });
        }
    };
    if let Some(plan) = join {
        let server = plan.server.clone();
        match plan.remember_now() {
            Ok(Some(path)) => println!("remembered {server} in {}", path.display()),
            Ok(None) => {}
            Err(e) => eprintln!("quarry-client: warning: {e}"),
        }
    }
    if args.stats {
        let (n, p50, p99, max) = report.misses;
        println!("prediction: {n} misses measured, p50 {p50:.3} p99 {p99:.3} max {max:.3} units; {} commands through a teleporter or off a jump pad", report.triggers);
        println!("frames: {} drawn, p50 {:.2} ms p99 {:.2} ms", report.frames, report.frame_ms.0, report.frame_ms.1);
        println!("travelled: {:.0} units", report.travelled);
        let e = report.events;
        println!("events: {} sounds, {} shots, {} hits, {} hurts", e.sounds, e.shots, e.hits, e.hurts);
        println!("sounds: {} started", report.sounds);
        match report.origins {
            Some((predicted, server)) => println!("origin: predicted {predicted:?} server {server:?}"),
            // Nothing is predicted for a dead player or a spectator.
            None => println!("origin: not predicted at the end (dead or watching)"),
        }
    }
    match report.ended {
        Some(reason) => {
            println!("disconnected: {reason}");
            ExitCode::SUCCESS
        }
        None => ExitCode::SUCCESS,
    }
}
