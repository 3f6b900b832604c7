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

/// Renders what a terminal shows for `raw` output: printable text, carriage
/// return, line feed, erase to end of line (`ESC [ K`) and cursor forward
/// (`ESC [ n C`); other escape sequences change nothing on screen here.
fn render(raw: &str) -> Vec<String> {
    let mut lines = vec![Vec::<char>::new()];
    let mut col = 0usize;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        let line = lines.last_mut().expect("a line");
        match c {
            '\r' => col = 0,
            '\n' => {
                lines.push(Vec::new());
                col = 0;
            }
            '\x1b' => {
                if chars.peek() != Some(&'[') {
                    continue;
                }
                chars.next();
                let mut param = String::new();
                while let Some(&p) = chars.peek() {
                    chars.next();
                    if p.is_ascii_alphabetic() || p == '~' {
                        match p {
                            'K' => line.truncate(col),
                            'C' => col += param.parse::<usize>().unwrap_or(1),
                            _ => {}
                        }
                        break;
                    }
                    param.push(p);
                }
            }
            c if !c.is_control() => {
                while line.len() < col {
                    line.push(' ');
                }
                if col < line.len() {
                    line[col] = c;
                } else {
                    line.push(c);
                }
                col += 1;
            }
            _ => {}
        }
    }
    lines.into_iter().map(|l| l.into_iter().collect()).collect()
}

/// On a terminal, a log line raised while the prompt is shown (here by the
/// game log's writer thread, which cannot open its file) is printed above
/// the prompt, which is then drawn again; it never lands behind the prompt.
/// Runs the server under `script`, which gives it a pseudo-terminal.
#[test]
fn log_lines_print_above_the_prompt_not_over_it() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("tempdir");
    let command = format!(
        "{} --config {} --maps {} --port 0 +map q_dm1",
        env!("CARGO_BIN_EXE_quarry-server"),
        dir.path().display(),
        root().join("maps").display()
    );
    let mut child = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs the server on a pseudo-terminal");
    let mut input = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_secs(3));
    let _ = writeln!(input, "set sv_gameLog {}/missing/games.log", dir.path().display());
    std::thread::sleep(Duration::from_secs(2));
    let _ = writeln!(input, "quit");
    std::thread::sleep(Duration::from_secs(2));
    drop(input);
    let start = std::time::Instant::now();
    while child.try_wait().ok().flatten().is_none() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let out = child.wait_with_output().expect("output");
    let raw = String::from_utf8_lossy(&out.stdout);
    let screen = render(&raw);
    let warn = screen.iter().position(|l| l.contains("WARN") && l.contains("missing/games.log")).unwrap_or_else(|| panic!("no warning on screen:\n{}", screen.join("\n")));
    assert!(!screen[warn].starts_with("] "), "the log line was printed behind the prompt: {:?}", screen[warn]);
    assert!(screen.get(warn + 1).is_some_and(|l| l.starts_with("] ")), "the prompt was not drawn again after the log line:\n{}", screen.join("\n"));
    for l in &screen {
        assert!(!(l.starts_with("] ") && (l.contains(" INFO ") || l.contains(" WARN "))), "a log line behind the prompt: {l:?}\n{}", screen.join("\n"));
    }
}
