//! The `quarry-server` binary's library: command line, startup order, the
//! fixed-rate tick loop, the stdin console, logging, signals and graceful
//! shutdown. It glues the other crates together and contains no game rules.

pub mod agones;
pub mod archive_writer;
pub mod cards;
pub mod cli;
pub mod clock;
mod commands;
pub mod cvars;
pub mod feature;
pub mod game;
pub mod game_data;
pub mod game_log;
pub mod headless;
pub mod health;
pub mod http;
pub mod logging;
pub mod map_info;
pub mod map_pool;
pub mod match_result;
pub mod metrics;
pub mod modes;
pub mod navmesh;
pub mod recording;
pub mod network;
pub mod secrets;
pub mod server;
pub mod state;
pub mod stdin_console;
#[cfg(test)]
mod test_match;
pub mod tick_stats;
pub mod utc;
pub mod votes;
pub mod web;

use std::process::ExitCode;

use cli::Cli;
use server::{Server, ServerOptions};

/// Runs the binary: the mode the command line asks for (see [`cli::Mode`];
/// none runs the server) and returns its exit code.
pub fn run(mut cli: Cli) -> ExitCode {
    for note in cli.normalize() {
        eprintln!("quarry-server: note: {note}");
    }
    let beside = cli.content_beside_config();
    if let Some(code) = run_offline_tool(&cli) {
        return code;
    }
    if let Err(e) = logging::init(cli.log_format, cli.log_file.as_deref()) {
        eprintln!("quarry-server: {e}");
        return ExitCode::from(2);
    }
    for line in beside {
        tracing::info!("{line}");
    }
    if let Some(name) = &cli.new_admin {
        return new_admin(&cli, name);
    }
    if let Some(path) = &cli.replay {
        return match &cli.web {
            Some(web) => watch_replay(path, web, cli.force, &cli.maps),
            None => run_replay(path, cli.json, cli.force, &cli.maps),
        };
    }
    if cli.fast && cli.card.is_some() {
        return modes::card::run(&cli);
    }
    serve(&cli)
}

/// `health-check`, `nav-info` and `map-info`: tools that need no server
/// and write no log file. `None` when the command line asks for none.
fn run_offline_tool(cli: &Cli) -> Option<ExitCode> {
    if let Some(path) = &cli.health_check {
        return Some(match health::check(path) {
            Ok(text) => {
                use std::io::Write;
                let _ = writeln!(std::io::stdout(), "healthy: {text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        });
    }
    if let Some(path) = &cli.nav_info {
        logging::init(cli.log_format, None).ok();
        return Some(navmesh::run_nav_info(path, cli.json, cli.svg.as_deref(), cli.hotspots.as_deref()));
    }
    if let Some(path) = &cli.map_info {
        logging::init(cli.log_format, None).ok();
        return Some(map_info::run(path, cli.json, cli.obj.as_deref()));
    }
    None
}

/// `new-admin NAME --role ROLE`.
fn new_admin(cli: &Cli, name: &str) -> ExitCode {
    match network::admin::new_admin(&cli.config, name, &cli.role) {
        Ok(key) => {
            println!("admin {name} ({}) added to {}; the key is {} (mode 0600): give it to the admin for quarry-client rcon HOST:PORT --key FILE", cli.role, cli.config.join(network::admin::ADMINS_FILE).display(), key.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("quarry-server: new-admin: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs the server: a live one until it is stopped, or one headless match.
fn serve(cli: &Cli) -> ExitCode {
    if cli.record.is_some() && !cli.fast {
        eprintln!("quarry-server: --record records a headless match: give --fast too");
        return ExitCode::from(2);
    }
    let refuse = |e: &dyn std::fmt::Display| {
        eprintln!("quarry-server: {e}");
        ExitCode::from(2)
    };
    let (plus, card) = match cli::split_plus_commands(&cli.commands).and_then(|p| cards::live::prepare(cli, p)) {
        Ok(p) => p,
        Err(e) => return refuse(&e),
    };
    let options = ServerOptions { config_dir: cli.config.clone(), port: cli.port, fast: cli.fast, maps_dir: cli.maps.clone(), seed: cli.seed, botfiles_dir: Some(cli.botfiles.clone()) };
    if let Err(code) = check_config_dir(&options) {
        return code;
    }
    let mut server = match Server::new(&options) {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("startup failed: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let stop = server::stop_on_signals(cli.log_file.is_some());
    // A headless match takes no console input.
    let stdin = stdin_console::StdinConsole::start(!cli.fast, cli.fast && cli.json);
    stdin.printer.print(&cvars::version_string());
    if let Err(code) = start_server(&mut server, cli, &plus, card, &stdin) {
        return code;
    }
    server.flush(&stdin.printer);
    tracing::info!("server running at {} Hz", server.state.cvars.tick_rate(server.console.cvars()));
    let wall = std::time::Instant::now();
    server.run(&stdin, &stop);
    let played = if cli.fast { finish_headless(&mut server, cli, wall.elapsed(), &stdin) } else { ExitCode::SUCCESS };
    let reason = server.state.quit_reason().unwrap_or("quit").to_owned();
    server.flush(&stdin.printer);
    stdin.restore_terminal();
    if played != ExitCode::SUCCESS && reason != server::NEVER_STARTED {
        return played;
    }
    // A headless match that never went live measured nothing.
    let played = if reason == server::NEVER_STARTED { ExitCode::FAILURE } else { ExitCode::SUCCESS };
    match server.shutdown() {
        Ok(Some(path)) => {
            tracing::info!("shut down ({reason}); archived cvars written to {}", path.display());
            ExitCode::SUCCESS
        }
        Ok(None) => {
            tracing::info!("shut down ({reason}); a headless run leaves the archive as it was");
            played
        }
        Err(e) => {
            tracing::error!("shut down ({reason}) but {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the server's startup, attaches a card match, checks a headless
/// match can run, starts its recording or its network. An error was
/// reported; it carries the exit code.
fn start_server(server: &mut Server, cli: &Cli, plus: &[cli::PlusCommand], card: Option<cards::live::LiveCard>, stdin: &stdin_console::StdinConsole) -> Result<(), ExitCode> {
    let refuse = |e: &dyn std::fmt::Display| {
        eprintln!("quarry-server: {e}");
        ExitCode::from(2)
    };
    server.startup(plus);
    attach_card(server, card).map_err(|e| refuse(&e))?;
    server.flush(&stdin.printer);
    if let Some(e) = server.secret_error() {
        return Err(refuse(e));
    }
    if let Some(e) = server.webhook_error() {
        return Err(refuse(e));
    }
    for line in server.banner() {
        stdin.printer.print(&line);
    }
    if cli.fast {
        if let Some(e) = server.state.startup_error.as_deref() {
            return Err(refuse(&e));
        }
        headless::check_ready(&server.state.game).map_err(|e| refuse(&e))?;
    }
    if let Some(path) = &cli.record
        && let Err(e) = server.start_recording(path, Some(&cli.botfiles))
    {
        eprintln!("quarry-server: --record {}: {e}", path.display());
        return Err(ExitCode::FAILURE);
    }
    if !cli.fast
        && let Err(e) = server.start_network()
    {
        eprintln!("quarry-server: {e}");
        // A secret that cannot be read is the operator's to fix, as a bad flag is.
        return Err(if matches!(e, network::NetStartError::Admins(_)) { ExitCode::from(2) } else { ExitCode::FAILURE });
    }
    Ok(())
}

/// A server started from the wrong directory would run with no config and
/// no map, and create a new key wherever it stands: a live one refuses.
fn check_config_dir(options: &ServerOptions) -> Result<(), ExitCode> {
    if options.config_dir.is_dir() {
        return Ok(());
    }
    if !options.fast {
        let cwd = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
        eprintln!(
            "quarry-server: config directory '{}' not found (looked in {cwd}); run from the directory that holds config/ \
             and maps/, or give --config DIR (an empty directory runs on defaults and keeps the server's key and archive there)",
            options.config_dir.display()
        );
        return Err(ExitCode::from(2));
    }
    tracing::warn!("config directory {} does not exist; using defaults", options.config_dir.display());
    Ok(())
}

/// After a headless match: its summary, and the recording finished with it.
fn finish_headless(server: &mut Server, cli: &Cli, wall: std::time::Duration, stdin: &stdin_console::StdinConsole) -> ExitCode {
    server.flush(&stdin.printer);
    let summary = server.summary(wall);
    headless::print_summary(summary.as_ref(), cli.json);
    if let Some(rec) = server.take_recording() {
        match rec.finish(summary.as_ref()) {
            Ok(bytes) => tracing::info!("recording written: {} bytes", bytes),
            Err(e) => {
                eprintln!("quarry-server: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Puts a prepared card match on the started server: checks its roster
/// against the slots, starts the navmesh build and says what the server
/// waits for. Without one, nothing.
fn attach_card(server: &mut Server, card: Option<cards::live::LiveCard>) -> Result<(), String> {
    let Some(card) = card else { return Ok(()) };
    let name = format!("card {} match {}", card.card().name, card.id());
    if let Some(e) = &server.state.startup_error {
        return Err(format!("{name}: {e}"));
    }
    let slots = usize::try_from(server.console.cvars().int(server.state.game.cvars.maxclients)).unwrap_or(0);
    card.check_fits(slots)?;
    if let Some(game) = server.state.game.running.as_ref() {
        let cell = server.state.bots.settings().nav_cell_size;
        if let Err(e) = server.state.bots.nav_mut().ensure(game, cell) {
            return Err(format!("{name}: bots can't move on this map: {e}"));
        }
    }
    for line in card.banner(cards::commands::difficulty(server.console.cvars())) {
        server.console.print(line);
    }
    let live = server.state.features.get_mut::<cards::live::LiveCards>().ok_or("the server has no card controller")?;
    live.current = Some(card);
    Ok(())
}

/// `replay FILE --web ADDR`: the recording played in the web view until
/// the process is stopped (or the replay diverges).
fn watch_replay(path: &std::path::Path, web: &str, force: bool, maps: &std::path::Path) -> ExitCode {
    let addr = match http::parse_address(web) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("quarry-server: --web: {e}");
            return ExitCode::from(2);
        }
    };
    let password = std::env::var("QUARRY_WEB_PASSWORD").unwrap_or_default();
    let options = modes::replay::ReplayOptions { force, maps_dir: Some(maps.to_owned()) };
    let shown = path.display();
    let result = modes::watch::watch(path, &options, addr, &password, |bound, rec| {
        let last = rec.last_tick().unwrap_or(0);
        let gametype = rec.header.cvars.iter().find(|(n, _)| n.eq_ignore_ascii_case("g_gametype")).map_or("?", |(_, v)| v.as_str());
        println!("playing {shown} ({gametype} on {}, {:.1} min) in the web view on http://{bound}/ (Ctrl-C to stop)", rec.header.map_name, f64::from(last) / f64::from(rec.header.hz.max(1)) / 60.0);
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarry-server: replay {shown}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `replay FILE`: the match again from the recording, every stored
/// state hash checked; the summary as a headless match prints it.
fn run_replay(path: &std::path::Path, json: bool, force: bool, maps: &std::path::Path) -> ExitCode {
    let wall = std::time::Instant::now();
    let (server, ticks, rec) = match modes::replay::replay(path, &modes::replay::ReplayOptions { force, maps_dir: Some(maps.to_owned()) }) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("quarry-server: replay {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let Some(mine) = server.summary(wall.elapsed()) else {
        eprintln!("quarry-server: replay {}: no match to summarise", path.display());
        return ExitCode::FAILURE;
    };
    let recorded = rec.footer.as_ref().map(|f| f.summary.as_str()).unwrap_or_default();
    let merged = match recording::summary::merge(recorded, &mine) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("quarry-server: replay {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let hashes = rec.hash_count();
    let state = if rec.cut.is_some() { "a cut recording, up to where it ends" } else { "the whole recording" };
    let compared = if recorded.is_empty() { "no recorded summary to compare" } else { "the summary equals the recorded one" };
    let size = recording::summary::size_figures(&rec);
    tracing::info!("replayed {ticks} ticks of {state}: {hashes} stored state hashes matched; {compared}");
    if json {
        let mut merged = merged;
        if let serde_json::Value::Object(out) = &mut merged {
            out.insert("replay".to_owned(), serde_json::json!({ "ticks": ticks, "hashes_matched": hashes, "cut": rec.cut, "size": size }));
        }
        println!("{merged}");
        return ExitCode::SUCCESS;
    }
    let bots = rec.footer.as_ref().map(|f| f.bot_report.as_str()).filter(|t| !t.is_empty());
    let mut shown = mine;
    if let Some(map) = merged.get("map").and_then(serde_json::Value::as_str) {
        shown.map = map.to_owned();
    }
    print!("{}", headless::summary_text(&shown, bots));
    println!("replay: {ticks} ticks, {hashes} state hashes matched ({state}); {compared}");
    println!(
        "recording: {} bytes: header {} (map and config); play {:.1} KB a minute over {:.2} min, {:.1} KB a minute with all {} players in ({:.2} min)",
        size.file_bytes,
        size.header_bytes,
        size.bytes_per_minute / 1024.0,
        size.minutes,
        size.full_bytes_per_minute / 1024.0,
        size.players,
        size.full_minutes
    );
    ExitCode::SUCCESS
}
