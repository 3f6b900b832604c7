//! The tick loop's own cost: one `Server::tick` with no match loaded (cvar
//! sync, timing bookkeeping, health file check). Later issues add the
//! simulation, bots and snapshots to the same tick and to this table.

use criterion::{Criterion, criterion_group, criterion_main};
use quarry_server::server::{Server, ServerOptions};

fn tick_loop(c: &mut Criterion) {
    let dir = std::env::temp_dir();
    let options = ServerOptions { config_dir: dir, port: None, fast: true, maps_dir: "maps".into(), seed: Some(1), botfiles_dir: None };
    let mut server = match Server::new(&options) {
        Ok(s) => s,
        Err(e) => panic!("server setup failed: {e}"),
    };
    server.startup(&[]);
    c.bench_function("server/tick_empty", |b| b.iter(|| server.tick()));
}

criterion_group!(benches, tick_loop);
criterion_main!(benches);
