//! Characters as bots: every shipped content file loads with zero
//! warnings; a bot added without a name takes its character's name (never a
//! name someone has), keeps it, and releases it when it leaves;
//! `bot_characters 0` gives pool names; `bot_forceCharacter`; `botreload`
//! keeps characters whose name survives; an explicit character (match
//! cards) is worn even by a second bot, and a team asked for is joined
//! where the team balance allows.

mod support;

use std::path::{Path, PathBuf};

use quarry_bots::content::load_botfiles;
use quarry_bots::names::NAME_POOL;
use quarry_bots::{AddBot, BotManager, BotSettings, ContentTraitSource};
use quarry_sim::{ClientKind, UserInfo};

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles")
}

#[test]
fn every_shipped_file_loads_with_zero_warnings() {
    let (content, warnings) = load_botfiles(&shipped());
    assert!(warnings.is_empty(), "{}", warnings.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
    assert!(content.styles.len() >= 6);
    assert_eq!(content.characters.len(), 16);
    // Chat banks: once chats/ ships, every character has one, with lines
    // for every event and the reply rules.
    if shipped().join("chats").is_dir() {
        for c in &content.characters {
            let bank = content.chat_bank(&c.name).unwrap_or_else(|| panic!("{} has no chat bank", c.name));
            for e in quarry_bots::chat::ChatEvent::ALL {
                assert!(!bank.lines(e).is_empty(), "{}: no {e} lines", c.name);
            }
            assert!(!bank.rules.is_empty(), "{}: no reply rules", c.name);
        }
    }
}

fn manager(settings: BotSettings) -> BotManager {
    let mut bots = BotManager::new(settings);
    bots.set_content(ContentTraitSource::load(&shipped()).expect("shipped content").with_seed(11));
    bots.set_botfiles_dir(shipped());
    bots
}

fn names(bots: &BotManager, game: &quarry_sim::Match) -> Vec<String> {
    bots.list(Some(game)).into_iter().map(|r| r.name).collect()
}

#[test]
fn bots_are_named_after_their_characters_and_release_them() {
    let mut game = support::match_on("q_dm1", 2, 24);
    // A person already called Tamsin: no bot may take that character's name.
    let info = UserInfo { name: "Tamsin".into(), ..UserInfo::default() };
    let ann = game.connect(ClientKind::Remote { latency_ms: 10 }, info).expect("slot");
    game.enter_game(ann).expect("enter");
    let mut bots = manager(BotSettings::default());
    for _ in 0..18 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let got = names(&bots, &game);
    let content = bots.content().expect("content");
    let characters: Vec<&str> = content.content().characters.iter().map(|c| c.name.as_str()).collect();
    let named_after = got.iter().filter(|n| characters.contains(&n.as_str())).count();
    assert_eq!(named_after, 15, "15 free characters, then pool names: {got:?}");
    assert!(!got.iter().any(|n| n == "Tamsin" || n.starts_with("Tamsin(")), "{got:?}");
    let mut sorted = got.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), got.len(), "unique names");
    for n in got.iter().filter(|n| characters.contains(&n.as_str())) {
        assert_eq!(content.character_of(n).map(|c| c.name.as_str()), Some(n.as_str()), "{n} wears its own character");
    }
    let lines = bots.character_lines();
    assert!(lines.len() >= 17, "{lines:?}");
    let first = got[0].clone();
    assert!(lines.iter().any(|l| l.starts_with(&first) && l.contains(&first[..])), "{lines:?}");
    bots.remove_bot(&mut game, Some(&first)).expect("remove");
    assert!(bots.content().and_then(|c| c.character_of(&first)).is_none(), "released on removebot");
    let n = bots.kick_all(&mut game);
    assert_eq!(n, 17);
    let roster = bots.content().expect("content").roster();
    assert!(roster.iter().all(|r| r.worn_by.is_empty()), "released on kickbots: {roster:?}");
}

#[test]
fn characters_off_gives_pool_names_and_forced_character_is_worn() {
    let mut game = support::match_on("q_dm1", 2, 8);
    let mut bots = manager(BotSettings { characters: false, ..BotSettings::default() });
    for _ in 0..3 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let got = names(&bots, &game);
    assert!(got.iter().all(|n| NAME_POOL.contains(&n.as_str())), "{got:?}");
    assert!(bots.content().expect("content").roster().iter().all(|r| r.worn_by.is_empty()));
    let _ = bots.kick_all(&mut game);

    let mut bots = manager(BotSettings::default());
    bots.content().expect("content").set_forced(Some("wren"));
    for _ in 0..2 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let got = names(&bots, &game);
    assert_eq!(got[0], "Wren");
    let c = bots.content().expect("content");
    assert!(got.iter().all(|n| c.character_of(n).is_some_and(|ch| ch.name == "Wren")), "{got:?}");
}

#[test]
fn an_explicit_character_is_worn_twice_and_a_team_asked_for_is_joined() {
    // Match cards: the stand-in and a roster bot may wear one character, and
    // each bot plays the side the card gives it.
    let map = quarry_map::load(support::map_path("q_ctf1"), &quarry_map::LoadOptions::default()).expect("map");
    let settings = quarry_sim::Settings { gametype: quarry_sim::rules::GameType::Ctf, ..support::test_settings() };
    let mut game = quarry_sim::Match::new(map, &quarry_sim::GameData::default(), settings, 3, quarry_sim::slots::Slots::new(8), 60).expect("match");
    let mut bots = manager(BotSettings::default());
    bots.content().expect("content").set_forced(Some("Tuck"));
    let ask = |name: &str, character: &str, team| AddBot { name: Some(name.into()), character: Some(character.into()), team: Some(team), skill: Some(2.5), ..AddBot::default() };
    let (red, blue) = (quarry_sim::Team::Red, quarry_sim::Team::Blue);
    let a = bots.add_bot(&mut game, ask("Wren", "wren", blue)).expect("bot");
    let b = bots.add_bot(&mut game, ask("Wren", "Wren", red)).expect("bot");
    let c = bots.add_bot(&mut game, ask("Rook", "Rook", blue)).expect("bot");
    let d = bots.add_bot(&mut game, ask("Tamsin", "Tamsin", blue)).expect("bot");
    let slot = |s| game.slots().get(s).map(|s| (s.userinfo.name.clone(), s.team)).expect("slot");
    assert_eq!(slot(a), ("Wren".to_owned(), blue), "blue as asked, where a tie goes red");
    assert_eq!(slot(b), ("Wren(2)".to_owned(), red));
    assert_eq!(slot(c), ("Rook".to_owned(), blue), "blue as asked, where a tie goes red");
    assert_eq!(slot(d), ("Tamsin".to_owned(), red), "the team balance still refuses a third blue against one red");
    let content = bots.content().expect("content");
    for (bot, character) in [("Wren", "Wren"), ("Wren(2)", "Wren"), ("Rook", "Rook"), ("Tamsin", "Tamsin")] {
        assert_eq!(content.character_of(bot).map(|c| c.name.as_str()), Some(character), "{bot} wears its character, not the forced one");
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

#[test]
fn botreload_keeps_characters_whose_name_survives() {
    let dir = std::env::temp_dir().join(format!("quarry-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&shipped(), &dir);
    let mut game = support::match_on("q_dm1", 2, 8);
    let mut bots = BotManager::new(BotSettings::default());
    bots.set_content(ContentTraitSource::load(&dir).expect("content"));
    bots.set_botfiles_dir(&dir);
    for _ in 0..3 {
        bots.add_bot(&mut game, AddBot::default()).expect("bot");
    }
    let got = names(&bots, &game);
    // One character's file goes away.
    let gone = got[0].to_lowercase();
    std::fs::remove_file(dir.join("characters").join(format!("{gone}.bot"))).expect("remove a character file");
    let _ = std::fs::remove_file(dir.join("chats").join(format!("{gone}.chat")));
    let r = bots.reload_content().expect("reload");
    assert_eq!((r.characters, r.kept), (15, 2), "{r:?}");
    let c = bots.content().expect("content");
    assert!(c.character_of(&got[0]).is_none());
    assert!(c.character_of(&got[1]).is_some() && c.character_of(&got[2]).is_some());
    // A directory with nothing in it is refused; the loaded content stays.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    bots.set_botfiles_dir(&empty);
    assert!(bots.reload_content().is_err());
    assert_eq!(bots.content().map(|c| c.content().characters.len()), Some(15));
    let _ = std::fs::remove_dir_all(&dir);
}

mod console {
    use quarry_bots::{BotAccess, BotManager};
    use quarry_console::Console;
    use quarry_sim::Match;

    struct Host {
        bots: BotManager,
        game: Option<Match>,
    }

    fn access(h: &mut Host) -> BotAccess<'_> {
        BotAccess { bots: &mut h.bots, game: h.game.as_mut() }
    }

    fn run(console: &mut Console<Host>, host: &mut Host, line: &str) -> String {
        console.execute(host, line, "test");
        console.drain_output().join("\n")
    }

    #[test]
    fn botcharacters_botreload_and_the_character_cvars() {
        let mut c = Console::new();
        let cvars = quarry_bots::register(&mut c, access).expect("cvars and commands");
        let mut h = Host { bots: BotManager::with_cvars(cvars), game: Some(super::support::match_on("q_dm1", 3, 8)) };
        assert!(run(&mut c, &mut h, "botcharacters").contains("no bot content loaded"));
        assert!(run(&mut c, &mut h, "botreload").contains("no botfiles directory"));
        h.bots.set_botfiles_dir(super::shipped());
        let out = run(&mut c, &mut h, "botreload");
        assert!(out.contains("reloaded 6 styles, 16 characters"), "{out}");
        let out = run(&mut c, &mut h, "set bot_forceCharacter Sable; addbot; addbot");
        assert!(out.contains("added bot Sable in slot"), "{out}");
        let out = run(&mut c, &mut h, "botcharacters");
        let sable = out.lines().find(|l| l.starts_with("Sable")).unwrap_or_default().to_owned();
        assert!(sable.contains("Sable, "), "two bots wear Sable: {out}");
        let out = run(&mut c, &mut h, "set bot_forceCharacter \"\"; set bot_characters 0; addbot");
        let name = out.rsplit("added bot ").next().and_then(|r| r.split(' ').next()).unwrap_or_default().to_owned();
        assert!(quarry_bots::names::NAME_POOL.contains(&name.as_str()), "bot_characters 0: a pool name: {out}");
        let out = run(&mut c, &mut h, "kickbots; botcharacters");
        assert!(out.lines().filter(|l| l.starts_with("Sable")).all(|l| l.ends_with(" -")), "released: {out}");
    }
}
