//! The live web view's frame: built from the match and the bots' minds and
//! encoded as JSON on the tick thread, for a 64-player match (target:
//! under 200 µs): with no mind asked for (the usual frame), four (a viewer
//! following a few bots) and all 64 (the most viewers can ask).

use criterion::{Criterion, criterion_group, criterion_main};
use quarry_server::cli::PlusCommand;
use quarry_server::server::{Server, ServerOptions};
use quarry_server::web::{FrameBot, WebFrame};

fn plus(name: &str, args: &[&str]) -> PlusCommand {
    PlusCommand { name: name.to_owned(), args: args.iter().map(|a| (*a).to_owned()).collect() }
}

/// 64 bots on q_dm1, a few seconds in.
fn busy_server(dir: &std::path::Path) -> Server {
    let maps = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let options = ServerOptions { config_dir: dir.to_owned(), port: None, fast: true, maps_dir: maps, seed: Some(1), botfiles_dir: None };
    let mut server = match Server::new(&options) {
        Ok(s) => s,
        Err(e) => panic!("server setup failed: {e}"),
    };
    let mut commands = vec![plus("set", &["sv_maxclients", "64"]), plus("set", &["timelimit", "0"]), plus("set", &["fraglimit", "0"]), plus("map", &["q_dm1"])];
    commands.extend((0..64).map(|_| plus("addbot", &[])));
    server.startup(&commands);
    for _ in 0..300 {
        server.tick();
    }
    server
}

fn web_frame(c: &mut Criterion) {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("tempdir: {e}"),
    };
    let mut s = busy_server(dir.path());
    let bots = &s.state.bots;
    let Some(game) = s.state.game.running.as_mut() else { panic!("a match") };
    let players = game.slots().iter().count();
    assert_eq!(players, 64, "64 players");
    let frame = |game: &mut quarry_sim::Match, minds: usize| {
        let mut f = WebFrame::build(game, "q_dm1");
        f.bots = bots.overlays(|slot| usize::from(slot.0) < minds).iter().map(FrameBot::from_overlay).collect();
        f.to_json()
    };
    for minds in [0, 4, 64] {
        let bytes = frame(game, minds).len();
        eprintln!("web frame of {players} players with {minds} minds: {bytes} bytes of JSON");
        c.bench_function(&format!("server/web_frame_64_players_{minds}_minds"), |b| b.iter(|| frame(game, minds)));
    }
}

criterion_group!(benches, web_frame);
criterion_main!(benches);
