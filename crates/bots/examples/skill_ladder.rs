//! Does skill read right? Seeded 1v1 matches between two skill levels on
//! each map given; prints who won each, the wins over decided duels, and
//! per map and skill: accuracy per weapon (the sim's book: per trace, so
//! per pellet for the shotgun, direct hits apart from splash) in every
//! range band, the mean fresh reaction against
//! the table, the mean time from first sight to the first shot and to the
//! first hit, and the peak view turn rate.
//!
//! A map is a name in `maps/` or a path to a `.map` file. With HIGH equal
//! to LOW both bots play the same skill (a mirror, for accuracy figures).
//! Each weapon's overall accuracy is marked against `config/aim_bands.toml`
//! (`--bands FILE` for another); `--tsv FILE` also writes the figures as
//! `scripts/bench.sh` rows (a mirror's accuracy, first hit and peak turn
//! per skill; a pair's wins). `--ffa N` plays free-for-all matches of N
//! bots at skill HIGH instead of duels (the mixed ranges of a crowded
//! map, where people's figures come from).
//!
//! ```text
//! cargo run --release -p quarry-bots --example skill_ladder -- [--bands FILE] [--tsv FILE] [--ffa N] [HIGH] [LOW] [MATCHES] [MINUTES] [MAP...]
//! cargo run --release -p quarry-bots --example skill_ladder -- 5 1 48 5 q_duel1 ../shared/maps/q1-standard/dm6.map
//! cargo run --release -p quarry-bots --example skill_ladder -- --ffa 8 3 3 4 5 q_dm1 dm4
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use quarry_bots::aim::bands::AimBands;
use quarry_bots::content::Traits;
use quarry_bots::report::MatchReport;
use quarry_bots::{AddBot, BotManager, BotSettings};
use quarry_sim::accuracy::{BandFigures, RangeBand};
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings, SlotId};

/// Sums of one skill's figures on one map.
#[derive(Default)]
struct Tally {
    /// Weapon name -> figures per band, in `RangeBand::ALL` order.
    accuracy: BTreeMap<String, [BandFigures; 4]>,
    reaction: Mean,
    first_shot: Mean,
    first_hit: Mean,
    peak_turn: f64,
}

/// A running mean.
#[derive(Default)]
struct Mean {
    sum: f64,
    n: u64,
}

impl Mean {
    fn add(&mut self, value: Option<f64>, weight: u64) {
        if let Some(v) = value {
            self.sum += v * weight as f64;
            self.n += weight;
        }
    }

    fn get(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
}

fn map_path(arg: &str) -> PathBuf {
    let as_path = PathBuf::from(arg);
    if as_path.extension().is_some_and(|e| e == "map") {
        return as_path;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps").join(format!("{arg}.map"))
}

/// One match's outcome: the frags of the high and the low skill bot (the
/// first two to join), the bots' report and each bot's accuracy by skill
/// and weapon name.
struct Duel {
    high_frags: i32,
    low_frags: i32,
    report: MatchReport,
    accuracy: Vec<(f32, String, [BandFigures; 4])>,
}

/// Plays one seeded duel, or with `ffa` a free-for-all of that many bots
/// at skill `high`.
fn duel(path: &PathBuf, seed: u64, high: f32, low: f32, minutes: f32, ffa: Option<usize>) -> Result<Duel, String> {
    let map = quarry_map::load(path, &quarry_map::LoadOptions::default()).map_err(|e| format!("{}: {e}", path.display()))?;
    let settings = Settings { warmup: false, fraglimit: 0, timelimit_min: 0.0, ..Settings::default() };
    let players = ffa.unwrap_or(2);
    let mut game = Match::new(map, &GameData::default(), settings, seed, Slots::new(players.max(2) + 2), 60).map_err(|e| e.to_string())?;
    let mut bots = BotManager::new(BotSettings::default());
    // Alternate who joins first so spawn order does not favour a side.
    let order: Vec<f32> = match ffa {
        Some(n) => vec![high; n],
        None if seed.is_multiple_of(2) => vec![high, low],
        None => vec![low, high],
    };
    let mut slots: Vec<(f32, SlotId)> = Vec::new();
    for (i, s) in order.iter().copied().enumerate() {
        let add = AddBot { name: Some(format!("Skill{s}_{i}")), skill: Some(s), exact: false, ..Default::default() };
        let slot = bots.add_bot(&mut game, add).map_err(|e| e.to_string())?;
        slots.push((s, slot));
    }
    for _ in 0..(minutes * 60.0 * game.hz() as f32) as u32 {
        bots.think(&mut game);
        game.step();
    }
    let frags = |i: usize| slots.get(i).and_then(|(_, slot)| game.slots().get(*slot)).map_or(0, |s| s.score.frags);
    // In a mirror both are "high"; report the first joined as high.
    let (high_frags, low_frags) = if order[0] == high { (frags(0), frags(1)) } else { (frags(1), frags(0)) };
    let mut accuracy = Vec::new();
    for (skill, slot) in &slots {
        for (n, w) in game.accuracy(*slot).used() {
            let name = game.weapon_name(n).unwrap_or("?").to_owned();
            accuracy.push((*skill, name, w.bands));
        }
    }
    Ok(Duel { high_frags, low_frags, report: bots.report(&game), accuracy })
}

/// Takes `--NAME VALUE` out of `args`.
fn take_flag(args: &mut Vec<String>, name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.remove(i);
    (i < args.len()).then(|| args.remove(i))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let bands_path = take_flag(&mut args, "--bands")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../config/aim_bands.toml"), PathBuf::from);
    let tsv = take_flag(&mut args, "--tsv").map(PathBuf::from);
    let ffa = match take_flag(&mut args, "--ffa").map(|n| n.parse::<usize>()) {
        None => None,
        Some(Ok(n)) if (2..=32).contains(&n) => Some(n),
        Some(_) => {
            eprintln!("--ffa takes a number of bots, 2 to 32");
            std::process::exit(2);
        }
    };
    let bands = match std::fs::read_to_string(&bands_path).map_err(|e| e.to_string()).and_then(|t| AimBands::parse(&t).map_err(|e| e.to_string())) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", bands_path.display());
            std::process::exit(2);
        }
    };
    let mut rows: Vec<String> = Vec::new();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let high: f32 = arg(0, "5").parse().unwrap_or(5.0);
    let low: f32 = arg(1, "1").parse().unwrap_or(1.0);
    let matches: u64 = arg(2, "20").parse().unwrap_or(20);
    let minutes: f32 = arg(3, "3").parse().unwrap_or(3.0);
    let maps: Vec<String> = if args.len() > 4 { args[4..].to_vec() } else { vec!["q_duel1".to_owned()] };
    for map in &maps {
        let path = map_path(map);
        let map_name = path.file_stem().map_or_else(|| map.clone(), |n| n.to_string_lossy().into_owned());
        let (mut wins, mut losses, mut ties) = (0, 0, 0);
        let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
        for seed in 1..=matches {
            let Duel { high_frags: fh, low_frags: fl, report, accuracy } = match duel(&path, seed, high, low, minutes, ffa) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
            };
            match fh.cmp(&fl) {
                std::cmp::Ordering::Greater => wins += 1,
                std::cmp::Ordering::Less => losses += 1,
                std::cmp::Ordering::Equal => ties += 1,
            }
            match ffa {
                Some(n) => println!("{map} match {seed:2}: {n} bots at skill {high}"),
                None => println!("{map} match {seed:2}: skill {high} {fh:3} - {fl:3} skill {low}"),
            }
            for b in &report.bots {
                let tally = tallies.entry(format!("{:.1}", b.skill)).or_default();
                tally.reaction.add(b.reaction_ms, 1);
                tally.first_shot.add(b.first_shot_ms, b.first_shots);
                tally.first_hit.add(b.first_hit_ms, b.first_hits);
                tally.peak_turn = tally.peak_turn.max(b.peak_turn_deg_s);
            }
            for (skill, weapon, bands) in accuracy {
                let tally = tallies.entry(format!("{skill:.1}")).or_default();
                let sum = tally.accuracy.entry(weapon).or_default();
                for (s, b) in sum.iter_mut().zip(bands) {
                    s.shots += b.shots;
                    s.hits += b.hits;
                    s.splash_hits += b.splash_hits;
                    s.damage += b.damage;
                }
            }
        }
        let decided = wins + losses;
        if ffa.is_some() {
            println!("{map}: {matches} free-for-all matches of {} bots at skill {high}", ffa.unwrap_or(0));
        } else if high != low {
            rows.push(format!(
                "aim/ladder_wins_pct_skill{high}_over_{low}_{map_name}\t{:.0}\t%",
                100.0 * f64::from(wins) / f64::from(decided.max(1))
            ));
        }
        if ffa.is_none() {
            println!(
                "{map}: skill {high} won {wins} of {decided} decided duels ({:.0} %), {ties} ties, against skill {low}",
                100.0 * f64::from(wins) / f64::from(decided.max(1))
            );
        }
        let ms = |m: &Mean| m.get().map_or_else(|| "-".to_owned(), |v| format!("{v:.0} ms"));
        for (skill, tally) in &tallies {
            let s: f32 = skill.parse().unwrap_or(3.0);
            let t = Traits::at_skill(s);
            // Mirror duels give the per-skill rows; a pair gives its wins;
            // free-for-all rows are named apart.
            let mirror = high == low;
            let kind = if ffa.is_some() { "ffa_" } else { "" };
            if let Some(v) = tally.first_hit.get().filter(|_| mirror) {
                rows.push(format!("aim/{kind}first_hit_ms_skill{}_{map_name}\t{v:.0}\tms", s.round()));
            }
            if mirror {
                rows.push(format!("aim/{kind}peak_turn_deg_s_skill{}_{map_name}\t{:.0}\tdeg/s", s.round(), tally.peak_turn));
            }
            println!(
                "  skill {skill}: reaction {} (table {:.0} ms), first sight to first shot {}, to first hit {}, peak turn {:.0} deg/s",
                ms(&tally.reaction),
                t.reaction_msec * t.reaction_scale(),
                ms(&tally.first_shot),
                ms(&tally.first_hit),
                tally.peak_turn
            );
            for (weapon, per_band) in &tally.accuracy {
                // Every shot, then each band with an enemy near the line of fire.
                let all = per_band.iter().fold(BandFigures::ZERO, |a, b| BandFigures {
                    shots: a.shots + b.shots,
                    hits: a.hits + b.hits,
                    splash_hits: a.splash_hits + b.splash_hits,
                    damage: a.damage + b.damage,
                });
                let overall = 100.0 * f64::from(all.hits) / f64::from(all.shots.max(1));
                let verdict = bands
                    .weapon(weapon)
                    .and_then(|b| b.verdict(s.round() as u8, overall))
                    .map_or("no band", |v| v.word());
                if mirror {
                    rows.push(format!("aim/{kind}accuracy_{weapon}_skill{}_{map_name}\t{overall:.1}\t%", s.round()));
                }
                let mut line = format!("    {weapon:<16} all {} [{verdict}]", percent(&all));
                for band in RangeBand::ALL {
                    let b = &per_band[band.index()];
                    if b.shots > 0 {
                        line.push_str(&format!("  {} {}", band.name(), percent(b)));
                    }
                }
                println!("{line}");
            }
        }
    }
    if let Some(path) = tsv {
        let command = format!("cargo run --release -p quarry-bots --example skill_ladder -- {}", std::env::args().skip(1).collect::<Vec<_>>().join(" "));
        let text: String = rows.iter().map(|r| format!("{r}\t{command}\n")).collect();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(2);
        }
    }
}

/// Direct hits per shot with its standard error and count, and splash hits
/// per shot when there were any.
fn percent(b: &BandFigures) -> String {
    let n = f64::from(b.shots.max(1));
    let p = f64::from(b.hits) / n;
    let se = (p * (1.0 - p) / n).sqrt();
    let splash = if b.splash_hits > 0 { format!(" +splash {:.1} %", 100.0 * f64::from(b.splash_hits) / n) } else { String::new() };
    format!("{:.1} % ± {:.1} ({}/{}){splash}", 100.0 * p, 100.0 * se, b.hits, b.shots)
}
