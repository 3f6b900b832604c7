//! `sim_tick`: one simulation tick with 16 and 64 players on a shipped map,
//! every player driven by random commands through the input queue.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use quarry_sim::slots::Slots;
use quarry_sim::{Buttons, ClientKind, GameData, Match, Settings, UserCmd, UserInfo};
use rand::{RngExt, SeedableRng};

fn random_cmd(rng: &mut rand_pcg::Pcg32, tick: u32) -> UserCmd {
    let mut buttons = Buttons::default();
    if rng.random_bool(0.3) {
        buttons = buttons | Buttons::ATTACK;
    }
    if rng.random_bool(0.1) {
        buttons = buttons | Buttons::JUMP;
    }
    UserCmd {
        tick,
        pitch: rng.random_range(-30.0..30.0),
        yaw: rng.random_range(0.0..360.0),
        forward: rng.random_range(-127..=127),
        right: rng.random_range(-127..=127),
        up: 0,
        buttons,
        weapon: if rng.random_bool(0.01) { rng.random_range(1..=8) } else { 0 },
    }
}

fn setup(players: usize) -> (Match, Vec<quarry_sim::SlotId>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("map");
    let settings = Settings { warmup: false, timelimit_min: 0.0, fraglimit: 0, ..Settings::default() };
    let mut m = Match::new(map, &GameData::default(), settings, 1, Slots::new(64), 60).expect("match");
    let slots = (0..players)
        .map(|i| {
            let s = m.connect(ClientKind::Bot, UserInfo { name: format!("p{i}"), ..UserInfo::default() }).expect("slot");
            m.enter_game(s).expect("enter");
            s
        })
        .collect();
    (m, slots)
}

fn sim_tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("sim_tick");
    for players in [16usize, 64] {
        let (mut m, slots) = setup(players);
        let mut rng = rand_pcg::Pcg32::seed_from_u64(3);
        // Let everyone spawn and spread out first.
        for _ in 0..120 {
            let tick = m.tick() + 1;
            for &s in &slots {
                let _ = m.push_cmd(s, random_cmd(&mut rng, tick));
            }
            m.step();
        }
        group.bench_function(BenchmarkId::from_parameter(format!("{players}_players")), |b| {
            b.iter(|| {
                let tick = m.tick() + 1;
                for &s in &slots {
                    let _ = m.push_cmd(s, random_cmd(&mut rng, tick));
                }
                m.step();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, sim_tick);
criterion_main!(benches);
