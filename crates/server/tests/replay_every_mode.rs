//! Every game type recorded and replayed in process, with bots and a
//! remote client (a slot whose commands arrive with 60 ms of latency and
//! which lag compensation rewinds for: all the sim knows of a remote
//! player): the replay's summary equals the original's and every stored
//! hash matches. And the golden replays: short recordings of each game type
//! kept in `tests/replays/`, which must replay exactly. A change of play
//! updates them in the same commit:
//!
//! ```text
//! QUARRY_BLESS_REPLAYS=1 cargo test -p quarry-server --test replay_every_mode
//! ```

use std::path::{Path, PathBuf};

use quarry_server::cli::PlusCommand;
use quarry_server::recording;
use quarry_server::modes::replay::{self, ReplayOptions};
use quarry_server::server::{Server, ServerOptions};
use quarry_sim::slots::ClientKind;
use quarry_sim::{Buttons, SlotId, UserCmd, UserInfo};

/// A game type, its map and seed.
const MODES: [(&str, &str, u64); 7] =
    [("ffa", "q_dm1", 31), ("duel", "q_duel1", 32), ("tdm", "q_dm1", 33), ("ctf", "q_ctf1", 34), ("1fctf", "q_ctf1", 35), ("ft", "q_dm1", 36), ("ca", "q_dm1", 37)];

/// Ticks each match plays (10 s at 60 Hz).
const TICKS: u32 = 600;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn plus(name: &str, args: &[&str]) -> PlusCommand {
    PlusCommand { name: name.into(), args: args.iter().map(|a| (*a).to_owned()).collect() }
}

/// The remote client's command for tick `t`: it runs, turns, jumps and
/// fires now and then, and switches weapons.
fn visitor_cmd(t: u32) -> UserCmd {
    let mut buttons = Buttons::default();
    if t % 90 < 20 {
        buttons = buttons.with(Buttons::ATTACK);
    }
    if t.is_multiple_of(150) {
        buttons = buttons.with(Buttons::JUMP);
    }
    UserCmd {
        tick: t,
        yaw: (t as f32 * 1.7) % 360.0,
        pitch: ((t as f32 * 0.05).sin() * 20.0),
        forward: if t % 200 < 150 { 127 } else { -60 },
        right: if t % 120 < 60 { 40 } else { -40 },
        buttons,
        weapon: if t.is_multiple_of(240) { 2 } else { 0 },
        ..UserCmd::default()
    }
}

/// Plays `TICKS` ticks of `gametype` on `map` with three bots and the
/// visitor (who connects at tick 20 and enters at tick 50), recording into
/// `path` with the map stored by its hash; returns the summary's JSON.
fn record(gametype: &str, map: &str, seed: u64, path: &Path) -> String {
    let config = tempfile::tempdir().expect("tempdir");
    for name in ["server.cfg", "items.toml", "weapons.toml", "sounds.toml"] {
        std::fs::copy(root().join("config").join(name), config.path().join(name)).expect("copy shipped config");
    }
    let botfiles = root().join("botfiles");
    let options = ServerOptions { config_dir: config.path().to_owned(), port: None, fast: true, maps_dir: root().join("maps"), seed: Some(seed), botfiles_dir: Some(botfiles.clone()) };
    let mut server = Server::new(&options).expect("server");
    server.startup(&[
        plus("set", &["g_gametype", gametype]),
        plus("set", &["bot_minPlayers", "4"]),
        plus("set", &["timelimit", "5"]),
        plus("set", &["fraglimit", "0"]),
        plus("set", &["sv_recordMapByHash", "1"]),
        plus("map", &[map]),
    ]);
    assert!(server.state.startup_error.is_none(), "{:?}", server.state.startup_error);
    server.start_recording(path, Some(&botfiles)).expect("start recording");
    let mut visitor: Option<SlotId> = None;
    let started = std::time::Instant::now();
    for _ in 0..TICKS {
        let game = server.state.game.running.as_mut().expect("match");
        let t = game.tick() + 1;
        if t == 20 {
            let info = UserInfo { name: "visitor".into(), model: "grunt".into(), team_pref: None, handicap: 100 };
            visitor = Some(game.connect(ClientKind::Remote { latency_ms: 60 }, info).expect("connect"));
        }
        if let Some(id) = visitor {
            if t == 50 {
                game.enter_game(id).expect("enter");
            }
            if t == 300
                && let Some(s) = game.slots_mut().get_mut(id)
            {
                s.kind = ClientKind::Remote { latency_ms: 90 };
            }
            if t >= 50 {
                game.push_cmd(id, visitor_cmd(t)).expect("push");
            }
        }
        server.tick();
    }
    let summary = server.summary(started.elapsed()).expect("summary");
    let game = server.state.game.running.as_ref().expect("match");
    assert!(game.slots().iter().any(|(_, s)| s.userinfo.name == "visitor"), "the visitor played");
    assert!(game.slots().bots() >= 2, "bots played {gametype}");
    server.take_recording().expect("recorder").finish(Some(&summary)).expect("finish");
    serde_json::to_string(&summary).expect("json")
}

/// Replays `path` (maps from the repository) and compares its summary.
fn replay(path: &Path) -> Result<u32, String> {
    let options = ReplayOptions { force: false, maps_dir: Some(root().join("maps")) };
    let (server, ticks, rec) = replay::replay(path, &options).map_err(|e| e.to_string())?;
    let mine = server.summary(std::time::Duration::from_secs(1)).ok_or("no summary")?;
    let footer = rec.footer.ok_or("no footer")?;
    assert!(!footer.summary.is_empty(), "the recording has its summary");
    recording::summary::merge(&footer.summary, &mine).map_err(|e| e.to_string())?;
    Ok(ticks)
}

#[test]
fn every_game_type_with_bots_and_a_remote_client_replays_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (gametype, map, seed) in MODES {
        let path = dir.path().join(format!("{gametype}.qdemo"));
        record(gametype, map, seed, &path);
        let rec = quarry_record::read(&path).expect("read");
        assert!(rec.header.map_text.is_none(), "sv_recordMapByHash stores the hash only");
        let remote_join = rec.ticks().flat_map(|t| t.expect("tick").journal).any(|e| matches!(e, quarry_record::JournalEntry::Join { client, .. } if client.latency_ms == Some(60) && client.joined_tick == 19));
        assert!(remote_join, "{gametype}: the visitor's join is recorded with its latency and the tick it connected");
        let ticks = replay(&path).unwrap_or_else(|e| panic!("{gametype} on {map}: {e}"));
        assert_eq!(ticks, TICKS, "{gametype}");
    }
}

/// The committed golden replays.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays")
}

#[test]
fn the_golden_replays_replay_exactly() {
    if std::env::var_os("QUARRY_BLESS_REPLAYS").is_some() {
        std::fs::create_dir_all(golden_dir()).expect("replays folder");
        for (gametype, map, seed) in MODES {
            record(gametype, map, seed, &golden_dir().join(format!("{gametype}.qdemo")));
        }
    }
    let mut failed = Vec::new();
    for (gametype, _, _) in MODES {
        let path = golden_dir().join(format!("{gametype}.qdemo"));
        if let Err(e) = replay(&path) {
            failed.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(
        failed.is_empty(),
        "golden replays no longer replay:\n  {}\nIf play changed on purpose, record them again in the same commit (QUARRY_BLESS_REPLAYS=1 cargo test -p quarry-server --test replay_every_mode) and say why",
        failed.join("\n  ")
    );
}
