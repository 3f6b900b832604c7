//! Scripted brains through the real sim: the shipped brains compile, the
//! sandbox holds, a runaway script is stopped without stalling the tick
//! (and the bot falls back to the native brain), a brain edited while bots
//! run is picked up (a broken edit keeps the last good version), and the
//! same seed gives the same match.

mod support;

use std::path::{Path, PathBuf};

use glam::Vec3;
use quarry_bots::script::{ScriptError, ScriptLibrary, Source};
use quarry_bots::{AddBot, BotManager};
use quarry_sim::{Match, SlotId};

fn botfiles() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles")
}

fn source(name: &str, text: &str) -> Source {
    Source { name: format!("brains/{name}.rhai"), text: text.to_owned() }
}

/// A botfiles folder of one's own, with `brains/NAME.rhai` files.
struct Botfiles {
    dir: tempfile::TempDir,
}

impl Botfiles {
    fn new(brains: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("brains/lib")).expect("brains dir");
        let b = Self { dir };
        for (name, text) in brains {
            b.write(name, text);
        }
        b
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.dir.path().join(format!("brains/{name}.rhai"));
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).expect("write brain");
        std::fs::rename(&tmp, &path).expect("rename brain");
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

fn manager_with(botfiles: &Path) -> BotManager {
    let mut bots = support::manager(3.0);
    bots.set_botfiles_dir(botfiles);
    let report = bots.load_brains().expect("a botfiles dir");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    bots
}

fn add(bots: &mut BotManager, game: &mut Match, name: &str, brain: &str) -> SlotId {
    bots.add_bot(game, AddBot { name: Some(name.into()), brain: Some(brain.into()), ..AddBot::default() }).expect("bot")
}

fn origin(game: &Match, slot: SlotId) -> Vec3 {
    game.player_view(slot).expect("player").origin
}

#[test]
fn the_shipped_brains_compile() {
    let mut lib = ScriptLibrary::new(quarry_bots::script::DEFAULT_MAX_OPS);
    let report = lib.load_dir(&botfiles());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.loaded, ["companion", "strafer"]);
}

#[test]
fn the_sandbox_has_no_import_eval_files_clock_or_stdout() {
    let lib = ScriptLibrary::new(10_000);
    let mut lib = lib;
    let e = lib.load_source("x", &source("x", "import \"os\" as os;\nfn on_tick(dt) {}\n"), &[]).expect_err("import refused");
    assert!(matches!(e, ScriptError::Compile { line: 1, .. }), "{e}");
    assert!(e.to_string().starts_with("brains/x.rhai:1:"), "{e}");
    let e = lib.load_source("x", &source("x", "fn on_tick(dt) {\n    eval(\"1\");\n}\n"), &[]).expect_err("eval refused");
    assert!(matches!(e, ScriptError::Compile { line: 2, .. }), "{e}");
    let e = lib.load_source("x", &source("x", "fn on_join() {}\n"), &[]).expect_err("on_tick needed");
    assert!(matches!(e, ScriptError::MissingEntry { .. }), "{e}");
    // Names that would reach outside are simply not there: each call fails
    // with the function's name and where.
    for (call, name) in [("open(\"/etc/passwd\")", "open"), ("read_file(\"x\")", "read_file"), ("timestamp()", "timestamp"), ("system(\"ls\")", "system")] {
        let text = format!("fn on_tick(dt) {{\n    {call};\n}}\n");
        lib.load_source("probe", &source("probe", &text), &[]).expect("compiles (unknown functions are found at run time)");
        let (program, _) = lib.get("probe").expect("loaded");
        let mut instance = program.instantiate();
        let host = std::sync::Arc::new(std::sync::Mutex::new(quarry_bots::script::HostState::new(quarry_bots::rng::BotRng::for_slot(1, 0, 0))));
        let e = instance.call(quarry_bots::script::Entry::Tick(0.1), &host).expect_err("no such function");
        let text = e.to_string();
        assert!(text.starts_with("brains/probe.rhai:2:") && text.contains(name), "{text}");
    }
    // `print` goes nowhere (the raw engine has no stdout).
    lib.load_source("p", &source("p", "fn on_tick(dt) { print(\"hello\"); debug(\"there\"); }\n"), &[]).expect("compiles");
    let (program, _) = lib.get("p").expect("loaded");
    let host = std::sync::Arc::new(std::sync::Mutex::new(quarry_bots::script::HostState::new(quarry_bots::rng::BotRng::for_slot(1, 0, 0))));
    program.instantiate().call(quarry_bots::script::Entry::Tick(0.1), &host).expect("print is a no-op");
}

const WALK_EAST: &str = "fn on_tick(dt) {\n    this.count = if type_of(this.count) == \"()\" { 1 } else { this.count + 1 };\n    move_dir(vec3(1, 0, 0));\n    set_view(0.0, 0.0);\n}\n";

#[test]
fn an_endless_loop_is_stopped_and_the_bot_falls_back_to_the_native_brain() {
    let files = Botfiles::new(&[("spin", "fn on_tick(dt) {\n    loop { }\n}\n")]);
    let mut game = support::match_on("q_dm1", 3, 4);
    let mut bots = manager_with(files.path());
    let slot = add(&mut bots, &mut game, "Spinner", "spin");
    let start = game.tick();
    let wall = std::time::Instant::now();
    support::run(&mut game, &mut bots, 120);
    let spent = wall.elapsed();
    assert_eq!(game.tick(), start + 120, "the tick went on");
    let line = bots.list_lines(Some(&game)).join("\n");
    assert!(line.contains("native: brain spin failed"), "botlist says the native brain plays it:\n{line}");
    // The native brain plays it now: it moves.
    let before = origin(&game, slot);
    support::run(&mut game, &mut bots, 300);
    assert!(origin(&game, slot).distance(before) > 50.0, "the native brain moves the bot");
    eprintln!("5 over-budget calls and 420 ticks took {spent:.2?}");
}

#[test]
fn a_brain_edited_while_bots_run_is_picked_up_and_a_broken_edit_keeps_the_old() {
    let files = Botfiles::new(&[("walker", WALK_EAST)]);
    let mut game = support::match_on("q_dm1", 4, 4);
    let mut bots = manager_with(files.path());
    let slot = add(&mut bots, &mut game, "Walker", "walker");
    support::run(&mut game, &mut bots, 60);
    let a = origin(&game, slot);
    support::run(&mut game, &mut bots, 30);
    let b = origin(&game, slot);
    assert!(b.x > a.x + 20.0 || b.distance(a) < 1.0, "walks east (or stands against a wall): {a} -> {b}");
    // A broken edit: reported with file and line, the old version stays.
    files.write("walker", "fn on_tick(dt) {\n    move_dir(vec3(-1, 0, 0)\n}\n");
    let report = bots.load_brains().expect("dir");
    assert_eq!(report.errors.len(), 1);
    let e = report.errors[0].to_string();
    assert!(e.starts_with("brains/walker.rhai:3:"), "{e}");
    let line = bots.list_lines(Some(&game)).join("\n");
    assert!(line.contains("script walker"), "still scripted:\n{line}");
    // A good edit: moves west once the count (kept in memory across the
    // reload) is past 10; a cleared memory would fail the comparison.
    files.write("walker", "fn on_tick(dt) {\n    if this.count > 10 { move_dir(vec3(-1, 0, 0)); }\n    set_view(0.0, 180.0);\n}\n");
    let report = bots.load_brains().expect("dir");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    support::run(&mut game, &mut bots, 10);
    let c = origin(&game, slot);
    support::run(&mut game, &mut bots, 60);
    let d = origin(&game, slot);
    assert!(d.x < c.x - 20.0, "walks west after the reload: {c} -> {d}");
    let line = bots.list_lines(Some(&game)).join("\n");
    assert!(!line.contains("native"), "no fallback:\n{line}");
}

fn hashes_of(seed: u64) -> Vec<u64> {
    let mut game = support::match_on("q_dm1", seed, 6);
    let mut bots = manager_with(&botfiles());
    add(&mut bots, &mut game, "Target", "strafer");
    add(&mut bots, &mut game, "Native", "companion");
    bots.add_bot(&mut game, AddBot { name: Some("Plain".into()), ..AddBot::default() }).expect("native bot");
    (0..1200)
        .map(|_| {
            bots.think(&mut game);
            game.step();
            game.state_hash()
        })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_match_with_scripted_bots() {
    let a = hashes_of(21);
    let b = hashes_of(21);
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    assert_eq!(first, None, "diverged at tick {first:?}");
    assert_ne!(hashes_of(22).last(), a.last(), "another seed, another match");
}

#[test]
fn errors_name_the_file_and_function_they_happen_in() {
    let mut lib = ScriptLibrary::new(5_000);
    let helper = Source { name: "brains/lib/help.rhai".into(), text: "// a helper\nfn helper(x) {\n    x.no_such_method();\n}\n".into() };
    lib.load_source("b", &source("b", "fn on_tick(dt) {\n    helper(1);\n}\n"), &[helper]).expect("compiles");
    let host = std::sync::Arc::new(std::sync::Mutex::new(quarry_bots::script::HostState::new(quarry_bots::rng::BotRng::for_slot(1, 0, 0))));
    let (program, _) = lib.get("b").expect("loaded");
    let e = program.instantiate().call(quarry_bots::script::Entry::Tick(0.1), &host).expect_err("fails in the helper");
    assert!(e.to_string().starts_with("brains/lib/help.rhai:3:"), "{e}");
    lib.load_source("spin", &source("spin", "fn on_tick(dt) {\n    loop {}\n}\n"), &[]).expect("compiles");
    let (program, _) = lib.get("spin").expect("loaded");
    let e = program.instantiate().call(quarry_bots::script::Entry::Tick(0.1), &host).expect_err("over budget");
    assert_eq!(e.to_string(), "brains/spin.rhai: on_tick() stopped after 5000 operations (bot_scriptMaxOps)");
}
