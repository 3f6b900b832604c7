//! World unit tests on tiny inline maps: routing of hulls into the solid,
//! volume and mover sets, and the queries over them.

use glam::Vec3;

use crate::test_util::block;
use crate::{Contents, EntityId, LoadOptions, Trace, load_str};

fn map_src() -> String {
    format!(
        "{{\n\"classname\" \"worldspawn\"\n{}{}{}}}\n\
         {{\n\"classname\" \"func_door\"\n\"angle\" \"-1\"\n{}}}\n\
         {{\n\"classname\" \"trigger_multiple\"\n{}}}\n",
        block([-512, -512, -16], [512, 512, 0], "floor"),
        block([100, -64, 0], [164, 64, 64], "*water1"),
        block([-300, -64, 0], [-200, 64, 64], "hint"),
        block([200, -64, 0], [264, 64, 128], "door"),
        block([-100, -32, 0], [-36, 32, 64], "trigger"),
    )
}

#[test]
fn hulls_are_routed_by_role_and_contents() {
    let map = load_str(&map_src(), "w.map", &LoadOptions::default()).expect("loads");
    let c = map.world().hull_counts();
    assert_eq!((c.solid_brushes, c.volumes, c.mover_hulls, c.patch_triangles), (1, 2, 1, 0));
    assert_eq!(map.brush_count(), 5);
    assert_eq!(map.info().nonsolid_brushes, 1, "the hint brush");
    let w = map.world();
    assert_eq!(w.point_contents(Vec3::new(0.0, 0.0, -8.0)), Contents::SOLID);
    assert_eq!(w.point_contents(Vec3::new(130.0, 0.0, 32.0)), Contents::WATER);
    assert_eq!(w.point_contents(Vec3::new(-70.0, 0.0, 32.0)), Contents::TRIGGER);
    assert_eq!(w.point_contents(Vec3::new(-250.0, 0.0, 32.0)), Contents::empty());
    assert_eq!(w.box_contents(Vec3::new(-120.0, -8.0, 8.0), Vec3::new(120.0, 8.0, 16.0)), Contents::WATER | Contents::TRIGGER);
    let mut touched = Vec::new();
    w.overlap_entities(Vec3::new(-120.0, -8.0, 8.0), Vec3::new(300.0, 8.0, 16.0), Contents::all(), &mut touched);
    assert_eq!(touched, vec![EntityId(1), EntityId(2)]);
}

#[test]
fn movers_move_their_collision() {
    let mut map = load_str(&map_src(), "w.map", &LoadOptions::default()).expect("loads");
    let door = map.world().mover_of(EntityId(1)).expect("door mover");
    let (mins, maxs) = (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));
    let (start, end) = (Vec3::new(150.0, 0.0, 40.0), Vec3::new(350.0, 0.0, 40.0));
    let tr = map.world().trace(start, end, mins, maxs, Contents::MASK_PLAYER_SOLID);
    assert!(tr.hit());
    assert_eq!(tr.entity, Some(EntityId(1)));
    assert!((tr.end.x - (200.0 - 15.0 - crate::SURFACE_CLIP_EPSILON)).abs() < 1e-3, "{}", tr.end.x);
    // Open the door upwards by its travel: the corridor is clear.
    let crate::EntityKind::Mover(m) = &map.entities()[1].kind else { panic!("door") };
    let (lo, hi) = map.world().mover_bounds(door).expect("bounds");
    let travel = m.travel(lo, hi).expect("door travel");
    assert_eq!(travel, Vec3::new(0.0, 0.0, 120.0));
    assert!(map.world_mut().set_mover_offset(door, travel));
    let tr = map.world().trace(start, end, mins, maxs, Contents::MASK_PLAYER_SOLID);
    assert!(!tr.hit(), "{tr:?}");
    assert!(!map.world_mut().set_mover_offset(door, Vec3::NAN));
    assert_eq!(map.world().mover_offset(door), Some(travel));
}

#[test]
fn non_finite_input_does_not_move() {
    let map = load_str(&map_src(), "w.map", &LoadOptions::default()).expect("loads");
    let tr = map.world().trace(Vec3::ZERO, Vec3::NAN, Vec3::ZERO, Vec3::ZERO, Contents::all());
    assert!(tr.all_solid && tr.fraction == 0.0 && tr.end == Vec3::ZERO);
    assert_eq!(map.world().box_contents(Vec3::NAN, Vec3::ONE), Contents::empty());
    assert!(!map.world().line_is_clear(Vec3::ZERO, Vec3::NAN, Contents::all()));
    assert!(!map.world().line_reaches(Vec3::ZERO, Vec3::NAN, Contents::all()));
}

#[test]
fn clear_lines_agree_with_traces_through_movers_and_volumes() {
    // Lines past the door (open and shut), through the water and the
    // trigger, starting inside the floor: line_is_clear answers as the
    // point trace does, whatever the mask.
    let mut map = load_str(&map_src(), "w.map", &LoadOptions::default()).expect("loads");
    let door = map.world().mover_of(EntityId(1)).expect("door mover");
    for offset in [Vec3::ZERO, Vec3::new(0.0, 0.0, 120.0)] {
        assert!(map.world_mut().set_mover_offset(door, offset));
        let w = map.world();
        for (a, b) in [
            (Vec3::new(0.0, 0.0, 40.0), Vec3::new(400.0, 0.0, 40.0)),
            (Vec3::new(-400.0, 0.0, 40.0), Vec3::new(0.0, 10.0, 30.0)),
            (Vec3::new(0.0, 0.0, -8.0), Vec3::new(0.0, 0.0, 40.0)),
            (Vec3::new(-50.0, 0.0, 100.0), Vec3::new(400.0, 20.0, 100.0)),
            (Vec3::new(130.0, 0.0, 32.0), Vec3::new(130.0, 0.0, 32.0)),
        ] {
            for mask in [Contents::MASK_SHOT, Contents::MASK_PLAYER_SOLID, Contents::WATER, Contents::TRIGGER, Contents::all()] {
                let tr = w.trace(a, b, Vec3::ZERO, Vec3::ZERO, mask);
                assert_eq!(w.line_is_clear(a, b, mask), !tr.start_solid && tr.fraction >= 1.0, "{a} -> {b}, door at {offset}, {mask:?}");
                assert_eq!(w.line_reaches(a, b, mask), tr.fraction >= 1.0, "{a} -> {b}, door at {offset}, {mask:?}");
            }
        }
    }
}

#[test]
fn nearby_views_trace_moved_doors_as_the_world_does() {
    // A view gathers a mover's hulls where the mover stands now, in its own
    // frame; traces in and out of the view's box match the world's exactly.
    let mut map = load_str(&map_src(), "w.map", &LoadOptions::default()).expect("loads");
    let door = map.world().mover_of(EntityId(1)).expect("door mover");
    let (mins, maxs) = (Vec3::new(-15.0, -15.0, -24.0), Vec3::new(15.0, 15.0, 32.0));
    for offset in [
        Vec3::ZERO,
        Vec3::new(0.0, 0.0, 40.0),
        Vec3::new(-30.0, 10.0, 0.0),
    ] {
        assert!(map.world_mut().set_mover_offset(door, offset));
        let world = map.world();
        let mut near = world.nearby();
        near.focus(Vec3::new(120.0, -80.0, 0.0), Vec3::new(320.0, 80.0, 200.0));
        assert!(near.hull_count() >= 2, "the water and the door are near");
        for (x, z) in [(150.0, 40.0), (180.0, 60.0), (190.0, 25.0), (230.0, 100.0)] {
            for (dx, dz) in [
                (40.0, 0.0),
                (120.0, 0.0),
                (-60.0, 10.0),
                (0.0, -30.0),
                (300.0, 0.0),
            ] {
                let (a, b) = (Vec3::new(x, 0.0, z), Vec3::new(x + dx, 0.0, z + dz));
                for mask in [Contents::MASK_PLAYER_SOLID, Contents::WATER] {
                    assert_eq!(
                        near.trace(a, b, mins, maxs, mask),
                        world.trace(a, b, mins, maxs, mask),
                        "{a} -> {b} with the door at {offset}"
                    );
                }
            }
        }
    }
    // Focused on nothing, a view still answers through the whole world.
    let near = map.world().nearby();
    let (a, b) = (Vec3::new(0.0, 0.0, 40.0), Vec3::new(400.0, 0.0, 40.0));
    assert_eq!(
        near.trace(a, b, mins, maxs, Contents::MASK_PLAYER_SOLID),
        map.world()
            .trace(a, b, mins, maxs, Contents::MASK_PLAYER_SOLID)
    );
}
