//! Loading errors are clear and specific, and a map without spawn points
//! loads but is refused by `check_playable`.

mod common;

use common::{block, map_with, point_entity};
use glam::Vec3;
use quarry_map::{LoadOptions, MapLoadError, NotPlayable, WarningKind, load, load_str};

fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("quarry-map-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

#[test]
fn missing_file() {
    let err = load("/nonexistent/dir/nothing.map", &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, MapLoadError::NotFound { .. }), "{err:?}");
    assert!(err.to_string().contains("not found"), "{err}");
}

#[test]
fn not_a_map() {
    let bsp = temp_file("level.bsp", b"IBSP\x2e\x00\x00\x00");
    let err = load(&bsp, &LoadOptions::default()).unwrap_err();
    assert!(matches!(&err, MapLoadError::NotAMap { reason, .. } if reason.contains(".bsp")), "{err:?}");
    let binary = temp_file("binary.map", b"IBSP\x2e\x00\x00\x00");
    let err = load(&binary, &LoadOptions::default()).unwrap_err();
    assert!(matches!(&err, MapLoadError::NotAMap { reason, .. } if reason.contains("entity")), "{err:?}");
    let empty = temp_file("empty.map", b"  \n");
    let err = load(&empty, &LoadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
}

#[test]
fn no_worldspawn() {
    let err = load_str(&point_entity("info_player_start", Vec3::ZERO), "nw.map", &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, MapLoadError::NoWorldspawn { .. }), "{err:?}");
    assert_eq!(err.to_string(), "nw.map: no worldspawn entity");
}

#[test]
fn parse_error_has_line_and_entity() {
    let text = format!("{}{{\n\"classname\" \"light\"\n\"origin\" \"0 0 0\"\n", map_with(&[], ""));
    let err = load_str(&text, "broken.map", &LoadOptions::default()).unwrap_err();
    let MapLoadError::Parse { line, entity, message, .. } = &err else { panic!("{err:?}") };
    assert_eq!(*entity, Some(1));
    assert_eq!(*line, 7);
    assert!(message.contains("end of file"), "{message}");
    assert!(err.to_string().starts_with("broken.map:7: entity 1: parse error"), "{err}");
}

#[test]
fn bad_brushes_warn_with_location_and_the_rest_loads() {
    let floor = block(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(256.0, 256.0, 0.0), "floor");
    // A brush whose three face points are collinear, and one that is open.
    let collinear = "{\n( 0 0 0 ) ( 1 1 1 ) ( 2 2 2 ) x 0 0 0 1 1\n( 0 0 64 ) ( 1 0 64 ) ( 0 1 64 ) x 0 0 0 1 1\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) x 0 0 0 1 1\n( 8 0 0 ) ( 8 0 1 ) ( 8 1 0 ) x 0 0 0 1 1\n}\n".to_string();
    let open = "{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) x 0 0 0 1 1\n( 8 0 0 ) ( 8 0 1 ) ( 8 1 0 ) x 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) x 0 0 0 1 1\n( 0 8 0 ) ( 1 8 0 ) ( 0 8 1 ) x 0 0 0 1 1\n}\n".to_string();
    let text = map_with(&[floor, collinear, open], &point_entity("info_player_deathmatch", Vec3::new(0.0, 0.0, 40.0)));
    let map = load_str(&text, "bad.map", &LoadOptions::default()).expect("loads despite bad brushes");
    assert_eq!(map.brush_count(), 3);
    assert_eq!(map.skipped().len(), 2);
    let w: Vec<String> = map.warnings().iter().map(ToString::to_string).collect();
    assert!(w[0].starts_with("bad.map:11: entity 0 brush 1: skipped: face 0 has collinear points"), "{w:?}");
    assert!(w[1].starts_with("bad.map:17: entity 0 brush 2: skipped: open brush"), "{w:?}");
    assert!(map.check_playable().is_ok());
}

#[test]
fn no_spawn_points_loads_but_is_not_playable() {
    let text = map_with(&[block(Vec3::splat(-64.0), Vec3::splat(64.0), "x")], "");
    let map = load_str(&text, "nospawn.map", &LoadOptions::default()).expect("loads");
    assert_eq!(map.check_playable(), Err(NotPlayable::NoSpawnPoints));
}

#[test]
fn spawn_inside_solid_warns_and_is_not_playable() {
    let text = map_with(
        &[block(Vec3::splat(-256.0), Vec3::splat(256.0), "x")],
        &point_entity("info_player_deathmatch", Vec3::ZERO),
    );
    let map = load_str(&text, "stuck.map", &LoadOptions::default()).expect("loads");
    assert_eq!(map.check_playable(), Err(NotPlayable::AllSpawnsInSolid { count: 1 }));
    assert!(map.warnings().iter().any(|w| w.kind == WarningKind::SpawnInSolid && w.location.entity == Some(1)));
}

#[test]
fn spawn_on_the_floor_is_nudged_up() {
    let floor = block(Vec3::new(-256.0, -256.0, -16.0), Vec3::new(256.0, 256.0, 0.0), "floor");
    // Quake 1 style: origin exactly 24 above the floor, so the box touches it.
    let text = map_with(&[floor], &point_entity("info_player_deathmatch", Vec3::new(0.0, 0.0, 24.0)));
    let map = load_str(&text, "nudge.map", &LoadOptions::default()).expect("loads");
    let (_, spawn) = map.spawn_points().next().expect("a spawn");
    assert!(spawn.fits);
    assert_eq!(spawn.spawn_origin, Vec3::new(0.0, 0.0, 25.0));
}
