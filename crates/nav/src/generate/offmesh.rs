//! Off-mesh links: one-way JUMPPAD links from every node standing in a
//! jump pad's volume to where the pad's arc lands (never back onto the pad,
//! which would throw the player again), and TELEPORT links from
//! every node in a teleporter's volume to the node at its destination.
//!
//! A node whose box is inside such a volume cannot walk on (touching the
//! trigger launches or teleports the player), so its walk links are
//! replaced by the off-mesh link. The landing of a jump pad is found by
//! flying the arc with box traces, using the same launch velocity as the
//! sim ([`jump_pad_velocity`]), rather than assuming the player lands on
//! the target (which Quake 3 puts at the apex).

use glam::Vec3;
use quarry_map::EntityId;
use serde::Serialize;

use super::input::{NavInput, PadPush};
use super::probe::Prober;
use crate::cells::Grid;
use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

/// Flat cost of a jump-pad link, any distance (the reference's `NAV_JUMPPAD_COST`).
pub const JUMPPAD_COST: f32 = 128.0;
/// Flat cost of a teleporter link, any distance (`NAV_TELEPORT_COST`).
pub const TELEPORT_COST: f32 = 64.0;
/// Radius searched for the node at a landing or destination floor.
const EXIT_SNAP: f32 = 128.0;
/// Fallback radius around the raw target point.
const EXIT_FALLBACK: f32 = 256.0;
/// Time step of the flown arc, seconds (pmove runs at 60-125 Hz; 1/60 keeps
/// the sweep within a box width per step at pad speeds).
const ARC_DT: f32 = 1.0 / 60.0;
/// Longest flight followed, seconds.
const ARC_MAX_S: f32 = 6.0;

/// One off-mesh link as reported by [`NavMesh::off_mesh_links`](crate::NavMesh::off_mesh_links).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OffMeshLink {
    /// [`LinkKind::JumpPad`], [`LinkKind::Teleport`] or [`LinkKind::Lift`].
    pub kind: LinkKind,
    /// The trigger entity.
    pub entity: EntityId,
    /// Nodes standing in the trigger (or the one nearest to it); for a
    /// lift, on its lowered top where standing raises it.
    pub entries: Vec<NodeId>,
    /// The nodes where the player lands or appears: for a jump pad, where
    /// its arc lands and the floor under its target (when they differ).
    pub exits: Vec<NodeId>,
    /// Where the flown arc lands (pads), the destination (teleporters) or
    /// where a rider stands at the top (lifts).
    pub landing: Vec3,
}

pub use quarry_map::jump_pad_velocity;

/// Adds the off-mesh links of `input`'s pads and teleporters to `graph`;
/// warns (into `warnings`) about triggers that get no link.
pub(crate) fn add_off_mesh(
    graph: &mut GraphBuilder,
    prober: &Prober<'_>,
    grid: &Grid,
    input: &NavInput,
    warnings: &mut Vec<String>,
) -> Vec<OffMeshLink> {
    let mut out = Vec::new();
    for pad in &input.jump_pads {
        let centre = (pad.bounds.0 + pad.bounds.1) * 0.5;
        let launch = prober.ground_below(centre, EXIT_SNAP).unwrap_or(centre);
        let landing = fly(prober, pad.bounds, pad.push, launch, centre);
        let aim = match pad.push {
            PadPush::Toward(t) => t,
            PadPush::Velocity(v) => centre + v.normalize_or_zero() * EXIT_FALLBACK,
        };
        // Where the arc lands, and the floor under the target (Quake 3
        // mappers put the target over the ledge the pad serves; air control
        // gets a player there when the arc alone would overshoot).
        let mut exits: Vec<u32> = landing
            .and_then(|l| nearest(graph, grid, l, EXIT_SNAP))
            .into_iter()
            .collect();
        if let Some(t) = snap_exit(graph, prober, grid, aim)
            && !exits.contains(&t)
        {
            exits.push(t);
        }
        // A player standing there would touch the pad and be thrown
        // again (a pad aimed straight up has its target's floor, and
        // sometimes its arc's landing, on the pad itself): no way off.
        let (mins, maxs) = (prober.agent.mins(), prober.agent.maxs());
        exits.retain(|&id| graph.nodes.get(id as usize).is_none_or(|n| !boxes_touch((n.origin + mins, n.origin + maxs), pad.bounds)));
        let trigger = Trigger {
            bounds: pad.bounds,
            kind: LinkKind::JumpPad,
            entity: pad.entity,
            cost: JUMPPAD_COST,
        };
        match connect(graph, prober, grid, &trigger, &exits) {
            Some(mut l) => {
                l.landing = landing.unwrap_or(aim);
                out.push(l);
            }
            None => warnings.push(format!(
                "jump pad entity {} gets no link (no node at its volume, or it lands nowhere but back on itself)",
                pad.entity.0
            )),
        }
    }
    for tele in &input.teleporters {
        let exits: Vec<u32> = snap_exit(graph, prober, grid, tele.destination)
            .into_iter()
            .collect();
        let trigger = Trigger {
            bounds: tele.bounds,
            kind: LinkKind::Teleport,
            entity: tele.entity,
            cost: TELEPORT_COST,
        };
        match connect(graph, prober, grid, &trigger, &exits) {
            Some(mut l) => {
                l.landing = tele.destination;
                out.push(l);
            }
            None => warnings.push(format!(
                "teleporter entity {} gets no link (no node at its volume or destination)",
                tele.entity.0
            )),
        }
    }
    out
}

/// A trigger volume that sends the player elsewhere.
struct Trigger {
    bounds: (Vec3, Vec3),
    kind: LinkKind,
    entity: EntityId,
    cost: f32,
}

/// Links every node inside the trigger (or the node nearest its floor) to each of `exits`.
fn connect(
    graph: &mut GraphBuilder,
    prober: &Prober<'_>,
    grid: &Grid,
    t: &Trigger,
    exits: &[u32],
) -> Option<OffMeshLink> {
    if exits.is_empty() {
        return None;
    }
    let inside = nodes_in_volume(graph, prober, grid, t.bounds);
    let entries = if inside.is_empty() {
        let centre = (t.bounds.0 + t.bounds.1) * 0.5;
        let floor = prober.ground_below(centre, EXIT_SNAP).unwrap_or(centre);
        nearest(graph, grid, floor, EXIT_SNAP).into_iter().collect()
    } else {
        for &n in &inside {
            if let Some(out) = graph.out.get_mut(n as usize) {
                out.clear();
            }
        }
        inside
    };
    let entries: Vec<u32> = entries.into_iter().filter(|e| !exits.contains(e)).collect();
    if entries.is_empty() {
        return None;
    }
    for &e in &entries {
        for &x in exits {
            let link = Link {
                to: NodeId(x),
                cost: t.cost,
                kind: t.kind,
                entity: Some(t.entity),
                near_mover: false,
            };
            graph.link(e, link);
        }
    }
    Some(OffMeshLink {
        kind: t.kind,
        entity: t.entity,
        entries: entries.into_iter().map(NodeId).collect(),
        exits: exits.iter().map(|&x| NodeId(x)).collect(),
        landing: Vec3::ZERO,
    })
}

/// Nodes whose standing box overlaps `bounds` and touches a trigger there.
fn nodes_in_volume(
    graph: &GraphBuilder,
    prober: &Prober<'_>,
    grid: &Grid,
    (lo, hi): (Vec3, Vec3),
) -> Vec<u32> {
    let (mins, maxs) = (prober.agent.mins(), prober.agent.maxs());
    let (c0, c1) = (grid.cell(lo + mins), grid.cell(hi + maxs));
    let mut out = Vec::new();
    graph.for_each_column_in_rect(c0, c1, |ids| {
        for &id in ids {
            let Some(n) = graph.nodes.get(id as usize) else {
                continue;
            };
            let (a, b) = (n.origin + mins, n.origin + maxs);
            if a.cmple(hi).all() && lo.cmple(b).all() && prober.in_trigger(n.origin) {
                out.push(id);
            }
        }
    });
    out.sort_unstable();
    out
}

/// The node at the floor under `point` (within [`EXIT_SNAP`]), else the
/// node nearest `point` itself within [`EXIT_FALLBACK`].
fn snap_exit(graph: &GraphBuilder, prober: &Prober<'_>, grid: &Grid, point: Vec3) -> Option<u32> {
    prober
        .ground_below(point, 512.0)
        .and_then(|floor| nearest(graph, grid, floor, EXIT_SNAP))
        .or_else(|| nearest(graph, grid, point, EXIT_FALLBACK))
}

/// Whether two boxes overlap or touch.
fn boxes_touch(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

/// The node nearest `point` within `radius` (3-D distance).
fn nearest(graph: &GraphBuilder, grid: &Grid, point: Vec3, radius: f32) -> Option<u32> {
    let r = Vec3::new(radius, radius, 0.0);
    let (c0, c1) = (grid.cell(point - r), grid.cell(point + r));
    let mut best: Option<(u32, f32)> = None;
    graph.for_each_column_in_rect(c0, c1, |ids| {
        for &id in ids {
            let Some(n) = graph.nodes.get(id as usize) else {
                continue;
            };
            let d = n.origin.distance(point);
            if d <= radius && best.is_none_or(|(_, bd)| d < bd) {
                best = Some((id, d));
            }
        }
    });
    best.map(|(id, _)| id)
}

/// Flies the agent box from `start` as the pad launches it: the standing
/// origin where it lands on walkable ground, or `None`.
fn fly(
    prober: &Prober<'_>,
    (lo, hi): (Vec3, Vec3),
    push: PadPush,
    start: Vec3,
    centre: Vec3,
) -> Option<Vec3> {
    let g = prober.agent.gravity;
    let mut v = match push {
        PadPush::Toward(t) => jump_pad_velocity(centre, t, g),
        PadPush::Velocity(v) => v,
    };
    let (mins, maxs) = (prober.agent.mins(), prober.agent.maxs());
    let mut p = start;
    let steps = (ARC_MAX_S / ARC_DT) as u32;
    for _ in 0..steps {
        let inside = (p + mins).cmple(hi).all() && lo.cmple(p + maxs).all();
        let v_end = match push {
            PadPush::Velocity(pv) if inside => pv,
            _ => v - Vec3::Z * g * ARC_DT,
        };
        let delta = (v + v_end) * 0.5 * ARC_DT;
        v = v_end;
        let tr = prober.sweep(p, p + delta);
        if tr.start_solid {
            return None;
        }
        p = tr.end;
        if tr.hit() {
            if tr.normal.z >= prober.agent.walkable_normal_z && v.z <= 0.0 {
                return Some(p);
            }
            v -= tr.normal * v.dot(tr.normal) * 1.001;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_touching_or_overlapping_a_pad_touches_it() {
        let pad = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(64.0, 64.0, 16.0));
        let on = (Vec3::new(20.0, 20.0, 0.0), Vec3::new(50.0, 50.0, 56.0));
        let edge = (Vec3::new(64.0, 0.0, 0.0), Vec3::new(94.0, 30.0, 56.0));
        let beside = (Vec3::new(65.0, 0.0, 0.0), Vec3::new(95.0, 30.0, 56.0));
        let above = (Vec3::new(20.0, 20.0, 300.0), Vec3::new(50.0, 50.0, 356.0));
        assert!(boxes_touch(on, pad) && boxes_touch(edge, pad));
        assert!(!boxes_touch(beside, pad) && !boxes_touch(above, pad));
    }

    #[test]
    fn pad_velocity_peaks_at_a_target_above_and_passes_one_below() {
        let v = jump_pad_velocity(Vec3::ZERO, Vec3::new(400.0, 0.0, 200.0), 800.0);
        assert!(
            (v.z * v.z / 1600.0 - 200.0).abs() < 1e-3,
            "apex at the target height"
        );
        assert!(
            (v.x * v.z / 800.0 - 400.0).abs() < 1e-2,
            "apex over the target"
        );
        let v = jump_pad_velocity(Vec3::ZERO, Vec3::new(400.0, 0.0, -100.0), 800.0);
        let t = v.x.recip() * 400.0;
        assert!(
            (v.z * t - 400.0 * t * t - -100.0).abs() < 1e-2,
            "passes through a lower target"
        );
        assert_eq!(jump_pad_velocity(Vec3::NAN, Vec3::ZERO, 800.0), Vec3::ZERO);
        assert_eq!(
            jump_pad_velocity(Vec3::ZERO, Vec3::X * 50.0, 0.0),
            Vec3::X * 50.0
        );
    }
}
