//! Two bots on the shipped duel map for a simulated minute: both move, both
//! fire, someone dies; and the same seed replays to the same state hash.

mod support;

use quarry_bots::AddBot;
use quarry_sim::SlotId;

struct Outcome {
    hash: u64,
    kills: u32,
    shots: [u32; 2],
    travelled: [f32; 2],
}

fn duel(seed: u64, seconds: u32) -> Outcome {
    let mut game = support::match_on("q_duel1", seed, 4);
    let mut bots = support::manager(3.0);
    let a = bots
        .add_bot(
            &mut game,
            AddBot {
                name: Some("Left".into()),
                ..AddBot::default()
            },
        )
        .expect("first bot");
    let b = bots
        .add_bot(
            &mut game,
            AddBot {
                name: Some("Right".into()),
                ..AddBot::default()
            },
        )
        .expect("second bot");
    let mut travelled = [0.0f32; 2];
    let mut last = [None, None];
    for _ in 0..seconds * 60 {
        bots.think(&mut game);
        game.step();
        for (i, s) in [a, b].into_iter().enumerate() {
            let p = game.player_view(s).filter(|p| p.alive).map(|p| p.origin);
            if let (Some(now), Some(Some(before))) = (p, last.get(i)) {
                let d: glam::Vec3 = now - *before;
                // Skip respawn jumps.
                if d.length() < 50.0 {
                    travelled[i] += d.length();
                }
            }
            last[i] = p;
        }
    }
    let score = |s: SlotId| game.slots().get(s).map(|s| s.score).unwrap_or_default();
    let (sa, sb) = (score(a), score(b));
    for (name, s) in [("Left", sa), ("Right", sb)] {
        eprintln!("{name}: {s:?}");
    }
    eprintln!("travelled {travelled:?}; {}", bots.nav_status());
    let report = bots.report(&game);
    let json = serde_json::to_string(&report).expect("the report serialises");
    assert!(json.contains("\"items\"") && json.contains("\"stuck_pct\""), "{json}");
    eprint!("{report}");
    Outcome {
        hash: game.state_hash(),
        kills: sa.kills + sb.kills,
        shots: [sa.shots, sb.shots],
        travelled,
    }
}

#[test]
fn two_bots_move_fire_and_kill_and_replay_exactly() {
    // Two minutes: bots aim like people now, and a minute's duel from
    // spawn (machineguns, finding each other first) can end 0-0.
    let first = duel(11, 120);
    assert!(
        first.travelled.iter().all(|&d| d > 2000.0),
        "both move: {:?}",
        first.travelled
    );
    assert!(first.shots.iter().all(|&s| s > 0), "both fire: {:?}", first.shots);
    assert!(first.kills >= 1, "at least one kill in two minutes");
    let again = duel(11, 120);
    assert_eq!(first.hash, again.hash, "same seed, same match");
}

#[test]
fn bots_hold_fire_at_ignored_players() {
    let mut game = support::match_on("q_duel1", 4, 4);
    let mut bots = support::manager(5.0);
    let a = bots.add_bot(&mut game, AddBot::default()).expect("bot");
    let b = bots.add_bot(&mut game, AddBot::default()).expect("bot");
    bots.set_ignored(a, true);
    bots.set_ignored(b, true);
    support::run(&mut game, &mut bots, 20 * 60);
    let shots: u32 = [a, b]
        .iter()
        .filter_map(|&s| game.slots().get(s))
        .map(|s| s.score.shots)
        .sum();
    assert_eq!(shots, 0, "nobody targets a no-target player");
    bots.set_ignored(b, false);
    support::run(&mut game, &mut bots, 20 * 60);
    let a_shots = game.slots().get(a).map_or(0, |s| s.score.shots);
    let b_shots = game.slots().get(b).map_or(0, |s| s.score.shots);
    assert!(
        a_shots > 0 && b_shots == 0,
        "only the one still flagged is spared: {a_shots} {b_shots}"
    );
}
