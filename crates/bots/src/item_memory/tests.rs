use glam::Vec3;
use quarry_map::{LoadOptions, load_str};
use quarry_sim::components::NetId;
use quarry_sim::events::GameEvent;
use quarry_sim::items::Gift;
use quarry_sim::rules::{GameType, Phase};
use quarry_sim::{SlotId, Team};

use super::*;
use crate::objective::testkit::{Kit, player};

const RA: &str = "item_armor_body";
const PERIOD: u32 = 25 * 60;
const FOV: f32 = 150.0;

fn armor(id: u32, x: f32, y: f32, available: bool) -> ItemSnap {
    ItemSnap {
        id: NetId(id),
        classname: RA,
        gift: Gift::Armor { amount: 100, cap: 200 },
        origin: Vec3::new(x, y, 16.0),
        half: Vec3::splat(15.0),
        available,
        respawn_at: if available { 0 } else { 1234 },
        respawn_ticks: PERIOD,
        first_spawn_ticks: 0,
        dropped: false,
    }
}

/// A bot at the origin looking along +x (`yaw` 0) or elsewhere.
fn bot(yaw: f32) -> PlayerSnap {
    PlayerSnap { yaw, ..player(0, Team::Red, Vec3::ZERO) }
}

/// The open floor of the test kit with a wall across x = 200..216 (y
/// -1000..1000, 300 high) when `wall`.
fn kit(wall: bool) -> Kit {
    let mut kit = Kit::new();
    if wall {
        let floor = quarry_map::source::box_brush(Vec3::new(-4096.0, -4096.0, -16.0), Vec3::new(4096.0, 4096.0, 0.0), "quarry/floor");
        let wall = quarry_map::source::box_brush(Vec3::new(200.0, -1000.0, 0.0), Vec3::new(216.0, 1000.0, 300.0), "quarry/wall");
        let text = format!(
            "{{\n\"classname\" \"worldspawn\"\n{floor}{wall}}}\n{{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"-100 0 25\"\n}}\n"
        );
        kit.map = load_str(&text, "wall.map", &LoadOptions::default()).expect("test map loads");
    }
    kit
}

fn believed(m: &ItemMemory, id: u32) -> ItemSnap {
    *m.believed().iter().find(|i| i.id == NetId(id)).expect("believed")
}

#[test]
fn an_item_out_of_view_is_believed_there_and_one_seen_missing_is_gone_for_a_period() {
    let kit = kit(false);
    let mut view = kit.view(GameType::Ffa, vec![bot(180.0)]);
    view.items = vec![armor(1, 600.0, 0.0, false)];
    let mut m = ItemMemory::default();
    // Looking away: no news, so there (whatever the truth).
    for _ in 0..5 {
        m.update(&view, view.player(SlotId(0)), FOV);
        view.clock.tick += 1;
    }
    let b = believed(&m, 1);
    assert!(b.available && b.respawn_at == 0, "{b:?}");
    // Turned toward it: seen missing, gone with no respawn tick to plan on,
    // and back at the latest a period later.
    let me = bot(0.0);
    view.players[0] = Some(me);
    m.update(&view, Some(&me), FOV);
    let seen_at = view.clock.tick;
    assert_eq!(m.state(NetId(1)), Some(ItemState::Gone { back_at: seen_at + PERIOD, exact: false }));
    let b = believed(&m, 1);
    assert!(!b.available && b.respawn_at == 0, "{b:?}");
    assert!(m.learned().is_empty(), "a missing item is no pickup seen");
    // Back in view it stays gone (it is not back); a period later it is
    // believed back without a look.
    view.clock.tick = seen_at + PERIOD - 1;
    m.update(&view, Some(&me), FOV);
    assert!(!believed(&m, 1).available);
    view.clock.tick = seen_at + PERIOD;
    m.update(&view, None, FOV);
    assert!(believed(&m, 1).available);
}

#[test]
fn a_pickup_seen_made_or_told_times_the_item() {
    let kit = kit(false);
    let me = bot(0.0);
    let mut view = kit.view(GameType::Ffa, vec![me]);
    view.items = vec![armor(1, 900.0, 0.0, false), armor(2, -900.0, 0.0, true)];
    let mut m = ItemMemory::default();
    // Another player takes the armor in view.
    view.events = vec![GameEvent::ItemPickup { slot: SlotId(3), item: RA, origin: Vec3::new(900.0, 0.0, 16.0) }];
    m.update(&view, Some(&me), FOV);
    // The view's events happened in the tick before its clock's.
    let t = view.clock.tick - 1;
    assert_eq!(m.state(NetId(1)), Some(ItemState::Gone { back_at: t + PERIOD, exact: true }));
    assert_eq!(believed(&m, 1).respawn_at, t + PERIOD, "a timed item has a respawn tick to plan on");
    assert_eq!(m.learned(), &[Timing { item: NetId(1), back_at: t + PERIOD }]);
    // The bot's own pickup behind it (out of view) times it too.
    view.clock.tick += 10;
    view.events = vec![GameEvent::ItemPickup { slot: SlotId(0), item: RA, origin: Vec3::new(-900.0, 0.0, 16.0) }];
    view.items[1].available = false;
    m.update(&view, Some(&me), FOV);
    assert_eq!(m.state(NetId(2)), Some(ItemState::Gone { back_at: view.clock.tick - 1 + PERIOD, exact: true }));
    // A teammate's word: a later pickup is believed, an older one is not.
    view.events.clear();
    let later = t + PERIOD + 300;
    m.told(NetId(1), later, &view.clock);
    assert_eq!(m.state(NetId(1)), Some(ItemState::Gone { back_at: later, exact: true }));
    assert_eq!(believed(&m, 1).respawn_at, later);
    m.told(NetId(1), t + 5, &view.clock);
    assert_eq!(m.state(NetId(1)), Some(ItemState::Gone { back_at: later, exact: true }), "older news changes nothing");
    // Play going live puts every item back, but a powerup, gone until its
    // latest first appearance.
    view.items[1].first_spawn_ticks = 3600;
    let since = view.clock.tick;
    view.events = vec![GameEvent::Phase { phase: Phase::Live { since } }];
    m.update(&view, None, FOV);
    assert_eq!(m.state(NetId(1)), Some(ItemState::There));
    assert_eq!(m.state(NetId(2)), Some(ItemState::Gone { back_at: since + 3600, exact: false }));
}

#[test]
fn a_pickup_out_of_view_is_heard_within_its_range_less_through_a_wall() {
    let kit = kit(true);
    // Facing +y: the items are out of view or behind the wall, so only
    // hearing can tell.
    let me = bot(90.0);
    let mut view = kit.view(GameType::Ffa, vec![me]);
    // Behind the wall at 280 units (within the wall share of 600) and at
    // 540 (beyond it, and in view but for the wall); in the open at 450.
    view.items = vec![armor(1, 280.0, 0.0, false), armor(2, 450.0, 300.0, false), armor(3, -450.0, 0.0, false)];
    let pickup = |x: f32, y: f32| GameEvent::ItemPickup { slot: SlotId(3), item: RA, origin: Vec3::new(x, y, 16.0) };
    view.events = vec![pickup(280.0, 0.0), pickup(450.0, 300.0), pickup(-450.0, 0.0)];
    let mut m = ItemMemory::default();
    m.update(&view, Some(&me), FOV);
    let heard: Vec<NetId> = m.learned().iter().map(|t| t.item).collect();
    assert_eq!(heard, vec![NetId(1), NetId(3)], "the far pickup behind the wall is not heard");
    // A pickup with another of its class close by is not put down to either.
    view.items.push(armor(4, -450.0, 60.0, true));
    let mut m = ItemMemory::default();
    view.events = vec![pickup(-450.0, 0.0)];
    m.update(&view, Some(&me), FOV);
    assert!(m.learned().is_empty(), "{:?}", m.learned());
    // Dead, nothing is seen or heard.
    let dead = PlayerSnap { alive: false, ..me };
    let mut m = ItemMemory::default();
    view.items.pop();
    m.update(&view, Some(&dead), FOV);
    assert!(m.learned().is_empty());
}

#[test]
fn a_dropped_weapon_is_known_once_seen_and_forgotten_once_gone() {
    let kit = kit(false);
    let mut view = kit.view(GameType::Ffa, vec![bot(180.0)]);
    let drop = ItemSnap { dropped: true, respawn_ticks: 0, available: true, ..armor(9, 700.0, 0.0, true) };
    view.items = vec![drop];
    let mut m = ItemMemory::default();
    m.update(&view, view.player(SlotId(0)), FOV);
    assert!(m.believed().is_empty(), "behind the bot: unknown");
    let me = bot(0.0);
    m.update(&view, Some(&me), FOV);
    assert_eq!(m.believed(), &[drop]);
    view.items.clear();
    m.update(&view, Some(&me), FOV);
    assert!(m.believed().is_empty());
}
