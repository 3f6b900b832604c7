//! What the operator types or pastes at the console reaches the console whole.

use std::path::{Path, PathBuf};

use quarry_server::server::{Server, ServerOptions};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn a_pasted_block_runs_every_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = ServerOptions {
        config_dir: dir.path().to_owned(),
        port: None,
        fast: true,
        maps_dir: root().join("maps"),
        seed: Some(1),
        botfiles_dir: None,
    };
    let mut server = Server::new(&options).expect("server");
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
