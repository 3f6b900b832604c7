//! `addbot`, `removebot`, `kickbots` and `botlist` through the console, as
//! an operator types them, including the refusals.

mod support;

use quarry_bots::{BotAccess, BotManager};
use quarry_console::Console;
use quarry_sim::Match;

struct Host {
    bots: BotManager,
    game: Option<Match>,
}

fn access(h: &mut Host) -> BotAccess<'_> {
    BotAccess {
        bots: &mut h.bots,
        game: h.game.as_mut(),
    }
}

fn setup(slots: usize) -> (Console<Host>, Host) {
    let mut console = Console::new();
    let cvars = quarry_bots::register(&mut console, access).expect("cvars and commands");
    let host = Host {
        bots: BotManager::with_cvars(cvars),
        game: Some(support::match_on("q_duel1", 3, slots)),
    };
    (console, host)
}

/// Runs a line; returns everything printed (errors included).
fn run(console: &mut Console<Host>, host: &mut Host, line: &str) -> String {
    console.execute(host, line, "test");
    console.drain_output().join("\n")
}

#[test]
fn add_list_remove_and_kick() {
    let (mut c, mut h) = setup(8);
    assert!(run(&mut c, &mut h, "addbot").contains("added bot"), "a pool name");
    let out = run(&mut c, &mut h, "addbot Kestrel 2.5");
    assert!(out.contains("added bot Kestrel in slot 1"), "{out}");
    assert!(run(&mut c, &mut h, "addbot Marsh").contains("added bot Marsh"));
    let list = run(&mut c, &mut h, "botlist");
    assert!(
        list.contains("Kestrel") && list.contains("2.50") && list.contains("Marsh"),
        "{list}"
    );
    assert!(list.contains("navmesh:") && list.contains("ready"), "{list}");
    // Bots play a little, then the list shows their state.
    for _ in 0..120 {
        h.bots.think(h.game.as_mut().expect("game"));
        h.game.as_mut().expect("game").step();
    }
    let list = run(&mut c, &mut h, "botlist");
    assert!(list.contains("alive"), "{list}");
    assert!(
        run(&mut c, &mut h, "removebot kestrel").contains("removed bot Kestrel"),
        "by name, any case"
    );
    assert!(
        run(&mut c, &mut h, "removebot").contains("removed bot Marsh"),
        "the last added"
    );
    assert!(run(&mut c, &mut h, "removebot Nobody").contains("no bot named 'Nobody'"));
    run(&mut c, &mut h, "addbot; addbot");
    assert!(run(&mut c, &mut h, "kickbots").contains("removed 3 bots"));
    assert_eq!(h.game.as_ref().map(|g| g.slots().bots()), Some(0));
    assert!(run(&mut c, &mut h, "removebot").contains("there are no bots"));
    assert!(run(&mut c, &mut h, "botlist").contains("no bots"));
}

#[test]
fn bad_input_gets_clear_messages() {
    let (mut c, mut h) = setup(2);
    let long = "x".repeat(40);
    let out = run(&mut c, &mut h, &format!("addbot {long}"));
    assert!(out.contains("too long") && out.contains("at most 24"), "{out}");
    let out = run(&mut c, &mut h, "addbot Kestrel hard");
    assert!(out.contains("unknown skill 'hard'") && out.contains("1 to 5"), "{out}");
    assert!(run(&mut c, &mut h, "addbot Kestrel 6").contains("unknown skill '6'"));
    assert!(run(&mut c, &mut h, "addbot Kestrel").contains("added"));
    assert!(run(&mut c, &mut h, "addbot Kestrel 3 exact").contains("already in use"));
    assert!(
        run(&mut c, &mut h, "addbot Kestrel").contains("added bot Kestrel(2)"),
        "a duplicate gets a suffix"
    );
    let out = run(&mut c, &mut h, "addbot");
    assert!(out.contains("server is full (2 slots)"), "{out}");
    run(&mut c, &mut h, "kickbots; set bot_enable 0");
    assert!(run(&mut c, &mut h, "addbot").contains("bots are disabled"));
    run(&mut c, &mut h, "set bot_enable 1");
    h.game = None;
    assert!(run(&mut c, &mut h, "addbot").contains("no map is loaded"));
    assert!(run(&mut c, &mut h, "kickbots").contains("removed 0 bots"));
}

#[test]
fn a_map_without_spawn_points_refuses_bots() {
    // The server refuses to start such a map at all; the bot layer's own
    // check says the same if asked about one.
    let text = "{\n\"classname\" \"worldspawn\"\n}\n";
    let map = quarry_map::load_str(text, "empty.map", &quarry_map::LoadOptions::default()).expect("loads");
    let err = quarry_bots::manager::check_map_hosts_bots(&map).expect_err("refused");
    assert_eq!(
        err.to_string(),
        "map 'empty.map' has no spawn points: it can't host bots"
    );
}
