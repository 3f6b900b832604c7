//! The server: its console, its state, startup order, the fixed-rate tick
//! loop and graceful shutdown.
//!
//! Startup order (each step sees everything before it):
//! 1. every crate registers its cvars and commands;
//! 2. `archive.cfg` (archived cvars from the last run) is executed, then
//!    `server.cfg`, so the operator's file wins over remembered values;
//! 3. `QUARRY_NAME=VALUE` environment variables naming a cvar, then
//!    `--port`, then each `+command` from the command line, in order. Their
//!    values are for this run: the archive keeps what it held before them
//!    (a value set again later at the console is archived as usual), except
//!    a `+seta`, which asks for the value to be kept;
//! 4. the map asked for last (by `server.cfg` or the command line, which
//!    wins) is loaded, once: a `map` during steps 2-3 only records the
//!    request, so the first match sees every `+set`, latched ones (game
//!    type, slots) included. A `+command` that acts on the match (`addbot`,
//!    `kick`, …) loads the map asked for so far before it runs. A headless
//!    run (`--fast`) whose map fails to load exits with status 2;
//! 5. values set for cvars nothing registered are reported (likely typos) and
//!    from now on `set` of an unknown cvar is refused;
//! 6. the tick loop starts. Console lines run between ticks; archived cvars
//!    are written about a second after they change (`archive_writer.rs`),
//!    except in a headless run, which leaves the archive as it was.
//!
//! Before step 1, temporary files an interrupted atomic write left in the
//! config directory (`.archive.cfg.PID.tmp`, `.bans.txt.PID.tmp`) are removed.

mod rcon;
mod tick;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use quarry_console::Console;

use crate::cli::PlusCommand;
use crate::clock::{TickClock, TickTiming};
use crate::cvars::ServerCvars;
use crate::stdin_console::{ConsoleRequest, Printer, StdinConsole};
pub use crate::state::ServerState;
pub use tick::NEVER_STARTED;

use crate::state::StartupRequests;
use crate::tick_stats::TickStats;

/// The name of the operator's config file in the config directory.
pub const SERVER_CFG: &str = "server.cfg";
/// The name of the archive file in the config directory.
pub const ARCHIVE_CFG: &str = "archive.cfg";

/// Environment variables that set cvars start with this (`QUARRY_SV_HOSTNAME`).
pub const ENV_PREFIX: &str = "QUARRY_";

/// `QUARRY_*` variables (after the prefix; a name or the start of one)
/// that are not cvars: the tests' and scripts' own knobs.
pub const NOT_CVARS: [&str; 8] = ["SHARED_MAPS", "SHARED_THIRD_PARTY", "REQUIRE_", "BLESS_REPLAYS", "WEB_PASSWORD", "FUZZ_", "BENCH_", "HOSTILE_"];

/// The secret files: file cvar, the secret cvar its first line fills, help.
const SECRET_FILES: [(&str, &str, &str); 3] = [
    (
        "sv_passwordFile",
        "sv_password",
        "file holding the join password (its first line), read when this is set: keeps the password out of the command line and docker inspect; a file that cannot be read at startup stops the server; empty = off",
    ),
    (
        "sv_webPasswordFile",
        "sv_webPassword",
        "file holding the web view's password (its first line), read when this is set; a file that cannot be read at startup stops the server; empty = off",
    ),
    (
        "sv_statsWebhookSecretFile",
        "sv_statsWebhookSecret",
        "file holding the key match results posted to sv_statsWebhook are signed with (its first line), read when this is set; a file that cannot be read at startup stops the server; empty = off",
    ),
];

/// Command-line commands that only change settings (or run config files):
/// a map asked for before them still waits, so it sees their values. Any
/// other command loads it first.
const SETTING_COMMANDS: [&str; 7] = ["set", "seta", "reset", "toggle", "exec", "map", "map_restart"];

/// How the server was started.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Directory of server.cfg and archive.cfg.
    pub config_dir: PathBuf,
    /// `--port`.
    pub port: Option<u16>,
    /// `--fast`.
    pub fast: bool,
    /// `--maps`.
    pub maps_dir: PathBuf,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--botfiles`: bot styles and characters (absent: the plain skill curve).
    pub botfiles_dir: Option<PathBuf>,
}

/// One server: console plus state.
pub struct Server {
    /// The console (cvars and commands).
    pub console: Console<ServerState>,
    /// The state the commands act on.
    pub state: ServerState,
    pub(crate) config_dir: PathBuf,
    clock: TickClock,
    fps_seen: u64,
    /// The settings ticks run with, and the cvars' generation they were
    /// read at: read again only when a cvar changed.
    settings: Option<(u64, Arc<crate::cvars::ServerSettings>)>,
    /// The cvars' generation and whether the startup was over when the
    /// features last synced.
    features_seen: Option<(u64, bool)>,
    /// The secret files (`sv_passwordFile`, `sv_webPasswordFile`).
    secrets: crate::secrets::SecretFiles,
    /// A secret file the startup could not read: the server must not run.
    secret_error: Option<crate::secrets::SecretFileError>,
    /// A webhook the startup found unsafe to run with (`match_result/`).
    webhook_error: Option<crate::match_result::WebhookConfigError>,
    archive: crate::archive_writer::ArchiveWriter,
}

impl Server {
    /// Registers every cvar and command. Nothing is executed yet.
    pub fn new(options: &ServerOptions) -> anyhow::Result<Self> {
        for stale in quarry_console::remove_stale_temp_files(&options.config_dir) {
            tracing::info!("removed {}, left by an interrupted write", stale.display());
        }
        let mut console = Console::new();
        console.set_config_dir(&options.config_dir);
        let cvars = ServerCvars::register(&mut console)?;
        let sim_cvars = quarry_sim::SimCvars::register(&mut console)?;
        let bot_cvars = quarry_bots::register(&mut console, bot_access)?;
        crate::commands::register(&mut console)?;
        crate::navmesh::register(&mut console, nav_access)?;
        crate::cards::register(&mut console, card_access)?;
        let game_log = crate::game_log::GameLog::new(crate::game_log::GameLogCvars::register(&mut console)?);
        let admin = crate::network::admin::AdminCvars::register(&mut console)?;
        rcon::register(&mut console)?;
        let data = crate::game_data::load(&options.config_dir)?;
        let game = crate::game::GameHost::new(sim_cvars, data, options.maps_dir.clone(), options.seed, options.fast, game_log);
        let bots = new_bots(bot_cvars, options);
        // The features, in the order they run each tick.
        let mut features = crate::feature::Features::default();
        features.observe(crate::recording::Demos::register(&mut console)?);
        features.observe(crate::web::WebView::register(&mut console, options.fast)?);
        features.observe(crate::metrics::Metrics::register(&mut console)?);
        features.observe(crate::health::Health::register(&mut console)?);
        features.observe(crate::match_result::MatchResults::register(&mut console)?);
        features.control("card", crate::cards::live::LiveCards::new());
        features.control("agones", crate::agones::Agones::register(&mut console, options.fast)?);
        // After every feature: a secret file fills a cvar a feature registers.
        let secrets = crate::secrets::SecretFiles::register(&mut console, &SECRET_FILES)?;
        let state = ServerState {
            started: Instant::now(),
            stats: TickStats::default(),
            cvars,
            fast: options.fast,
            game,
            net: None,
            bots,
            startup: Some(StartupRequests::default()),
            startup_error: None,
            admin,
            features,
            quit: None,
            quit_after_tick: false,
        };
        let archive = crate::archive_writer::ArchiveWriter::new(
            options.config_dir.join(ARCHIVE_CFG),
            console.cvars(),
            Instant::now(),
        );
        let mut server = Self {
            archive,
            console,
            state,
            config_dir: options.config_dir.clone(),
            clock: TickClock::new(60, Instant::now()),
            fps_seen: u64::MAX,
            settings: None,
            features_seen: None,
            secrets,
            secret_error: None,
            webhook_error: None,
        };
        if let Some(port) = options.port {
            // Applied before the +commands so an explicit +set net_port still wins.
            server.run_statement("set", &["net_port".into(), port.to_string()], "--port", 0);
        }
        Ok(server)
    }

    /// The archive file's path.
    pub fn archive_path(&self) -> PathBuf {
        self.archive.path().to_owned()
    }

    /// Runs the startup config and the command-line `+commands`, then loads
    /// the map they asked for (steps 2-5 above).
    pub fn startup(&mut self, plus: &[PlusCommand]) {
        self.startup_with(plus, std::env::vars());
    }

    /// [`Server::startup`] without the `QUARRY_*` environment: for a
    /// replay, whose settings come from its recording alone.
    pub fn startup_without_environment(&mut self, plus: &[PlusCommand]) {
        self.startup_with(plus, Vec::new());
    }

    fn startup_with(&mut self, plus: &[PlusCommand], environment: impl IntoIterator<Item = (String, String)>) {
        let archive = self.archive_path();
        if archive.is_file() {
            self.exec_startup_file(ARCHIVE_CFG);
        }
        if self.config_dir.join(SERVER_CFG).is_file() {
            self.exec_startup_file(SERVER_CFG);
        } else {
            tracing::warn!("no {SERVER_CFG} in {}; running on defaults", self.config_dir.display());
        }
        // What the archive holds before the command line: its values are for
        // this run only, so the archive keeps these.
        let before: Vec<(String, String)> = self
            .console
            .cvars()
            .iter()
            .filter(|c| c.is_archived())
            .map(|c| (c.def.name.clone(), c.latched().unwrap_or(c.value()).to_string()))
            .collect();
        self.apply_environment(environment);
        for (i, cmd) in plus.iter().enumerate() {
            // A command that acts on the match (addbot, kick, …) gets the map
            // asked for so far first; settings and config files do not.
            if !SETTING_COMMANDS.iter().any(|c| c.eq_ignore_ascii_case(&cmd.name)) {
                self.load_startup_map();
            }
            self.run_statement(&cmd.name, &cmd.args, "command line", i + 1);
        }
        // `+seta` asks for the value to be kept.
        let kept: Vec<&str> = plus.iter().filter(|c| c.name.eq_ignore_ascii_case("seta")).filter_map(|c| c.args.first().map(String::as_str)).collect();
        for (name, value) in before {
            if !kept.iter().any(|k| k.eq_ignore_ascii_case(&name)) {
                self.console.cvars_mut().keep_archived(&name, &value);
            }
        }
        self.load_startup_map();
        self.state.startup = None;
        let unclaimed: Vec<String> = self
            .console
            .cvars()
            .pending()
            .map(|(name, p)| format!("'{name}' (set at {})", p.origin))
            .collect();
        for u in unclaimed {
            tracing::warn!("cvar {u} is not registered by anything; is it a typo? (a seta value is kept in the archive)");
        }
        self.console.set_allow_pending(false);
        let (lines, failed) = self.secrets.sync(self.console.cvars_mut());
        for line in lines {
            self.console.print(line);
        }
        self.secret_error = failed;
        let results = self.state.features.get::<crate::match_result::MatchResults>();
        self.webhook_error = results.and_then(|r| r.check(self.console.cvars()).err());
        // A server that must stop binds nothing (the web view, metrics).
        if self.secret_error.is_none() && self.webhook_error.is_none() {
            self.sync_cvars();
        }
    }

    /// A secret file the startup could not read, if one: the server must
    /// stop rather than run without the secret (see `secrets.rs`).
    pub fn secret_error(&self) -> Option<&crate::secrets::SecretFileError> {
        self.secret_error.as_ref()
    }

    /// A webhook the startup found unsafe to run with, if one: the server
    /// must stop rather than post results unsigned or nowhere
    /// (`match_result/webhook.rs`).
    pub fn webhook_error(&self) -> Option<&crate::match_result::WebhookConfigError> {
        self.webhook_error.as_ref()
    }

    /// Sets every registered cvar named by a `QUARRY_NAME=VALUE` variable
    /// (`QUARRY_SV_HOSTNAME`, `QUARRY_BOT_MINPLAYERS`: the name after the
    /// prefix, any case), after `server.cfg` and before the command line, as
    /// container images are configured. A bad value's error names the
    /// variable. Any other `QUARRY_*` variable is warned of (a misspelt
    /// cvar would otherwise do nothing, silently), except the documented
    /// test and benchmark knobs ([`NOT_CVARS`]).
    pub fn apply_environment(&mut self, vars: impl IntoIterator<Item = (String, String)>) {
        let mut sets: Vec<(String, String, String)> = Vec::new();
        for (key, value) in vars {
            let Some(name) = key.strip_prefix(ENV_PREFIX) else { continue };
            match self.console.cvars().find(&name.to_ascii_lowercase()) {
                Some(cvar) => sets.push((cvar.def.name.clone(), value, key.clone())),
                None if NOT_CVARS.iter().any(|k| name.starts_with(k)) => {}
                None => tracing::warn!("{key} names no cvar ({ENV_PREFIX}NAME sets the cvar NAME, in any case); ignored"),
            }
        }
        sets.sort();
        for (name, value, key) in sets {
            self.run_statement("set", &[name, value], &format!("environment {key}"), 0);
        }
    }

    /// Loads the map the startup files and command line asked for last, now
    /// that every setting of theirs is in place.
    fn load_startup_map(&mut self) {
        let Some(name) = self.state.startup.as_mut().and_then(|r| r.map.take()) else { return };
        let hz = self.state.cvars.tick_rate(self.console.cvars());
        match self.state.game.change_map(self.console.cvars_mut(), &name, hz) {
            Ok(line) => self.console.print(line),
            Err(e) => {
                let message = format!("map {name}: {e}");
                self.console.print(format!("error: {message}"));
                self.state.startup_error = Some(message);
            }
        }
    }

    fn exec_startup_file(&mut self, name: &str) {
        if let Err(e) = self.console.exec_file(&mut self.state, name) {
            self.console.print(format!("error: {e}"));
        }
    }

    fn run_statement(&mut self, name: &str, args: &[String], origin: &str, line: usize) {
        if let Err(error) = self.console.dispatch(&mut self.state, name, args, origin, line) {
            let d = quarry_console::Diagnostic { origin: origin.to_owned(), line, error };
            self.console.print(format!("error: {d}"));
        }
    }

    /// Executes what was typed or pasted at the console: each line in turn
    /// (a paste of several lines arrives as one text with line breaks).
    pub fn execute_line(&mut self, text: &str) {
        for line in text.split(['\n', '\r']).filter(|l| !l.trim().is_empty()) {
            // Quake consoles accept a leading slash or backslash.
            let line = line.trim_start().trim_start_matches(['/', '\\']);
            self.state.game.log.admin(self.console.cvars(), "console", line);
            self.console.execute(&mut self.state, line, "console");
            self.sync_cvars();
        }
    }

    /// Takes the console output produced since the last call.
    pub fn drain_output(&mut self) -> Vec<String> {
        self.console.drain_output()
    }

    /// Applies cvar changes that the loop itself depends on.
    fn sync_cvars(&mut self) {
        let ids = self.state.cvars;
        let cheats = self.console.cvars().bool(ids.sv_cheats);
        self.console.cvars_mut().set_cheats_allowed(cheats);
        let (lines, _) = self.secrets.sync(self.console.cvars_mut());
        for line in lines {
            self.console.print(line);
        }
        // The features restart what their cvars configure: only after a change.
        let seen = (self.console.cvars().generation(), self.state.startup.is_none());
        if self.features_seen != Some(seen) {
            self.features_seen = Some(seen);
            for line in self.state.features.sync(self.console.cvars(), seen.1) {
                self.console.print(line);
            }
        }
        if let Some(seen) = ids.tick_rate_changed(self.console.cvars(), self.fps_seen) {
            self.fps_seen = seen;
            self.clock.set_rate(ids.tick_rate(self.console.cvars()), Instant::now());
        }
    }

    /// The configuration in force, for the startup banner (after [`Server::startup`]).
    pub fn banner(&self) -> Vec<String> {
        let cvars = self.console.cvars();
        let ids = self.state.cvars;
        let changed: Vec<String> = cvars
            .iter()
            .filter(|c| c.value() != c.default_value())
            .map(|c| format!("{} \"{}\"", c.def.name, c.shown_value()))
            .collect();
        vec![
            format!(
                "config: dir \"{}\", archive \"{}\", sv_hostname \"{}\", net_port {}, sv_fps {}{}",
                self.config_dir.display(),
                self.archive_path().display(),
                cvars.string(ids.sv_hostname),
                cvars.int(ids.net_port),
                ids.tick_rate(cvars),
                if self.state.fast { ", --fast" } else { "" }
            ),
            if changed.is_empty() {
                "config: all cvars at their defaults".to_owned()
            } else {
                format!("config: changed from defaults: {}", changed.join(", "))
            },
        ]
    }

    /// Starts recording the loaded match into `path` (before its first
    /// tick): the map's and the config files' text, the cvars, and a
    /// content hash of the botfiles go in the header. It records every
    /// tick until [`Server::take_recording`].
    pub fn start_recording(&mut self, path: &Path, botfiles: Option<&Path>) -> Result<(), String> {
        let game = self.state.game.running.as_ref().ok_or("no match to record")?;
        let map_path = self.state.game.map_path.as_deref().ok_or("the match has no map file")?;
        let map_text = std::fs::read_to_string(map_path).map_err(|e| format!("{}: {e}", map_path.display()))?;
        let content = botfiles.map(|b| vec![("botfiles".to_owned(), crate::recording::fnv1a(&crate::recording::folder_bytes(b)))]).unwrap_or_default();
        let by_hash = self.state.features.get::<crate::recording::Demos>().is_some_and(|d| d.map_by_hash(self.console.cvars()));
        let source = crate::recording::MatchSource { map_text: &map_text, map_by_hash: by_hash, headless: self.state.game.headless, config_dir: &self.config_dir, content };
        let rec = crate::recording::Recorder::start(path, game, source, self.console.cvars()).map_err(|e| e.to_string())?;
        self.state.features.observe(rec);
        Ok(())
    }

    /// Stops the recording [`Server::start_recording`] started and returns
    /// it, for its owner to finish.
    pub fn take_recording(&mut self) -> Option<crate::recording::Recorder> {
        self.state.features.take_observer::<crate::recording::Recorder>()
    }

    /// The summary of the running match, `wall` being how long the run took.
    pub fn summary(&self, wall: Duration) -> Option<crate::headless::HeadlessSummary> {
        crate::headless::summary(&self.state.game, &self.state.bots, &self.state.stats, wall)
    }

    /// Runs the loop until `quit`, a signal, or the console asks to stop.
    pub fn run(&mut self, stdin: &StdinConsole, stop: &AtomicBool) {
        let printer = &stdin.printer;
        self.clock.set_rate(self.clock_hz(), Instant::now());
        loop {
            self.flush(printer);
            if stop.load(Ordering::Relaxed) {
                self.state.request_quit("signal".to_owned());
            }
            if self.state.quit.is_some() {
                // A `quit` typed at a live server's console finishes with one
                // more tick, so what the lines before it queued (a `say`)
                // reaches the players before they are told it is going down.
                if std::mem::take(&mut self.state.quit_after_tick) && !self.state.fast && self.state.net.is_some() {
                    self.tick();
                }
                return;
            }
            // Wait for the next tick, running console requests as they arrive.
            let wait = if self.state.fast { Duration::ZERO } else { self.clock.wait(Instant::now()) };
            match stdin.requests.recv_timeout(wait) {
                Ok(request) => {
                    self.handle_request(request, printer);
                    continue;
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
            }
            if !self.state.fast && !self.clock.wait(Instant::now()).is_zero() {
                // Disconnected stdin returns at once; sleep out the rest.
                std::thread::sleep(self.clock.wait(Instant::now()));
            }
            // A headless match runs as fast as it can: it is never late.
            let timing = if self.state.fast { TickTiming::OnTime } else { self.clock.start_tick(Instant::now()) };
            match timing {
                TickTiming::OnTime => {}
                TickTiming::Late => self.state.stats.late_ticks += 1,
                TickTiming::Hitch(skipped) => {
                    self.state.stats.late_ticks += 1;
                    tracing::warn!("server hitch: fell {skipped} ticks behind, skipping ahead");
                }
            }
            self.tick();
            if !self.state.fast {
                // A counter compare per tick; a write only after a change.
                self.archive.poll(Instant::now(), self.console.cvars());
            }
        }
    }

    /// Starts listening on `net_port` (0 picks a free port). Errors are for
    /// the caller to report; the server does not run without its port.
    pub fn start_network(&mut self) -> Result<std::net::SocketAddr, crate::network::NetStartError> {
        let port = u16::try_from(self.console.cvars().int(self.state.cvars.net_port)).unwrap_or(27960);
        let bind = std::net::SocketAddr::from(([0, 0, 0, 0], port));
        let net = crate::network::NetServer::start(bind, &self.config_dir)?;
        let addr = net.local_addr();
        self.console.print(format!("listening on udp {addr}, certificate fingerprint {}", net.fingerprint()));
        // The address carries the fingerprint: one string finds and pins the server.
        self.console.print(format!(
            "join address: quarry://127.0.0.1:{}/#{} (from another machine, its address or name in place of 127.0.0.1)",
            addr.port(),
            net.fingerprint()
        ));
        self.state.net = Some(net);
        Ok(addr)
    }

    fn clock_hz(&self) -> u32 {
        self.state.cvars.tick_rate(self.console.cvars())
    }

    fn handle_request(&mut self, request: ConsoleRequest, printer: &Printer) {
        match request {
            ConsoleRequest::Line { text, done } => {
                self.execute_line(&text);
                // The prompt waits for this line's output (see `stdin_console`).
                if let Some(done) = done {
                    self.flush(printer);
                    let _ = done.send(());
                }
            }
            ConsoleRequest::Complete { line, reply } => {
                let _ = reply.send(self.complete(&line));
            }
            ConsoleRequest::Quit(reason) => self.state.request_quit(reason.to_owned()),
        }
    }

    /// Completes the console text before the cursor: command and cvar
    /// names, their arguments, and player and bot names as they are now
    /// (for `kick`, `removebot`, …). Returns where the completed word
    /// starts and the candidates.
    pub fn complete(&mut self, line: &str) -> (usize, Vec<String>) {
        let names = self.state.game.running.as_ref().map(|g| g.slots().iter().map(|(_, s)| s.userinfo.name.clone()).collect()).unwrap_or_default();
        self.console.set_names(names);
        self.console.complete(line)
    }

    /// Prints pending console output.
    pub fn flush(&mut self, printer: &Printer) {
        for line in self.console.drain_output() {
            // The log file keeps the console's story too (chat, connects,
            // kicks, bans, maps, scoreboards); stderr does not repeat it.
            tracing::info!(target: crate::logging::CONSOLE_TARGET, "{line}");
            printer.print(&line);
        }
    }
}

/// How the bot commands reach the bots and the match.
fn bot_access(state: &mut ServerState) -> quarry_bots::BotAccess<'_> {
    quarry_bots::BotAccess { bots: &mut state.bots, game: state.game.running.as_mut() }
}

/// How the card commands reach the card match and what a card names.
fn card_access(state: &mut ServerState) -> crate::cards::commands::CardAccess<'_> {
    let live = state.features.get_mut::<crate::cards::live::LiveCards>().and_then(|c| c.current.as_mut());
    crate::cards::commands::CardAccess { live, bots: &state.bots, maps_dir: &state.game.maps_dir }
}

/// How the `navmesh` command reaches the bots' navigation and the match.
fn nav_access(state: &mut ServerState) -> crate::navmesh::NavAccess<'_> {
    crate::navmesh::NavAccess { bots: &mut state.bots, game: state.game.running.as_ref() }
}

/// The bot manager: navmeshes built off the tick thread on a live server,
/// the botfiles' brains, characters and styles when there are botfiles.
fn new_bots(cvars: quarry_bots::BotCvars, options: &ServerOptions) -> quarry_bots::BotManager {
    let mut bots = quarry_bots::BotManager::with_cvars(cvars);
    // A live server builds navmeshes off the tick thread; --fast stays deterministic.
    bots.set_background_nav(!options.fast);
    if let Some(dir) = &options.botfiles_dir {
        // Remembered even when loading fails, so `botreload` can retry.
        bots.set_botfiles_dir(dir);
        bots.load_brains();
        match quarry_bots::ContentTraitSource::load(dir) {
            Ok(source) => bots.set_content(source.with_seed(options.seed.unwrap_or(0))),
            Err(e) => tracing::warn!("bot content in {}: {e}; bots use the plain skill curve", dir.display()),
        }
    }
    bots
}

/// Registers SIGINT and SIGTERM to set the returned flag, a graceful stop
/// (the archive is written and the process exits 0). SIGHUP reopens the
/// log file when there is one (`reopen_log`: logrotate's signal to a
/// daemon), and is a graceful stop otherwise (the terminal or session that
/// ran the server is gone).
pub fn stop_on_signals(reopen_log: bool) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let hup = if reopen_log { Arc::clone(&crate::logging::REOPEN_LOG) } else { Arc::clone(&flag) };
    for (sig, target) in [(signal_hook::consts::SIGTERM, &flag), (signal_hook::consts::SIGINT, &flag), (signal_hook::consts::SIGHUP, &hup)] {
        if let Err(e) = signal_hook::flag::register(sig, Arc::clone(target)) {
            tracing::warn!("couldn't install handler for signal {sig}: {e}");
        }
    }
    flag
}

