//! Objective play end to end, headless: bots on a small room map play the
//! game type's objective through nothing but their user commands. CTF bots
//! take the enemy flag and capture it, the carrier shooting on its way
//! home; Freeze Tag bots thaw their frozen
//! teammates; FFA has no objective and `botlist` says so.

mod support;

use glam::Vec3;
use quarry_bots::AddBot;
use quarry_bots::objective::Role;
use quarry_sim::events::GameEvent;
use quarry_sim::flags::FlagEventKind;
use quarry_sim::rules::GameType;
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

fn block(lo: Vec3, hi: Vec3) -> String {
    quarry_map::source::box_brush(lo, hi, "quarry/wall")
}

fn entity(class: &str, at: Vec3) -> String {
    format!(
        "{{\n\"classname\" \"{class}\"\n\"origin\" \"{} {} {}\"\n\"angle\" \"0\"\n}}\n",
        at.x, at.y, at.z
    )
}

/// A closed room 2048 x 1024 with a pillar in the middle, the red base at
/// x -800 and the blue base at x +800, two spawns per team near its base.
fn ctf_room() -> String {
    let (hx, hy, h, t) = (1024.0, 512.0, 256.0, 16.0);
    let brushes = [
        block(Vec3::new(-hx - t, -hy - t, -t), Vec3::new(hx + t, hy + t, 0.0)),
        block(Vec3::new(-hx - t, -hy - t, h), Vec3::new(hx + t, hy + t, h + t)),
        block(Vec3::new(-hx - t, -hy - t, 0.0), Vec3::new(-hx, hy + t, h)),
        block(Vec3::new(hx, -hy - t, 0.0), Vec3::new(hx + t, hy + t, h)),
        block(Vec3::new(-hx, -hy - t, 0.0), Vec3::new(hx, -hy, h)),
        block(Vec3::new(-hx, hy, 0.0), Vec3::new(hx, hy + t, h)),
        block(Vec3::new(-64.0, -128.0, 0.0), Vec3::new(64.0, 128.0, h)),
    ];
    let mut ents = Vec::new();
    for (team, sign) in [("red", -1.0), ("blue", 1.0)] {
        for y in [-300.0, 300.0] {
            ents.push(entity(&format!("team_CTF_{team}player"), Vec3::new(sign * 600.0, y, 25.0)));
            ents.push(entity(&format!("team_CTF_{team}spawn"), Vec3::new(sign * 700.0, y, 25.0)));
        }
        ents.push(entity(&format!("team_CTF_{team}flag"), Vec3::new(sign * 800.0, 0.0, 16.0)));
    }
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{}", brushes.concat(), ents.concat())
}

fn game(gametype: GameType, seed: u64) -> Match {
    let map = quarry_map::load_str(&ctf_room(), "objective_room.map", &quarry_map::LoadOptions::default())
        .expect("test map loads");
    let settings = Settings {
        gametype,
        capturelimit: 0,
        ..support::test_settings()
    };
    Match::new(map, &GameData::default(), settings, seed, Slots::new(8), 60).expect("match")
}

#[test]
fn ctf_bots_take_and_capture_a_flag() {
    let mut game = game(GameType::Ctf, 5);
    let mut bots = support::manager(3.0);
    // Three a side: two attack, one defends.
    for _ in 0..6 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let list = bots.list_lines(Some(&game)).join("\n");
    assert!(list.starts_with("objective: ctf roles"), "{list}");
    let (mut taken, mut captured) = (0, 0);
    // Ticks a carrier pressed attack while running its flag home.
    let mut carrier_firing = 0;
    // Two simulated minutes at most.
    for _ in 0..60 * 120 {
        bots.think(&mut game);
        carrier_firing += bots
            .list(Some(&game))
            .iter()
            .filter(|r| r.status.goal.starts_with("carrier") && r.status.firing && r.status.route.is_some())
            .count();
        game.step();
        for ev in game.events() {
            match ev {
                GameEvent::Flag { kind: FlagEventKind::Taken, slot: Some(_), .. } => taken += 1,
                GameEvent::Flag { kind: FlagEventKind::Captured, slot: Some(_), .. } => captured += 1,
                _ => {}
            }
        }
        if captured > 0 {
            break;
        }
    }
    // The layer reads a tick's events when it next plans.
    bots.think(&mut game);
    let report = bots.report(&game).objective.expect("objective figures");
    eprintln!("{}s: {report}; carrier firing on the run {carrier_firing} ticks", game.tick() / 60);
    assert!(taken > 0, "a flag was taken");
    assert!(captured > 0, "and captured within two minutes");
    assert!(carrier_firing > 0, "a carrier shoots while it runs home");
    assert_eq!(report.captures.0 + report.captures.1, 1);
    for role in [Role::Attack, Role::Defend, Role::Carrier] {
        assert!(report.share(role) > 0.0, "{role:?} was played");
    }
    // Rows show the roles.
    let list = bots.list_lines(Some(&game)).join("\n");
    assert!(["attack", "defend", "escort", "carrier", "return", "intercept"].iter().any(|r| list.contains(r)), "{list}");
}

#[test]
fn freeze_tag_bots_thaw_their_teammates() {
    let mut game = game(GameType::FreezeTag, 9);
    let mut bots = support::manager(3.0);
    for _ in 0..6 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    assert!(bots.list_lines(Some(&game))[0].starts_with("objective: freeze tag"));
    let mut thawed_by_bot = 0;
    for _ in 0..60 * 120 {
        bots.think(&mut game);
        game.step();
        thawed_by_bot += game
            .events()
            .iter()
            .filter(|e| matches!(e, GameEvent::Thawed { by: Some(_), .. }))
            .count();
        if thawed_by_bot > 0 {
            break;
        }
    }
    bots.think(&mut game);
    let report = bots.report(&game).objective.expect("objective figures");
    eprintln!("{}s: {report}", game.tick() / 60);
    assert!(thawed_by_bot > 0, "a teammate thawed one within two minutes");
    assert!(report.share(Role::Rescue) > 0.0);
}

#[test]
fn ffa_has_no_objective_and_botlist_says_so() {
    let mut game = game(GameType::Ffa, 2);
    let mut bots = support::manager(3.0);
    for _ in 0..2 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    support::run(&mut game, &mut bots, 600);
    let list = bots.list_lines(Some(&game));
    assert_eq!(list[0], "objective: none for ffa, bots fight and roam");
    assert!(list.iter().all(|l| !l.contains("attack ") && !l.contains("defend ")), "{list:?}");
    let report = bots.report(&game).objective.expect("figures say none");
    assert!(report.is_empty(), "{report}");
    assert!(report.mode.contains("none for ffa"));
}

#[test]
fn no_objective_before_the_match_is_live() {
    let map = quarry_map::load_str(&ctf_room(), "objective_room.map", &quarry_map::LoadOptions::default())
        .expect("test map loads");
    let settings = Settings {
        gametype: GameType::Ctf,
        warmup: true,
        ..support::test_settings()
    };
    let mut game = Match::new(map, &GameData::default(), settings, 4, Slots::new(8), 60).expect("match");
    let mut bots = support::manager(3.0);
    // One player is not enough to start: the match stays in warmup.
    bots.add_bot(&mut game, AddBot::default()).expect("bot");
    support::run(&mut game, &mut bots, 300);
    assert!(!game.phase().counts(), "still warming up");
    let report = bots.report(&game).objective.expect("figures");
    assert!(report.roles.iter().all(|r| r.ticks == 0), "{report}");
    let list = bots.list_lines(Some(&game));
    assert!(list.iter().skip(1).all(|l| !l.contains("attack ") && !l.contains("defend ")), "{list:?}");
}
