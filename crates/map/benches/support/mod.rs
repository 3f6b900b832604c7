//! Shared bench helpers: finding the shared maps and sampling moves.
#![allow(dead_code, reason = "each bench binary uses a subset of the helpers")]

use std::path::PathBuf;

use glam::Vec3;
use quarry_map::{Contents, LoadedMap, Trace};

/// The Quake 3 player box: 30 x 30 x 56.
pub(crate) const MINS: Vec3 = Vec3::new(-15.0, -15.0, -24.0);
/// See [`MINS`].
pub(crate) const MAXS: Vec3 = Vec3::new(15.0, 15.0, 32.0);

/// Every `*.map` under the shared maps directory (`QUARRY_SHARED_MAPS`,
/// default `<workspace>/../shared/maps`), plus the shipped `maps/*.map`.
pub(crate) fn bench_maps() -> Vec<PathBuf> {
    let shared = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps"));
    let mut out = Vec::new();
    for sub in std::fs::read_dir(&shared).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(sub.path()).into_iter().flatten().flatten() {
            if f.path().extension().is_some_and(|e| e == "map") {
                out.push(f.path());
            }
        }
    }
    if out.is_empty() {
        eprintln!("note: no shared maps under {} (set QUARRY_SHARED_MAPS)", shared.display());
    }
    out.sort();
    out
}

/// A short display name: `dialect-dir/file`.
pub(crate) fn short_name(path: &std::path::Path) -> String {
    let file = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match path.parent().and_then(|p| p.file_name()) {
        Some(dir) => format!("{}/{file}", dir.to_string_lossy()),
        None => file,
    }
}

/// A small deterministic xorshift generator.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// Uniform in `lo..hi`.
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }

    /// A uniformly random unit vector.
    pub(crate) fn direction(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
}

/// `count` moves of `length` units in random directions, each starting at a
/// point inside the map where the player box fits: near a random point
/// entity (spawns, items, lights: they sit inside the playable space).
pub(crate) fn sample_moves(map: &LoadedMap, count: usize, length: f32, seed: u64) -> Vec<(Vec3, Vec3)> {
    let anchors: Vec<Vec3> = map.entities().iter().filter(|e| e.bounds.is_none()).filter_map(|e| e.origin).collect();
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && !anchors.is_empty() && tries < count * 100 {
        tries += 1;
        let i = (rng.range(0.0, anchors.len() as f32) as usize).min(anchors.len() - 1);
        let start = anchors[i] + Vec3::new(rng.range(-48.0, 48.0), rng.range(-48.0, 48.0), rng.range(-16.0, 16.0));
        if map.fits(start, MINS, MAXS, Contents::MASK_PLAYER_SOLID) {
            out.push((start, start + rng.direction() * length));
        }
    }
    out
}
