//! Mutation fuzzing of the loader (issue 13): mutants of the repository's
//! maps (and the shared maps when present) either load or fail with an
//! error; they never panic, and what loads stays within the load budgets.
//!
//! Bounded for CI: `QUARRY_FUZZ_CASES` (default 400) mutants from seed
//! `QUARRY_FUZZ_SEED` (default 13). `scripts/fuzz.sh maps N` runs a longer
//! campaign through `crates/nav/examples/fuzz_maps.rs`.

mod common;

use std::path::PathBuf;

use quarry_map::fuzz::Mutator;
use quarry_map::{LoadOptions, load_str};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The repository's maps, plus the shared ones when present.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let mut paths: Vec<PathBuf> = ["q_dm1.map", "q_ctf1.map", "q_duel1.map"].iter().map(|n| repo.join(n)).collect();
    if let Some(dir) = common::shared_maps_dir("fuzz_map_text") {
        paths.extend(common::maps_below(&dir));
    }
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), bytes)
        })
        .collect()
}

#[test]
fn mutants_load_or_fail_cleanly_within_budgets() {
    let corpus = corpus();
    let cases = env_or("QUARRY_FUZZ_CASES", 400);
    let seed = env_or("QUARRY_FUZZ_SEED", 13);
    let options = LoadOptions::default();
    let (mut loaded, mut rejected) = (0, 0);
    for case in 0..cases {
        let case_seed = seed.wrapping_mul(1_000_003).wrapping_add(case);
        let mut m = Mutator::new(case_seed);
        let (name, base) = &corpus[(case_seed % corpus.len() as u64) as usize];
        let (mutant, mutations) = m.mutate(base, 4);
        let text = String::from_utf8_lossy(&mutant);
        let result = std::panic::catch_unwind(|| load_str(&text, name, &options));
        let Ok(result) = result else {
            panic!("seed {case_seed} ({name}, {mutations:?}) panicked; replay with QUARRY_FUZZ_SEED");
        };
        match result {
            Ok(map) => {
                loaded += 1;
                assert!(map.entities().len() <= options.max_entities, "seed {case_seed}");
                assert!(map.brush_count() <= options.max_primitives, "seed {case_seed}");
                let c = map.world().hull_counts();
                assert!(c.patch_triangles <= options.max_patch_triangles, "seed {case_seed}");
                assert!(map.world().movers().count() <= options.max_movers, "seed {case_seed}");
                if let Some((lo, hi)) = map.world().bounds() {
                    let extent = lo.abs().max(hi.abs()).max_element();
                    assert!(extent <= options.world_limit, "seed {case_seed}: world reaches {extent}");
                }
            }
            Err(_) => rejected += 1,
        }
    }
    println!("{cases} mutants from seed {seed}: {loaded} loaded, {rejected} rejected with an error");
    assert_eq!(loaded + rejected, cases);
    assert!(loaded > 0, "some mutants still load");
}
