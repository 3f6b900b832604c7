//! Hearing through the real sim: a bot hears an enemy's gunfire through a
//! wall as an estimate whose error grows with distance, turns toward it and
//! goes to look; a running enemy is heard and a walking one is not; a
//! teammate's noise is ignored; and a bot with every enemy hidden and
//! silent believes nothing about where they are.

mod support;

use glam::Vec3;
use quarry_bots::memory::Knowledge;
use quarry_bots::{AddBot, BotManager};
use quarry_map::source::box_brush;
use quarry_sim::components::Body;
use quarry_sim::events::{GameEvent, SoundKind};
use quarry_sim::slots::{ClientKind, UserInfo};
use quarry_sim::{Buttons, Match, SlotId, UserCmd};
use support::point;

const WALL: &str = "quarry/wall";

/// A 2048x2048 room split at x -8..8 by a wall; `gap` leaves a 256-wide
/// opening at its north end (y 768..1024). One spawn on each side.
fn split_room(gap: bool) -> String {
    let b = |lo: Vec3, hi: Vec3| box_brush(lo, hi, WALL);
    let top = if gap { 768.0 } else { 1024.0 };
    let mut world = support::room((-1024.0, 1024.0), (-1024.0, 1024.0), WALL);
    world.extend([
        b(Vec3::new(-8.0, -1024.0, 0.0), Vec3::new(8.0, top, 256.0)),
    ]);
    let entities = [
        point("info_player_deathmatch", Vec3::new(-600.0, -600.0, 25.0), &[("angle", "180")]),
        point("info_player_deathmatch", Vec3::new(600.0, -600.0, 25.0), &[("angle", "0")]),
    ];
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{}", world.concat(), entities.concat())
}

fn human(game: &mut Match, name: &str) -> SlotId {
    let info = UserInfo { name: name.into(), ..UserInfo::default() };
    let slot = game.connect(ClientKind::Remote { latency_ms: 0 }, info).expect("human slot");
    game.enter_game(slot).expect("enter");
    slot
}


/// Where `slot`'s body is and which way it looks.
fn origin_of(game: &Match, slot: SlotId) -> Option<(Vec3, f32)> {
    let e = game.slots().get(slot)?.entity?;
    let body = game.world().get::<Body>(e)?;
    Some((body.0.origin, body.0.yaw))
}

/// A match on `text` with one bot (skill 3, seed `seed`) and one human.
fn setup(text: &str, seed: u64) -> (Match, BotManager, SlotId, SlotId) {
    let mut game = support::match_on_text(text, seed, 4);
    let mut bots = support::manager(3.0);
    let bot = bots.add_bot(&mut game, AddBot { name: Some("Listener".into()), ..AddBot::default() }).expect("bot");
    let man = human(&mut game, "Noisy");
    // Let both spawn.
    for _ in 0..30 {
        let tick = game.tick();
        let _ = game.push_cmd(man, UserCmd { tick, buttons: Buttons::ATTACK, ..UserCmd::default() });
        bots.think(&mut game);
        game.step();
    }
    (game, bots, bot, man)
}

/// One tick: the human plays `cmd`, the bot thinks, the match steps.
fn step(game: &mut Match, bots: &mut BotManager, man: SlotId, cmd: UserCmd) {
    let tick = game.tick();
    let _ = game.push_cmd(man, UserCmd { tick, ..cmd });
    bots.think(game);
    game.step();
}

fn heard_track(bots: &BotManager, bot: SlotId, man: SlotId) -> Option<quarry_bots::memory::EnemyTrack> {
    bots.beliefs(bot)?.into_iter().find(|t| t.slot == man)
}

/// Ten seeded trials of 3 s: the bot at (-500, -500) facing away, the
/// human behind the wall at (150, -500), firing (`firing`) or not. Returns
/// how many trials the bot turned toward the human within 2 s, and how
/// many it went to look (an investigation goal) or found him (saw him)
/// within 3 s (roaming, it needs twice that to reach him).
fn look_for_the_noise(text: &str, firing: bool) -> (u32, u32) {
    let (mut turned, mut went) = (0, 0);
    for seed in 1..=10 {
        let (mut game, mut bots, bot, man) = setup(text, seed);
        support::place(&mut game, bot, Vec3::new(-500.0, -500.0, 25.0), 180.0);
        let noisy = Vec3::new(150.0, -500.0, 25.0);
        support::place(&mut game, man, noisy, 0.0);
        let (mut looked, mut investigated, mut found) = (false, false, false);
        let buttons = if firing { Buttons::ATTACK } else { Buttons::default() };
        for t in 0..3 * 60 {
            // The human fires at the far wall, away from the bot.
            step(&mut game, &mut bots, man, UserCmd { yaw: 0.0, buttons, ..UserCmd::default() });
            support::place(&mut game, man, noisy, 0.0);
            let Some((at, yaw)) = origin_of(&game, bot) else { continue };
            let to = Vec3::new(noisy.x - at.x, noisy.y - at.y, 0.0);
            let facing = Vec3::new(yaw.to_radians().cos(), yaw.to_radians().sin(), 0.0);
            looked |= t < 2 * 60 && facing.dot(to.normalize_or_zero()) > 0.7;
            investigated |= t < 3 * 60 && bots.status(bot, &game).is_some_and(|s| s.goal == "investigate");
            found |= t < 3 * 60 && heard_track(&bots, bot, man).is_some_and(|t| t.knowledge == Knowledge::Seen);
        }
        turned += u32::from(looked);
        went += u32::from(investigated || found);
    }
    (turned, went)
}

#[test]
fn gunfire_behind_a_wall_is_heard_turned_to_and_investigated() {
    let text = split_room(true);
    let (turned, went) = look_for_the_noise(&text, true);
    let (quiet_turned, quiet_went) = look_for_the_noise(&text, false);
    eprintln!("firing: turned {turned}/10, went {went}/10; silent: turned {quiet_turned}/10, went {quiet_went}/10");
    assert!(turned >= 7, "turned toward the gunfire in {turned} of 10 trials");
    assert!(went >= 7, "went to look (or found the shooter) in {went} of 10 trials");
    assert!(went >= quiet_went + 3, "the noise made the difference: {went} firing, {quiet_went} silent");
}

#[test]
fn heard_positions_err_more_with_distance() {
    // A sealed wall: the bot can't go and look, so it keeps listening.
    let text = split_room(false);
    let (mut game, mut bots, bot, man) = setup(&text, 3);
    let mut near = Vec::new();
    let mut far = Vec::new();
    let mut unheard_beyond = 0;
    for trial in 0..80u32 {
        // The bot stands at the wall's west side; the human fires one shot
        // from the east side at a distance that varies per trial.
        let bot_at = Vec3::new(-60.0, -400.0 + (trial % 5) as f32 * 150.0, 25.0);
        let dx = 60.0 + (trial % 8) as f32 * 110.0;
        let man_at = Vec3::new(dx, bot_at.y + ((trial * 37) % 200) as f32 - 100.0, 25.0);
        for _ in 0..150 {
            support::place(&mut game, bot, bot_at, 180.0);
            support::place(&mut game, man, man_at, 0.0);
            step(&mut game, &mut bots, man, UserCmd::default());
        }
        let truth = origin_of(&game, man).map(|(o, _)| o).expect("human");
        let ear = origin_of(&game, bot).map(|(o, _)| o).expect("bot");
        let distance = truth.distance(ear);
        let shot_tick = game.tick();
        support::place(&mut game, bot, bot_at, 180.0);
        step(&mut game, &mut bots, man, UserCmd { yaw: 0.0, buttons: Buttons::ATTACK, ..UserCmd::default() });
        for _ in 0..45 {
            support::place(&mut game, bot, bot_at, 180.0);
            support::place(&mut game, man, man_at, 0.0);
            step(&mut game, &mut bots, man, UserCmd::default());
        }
        let heard = heard_track(&bots, bot, man).filter(|t| t.knowledge == Knowledge::Heard && t.news_tick.abs_diff(shot_tick) <= 3);
        match heard {
            Some(t) => {
                let flat = |v: Vec3| Vec3::new(v.x, v.y, 0.0);
                let error = flat(t.position).distance(flat(truth));
                // The bound (0.2 x distance) plus the navmesh's snap.
                assert!(error <= 0.2 * distance + 48.0, "error {error} at {distance}");
                if distance < 350.0 {
                    near.push(error);
                } else if distance > 550.0 {
                    far.push(error);
                }
            }
            None if distance > 16.0 + 1600.0 * 0.5 => unheard_beyond += 1,
            None => {}
        }
    }
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
    eprintln!("near {} mean {:.0}, far {} mean {:.0}, unheard beyond {unheard_beyond}", near.len(), mean(&near), far.len(), mean(&far));
    assert!(near.len() >= 10 && far.len() >= 10, "enough heard shots: {} near, {} far", near.len(), far.len());
    assert!(mean(&far) > 1.8 * mean(&near), "error grows with distance: near {} far {}", mean(&near), mean(&far));
}

/// How many noises the bot heard from the human while the human moves
/// next to the wall for 5 s with `buttons`.
fn noises_from_moving(buttons: Buttons) -> u64 {
    let text = split_room(false);
    let (mut game, mut bots, bot, man) = setup(&text, 2);
    let before = bots.stats(bot).map_or(0, |s| s.noises_heard);
    support::place(&mut game, man, Vec3::new(140.0, -60.0, 25.0), 90.0);
    for t in 0..5 * 60 {
        support::place(&mut game, bot, Vec3::new(-60.0, 0.0, 25.0), 180.0);
        // Back and forth along the wall, 200 units from the bot.
        let yaw = if (t / 60) % 2 == 0 { 90.0 } else { 270.0 };
        step(&mut game, &mut bots, man, UserCmd { yaw, forward: 127, buttons, ..UserCmd::default() });
        if let Some((at, _)) = origin_of(&game, man)
            && (at.x - 140.0).abs() > 8.0
        {
            support::place(&mut game, man, Vec3::new(140.0, at.y, at.z), yaw);
        }
    }
    bots.stats(bot).map_or(0, |s| s.noises_heard) - before
}

#[test]
fn a_running_enemy_is_heard_and_a_walking_one_is_not() {
    let running = noises_from_moving(Buttons::default());
    let walking = noises_from_moving(Buttons::WALK);
    eprintln!("running: {running} noises, walking: {walking}");
    assert!(running >= 5, "footsteps of a runner 200 units away through a wall: {running}");
    assert_eq!(walking, 0, "a walking player is silent");
}

#[test]
fn a_teammates_noise_is_ignored() {
    let text = split_room(false);
    let map = quarry_map::load_str(&text, "test.map", &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings { gametype: quarry_sim::rules::GameType::Tdm, team_force_balance: false, ..support::test_settings() };
    let mut game = Match::new(map, &quarry_sim::GameData::default(), settings, 4, quarry_sim::slots::Slots::new(4), 60).expect("match");
    let mut bots = support::manager(3.0);
    let bot = bots.add_bot(&mut game, AddBot { name: Some("Listener".into()), ..AddBot::default() }).expect("bot");
    let mate = human(&mut game, "Mate");
    let team = game.slots().get(bot).map(|s| s.team).expect("team");
    game.set_team(mate, team).unwrap_or_else(|e| panic!("{e}"));
    let mut shots = 0;
    for t in 0..6 * 60 {
        support::place(&mut game, bot, Vec3::new(-60.0, 0.0, 25.0), 180.0);
        if t % 60 == 0 {
            support::place(&mut game, mate, Vec3::new(100.0, 0.0, 25.0), 0.0);
        }
        step(&mut game, &mut bots, mate, UserCmd { yaw: 0.0, forward: 127, buttons: Buttons::ATTACK, ..UserCmd::default() });
        shots += game
            .events()
            .iter()
            .filter(|e| matches!(e, GameEvent::Sound { kind: SoundKind::Gunfire(_), source: Some(s), .. } if *s == mate))
            .count();
    }
    assert!(shots >= 20, "the teammate fired {shots} shots");
    assert_eq!(bots.stats(bot).map(|s| s.noises_heard), Some(0));
    assert_eq!(heard_track(&bots, bot, mate), None);
}

#[test]
fn a_bot_with_everyone_hidden_and_silent_knows_nothing_of_them() {
    let text = split_room(false);
    let (mut game, mut bots, bot, man) = setup(&text, 6);
    for t in 0..20 * 60 {
        // The human walks (silent) on the far side of a sealed wall.
        let yaw = if (t / 90) % 2 == 0 { 90.0 } else { 270.0 };
        step(&mut game, &mut bots, man, UserCmd { yaw, forward: 127, buttons: Buttons::WALK, ..UserCmd::default() });
        let beliefs = bots.beliefs(bot).expect("bot");
        assert!(beliefs.is_empty(), "tick {}: the bot believes {beliefs:?}", game.tick());
        let status = bots.status(bot, &game).expect("status");
        assert_eq!(status.enemy, None, "tick {}", game.tick());
        assert!(!status.goal.starts_with("chase") && status.goal != "investigate", "tick {}: {}", game.tick(), status.goal);
    }
}
