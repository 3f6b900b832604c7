//! `quarry-client play` end to end under Xvfb and Mesa's software
//! renderer: the real server with bots, the real window, a scripted
//! player that walks, turns, hunts a bot and fires at it, and opens the
//! scoreboard.
//!
//! Checks: the screenshots show the map where the camera says (pixels on
//! rays that hit a wall or floor are not sky), the player moved and the
//! prediction ends where the server has it, damage was dealt (the game
//! log's damage line), and the scoreboard was drawn on Tab. Screenshots
//! stay in `target/tmp/play_window/` as artifacts.
//!
//! And `play --demo`: a golden recording played from a player's eyes,
//! paused, seeked and followed from another player and flying free; the
//! eye is where the replayed match has the followed player at the tick
//! drawn.
//!
//! Needs `xvfb-run` and the `quarry-client` binary beside this test's
//! (`cargo test --workspace` builds it). Without them the test says so
//! and passes, unless `QUARRY_REQUIRE_DISPLAY=1` (set by `.ci/run`).

mod support;

use std::path::Path;

use glam::Vec3;
use quarry_map::LoadOptions;
use support::TestServer;
use support::window::{Image, check_geometry, first_number, play, read_note, window_tools};

/// The map played.
const MAP: &str = "q_duel1";

/// One window at a time: the live test's player must find a bot in time,
/// which a second software-rendered window on two cores would slow.
static ONE_WINDOW: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_scripted_player_plays_in_the_window() {
    let _window = ONE_WINDOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let Some(client) = window_tools() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play_window");
    let _ = std::fs::remove_dir_all(&artifacts);
    std::fs::create_dir_all(&artifacts).expect("artifact folder");
    let log = artifacts.join("games.log");
    let log_arg = log.display().to_string();
    // A small map, so the scripted player meets a bot within seconds.
    let server = TestServer::start(&[
        "+set", "sv_gameLog", &log_arg, "+set", "bot_minPlayers", "4", "+set", "fraglimit", "0", "+set", "timelimit", "0", "+map",
        MAP,
    ]);
    let script = artifacts.join("script.txt");
    std::fs::write(
        &script,
        "0.5 screenshot start.png\n0.6 +forward\n1.6 turn 60\n2.2 -forward\n2.3 screenshot walked.png\n\
         2.4 hunt\n2.5 +attack\n13.0 -attack\n13.0 hunt off\n\
         13.0 +scores\n13.5 screenshot scores.png\n13.6 -scores\n13.8 quit\n",
    )
    .expect("script");
    let address = format!("quarry://{}/#{}", server.addr, server.fingerprint);
    let stdout = play(&client, &[&address, "--name", "tester", "--no-remember", "--stats"], &root, &script, &artifacts);

    // The map is drawn where the camera says.
    let options = LoadOptions::default();
    let map = quarry_map::load(root.join(format!("maps/{MAP}.map")), &options).expect("the test's map");
    let checked: usize = ["start.png", "walked.png"].iter().map(|s| check_geometry(&map, &artifacts.join(s))).sum();
    assert!(checked >= 10, "only {checked} pixels had the map within 800 units");

    // The scoreboard was open for its screenshot, and drawn: its title row holds yellow text.
    let note = read_note(&artifacts.join("scores.camera"));
    assert!(note.scores);
    let image = Image::load(&artifacts.join("scores.png"));
    let yellow = image.rgba.chunks_exact(4).filter(|p| p[0] > 230 && p[1] > 190 && p[1] < 235 && p[2] < 110).count();
    assert!(yellow > 200, "no scoreboard title in scores.png ({yellow} yellow pixels)");

    // The player moved, and the prediction ends where the server has it.
    let travelled: f32 = first_number(&stdout, "travelled: ");
    assert!(travelled > 100.0, "the player moved only {travelled} units:\n{stdout}");
    let origins = stdout.lines().find(|l| l.starts_with("origin: ")).unwrap_or_else(|| panic!("no origin line:\n{stdout}"));
    // A bot may kill the player in the last moment: a dead player predicts nothing.
    if !origins.contains("not predicted") {
        let numbers: Vec<f32> = origins.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).filter_map(|w| w.parse().ok()).collect();
        assert_eq!(numbers.len(), 6, "{origins}");
        let (predicted, authoritative) = (Vec3::new(numbers[0], numbers[1], numbers[2]), Vec3::new(numbers[3], numbers[4], numbers[5]));
        assert!(predicted.distance(authoritative) < 32.0, "prediction ended at {predicted}, the server at {authoritative}");
    }
    // The hits the player dealt came back as snapshot events (the hit marker's).
    let hits: u32 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("events: ")?.split(", ").find_map(|p| p.strip_suffix(" hits")?.parse().ok()))
        .unwrap_or_else(|| panic!("no events line:\n{stdout}"));
    assert!(hits > 0, "no hit events reached the player:\n{stdout}");
    let sounds: u32 = first_number(&stdout, "sounds: ");
    assert!(sounds > 0, "a fight with bots made no sound:\n{stdout}");

    // Damage was dealt: the game log's damage line for the player, written when it left.
    drop(server);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let given: u64 = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r["event"] == "damage" && r["player"]["name"] == "tester")
        .filter_map(|r| r["given"].as_u64())
        .sum();
    assert!(given > 0, "the player dealt no damage; game log:\n{text}\nclient:\n{stdout}");
}

/// The origin of `slot` at match tick `tick` of the recording at `path`,
/// from the server's own replay (built and stepped as `quarry-server
/// replay` does).
fn replayed_origin(path: &Path, slot: u8, tick: u32) -> Vec3 {
    use quarry_server::modes::replay;
    let rec = replay::open(path, &replay::ReplayOptions::default()).expect("the recording");
    let scratch = replay::scratch().expect("scratch");
    let maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps");
    let mut server = replay::build(&rec, scratch.path(), Some(&maps)).expect("the replayed match");
    for t in rec.ticks() {
        if server.state.game.running.as_ref().is_some_and(|g| g.tick() >= tick) {
            break;
        }
        replay::step(&mut server, &t.expect("a tick")).expect("the replay");
    }
    let game = server.state.game.running.as_ref().expect("a match");
    assert_eq!(game.tick(), tick, "the recording ends before tick {tick}");
    game.own_view(quarry_sim::SlotId(slot)).unwrap_or_else(|| panic!("slot {slot} has no player at tick {tick}")).origin
}

/// A demo note's tick and followed slot.
fn demo_fields(path: &Path) -> (f64, i32) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let field = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)?.trim().parse::<f64>().ok()).unwrap_or_else(|| panic!("{key} in {text}"));
    (field("demo_tick "), field("demo_slot ") as i32)
}

#[test]
fn a_demo_plays_from_a_players_eyes() {
    let _window = ONE_WINDOW.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let Some(client) = window_tools() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let demo = root.join("crates/server/tests/replays/ffa.qdemo");
    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play_demo");
    let _ = std::fs::remove_dir_all(&artifacts);
    std::fs::create_dir_all(&artifacts).expect("artifact folder");
    let script = artifacts.join("script.txt");
    // Pausing puts the view exactly on a tick (a tick behind the newest),
    // so the eye can be checked against the replayed match.
    std::fs::write(
        &script,
        "0.8 demo_pause\n1.0 screenshot first.png\n1.1 demo_pause\n\
         1.2 demo_seek 6\n1.3 follow next\n2.0 demo_pause\n2.2 screenshot next.png\n\
         2.3 demo_seek -3\n2.4 screenshot back.png\n\
         2.5 follow free\n2.6 +forward\n3.4 -forward\n3.5 screenshot free.png\n3.6 quit\n",
    )
    .expect("script");
    let demo_arg = demo.display().to_string();
    play(&client, &["--demo", &demo_arg], &root, &script, &artifacts);

    let rec = quarry_record::read(&demo).expect("the recording");
    let name = quarry_server::modes::replay::plain_map_name(&rec.header.map_name).expect("the map's name");
    let map = quarry_map::load(root.join(format!("maps/{name}.map")), &LoadOptions::default()).expect("the map");
    let checked: usize = ["first.png", "next.png", "back.png"].iter().map(|s| check_geometry(&map, &artifacts.join(s))).sum();
    assert!(checked >= 10, "only {checked} pixels had the map within 800 units");

    // Paused, the eye is the followed player's, at the tick drawn, raised by the view height.
    let mut followed = Vec::new();
    for shot in ["first", "next"] {
        let note = read_note(&artifacts.join(format!("{shot}.camera")));
        let (tick, slot) = demo_fields(&artifacts.join(format!("{shot}.camera")));
        assert!(slot >= 0 && tick.fract() == 0.0, "{shot}: paused on a player at a whole tick, not {tick} (slot {slot})");
        let origin = replayed_origin(&demo, slot as u8, tick as u32);
        assert!(note.eye.truncate().distance(origin.truncate()) < 0.5, "{shot}: eye {} but slot {slot} is at {origin} at tick {tick}", note.eye);
        let height = note.eye.z - origin.z;
        assert!((-20.0..=40.0).contains(&height), "{shot}: eye {height} units above the player");
        followed.push((slot, tick));
    }
    assert_ne!(followed[0].0, followed[1].0, "`follow next` watches another player");
    assert!(followed[1].1 >= 6.0 * f64::from(rec.header.hz) - 1.0, "seeking to 6 s drew tick {}", followed[1].1);
    let (back, _) = demo_fields(&artifacts.join("back.camera"));
    assert!(back < followed[1].1, "seeking back drew tick {back} after {}", followed[1].1);

    // Flying free: nobody followed, and the camera moved.
    let free = read_note(&artifacts.join("free.camera"));
    let (_, slot) = demo_fields(&artifacts.join("free.camera"));
    assert_eq!(slot, -1);
    let from = read_note(&artifacts.join("back.camera")).eye;
    assert!(free.eye.distance(from) > 100.0, "the free camera stayed at {} (from {from})", free.eye);
}
