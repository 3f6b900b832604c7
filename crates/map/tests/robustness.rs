//! Nothing in a file may panic: mangled map text either loads (with
//! warnings) or returns an error.

mod common;

use common::{block, map_with, patch, point_entity};
use glam::Vec3;
use proptest::prelude::*;
use quarry_map::{LoadOptions, load_str};

fn base_map() -> String {
    let row = |y: f32| [Vec3::new(0.0, y, 0.0), Vec3::new(32.0, y, 16.0), Vec3::new(64.0, y, 0.0)];
    map_with(
        &[
            block(Vec3::new(-128.0, -128.0, -16.0), Vec3::new(128.0, 128.0, 0.0), "floor"),
            block(Vec3::new(64.0, -8.0, 0.0), Vec3::new(72.0, 8.0, 64.0), "common/clip"),
            patch("base/p", [row(0.0), row(32.0), row(64.0)]),
        ],
        &format!(
            "{}{}{{\n\"classname\" \"func_door\"\n\"angle\" \"-1\"\n{}}}\n",
            point_entity("info_player_deathmatch", Vec3::new(0.0, 0.0, 40.0)),
            point_entity("item_health", Vec3::new(10.0, 0.0, 20.0)),
            block(Vec3::new(-64.0, -8.0, 0.0), Vec3::new(-56.0, 8.0, 64.0), "door"),
        ),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mangled_text_never_panics(
        edits in prop::collection::vec((0usize..4000, 0usize..40, prop::sample::select(vec!["", "{", "}", "(", ")", "\"", "0", "-1e30", "nan", "patchDef2", "brushDef", "[", "]", "//", "\n", "x y z"])), 1..6)
    ) {
        let mut text = base_map();
        for (at, len, insert) in edits {
            let at = at.min(text.len());
            let end = (at + len).min(text.len());
            text.replace_range(at..end, insert);
        }
        let _ = load_str(&text, "mangled.map", &LoadOptions::default());
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = load_str(&text, "random.map", &LoadOptions::default());
    }
}

#[test]
fn base_map_is_clean() {
    let map = load_str(&base_map(), "base.map", &LoadOptions::default()).expect("loads");
    assert!(map.warnings().is_empty(), "{:?}", map.warnings());
    assert!(map.check_playable().is_ok());
}
