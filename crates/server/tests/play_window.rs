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

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use glam::Vec3;
use quarry_map::{Contents, LoadOptions};
use support::TestServer;

/// The map played.
const MAP: &str = "q_duel1";

/// The sky colour the client clears to and draws sky faces in (linear 0..1).
const SKY: [f32; 3] = [0.42, 0.52, 0.68];

fn client_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?;
    let bin = dir.join(format!("quarry-client{}", std::env::consts::EXE_SUFFIX));
    bin.is_file().then_some(bin)
}

fn has_xvfb() -> bool {
    Command::new("xvfb-run").arg("--help").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

fn skip_or_fail(why: &str) {
    if std::env::var_os("QUARRY_REQUIRE_DISPLAY").is_some() {
        panic!("{why}");
    }
    eprintln!("skipping the window test: {why}");
}

/// A screenshot's camera note (`key value…` lines).
struct CameraNote {
    eye: Vec3,
    pitch: f32,
    yaw: f32,
    fov: f32,
    size: (u32, u32),
    scores: bool,
}

fn read_note(path: &Path) -> CameraNote {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let field = |key: &str| -> Vec<f32> {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|rest| rest.split_whitespace().filter_map(|w| w.parse().ok()).collect()))
            .unwrap_or_else(|| panic!("{key} in {text}"))
    };
    let eye = field("eye ");
    let size = field("size ");
    CameraNote {
        eye: Vec3::new(eye[0], eye[1], eye[2]),
        pitch: field("pitch ")[0],
        yaw: field("yaw ")[0],
        fov: field("fov ")[0],
        size: (size[0] as u32, size[1] as u32),
        scores: field("scores ")[0] != 0.0,
    }
}

struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Image {
    fn load(path: &Path) -> Image {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("png header");
        let mut rgba = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut rgba).expect("png data");
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
        Image { width: info.width, height: info.height, rgba }
    }

    fn pixel(&self, x: u32, y: u32) -> [f32; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [0, 1, 2].map(|k| f32::from(self.rgba[i + k]) / 255.0)
    }

    fn distinct_colours(&self) -> usize {
        let mut seen: Vec<[u8; 3]> = self.rgba.chunks_exact(4).step_by(97).map(|p| [p[0] >> 3, p[1] >> 3, p[2] >> 3]).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

fn is_sky(c: [f32; 3]) -> bool {
    c.iter().zip(SKY).all(|(a, b)| (a - b).abs() < 0.04)
}

/// The ray through pixel (x, y) of a camera (Quake angles, Hor+ field of view).
fn ray(note: &CameraNote, x: f32, y: f32) -> Vec3 {
    let (sp, cp) = note.pitch.to_radians().sin_cos();
    let (sy, cy) = note.yaw.to_radians().sin_cos();
    let forward = Vec3::new(cp * cy, cp * sy, -sp);
    let right = forward.cross(Vec3::Z).normalize();
    let up = right.cross(forward);
    let (w, h) = (note.size.0 as f32, note.size.1 as f32);
    let tan_v = (note.fov.to_radians() / 2.0).tan() * 3.0 / 4.0;
    let tan_h = tan_v * w / h;
    let nx = 2.0 * x / w - 1.0;
    let ny = 1.0 - 2.0 * y / h;
    (forward + right * nx * tan_h + up * ny * tan_v).normalize()
}

/// Checks the screenshot against the map: pixels whose ray meets a wall
/// or floor within 800 units are not sky. Returns how many were checked.
fn check_geometry(map: &quarry_map::LoadedMap, shot: &Path) -> usize {
    let note = read_note(&shot.with_extension("camera"));
    let image = Image::load(shot);
    assert_eq!((image.width, image.height), note.size, "{}", shot.display());
    assert!(image.distinct_colours() > 12, "{}: the picture is nearly flat", shot.display());
    let mut checked = 0;
    // A grid over the view, clear of the HUD's top bar and bottom panels.
    for gy in 0..6 {
        for gx in 0..9 {
            let x = image.width as f32 * (0.08 + 0.84 * gx as f32 / 8.0);
            let y = 40.0 + (image.height as f32 - 120.0) * gy as f32 / 5.0;
            let dir = ray(&note, x, y);
            let tr = map.world().trace(note.eye, note.eye + dir * 800.0, Vec3::ZERO, Vec3::ZERO, Contents::SOLID);
            if tr.fraction >= 1.0 || tr.start_solid || tr.contents.contains(Contents::SKY) {
                continue;
            }
            let c = image.pixel(x as u32, y as u32);
            assert!(!is_sky(c), "{}: pixel ({x:.0}, {y:.0}) is sky but the ray meets the map {:.0} units away", shot.display(), tr.fraction * 800.0);
            checked += 1;
        }
    }
    checked
}

/// Runs `quarry-client play ARGS` under Xvfb with the repository's maps,
/// `script` and screenshots into `artifacts` (its output saved there as
/// `client.txt`); returns its standard output, failing the test if it failed.
fn play(client: &Path, args: &[&str], root: &Path, script: &Path, artifacts: &Path) -> String {
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(client)
        .arg("play")
        .args(args)
        .arg("--no-config")
        .arg("--maps")
        .arg(root.join("maps"))
        .arg("--script")
        .arg(script)
        .arg("--screenshots")
        .arg(artifacts)
        .env("LIBGL_ALWAYS_SOFTWARE", "true")
        .stdin(Stdio::null())
        .output()
        .expect("run xvfb-run");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    std::fs::write(artifacts.join("client.txt"), format!("{stdout}\n--- stderr\n{stderr}")).expect("client output");
    assert!(output.status.success(), "play {args:?} failed ({}):\n{stdout}\n{stderr}", output.status);
    stdout
}

/// The client binary, when it and Xvfb are here; else says what is
/// missing (and fails under `QUARRY_REQUIRE_DISPLAY`).
fn window_tools() -> Option<PathBuf> {
    let Some(client) = client_binary() else {
        skip_or_fail("no quarry-client binary beside the test (run `cargo test --workspace`)");
        return None;
    };
    if !has_xvfb() {
        skip_or_fail("xvfb-run is not installed (Debian: xvfb, libgl1-mesa-dri)");
        return None;
    }
    Some(client)
}

/// The number that starts the `--stats` line beginning with `prefix`.
fn first_number<T: std::str::FromStr>(stdout: &str, prefix: &str) -> T {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix)?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no '{prefix}' line:\n{stdout}"))
}

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
