//! Issue 13, "no input kills or starves the server": map files built to
//! exhaust memory or time. Before the fix `quarry-server nav-info` on
//! `q_dm1` plus two floor slabs a million units apart tried to allocate
//! 27.8 GB; `map` on a symlink to `/dev/zero` was OOM-killed at 24 GB; a
//! FIFO named `x.map` hung startup; one 200,000-face brush took 30 s.
//!
//! Each case must now load (or fail) quickly with a warning or error that
//! names the limit and where the offending content is.

mod common;

use glam::{DVec3, Vec3};
use quarry_map::source::{box_brush_f64, point_entity, with_far_slabs};
use quarry_map::{Budget, LoadOptions, MapLoadError, SkipReason, WarningKind, load, load_str};

/// The repository's own `q_dm1.map` (not a shared map).
fn q_dm1() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    std::fs::read_to_string(&path).expect("maps/q_dm1.map in the repository")
}

fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("quarry-map-issue13-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn skips(map: &quarry_map::LoadedMap) -> Vec<&SkipReason> {
    map.skipped().iter().map(|s| &s.reason).collect()
}

#[test]
fn far_slabs_are_skipped_and_their_spawns_dropped() {
    let base = load_str(&q_dm1(), "q_dm1.map", &LoadOptions::default()).expect("q_dm1 loads");
    // Slabs 2e5 and 2e6 apart, and 2e10 apart (wider, so they survive f32).
    for (distance, half) in [(1.0e5, 256.0), (1.0e6, 256.0), (1.0e10, 8192.0)] {
        let text = with_far_slabs(&q_dm1(), distance, half, "quarry/floor");
        let map = load_str(&text, "slabs.map", &LoadOptions::default()).expect("loads");
        let outside: Vec<_> = map.skipped().iter().filter(|s| matches!(s.reason, SkipReason::OutsideWorld { .. })).collect();
        assert_eq!(outside.len(), 2, "{distance}: both slabs skipped: {:?}", map.skipped());
        let text_of = |w: &quarry_map::MapWarning| w.to_string();
        let slab_warning = map.warnings().iter().map(text_of).find(|w| w.contains("outside the world limit")).expect("slab warning");
        // File, line, entity and brush index, then the limit.
        assert!(slab_warning.starts_with("slabs.map:") && slab_warning.contains(" brush 0: ") && slab_warning.contains("65536"), "{slab_warning}");
        let dropped: Vec<_> = map.warnings().iter().filter(|w| matches!(w.kind, WarningKind::OutsideWorld { .. })).collect();
        assert_eq!(dropped.len(), 2, "{distance}: both spawns dropped");
        assert!(dropped[0].to_string().contains("info_player_deathmatch"), "{}", dropped[0]);
        assert_eq!(map.spawn_points().count(), base.spawn_points().count(), "{distance}");
        assert_eq!(map.world().bounds(), base.world().bounds(), "{distance}: nothing of the slabs is in the world");
        assert_eq!(map.entities().len(), base.entities().len() + 4, "dropped entities keep their slots");
    }
}

#[test]
fn a_brush_with_200k_faces_is_skipped_by_the_face_budget() {
    let mut brush = String::from("{\n");
    let faces: usize = 200_000;
    for k in 0..faces {
        let a = std::f64::consts::TAU * k as f64 / faces as f64;
        let (x, y) = (512.0 * a.cos(), 512.0 * a.sin());
        brush += &format!("( {x} {y} 0 ) ( {x} {y} 64 ) ( {} {} 0 ) wall 0 0 0 1 1\n", x - a.sin(), y + a.cos());
    }
    brush += "}\n";
    let floor = box_brush_f64(DVec3::new(-64.0, -64.0, -16.0), DVec3::new(64.0, 64.0, 0.0), "floor");
    let text = format!("{{\n\"classname\" \"worldspawn\"\n{floor}{brush}}}\n");
    let map = load_str(&text, "faces.map", &LoadOptions::default()).expect("loads");
    assert_eq!(skips(&map), vec![&SkipReason::TooManyFaces { faces, limit: 256 }]);
    let w = map.warnings()[0].to_string();
    assert!(w.contains("entity 0 brush 1") && w.contains("200000 faces") && w.contains("256"), "{w}");
    assert_eq!(map.world().hull_counts().solid_brushes, 1, "the floor still loads");
}

#[test]
fn huge_and_non_finite_numbers_skip_only_their_brush() {
    let far = box_brush_f64(DVec3::new(1.0e300, 0.0, 0.0), DVec3::new(1.1e300, 64.0, 64.0), "wall");
    let inf = "{\n( 0 0 0 ) ( 0 1 0 ) ( 1e400 0 0 ) wall 0 0 0 1 1\n}\n";
    let nan = "{\n( 0 0 0 ) ( 0 1 0 ) ( nan 0 0 ) wall 0 0 0 1 1\n}\n";
    let floor = box_brush_f64(DVec3::new(-64.0, -64.0, -16.0), DVec3::new(64.0, 64.0, 0.0), "floor");
    let text = format!("{{\n\"classname\" \"worldspawn\"\n{floor}{far}{inf}{nan}}}\n");
    let map = load_str(&text, "huge.map", &LoadOptions::default()).expect("loads");
    let reasons = skips(&map);
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert_eq!(reasons[0], &SkipReason::NonFinite);
    assert!(matches!(reasons[1], SkipReason::Parse { message } if message.contains("1e400")), "{reasons:?}");
    assert!(matches!(reasons[2], SkipReason::Parse { message } if message.contains("nan")), "{reasons:?}");
    assert_eq!(map.world().hull_counts().solid_brushes, 1);
}

#[test]
fn a_patch_beyond_the_world_is_skipped() {
    let row = |y: f32| [Vec3::new(0.0, y, 0.0), Vec3::new(32.0, y, 16.0), Vec3::new(1.0e6, y, 0.0)];
    let text = common::map_with(&[common::patch("base/p", [row(0.0), row(32.0), row(64.0)])], "");
    let map = load_str(&text, "patch.map", &LoadOptions::default()).expect("loads");
    assert!(matches!(skips(&map)[..], [SkipReason::OutsideWorld { .. }]), "{:?}", map.skipped());
    assert!(map.skipped()[0].is_patch);
}

#[test]
fn patch_triangles_have_a_total_budget() {
    let row = |y: f32| [Vec3::new(0.0, y, 0.0), Vec3::new(32.0, y, 64.0), Vec3::new(64.0, y, 0.0)];
    let patches: Vec<String> = (0..10).map(|_| common::patch("base/p", [row(0.0), row(32.0), row(64.0)])).collect();
    let text = common::map_with(&patches, "");
    let one = load_str(&common::map_with(&patches[..1], ""), "one.map", &LoadOptions::default()).expect("loads");
    let per_patch = one.world().hull_counts().patch_triangles;
    assert!(per_patch > 0);
    let mut options = LoadOptions::default();
    options.max_patch_triangles = per_patch * 3;
    let map = load_str(&text, "patches.map", &options).expect("loads");
    let over = map.skipped().iter().filter(|s| matches!(s.reason, SkipReason::OverBudget { budget: Budget::PatchTriangles, .. })).count();
    assert_eq!(over, 7, "{:?}", map.skipped());
    assert_eq!(map.world().hull_counts().patch_triangles, per_patch * 3);
}

#[test]
fn entity_key_and_primitive_budgets_drop_the_excess_with_one_warning() {
    // Past the defaults: 9,000 entities (8,192 allowed), 70,000 empty brushes (65,536).
    let floor = box_brush_f64(DVec3::new(-64.0, -64.0, -16.0), DVec3::new(64.0, 64.0, 0.0), "floor");
    let mut text = format!("{{\n\"classname\" \"worldspawn\"\n{floor}");
    text += &"{\n}\n".repeat(70_000);
    text += "}\n";
    for i in 0..9_000 {
        text += &point_entity("info_null", DVec3::new(f64::from(i % 100), 0.0, 0.0));
    }
    let map = load_str(&text, "many.map", &LoadOptions::default()).expect("loads");
    assert_eq!(map.entities().len(), 8_192);
    let budget = |b: Budget| {
        map.warnings()
            .iter()
            .find_map(|w| match &w.kind {
                WarningKind::OverBudget { budget, limit, dropped } if *budget == b => Some((*limit, *dropped, w.to_string())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {b:?} warning"))
    };
    let (limit, dropped, text_e) = budget(Budget::Entities);
    assert_eq!((limit, dropped), (8_192, 9_001 - 8_192));
    assert!(text_e.contains("entity 8192") && text_e.contains("max_entities"), "{text_e}");
    let (limit, dropped, text_p) = budget(Budget::Primitives);
    assert_eq!((limit, dropped), (65_536, 70_001 - 65_536));
    assert!(text_p.contains("entity 0 brush 65536"), "{text_p}");
    assert_eq!(map.brush_count(), 65_536, "the floor and the empty brushes within the budget");

    let mut keys = String::from("{\n\"classname\" \"worldspawn\"\n");
    keys += &"\"k\" \"v\"\n".repeat(70_000);
    keys += "}\n";
    let map = load_str(&keys, "keys.map", &LoadOptions::default()).expect("loads");
    assert_eq!(map.entities()[0].keys.len(), 65_536);
    assert!(map.warnings().iter().any(|w| matches!(w.kind, WarningKind::OverBudget { budget: Budget::Keys, dropped: 4_465, .. })));
}

#[test]
fn movers_past_the_budget_lose_their_brushes() {
    let door = |x: f64| {
        format!(
            "{{\n\"classname\" \"func_door\"\n{}}}\n",
            box_brush_f64(DVec3::new(x, 0.0, 0.0), DVec3::new(x + 8.0, 64.0, 64.0), "door")
        )
    };
    let floor = box_brush_f64(DVec3::new(-64.0, -64.0, -16.0), DVec3::new(256.0, 64.0, 0.0), "floor");
    let text = format!("{{\n\"classname\" \"worldspawn\"\n{floor}}}\n{}{}{}", door(0.0), door(64.0), door(128.0));
    let mut options = LoadOptions::default();
    options.max_movers = 2;
    let map = load_str(&text, "doors.map", &options).expect("loads");
    assert_eq!(map.world().movers().count(), 2);
    assert_eq!(skips(&map), vec![&SkipReason::OverBudget { budget: Budget::Movers, limit: 2 }]);
    assert_eq!(map.skipped()[0].location.entity, Some(3));
}

#[test]
fn deep_nesting_and_long_tokens_end_quickly() {
    let nested = format!("{{\n\"classname\" \"worldspawn\"\n{}", "{ ".repeat(1_000_000));
    let err = load_str(&nested, "nested.map", &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, MapLoadError::Parse { .. }), "{err}");
    let long = format!("{{\n\"classname\" \"worldspawn\"\n\"message\" \"{}\"\n{{\n( 0 0 0 ) ( 0 1 0 ) ( 1 0 0 ) {}\n}}\n}}\n", "m".repeat(4 << 20), "t".repeat(4 << 20));
    let map = load_str(&long, "long.map", &LoadOptions::default()).expect("loads");
    assert_eq!(map.world_info().message.as_ref().map(String::len), Some(4 << 20));
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_before_reading() {
    let dir = temp_dir("special");
    let options = LoadOptions::default();
    // A symlink to /dev/zero: an endless stream.
    let zero = dir.join("zero.map");
    let _ = std::fs::remove_file(&zero);
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
    let err = load(&zero, &options).unwrap_err();
    assert!(matches!(err, MapLoadError::NotARegularFile { kind: "a character device", .. }), "{err:?}");
    assert!(err.to_string().contains("zero.map") && err.to_string().contains("regular file"), "{err}");
    // A directory named like a map.
    let sub = dir.join("x.map");
    std::fs::create_dir_all(&sub).expect("dir");
    let err = load(&sub, &options).unwrap_err();
    assert!(matches!(err, MapLoadError::NotARegularFile { kind: "a directory", .. }), "{err:?}");
    // A FIFO: opening it for reading would block until a writer comes.
    let fifo = dir.join("fifo.map");
    let _ = std::fs::remove_file(&fifo);
    match std::process::Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {
            let err = load(&fifo, &options).unwrap_err();
            assert!(matches!(err, MapLoadError::NotARegularFile { kind: "a FIFO", .. }), "{err:?}");
        }
        other => eprintln!("skip the FIFO case: mkfifo unavailable ({other:?})"),
    }
}

#[test]
fn oversized_files_are_refused_without_reading_them() {
    let dir = temp_dir("size");
    let path = dir.join("huge.map");
    let file = std::fs::File::create(&path).expect("create");
    // Sparse: 1 TiB of holes costs no disk.
    file.set_len(1 << 40).expect("set_len");
    let err = load(&path, &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, MapLoadError::TooLarge { size, limit, .. } if size == 1 << 40 && limit == 64 << 20), "{err:?}");
    assert!(err.to_string().contains("huge.map") && err.to_string().contains("67108864"), "{err}");
    // The limit is an option; one byte over it is refused, at it accepted.
    let text = common::map_with(&[], "");
    std::fs::write(&path, &text).expect("write");
    let mut options = LoadOptions::default();
    options.max_file_bytes = text.len() as u64 - 1;
    assert!(matches!(load(&path, &options), Err(MapLoadError::TooLarge { .. })));
    options.max_file_bytes = text.len() as u64;
    assert!(load(&path, &options).is_ok());
    let _ = std::fs::remove_file(&path);
}

#[test]
fn brush_building_work_has_a_total_budget() {
    // Cylinders of 126 sides and two caps: 18 ms each to build, so a file
    // of them used to take minutes. Ten of them against a budget for four.
    let cylinder = |cx: f64| {
        let mut s = String::from("{\n");
        for k in 0..126 {
            let a = std::f64::consts::TAU * f64::from(k) / 126.0;
            let (x, y) = (cx + 64.0 * a.cos(), 64.0 * a.sin());
            s += &format!("( {x} {y} 0 ) ( {x} {y} 64 ) ( {} {} 0 ) wall 0 0 0 1 1\n", x - a.sin(), y + a.cos());
        }
        s += &format!("( {cx} 1 0 ) ( {cx} 0 0 ) ( {} 0 0 ) wall 0 0 0 1 1\n", cx + 1.0);
        s += &format!("( {} 0 64 ) ( {cx} 0 64 ) ( {cx} 1 64 ) wall 0 0 0 1 1\n", cx + 1.0);
        s += "}\n";
        s
    };
    let brushes: Vec<String> = (0..10).map(|i| cylinder(f64::from(i) * 256.0)).collect();
    let text = format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n", brushes.concat());
    let mut options = LoadOptions::default();
    options.max_brush_work = 4 * 128u64.pow(3);
    let map = load_str(&text, "cylinders.map", &options).expect("loads");
    assert_eq!(map.world().hull_counts().solid_brushes, 4);
    let over = SkipReason::OverBudget { budget: Budget::BrushWork, limit: options.max_brush_work as usize };
    assert_eq!(skips(&map), vec![&over; 6]);
    assert!(map.warnings()[0].to_string().contains("max_brush_work"), "{}", map.warnings()[0]);
    // The default budget takes all ten.
    let map = load_str(&text, "cylinders.map", &LoadOptions::default()).expect("loads");
    assert_eq!(map.world().hull_counts().solid_brushes, 10);
}
