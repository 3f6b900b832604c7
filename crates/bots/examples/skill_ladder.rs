//! Does skill read right? Seeded 1v1 matches between two skill levels on
//! the duel map; prints who won each, the win count, accuracy per weapon
//! per skill and the mean fresh reaction per skill against the table.
//!
//! ```text
//! cargo run --release -p quarry-bots --example skill_ladder -- [HIGH] [LOW] [MATCHES] [MINUTES] [MAP]
//! cargo run --release -p quarry-bots --example skill_ladder -- 5 1 20 3
//! ```

use std::collections::BTreeMap;

use quarry_bots::content::Traits;
use quarry_bots::{AddBot, BotManager, BotSettings};
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let high: f32 = arg(0, "5").parse().unwrap_or(5.0);
    let low: f32 = arg(1, "1").parse().unwrap_or(1.0);
    let matches: u64 = arg(2, "20").parse().unwrap_or(20);
    let minutes: f32 = arg(3, "3").parse().unwrap_or(3.0);
    let map_name = arg(4, "q_duel1");
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../maps")
        .join(format!("{map_name}.map"));
    let mut wins = 0;
    let mut ties = 0;
    let mut accuracy: BTreeMap<(String, String), (u32, u32)> = BTreeMap::new();
    let mut reaction: BTreeMap<String, (f64, u64)> = BTreeMap::new();
    for seed in 1..=matches {
        let Ok(map) = quarry_map::load(&path, &quarry_map::LoadOptions::default()) else {
            eprintln!("can't load {}", path.display());
            std::process::exit(2);
        };
        let settings = Settings {
            warmup: false,
            fraglimit: 0,
            timelimit_min: 0.0,
            ..Settings::default()
        };
        let Ok(mut game) = Match::new(map, &GameData::default(), settings, seed, Slots::new(4), 60) else {
            std::process::exit(2)
        };
        let mut bots = BotManager::new(BotSettings::default());
        // Alternate who joins first so spawn order does not favour a side.
        let order = if seed % 2 == 0 { [high, low] } else { [low, high] };
        let mut slots = Vec::new();
        for s in order {
            let name = format!("Skill{s}");
            match bots.add_bot(
                &mut game,
                AddBot {
                    name: Some(name),
                    skill: Some(s),
                    exact: false,
                    ..Default::default()
                },
            ) {
                Ok(slot) => slots.push((s, slot)),
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
            }
        }
        for _ in 0..(minutes * 3600.0) as u32 {
            bots.think(&mut game);
            game.step();
        }
        let frags = |skill: f32| {
            slots
                .iter()
                .find(|(s, _)| *s == skill)
                .and_then(|(_, slot)| game.slots().get(*slot))
                .map_or(0, |s| s.score.frags)
        };
        let (fh, fl) = (frags(high), frags(low));
        if fh > fl {
            wins += 1;
        } else if fh == fl {
            ties += 1;
        }
        println!("match {seed:2}: skill {high} {fh:3} - {fl:3} skill {low}");
        let report = bots.report(&game);
        for b in &report.bots {
            let r = reaction.entry(format!("{:.1}", b.skill)).or_default();
            if let Some(ms) = b.reaction_ms {
                r.0 += ms;
                r.1 += 1;
            }
        }
        for a in report.accuracy {
            let e = accuracy.entry((a.skill.to_string(), a.weapon)).or_default();
            e.0 += a.shots;
            e.1 += a.hits;
        }
    }
    println!("skill {high} won {wins} of {matches} ({ties} ties)");
    println!("accuracy per weapon and skill:");
    for ((skill, weapon), (shots, hits)) in &accuracy {
        println!(
            "  skill {skill} {weapon:<18} {:5.1}% ({hits}/{shots})",
            100.0 * f64::from(*hits) / f64::from((*shots).max(1))
        );
    }
    println!("mean fresh reaction (table: reactionMsec x (1.5 - initiative)):");
    for (skill, (sum, n)) in &reaction {
        let s: f32 = skill.parse().unwrap_or(3.0);
        let t = Traits::at_skill(s);
        let table = t.reaction_msec * t.reaction_scale();
        let mean = sum / (*n).max(1) as f64;
        println!(
            "  skill {skill}: {mean:6.1} ms, table {table:6.1} ms ({:+.1}%)",
            100.0 * (mean / f64::from(table) - 1.0)
        );
    }
}
