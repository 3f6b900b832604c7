//! The simulation has no bot branch: the commands bots wrote, replayed into
//! the same slots held by remote clients (zero latency, so lag
//! compensation rewinds nothing), give the same state hash every tick. The
//! same holds for scripted bots: a script's command goes into the same
//! input queue.

mod support;

use quarry_bots::AddBot;
use quarry_sim::{ClientKind, UserInfo};

#[test]
fn bot_commands_replayed_by_remote_clients_give_the_same_match() {
    // 40 s: long enough that the two bots meet and fire (after their first
    // item runs; with this seed they no longer met within 20 s once drops
    // and pads were taken differently).
    replay_matches(5, 40 * 60, [None, None]);
}

#[test]
fn scripted_bot_commands_replayed_by_remote_clients_give_the_same_match() {
    replay_matches(6, 40 * 60, [Some("companion"), None]);
}

/// Two bots (native, or the scripted brains named) play a duel on
/// q_duel1 for `ticks`; remote clients replaying their commands give the
/// same hash every tick.
fn replay_matches(seed: u64, ticks: u32, brains: [Option<&str>; 2]) {
    // Bots play, and every command they sent is recorded as consumed.
    let mut game = support::match_on("q_duel1", seed, 4);
    let mut bots = support::manager(4.0);
    if brains.iter().any(Option::is_some) {
        bots.set_botfiles_dir(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../botfiles"));
        let loaded = bots.load_brains().expect("botfiles");
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    }
    let names = ["North", "South"];
    let slots: Vec<_> = names
        .iter()
        .zip(brains)
        .map(|(n, brain)| {
            bots.add_bot(
                &mut game,
                AddBot {
                    name: Some((*n).into()),
                    brain: brain.map(str::to_owned),
                    ..AddBot::default()
                },
            )
            .expect("bot")
        })
        .collect();
    let mut recorded = Vec::new();
    let mut hashes = Vec::new();
    for _ in 0..ticks {
        bots.think(&mut game);
        game.step();
        let cmds: Vec<_> = slots
            .iter()
            .map(|&s| game.slots().get(s).and_then(|s| s.input.last().copied()))
            .collect();
        recorded.push(cmds);
        hashes.push(game.state_hash());
    }
    let shots: u32 = slots
        .iter()
        .filter_map(|&s| game.slots().get(s))
        .map(|s| s.score.shots)
        .sum();
    assert!(shots > 0, "the bots fought");
    // Remote clients in the same slots with the same names send the same commands.
    let mut replay = support::match_on("q_duel1", seed, 4);
    for (n, &expected) in names.iter().zip(&slots) {
        let info = UserInfo {
            name: (*n).into(),
            model: "bot".into(),
            team_pref: None,
            handicap: 100,
        };
        let slot = replay
            .connect(ClientKind::Remote { latency_ms: 0 }, info)
            .expect("slot");
        assert_eq!(slot, expected);
        replay.enter_game(slot).expect("enter");
    }
    for (tick, cmds) in recorded.iter().enumerate() {
        for (&slot, cmd) in slots.iter().zip(cmds) {
            if let Some(cmd) = cmd {
                replay.push_cmd(slot, *cmd).expect("push");
            }
        }
        replay.step();
        assert_eq!(replay.state_hash(), hashes[tick], "diverged at tick {}", tick + 1);
    }
}
