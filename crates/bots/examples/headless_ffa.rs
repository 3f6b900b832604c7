//! A headless free-for-all of bots on a shipped map, as fast as the CPU
//! allows, then the bots' figures: kills and deaths, time stuck, longest
//! idle, pads and teleporters, items taken, accuracy, reaction.
//!
//! ```text
//! cargo run --release -p quarry-bots --example headless_ffa -- [MAP] [BOTS] [MINUTES] [SEED] [SKILL] [BOT_DEBUG]
//! cargo run --release -p quarry-bots --example headless_ffa -- q_dm1 8 10 1 3
//! RUST_LOG=quarry_bots=info cargo run --release -p quarry-bots --example headless_ffa -- q_dm1 8 1 1 3 1
//! ```

use std::time::Instant;

use quarry_bots::{AddBot, BotManager, BotSettings};
use quarry_sim::slots::Slots;
use quarry_sim::{GameData, Match, Settings};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let map_name = arg(0, "q_dm1");
    let count: usize = arg(1, "8").parse().unwrap_or(8);
    let minutes: f32 = arg(2, "10").parse().unwrap_or(10.0);
    let seed: u64 = arg(3, "1").parse().unwrap_or(1);
    let skill: f32 = arg(4, "3").parse().unwrap_or(3.0);
    let debug: u8 = arg(5, "0").parse().unwrap_or(0);
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../maps")
        .join(format!("{map_name}.map"));
    let map = match quarry_map::load(&path, &quarry_map::LoadOptions::default()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            std::process::exit(2);
        }
    };
    let settings = Settings {
        warmup: false,
        fraglimit: 0,
        timelimit_min: 0.0,
        ..Settings::default()
    };
    let mut game = match Match::new(map, &GameData::default(), settings, seed, Slots::new(count.max(2)), 60) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut bots = BotManager::new(BotSettings {
        skill,
        skill_variance: 0.0,
        debug,
        ..BotSettings::default()
    });
    for _ in 0..count {
        if let Err(e) = bots.add_bot(&mut game, AddBot::default()) {
            eprintln!("addbot: {e}");
            std::process::exit(2);
        }
    }
    let ticks = (minutes * 60.0 * 60.0) as u32;
    let started = Instant::now();
    let mut think = std::time::Duration::ZERO;
    for _ in 0..ticks {
        bots.think(&mut game);
        think += bots.last_think();
        game.step();
    }
    let wall = started.elapsed().as_secs_f64();
    print!("{}", bots.report(&game));
    println!(
        "{ticks} ticks in {wall:.2} s ({:.0}x real time); bot think {:.1} us/tick ({:.2} us per bot); final hash {:016x}",
        f64::from(ticks) / 60.0 / wall,
        think.as_secs_f64() * 1e6 / f64::from(ticks.max(1)),
        think.as_secs_f64() * 1e6 / f64::from(ticks.max(1)) / count.max(1) as f64,
        game.state_hash()
    );
}
