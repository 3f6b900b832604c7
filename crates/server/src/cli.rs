//! The command line: flags, and the Quake-style `+command args` list that is
//! run through the console after the startup config.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub use crate::logging::LogFormat;

/// `quarry-server`: a headless, authoritative Quake-style arena server.
#[derive(Debug, Parser)]
#[command(
    name = "quarry-server",
    version,
    about = "Quarry: a headless, authoritative Quake-style arena shooter server whose bots are real players",
    after_help = "With no subcommand the server runs (as `run` does). Every +command after the flags runs through the console after the config files, in order:\n  \
                  quarry-server +set sv_fps 30 +exec duel.cfg +map q_dm1\n\
                  Type `help NAME`, `cmdlist` or `cvarlist` at the console for the rest.\n\
                  Logging is filtered with RUST_LOG (default: info)."
)]
pub struct Cli {
    /// What to do (none: run the server).
    #[command(subcommand)]
    pub mode: Option<Mode>,

    /// Directory holding server.cfg and the archive file (archive.cfg).
    #[arg(long, global = true, value_name = "DIR", default_value = "config")]
    pub config: PathBuf,

    /// Network port (sets the net_port cvar before the +commands run).
    #[arg(long, global = true, value_name = "N")]
    pub port: Option<u16>,

    /// Headless match: run the tick loop without sleeping or network until the match ends,
    /// then print the scoreboard and ticks per second (with --json: one JSON object).
    #[arg(long, global = true)]
    pub fast: bool,

    /// Log format on stderr.
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text, value_name = "FORMAT")]
    pub log_format: LogFormat,

    /// Also append log lines to this file.
    #[arg(long, global = true, value_name = "FILE")]
    pub log_file: Option<PathBuf>,

    /// Print JSON instead of text (a headless match's summary, a replay's, a map's or a navmesh's report, a card's results).
    #[arg(long, global = true)]
    pub json: bool,

    /// With --fast: record the match into FILE (a Quarry recording; replay it with `quarry-server replay FILE`).
    #[arg(long, global = true, value_name = "FILE")]
    pub record: Option<PathBuf>,

    /// Replay a recording made by another sim version; play a locked card match (its result is not recorded).
    #[arg(long, global = true)]
    pub force: bool,

    /// Play a match card (config/cards/NAME.toml, or a path to one) on a live server: with --match T.M, that
    /// match, waiting for its player (`quarry-server card NAME --as CHARACTER` plays every match headless).
    #[arg(long, global = true, value_name = "NAME")]
    pub card: Option<String>,

    /// With --card: the match to play, TIER.MATCH counted from 0 (`cardinfo NAME` lists them).
    #[arg(long = "match", global = true, value_name = "T.M")]
    pub match_id: Option<String>,

    /// With `card`: the character who stands in for the player, at each tier's base skill, or at SKILL (1-5)
    /// in every match.
    #[arg(long = "as", global = true, value_name = "CHARACTER[:SKILL]")]
    pub stand_in: Option<String>,

    /// Seed of the match RNG (every later match's seed derives from it); default: from the clock.
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,

    /// Directory of the bot content files (styles/*.style, characters/*.bot).
    #[arg(long, global = true, value_name = "DIR", default_value = "botfiles")]
    pub botfiles: PathBuf,

    /// Directory bare map names are looked up in (`map NAME` loads DIR/NAME.map).
    #[arg(long, global = true, value_name = "DIR", default_value = "maps")]
    pub maps: PathBuf,

    /// Deprecated: `quarry-server health-check FILE`.
    #[arg(long, value_name = "FILE", hide = true)]
    pub health_check: Option<PathBuf>,

    /// Deprecated: `quarry-server map-info FILE`.
    #[arg(long, value_name = "FILE", hide = true)]
    pub map_info: Option<PathBuf>,

    /// Deprecated: `quarry-server replay FILE`.
    #[arg(long, value_name = "FILE", hide = true)]
    pub replay: Option<PathBuf>,

    /// Deprecated: `quarry-server replay FILE --web ADDR`.
    #[arg(long, value_name = "ADDR", requires = "replay", hide = true)]
    pub web: Option<String>,

    /// Deprecated: `quarry-server new-admin NAME --role ROLE`.
    #[arg(long, value_name = "NAME", hide = true)]
    pub new_admin: Option<String>,

    /// Deprecated: `quarry-server new-admin NAME --role ROLE`.
    #[arg(long, value_name = "ROLE", default_value = "operator", requires = "new_admin", hide = true)]
    pub role: String,

    /// Deprecated: `quarry-server map-info FILE --obj OUT.obj`.
    #[arg(long, value_name = "OUT.obj", requires = "map_info", hide = true)]
    pub obj: Option<PathBuf>,

    /// Deprecated: `quarry-server nav-info FILE`.
    #[arg(long, value_name = "FILE", hide = true)]
    pub nav_info: Option<PathBuf>,

    /// Deprecated: `quarry-server nav-info FILE --svg OUT.svg`.
    #[arg(long, value_name = "OUT.svg", requires = "nav_info", hide = true)]
    pub svg: Option<PathBuf>,

    /// Deprecated: `quarry-server nav-info FILE --svg OUT.svg --hotspots SUMMARY.json`.
    #[arg(long, value_name = "SUMMARY.json", requires = "svg", hide = true)]
    pub hotspots: Option<PathBuf>,

    /// Console commands to run after startup config: `+set NAME VALUE`, `+exec FILE`, `+map NAME`, ...
    #[arg(value_name = "+COMMAND ARGS", trailing_var_arg = true, allow_hyphen_values = true)]
    pub commands: Vec<String>,
}

/// The binary's modes, each with its own `--help`.
#[derive(Debug, Subcommand)]
pub enum Mode {
    /// Run the server (what `quarry-server` alone does): the startup files, then the +commands, then the tick loop.
    Run {
        /// Console commands to run after startup config: `+set NAME VALUE`, `+exec FILE`, `+map NAME`, ...
        #[arg(value_name = "+COMMAND ARGS", trailing_var_arg = true, allow_hyphen_values = true)]
        commands: Vec<String>,
    },
    /// Replay a recording: the match again with no network and no bot brains, every stored state hash
    /// checked; prints the summary (--json for JSON) and exits non-zero on a divergence.
    Replay {
        /// The recording (.qdemo).
        file: PathBuf,
        /// Play the recording in the live web view on ADDR (HOST:PORT, or PORT for 127.0.0.1) at real time,
        /// with pause, speed and seek, until stopped. Beyond loopback the view needs a password, taken from
        /// the QUARRY_WEB_PASSWORD environment variable.
        #[arg(long, value_name = "ADDR")]
        web: Option<String>,
    },
    /// Play every match of a match card headless with a bot standing in for the player (--as), and print the
    /// results table (--json: JSON).
    Card {
        /// The card: config/cards/NAME.toml, or a path to one.
        name: String,
        /// Console commands every match runs after the card's settings: `+set g_cardDifficulty 0.5`, ...
        #[arg(value_name = "+COMMAND ARGS", trailing_var_arg = true, allow_hyphen_values = true)]
        commands: Vec<String>,
    },
    /// Print a .map file's figures (dialect, brushes, entities, spawns, load time) and exit.
    MapInfo {
        /// The .map file.
        file: PathBuf,
        /// Also write the solid collision geometry as a Wavefront OBJ file.
        #[arg(long, value_name = "OUT.obj")]
        obj: Option<PathBuf>,
    },
    /// Build the bots' navmesh of a .map file and print its figures, spawn and item reachability and the
    /// ALT-versus-Euclid comparison, then exit.
    NavInfo {
        /// The .map file.
        file: PathBuf,
        /// Also write a top-down SVG picture of the mesh.
        #[arg(long, value_name = "OUT.svg")]
        svg: Option<PathBuf>,
        /// Mark the stuck hotspots of a headless run's `--json` summary on the picture.
        #[arg(long, value_name = "SUMMARY.json", requires = "svg")]
        hotspots: Option<PathBuf>,
    },
    /// Check a health file written by a running server (sv_healthFile): exit 0 if it is fresh.
    HealthCheck {
        /// The health file.
        file: PathBuf,
    },
    /// Make a remote admin: a key file (mode 0600) in the config dir and a line in its `admins` file, then exit.
    /// Give the key file to the admin (quarry-client rcon --key FILE).
    NewAdmin {
        /// The admin's name.
        name: String,
        /// admin (every command) or operator (sv_adminOperatorCommands).
        #[arg(long, value_name = "ROLE", default_value = "operator")]
        role: String,
    },
}

impl Cli {
    /// Folds the subcommand into the flags the modes read, and returns a
    /// line for each old spelling used (the flags that became subcommands).
    pub fn normalize(&mut self) -> Vec<String> {
        let mut notes = Vec::new();
        let old = [
            (self.replay.is_some(), "--replay FILE [--web ADDR]", "replay FILE [--web ADDR]"),
            (self.map_info.is_some(), "--map-info FILE [--obj OUT]", "map-info FILE [--obj OUT]"),
            (self.nav_info.is_some(), "--nav-info FILE [--svg OUT]", "nav-info FILE [--svg OUT]"),
            (self.health_check.is_some(), "--health-check FILE", "health-check FILE"),
            (self.new_admin.is_some(), "--new-admin NAME [--role ROLE]", "new-admin NAME [--role ROLE]"),
            (self.fast && self.card.is_some(), "--fast --card NAME", "card NAME"),
        ];
        for (_, was, now) in old.iter().filter(|o| o.0) {
            notes.push(format!("quarry-server {was} is now `quarry-server {now}`; the old spelling still works for a while"));
        }
        match self.mode.take() {
            None => {}
            Some(Mode::Run { commands }) => self.commands = commands,
            Some(Mode::Replay { file, web }) => (self.replay, self.web) = (Some(file), web),
            Some(Mode::Card { name, commands }) => (self.card, self.fast, self.commands) = (Some(name), true, commands),
            Some(Mode::MapInfo { file, obj }) => (self.map_info, self.obj) = (Some(file), obj),
            Some(Mode::NavInfo { file, svg, hotspots }) => (self.nav_info, self.svg, self.hotspots) = (Some(file), svg, hotspots),
            Some(Mode::HealthCheck { file }) => self.health_check = Some(file),
            Some(Mode::NewAdmin { name, role }) => (self.new_admin, self.role) = (Some(name), role),
        }
        notes
    }
}

/// One `+command` from the command line, split into its name and arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlusCommand {
    /// The command or cvar name, without the `+`.
    pub name: String,
    /// Its arguments, as the shell gave them.
    pub args: Vec<String>,
}

impl Cli {
    /// `--maps` and `--botfiles` left at their defaults are looked for
    /// beside the config folder when the working directory has none: a
    /// server started from elsewhere with `--config /srv/quarry/config`
    /// finds `/srv/quarry/maps` and `/srv/quarry/botfiles`, as it would
    /// from `/srv/quarry`. Returns a line per folder so chosen.
    pub fn content_beside_config(&mut self) -> Vec<String> {
        let mut chosen = Vec::new();
        let Some(base) = self.config.parent().filter(|p| !p.as_os_str().is_empty()) else { return chosen };
        let base = base.to_owned();
        for (dir, default) in [(&mut self.maps, "maps"), (&mut self.botfiles, "botfiles")] {
            let beside = base.join(default);
            if dir.as_path() == std::path::Path::new(default) && !dir.is_dir() && beside.is_dir() {
                chosen.push(format!("{default}: {} (beside the config folder; ./{default} does not exist)", beside.display()));
                *dir = beside;
            }
        }
        chosen
    }
}

/// Splits the trailing words into `+command` groups. Words before the first
/// `+word` are an error, reported with the offending word; so is one of the
/// server's own flags after a `+command` (it would silently become part of
/// the command: `+set sv_password x --log-file f` would set the password to
/// `x --log-file f`).
pub fn split_plus_commands(words: &[String]) -> Result<Vec<PlusCommand>, String> {
    let flags: Vec<String> = <Cli as clap::CommandFactory>::command()
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .chain(["--help".to_owned(), "--version".to_owned()])
        .collect();
    let mut out: Vec<PlusCommand> = Vec::new();
    for word in words {
        let flag = word.split('=').next().unwrap_or(word);
        if let Some(cmd) = out.last().filter(|_| flags.iter().any(|f| f == flag)) {
            return Err(format!(
                "'{flag}' comes after '+{}': the server's flags go before the first +command (quarry-server {flag} ... +{} ...)",
                cmd.name, cmd.name
            ));
        }
        if let Some(name) = word.strip_prefix('+').filter(|n| !n.is_empty()) {
            out.push(PlusCommand { name: name.to_owned(), args: Vec::new() });
        } else if let Some(last) = out.last_mut() {
            last.args.push(word.clone());
        } else {
            return Err(format!(
                "unexpected argument '{word}': console commands on the command line start with '+', e.g. +set sv_fps 30"
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn groups_plus_commands_in_order() {
        let got = split_plus_commands(&words("+set sv_fps 30 +exec a.cfg +map q_dm1 +set g -5")).expect("ok");
        let names: Vec<_> = got.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["set", "exec", "map", "set"]);
        assert_eq!(got[0].args, ["sv_fps", "30"]);
        assert_eq!(got[3].args, ["g", "-5"]);
    }

    #[test]
    fn a_flag_after_a_plus_command_is_an_error() {
        let e = split_plus_commands(&words("+set sv_password hunter2 --log-file x")).expect_err("flag after +set");
        assert!(e.contains("'--log-file' comes after '+set'"), "{e}");
        let e = split_plus_commands(&words("+map q_dm1 --seed=3")).expect_err("flag=value after +map");
        assert!(e.contains("'--seed'"), "{e}");
        // Values that merely start with dashes are values.
        let got = split_plus_commands(&words("+set sv_hostname --cool-- +set g -5")).expect("not flags");
        assert_eq!(got[0].args, ["sv_hostname", "--cool--"]);
    }

    #[test]
    fn stray_words_are_an_error() {
        let e = split_plus_commands(&words("set sv_fps 30")).expect_err("no plus");
        assert!(e.contains("'set'"), "{e}");
    }

    #[test]
    fn clap_accepts_flags_then_plus_commands() {
        let cli = Cli::try_parse_from(["quarry-server", "--fast", "--port", "27961", "+set", "x", "-1"]).expect("parse");
        assert!(cli.fast);
        assert_eq!(cli.port, Some(27961));
        assert_eq!(cli.commands, ["+set", "x", "-1"]);
    }

    #[test]
    fn card_flags_parse() {
        let cli = Cli::try_parse_from(["quarry-server", "--card", "ladder", "--match", "1.3"]).expect("parse");
        assert_eq!((cli.card.as_deref(), cli.match_id.as_deref()), (Some("ladder"), Some("1.3")));
        let mut cli = Cli::try_parse_from(["quarry-server", "card", "ladder", "--as", "Wren", "--seed", "3", "+set", "g_cardDifficulty", "1"]).expect("parse");
        assert!(cli.normalize().is_empty(), "the new spelling has no note");
        assert_eq!((cli.card.as_deref(), cli.stand_in.as_deref(), cli.fast, cli.seed), (Some("ladder"), Some("Wren"), true, Some(3)));
        assert_eq!(cli.commands, ["+set", "g_cardDifficulty", "1"]);
        let e = split_plus_commands(&words("+set x 1 --card ladder")).expect_err("a card flag after a +command");
        assert!(e.contains("'--card'"), "{e}");
    }

    #[test]
    fn subcommands_fold_into_the_modes_flags_and_old_spellings_are_noted() {
        let mut cli = Cli::try_parse_from(["quarry-server", "replay", "m.qdemo", "--web", "8080", "--json"]).expect("parse");
        assert!(cli.normalize().is_empty());
        assert_eq!((cli.replay.as_deref(), cli.web.as_deref(), cli.json), (Some(std::path::Path::new("m.qdemo")), Some("8080"), true));
        let mut cli = Cli::try_parse_from(["quarry-server", "run", "--fast", "+map", "q_dm1"]).expect("parse");
        cli.normalize();
        assert_eq!((cli.fast, cli.commands.as_slice()), (true, ["+map".to_owned(), "q_dm1".to_owned()].as_slice()));
        let mut cli = Cli::try_parse_from(["quarry-server", "new-admin", "ops", "--role", "admin", "--config", "c"]).expect("parse");
        cli.normalize();
        assert_eq!((cli.new_admin.as_deref(), cli.role.as_str(), cli.config.as_path()), (Some("ops"), "admin", std::path::Path::new("c")));
        let mut cli = Cli::try_parse_from(["quarry-server", "--replay", "m.qdemo"]).expect("the old spelling parses");
        let notes = cli.normalize();
        assert!(notes.len() == 1 && notes[0].contains("quarry-server replay FILE"), "{notes:?}");
        assert_eq!(cli.replay.as_deref(), Some(std::path::Path::new("m.qdemo")));
        let cli = Cli::try_parse_from(["quarry-server", "+map", "q_dm1"]).expect("bare +commands still run the server");
        assert!(cli.mode.is_none());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
