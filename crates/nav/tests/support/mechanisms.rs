//! A navmesh's mechanism chain in a generated map's answer's words, for
//! `tests/generated_maps.rs` and `examples/mapgen_corpus.rs`.

use quarry_map::{CollisionWorld, LoadedMap};
use quarry_mapgen::Mechanism;
use quarry_nav::gates::{Fired, OpenBy, Step, chain};
use quarry_nav::{LinkKind, NavMesh};

/// The mechanisms on the way from the map's first spawn point to `goal`,
/// as the navmesh plans them, in the answer's words.
pub(crate) fn on_the_way(mesh: &NavMesh, world: &CollisionWorld, map: &LoadedMap, goal: glam::Vec3) -> Vec<Mechanism> {
    let Some((_, spawn)) = map.spawn_points().find(|(_, s)| s.fits) else { return Vec::new() };
    let Some(steps) = chain(mesh, world, map, spawn.spawn_origin, goal) else { return Vec::new() };
    let mut out = Vec::new();
    for step in steps {
        match step {
            Step::Open { by, through, .. } => {
                let base = match by {
                    OpenBy::TouchButton => Mechanism::Button,
                    OpenBy::TouchTrigger => Mechanism::Trigger,
                    OpenBy::ShootButton => Mechanism::ShootButton,
                    OpenBy::ShootDoor => Mechanism::ShootDoor,
                    OpenBy::Key(_) => Mechanism::Key,
                };
                // A counter of N wants N uses of what feeds it.
                let uses = through.iter().map(|f| match f {
                    Fired::Counter(n) => *n as usize,
                    Fired::Relay => 1,
                });
                out.extend(std::iter::repeat_n(base, uses.product::<usize>().max(1)));
                out.extend(through.iter().map(|f| match f {
                    Fired::Relay => Mechanism::Relay,
                    Fired::Counter(_) => Mechanism::Counter,
                }));
            }
            Step::Move(LinkKind::Lift) => out.push(Mechanism::Lift),
            Step::Move(LinkKind::Teleport) => out.push(Mechanism::Teleporter),
            Step::Move(LinkKind::Crouch) => out.push(Mechanism::Crouch),
            Step::Move(LinkKind::Jump) => out.push(Mechanism::Jump),
            Step::Move(LinkKind::JumpPad) => out.push(Mechanism::JumpPad),
            Step::Move(LinkKind::Drop) => out.push(Mechanism::Drop),
            // Diving in and swimming out are one swim.
            Step::Move(LinkKind::Swim) | Step::Dive => {
                if out.last() != Some(&Mechanism::Swim) {
                    out.push(Mechanism::Swim);
                }
            }
            Step::Climb => out.push(Mechanism::Climb),
            // Walking is no mechanism.
            Step::Move(LinkKind::Walk) => {}
        }
    }
    out
}

