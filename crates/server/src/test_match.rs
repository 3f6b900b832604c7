//! A short match for the features' unit tests: a remote-like player and a
//! bot, 400 units apart in a closed room, firing their machineguns at each
//! other. Both write their commands into the input queue the way the
//! network and a bot's brain do; nothing here reaches into the match.

use glam::Vec3;
use quarry_map::source::box_brush;
use quarry_sim::slots::Slots;
use quarry_sim::{Buttons, ClientKind, GameData, Match, Settings, SlotId, UserCmd, UserInfo};

/// A 1024x1024x256 room (floor top at z=0) with spawn points at `spots`.
fn room_map(spots: &[(f32, f32)]) -> String {
    let (h, t, z) = (512.0, 16.0, 256.0);
    let wall = |lo: Vec3, hi: Vec3| box_brush(lo, hi, "quarry/wall");
    let brushes = [
        wall(Vec3::new(-h - t, -h - t, -t), Vec3::new(h + t, h + t, 0.0)),
        wall(Vec3::new(-h - t, -h - t, z), Vec3::new(h + t, h + t, z + t)),
        wall(Vec3::new(-h - t, -h - t, 0.0), Vec3::new(-h, h + t, z)),
        wall(Vec3::new(h, -h - t, 0.0), Vec3::new(h + t, h + t, z)),
        wall(Vec3::new(-h, -h - t, 0.0), Vec3::new(h, -h, z)),
        wall(Vec3::new(-h, h, 0.0), Vec3::new(h, h + t, z)),
    ];
    let spawns: String = spots
        .iter()
        .map(|(x, y)| format!("{{\n\"classname\" \"info_player_deathmatch\"\n\"origin\" \"{x} {y} 25\"\n\"angle\" \"0\"\n}}\n"))
        .collect();
    format!("{{\n\"classname\" \"worldspawn\"\n{}}}\n{spawns}", brushes.concat())
}

/// A live free-for-all with a remote-like player (`human`) and a bot
/// (`bot`) on their spawns, 400 units apart.
pub(crate) fn human_and_bot() -> (Match, SlotId, SlotId) {
    let map = quarry_map::load_str(&room_map(&[(-200.0, 0.0), (200.0, 0.0)]), "room.map", &quarry_map::LoadOptions::default())
        .unwrap_or_else(|e| panic!("the test room loads: {e}"));
    let settings = Settings { warmup: false, fraglimit: 0, timelimit_min: 0.0, ..Settings::default() };
    let mut game = Match::new(map, &GameData::default(), settings, 7, Slots::new(4), 60).unwrap_or_else(|e| panic!("match: {e}"));
    let mut join = |name: &str, kind: ClientKind| {
        let slot = game.connect(kind, UserInfo { name: name.into(), ..UserInfo::default() }).unwrap_or_else(|e| panic!("{name}: {e}"));
        game.enter_game(slot).unwrap_or_else(|e| panic!("{name}: {e}"));
        slot
    };
    let human = join("visitor", ClientKind::Remote { latency_ms: 0 });
    let bot = join("Rook", ClientKind::Bot);
    run(&mut game, &[human, bot], 30, false);
    (game, human, bot)
}

/// The command of `from` looking at `to`'s centre (the view it wants
/// minus its delta angles, as a client sends it).
fn aim(game: &Match, from: SlotId, to: SlotId, attack: bool) -> UserCmd {
    let (Some(a), Some(b)) = (game.player_view(from), game.player_view(to)) else { return UserCmd::default() };
    let d = (b.origin + Vec3::Z * 4.0 - (a.origin + Vec3::Z * game.settings().movement.view_height)).normalize_or(Vec3::X);
    let delta = game.own_view(from).map_or((0.0, 0.0), |o| o.delta_angles);
    let (pitch, yaw) = (-d.z.asin().to_degrees(), d.y.atan2(d.x).to_degrees());
    let buttons = if attack { Buttons::ATTACK } else { Buttons::default() };
    UserCmd { pitch: pitch - delta.0, yaw: (yaw - delta.1).rem_euclid(360.0), buttons, ..UserCmd::default() }
}

/// Steps `ticks` ticks with the two players (`pair`) facing each other,
/// firing when `fire` is set.
pub(crate) fn run(game: &mut Match, pair: &[SlotId; 2], ticks: u32, fire: bool) {
    for _ in 0..ticks {
        let tick = game.tick() + 1;
        for (from, to) in [(pair[0], pair[1]), (pair[1], pair[0])] {
            let cmd = UserCmd { tick, ..aim(game, from, to, fire) };
            game.push_cmd(from, cmd).unwrap_or_else(|e| panic!("push: {e}"));
        }
        game.step();
    }
}
