//! Chat layer tests: the file grammar and its validation, and the director
//! (replies, throttles, typing delay) on hand-made banks.

use quarry_sim::{SlotId, Team};

use super::bank::{MAX_RULES, ReplySource};
use super::director::{BOT_THROTTLE_MS, GLOBAL_THROTTLE_MS, typing_delay_ms};
use super::*;
use crate::content::{Character, Content, Layer, Warning};
use crate::view::BotClock;

fn content_with(names: &[&str]) -> Content {
    let mut c = Content::default();
    for n in names {
        c.characters.push(Character {
            name: (*n).into(),
            description: String::new(),
            style: None,
            band: (1, 5),
            weight: 1.0,
            model: String::new(),
            brain: None,
            layer: Layer::default(),
        });
    }
    c
}

fn load(text: &str) -> (Content, Vec<Warning>) {
    let mut c = content_with(&["Tamsin", "Rook"]);
    let mut w = Vec::new();
    add_chat_text(&mut c, "t.chat", text, &mut w);
    (c, w)
}

const GOOD: &str = r#"
characterChat "tamsin" {          // owner, any case
    chat entergame {
        "evening all. who's first"
        "$map again? fine by me"
    }
    chat KILL { "sorry $other" "that $weapon though" }
    reply greeting {
        priority 40
        source any
        addressed either
        trigger "hi"
        trigger "hello there"
        "hey $other"
        "hi $other"
    }
}
"#;

#[test]
fn parses_the_documented_grammar() {
    let (c, w) = load(GOOD);
    assert!(w.is_empty(), "{w:?}");
    let b = c.chat_bank("TAMSIN").expect("bank");
    assert_eq!(b.owner, "Tamsin", "joined to the character's spelling");
    assert_eq!(b.lines(ChatEvent::EnterGame).len(), 2);
    assert_eq!(b.lines(ChatEvent::Kill).len(), 2);
    assert!(b.lines(ChatEvent::Kill)[1].tokens.has(Token::Weapon));
    let r = &b.rules[0];
    assert_eq!((r.name.as_str(), r.priority, r.source, r.addressed), ("greeting", 40, ReplySource::Any, Addressed::Either));
    assert_eq!(r.triggers, vec!["hi".to_owned(), "hello there".to_owned()]);
    assert_eq!(r.responses.len(), 2);
}

#[test]
fn broken_units_warn_with_lines_and_are_skipped_alone() {
    let long = "x".repeat(161);
    let text = format!(
        r#"characterChat "Tamsin" {{
    chat teabag {{ "nope" }}
    chat kill {{
        "fine line"
        "{long}"
        "/kill"
        "!rank"
        "nice $weapon on $bogus"
        "fine line"
        bare words
    }}
    chat levelstart {{ "hello $other" }}
    reply r1 {{
        priority 140
        source nobody
        addressed sometimes
        colour red
        trigger "?!"
        trigger "hi"
        trigger "hi"
        trigger "{long}"
        "hey $weapon"
        "hey"
    }}
    reply empty {{ trigger "x" }}
    mood happy {{ }}
}}
characterChat "Nobody" {{ chat kill {{ "x" }} }}
characterChat "Rook" {{
    chat kill {{ "rook line" }}
"#
    );
    let (c, w) = load(&text);
    let at = |line: u32, has: &str| {
        assert!(w.iter().any(|x| x.line == line && x.message.contains(has) && x.file == "t.chat"), "line {line} '{has}' in {w:#?}")
    };
    at(2, "unknown chat event 'teabag'");
    at(5, "over 160");
    at(6, "reinterpret");
    at(7, "reinterpret");
    at(8, "unknown token $bogus");
    at(9, "duplicate line");
    at(10, "expected a quoted line");
    at(12, "can't fill $other");
    at(14, "priority 140");
    at(15, "source 'nobody'");
    at(16, "addressed 'sometimes'");
    at(17, "unknown reply key 'colour'");
    at(18, "no letters");
    at(20, "duplicate trigger");
    at(21, "over 48");
    at(22, "can't fill $weapon");
    at(25, "needs at least one trigger and one response");
    at(26, "unknown characterChat key 'mood'");
    at(28, "no such character");
    at(29, "never closed");
    let b = c.chat_bank("Tamsin").expect("the rest of Tamsin's bank loads");
    assert_eq!(b.lines(ChatEvent::Kill).iter().map(|l| l.text.as_str()).collect::<Vec<_>>(), ["fine line"]);
    assert!(b.lines(ChatEvent::LevelStart).is_empty());
    assert_eq!(b.rules.len(), 1);
    assert_eq!((b.rules[0].priority, b.rules[0].triggers.len(), b.rules[0].responses.len()), (100, 1, 1));
    assert!(c.chat_bank("Rook").is_none(), "an unclosed block is not committed");
}

#[test]
fn caps_rules_per_character_and_keeps_the_first_bank() {
    let mut text = String::from("characterChat \"Rook\" {\n");
    for i in 0..=MAX_RULES {
        text.push_str(&format!("reply r{i} {{\n trigger \"t{i}\"\n \"ok\"\n}}\n"));
    }
    text.push_str("}\ncharacterChat \"rook\" { chat kill { \"again\" } }\n");
    let (c, w) = load(&text);
    assert_eq!(c.chat_bank("Rook").map(|b| b.rules.len()), Some(MAX_RULES));
    assert!(w.iter().any(|x| x.message.contains("more than 32 reply rules")));
    assert!(w.iter().any(|x| x.message.contains("a second characterChat")));
}

// ---- director ------------------------------------------------------------

fn bank() -> ChatBank {
    let (c, w) = load(
        r#"characterChat "Tamsin" {
    chat kill { "one" "two" "three" "got you $other" }
    chat death { "ouch" }
    reply greet {
        priority 20
        trigger "hi" "hello"
        "hey $other" "hi $other" "yo $other"
    }
    reply direct {
        addressed required
        trigger "tamsin"
        "what $other" "yes?"
    }
}"#,
    );
    assert!(w.is_empty(), "{w:?}");
    c.chat_bank("Tamsin").cloned().expect("bank")
}

fn bot<'a>(slot: u8, name: &'a str, team: Team, bank: &'a ChatBank) -> ChatBot<'a> {
    ChatBot { slot: SlotId(slot), name, team, bank: Some(bank), chatiness: 1.0, delay_scale: 1.0 }
}

fn clock(tick: u32) -> BotClock {
    BotClock { tick, hz: 60 }
}

fn said(d: &mut ChatDirector, from: u32, to: u32) -> Vec<(u32, Outgoing)> {
    (from..to).flat_map(|t| d.poll_due(clock(t)).into_iter().map(move |o| (t, o))).collect()
}

fn human(text: &str) -> Incoming<'_> {
    Incoming { from: Some(SlotId(0)), from_name: "Ann", from_bot: false, team: None, text }
}

#[test]
fn typing_delay_follows_the_formula_and_is_capped() {
    let s = ChatSettings::default();
    // 40 visible characters at 900 cpm: 600 + 2667 ms, x1.1, no jitter.
    let d = typing_delay_ms(&"a".repeat(40), &s, 1.1, 0.0);
    assert!((d - 3593.3).abs() < 1.0, "{d}");
    assert_eq!(typing_delay_ms("^1a", &s, 0.1, 0.0), 750.0);
    assert_eq!(typing_delay_ms(&"a".repeat(150), &s, 5.0, 1.0), 5000.0);
}

#[test]
fn an_addressed_bot_answers_and_only_one_answers() {
    let b = bank();
    let bots = [bot(1, "Tamsin", Team::Free, &b), bot(2, "Rook", Team::Free, &b), bot(3, "Pike", Team::Free, &b)];
    let s = ChatSettings::default();
    let mut answered = [0u32; 4];
    for seed in 0..200 {
        let mut d = ChatDirector::new(seed);
        if let Some(who) = d.on_chat(clock(10), &s, &human("hi there, ^3Rook!"), &bots, "q_dm1") {
            answered[usize::from(who.0)] += 1;
        }
        let lines = said(&mut d, 10, 400);
        assert!(lines.len() <= 1, "one responder per message");
        if let Some((t, l)) = lines.first() {
            assert_eq!(l.slot, SlotId(2));
            assert!(l.text.ends_with(" Ann"), "{}", l.text);
            assert_eq!(l.kind, LineKind::Reply);
            assert!(*t >= 10 + 45, "typed, not instant");
        }
    }
    assert_eq!(answered[1] + answered[3], 0, "the named bot is preferred");
    assert!((150..=190).contains(&answered[2]), "addressed chance ~0.85: {answered:?}");
}

#[test]
fn replies_never_trigger_replies_and_cooldown_holds() {
    let b = bank();
    let bots = [bot(1, "Tamsin", Team::Free, &b), bot(2, "Rook", Team::Free, &b)];
    let s = ChatSettings::default();
    let mut loops = 0;
    for seed in 0..100 {
        let mut d = ChatDirector::new(seed);
        let _ = d.on_chat(clock(0), &s, &human("Hello Tamsin"), &bots, "m");
        for (t, l) in said(&mut d, 0, 600) {
            // Everyone hears the reply as chat from the bot; it says "hi"/"hey".
            let echo = Incoming { from: Some(l.slot), from_name: "Tamsin", from_bot: true, team: None, text: &l.text };
            loops += u32::from(d.on_chat(clock(t + 1), &s, &echo, &bots, "m").is_some());
        }
    }
    assert_eq!(loops, 0);
    // Cooldown: after a reply to Ann, Ann triggers nothing for 8 s, even
    // addressed to a bot whose own throttle is free.
    let (mut queued, mut later) = (0, 0);
    for seed in 0..100 {
        let mut d = ChatDirector::new(seed);
        if d.on_chat(clock(0), &s, &human("Hello Tamsin"), &bots, "m").is_some() {
            queued += 1;
            assert!(d.on_chat(clock(300), &s, &human("hello Rook"), &bots, "m").is_none());
            later += u32::from(d.on_chat(clock(60 * 9), &s, &human("hello Rook"), &bots, "m").is_some());
        }
    }
    assert!(queued > 50 && later > queued / 2, "{queued} {later}");
}

#[test]
fn team_chat_gets_team_replies_only() {
    let b = bank();
    let bots = [bot(1, "Red1", Team::Red, &b), bot(2, "Blue1", Team::Blue, &b), bot(3, "Red2", Team::Red, &b)];
    let s = ChatSettings::default();
    for seed in 0..100 {
        let mut d = ChatDirector::new(seed);
        let msg = Incoming { from: Some(SlotId(0)), from_name: "Ann", from_bot: false, team: Some(Team::Red), text: "hi" };
        let _ = d.on_chat(clock(0), &s, &msg, &bots, "m");
        for (_, l) in said(&mut d, 0, 400) {
            assert!(l.team, "a team message is answered in team chat");
            assert_ne!(l.slot, SlotId(2), "never from the other team");
        }
    }
}

#[test]
fn throttles_hold_under_a_flood() {
    let b = bank();
    let names = ["Tamsin", "Rook", "Pike", "Wren", "Sable", "Tuck", "Quill", "Mote"];
    let bots: Vec<ChatBot<'_>> = names.iter().enumerate().map(|(i, n)| bot(i as u8 + 1, n, Team::Free, &b)).collect();
    let s = ChatSettings::default();
    let mut d = ChatDirector::new(7);
    let tokens = ChatTokens { self_name: "x".into(), other: Some("Ann".into()), map: "m".into(), ..ChatTokens::default() };
    let mut lines = Vec::new();
    // 1,000 chat messages and 1,000 kill events within one second (60 ticks).
    for i in 0..1000u32 {
        let t = i * 60 / 1000;
        let text = format!("hi {}", names[(i % 8) as usize]);
        let msg = Incoming { from: Some(SlotId(20 + (i % 10) as u8)), from_name: "Ann", from_bot: false, team: None, text: &text };
        let _ = d.on_chat(clock(t), &s, &msg, &bots, "m");
        let _ = d.on_event(clock(t), &s, &bots[(i % 8) as usize], ChatEvent::Kill, &tokens);
        lines.extend(d.poll_due(clock(t)));
    }
    lines.extend(said(&mut d, 60, 600).into_iter().map(|x| x.1));
    // In 10 s: at most one line per global throttle window, plus the first.
    let bound = 1 + (600.0 / (GLOBAL_THROTTLE_MS * 0.06)) as usize;
    assert!(lines.len() <= 1, "the flood second queues one line at most: {}", lines.len());
    assert!(lines.len() <= bound);
    assert!(d.figures().throttled > 500);
    // And the per-bot throttle: a bot speaks again only after BOT_THROTTLE_MS.
    let mut d = ChatDirector::new(1);
    let mut at = Vec::new();
    for t in 0..3600u32 {
        let _ = d.on_event(clock(t), &s, &bots[0], ChatEvent::Kill, &tokens);
        at.extend(d.poll_due(clock(t)).into_iter().map(|_| t));
    }
    assert!(at.windows(2).all(|w| w[1] - w[0] >= (BOT_THROTTLE_MS * 0.06) as u32 - 300), "{at:?}");
    assert!(at.len() >= 5 && at.len() <= 8, "{at:?}");
    assert_eq!(d.figures().back_to_back_repeats, 0);
}

#[test]
fn chat_off_silent_and_chatty_halves() {
    let b = bank();
    let me = bot(1, "Tamsin", Team::Free, &b);
    let tokens = ChatTokens { self_name: "Tamsin".into(), map: "m".into(), ..ChatTokens::default() };
    let count = |mode: u8| {
        let s = ChatSettings { mode, ..ChatSettings::default() };
        let mut d = ChatDirector::new(3);
        let mut n = 0;
        for t in 0..3600u32 {
            let _ = d.on_event(clock(t), &s, &me, ChatEvent::Kill, &tokens);
            let _ = d.on_event(clock(t), &s, &me, ChatEvent::Death, &tokens);
            n += d.poll_due(clock(t)).len();
        }
        (n, d.figures().by_event.get("death").copied().unwrap_or(0))
    };
    assert_eq!(count(0), (0, 0));
    let ((normal, deaths), (chatty, _)) = (count(1), count(2));
    assert!(chatty > normal + 3, "{normal} {chatty}");
    // "ouch" is the only death line: said once, then silence (never back to back).
    assert_eq!(deaths, 1);
}

#[test]
fn a_team_call_of_a_bot_that_died_before_saying_it_is_dropped() {
    let (c, w) = load(r#"characterChat "Tamsin" { chat teamClear { "clear at $place" } chat kill { "got you $other" "easy, $other" } }"#);
    assert!(w.is_empty(), "{w:?}");
    let b = c.chat_bank("Tamsin").cloned().expect("bank");
    let (me, mate) = (bot(1, "Tamsin", Team::Red, &b), bot(2, "Rook", Team::Red, &b));
    let s = ChatSettings::default();
    let tokens = ChatTokens { place: Some("the lift".into()), other: Some("Ann".into()), ..ChatTokens::default() };
    let fact = crate::team::Attachment::Fact(crate::team::TeamFact::Clear { position: glam::Vec3::ZERO, tick: 10 });
    let mut d = ChatDirector::new(1);
    assert!(d.on_team(clock(10), &s, &me, ChatEvent::TeamClear, &tokens, Some(fact), Some(400.0)));
    assert!(d.on_team(clock(10), &s, &mate, ChatEvent::TeamClear, &tokens, Some(fact), Some(400.0)));
    // Slot 1 dies before its call goes out; slot 2 does not.
    d.drop_calls(|slot| slot == SlotId(1));
    let lines = said(&mut d, 10, 200);
    assert_eq!(lines.iter().map(|(_, l)| l.slot).collect::<Vec<_>>(), vec![SlotId(2)], "only the living bot's call");
    assert!((33..=35).contains(&lines[0].0), "a call goes out when its delay is over, not typed: tick {}", lines[0].0);
    // Small talk is no call: a bot that died still says it.
    let kept = (0..50).any(|seed| {
        let mut d = ChatDirector::new(seed);
        if !d.on_event(clock(10), &s, &me, ChatEvent::Kill, &tokens) {
            return false;
        }
        d.drop_calls(|_| true);
        assert!(d.is_typing(SlotId(1)), "small talk stays pending");
        true
    });
    assert!(kept, "some seed queues the kill line");
}
