//! Movement on real maps loaded with `quarry_map`: Quarry's own maps and,
//! when present, the shared Quake 1, Quake 3 and Valve 220 maps. Random walkers from every
//! spawn point never end a move in solid, never get stuck and never leave
//! the map; the jump pad of q_dm1 carries a player to its target.

use std::path::{Path, PathBuf};

use glam::Vec3;
use quarry_map::entities::{JumpPad, Push};
use quarry_map::{EntityKind, LoadOptions, LoadedMap, Trace};
use quarry_movement::pmove::{self, MOVE_MASK, MoveParams, MoveState, jump_pad_velocity};
use quarry_movement::{Buttons, UserCmd};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(path: &Path) -> LoadedMap {
    match quarry_map::load(path, &LoadOptions::default()) {
        Ok(map) => map,
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// A small deterministic generator (xorshift64*), so runs replay exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn command(&mut self) -> UserCmd {
        let axis = |r: &mut Rng| [0i8, 127, -127, 64][r.below(4) as usize];
        let mut buttons = Buttons::default();
        for b in [Buttons::JUMP, Buttons::CROUCH, Buttons::WALK] {
            if self.below(5) == 0 {
                buttons = buttons.with(b);
            }
        }
        UserCmd {
            forward: if self.below(4) == 0 { 0 } else { 127 },
            right: axis(self),
            up: axis(self),
            buttons,
            yaw: self.below(360) as f32,
            pitch: self.below(120) as f32 - 60.0,
            ..UserCmd::default()
        }
    }
}

/// Walks a random player from every spawn point for `ticks` ticks.
fn random_walks(map: &LoadedMap, ticks: usize) -> usize {
    let params = MoveParams::default();
    let (lo, hi) = map.world().bounds().expect("a map with geometry");
    let mut moves = 0;
    for (i, (_, spawn)) in map.spawn_points().filter(|(_, s)| s.fits).enumerate() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1));
        let mut s = MoveState::spawned(spawn.spawn_origin, spawn.yaw);
        let mut cmd = UserCmd::default();
        let mut travelled = 0.0;
        for tick in 0..ticks {
            let before = s.origin;
            if tick % 12 == 0 {
                cmd = rng.command();
            }
            let out = pmove::pmove(&mut s, &cmd, map, &params, 1.0 / 60.0);
            moves += 1;
            let at = format!("{} spawn {i} tick {tick} at {}", map.name(), s.origin);
            assert!(!out.stuck && !out.unstuck, "stuck: {at}");
            assert!(
                map.fits(s.origin, s.mins, s.maxs, MOVE_MASK),
                "in solid: {at}"
            );
            assert!(
                s.origin.cmpge(lo).all() && s.origin.cmple(hi).all(),
                "left the map: {at}"
            );
            travelled += s.origin.distance(before);
        }
        assert!(
            travelled > ticks as f32 * 1.5,
            "{} spawn {i} hardly moved: {travelled}",
            map.name()
        );
    }
    moves
}

#[test]
fn random_walks_on_quarry_maps() {
    for name in ["q_duel1", "q_dm1", "q_ctf1"] {
        let map = load(&repo().join("maps").join(format!("{name}.map")));
        let moves = random_walks(&map, 4000);
        assert!(moves > 1000, "{name}: {moves} moves");
    }
}

/// Every shared map (Quake 1, Quake 3 with patches, Valve 220), when present.
#[test]
fn random_walks_on_shared_maps() {
    let shared = repo().join("../shared/maps");
    let Ok(dirs) = std::fs::read_dir(&shared) else {
        eprintln!("skipped: {} not found", shared.display());
        return;
    };
    let mut paths: Vec<PathBuf> = dirs
        .flatten()
        .filter_map(|d| std::fs::read_dir(d.path()).ok())
        .flat_map(|files| files.flatten().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    paths.sort();
    for path in paths {
        let map = load(&path);
        if map.spawn_points().any(|(_, s)| s.fits) {
            let moves = random_walks(&map, 1500);
            eprintln!("{}: {moves} moves", path.display());
            assert!(moves > 1000, "{}", path.display());
        }
    }
}

#[test]
fn q_dm1_jump_pad_reaches_its_target() {
    let map = load(&repo().join("maps/q_dm1.map"));
    let params = MoveParams::default();
    let mut pads = 0;
    for e in map.entities() {
        let EntityKind::JumpPad(JumpPad {
            push:
                Push::Toward {
                    target_origin: Some(target),
                    ..
                },
        }) = e.kind
        else {
            continue;
        };
        let Some((lo, hi)) = e.bounds else { continue };
        pads += 1;
        let centre = (lo + hi) * 0.5;
        // Drop a player onto the pad, then launch it as the sim would.
        let mut s = MoveState::new(Vec3::new(centre.x, centre.y, hi.z + 24.0));
        for _ in 0..30 {
            let _ = pmove::pmove(&mut s, &UserCmd::default(), &map, &params, 1.0 / 60.0);
        }
        assert!(s.on_ground(), "stands on the pad at {}", s.origin);
        s.launch(jump_pad_velocity(centre, target, params.gravity));
        let mut closest = f32::MAX;
        let mut landed = false;
        for _ in 0..300 {
            let out = pmove::pmove(&mut s, &UserCmd::default(), &map, &params, 1.0 / 60.0);
            closest = closest.min(s.origin.distance(target));
            assert!(!out.stuck);
            if out.landed().is_some() {
                landed = true;
                break;
            }
        }
        assert!(closest < 32.0, "passed {closest} from target {target}");
        assert!(landed, "landed after the pad, at {}", s.origin);
    }
    assert!(pads >= 1, "q_dm1 has a jump pad");
}
