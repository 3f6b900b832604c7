//! Differential test: our parser against the `quake-map` crate on the
//! shared maps it can read (Quake 1 standard and Valve 220). Same entities,
//! same keys, same brushes, same plane points and texture names.
//!
//! Skips (with a line on stderr) when the shared maps are absent.

use std::ffi::CStr;
use std::path::PathBuf;

use super::*;

fn shared_maps() -> Option<PathBuf> {
    let dir = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps"));
    dir.is_dir().then_some(dir)
}

fn cstr(s: &CStr) -> String {
    s.to_string_lossy().into_owned()
}

#[test]
fn matches_quake_map_crate_on_quake1_and_valve_files() {
    let Some(dir) = shared_maps() else {
        eprintln!("skip: shared maps not found (set QUARRY_SHARED_MAPS)");
        return;
    };
    let files = ["q1-standard/dm3.map", "q1-standard/dm4.map", "q1-standard/dm6.map", "valve220/lqdm12.map"];
    for name in files {
        let bytes = std::fs::read(dir.join(name)).expect("read shared map");
        let ours = parse_map(&bytes, &super::ParseLimits::default()).expect("our parse");
        let theirs = quake_map::parse(&mut &bytes[..]).expect("quake-map parse");
        assert_eq!(ours.entities.len(), theirs.entities.len(), "{name}: entity count");
        for (i, (a, b)) in ours.entities.iter().zip(&theirs.entities).enumerate() {
            let keys: Vec<_> = b.edict.iter().map(|(k, v)| (cstr(k), cstr(v))).collect();
            assert_eq!(a.keys, keys, "{name}: entity {i} keys");
            let ours_b: Vec<_> = a.primitives.iter().map(|p| match p {
                Primitive::Brush(b) => b,
                other => panic!("{name}: entity {i}: unexpected {other:?}"),
            }).collect();
            assert_eq!(ours_b.len(), b.brushes.len(), "{name}: entity {i} brush count");
            for (ba, bb) in ours_b.iter().zip(&b.brushes) {
                assert_eq!(ba.faces.len(), bb.len(), "{name}: entity {i}: brush at line {} faces", ba.line);
                for (fa, fb) in ba.faces.iter().zip(bb) {
                    for (pa, pb) in fa.points.iter().zip(&fb.half_space) {
                        assert_eq!(pa.to_array(), *pb, "{name}: brush at line {}", ba.line);
                    }
                    assert_eq!(ours.textures[fa.texture as usize], cstr(&fb.texture));
                }
            }
        }
    }
}
