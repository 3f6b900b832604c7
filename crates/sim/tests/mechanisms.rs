//! A map's mechanisms end to end, every move and shot through the input
//! queue: triggers fire doors through relays, delays and counters,
//! buttons press and fire their targets, doors with health and secret
//! doors open when shot, Quake 1 keys unlock their doors, an item set down on a
//! trapdoor falls when it opens, and `killtarget` removes what it names.

#[path = "support/items_support.rs"]
mod items_support;
mod support;

use glam::Vec3;
use items_support::*;
use quarry_map::MoverId;
use quarry_sim::items::Item;
use quarry_sim::{Buttons, Match, SlotId, UserCmd};

/// The door's doorway: a wall across the room at x 300..316 with a
/// 128x128 opening at y -64..64.
fn doorway_walls() -> Vec<String> {
    vec![
        solid(Vec3::new(300.0, -1024.0, 0.0), Vec3::new(316.0, -64.0, 512.0)),
        solid(Vec3::new(300.0, 64.0, 0.0), Vec3::new(316.0, 1024.0, 512.0)),
        solid(Vec3::new(300.0, -64.0, 128.0), Vec3::new(316.0, 64.0, 512.0)),
    ]
}

/// `classname` filling the doorway with `keys`.
fn door(classname: &str, keys: &[(&str, &str)]) -> String {
    brush_entity(classname, keys, &[solid(Vec3::new(300.0, -64.0, 0.0), Vec3::new(316.0, 64.0, 128.0))])
}

/// A map with one player spawn at (-400, 0), the doorway walls and `entities`.
fn map(entities: &[String]) -> String {
    arena(&[(-400.0, 0.0)], &doorway_walls(), entities)
}

/// The same text as a Quake 1 map (texture names without a directory).
fn quake1(text: &str) -> String {
    text.replace("quarry/wall", "city2_6").replace("common/trigger", "trigger")
}

/// A trigger volume on the floor around (x, 0).
fn volume(classname: &str, x: f32, keys: &[(&str, &str)]) -> String {
    brush_entity(classname, keys, &[trigger_brush(Vec3::new(x - 32.0, -64.0, 0.0), Vec3::new(x + 32.0, 64.0, 64.0))])
}

/// Steps `ticks` with `cmd` for the one player; the door's offset each tick.
fn track(m: &mut Match, s: &[SlotId], door: MoverId, ticks: u32, cmd: &mut dyn FnMut(&Match) -> UserCmd) -> Vec<Vec3> {
    let mut out = Vec::new();
    for _ in 0..ticks {
        let c = cmd(m);
        step(m, s, 1, &mut |_, _| c);
        out.push(offset(m, door));
    }
    out
}

/// Runs the one player into the volume at x -182..-118 for `ticks`: the
/// tick its box entered it, and `door`'s offset each tick.
fn walk_into_volume(m: &mut Match, s: &[SlotId], door: MoverId, ticks: u32) -> (usize, Vec<Vec3>) {
    let mut entered = None;
    let mut offsets = Vec::new();
    for tick in 0..ticks as usize {
        let c = run_toward(m, s[0], Vec3::new(-150.0, 0.0, 0.0), 4.0);
        step(m, s, 1, &mut |_, _| c);
        if entered.is_none() && origin(m, s[0]).x + 15.0 >= -182.0 {
            entered = Some(tick);
        }
        offsets.push(offset(m, door));
    }
    (entered.expect("reached the trigger"), offsets)
}

fn first_moving(offsets: &[Vec3]) -> Option<usize> {
    offsets.iter().position(|o| *o != Vec3::ZERO)
}

#[test]
fn a_trigger_once_opens_a_named_door_through_a_delayed_relay_and_only_once() {
    let text = map(&[
        door("func_door", &[("angle", "-1"), ("targetname", "gate"), ("wait", "1")]),
        volume("trigger_once", -150.0, &[("target", "relay")]),
        support::entity("trigger_relay", Vec3::new(0.0, 0.0, 32.0), &[("targetname", "relay"), ("target", "gate"), ("delay", "0.5")]),
    ]);
    let (mut m, s) = start(&text, 1);
    let gate = mover_id(&m, "func_door");
    // Walk into the volume; the door starts half a second (30 ticks) later.
    let (entered, offsets) = walk_into_volume(&mut m, &s, gate, 200);
    let opened = first_moving(&offsets).expect("the relay opened the door");
    assert!((entered + 29..=entered + 33).contains(&opened), "entered at {entered}, door moved at {opened}");
    // Open, waits 1 s, closes; standing in the spent trigger does nothing more.
    let later = track(&mut m, &s, gate, 400, &mut |m| run_toward(m, s[0], Vec3::new(-150.0, 0.0, 0.0), 4.0));
    assert_eq!(*later.last().expect("ticks"), Vec3::ZERO, "closed again and not reopened");
    assert!(offsets.iter().chain(&later).any(|o| o.z >= 120.0), "it was fully open");
}

#[test]
fn a_counter_fires_on_its_count_of_a_multiple_triggers_uses() {
    // trigger_multiple waits 0.5 s between firings: standing in it, the
    // third firing (about 1 s in) reaches the counter's count of 3.
    let text = map(&[
        door("func_door", &[("angle", "-1"), ("targetname", "gate"), ("wait", "-1")]),
        volume("trigger_multiple", -150.0, &[("target", "count")]),
        support::entity("trigger_counter", Vec3::new(0.0, 0.0, 32.0), &[("targetname", "count"), ("target", "gate"), ("count", "3")]),
    ]);
    let (mut m, s) = start(&text, 1);
    let gate = mover_id(&m, "func_door");
    let (entered, offsets) = walk_into_volume(&mut m, &s, gate, 300);
    let opened = first_moving(&offsets).expect("the counter opened the door");
    // Firings at +0, +30, +60 ticks (0.5 s at 60 Hz); the door moves the tick after the third.
    assert!((entered + 59..=entered + 63).contains(&opened), "entered at {entered}, door moved at {opened}");
}

#[test]
fn a_touched_button_presses_fires_its_target_and_comes_back() {
    // A button on a pillar at x -100, facing the player, pressed along +X.
    let button = brush_entity(
        "func_button",
        &[("angle", "0"), ("target", "gate"), ("wait", "1")],
        &[solid(Vec3::new(-108.0, -16.0, 16.0), Vec3::new(-100.0, 16.0, 48.0))],
    );
    let pillar = solid(Vec3::new(-100.0, -32.0, 0.0), Vec3::new(-68.0, 32.0, 96.0));
    let mut walls = doorway_walls();
    walls.push(pillar);
    let text = arena(
        &[(-400.0, 0.0)],
        &walls,
        &[door("func_door", &[("angle", "-1"), ("targetname", "gate"), ("wait", "-1")]), button],
    );
    let (mut m, s) = start(&text, 1);
    let gate = mover_id(&m, "func_door");
    let pressed = mover_id(&m, "func_button");
    let mut button_moved = None;
    let mut door_moved = None;
    for tick in 0..240u32 {
        let c = run_toward(&m, s[0], Vec3::new(-60.0, 0.0, 0.0), 1.0);
        step(&mut m, &s, 1, &mut |_, _| c);
        if button_moved.is_none() && offset(&m, pressed) != Vec3::ZERO {
            button_moved = Some(tick);
        }
        if door_moved.is_none() && offset(&m, gate) != Vec3::ZERO {
            door_moved = Some(tick);
        }
    }
    let (b, d) = (button_moved.expect("the button was pressed"), door_moved.expect("the door opened"));
    // 8 - lip 4 = 4 units at 40 u/s: 0.1 s (6 ticks) to arrive, then it fires.
    assert!(d > b && d <= b + 9, "button at {b}, door at {d}");
    assert_eq!(offset(&m, pressed), Vec3::new(4.0, 0.0, 0.0), "held in while the player leans on it");
    // Step back: it returns after its wait.
    track(&mut m, &s, pressed, 150, &mut |m| run_toward(m, s[0], Vec3::new(-300.0, 0.0, 0.0), 4.0));
    assert_eq!(offset(&m, pressed), Vec3::ZERO, "came back");
    assert_eq!(offset(&m, gate), Vec3::new(0.0, 0.0, 120.0), "the door stays open (wait -1)");
}

/// `slot` fires at `point` with whatever it holds.
fn fire_at(m: &Match, slot: SlotId, point: Vec3) -> UserCmd {
    let eye = origin(m, slot) + Vec3::Z * m.settings().movement.view_height;
    let d = (point - eye).normalize();
    // The view toward the point minus the delta angles, as a client sends it.
    let delta = m.own_view(slot).map_or((0.0, 0.0), |o| o.delta_angles);
    UserCmd {
        pitch: -d.z.asin().to_degrees() - delta.0,
        yaw: (d.y.atan2(d.x).to_degrees() - delta.1).rem_euclid(360.0),
        buttons: Buttons::ATTACK,
        ..UserCmd::default()
    }
}

#[test]
fn a_door_with_health_opens_when_shot_and_not_when_touched() {
    let text = map(&[door("func_door", &[("angle", "-1"), ("health", "30"), ("wait", "-1")])]);
    let (mut m, s) = start(&text, 1);
    let gate = mover_id(&m, "func_door");
    // Run into it: nothing.
    let touched = track(&mut m, &s, gate, 200, &mut |m| run_toward(m, s[0], Vec3::new(400.0, 0.0, 0.0), 4.0));
    assert!(touched.iter().all(|o| *o == Vec3::ZERO), "a shootable door does not open on touch");
    // Back off and shoot it.
    track(&mut m, &s, gate, 90, &mut |m| run_toward(m, s[0], Vec3::new(0.0, 0.0, 0.0), 4.0));
    let shot = track(&mut m, &s, gate, 120, &mut |m| fire_at(m, s[0], Vec3::new(300.0, 0.0, 64.0)));
    assert!(first_moving(&shot).is_some(), "shot open");
}

#[test]
fn a_quake1_secret_door_opens_when_shot_in_two_moves_and_closes() {
    // spawnflags 4: first down by its height, then along its facing (+X) by its thickness.
    let text = quake1(&map(&[door("func_door_secret", &[("angle", "0"), ("spawnflags", "4"), ("wait", "2")])]));
    let (mut m, s) = start(&text, 1);
    let secret = mover_id(&m, "func_door_secret");
    let shot = track(&mut m, &s, secret, 30, &mut |m| fire_at(m, s[0], Vec3::new(300.0, 0.0, 64.0)));
    let first = first_moving(&shot).expect("shot open");
    let rest = track(&mut m, &s, secret, 60 * 12, &mut |_| UserCmd::default());
    let all: Vec<Vec3> = shot[first..].iter().chain(rest.iter()).copied().collect();
    let down = Vec3::new(0.0, 0.0, -128.0);
    let open = Vec3::new(16.0, 0.0, -128.0);
    let at_down = all.iter().position(|o| *o == down).expect("first move down");
    let at_open = all.iter().position(|o| *o == open).expect("then along its facing");
    assert!(all[..at_down].iter().all(|o| o.x == 0.0), "straight down first");
    // 128 units at 50 u/s, a 1 s pause, 16 units: about 2.56 + 1 + 0.32 s.
    assert!((at_open as i32 - (154 + 60 + 19)).abs() <= 3, "open at {at_open}");
    assert_eq!(*all.last().expect("ticks"), Vec3::ZERO, "closed again after its wait");
}

#[test]
fn a_quake1_key_unlocks_its_door_once_and_is_used_up() {
    let text = quake1(&map(&[
        door("func_door", &[("angle", "-1"), ("spawnflags", "16")]),
        item("item_key1", -200.0, 200.0),
    ]));
    let (mut m, s) = start(&text, 1);
    let gate = mover_id(&m, "func_door");
    let keys = |m: &Match| inventory(m, s[0]).keys;
    let locked = track(&mut m, &s, gate, 180, &mut |m| run_toward(m, s[0], Vec3::new(400.0, 0.0, 0.0), 4.0));
    assert!(locked.iter().all(|o| *o == Vec3::ZERO), "no key: stays shut");
    let ev = run_to(&mut m, &s, s[0], Vec3::new(-200.0, 200.0, 0.0), 4.0, 240);
    assert!(pickups(&ev).iter().any(|p| p.2 == "item_key1"), "took the key");
    assert_ne!(keys(&m), 0, "carries it");
    let opened = track(&mut m, &s, gate, 240, &mut |m| run_toward(m, s[0], Vec3::new(400.0, 0.0, 0.0), 4.0));
    assert!(first_moving(&opened).is_some(), "the key opened it");
    assert_eq!(keys(&m), 0, "used up");
    // Quake 1 key doors stay open.
    track(&mut m, &s, gate, 600, &mut |m| run_toward(m, s[0], Vec3::new(-300.0, 0.0, 0.0), 4.0));
    assert!(offset(&m, gate).z > 100.0, "stays open");
}

/// A trapdoor slab (z 128..144, y -32..32, x `x0..x1`) named `trap` that
/// slides -Y beneath a wall standing on it south of y -32, and the wall.
fn trapdoor(x0: f32, x1: f32) -> (String, String) {
    let door = brush_entity(
        "func_door",
        &[("angle", "270"), ("targetname", "trap"), ("wait", "-1"), ("lip", "-2")],
        &[solid(Vec3::new(x0, -32.0, 128.0), Vec3::new(x1, 32.0, 144.0))],
    );
    (door, solid(Vec3::new(x0 - 16.0, -200.0, 144.0), Vec3::new(x1 + 16.0, -32.0, 300.0)))
}

/// Where the first item of class `classname` is.
fn item_origin(m: &mut Match, classname: &str) -> Vec3 {
    m.world_mut().query::<&Item>().iter(m.world()).find(|i| i.classname == classname).map(|i| i.origin).expect("the item")
}

#[test]
fn a_key_set_down_on_a_trapdoor_falls_when_it_slides_away_and_can_be_taken() {
    // A trapdoor slab (z 128..144) under a wall it slides beneath (-Y),
    // opened by a trigger the player walks into; the key on it rides it
    // to the wall, is left behind and falls to the floor.
    let (trapdoor, wall) = trapdoor(100.0, 164.0);
    let text = quake1(&arena(
        &[(-400.0, 0.0)],
        &[wall],
        &[
            trapdoor,
            support::entity("item_key1", Vec3::new(132.0, 0.0, 170.0), &[]),
            volume("trigger_once", -150.0, &[("target", "trap")]),
        ],
    ));
    let (mut m, s) = start(&text, 1);
    let half = m.world_mut().query::<&Item>().iter(m.world()).next().map(|i| i.half).expect("the key");
    let on_door = item_origin(&mut m, "item_key1");
    assert!((on_door.z - (144.0 + half.z)).abs() < 0.5, "set down on the trapdoor: {on_door}");
    step(&mut m, &s, 60, &mut idle);
    assert_eq!(item_origin(&mut m, "item_key1"), on_door, "nothing moves it while the door is shut");
    run_to(&mut m, &s, s[0], Vec3::new(-150.0, 0.0, 0.0), 4.0, 120);
    step(&mut m, &s, 120, &mut idle);
    let fallen = item_origin(&mut m, "item_key1");
    assert!((fallen.z - half.z).abs() < 0.5, "fell to the floor: {fallen}");
    assert!(fallen.y <= -32.0 + half.y + 0.5 && fallen.y < on_door.y, "rode the door to the wall first: {fallen}");
    let ev = run_to(&mut m, &s, s[0], Vec3::new(fallen.x, fallen.y, 0.0), 4.0, 300);
    assert!(pickups(&ev).iter().any(|p| p.2 == "item_key1"), "taken where it fell");
}

#[test]
fn a_weapon_dropped_on_a_trapdoor_falls_when_it_slides_away() {
    // The key test's trapdoor, longer (x 0..320), a shotgun on it; a second
    // player fires the trigger once the first has died on the trapdoor.
    let (trapdoor, wall) = trapdoor(0.0, 320.0);
    let text = arena(
        &[(-400.0, 0.0), (-400.0, 300.0)],
        &[wall],
        &[
            trapdoor,
            support::entity("weapon_shotgun", Vec3::new(60.0, 0.0, 170.0), &[]),
            volume("trigger_once", -150.0, &[("target", "trap")]),
        ],
    );
    let (mut m, s) = start(&text, 2);
    let shotgun = 3;
    setup_place(&mut m, s[0], Vec3::new(60.0, 0.0, 144.0 + 25.0));
    step(&mut m, &s, 90, &mut |slot, _| if slot == s[0] { UserCmd { weapon: shotgun, ..UserCmd::default() } } else { UserCmd::default() });
    assert_eq!(inventory(&m, s[0]).current, shotgun, "took the shotgun and holds it");
    m.suicide(s[0]);
    step(&mut m, &s, 90, &mut idle);
    let dropped = |m: &mut Match| {
        m.world_mut()
            .query_filtered::<&Item, bevy_ecs::query::With<quarry_sim::items::drop::Dropped>>()
            .iter(m.world())
            .map(|i| (i.origin, i.half))
            .next()
            .expect("the dropped shotgun")
    };
    let (on_door, half) = dropped(&mut m);
    assert!((on_door.z - (144.0 + half.z)).abs() < 1.0 && (0.0..=320.0).contains(&on_door.x), "came to rest on the trapdoor: {on_door}");
    run_to(&mut m, &s, s[1], Vec3::new(-150.0, 0.0, 0.0), 4.0, 240);
    step(&mut m, &s, 120, &mut idle);
    let (fallen, _) = dropped(&mut m);
    assert!((fallen.z - half.z).abs() < 1.0, "fell to the floor when the trapdoor slid away: {fallen}");
}

#[test]
fn killtarget_removes_the_items_it_names() {
    let text = map(&[
        volume("trigger_once", -150.0, &[("killtarget", "loot")]),
        support::entity("item_armor_body", Vec3::new(200.0, 200.0, 16.0), &[("targetname", "loot")]),
        item("item_armor_combat", 200.0, -200.0),
    ]);
    let (mut m, s) = start(&text, 1);
    let count = |m: &mut Match| m.world_mut().query::<&Item>().iter(m.world()).count();
    assert_eq!(count(&mut m), 2);
    run_to(&mut m, &s, s[0], Vec3::new(-150.0, 0.0, 0.0), 4.0, 120);
    step(&mut m, &s, 5, &mut idle);
    let left: Vec<&'static str> = m.world_mut().query::<&Item>().iter(m.world()).map(|i| i.classname).collect();
    assert_eq!(left, vec!["item_armor_combat"]);
}

/// The shared maps, when present (`QUARRY_SHARED_MAPS`, else `../shared/maps`
/// beside the checkout; `QUARRY_REQUIRE_SHARED_MAPS=1` makes a missing
/// directory a failure).
fn shared_map(rel: &str) -> Option<String> {
    let dir = std::env::var_os("QUARRY_SHARED_MAPS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/maps"));
    match std::fs::read_to_string(dir.join(rel)) {
        Ok(text) => Some(text),
        Err(_) if std::env::var("QUARRY_REQUIRE_SHARED_MAPS").is_ok_and(|v| v == "1") => {
            panic!("shared map {rel} required but missing under {}", dir.display())
        }
        Err(_) => {
            eprintln!("skipped: no shared map {rel} under {}", dir.display());
            None
        }
    }
}

#[test]
fn dm6s_secret_hatch_opens_when_shot_in_its_two_moves() {
    let Some(text) = shared_map("q1-standard/dm6.map") else { return };
    let (mut m, s) = start(&text, 1);
    let hatch = mover_id(&m, "func_door_secret");
    // Stand beside the hatch (x 776..904, y -1152..-1016, top z -64) and shoot it.
    setup_place(&mut m, s[0], Vec3::new(950.0, -1084.0, -64.0 + 25.0));
    step(&mut m, &s, 10, &mut idle);
    let offsets = track(&mut m, &s, hatch, 60 * 6, &mut |m| fire_at(m, s[0], Vec3::new(840.0, -1084.0, -64.0)));
    assert!(first_moving(&offsets).is_some(), "shot open");
    // Spawnflags 4, angle 180: down by its height, then along -X by its length.
    let (lo, hi) = m.map().entities().iter().find(|e| e.classname == "func_door_secret").and_then(|e| e.bounds).expect("bounds");
    let down = Vec3::new(0.0, 0.0, lo.z - hi.z);
    assert!(offsets.contains(&down), "down first: {down}");
    assert!(offsets.contains(&(down + Vec3::new(lo.x - hi.x, 0.0, 0.0))), "then slid open");
}

#[test]
fn lqdm12s_key_dispenser_drops_a_silver_key_that_opens_a_silver_door() {
    let Some(text) = shared_map("valve220/lqdm12.map") else { return };
    let (mut m, s) = start(&text, 1);
    let keys = |m: &mut Match| -> Vec<Vec3> {
        let mut v: Vec<Vec3> =
            m.world_mut().query::<&Item>().iter(m.world()).filter(|i| i.classname == "item_key1").map(|i| i.origin).collect();
        v.sort_by(|a, b| a.z.total_cmp(&b.z));
        v
    };
    let stacked = keys(&mut m);
    assert_eq!(stacked.len(), 13, "thirteen keys stacked in the dispenser");
    // The map-wide trigger fires 15 s after the player enters; the first
    // trapdoor slides away and its key drops down the shaft.
    step(&mut m, &s, 60 * 18, &mut idle);
    let now = keys(&mut m);
    let dropped: Vec<&Vec3> = now.iter().filter(|k| k.z < stacked[0].z - 64.0).collect();
    assert_eq!(dropped.len(), 1, "one key has dropped: {now:?}");
    let key = *dropped[0];
    assert!(key.z < 100.0, "down to the floor under the shaft: {key}");
    // Walk to it and take it; then open the silver door south of the shaft.
    setup_place(&mut m, s[0], Vec3::new(key.x, key.y + 96.0, key.z + 10.0));
    let ev = run_to(&mut m, &s, s[0], key, 4.0, 240);
    assert!(pickups(&ev).iter().any(|p| p.2 == "item_key1"), "took the key");
    assert_ne!(inventory(&m, s[0]).keys, 0, "carries it");
    let door = m
        .map()
        .entities()
        .iter()
        .find(|e| e.classname == "func_door" && e.line == 2732)
        .and_then(|e| m.map().world().mover_of(e.id))
        .expect("the silver door at line 2732");
    setup_place(&mut m, s[0], Vec3::new(0.0, -420.0, 192.0 + 25.0));
    let opened = track(&mut m, &s, door, 120, &mut |m| run_toward(m, s[0], Vec3::new(0.0, -700.0, 216.0), 4.0));
    assert!(first_moving(&opened).is_some(), "the dropped key opened the silver door");
    assert_eq!(inventory(&m, s[0]).keys, 0, "used up");
}
