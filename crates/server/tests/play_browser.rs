//! Issue 50's server list in the first-person client, end to end with the
//! real programs: a real dpmaster 2.2 on loopback, two `quarry-server`s
//! heartbeating it, and `quarry-client play` given no server, under Xvfb.
//!
//! Checks: the window lists both servers with their names, maps, humans
//! and bots apart (the screenshot's note says what each row holds, and
//! each row's band of the picture holds drawn text); sorting by name
//! orders them; picking one by name and joining it plays on that
//! server's map (the picture is checked against the map); the join
//! pinned the fingerprint the listing gave and remembered it in the known
//! servers file; `disconnect` comes back to the list, which says why.
//!
//! Needs what the listing test needs to build dpmaster (`cc`, `make`) and
//! what the window test needs (`xvfb-run`, the `quarry-client` binary);
//! without them it says so and passes, unless `QUARRY_REQUIRE_LISTING` or
//! `QUARRY_REQUIRE_DISPLAY` is set (`.ci/run` sets both).

mod support;

use std::net::{SocketAddr, UdpSocket};
use std::path::Path;
use std::time::{Duration, Instant};

use quarry_map::LoadOptions;
use quarry_net::oob::q3;
use support::TestServer;
use support::dpmaster::{Dpmaster, skip_or_fail};
use support::window::{Image, check_geometry, play, read_note, window_tools};

/// A server list screenshot's note: the row picked, the message, and each
/// row's baseline and cells.
struct ListNote {
    picked: usize,
    message: String,
    rows: Vec<(f32, Vec<String>)>,
}

fn read_list_note(path: &Path) -> ListNote {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(text.starts_with("screen servers\n"), "{}: not the server list:\n{text}", path.display());
    let mut note = ListNote { picked: 0, message: String::new(), rows: Vec::new() };
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("picked ") {
            note.picked = n.parse().expect("picked row");
        } else if let Some(m) = line.strip_prefix("message ") {
            note.message = m.to_owned();
        } else if let Some(row) = line.strip_prefix("row ") {
            let mut words = row.splitn(3, ' ');
            let (_, y, cells) = (words.next(), words.next().expect("baseline"), words.next().expect("cells"));
            note.rows.push((y.parse().expect("baseline"), cells.split('\t').map(str::to_owned).collect()));
        }
    }
    note
}

/// Bright text pixels in the band of a row whose baseline is `y`.
fn text_pixels(image: &Image, y: f32) -> usize {
    let top = (y - 20.0).max(0.0) as u32;
    let bottom = (y + 4.0).min(image.height as f32 - 1.0) as u32;
    (top..bottom).flat_map(|py| (0..image.width).map(move |px| (px, py))).filter(|&(x, y)| image.pixel(x, y).iter().all(|c| *c > 0.8)).count()
}

/// Waits until `server` answers `getinfo` with `bots` bots in the game
/// (bots join once the map's navigation is built).
fn wait_for_bots(server: SocketAddr, bots: &str) {
    let socket = UdpSocket::bind("127.0.0.1:0").expect("socket");
    socket.set_read_timeout(Some(Duration::from_millis(200))).expect("timeout");
    let end = Instant::now() + Duration::from_secs(60);
    let mut buf = [0u8; 2048];
    while Instant::now() < end {
        let _ = socket.send_to(&q3::getinfo("ready"), server);
        if let Ok((n, _)) = socket.recv_from(&mut buf)
            && q3::parse_info_response(&buf[..n]).is_ok_and(|pairs| pairs.iter().any(|(k, v)| k == "bots" && v == bots))
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("{server} never had {bots} bots");
}

#[test]
fn the_play_window_lists_the_servers_and_joins_one() {
    let Some(client) = window_tools() else { return };
    let master = match Dpmaster::start() {
        Ok(m) => m,
        Err(why) => return skip_or_fail(&why),
    };
    let start = |name: &str, map: &str, bots: &str| {
        TestServer::start(&[
            "+set", "sv_public", "1", "+set", "sv_master1", &master.addr(), "+set", "sv_hostname", name, "+set", "bot_minPlayers", bots,
            "+set", "timelimit", "0", "+set", "fraglimit", "0", "+map", map,
        ])
    };
    let alpha = start("Alpha Arena", "q_dm1", "2");
    let beta = start("Beta Base", "q_duel1", "3");
    wait_for_bots(alpha.addr, "2");
    wait_for_bots(beta.addr, "3");
    let listed = master.wait_for(true, Duration::from_secs(10), |l| [alpha.addr, beta.addr].iter().all(|a| l.contains(a)));
    assert!(listed.contains(&alpha.addr) && listed.contains(&beta.addr), "dpmaster lists {listed:?}");

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play_browser");
    let _ = std::fs::remove_dir_all(&artifacts);
    std::fs::create_dir_all(&artifacts).expect("artifact folder");
    let known = artifacts.join("known_servers");
    let script = artifacts.join("script.txt");
    std::fs::write(
        &script,
        "3.0 screenshot list.png\n3.1 sort name\n3.2 screenshot sorted.png\n3.3 select beta\n3.4 join\n\
         4.5 screenshot game.png\n4.6 +forward\n5.4 -forward\n5.5 disconnect\n\
         7.5 screenshot back.png\n7.6 quit\n",
    )
    .expect("script");
    let (master_addr, known_arg) = (master.addr(), known.display().to_string());
    let stdout = play(&client, &["--master", &master_addr, "--list-timeout", "1", "--name", "tester", "--known-servers", &known_arg, "--stats"], &root, &script, &artifacts);

    // Both servers are listed, humans and bots apart, and drawn.
    let list = read_list_note(&artifacts.join("list.camera"));
    let image = Image::load(&artifacts.join("list.png"));
    for (name, map, bots) in [("Alpha Arena", "q_dm1", "2"), ("Beta Base", "q_duel1", "3")] {
        let (y, cells) = list.rows.iter().find(|(_, c)| c[0] == name).unwrap_or_else(|| panic!("{name} is not listed: {:?}", list.rows));
        assert_eq!((cells[1].as_str(), cells[3].as_str(), cells[4].as_str()), (map, "0", bots), "{name}'s row: {cells:?}");
        assert!(text_pixels(&image, *y) > 40, "{name}'s row at {y} holds no text in list.png");
    }
    assert!(list.picked >= 1, "a server is picked at first");
    let sorted = read_list_note(&artifacts.join("sorted.camera"));
    let names: Vec<&str> = sorted.rows.iter().map(|(_, c)| c[0].as_str()).collect();
    assert_eq!(names, ["Alpha Arena", "Beta Base"], "sorted by name");

    // The server picked was joined: the picture is its map.
    let options = LoadOptions::default();
    let map = quarry_map::load(root.join("maps/q_duel1.map"), &options).expect("Beta's map");
    let checked = check_geometry(&map, &artifacts.join("game.png"));
    assert!(checked >= 5, "only {checked} pixels had Beta's map within 800 units");
    let in_game = std::fs::read_to_string(artifacts.join("game.camera")).expect("game note");
    assert!(!in_game.starts_with("screen servers"), "game.png shows the list:\n{in_game}");
    let _ = read_note(&artifacts.join("game.camera"));

    // Pinned by the listed fingerprint, and remembered.
    let remembered = std::fs::read_to_string(&known).expect("the known servers file was written");
    assert!(remembered.contains(&format!("{} {}", beta.addr, beta.fingerprint)), "{remembered}");
    assert!(!remembered.contains(&alpha.addr.to_string()), "only the server joined is remembered:\n{remembered}");

    // `disconnect` came back to the list, which says so.
    let back = read_list_note(&artifacts.join("back.camera"));
    assert!(back.message.contains("left the game"), "the list says {:?}", back.message);
    assert_eq!(back.rows.len(), 2, "{:?}", back.rows);
    assert!(stdout.contains("travelled: "), "the game's figures are printed:\n{stdout}");
}
