//! SWIM links: from a node standing on the floor of deep water up to the
//! surface and out onto a ledge beside it, as Quake's water jump climbs.
//!
//! The flood walks the floors of pools like any floor, and drops into
//! them; but a pool's wall is higher than a jump, so without these links
//! its floor is a dead end. A node counts as under water when the water
//! reaches its waist (Quake's water level 2, where a player swims). Its
//! surface is found by stepping up through the water; a node on dry floor
//! beside the pool, no higher above the surface than a water jump lifts,
//! gets a link when a box can rise from the node to the surface and move
//! across at the ledge's height onto it. Slime and lava have no nodes in
//! them (they are hazards), so they get no links.

use glam::Vec3;
use quarry_map::{Contents, Trace};

use super::probe::{GROUND_OFFSET, Prober};
use crate::cells::Grid;
use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

/// The highest ledge above the water's surface a water jump starts for,
/// units: it needs the ledge's side 30 units ahead between 4 and 20 units
/// above the origin of a player floating with its waist under water and
/// its eyes out (about 4 to 26 units under the surface); a margin below.
const CLIMB_ABOVE_SURFACE: f32 = 12.0;
/// A swimmer floats with its origin this far under the surface, units.
const FLOAT_DEPTH: f32 = 12.0;
/// A surface steeper than this (normal z) is a wall to climb out at.
const WALL_NORMAL_Z: f32 = 0.3;
/// How far (horizontally, beyond the box's half width) a ledge may lie
/// from the node under water, in cells.
const REACH_CELLS: f32 = 1.5;
/// Swimming is slower than running: a link's rise costs this much per unit.
const SWIM_COST_PER_UNIT: f32 = 2.0;
/// The climb out costs this on top, units.
const CLIMB_COST: f32 = 64.0;
/// The deepest water looked through for a surface, units.
const MAX_DEPTH: f32 = 2048.0;
/// Step of the look for the surface, units (then halved to a unit).
const SURFACE_STEP: f32 = 32.0;

/// Adds the SWIM links of every node under water to `graph`; returns how
/// many.
pub(crate) fn add_swims(graph: &mut GraphBuilder, world: &dyn Trace, prober: &Prober<'_>, grid: &Grid) -> usize {
    let agent = prober.agent;
    let waist = (agent.min_z + agent.max_z) * 0.5;
    let mut links = Vec::new();
    for (id, n) in graph.nodes.iter().enumerate() {
        if !world.point_contents_in(n.origin + Vec3::Z * waist, Contents::WATER).contains(Contents::WATER) {
            continue;
        }
        let Some(surface) = surface_above(world, n.origin + Vec3::Z * waist) else { continue };
        let reach = agent.half_width + REACH_CELLS * grid.size;
        let r = Vec3::new(reach, reach, 0.0);
        graph.for_each_column_in_rect(grid.cell(n.origin - r), grid.cell(n.origin + r), |ids| {
            for &to in ids {
                let Some(ledge) = graph.nodes.get(to as usize) else { continue };
                let floor = ledge.origin.z + agent.min_z;
                let climbable = floor >= surface - agent.step_height && floor <= surface + CLIMB_ABOVE_SURFACE;
                let dry = !world.point_contents_in(ledge.origin + Vec3::Z * waist, Contents::WATER).contains(Contents::WATER);
                if to as usize == id || !climbable || !dry || ledge.origin.z <= n.origin.z + agent.step_height {
                    continue;
                }
                if swims_out(prober, n.origin, ledge.origin, surface) {
                    let rise = ledge.origin.z - n.origin.z;
                    let across = (ledge.origin - n.origin).truncate().length();
                    let cost = rise * SWIM_COST_PER_UNIT + across + CLIMB_COST;
                    links.push((id as u32, Link { to: NodeId(to), cost, kind: LinkKind::Swim, entity: None, near_mover: false }));
                }
            }
        });
    }
    let count = links.len();
    for (from, link) in links {
        graph.link(from, link);
    }
    count
}

/// The height of the water's surface above `point` (inside the water),
/// to within a unit: stepped up coarsely, then halved in on.
fn surface_above(world: &dyn Trace, point: Vec3) -> Option<f32> {
    let wet = |z: f32| world.point_contents_in(Vec3::new(point.x, point.y, z), Contents::WATER).contains(Contents::WATER);
    let mut z = point.z;
    while z - point.z < MAX_DEPTH {
        if !wet(z + SURFACE_STEP) {
            let (mut lo, mut hi) = (z, z + SURFACE_STEP);
            while hi - lo > 1.0 {
                let mid = (lo + hi) * 0.5;
                if wet(mid) { lo = mid } else { hi = mid }
            }
            return Some((lo + hi) * 0.5);
        }
        z += SURFACE_STEP;
    }
    None
}

/// Whether a swimmer rising from `bottom` to float at the surface (waist
/// under, eyes out) and swimming toward `top` meets the ledge's side (the
/// wall Quake's water jump needs in front of it; a ledge that overhangs
/// the water has none) and then has room to rise over its lip and across
/// onto it.
fn swims_out(prober: &Prober<'_>, bottom: Vec3, top: Vec3, surface: f32) -> bool {
    let float = Vec3::new(bottom.x, bottom.y, surface - FLOAT_DEPTH);
    if float.z <= bottom.z {
        return false;
    }
    let up = prober.sweep(bottom + Vec3::Z * GROUND_OFFSET, float);
    if up.hit() || up.start_solid {
        return false;
    }
    let to_wall = prober.sweep(float, Vec3::new(top.x, top.y, float.z));
    if to_wall.start_solid || !to_wall.hit() || to_wall.normal.z.abs() > WALL_NORMAL_Z {
        return false;
    }
    let at = to_wall.end;
    let over = top.z + prober.agent.step_height + GROUND_OFFSET;
    let rise = prober.sweep(at, Vec3::new(at.x, at.y, over));
    if rise.hit() || rise.start_solid {
        return false;
    }
    let across = prober.sweep(Vec3::new(at.x, at.y, over), Vec3::new(top.x, top.y, over));
    !across.hit() && !across.start_solid
}
