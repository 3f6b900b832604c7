//! Every shared map (real Quake 1, Valve 220, Quake 3 and Quake 3 brushDef
//! files under `../shared/maps`) loads without panic, with the file's brush
//! and patch counts, and with every spawn point's player box fitting.
//!
//! Finds the maps through `QUARRY_SHARED_MAPS` (default
//! `<workspace>/../shared/maps`); when absent it prints a skip line and
//! passes, unless `QUARRY_REQUIRE_SHARED_MAPS=1`.

mod common;

use common::{PLAYER_MAXS, PLAYER_MINS, count_primitives, maps_below, shared_maps_dir};
use quarry_map::{Contents, Dialect, LoadOptions, Trace};

#[test]
fn every_shared_map_loads_with_its_brushes_and_fitting_spawns() {
    let Some(dir) = shared_maps_dir("shared_maps") else { return };
    let maps = maps_below(&dir);
    assert!(!maps.is_empty(), "no .map files under {}", dir.display());
    let options = LoadOptions::default();
    for path in &maps {
        let name = path.display();
        let text = std::fs::read_to_string(path).expect("read map");
        let map = quarry_map::load(path, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let info = map.info();

        let (brushes, patches) = count_primitives(&text);
        assert_eq!(info.brushes, brushes, "{name}: brush count");
        assert_eq!(info.patches, patches, "{name}: patch count");
        let skipped_brushes = info.skipped.iter().filter(|s| !s.is_patch).count();
        assert_eq!(info.hulls + info.nonsolid_brushes + skipped_brushes, brushes, "{name}: every brush accounted for");
        for s in &info.skipped {
            eprintln!("{name}: skipped {}: {}", s.location, s.reason);
        }

        let expected = match path.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()) {
            Some("q1-standard") => Some(Dialect::Quake1),
            Some("valve220") => Some(Dialect::Valve220),
            Some("q3") => Some(Dialect::Quake3),
            Some("q3-brushdef") => Some(Dialect::Quake3BrushDef),
            _ => None,
        };
        if let Some(d) = expected {
            assert_eq!(map.dialect(), d, "{name}: dialect");
        }

        assert!(map.check_playable().is_ok(), "{name}: {:?}", map.check_playable());
        let mut n = 0;
        for (id, spawn) in map.spawn_points() {
            let origin = map.entity(id).and_then(|e| e.origin).expect("spawn origin");
            let nudge = spawn.spawn_origin.z - origin.z;
            assert!(spawn.fits, "{name}: spawn entity {} at {origin} is inside solid", id.0);
            assert!((0.0..=options.max_spawn_nudge).contains(&nudge), "{name}: nudge {nudge}");
            let tr = map.trace(spawn.spawn_origin, spawn.spawn_origin, PLAYER_MINS, PLAYER_MAXS, Contents::MASK_PLAYER_SOLID);
            assert!(!tr.start_solid, "{name}: spawn entity {} start_solid", id.0);
            n += 1;
        }
        assert!(n > 0, "{name}: no spawn points");
        eprintln!("{name}: {} brushes, {} patches ({} triangles), {} spawns, {:.1} ms", brushes, patches, info.patch_triangles, n, info.load_time_ms);
    }
}

#[test]
fn shared_maps_summaries_serialize_and_export() {
    let Some(dir) = shared_maps_dir("shared_maps") else { return };
    for path in maps_below(&dir) {
        let map = quarry_map::load(&path, &LoadOptions::default()).expect("loads");
        let info = map.info();
        let json = serde_json::to_value(&info).expect("json");
        assert_eq!(json["brushes"].as_u64(), Some(info.brushes as u64));
        assert!(json["dialect"].is_string());
        let text = info.to_string();
        assert!(text.contains("brushes:") && text.contains("spawns:"), "{text}");
        let mut obj = Vec::new();
        map.write_obj(&mut obj).expect("obj");
        let obj = String::from_utf8(obj).expect("utf8");
        let faces = obj.lines().filter(|l| l.starts_with("f ")).count();
        assert!(faces >= 12 * info.hull_counts.solid_brushes / 2, "{}: {faces} faces", path.display());
    }
}
