//! What the operator types or pastes at the console reaches the console whole.

use std::path::{Path, PathBuf};

use quarry_server::server::{Server, ServerOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn server(dir: &Path) -> Server {
    let options = ServerOptions {
        config_dir: dir.to_owned(),
        port: None,
        fast: true,
        maps_dir: root().join("maps"),
        seed: Some(1),
        botfiles_dir: None,
    };
    Server::new(&options).expect("server")
}

#[test]
fn a_pasted_block_runs_every_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = server(dir.path());
    server.startup(&[]);
    // A terminal's bracketed paste arrives as one text whose line breaks are
    // carriage returns (or \n, \r\n from other terminals).
    server.execute_line("set sv_hostname Pasted\rset sv_fps 30\r\n/set timelimit 7\n\n");
    let cvars = server.console.cvars();
    let value = |name: &str| cvars.find(name).map(|c| c.value().to_string()).unwrap_or_default();
    assert_eq!(value("sv_hostname"), "Pasted");
    assert_eq!(value("sv_fps"), "30");
    assert_eq!(value("timelimit"), "7");
}

#[test]
fn tab_completes_player_and_bot_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = server(dir.path());
    let plus = |name: &str, args: &[&str]| quarry_server::cli::PlusCommand { name: name.into(), args: args.iter().map(|a| (*a).to_owned()).collect() };
    server.startup(&[plus("set", &["bot_minPlayers", "0"]), plus("map", &["q_dm1"]), plus("addbot", &["Rook"]), plus("addbot", &["Rowan"]), plus("addbot", &["Dace"])]);
    let (at, mut got) = server.complete("kick ro");
    got.sort();
    assert_eq!((at, got), (5, vec!["Rook".to_owned(), "Rowan".to_owned()]));
    assert_eq!(server.complete("removebot da").1, vec!["Dace".to_owned()]);
    // A name nobody has completes to nothing.
    assert!(server.complete("kick zz").1.is_empty());
}
