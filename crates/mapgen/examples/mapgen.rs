//! Writes a generated corpus: `cargo run -p quarry-mapgen --example mapgen -- DIR [SEED] [PER_KIND]`.
//! Each map is `DIR/NAME.map` with its answer beside it as `DIR/NAME.answer.json`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: mapgen DIR [SEED] [PER_KIND]");
        return ExitCode::from(2);
    };
    let number = |i: usize, default: u64| args.get(i).map_or(Ok(default), |s| s.parse::<u64>());
    let (Ok(seed), Ok(per_kind)) = (number(1, 1), number(2, 1)) else {
        eprintln!("mapgen: SEED and PER_KIND are whole numbers");
        return ExitCode::from(2);
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("mapgen: {}: {e}", dir.display());
        return ExitCode::from(1);
    }
    let maps = quarry_mapgen::corpus(seed, per_kind);
    for m in &maps {
        let answer = match serde_json::to_string_pretty(&m.answer) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("mapgen: {}: {e}", m.name);
                return ExitCode::from(1);
            }
        };
        for (path, text) in [(dir.join(format!("{}.map", m.name)), &m.text), (dir.join(format!("{}.answer.json", m.name)), &answer)] {
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("mapgen: {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
    }
    println!("{} maps in {}", maps.len(), dir.display());
    ExitCode::SUCCESS
}
