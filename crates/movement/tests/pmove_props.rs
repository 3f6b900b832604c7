//! Property test: from thousands of random command sequences in a closed
//! room full of stairs, boxes, ramps, a steep slope, a low tunnel, a
//! crease and a pool ([`TestWorld::arena`]), the player never ends a move
//! inside solid, never needs unsticking and never falls through the floor.

use glam::Vec3;
use proptest::prelude::*;
use quarry_map::Trace;
use quarry_movement::pmove::test_world::TestWorld;
use quarry_movement::pmove::{self, MOVE_MASK, MoveParams, MoveState};
use quarry_movement::{Buttons, UserCmd};

fn command() -> impl Strategy<Value = (UserCmd, u8)> {
    let moves = prop_oneof![Just(0i8), Just(127), Just(-127), Just(64), -127i8..=127];
    (
        moves.clone(),
        moves.clone(),
        moves,
        0u16..32,
        0.0f32..360.0,
        -89.0f32..89.0,
        1u8..20,
    )
        .prop_map(|(forward, right, up, buttons, yaw, pitch, hold)| {
            let cmd = UserCmd {
                forward,
                right,
                up,
                buttons: Buttons(buttons & Buttons::ALL.0),
                yaw,
                pitch,
                ..UserCmd::default()
            };
            (cmd, hold)
        })
}

fn check(world: &TestWorld, s: &MoveState, step: usize) -> Result<(), TestCaseError> {
    prop_assert!(
        s.origin.is_finite() && s.velocity.is_finite(),
        "step {step}: {s:?}"
    );
    prop_assert!(
        world.fits(s.origin, s.mins, s.maxs, MOVE_MASK),
        "step {step}: in solid at {} ({:?})",
        s.origin,
        s.bbox()
    );
    prop_assert!(
        s.origin.z + s.mins.z > -0.01,
        "step {step}: fell through the floor to {}",
        s.origin
    );
    prop_assert!(
        s.origin.truncate().abs().max_element() < 512.0,
        "step {step}: left the room at {}",
        s.origin
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn never_in_solid_never_through_the_floor(
        start in 0..TestWorld::ARENA_STARTS.len(),
        commands in prop::collection::vec(command(), 10..40),
        dt_choice in 0usize..3,
        knock in prop::option::of((-600.0f32..600.0, -600.0f32..600.0, 0.0f32..800.0, 0usize..30)),
    ) {
        let world = TestWorld::arena();
        let params = MoveParams::default();
        let dt = [1.0 / 60.0, 1.0 / 20.0, 1.0 / 125.0][dt_choice];
        let mut s = MoveState::new(TestWorld::ARENA_STARTS[start]);
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
