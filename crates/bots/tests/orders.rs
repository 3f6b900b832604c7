//! Team chat as orders, on a real TDM match with the shipped botfiles: a
//! human's "follow me" is acknowledged in the bot's voice and followed,
//! "hold here" keeps the bot near the spot, an order expires, and a bot
//! that goes to look after a teammate's report counts as one when it finds
//! the enemy. (Through the network: `crates/server/tests/network.rs`.)

mod support;

use std::path::PathBuf;

use glam::Vec3;
use quarry_bots::{AddBot, BotManager, ContentTraitSource};
use quarry_sim::chat::ChatScope;
use quarry_sim::events::GameEvent;
use quarry_sim::{Buttons, ClientKind, Match, SlotId, UserCmd, UserInfo};

fn botfiles() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles")
}

/// A TDM match on q_dm1 with a human and one bot on the human's team.
fn team_of_two(seed: u64) -> (Match, BotManager, SlotId, SlotId) {
    team_of_two_on("q_dm1", quarry_sim::rules::GameType::Tdm, seed)
}

/// A match of `gametype` on `map` with a human and one bot on the human's team.
fn team_of_two_on(map: &str, gametype: quarry_sim::rules::GameType, seed: u64) -> (Match, BotManager, SlotId, SlotId) {
    let map = quarry_map::load(support::map_path(map), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings {
        gametype,
        team_force_balance: false,
        ..support::test_settings()
    };
    let mut game = Match::new(map, &quarry_sim::GameData::default(), settings, seed, quarry_sim::slots::Slots::new(8), 60).expect("match");
    let mut bots = support::manager(3.0);
    bots.set_content(ContentTraitSource::load(&botfiles()).expect("content").with_seed(seed));
    let human = game.connect(ClientKind::Remote { latency_ms: 20 }, UserInfo { name: "Leader".into(), ..UserInfo::default() }).expect("slot");
    game.enter_game(human).expect("enter");
    let bot = bots.add_bot(&mut game, AddBot::default()).expect("bot");
    let team = game.slots().get(bot).map(|s| s.team).expect("team");
    game.set_team(human, team).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..60 {
        step(&mut game, &mut bots, human, UserCmd { buttons: Buttons::ATTACK, ..UserCmd::default() });
        step(&mut game, &mut bots, human, UserCmd::default());
    }
    (game, bots, human, bot)
}

fn step(game: &mut Match, bots: &mut BotManager, human: SlotId, cmd: UserCmd) -> Vec<GameEvent> {
    let tick = game.tick();
    let _ = game.push_cmd(human, UserCmd { tick, ..cmd });
    bots.think(game);
    game.step();
    game.events()
}

fn origin(game: &Match, slot: SlotId) -> Option<Vec3> {
    game.player_view(slot).filter(|p| p.alive).map(|p| p.origin)
}

/// Says `text` in team chat and runs until the bot answers in team chat
/// (at most 6 s); the answer's text. The answer is an `orderAck` or
/// `orderRefuse` line (an order gets no small talk).
fn order(game: &mut Match, bots: &mut BotManager, human: SlotId, bot: SlotId, text: &str) -> Option<String> {
    let answers = |bots: &BotManager| {
        let by = &bots.chat_figures().by_event;
        by.get("orderAck").copied().unwrap_or(0) + by.get("orderRefuse").copied().unwrap_or(0)
    };
    let before = answers(bots);
    game.say(Some(human), true, text).expect("say");
    for _ in 0..6 * 60 {
        let mut said = None;
        for ev in step(game, bots, human, UserCmd::default()) {
            if let GameEvent::Chat { from: Some(f), scope: ChatScope::Team(_), text, .. } = ev
                && f == bot
            {
                said = Some(text);
            }
        }
        if said.is_some() && answers(bots) > before {
            return said;
        }
    }
    None
}

#[test]
fn follow_me_is_acknowledged_and_followed() {
    let (mut game, mut bots, human, bot) = team_of_two(4);
    let ack = order(&mut game, &mut bots, human, bot, "follow me");
    let ack = ack.unwrap_or_else(|| panic!("no answer; bot status {:?}", bots.status(bot, &game)));
    assert_eq!(bots.chat_figures().by_event.get("orderAck"), Some(&1), "{ack}");
    let order = bots.order(bot).expect("the order was taken");
    assert_eq!(order.kind, quarry_bots::team::OrderKind::Follow, "{ack}");
    // The next decision makes it the goal.
    for _ in 0..30 {
        step(&mut game, &mut bots, human, UserCmd::default());
    }
    assert_eq!(bots.status(bot, &game).map(|s| s.goal).as_deref(), Some("order follow"));
    // The human runs a loop for 20 s; the bot keeps within 300 units.
    let (mut within, mut samples) = (0, 0);
    for t in 0..20 * 60 {
        let yaw = 90.0 * (t / 240) as f32;
        step(&mut game, &mut bots, human, UserCmd { yaw, forward: 127, ..UserCmd::default() });
        if t % 15 == 0
            && let (Some(a), Some(b)) = (origin(&game, human), origin(&game, bot))
        {
            samples += 1;
            within += usize::from(Vec3::new(a.x - b.x, a.y - b.y, 0.0).length() <= 300.0);
        }
    }
    eprintln!("ack {ack:?}: within 300 units in {within} of {samples} samples");
    assert!(samples >= 70 && within * 10 >= samples * 9, "within 300 units in {within} of {samples} samples");
}

#[test]
fn hold_here_keeps_the_bot_near_the_spot_until_the_order_expires() {
    let (mut game, mut bots, human, bot) = team_of_two(6);
    let spot = origin(&game, human).expect("human");
    let ack = order(&mut game, &mut bots, human, bot, "hold here");
    assert!(ack.is_some(), "no answer");
    let order = bots.order(bot).expect("taken");
    assert_eq!(order.kind, quarry_bots::team::OrderKind::Hold);
    // Give it time to get there, then it stays while the human leaves.
    for _ in 0..8 * 60 {
        step(&mut game, &mut bots, human, UserCmd::default());
    }
    let (mut near, mut samples) = (0, 0);
    for t in 0..30 * 60 {
        step(&mut game, &mut bots, human, UserCmd { yaw: 180.0, forward: 127, ..UserCmd::default() });
        if t % 30 == 0
            && let Some(b) = origin(&game, bot)
        {
            samples += 1;
            near += usize::from(Vec3::new(b.x - spot.x, b.y - spot.y, 0.0).length() <= 350.0);
        }
    }
    eprintln!("near the spot in {near} of {samples} samples");
    assert!(samples >= 50 && near * 10 >= samples * 8, "near the spot in {near} of {samples}");
    // Past its end (a minute after it was taken) the order is gone.
    let until = order.until;
    while game.tick() <= until + 2 {
        step(&mut game, &mut bots, human, UserCmd::default());
    }
    assert_eq!(bots.order(bot), None, "the order expired");
    assert!(bots.status(bot, &game).is_some_and(|s| !s.goal.starts_with("order")));
}

#[test]
fn drop_it_makes_a_bot_carrier_let_go_of_the_flag_toward_the_one_who_asked() {
    let (mut game, mut bots, human, bot) = team_of_two_on("q_ctf1", quarry_sim::rules::GameType::Ctf, 3);
    let team = game.slots().get(bot).map(|s| s.team).expect("team");
    let enemy = if team == quarry_sim::Team::Red { quarry_sim::Team::Blue } else { quarry_sim::Team::Red };
    // The bot is put on the enemy flag and takes it.
    let flag = game.mode_state().flag(enemy).map(|f| f.origin).expect("enemy flag");
    let body = game.slots().get(bot).and_then(|s| s.entity).expect("body");
    game.world_mut().get_mut::<quarry_sim::components::Body>(body).expect("body").0.origin = flag + Vec3::Z * 10.0;
    for _ in 0..10 {
        step(&mut game, &mut bots, human, UserCmd::default());
    }
    assert!(game.mode_state().carried_by(bot).is_some(), "the bot carries the enemy flag");
    // "drop it": the flag lies in front of the bot, toward the human, and
    // the bot says so (the line is typed after the drop).
    game.say(Some(human), true, "drop it").expect("say");
    let (mut dropped, mut ack) = (None, None);
    for _ in 0..6 * 60 {
        let (b, h) = (origin(&game, bot), origin(&game, human));
        for e in step(&mut game, &mut bots, human, UserCmd::default()) {
            match e {
                GameEvent::Flag { kind: quarry_sim::flags::FlagEventKind::Dropped, slot: Some(s), .. } if s == bot && dropped.is_none() => {
                    let yaw = game.world().get::<quarry_sim::components::Body>(body).map(|b| b.0.yaw);
                    dropped = b.zip(h).zip(yaw);
                }
                GameEvent::Chat { from: Some(f), scope: ChatScope::Team(_), text, .. } if f == bot => ack = Some(text),
                _ => {}
            }
        }
        if dropped.is_some() && bots.chat_figures().by_event.contains_key("orderAck") {
            break;
        }
    }
    assert_eq!(bots.chat_figures().by_event.get("orderAck"), Some(&1), "the last line {ack:?}");
    let ((from, human_at), yaw) = dropped.unwrap_or_else(|| panic!("the bot never dropped the flag ({ack:?})"));
    let lies = game.mode_state().flag(enemy).map(|f| f.origin).expect("flag");
    // It turned to the human and let go: the flag lies ahead of it (less
    // far than 56 units when a wall is in front).
    let to_human = (human_at - from).truncate();
    let off = (to_human.y.atan2(to_human.x).to_degrees() - yaw + 540.0).rem_euclid(360.0) - 180.0;
    let forward = glam::Vec2::from_angle(yaw.to_radians());
    let ahead = (lies - from).truncate().dot(forward);
    eprintln!("ack {ack:?}; dropped at {lies} from {from} facing {yaw:.0} ({off:.1} off the human at {human_at}), {ahead:.0} units ahead");
    assert!(off.abs() < 10.0, "the bot faced the human when it dropped the flag: {off:.1} degrees off");
    // (56 units from where it stood at the drop; `from` is a tick earlier.)
    assert!(ahead > 0.0 && ahead < 80.0, "the flag lies in front of the bot: {ahead:.0} units ahead");
    assert!(game.mode_state().carried_by(bot).is_none(), "the bot let go of it");
}
