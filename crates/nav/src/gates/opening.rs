//! Opening closed gates: the mesh is built with every gate bots open open
//! and its links re-checked live, so a closed gate makes a goal behind it
//! unroutable. [`plan`] finds the gate to blame (the route with the gates
//! assumed open passes through its closed bounds) and the first of its
//! openings reachable from the start: the trigger or button to walk into,
//! a spot in sight of what to shoot, or the nearest key lying about for a
//! key door (a key door whose key the player carries bars nothing).

use glam::Vec3;
use quarry_map::entities::items::{KeyKind, KeySet};
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
    /// For a key door: the key `target` is where to pick up.
    pub key: Option<KeyKind>,
}

/// What the player planning knows about keys.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyKnowledge<'a> {
    /// The keys it carries.
    pub held: KeySet,
    /// Keys lying where it can see or knows they are, with their spots.
    pub lying: &'a [(KeyKind, Vec3)],
}

/// Spacing of the points tested against gate bounds along a route, units.
const SAMPLE_STEP: f32 = 16.0;
/// A shooting spot stands this far back along the route from the gate, units.
const SHOOT_BACK: f32 = 96.0;
/// How far back from a shootable button (beyond touching it) a bot stands
/// to shoot it, units.
pub(super) const SHOOT_STEP_BACK: f32 = 48.0;
/// Keys tried (nearest first) when looking for one that routes.
const MAX_KEY_CANDIDATES: usize = 4;
/// Closed gates looked through in a row (a trigger behind a key door
/// behind another trigger's door...).
pub(super) const MAX_NESTED_GATES: u32 = 4;

/// Whether `g` is closed in the live `world` (at the offset the map drew it).
pub fn is_closed(world: &CollisionWorld, g: &Gate) -> bool {
    is_closed_entity(world, g.entity)
}

/// Whether the gate mover of map entity `gate` is closed in the live `world`.
pub fn is_closed_entity(world: &CollisionWorld, gate: EntityId) -> bool {
    world.mover_of(gate).and_then(|id| world.mover_offset(id)).is_some_and(|o| o == Vec3::ZERO)
}

/// How to open the first closed gate on the way from `from` to `to` (see
/// the module docs). When what opens it lies behind another closed gate (a
/// trigger past a key door), the plan is the first step: open that one.
pub fn plan(
    mesh: &NavMesh,
    world: &CollisionWorld,
    scratch: &mut SearchScratch,
    gates: &[Gate],
    from: Vec3,
    to: Vec3,
    keys: &KeyKnowledge<'_>,
) -> Option<OpeningPlan> {
    let way = Way { mesh, world, gates, from, keys };
    way.plan(scratch, to, &[], MAX_NESTED_GATES)
}

/// One planning question: from where, with which keys.
struct Way<'a, 'k> {
    mesh: &'a NavMesh,
    world: &'a CollisionWorld,
    gates: &'a [Gate],
    from: Vec3,
    keys: &'a KeyKnowledge<'k>,
}

impl Way<'_, '_> {
    /// [`plan`] to `to`, looking through at most `depth` gates in a row;
    /// the gates in `shut` (being planned for further up) stay shut, so
    /// the way to what opens one does not lead through it.
    fn plan(&self, scratch: &mut SearchScratch, to: Vec3, shut: &[EntityId], depth: u32) -> Option<OpeningPlan> {
        let Way { mesh, world, gates, from, keys } = *self;
        let unlocked = |g: &Gate| g.openings.iter().any(|o| matches!(o, Opening::Key(k) if keys.held.contains(*k)));
        let closed: Vec<&Gate> =
            gates.iter().filter(|g| !g.openings.is_empty() && !unlocked(g) && is_closed(world, g)).collect();
        if closed.is_empty() {
            return None;
        }
        // Routes with every gate taken as open (links not checked live).
        let open_ways = RouteOptions { validate: false, ..RouteOptions::default() };
        let route = if shut.is_empty() {
            mesh.route(world, scratch, from, to, &open_ways).ok()?
        } else {
            let others = gates.iter().filter(|g| !g.openings.is_empty() && !shut.contains(&g.entity)).map(|g| g.entity);
            let doors: Vec<EntityId> = mesh.touch_doors().iter().copied().chain(others).collect();
            mesh.route_seeing_through(world, scratch, from, to, &RouteOptions::default(), &doors).ok()?
        };
        let (mins, maxs) = (mesh.agent().mins(), mesh.agent().maxs());
        let points = route.points_along(SAMPLE_STEP);
        let (at, gate) = points.iter().enumerate().find_map(|(i, p)| {
            let (a, b) = (*p + mins, *p + maxs);
            closed.iter().find(|g| a.cmple(g.closed.1).all() && g.closed.0.cmple(b).all()).map(|g| (i, *g))
        })?;
        let carrying = RouteOptions { keys: keys.held, ..RouteOptions::default() };
        let reachable = |scratch: &mut SearchScratch, p: Vec3| mesh.route(world, scratch, from, p, &carrying).is_ok();
        // The first of `spots` a route reaches with every gate open.
        let first_routed = |scratch: &mut SearchScratch, spots: &[Vec3]| spots.iter().copied().find(|p| mesh.route(world, scratch, from, *p, &open_ways).is_ok());
        for opening in &gate.openings {
            let plan = match *opening {
                Opening::Touch { bounds: (lo, hi), .. } => {
                    // Into the middle of a trigger volume; against a button
                    // (solid, so its middle is no route's end) from a side
                    // the player stands at, pressed against it. The first
                    // of these a route reaches with every gate open.
                    let centre = Vec3::new((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5, lo.z - mins.z);
                    let [a, b, c, d] = beside(lo, hi, centre.z, mesh.agent().half_width + 1.0);
                    first_routed(scratch, &[centre, a, b, c, d]).map(|target| OpeningPlan { target, shoot_at: None, gate: gate.entity, key: None })
                }
                Opening::Shoot { entity, bounds: (lo, hi) } => {
                    let aim = (lo + hi) * 0.5;
                    let stand = if entity == gate.entity {
                        // Back along the route from where it meets the gate.
                        let back = (SHOOT_BACK / SAMPLE_STEP).ceil() as usize;
                        points.get(at.saturating_sub(back)).copied()
                    } else {
                        // In front of it, back from the wall it sits on (a
                        // point above the floor routes from the floor below).
                        first_routed(scratch, &beside(lo, hi, aim.z, mesh.agent().half_width + SHOOT_STEP_BACK))
                    };
                    stand.map(|target| OpeningPlan { target, shoot_at: Some(aim), gate: gate.entity, key: None })
                }
                // The nearest key of its kind that routes (once carried, the
                // door bars nothing: the route walks into it and it opens).
                Opening::Key(k) => {
                    let mut lying: Vec<Vec3> = keys.lying.iter().filter(|(kind, _)| *kind == k).map(|(_, p)| *p).collect();
                    lying.sort_by(|a, b| a.distance_squared(from).total_cmp(&b.distance_squared(from)));
                    lying.truncate(MAX_KEY_CANDIDATES);
                    if let Some(&target) = lying.iter().find(|p| reachable(scratch, **p)) {
                        return Some(OpeningPlan { target, shoot_at: None, gate: gate.entity, key: Some(k) });
                    }
                    lying.first().map(|&target| OpeningPlan { target, shoot_at: None, gate: gate.entity, key: Some(k) })
                }
            };
            let Some(p) = plan else { continue };
            if reachable(scratch, p.target) {
                return Some(p);
            }
            // What opens it lies behind another closed gate: open that first.
            let deeper: Vec<EntityId> = shut.iter().copied().chain([gate.entity]).collect();
            if depth > 1
                && let Some(inner) = self.plan(scratch, p.target, &deeper, depth - 1)
            {
                return Some(inner);
            }
        }
        None
    }
}

/// Points `r` out from the middle of each side of the box `lo..hi`, at
/// height `z`.
pub(super) fn beside(lo: Vec3, hi: Vec3, z: f32, r: f32) -> [Vec3; 4] {
    let (cx, cy) = ((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5);
    [Vec3::new(lo.x - r, cy, z), Vec3::new(hi.x + r, cy, z), Vec3::new(cx, lo.y - r, z), Vec3::new(cx, hi.y + r, z)]
}
