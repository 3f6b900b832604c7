//! Content layer tests: resolution order, clamping, weapon merge, the
//! shipped botfiles, broken files and character selection.

use std::path::PathBuf;

use quarry_sim::weapons::WeaponTable;

use super::files::{Content, Warning, skill_block, weapon_number};
use super::load::load_botfiles;
use super::source::ContentTraitSource;
use super::{BotIdentity, SkillCurve, TraitSource, Traits};
use crate::rng::BotRng;

fn parse(text: &str) -> (Content, Vec<Warning>) {
    let mut c = Content::default();
    let mut w = Vec::new();
    c.add_text("test.bot", text, &mut w);
    c.finish(&WeaponTable::default(), &mut w, &|_| ("test.bot".into(), 0));
    (c, w)
}

fn botfiles() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles")
}

fn who(name: &str) -> BotIdentity {
    BotIdentity { name: name.into(), character: None }
}

const WORKED: &str = r#"
style "base" {
    set combatRange 300
    scale aggression 1.5
    weapon "railgun" 2
    weapon "shotgun" 0.5
    skill 2 { scale combatRange 0.01 }
    skill 3 {
        add combatRange 100
    }
}
character "Worked" {
    inherit "base"
    scale combatRange 2
    add aggression 0.5
    weapon "shotgun" 1.7
    weapon "plasma_gun" 1.2
    skill 3 {
        add aggression -0.3
    }
}
"#;

#[test]
fn resolution_order_and_immediate_clamping_on_a_worked_example() {
    let (c, w) = parse(WORKED);
    assert!(w.is_empty(), "{w:?}");
    let ch = c.character("worked").expect("character");
    // 2.6 rounds to block 3; the baseline itself is interpolated at 2.6.
    let (t, _) = c.resolve(Some(ch), 2.6);
    // Baseline 500 -> style set 300 -> style skill 3 +100 = 400 -> character x2 = 800.
    // (Character before the style's skill block would give 700.)
    assert_eq!(t.combat_range, 800.0);
    // 0.5 x1.5 = 0.75 -> +0.5 clamps at once to 1.0 -> skill 3 -0.3 = 0.7.
    // (Clamping only at the end would give 0.95.)
    assert!((t.aggression - 0.7).abs() < 1e-6, "{}", t.aggression);
    // Untouched traits are the interpolated baseline.
    assert_eq!(t.fire_cone_deg, Traits::at_skill(2.6).fire_cone_deg);
    // At skill 2 the other block applies instead: 300 x0.01 clamps to the minimum 32, x2 = 64.
    let (t2, _) = c.resolve(Some(ch), 2.0);
    assert_eq!(t2.combat_range, 64.0);
    assert!((t2.aggression - 1.0).abs() < 1e-6);
    // No character: the plain curve.
    assert_eq!(c.resolve(None, 3.0).0, Traits::at_skill(3.0));
    assert_eq!(skill_block(2.49), 2);
    assert_eq!(skill_block(2.5), 3);
    assert_eq!(skill_block(f32::NAN), 1);
}

#[test]
fn weapon_preferences_merge_by_name() {
    let (c, _) = parse(WORKED);
    let src = ContentTraitSource::new(c);
    let r = src.resolve(&BotIdentity { name: "a".into(), character: Some("Worked".into()) }, 3.0);
    let t = WeaponTable::default();
    let num = |n: &str| weapon_number(&t, n).expect("weapon");
    assert_eq!(r.weapon_bias.of(num("railgun")), 2.0, "style entry kept");
    assert_eq!(r.weapon_bias.of(num("shotgun")), 1.7, "character replaces only its weapon");
    assert_eq!(r.weapon_bias.of(num("plasma_gun")), 1.2, "character adds a new one");
    assert_eq!(r.weapon_bias.of(num("rocket_launcher")), 1.0, "unmentioned stays neutral");
    // Loose names: `rocketlauncher` and a pickup class both reach the table.
    assert_eq!(weapon_number(&t, "rocketlauncher"), Some(num("rocket_launcher")));
    assert_eq!(weapon_number(&t, "weapon_railgun"), Some(num("railgun")));
    // A repeat inside one layer replaces the earlier value.
    let (c, w) = parse("style \"s\" {\n weapon \"railgun\" 3\n weapon \"RAILGUN\" 0.5\n}\ncharacter \"C\" {\n inherit \"s\"\n}\n");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(c.styles[0].layer.weapons.len(), 1);
    let r = ContentTraitSource::new(c).resolve(&who("x"), 3.0);
    assert_eq!(r.weapon_bias.of(num("railgun")), 0.5);
}

#[test]
fn every_shipped_file_loads_without_warnings() {
    let (c, w) = load_botfiles(&botfiles());
    assert!(w.is_empty(), "{}", w.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
    let mut styles: Vec<&str> = c.styles.iter().map(|s| s.name.as_str()).collect();
    styles.sort_unstable();
    assert_eq!(styles, ["ambusher", "hunter", "roamer", "rusher", "skirmisher", "sniper"]);
    assert_eq!(c.characters.len(), 16);
    for ch in &c.characters {
        assert!(ch.style.is_some(), "{} has a style", ch.name);
        assert!(!ch.description.is_empty() && ch.weight > 0.0, "{}", ch.name);
        for s in 1..=5 {
            // Every character resolves inside every range at every level.
            let (t, _) = c.resolve(Some(ch), s as f32);
            let mut clamped = t;
            clamped.clamp_all();
            assert_eq!(t, clamped);
        }
    }
    for level in 1..=5u8 {
        let n = c.characters.iter().filter(|ch| ch.in_band(level)).count();
        assert!(n >= 3, "level {level} has {n} preferred characters");
    }
    // Styles really differ where they should.
    let by = |name: &str, s: f32| c.resolve(c.character(name), s).0;
    assert!(by("Tamsin", 3.0).combat_range < by("Quill", 3.0).combat_range);
}

#[test]
fn a_broken_file_warns_per_statement_and_keeps_the_rest() {
    let text = r#"
banana "x" { set fov 90 }
style "ok" {
    set combatRange 400
    set noSuchTrait 3
    set aggression 7
    scale patience lots
    frobnicate 2
    add pursuit 0.1
    weapon "bfg9000" 2
    weapon "railgun" 500
    weapon "railgun" 1.5
    skill 9 {
        set fov 100
    }
    skill 2 {
        weapon "shotgun" 2
        set fov 100
    }
    set vengefulness
}
character "Lost" {
    inherit "nowhere"
    skillBand 4 2
    weight -1
    set aggression 0.9
}
style "ok" { set fov 80 }
character "Half" {
    set aggression 0.2
"#;
    let (c, w) = parse(text);
    let lines: Vec<u32> = {
        // Re-parse without `finish` to read parse-time lines (finish warnings use the origin).
        let mut cc = Content::default();
        let mut ww = Vec::new();
        cc.add_text("test.bot", text, &mut ww);
        ww.iter().map(|w| w.line).collect()
    };
    // banana, trait, range, number, key, weapon bias, skill 9, weapon in skill,
    // missing value, skillBand, weight, duplicate style, unclosed block.
    for l in [2, 5, 6, 7, 8, 11, 13, 17, 20, 24, 25, 28, 29] {
        assert!(lines.contains(&l), "no warning on line {l}: {w:?}");
    }
    assert!(w.iter().all(|w| w.file == "test.bot"));
    assert!(w.iter().any(|w| w.message.contains("nowhere")), "{w:?}");
    assert!(w.iter().any(|w| w.message.contains("bfg9000")), "{w:?}");
    // What was good survived.
    let ok = c.style("ok").expect("style kept");
    let names: Vec<&str> = ok.layer.body.iter().map(|s| s.row.name).collect();
    assert_eq!(names, ["combatRange", "pursuit"]);
    assert_eq!(ok.layer.skill[1].len(), 1, "the good line of skill 2 stays");
    assert!(ok.layer.skill.iter().all(|b| b.iter().all(|s| s.value != 0.0)));
    assert_eq!(ok.layer.weapons, [("railgun".to_string(), 1.5)]);
    let lost = c.character("Lost").expect("character kept");
    assert_eq!(lost.style, None);
    assert_eq!(lost.band, (1, 5));
    assert_eq!(lost.weight, 1.0);
    assert!(c.character("Half").is_some(), "an unclosed block keeps its statements");
    // And it still resolves to something inside every range.
    let (t, _) = c.resolve(Some(lost), 3.0);
    assert_eq!(t.aggression, 0.9);
}

const ROSTER: &str = r#"
character "Low" { skillBand 1 2 }
character "Mid" { skillBand 3 3 }
character "Mid2" {
    skillBand 3 3
    weight 3
}
character "Never" {
    skillBand 3 3
    weight 0
}
character "High" { skillBand 4 5 }
"#;

#[test]
fn character_selection_prefers_unused_in_band_then_band_then_anyone() {
    let (c, w) = parse(ROSTER);
    assert!(w.is_empty(), "{w:?}");
    let src = ContentTraitSource::new(c).with_seed(7);
    let name = |i: usize| src.content().characters[i].name.clone();
    // Pass 1: unused and in band.
    let mut rng = BotRng::from_seed(1);
    for _ in 0..50 {
        let i = src.pick(3.0, &[], &mut rng).expect("pick");
        assert!(["Mid", "Mid2"].contains(&name(i).as_str()));
    }
    let mid = src.content().characters.iter().position(|c| c.name == "Mid").expect("mid");
    let mid2 = mid + 1;
    for _ in 0..20 {
        assert_eq!(src.pick(3.0, &[mid], &mut rng), Some(mid2));
    }
    // Pass 2: both in-band characters used, still in band (weight 0 never).
    for _ in 0..50 {
        let i = src.pick(3.0, &[mid, mid2], &mut rng).expect("pick");
        assert!(i == mid || i == mid2);
    }
    // Weight decides the split: Mid2 (3) about three times Mid (1).
    let n2 = (0..4000).filter(|_| src.pick(3.0, &[], &mut rng) == Some(mid2)).count();
    assert!((2700..3300).contains(&n2), "{n2}");
    // Pass 3: nobody in band at all still yields someone with weight.
    let (c, _) = parse("character \"A\" { skillBand 1 1 }\ncharacter \"Z\" {\n skillBand 5 5\n weight 0\n}\n");
    let only = ContentTraitSource::new(c);
    assert_eq!(only.pick(5.0, &[0], &mut rng), Some(0));

    // Through the trait source: bots bind, keep and release characters.
    let a = src.resolve(&who("alpha"), 3.0);
    let first = src.character_of("alpha").expect("bound").name.clone();
    assert_eq!(src.resolve(&who("alpha"), 3.0), a, "same character next life");
    src.resolve(&who("beta"), 3.0);
    let second = src.character_of("beta").expect("bound").name.clone();
    assert_ne!(first, second, "an unused in-band character first");
    for i in 0..10 {
        src.resolve(&who(&format!("bot{i}")), 3.0);
        assert_ne!(src.character_of(&format!("bot{i}")).expect("bound").name, "Never");
    }
    let dyn_src: &dyn TraitSource = &src;
    assert_eq!(dyn_src.character_of(&who("alpha")), Some(first.clone()));
    dyn_src.release(&who("alpha"));
    assert!(src.character_of("alpha").is_none());
    assert_eq!(SkillCurve.character_of(&who("alpha")), None);
    // A named character wins.
    src.resolve(&BotIdentity { name: "gamma".into(), character: Some("high".into()) }, 1.0);
    assert_eq!(src.character_of("gamma").expect("bound").name, "High");
}

#[test]
fn picks_replay_from_the_seed() {
    let pick_all = |seed: u64| {
        let src = ContentTraitSource::new(parse(ROSTER).0).with_seed(seed);
        (0..6)
            .map(|i| {
                src.resolve(&who(&format!("b{i}")), 3.0);
                src.character_of(&format!("b{i}")).expect("bound").name.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(pick_all(11), pick_all(11));
}

#[test]
fn no_content_is_the_plain_curve() {
    let src = ContentTraitSource::new(Content::default());
    for s in [1.0, 2.5, 5.0] {
        assert_eq!(src.resolve(&who("x"), s), SkillCurve.resolve(&who("x"), s));
    }
    let (c, w) = load_botfiles(std::path::Path::new("/nonexistent/botfiles"));
    assert!(c.characters.is_empty() && !w.is_empty());
    assert!(ContentTraitSource::load(std::path::Path::new("/nonexistent/botfiles")).is_err());
    let src = ContentTraitSource::load(&botfiles()).expect("shipped content");
    assert_eq!(src.content().characters.len(), 16);
}

#[test]
fn style_inheritance_applies_parents_first_and_drops_cycles() {
    let text = r#"
style "root" {
    set combatRange 1000
    weapon "railgun" 3
}
style "child" {
    inherit "root"
    scale combatRange 0.5
}
style "loopA" {
    inherit "loopB"
}
style "loopB" {
    inherit "loopA"
}
style "orphan" {
    inherit "ghost"
}
character "Kid" { inherit "child" }
"#;
    let (c, w) = parse(text);
    // Root body first, then the child: 1000 x0.5.
    let (t, prefs) = c.resolve(c.character("Kid"), 3.0);
    assert_eq!(t.combat_range, 500.0);
    assert_eq!(prefs, [("railgun".to_string(), 3.0)]);
    assert!(w.iter().any(|w| w.message.contains("cycle")), "{w:?}");
    assert!(w.iter().any(|w| w.message.contains("ghost")), "{w:?}");
    assert_eq!(c.style("orphan").expect("kept").inherit, None);
    // Whatever was dropped, every chain is finite.
    for s in &c.styles {
        assert!(c.style_chain(&s.name).len() <= super::files::MAX_INHERIT_DEPTH + 1);
    }
}

#[test]
fn loader_contains_a_broken_file_and_names_file_and_line() {
    let dir = std::env::temp_dir().join(format!("quarry-botfiles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("styles")).expect("mkdir");
    std::fs::create_dir_all(dir.join("characters")).expect("mkdir");
    for entry in std::fs::read_dir(botfiles().join("styles")).expect("styles") {
        let p = entry.expect("entry").path();
        std::fs::copy(&p, dir.join("styles").join(p.file_name().expect("name"))).expect("copy");
    }
    std::fs::write(dir.join("styles/zz.style"), "style \"rusher\" { set fov 90 }\n").expect("write");
    std::fs::write(dir.join("characters/good.bot"), "character \"Good\" {\n inherit \"sniper\"\n skillBand 2 3\n}\n").expect("write");
    std::fs::write(dir.join("characters/bad.bot"), "character \"Bad\" {\n\n inherit \"nope\"\n set fov 1e9\n set fov 200\n").expect("write");
    std::fs::write(dir.join("characters/binary.bot"), [0xff_u8, 0xfe, 0x00, 0x7b]).expect("write");
    std::fs::write(dir.join("characters/ignored.txt"), "not content").expect("write");
    let (c, w) = load_botfiles(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let text: Vec<String> = w.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|w| w.contains("zz.style:1:") && w.contains("duplicate style")), "{text:#?}");
    assert!(text.iter().any(|w| w.contains("bad.bot:1:") && w.contains("nope")), "{text:#?}");
    assert!(text.iter().any(|w| w.contains("bad.bot:4:")), "{text:#?}");
    assert!(text.iter().any(|w| w.contains("bad.bot:1:") && w.contains("never closed")), "{text:#?}");
    assert!(text.iter().any(|w| w.contains("binary.bot:0:")), "{text:#?}");
    assert!(!text.iter().any(|w| w.contains("ignored.txt")));
    assert_eq!(c.styles.len(), 6);
    let good = c.character("Good").expect("good");
    assert_eq!((good.style.as_deref(), good.band), (Some("sniper"), (2, 3)));
    let bad = c.character("Bad").expect("bad keeps what parsed");
    assert_eq!(bad.style, None);
    assert_eq!(c.resolve(Some(bad), 3.0).0.fov, 200.0);
    assert_eq!(c.style("rusher").expect("first wins").layer.body.iter().filter(|s| s.row.name == "fov").count(), 0);
}

#[test]
fn forced_character_roster_and_reload_keep_bindings_by_name() {
    let src = ContentTraitSource::new(parse(ROSTER).0);
    src.set_forced(Some("high"));
    src.resolve(&who("a"), 1.0);
    src.resolve(&who("b"), 1.0);
    assert_eq!(src.character_of("a").expect("a").name, "High");
    assert_eq!(src.character_of("b").expect("b").name, "High", "forced ignores use and band");
    src.set_forced(Some("nobody"));
    src.resolve(&who("c"), 1.0);
    assert_eq!(src.character_of("c").expect("c").name, "Low", "unknown forced name: normal pick");
    src.set_forced(None);
    let roster = src.roster();
    assert_eq!(roster.len(), 5);
    let high = roster.iter().find(|r| r.name == "High").expect("high");
    assert_eq!((high.band, high.worn_by.len()), ((4, 5), 2));
    // Reload: High survives, Low vanishes.
    let (next, w) = parse("character \"HIGH\" { skillBand 4 5 }\ncharacter \"Other\" { skillBand 1 1 }\n");
    assert!(w.is_empty());
    let src2 = src.reloaded(next);
    assert_eq!(src2.character_of("a").expect("kept").name, "HIGH");
    assert!(src2.character_of("c").is_none(), "vanished character unbinds");
    src2.resolve(&who("c"), 1.0);
    assert_eq!(src2.character_of("c").expect("repicked").name, "Other");
}
