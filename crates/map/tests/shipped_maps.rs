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

#[test]
fn a_map_loaded_from_its_bytes_is_the_map_loaded_from_its_file() {
    // What a client does with a downloaded copy: the same bytes give the
    // same world.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_duel1.map");
    let options = LoadOptions::default();
    let (from_file, bytes) = quarry_map::load_with_bytes(&path, &options).expect("load");
    assert_eq!(bytes, std::fs::read(&path).expect("read"));
    let from_bytes = quarry_map::load_source(&bytes, "q_duel1.map", &options).expect("load bytes");
    assert_eq!(from_file.info().brushes, from_bytes.info().brushes);
    assert_eq!(from_file.entities().len(), from_bytes.entities().len());
    let mut small = LoadOptions::default();
    small.max_file_bytes = 10;
    assert!(matches!(quarry_map::load_source(&bytes, "q_duel1.map", &small), Err(quarry_map::MapLoadError::TooLarge { .. })));
}
