//! Every map Quarry ships (`maps/*.map` at the workspace root) loads, has
//! spawn points, every spawn fits the player box, and no brush is skipped.
//! Passes with zero maps.

mod common;

use std::path::PathBuf;

use common::count_primitives;
use quarry_map::LoadOptions;

#[test]
fn every_shipped_map_loads_and_is_playable() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let mut maps: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "map")).collect())
        .unwrap_or_default();
    maps.sort();
    eprintln!("checking {} shipped maps in {}", maps.len(), dir.display());
    for path in &maps {
        let name = path.display();
        let map = quarry_map::load(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        map.check_playable().unwrap_or_else(|e| panic!("{name}: {e}"));
        for (id, spawn) in map.spawn_points() {
            assert!(spawn.fits, "{name}: spawn entity {} is inside solid", id.0);
        }
        let info = map.info();
        assert!(info.skipped.is_empty(), "{name}: skipped {:?}", info.skipped);
        let text = std::fs::read_to_string(path).expect("read");
        assert_eq!((info.brushes, info.patches), count_primitives(&text), "{name}: brush and patch counts");
    }
}
