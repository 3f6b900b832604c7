//! A recording played to one viewer (`quarry-client play --demo`): the
//! viewer is sent what the followed player's client would have been, the
//! replay still checks every stored hash, seeking either way lands on the
//! tick asked for, and a free camera hears only what everyone hears.

use std::path::{Path, PathBuf};

use quarry_net::handshake::CS_MOVEMENT;
use quarry_net::reliable::{ChatScope, ServerMessage};
use quarry_net::snapshot::PF_SPECTATOR;
use quarry_net::transport::ClientEvent;
use quarry_server::modes::demo::{DemoFeed, FREE_CAMERA_SLOT, Viewpoint};
use quarry_server::modes::replay::ReplayOptions;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn open(name: &str) -> DemoFeed {
    let options = ReplayOptions { force: false, maps_dir: Some(root().join("maps")) };
    DemoFeed::open(&root().join("crates/server/tests/replays").join(name), &options).expect("the golden recording opens")
}

fn snapshots(events: &[ClientEvent]) -> Vec<&quarry_net::snapshot::Snapshot> {
    events.iter().filter_map(|e| if let ClientEvent::Snapshot(s) = e { Some(s) } else { None }).collect()
}

#[test]
fn the_viewer_sees_the_followed_players_game_tick_by_tick() {
    let mut feed = open("ca.qdemo");
    assert!(feed.step().expect("the first tick"));
    let first = feed.take_events();
    let Some(ClientEvent::Welcomed(w)) = first.first() else { panic!("the viewer is welcomed first: {first:?}") };
    let Some(Viewpoint::Player(slot)) = feed.viewpoint() else { panic!("the first player in the game is followed") };
    assert_eq!(w.slot, slot.0);
    assert!(w.config_strings.iter().any(|(i, _)| *i == CS_MOVEMENT), "the movement settings are told (empty: Quake 3's)");
    assert_eq!(u32::from(w.tick_rate), feed.hz());

    let mut ticks = Vec::new();
    let mut heard = 0;
    while feed.step().expect("the replay keeps to the recorded hashes") {
        let events = feed.take_events();
        heard += events.iter().filter(|e| matches!(e, ClientEvent::Message(ServerMessage::Print(_) | ServerMessage::Chat { .. }))).count();
        let snaps = snapshots(&events);
        assert_eq!(snaps.len(), 1, "one snapshot a tick");
        let s = snaps[0];
        ticks.push(s.server_tick);
        assert!(s.entities.windows(2).all(|p| p[0].id < p[1].id), "entities sorted by id");
        assert_eq!(s.player.flags & PF_SPECTATOR, 0, "a followed player is not a spectator");
    }
    assert!(feed.at_end());
    assert!(ticks.windows(2).all(|p| p[1] == p[0] + 1), "a snapshot for every tick, in order");
    assert_eq!(ticks.last().copied(), Some(feed.tick()));
    assert!(heard > 0, "a round of clan arena starts with a line everyone hears");
}

#[test]
fn seeking_lands_on_the_tick_asked_for_either_way() {
    let mut feed = open("ffa.qdemo");
    let hz = feed.hz();
    feed.seek(5 * hz).expect("forward");
    assert_eq!(feed.tick(), 5 * hz);
    let events = feed.take_events();
    assert!(matches!(events.first(), Some(ClientEvent::Welcomed(_))), "a seek starts the view over");
    assert_eq!(snapshots(&events).len(), 1, "only the state there is sent, not the ticks skipped");
    let forward = snapshots(&events)[0].player.origin;

    feed.seek(2 * hz).expect("back");
    assert_eq!(feed.tick(), 2 * hz);
    feed.take_events();
    feed.seek(5 * hz).expect("forward again");
    let again = feed.take_events();
    assert_eq!(snapshots(&again)[0].player.origin, forward, "the match built again plays the same");

    feed.seek(u32::MAX).expect("past the end");
    assert!(feed.at_end());
    assert_eq!(feed.tick(), feed.last_tick());
}

#[test]
fn another_player_or_a_free_camera() {
    let mut feed = open("ctf.qdemo");
    feed.seek(3 * feed.hz()).expect("seek");
    feed.take_events();
    let players = feed.players();
    assert!(players.len() >= 2, "{players:?}");
    let other = players[1].clone();
    assert_eq!(feed.player_named(&other.name.to_uppercase()), Some(other.slot), "names match regardless of case");
    feed.set_viewpoint(Viewpoint::Player(other.slot));
    let events = feed.take_events();
    let Some(ClientEvent::Welcomed(w)) = events.first() else { panic!("welcomed again: {events:?}") };
    assert_eq!(w.slot, other.slot.0);

    feed.set_viewpoint(Viewpoint::Free);
    let events = feed.take_events();
    let Some(ClientEvent::Welcomed(w)) = events.first() else { panic!("welcomed again: {events:?}") };
    assert_eq!(w.slot, FREE_CAMERA_SLOT);
    let snap = snapshots(&events)[0];
    assert_eq!(snap.player.flags & PF_SPECTATOR, PF_SPECTATOR, "a free camera has no player of its own");
    let players_seen = snap.entities.iter().filter(|e| e.kind == quarry_net::snapshot::EntityKind::Player).count();
    assert_eq!(players_seen, feed.players().len(), "a free camera sees every player as an entity");
    // A free camera hears no team's chat.
    while feed.step().expect("replay") {
        for e in feed.take_events() {
            if let ClientEvent::Message(ServerMessage::Chat { scope, .. }) = e {
                assert_eq!(scope, ChatScope::All, "team chat reached a free camera");
            }
        }
    }
}

#[test]
fn a_damaged_recording_is_refused_with_its_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("broken.qdemo");
    let golden = std::fs::read(root().join("crates/server/tests/replays/ffa.qdemo")).expect("golden");
    std::fs::write(&path, &golden[..golden.len() / 3]).expect("write");
    let options = ReplayOptions { force: false, maps_dir: Some(root().join("maps")) };
    // A cut file plays the ticks it holds; garbage is refused.
    if let Ok(mut feed) = DemoFeed::open(&path, &options) {
        while feed.step().unwrap_or(false) {}
    }
    std::fs::write(&path, b"not a recording at all").expect("write");
    let e = DemoFeed::open(&path, &options).expect_err("garbage is refused");
    assert!(e.to_string().contains("broken.qdemo"), "{e}");
}

#[test]
fn snapshots_carry_the_shots_sounds_hits_and_hurts_of_the_match() {
    use quarry_net::event::EventKind;
    let mut seen = std::collections::BTreeMap::new();
    let mut own_shots = 0;
    // Every golden match from each player's eyes: somebody shoots, hits and is hit.
    for name in ["ffa.qdemo", "tdm.qdemo", "duel.qdemo", "ca.qdemo"] {
        // Everyone who plays by the end, each followed from when they are in.
        let mut whole = open(name);
        while whole.step().expect("replay") {}
        for player in whole.players() {
            let mut feed = open(name);
            while feed.player_named(&player.name).is_none() && feed.step().expect("replay") {}
            feed.set_viewpoint(Viewpoint::Player(player.slot));
            while feed.step().expect("replay") {
                for s in snapshots(&feed.take_events()) {
                    for e in &s.events {
                        *seen.entry(e.kind.tag()).or_insert(0u32) += 1;
                        if e.kind == EventKind::Shot && e.source == player.slot.0 + 1 {
                            own_shots += 1;
                            assert_ne!(e.origin, e.end, "a shot goes somewhere");
                        }
                    }
                }
            }
        }
    }
    let count = |k: EventKind| seen.get(&k.tag()).copied().unwrap_or(0);
    assert!(count(EventKind::Sound) > 0, "{seen:?}");
    assert!(count(EventKind::Shot) > 0, "matches with machine guns have shots: {seen:?}");
    assert!(count(EventKind::Hit) > 0 && count(EventKind::Hurt) > 0, "someone hit and someone was hit: {seen:?}");
    assert!(own_shots > 0, "a player's own shots reach it: {seen:?}");
}
