//! Issue 13, "no input kills or starves the server", botfiles part: a
//! seeded mutator over the shipped styles, characters and chats plus the
//! reported repro inputs (a long `inherit` chain, runaway braces and
//! quotes). Parsing must never panic, and whatever loads stays within the
//! caps of `quarry_bots::content::limits` with every warning naming a line
//! of the file. 1500 cases, about a second in a debug build; seeded, so a failure
//! replays (the failing seed and text are in the message).

use std::path::PathBuf;

use quarry_bots::chat::add_chat_text;
use quarry_bots::content::limits::{MAX_CHAT_BANKS_PER_FILE, MAX_CHARACTERS_PER_FILE, MAX_STYLES_PER_FILE};
use quarry_bots::content::{Content, Warning};
use quarry_bots::rng::BotRng;
use quarry_sim::weapons::WeaponTable;

const CASES: u64 = 1500;

/// Pieces the mutator splices in: the grammar's words and punctuation.
const VOCABULARY: &[&str] = &[
    "{", "}", "\"", "\n", " ", ";", "//", "#", "style", "character", "characterChat", "inherit", "skill 3 {", "skill 9 {",
    "set aggression 2", "scale fov 1e30", "add combatRange -1", "weapon \"railgun\" 5", "weapon x NaN", "skillBand 5 1",
    "weight -1", "model", "description", "chat kill", "chat nosuchevent", "reply r", "trigger \"hi\"", "priority 1e9",
    "source bot", "addressed required", "\"$other $self $map $nope\"", "\"/quit\"", "\u{0}", "\u{202e}", "é",
];

fn shipped(sub: &str) -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles").join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("shipped botfiles").filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    files.iter().map(|p| std::fs::read_to_string(p).expect("shipped file is text")).collect()
}

/// The reported repro inputs, kept as fixed cases.
fn regressions() -> Vec<String> {
    let mut chain = String::from("style \"s0\" {\n}\n");
    for i in 1..5_000 {
        chain.push_str(&format!("style \"s{i}\" {{ inherit \"s{}\"\n}}\n", i - 1));
    }
    vec![
        chain,
        "{".repeat(10_000),
        "}".repeat(10_000),
        "\"".repeat(10_001),
        "style \"a\" {\n skill 1 {\n skill 2 {\n".repeat(500),
        "characterChat \"x\" {\n chat kill {\n".repeat(500),
        "style \"a\" { inherit \"a\"\n}\ncharacter \"b\" { style \"a\"\n}\n".to_owned(),
    ]
}

/// One mutation of `text`: delete, duplicate or insert a vocabulary piece.
fn mutate(rng: &mut BotRng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let len = chars.len() as u32;
    let at = rng.below(len + 1) as usize;
    let span = (rng.below(40) as usize).min(chars.len() - at);
    let mut out: Vec<char> = chars[..at].to_vec();
    match rng.below(3) {
        0 => out.extend(&chars[at + span..]),
        1 => {
            out.extend(&chars[at..at + span]);
            out.extend(&chars[at..]);
        }
        _ => {
            let piece = VOCABULARY[rng.below(VOCABULARY.len() as u32) as usize];
            out.extend(piece.chars());
            out.extend(&chars[at..]);
        }
    }
    out.into_iter().collect()
}

fn check_warnings(w: &[Warning], file: &str, text: &str, seed: u64) {
    let lines = text.lines().count() as u32 + 1;
    for warning in w {
        assert_eq!(warning.file, file, "seed {seed}: {warning}");
        assert!(warning.line <= lines, "seed {seed}: line {} past the end ({lines}): {warning}", warning.line);
        assert!(!warning.message.is_empty(), "seed {seed}");
    }
}

/// Parses `text` as a style or character file and as a chat file.
fn parse_all(text: &str, seed: u64) {
    let mut content = Content::default();
    let mut w = Vec::new();
    content.add_text("f.bot", text, &mut w);
    content.finish(&WeaponTable::default(), &mut w, &|_| ("f.bot".to_owned(), 0));
    check_warnings(&w, "f.bot", text, seed);
    assert!(content.styles.len() <= MAX_STYLES_PER_FILE, "seed {seed}");
    assert!(content.characters.len() <= MAX_CHARACTERS_PER_FILE, "seed {seed}");
    let mut w = Vec::new();
    add_chat_text(&mut content, "f.chat", text, &mut w);
    check_warnings(&w, "f.chat", text, seed);
    assert!(content.chats.len() <= MAX_CHAT_BANKS_PER_FILE.min(content.characters.len()), "seed {seed}");
}

#[test]
fn regression_inputs_parse_without_panicking() {
    for (i, text) in regressions().iter().enumerate() {
        parse_all(text, i as u64);
    }
}

#[test]
fn mutated_botfiles_parse_without_panicking() {
    let mut seeds: Vec<String> = ["styles", "characters", "chats"].iter().flat_map(|s| shipped(s)).collect();
    seeds.extend(regressions().into_iter().skip(4));
    for seed in 0..CASES {
        let mut rng = BotRng::from_seed(seed);
        let base = &seeds[rng.below(seeds.len() as u32) as usize];
        let mut text = base.clone();
        for _ in 0..1 + rng.below(12) {
            text = mutate(&mut rng, &text);
        }
        let result = std::panic::catch_unwind(|| parse_all(&text, seed));
        assert!(result.is_ok(), "seed {seed} panicked on:\n{text}");
    }
}
