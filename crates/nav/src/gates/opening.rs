//! Opening closed gates: the mesh is built with every gate bots open open
//! and its links re-checked live, so a closed gate makes a goal behind it
//! unroutable. [`plan`] finds the gate to blame (the route with the gates
//! assumed open passes through its closed bounds) and the first of its
//! openings reachable from the start: the trigger or button to walk into,
//! or a spot in sight of what to shoot.

use glam::Vec3;
use quarry_map::{CollisionWorld, EntityId};
use serde::Serialize;

use super::{Gate, Opening};
use crate::mesh::NavMesh;
use crate::route::RouteOptions;
use crate::route::astar::SearchScratch;

/// How to open the closed gate that bars a way.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OpeningPlan {
    /// Where to go: into the trigger or button, or a spot in sight of what
    /// to shoot.
    pub target: Vec3,
    /// The point to shoot, for gates opened by shooting.
    pub shoot_at: Option<Vec3>,
    /// The gate.
    pub gate: EntityId,
}

/// Spacing of the points tested against gate bounds along a route, units.
const SAMPLE_STEP: f32 = 16.0;
/// A shooting spot stands this far back along the route from the gate, units.
const SHOOT_BACK: f32 = 96.0;
/// How far from a button or trigger a standing spot may be, units.
const OPENING_RADIUS: f32 = 256.0;

/// Whether `g` is closed in the live `world` (at the offset the map drew it).
pub fn is_closed(world: &CollisionWorld, g: &Gate) -> bool {
    is_closed_entity(world, g.entity)
}

/// Whether the gate mover of map entity `gate` is closed in the live `world`.
pub fn is_closed_entity(world: &CollisionWorld, gate: EntityId) -> bool {
    world.mover_of(gate).and_then(|id| world.mover_offset(id)).is_some_and(|o| o == Vec3::ZERO)
}

/// How to open the first closed gate on the way from `from` to `to` (see
/// the module docs).
pub fn plan(
    mesh: &NavMesh,
    world: &CollisionWorld,
    scratch: &mut SearchScratch,
    gates: &[Gate],
    from: Vec3,
    to: Vec3,
) -> Option<OpeningPlan> {
    let closed: Vec<&Gate> = gates.iter().filter(|g| !g.openings.is_empty() && is_closed(world, g)).collect();
    if closed.is_empty() {
        return None;
    }
    let open_ways = RouteOptions { validate: false, ..RouteOptions::default() };
    let route = mesh.route(world, scratch, from, to, &open_ways).ok()?;
    let (mins, maxs) = (mesh.agent().mins(), mesh.agent().maxs());
    let mut points = vec![route.routed_start];
    for c in &route.corners {
        let last = points.last().copied().unwrap_or(c.origin);
        let steps = (last.distance(c.origin) / SAMPLE_STEP).ceil().max(1.0) as usize;
        points.extend((1..=steps).map(|i| last.lerp(c.origin, i as f32 / steps as f32)));
    }
    let (at, gate) = points.iter().enumerate().find_map(|(i, p)| {
        let (a, b) = (*p + mins, *p + maxs);
        closed.iter().find(|g| a.cmple(g.closed.1).all() && g.closed.0.cmple(b).all()).map(|g| (i, *g))
    })?;
    let reachable = |scratch: &mut SearchScratch, p: Vec3| mesh.route(world, scratch, from, p, &RouteOptions::default()).is_ok();
    for opening in &gate.openings {
        let plan = match *opening {
            Opening::Touch { bounds: (lo, hi), .. } => {
                let floor_centre = Vec3::new((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5, lo.z - mins.z);
                let spot = mesh.nearest_node(world, floor_centre, OPENING_RADIUS).and_then(|n| mesh.node(n)).map(|n| n.origin);
                spot.map(|_| OpeningPlan { target: floor_centre, shoot_at: None, gate: gate.entity })
            }
            Opening::Shoot { entity, bounds: (lo, hi) } => {
                let aim = (lo + hi) * 0.5;
                let stand = if entity == gate.entity {
                    // Back along the route from where it meets the gate.
                    let back = (SHOOT_BACK / SAMPLE_STEP).ceil() as usize;
                    points.get(at.saturating_sub(back)).copied()
                } else {
                    mesh.nearest_node(world, aim, OPENING_RADIUS).and_then(|n| mesh.node(n)).map(|n| n.origin)
                };
                stand.map(|target| OpeningPlan { target, shoot_at: Some(aim), gate: gate.entity })
            }
            // A key door opens to a touch with the key, but a route ends
            // short of a closed door: not planned yet (the key's own
            // pickup value draws bots to keys).
            Opening::Key(_) => None,
        };
        if let Some(p) = plan.filter(|p| reachable(scratch, p.target)) {
            return Some(p);
        }
    }
    None
}

