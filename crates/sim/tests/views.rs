//! The views observers (snapshots, bots) read: every player, item and mover
//! on a shipped map, sorted by id, and a player's own full state.

mod support;

use quarry_sim::slots::Slots;
use quarry_sim::view::ViewKind;
use quarry_sim::{ClientKind, GameData, Match};

#[test]
fn views_list_players_items_and_movers_in_id_order() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("map");
    let items_in_map = map.entities().iter().filter(|e| matches!(e.kind, quarry_map::EntityKind::Item(_))).count();
    let mut m = Match::new(map, &GameData::default(), support::test_settings(), 1, Slots::new(8), 60).expect("match");
    let a = support::join(&mut m, "a", ClientKind::Bot);
    let b = support::join(&mut m, "b", ClientKind::Remote { latency_ms: 0 });
    support::run(&mut m, &[a, b], 3, |_, _| Default::default());
    let views = m.entity_views();
    assert!(views.windows(2).all(|w| w[0].id < w[1].id), "sorted by id");
    let players: Vec<_> = views.iter().filter(|v| matches!(v.kind, ViewKind::Player { .. })).collect();
    assert_eq!(players.len(), 2);
    let items = views.iter().filter(|v| matches!(v.kind, ViewKind::Item { .. })).count();
    assert!(items > 0 && items <= items_in_map, "{items} of {items_in_map}");
    assert_eq!(views.iter().filter(|v| matches!(v.kind, ViewKind::Mover { .. })).count(), 1, "q_dm1 has one door");
    let own = m.own_view(a).expect("own view");
    let body = m.player_view(a).expect("player");
    assert_eq!(own.origin, body.origin);
    assert!(own.alive && own.health > 100);
    assert!(own.inventory.weapons != 0, "spawned with a loadout");
}
