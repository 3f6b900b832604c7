mod support;
use quarry_bots::AddBot;
#[test]
fn duel() {
    for (skill, rate) in [(1.0f32, 10u32), (3.0, 10), (1.0, 30)] {
        let mut tot = (0, 0);
        for seed in 1..=4u64 {
            let mut game = support::match_on("q_dm1", seed, 4);
            let mut bots = quarry_bots::BotManager::new(quarry_bots::BotSettings { skill, script_rate: rate, ..Default::default() });
            bots.set_botfiles_dir(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../botfiles")));
            bots.load_brains().unwrap();
            let comp = bots.add_bot(&mut game, AddBot { name: Some("Pal".into()), brain: Some("companion".into()), ..AddBot::default() }).unwrap();
            let foe = bots.add_bot(&mut game, AddBot { name: Some("Foe".into()), ..AddBot::default() }).unwrap();
            support::run(&mut game, &mut bots, 60 * 180);
            let f = |s| game.slots().get(s).map(|s| (s.score.frags, s.score.shots, s.score.hits)).unwrap();
            let (a, b) = (f(comp), f(foe));
            eprintln!("skill {skill} rate {rate} seed {seed}: companion {a:?} native {b:?}");
            tot.0 += a.0; tot.1 += b.0;
        }
        eprintln!("total companion {} native {}", tot.0, tot.1);
    }
}
