//! Bot chat end to end, on a real match: bots speak only through their own
//! slots, the match never has to drop a bot line (the sim's flood limit),
//! replies answer people and never each other in a loop, team replies stay
//! in the team, a removed bot says its farewell before it leaves, and
//! `bot_chat 0` is silent.

mod support;

use std::path::{Path, PathBuf};

use quarry_bots::chat::ChatEvent;
use quarry_bots::{AddBot, BotManager, BotSettings, ContentTraitSource};
use quarry_sim::chat::ChatScope;
use quarry_sim::events::GameEvent;
use quarry_sim::{ClientKind, Match, SlotId, Team, UserInfo};

/// A botfiles directory in the temp dir, removed on drop.
struct TempBotfiles(PathBuf);

impl TempBotfiles {
    fn new(tag: &str, chat: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("quarry-chat-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["styles", "characters", "chats"] {
            std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
        }
        std::fs::write(dir.join("styles/plain.style"), "style \"plain\" {\n description \"x\"\n}\n").expect("write");
        let mut chars = String::new();
        for name in ["Tamsin", "Rook", "Pike", "Wren"] {
            chars.push_str(&format!("character \"{name}\" {{\n inherit \"plain\"\n set chatiness 1\n}}\n"));
        }
        std::fs::write(dir.join("characters/all.bot"), chars).expect("write");
        std::fs::write(dir.join("chats/all.chat"), chat).expect("write");
        Self(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempBotfiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn banks(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| {
            format!(
                r#"characterChat "{n}" {{
    chat entergame {{ "evening all" "hello $map" }}
    chat farewell {{ "off I go" "bye all" }}
    chat kill {{ "got you $other" "sorry $other" "clean" }}
    chat death {{ "ouch" "nice one $other" }}
    reply greeting {{
        priority 20
        trigger "hi"
        trigger "hello"
        "hey $other"
        "hi $other"
        "hello $other"
    }}
    reply direct {{
        addressed required
        trigger "{lower}"
        "yes $other?"
        "what's up $other"
    }}
}}
"#,
                lower = n.to_lowercase()
            )
        })
        .collect()
}

fn human(game: &mut Match, name: &str) -> SlotId {
    let info = UserInfo { name: name.into(), ..UserInfo::default() };
    let slot = game.connect(ClientKind::Remote { latency_ms: 20 }, info).expect("human slot");
    game.enter_game(slot).expect("enter");
    slot
}

fn manager(dir: &Path, settings: BotSettings) -> BotManager {
    let mut bots = BotManager::new(settings);
    bots.set_content(ContentTraitSource::load(dir).expect("content").with_seed(5));
    bots.set_botfiles_dir(dir);
    bots
}

/// Runs `ticks`, returning every chat event (tick, from, scope, text).
fn run_chat(game: &mut Match, bots: &mut BotManager, ticks: u32) -> Vec<(u32, Option<SlotId>, ChatScope, String)> {
    let mut out = Vec::new();
    for _ in 0..ticks {
        bots.think(game);
        game.step();
        for ev in game.events() {
            if let GameEvent::Chat { from, scope, text, .. } = ev {
                out.push((game.tick(), from, scope, text));
            }
        }
    }
    out
}

#[test]
fn bots_speak_through_their_own_slots_and_answer_people() {
    let files = TempBotfiles::new("speak", &banks(&["Tamsin", "Rook", "Pike", "Wren"]));
    let mut game = support::match_on("q_dm1", 3, 8);
    let mut bots = manager(files.path(), BotSettings::default());
    let ann = human(&mut game, "Ann");
    for _ in 0..4 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let names: Vec<String> = bots.list(Some(&game)).into_iter().map(|r| r.name).collect();
    assert!(names.iter().all(|n| ["Tamsin", "Rook", "Pike", "Wren"].contains(&n.as_str())), "bots take their characters' names: {names:?}");
    let mut lines = run_chat(&mut game, &mut bots, 60 * 10);
    // Ann greets everyone, then one bot by name, every 12 s.
    for text in ["hi all", &format!("hello {}!", names[2]), "^1HI", "thanks, this is fun"] {
        game.say(Some(ann), false, text).expect("ann says");
        lines.extend(run_chat(&mut game, &mut bots, 60 * 12));
    }
    let bot_slots = bots.slots();
    let from_bots: Vec<_> = lines.iter().filter(|l| l.1 != Some(ann)).collect();
    assert!(!from_bots.is_empty());
    for (_, from, scope, _) in &from_bots {
        let from = from.expect("bots never speak as the server");
        assert!(bot_slots.contains(&from));
        assert_eq!(*scope, ChatScope::All, "no team chat in FFA");
    }
    let f = bots.chat_figures().clone();
    assert!(f.replies >= 1, "someone answered Ann: {f:?}");
    assert_eq!(f.refused, 0, "the match never refused a bot line");
    assert_eq!(f.back_to_back_repeats, 0);
    for slot in &bot_slots {
        assert_eq!(game.slots().get(*slot).map(|s| s.chat.dropped), Some(0), "no bot line hit the sim's flood limit");
    }
    // No bot repeats its own line back to back.
    for slot in &bot_slots {
        let said: Vec<&String> = from_bots.iter().filter(|l| l.1 == Some(*slot)).map(|l| &l.3).collect();
        assert!(said.windows(2).all(|w| w[0] != w[1]), "{said:?}");
    }
}

#[test]
fn a_flood_of_human_chat_gets_throttled_replies_and_no_loop() {
    let files = TempBotfiles::new("flood", &banks(&["Tamsin", "Rook", "Pike", "Wren"]));
    let mut game = support::match_on("q_dm1", 4, 16);
    let mut bots = manager(files.path(), BotSettings { chat: 2, ..BotSettings::default() });
    let people: Vec<SlotId> = (0..8).map(|i| human(&mut game, &format!("P{i}"))).collect();
    for _ in 0..4 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let _ = run_chat(&mut game, &mut bots, 60 * 6);
    let before = bots.chat_figures().lines;
    // 1,000 say attempts in one second: the sim lets each person through at
    // its own flood limit; the bots hear every accepted line.
    let mut heard = 0;
    let mut said = Vec::new();
    for t in 0..60u32 {
        for k in 0..17 {
            let who = people[((t as usize) * 17 + k) % people.len()];
            heard += usize::from(game.say(Some(who), false, "hi hello rook tamsin pike wren").is_ok());
        }
        said.extend(run_chat(&mut game, &mut bots, 1));
    }
    said.extend(run_chat(&mut game, &mut bots, 60 * 9));
    let bot_slots = bots.slots();
    let bot_lines = said.iter().filter(|l| l.1.is_some_and(|s| bot_slots.contains(&s))).count();
    let f = bots.chat_figures().clone();
    // bot_chat 2: one line per 1 s server-wide at most, so ten seconds hold at most 11.
    assert!(heard >= 30, "{heard}");
    assert!(bot_lines <= 11, "{bot_lines} bot lines in 10 s");
    assert!(f.lines - before <= 11);
    assert_eq!(f.refused, 0);
    assert!(f.throttled > 0, "{f:?}");
}

#[test]
fn team_chat_is_answered_in_the_team() {
    let files = TempBotfiles::new("team", &banks(&["Tamsin", "Rook", "Pike", "Wren"]));
    let settings = quarry_sim::Settings { gametype: quarry_sim::rules::GameType::Tdm, ..support::test_settings() };
    let map = quarry_map::load(support::map_path("q_dm1"), &quarry_map::LoadOptions::default()).expect("map");
    let mut game = Match::new(map, &quarry_sim::GameData::default(), settings, 8, quarry_sim::slots::Slots::new(8), 60).expect("match");
    let mut bots = manager(files.path(), BotSettings::default());
    let ann = human(&mut game, "Ann");
    for _ in 0..4 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let _ = run_chat(&mut game, &mut bots, 60 * 6);
    let team = game.slots().get(ann).map(|s| s.team).expect("ann");
    assert!(matches!(team, Team::Red | Team::Blue));
    let mut replies = Vec::new();
    for _ in 0..12 {
        game.say(Some(ann), true, "hi team").expect("say_team");
        // The greeting reply's lines ("hey/hi/hello Ann"), not a kill or
        // death line that names Ann (an enemy may frag her meanwhile).
        let greeting = |t: &str| ["hey Ann", "hi Ann", "hello Ann"].iter().any(|g| t.contains(g));
        replies.extend(run_chat(&mut game, &mut bots, 60 * 9).into_iter().filter(|l| l.1 != Some(ann) && greeting(&l.3)));
    }
    assert!(!replies.is_empty(), "someone answered");
    for (_, from, scope, text) in &replies {
        let from_team = from.and_then(|s| game.slots().get(s)).map(|s| s.team);
        assert_eq!(from_team, Some(team), "only Ann's team answers: {text}");
        assert_eq!(*scope, ChatScope::Team(team), "in team chat: {text}");
    }
}

#[test]
fn a_removed_bot_says_farewell_then_leaves_and_chat_zero_is_silent() {
    let files = TempBotfiles::new("bye", &banks(&["Tamsin", "Rook", "Pike", "Wren"]));
    let mut game = support::match_on("q_dm1", 5, 8);
    let mut bots = manager(files.path(), BotSettings::default());
    let slot = bots.add_bot(&mut game, AddBot { name: Some("Rook".into()), ..AddBot::default() }).expect("bot");
    let _ = run_chat(&mut game, &mut bots, 60 * 10);
    assert!(bots.content().is_some_and(|c| c.character_of("Rook").is_some()));
    bots.remove_bot(&mut game, Some("Rook")).expect("remove");
    game.step();
    let events = game.events();
    let said = events.iter().position(|e| matches!(e, GameEvent::Chat { from: Some(s), .. } if *s == slot));
    let left = events.iter().position(|e| matches!(e, GameEvent::Left { slot: s } if *s == slot));
    assert!(said.is_some() && left.is_some() && said < left, "farewell before leaving: {events:?}");
    assert!(bots.content().is_some_and(|c| c.character_of("Rook").is_none()), "character released");
    assert_eq!(bots.chat_figures().by_event.get(ChatEvent::Farewell.name()), Some(&1));

    let mut game = support::match_on("q_dm1", 5, 8);
    let mut quiet = manager(files.path(), BotSettings { chat: 0, ..BotSettings::default() });
    let ann = human(&mut game, "Ann");
    for _ in 0..3 {
        quiet.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let mut lines = run_chat(&mut game, &mut quiet, 60 * 5);
    for _ in 0..5 {
        game.say(Some(ann), false, "hi tamsin rook pike").expect("say");
        lines.extend(run_chat(&mut game, &mut quiet, 60 * 3));
    }
    let _ = quiet.kick_all(&mut game);
    game.step();
    assert!(lines.iter().all(|l| l.1 == Some(ann)), "bot_chat 0: {lines:?}");
    assert_eq!(quiet.chat_figures().lines, 0);
}
