//! Prediction against the server's own simulation: a player runs, turns,
//! jumps and crouches on q_dm1 in a real match; at every tick the state
//! the match acknowledged a few ticks back, plus the commands sent since,
//! moved again by the client's predictor, lands where the match has the
//! player now (windows holding a spawn or a teleport aside: the server
//! moves the player there, not pmove).

use glam::Vec3;
use quarry_client::predict::Predictor;
use quarry_movement::pmove::MoveParams;
use quarry_movement::{Buttons, UserCmd};
use quarry_net::snapshot::{MT_KNOCKBACK, MT_LAND, MT_TELEPORT, MT_WATER_JUMP, PF_CROUCHED, PF_DEAD, PF_JUMP_HELD, PlayerState};
use quarry_sim::slots::Slots;
use quarry_sim::{ClientKind, GameData, Match, Settings, SlotId, UserInfo};

/// The own player state as the server sends it (what the server's
/// conversion puts on the wire for movement).
fn wire_state(m: &Match, slot: SlotId) -> PlayerState {
    let own = m.own_view(slot).expect("a body");
    let mut flags = 0;
    if own.crouched {
        flags |= PF_CROUCHED;
    }
    if own.jump_held {
        flags |= PF_JUMP_HELD;
    }
    if !own.alive {
        flags |= PF_DEAD;
    }
    let mut timers = [0.0; 4];
    (timers[MT_KNOCKBACK], timers[MT_LAND], timers[MT_TELEPORT], timers[MT_WATER_JUMP]) = (own.move_timers[0], own.move_timers[1], own.move_timers[2], own.move_timers[3]);
    PlayerState {
        origin: own.origin.to_array(),
        velocity: own.velocity.to_array(),
        pitch: own.angles.0,
        yaw: own.angles.1,
        delta_angles: [own.delta_angles.0, own.delta_angles.1],
        flags,
        move_timers: timers,
        ..PlayerState::default()
    }
}

/// A run of commands that walks, turns, jumps and crouches.
fn command(tick: u32) -> UserCmd {
    let phase = tick / 40;
    let mut buttons = Buttons::default();
    if phase % 3 == 1 && tick % 40 < 5 {
        buttons = buttons | Buttons::JUMP;
    }
    if phase % 5 == 4 {
        buttons = buttons | Buttons::CROUCH;
    }
    UserCmd { tick, forward: if phase % 4 == 3 { -127 } else { 127 }, right: if phase.is_multiple_of(2) { 60 } else { -40 }, yaw: (tick as f32 * 1.7) % 360.0, pitch: 10.0, buttons, ..UserCmd::default() }
}

#[test]
fn the_predicted_position_is_the_servers_for_the_same_commands() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_dm1.map");
    let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("map");
    let world = map.clone();
    let settings = Settings { warmup: false, fraglimit: 0, timelimit_min: 0.0, ..Settings::default() };
    let mut m = Match::new(map, &GameData::default(), settings, 5, Slots::new(8), 60).expect("match");
    let slot = m.connect(ClientKind::Remote { latency_ms: 0 }, UserInfo { name: "runner".into(), ..UserInfo::default() }).expect("slot");
    m.enter_game(slot).expect("enter");
    let mut predictor = Predictor::new(MoveParams::default(), 60);
    // What the match had after each tick's command (the snapshots).
    let mut history: Vec<(u32, PlayerState)> = Vec::new();
    let (mut compared, mut worst, mut replayed, mut skipped) = (0, 0.0f32, 0, 0);
    // Six ticks, 100 ms at 60 Hz: the commands in flight at that round trip.
    const DELAY: u32 = 6;
    // The ticks the player spends entering the game and spawning.
    const SPAWNING: u32 = 10;
    for _ in 0..600 {
        let tick = m.tick() + 1;
        let cmd = command(tick);
        predictor.sent(tick, cmd);
        m.push_cmd(slot, cmd).expect("push");
        m.step();
        history.push((tick, wire_state(&m, slot)));
        // The newest snapshot that arrived is DELAY ticks old.
        let Some(&(acked, ref base)) = history.iter().rev().nth(DELAY as usize) else { continue };
        // A spawn or a teleport moves the player outside pmove: a window
        // holding one is the server's to correct (the client snaps).
        let window = &history[history.len() - 1 - DELAY as usize..];
        if window.windows(2).any(|w| w[1].1.move_timers[MT_TELEPORT] > w[0].1.move_timers[MT_TELEPORT]) || acked <= SPAWNING {
            skipped += 1;
            continue;
        }
        let predicted = predictor.predict(base, acked, world.world()).expect("predict");
        let now = Vec3::from(history.last().map(|h| h.1.origin).expect("now"));
        let miss = predicted.state.origin.distance(now);
        if miss > 0.5 && std::env::var_os("PREDICT_DEBUG").is_some() {
            eprintln!("tick {tick}: miss {miss:.2} predicted {:?} server {now:?} base {:?}", predicted.state.origin, base.origin);
        }
        worst = worst.max(miss);
        replayed += predicted.replayed;
        compared += 1;
    }
    eprintln!("prediction: {compared} windows of {DELAY} commands, {skipped} skipped, worst miss {worst} units");
    assert!(compared > 500, "{compared} compared, {skipped} skipped");
    assert_eq!(replayed, compared * DELAY as usize, "every unacknowledged command replayed");
    assert!(worst <= 0.5, "the prediction missed the server by up to {worst} units");
}
