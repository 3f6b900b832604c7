//! The service's two build modes: on the calling thread and in the
//! background (generation counter, failures, same mesh either way).

use std::time::{Duration, Instant};

use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

use super::*;

fn settings() -> Settings {
    Settings {
        warmup: false,
        ..Settings::default()
    }
}

fn shipped(name: &str) -> Match {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../maps/{name}.map"));
    let map = quarry_map::load(path, &quarry_map::LoadOptions::default()).expect("shipped map loads");
    Match::new(map, &GameData::default(), settings(), 1, Slots::new(4), 60).expect("match")
}

/// A sealed box with a spawn point but nothing to stand on: the sides and
/// the roof are there, the floor is not.
fn floorless() -> Match {
    let block = |lo: [f32; 3], hi: [f32; 3]| quarry_map::source::box_brush(lo.into(), hi.into(), "base");
    let walls = [
        block([-512.0, -512.0, 4096.0], [512.0, 512.0, 4112.0]),
        block([-528.0, -512.0, -4096.0], [-512.0, 512.0, 4112.0]),
        block([512.0, -512.0, -4096.0], [528.0, 512.0, 4112.0]),
        block([-512.0, -528.0, -4096.0], [512.0, -512.0, 4112.0]),
        block([-512.0, 512.0, -4096.0], [512.0, 528.0, 4112.0]),
    ]
    .concat();
    let text = format!(
        "{{\n\"classname\" \"worldspawn\"\n{walls}}}\n{{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"0 0 3900\"\n}}\n"
    );
    let map = quarry_map::load_str(&text, "floorless", &quarry_map::LoadOptions::default()).expect("loads");
    Match::new(map, &GameData::default(), settings(), 1, Slots::new(4), 60).expect("match")
}

/// Polls until the wanted build is picked up; returns the console line.
fn wait_ready(nav: &mut NavService) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(line) = nav.poll() {
            return line;
        }
        assert!(Instant::now() < deadline, "no build finished within 60 s: {}", nav.describe());
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_background_build_is_picked_up_by_poll_and_matches_a_foreground_one() {
    let game = shipped("q_duel1");
    let mut foreground = NavService::default();
    foreground.ensure(&game, 24.0).expect("builds");
    assert!(!foreground.is_building() && foreground.mesh().is_some(), "built on the caller's thread");

    let mut nav = NavService::default();
    nav.set_background(true);
    nav.ensure(&game, 24.0).expect("started");
    assert!(nav.is_building() && nav.mesh().is_none(), "{}", nav.describe());
    assert!(nav.describe().contains("building"), "{}", nav.describe());
    assert!(nav.navigator(game.map().world()).is_none(), "no navigator while building");
    // Asking again while it builds starts nothing new.
    nav.ensure(&game, 24.0).expect("still building");
    assert_eq!(nav.builds(), 1);
    let line = wait_ready(&mut nav);
    assert!(line.contains("ready") && line.contains("q_duel1"), "{line}");
    let (a, b) = (foreground.mesh().expect("mesh"), nav.mesh().expect("mesh"));
    assert_eq!((a.node_count(), a.link_count(), a.area_count()), (b.node_count(), b.link_count(), b.area_count()));
    nav.ensure(&game, 24.0).expect("ready");
    assert_eq!((nav.builds(), nav.discarded()), (1, 0));
}

#[test]
fn a_newer_build_discards_the_older_ones_result() {
    let (first, second) = (shipped("q_dm1"), shipped("q_duel1"));
    let mut nav = NavService::default();
    nav.set_background(true);
    nav.ensure(&first, 24.0).expect("started");
    nav.ensure(&second, 24.0).expect("started");
    let line = wait_ready(&mut nav);
    assert!(line.contains("q_duel1"), "{line}");
    assert!(nav.describe().contains("q_duel1.map ready"), "{}", nav.describe());
    // The first build finishes too, whenever it does, and is dropped.
    let deadline = Instant::now() + Duration::from_secs(60);
    while nav.discarded() == 0 {
        assert!(nav.poll().is_none(), "only one build was wanted");
        assert!(Instant::now() < deadline, "the first build never reported");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(nav.describe().contains("q_duel1.map ready"), "{}", nav.describe());
    assert_eq!(nav.builds(), 2);
}

#[test]
fn a_failed_background_build_is_reported_once_and_not_retried() {
    let game = floorless();
    let mut nav = NavService::default();
    nav.set_background(true);
    nav.ensure(&game, 24.0).expect("started");
    let line = wait_ready(&mut nav);
    assert!(line.starts_with("navmesh: floorless: map cannot host bots"), "{line}");
    assert!(!nav.is_building() && nav.mesh().is_none());
    let again = nav.ensure(&game, 24.0).expect_err("remembered");
    assert!(matches!(again, NavBuildError::Build { .. }), "{again:?}");
    assert_eq!(nav.builds(), 1, "not retried for the same map");
    assert!(nav.describe().contains("failed"), "{}", nav.describe());
}

#[test]
fn build_now_replaces_a_running_background_build() {
    let game = shipped("q_duel1");
    let mut nav = NavService::default();
    nav.set_background(true);
    nav.ensure(&game, 24.0).expect("started");
    nav.build_now(&game, 24.0).expect("built here");
    assert!(nav.mesh().is_some() && !nav.is_building());
    let deadline = Instant::now() + Duration::from_secs(60);
    while nav.discarded() == 0 {
        assert!(nav.poll().is_none(), "the background result is not wanted");
        assert!(Instant::now() < deadline, "the background build never reported");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(nav.mesh().is_some());
}

/// A point on one of q_ctf1's jump pads settles where the pad sends a
/// player; a point on open floor stays.
#[test]
fn a_point_on_a_jump_pad_settles_where_the_pad_lands() {
    let game = shipped("q_ctf1");
    let mut nav = NavService::default();
    nav.ensure(&game, 24.0).expect("builds");
    let mut navigator = nav.navigator(game.map().world()).expect("ready");
    let on_pad = glam::Vec3::new(-384.0, -512.0, -96.0);
    let landed = navigator.settle(on_pad);
    assert!(landed.distance(on_pad) > 200.0, "the pad sends it away: {landed:?}");
    let open = navigator.nearest(glam::Vec3::new(-1500.0, -250.0, 40.0), 96.0).expect("floor");
    assert_eq!(navigator.settle(open), open, "open floor stays");
}
