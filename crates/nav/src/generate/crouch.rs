//! CROUCH links: through passages only a crouching player fits (under a
//! low beam, along a vent), in a straight line between two floors the
//! flood reached standing.
//!
//! The flood walks with the standing box, so where a ceiling comes down
//! below its top it stops. Each node with no link toward a neighbouring
//! cell is looked at in that direction: two rays, one just above a step's
//! height and one between the crouched and the standing box's tops, tell a
//! low ceiling (the low ray passes, the high one is stopped) from a wall
//! (both are) or open floor (neither is) for two traces. Where a ceiling
//! is low, the crouched box walks on, a cell at a time, until it reaches a
//! node standing in that line (a link) or ground where a standing box fits
//! but no node is (nothing).

use glam::Vec3;
use quarry_map::{Contents, Trace};

use super::flood::DIRS;
use super::pool::parallel_map;
use super::probe::Prober;
use crate::agent::Agent;
use crate::cells::Grid;
use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

/// The longest crouched walk looked for, in cells.
const MAX_CELLS: i32 = 8;
/// Crouching moves at a quarter of running speed (`pm_crouchScale`): a
/// link costs this many times its length.
const COST_PER_UNIT: f32 = 4.0;

/// Nodes a thread looks at, at least (fewer run on one thread).
const MIN_NODES_PER_THREAD: usize = 256;

/// Adds the CROUCH links of every node to `graph` (looking on up to
/// `threads` threads); returns how many.
pub(crate) fn add_crouches(graph: &mut GraphBuilder, world: &(dyn Trace + Sync), agent: &Agent, grid: &Grid, threads: usize) -> usize {
    if agent.crouch_max_z >= agent.max_z {
        return 0;
    }
    let crouched_agent = Agent { max_z: agent.crouch_max_z, ..*agent };
    let ids: Vec<u32> = (0..graph.nodes.len() as u32).collect();
    let probers = || {
        (Prober::new(world, agent, grid.size, &[]).with_nearby(), Prober::new(world, &crouched_agent, grid.size, &[]).with_hazards(false))
    };
    let graph_ref = &*graph;
    let found = parallel_map(&ids, threads, MIN_NODES_PER_THREAD, probers, |(standing, crouched), &id| {
        crouches_from(graph_ref, standing, crouched, grid, id)
    });
    let mut count = 0;
    for (id, links) in ids.into_iter().zip(found) {
        for link in links {
            graph.link(id, link);
            count += 1;
        }
    }
    count
}

/// The CROUCH links out of node `id`, in direction order.
fn crouches_from(graph: &GraphBuilder, standing: &Prober<'_>, crouched: &Prober<'_>, grid: &Grid, id: u32) -> Vec<Link> {
    let Some(n) = graph.nodes.get(id as usize) else { return Vec::new() };
    let out = graph.out.get(id as usize).map_or(&[][..], Vec::as_slice);
    let mut links = Vec::new();
    let mut focused = false;
    for d in DIRS {
        let next = [n.cell[0] + d[0], n.cell[1] + d[1]];
        let linked = out.iter().any(|l| graph.nodes.get(l.to.index()).is_some_and(|t| t.cell == next));
        if linked {
            continue;
        }
        if !focused {
            // The rays reach a box's half width past a neighbour's centre.
            standing.focus(n.origin, grid.size * 1.5);
            focused = true;
        }
        if !low_ceiling_ahead(standing, n.origin, grid.centre(next).extend(n.origin.z)) {
            continue;
        }
        if let Some((to, length)) = crouch_walk(graph, standing, crouched, grid, n.origin, n.cell, d) {
            links.push(Link { to: NodeId(to), cost: length * COST_PER_UNIT, kind: LinkKind::Crouch, entity: None, near_mover: false });
        }
    }
    links
}

/// Whether, from `origin` toward `toward` (a cell centre at the same
/// height), a ray just above a step's height passes while one between the
/// crouched and the standing box's tops is stopped: a ceiling lower than a
/// standing player with room under it. Both rays reach a box's half width
/// past the centre, where a standing box there would end.
fn low_ceiling_ahead(standing: &Prober<'_>, origin: Vec3, toward: Vec3) -> bool {
    let agent = &standing.agent;
    let dir = (toward - origin).normalize_or_zero();
    if dir == Vec3::ZERO {
        return false;
    }
    let end = toward + dir * agent.half_width;
    let ray = |z: f32| standing.trace(origin + Vec3::Z * z, end + Vec3::Z * z, Vec3::ZERO, Vec3::ZERO, Contents::SOLID);
    let head = ray((agent.crouch_max_z + agent.max_z) * 0.5);
    if !head.hit() || head.start_solid {
        return false;
    }
    let knee = ray(agent.min_z + agent.step_height + 2.0);
    !knee.hit() && !knee.start_solid
}

/// The crouched walk from the node at `origin` (in `cell`) along `d`, cell
/// by cell: the node it comes out at and the length walked, or `None`.
fn crouch_walk(
    graph: &GraphBuilder,
    standing: &Prober<'_>,
    crouched: &Prober<'_>,
    grid: &Grid,
    origin: Vec3,
    cell: [i32; 2],
    d: [i32; 2],
) -> Option<(u32, f32)> {
    let step_height = standing.agent.step_height;
    let mut at = origin;
    let mut length = 0.0;
    for k in 1..=MAX_CELLS {
        let c = [cell[0] + d[0] * k, cell[1] + d[1] * k];
        let step = crouched.try_step(at, grid.centre(c))?;
        if step.kind != LinkKind::Walk {
            return None;
        }
        length += at.distance(step.origin);
        at = step.origin;
        if let Some(to) = graph.find(c, at.z, step_height) {
            return Some((to, length));
        }
        // Room to stand but no node: the flood never came here standing.
        if !standing.sweep(at, at).start_solid {
            return None;
        }
    }
    None
}
