//! Property test: from thousands of random command sequences in a closed
//! room full of stairs, boxes, ramps, a steep slope, a low tunnel, a
//! V-shaped crease and a pool, the player never ends a move inside solid
//! and never falls through the floor.

use glam::Vec3;
use proptest::prelude::*;
use quarry_map::{Contents, Trace};
use quarry_sim::pmove::test_world::TestWorld;
use quarry_sim::pmove::{self, MOVE_MASK, MoveParams, MoveState};
use quarry_sim::{Buttons, UserCmd};

/// Inner room: x, y in -512..512, floor at z 0, ceiling at z 160 (low
/// enough that jumps from the steps hit it).
fn arena() -> TestWorld {
    let mut w = TestWorld::new();
    w.add_room(Vec3::new(-512.0, -512.0, 0.0), Vec3::new(512.0, 512.0, 160.0), 16.0);
    // Stairs: 16-unit steps, and odd 18- and 20-unit ones.
    w.add_stairs(Vec3::new(-400.0, -300.0, 0.0), 5, 16.0, 24.0, 96.0);
    w.add_stairs(Vec3::new(-400.0, -150.0, 0.0), 3, 18.0, 20.0, 64.0);
    w.add_stairs(Vec3::new(-400.0, -50.0, 0.0), 3, 20.0, 32.0, 64.0);
    // Boxes: a low one, a crate, a pillar, a thin plank floating at head height.
    w.add_solid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(64.0, 64.0, 12.0));
    w.add_solid(Vec3::new(100.0, 100.0, 0.0), Vec3::new(164.0, 164.0, 64.0));
    w.add_solid(Vec3::new(-40.0, 200.0, 0.0), Vec3::new(-8.0, 232.0, 160.0));
    w.add_solid(Vec3::new(200.0, -100.0, 50.0), Vec3::new(300.0, 0.0, 54.0));
    // Ramps: walkable 30 degrees and steep 60 degrees.
    w.add_ramp(Vec3::new(200.0, 200.0, 0.0), Vec3::new(200.0 + 64.0 * 3f32.sqrt(), 300.0, 64.0));
    w.add_ramp(Vec3::new(300.0, -400.0, 0.0), Vec3::new(300.0 + 80.0 / 3f32.sqrt(), -300.0, 80.0));
    // A tunnel 42 high.
    w.add_solid(Vec3::new(-200.0, 300.0, 42.0), Vec3::new(-100.0, 400.0, 160.0));
    // Two walls meeting at a narrow angle (a crease) in a corner.
    w.add_solid(Vec3::new(400.0, 400.0, 0.0), Vec3::new(512.0, 410.0, 160.0));
    w.add_ramp(Vec3::new(420.0, 300.0, 0.0), Vec3::new(512.0, 400.0, 160.0));
    // A pool of water with slime in one corner.
    w.add_box(Vec3::new(-512.0, 300.0, 0.0), Vec3::new(-300.0, 512.0, 60.0), Contents::WATER, None);
    w.add_box(Vec3::new(-512.0, 450.0, 0.0), Vec3::new(-450.0, 512.0, 60.0), Contents::SLIME, None);
    // Player clip around the pillar.
    w.add_box(Vec3::new(-60.0, 180.0, 0.0), Vec3::new(12.0, 252.0, 40.0), Contents::PLAYERCLIP, None);
    w
}

/// Places the player could start from.
const STARTS: [Vec3; 6] = [
    Vec3::new(0.0, -200.0, 30.0),
    Vec3::new(-300.0, -280.0, 120.0),
    Vec3::new(350.0, 350.0, 60.0),
    Vec3::new(-400.0, 400.0, 40.0),
    Vec3::new(150.0, -50.0, 100.0),
    Vec3::new(450.0, 250.0, 30.0),
];

fn command() -> impl Strategy<Value = (UserCmd, u8)> {
    let moves = prop_oneof![Just(0i8), Just(127), Just(-127), Just(64), -127i8..=127];
    (moves.clone(), moves.clone(), moves, 0u16..32, 0.0f32..360.0, -89.0f32..89.0, 1u8..20).prop_map(
        |(forward, right, up, buttons, yaw, pitch, hold)| {
            let cmd = UserCmd { forward, right, up, buttons: Buttons(buttons & Buttons::ALL.0), yaw, pitch, ..UserCmd::default() };
            (cmd, hold)
        },
    )
}

fn check(world: &TestWorld, s: &MoveState, step: usize) -> Result<(), TestCaseError> {
    prop_assert!(s.origin.is_finite() && s.velocity.is_finite(), "step {step}: {s:?}");
    prop_assert!(world.fits(s.origin, s.mins, s.maxs, MOVE_MASK), "step {step}: in solid at {} ({:?})", s.origin, s.bbox());
    prop_assert!(s.origin.z + s.mins.z > -0.01, "step {step}: fell through the floor to {}", s.origin);
    prop_assert!(s.origin.truncate().abs().max_element() < 512.0, "step {step}: left the room at {}", s.origin);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn never_in_solid_never_through_the_floor(
        start in 0..STARTS.len(),
        commands in prop::collection::vec(command(), 10..40),
        dt_choice in 0usize..3,
        knock in prop::option::of((-600.0f32..600.0, -600.0f32..600.0, 0.0f32..800.0, 0usize..30)),
    ) {
        let world = arena();
        let params = MoveParams::default();
        let dt = [1.0 / 60.0, 1.0 / 20.0, 1.0 / 125.0][dt_choice];
        let mut s = MoveState::new(STARTS[start]);
        let mut step = 0;
        for (cmd, hold) in commands {
            for _ in 0..hold {
                if let Some((x, y, z, at)) = knock && at == step {
                    s.apply_knockback(Vec3::new(x, y, z));
                }
                let out = pmove::pmove(&mut s, &cmd, &world, &params, dt);
                prop_assert!(!out.stuck && !out.unstuck, "step {step}: stuck at {}", s.origin);
                check(&world, &s, step)?;
                step += 1;
            }
        }
    }
}
