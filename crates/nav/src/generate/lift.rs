//! LIFT links: from the nodes standing on a lowered lift (`func_plat`)
//! where its touch volume raises it, to the nodes a player steps onto
//! from the lift at the top of its travel.
//!
//! The flood runs with every plat lowered (where a match starts them), so
//! the nodes on a plat stand on its lowered top, and the floor around its
//! raised top has nodes of its own but no link to the plat (the plat is
//! not there in the probed world). The link is a committed action: walk
//! onto the plat, stand while it rises, step off. Its cost is the ride's
//! time at running speed plus the step off, and a second's wait for the
//! plat to come down when someone else has it.

use glam::Vec3;
use quarry_map::entities::movers::plat_trigger_volume;

use super::input::{LiftSpec, NavInput};
use super::offmesh::OffMeshLink;
use super::probe::{GROUND_OFFSET, Prober};
use crate::cells::Grid;
use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

/// Running speed the ride's time is converted at, units per second (a
/// link's cost is a distance).
const RUN_SPEED: f32 = 320.0;
/// Seconds added to every ride: stepping on, the plat starting, and on
/// average some wait for it to come back down.
const BOARD_S: f32 = 1.0;
/// A node on the lowered top stands within this of it (height), units.
const ON_TOP: f32 = 2.0;
/// How far beyond the plat's edge (horizontally, past the box's half
/// width) a node at the top may stand and still be stepped onto from the
/// raised plat, in cells.
const EXIT_CELLS: f32 = 1.5;

/// Adds the LIFT links of `input`'s lifts to `graph`; warns (into
/// `warnings`) about lifts that get none.
pub(crate) fn add_lifts(
    graph: &mut GraphBuilder,
    prober: &Prober<'_>,
    grid: &Grid,
    input: &NavInput,
    warnings: &mut Vec<String>,
) -> Vec<OffMeshLink> {
    let mut out = Vec::new();
    for lift in &input.lifts {
        let boards = boards(graph, prober, grid, lift);
        let exits = exits(graph, prober, grid, lift);
        if boards.is_empty() || exits.is_empty() {
            let missing = if boards.is_empty() { "no node stands on its lowered top" } else { "no floor to step onto at the top" };
            warnings.push(format!("lift entity {} gets no link ({missing})", lift.entity.0));
            continue;
        }
        let ride = (lift.rise / lift.speed + BOARD_S) * RUN_SPEED;
        for &b in &boards {
            for &x in &exits {
                let (Some(from), Some(to)) = (graph.nodes.get(b as usize), graph.nodes.get(x as usize)) else {
                    continue;
                };
                let walk = (to.origin - from.origin).truncate().length();
                let link = Link { to: NodeId(x), cost: ride + walk, kind: LinkKind::Lift, entity: Some(lift.entity), near_mover: false };
                graph.link(b, link);
            }
        }
        let (lo, hi) = lift.raised;
        out.push(OffMeshLink {
            kind: LinkKind::Lift,
            entity: lift.entity,
            entries: boards.into_iter().map(NodeId).collect(),
            exits: exits.into_iter().map(NodeId).collect(),
            landing: Vec3::new((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5, hi.z - prober.agent.min_z),
        });
    }
    out
}

/// The nodes standing on the lowered top whose box overlaps the touch
/// volume (standing there raises the plat).
fn boards(graph: &GraphBuilder, prober: &Prober<'_>, grid: &Grid, lift: &LiftSpec) -> Vec<u32> {
    let (lo, hi) = lift.lowered();
    let (t_lo, t_hi) = plat_trigger_volume((lo, hi));
    let (mins, maxs) = (prober.agent.mins(), prober.agent.maxs());
    let mut out = Vec::new();
    graph.for_each_column_in_rect(grid.cell(lo), grid.cell(hi), |ids| {
        for &id in ids {
            let Some(n) = graph.nodes.get(id as usize) else { continue };
            let floor = n.origin.z + prober.agent.min_z;
            let (a, b) = (n.origin + mins, n.origin + maxs);
            let over = a.x <= t_hi.x && t_lo.x <= b.x && a.y <= t_hi.y && t_lo.y <= b.y;
            if over && (floor - hi.z).abs() <= ON_TOP {
                out.push(id);
            }
        }
    });
    out.sort_unstable();
    out
}

/// The nodes at the raised top's height around its edge that a straight
/// step from the middle of the raised plat reaches.
fn exits(graph: &GraphBuilder, prober: &Prober<'_>, grid: &Grid, lift: &LiftSpec) -> Vec<u32> {
    let agent = prober.agent;
    let (lo, hi) = lift.raised;
    let reach = agent.half_width + EXIT_CELLS * grid.size;
    let margin = Vec3::new(reach, reach, 0.0);
    let ride = Vec3::new((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5, hi.z - agent.min_z);
    let up = Vec3::Z * (agent.step_height + GROUND_OFFSET);
    if !prober.fits(ride + up) {
        return Vec::new();
    }
    let mut out = Vec::new();
    graph.for_each_column_in_rect(grid.cell(lo - margin), grid.cell(hi + margin), |ids| {
        for &id in ids {
            let Some(n) = graph.nodes.get(id as usize) else { continue };
            let p = n.origin;
            let on_plat = p.x > lo.x && p.x < hi.x && p.y > lo.y && p.y < hi.y;
            let level = (p.z - ride.z).abs() <= agent.step_height;
            if on_plat || !level {
                continue;
            }
            let tr = prober.sweep(ride + up, p + up);
            if !tr.hit() && !tr.start_solid && floored(prober, lift.raised, ride, p) {
                out.push(id);
            }
        }
    });
    out.sort_unstable();
    out
}

/// Whether the step from the raised plat at `ride` to `to` has floor all
/// the way: where the box no longer overlaps the plat, the ground is within
/// a step below (no gap between the plat and the ledge to fall into).
fn floored(prober: &Prober<'_>, (lo, hi): (Vec3, Vec3), ride: Vec3, to: Vec3) -> bool {
    let agent = prober.agent;
    let w = agent.half_width;
    let len = (to - ride).truncate().length();
    let n = ((len / (w * 0.5)).ceil() as u32).clamp(2, 64);
    let lift = agent.step_height + GROUND_OFFSET;
    (1..=n).all(|i| {
        let p = ride.lerp(to, i as f32 / n as f32);
        let on_plat = p.x + w > lo.x && p.x - w < hi.x && p.y + w > lo.y && p.y - w < hi.y;
        on_plat || prober.fall(p + Vec3::Z * lift, lift + agent.step_height).is_some()
    })
}
