//! Load time per shared map: parse, hulls, entities, collision world and
//! spawn checks, from file bytes on disk (page cache warm).
//!
//! `cargo bench -p quarry-map --bench map_load`. Target: at most 100 ms per map.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use quarry_map::LoadOptions;

fn map_load(c: &mut Criterion) {
    let options = LoadOptions::default();
    let mut group = c.benchmark_group("map_load");
    group.sample_size(20);
    for path in support::bench_maps() {
        if let Err(e) = quarry_map::load(&path, &options) {
            eprintln!("skip {}: {e}", path.display());
            continue;
        }
        group.bench_function(support::short_name(&path), |b| {
            b.iter(|| quarry_map::load(&path, &options).map(|m| m.brush_count()).unwrap_or(0));
        });
    }
    group.finish();
}

criterion_group!(benches, map_load);
criterion_main!(benches);
