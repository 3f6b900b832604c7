//! `quarry-server map-info FILE [--json] [--obj OUT.obj]`: what the map
//! loader makes of a .map file, without starting a server.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Runs the map-info tool; prints to stdout, errors to stderr.
pub fn run(path: &Path, json: bool, obj: Option<&Path>) -> ExitCode {
    let map = match quarry_map::load(path, &quarry_map::LoadOptions::default()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("quarry-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let info = map.info();
    // A closed pipe (`| head`) just ends the output; it is not an error worth a panic.
    let mut stdout = std::io::stdout().lock();
    if json {
        match serde_json::to_string_pretty(&info) {
            Ok(text) => {
                let _ = writeln!(stdout, "{text}");
            }
            Err(e) => {
                eprintln!("quarry-server: couldn't encode map info as JSON: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        let text = info.to_string();
        let _ = write!(stdout, "{text}");
        if !text.ends_with('\n') {
            let _ = writeln!(stdout);
        }
        if let Err(reason) = map.check_playable() {
            let _ = writeln!(stdout, "not playable: {reason} (the server refuses to start a match on it)");
        }
    }
    if let Some(out) = obj {
        let mut bytes = Vec::new();
        if let Err(e) = map.write_obj(&mut bytes) {
            eprintln!("quarry-server: couldn't build OBJ: {e}");
            return ExitCode::FAILURE;
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = quarry_console::write_atomic(out, &text) {
            eprintln!("quarry-server: {e}");
            return ExitCode::FAILURE;
        }
        if !json {
            let _ = writeln!(stdout, "wrote collision geometry to {}", out.display());
        }
    }
    ExitCode::SUCCESS
}
