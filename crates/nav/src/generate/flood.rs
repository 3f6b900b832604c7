//! The flood: seeds dropped onto the floor become the first nodes, then a
//! breadth-first flood probes the 8 neighbour cells of every node
//! ([`Prober::try_step`]) and turns new floors into nodes.
//!
//! The flood runs level by level: all nodes of one level are probed in
//! parallel (probes only read the world), then the results are merged in
//! node order on one thread, so the graph is the same for any thread count.
//!
//! Probes aim at neighbour cell centres. A passage a little wider than
//! the box can fall between centres, so a straight step that got part of
//! the way before being stopped is retried a third of a cell to either
//! side, and the node it finds stands off-centre. Off-centre nodes (those
//! and seeds whose cell centre the box does not fit) get their incoming
//! links from a last pass that probes into them from every neighbour.
//!
//! Nodes are keyed by cell and floor height: a landing within a step of an
//! existing node in the same cell is that node, anything else is a new
//! node, so a catwalk over a corridor gives two nodes in one column. No
//! node stands in lava, slime or a hurt volume. Past the node cap the flood
//! keeps draining its queue and links to existing nodes only, so nodes
//! already linked never become dead ends.

use std::sync::atomic::{AtomicBool, Ordering};

use glam::{Vec2, Vec3};

use super::BuildOptions;
use super::input::NavInput;
use super::pool::with_pool;
use super::probe::{GROUND_OFFSET, GapJump, Prober, Step};
use crate::agent::Agent;
use crate::cells::Grid;
use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

use quarry_map::Trace;

/// Extra cost of a drop link (the reference's `NAV_DROP_PENALTY`): a fall
/// takes time and gives up height, so walking round is preferred when
/// it is not much longer.
pub const DROP_PENALTY: f32 = 96.0;
/// Extra cost of a jump link (`NAV_JUMP_PENALTY`): a jump can fail.
pub const JUMP_PENALTY: f32 = 64.0;
/// Extra cost of a drop or a jump onto a precarious landing (a deadly edge
/// within [`PRECARIOUS_MARGIN`] past the side of the box standing there,
/// found by a probe as thin as the box's middle): routes
/// take it only when going round costs more than this (a stepping stone
/// over lava, a ledge over the void).
pub const PRECARIOUS_PENALTY: f32 = 400.0;
/// How far past the side of a box standing on a landing a deadly edge
/// makes it precarious, units.
pub const PRECARIOUS_MARGIN: f32 = 16.0;
/// Least share of a straight step that must clear before the flood tries
/// the target cell off-centre: a step blocked right away faces a wall, not
/// a passage the cell centre misses.
const NUDGE_MIN_REACH: f32 = 0.2;
/// Fewest nodes a probe thread gets: below this a level is probed on one
/// thread, because spawning costs more than it saves.
const MIN_PROBES_PER_THREAD: usize = 32;
/// How far below a seed the floor may be (the reference's seed drop).
const SEED_DROP: f32 = 256.0;

/// The 8 neighbour directions, E, NE, N, NW, W, SW, S, SE.
pub(crate) const DIRS: [[i32; 2]; 8] = [
    [1, 0],
    [1, 1],
    [0, 1],
    [-1, 1],
    [-1, 0],
    [-1, -1],
    [0, -1],
    [1, -1],
];

/// One probe result, before merging.
#[derive(Debug, Clone, Copy)]
struct Found {
    /// Index into [`DIRS`] (gap jumps included), for the flat-walk mask.
    dir: usize,
    cell: [i32; 2],
    origin: Vec3,
    kind: LinkKind,
    /// Made by the flat attempt (see [`Step::flat`](super::probe::Step)).
    flat: bool,
    /// Landed at the target cell's centre (not nudged to one side).
    centred: bool,
    /// In lava, slime or a hurt volume, when the probe already had to know.
    bad: Option<bool>,
}

/// What the flood produced.
pub(crate) struct Flood {
    pub(crate) graph: GraphBuilder,
    /// Seeds that became or joined a node.
    pub(crate) seeds_used: usize,
    /// Whether the node cap stopped the flood from adding ground.
    pub(crate) capped: bool,
    /// Whether any landing was refused for lava, slime or a hurt volume.
    pub(crate) hazards: bool,
}

/// Per-node flood bookkeeping beside the graph.
#[derive(Default)]
struct Marks {
    /// The node stands at its cell's centre (not an off-centre seed).
    centred: Vec<bool>,
    /// Bit `d`: the flat probe toward direction `d` landed on a node at the same height.
    flat_out: Vec<u8>,
}

/// Whether the agent box at `origin` overlaps one of `hazards`.
pub(crate) fn in_hazard(agent: &Agent, hazards: &[(Vec3, Vec3)], origin: Vec3) -> bool {
    let (lo, hi) = (origin + agent.mins(), origin + agent.maxs());
    hazards
        .iter()
        .any(|(a, b)| lo.cmple(*b).all() && a.cmple(hi).all())
}

/// Floods `world` from `input`'s seeds.
pub(crate) fn flood(
    world: &(dyn Trace + Sync),
    agent: &Agent,
    options: &BuildOptions,
    input: &NavInput,
) -> Flood {
    let grid = Grid {
        size: options.cell_size,
    };
    let merge = agent.step_height;
    let prober = Prober::new(world, agent, grid.size, &[]);
    let met_hazard = AtomicBool::new(!input.hazards.is_empty());
    let bad = |p: &Prober<'_>, o: Vec3| {
        let bad = p.lethal(o) || in_hazard(agent, &input.hazards, o);
        if bad {
            met_hazard.store(true, Ordering::Relaxed);
        }
        bad
    };
    let mut graph = GraphBuilder::default();
    let mut marks = Marks::default();
    // Landing nodes judged for a deadly edge beside them.
    let mut precarious: std::collections::HashMap<u32, bool> = std::collections::HashMap::new();
    let mut frontier = Vec::new();
    let mut seeds_used = 0;
    for seed in &input.seeds {
        let Some(floor) = prober.ground_below(seed.point, SEED_DROP) else {
            continue;
        };
        let cell = grid.cell(floor);
        let (origin, centred) = centred(&prober, floor, grid.centre(cell));
        if bad(&prober, origin) {
            continue;
        }
        seeds_used += 1;
        if graph.find(cell, origin.z, merge).is_some() || graph.nodes.len() >= options.max_nodes {
            continue;
        }
        frontier.push(graph.add_node(origin, cell));
        marks.centred.push(centred);
        marks.flat_out.push(0);
    }
    let mut capped = false;
    let gap_cells = if options.gap_jumps {
        (prober.gap_jump_range() / grid.size).floor() as i32
    } else {
        0
    };
    with_pool(
        options.threads,
        MIN_PROBES_PER_THREAD,
        || {
            Prober::new(world, agent, grid.size, &[])
                .with_fall_cache()
                .with_nearby()
        },
        |p, &(origin, cell, skip)| probe_node(p, &grid, origin, cell, skip, gap_cells, &bad),
        |map| {
            while !frontier.is_empty() {
                let mut inferred = Vec::new();
                let starts: Vec<(Vec3, [i32; 2], u8)> = frontier
                    .iter()
                    .filter_map(|&n| {
                        let node = graph.nodes.get(n as usize)?;
                        let skip = infer_flat_walks(&graph, &marks, n, &mut inferred);
                        Some((node.origin, node.cell, skip))
                    })
                    .collect();
                let results = map(starts);
                for (from, to) in inferred {
                    link(&mut graph, from, to, LinkKind::Walk);
                }
                let mut next = Vec::new();
                for (&from, found) in frontier.iter().zip(results) {
                    for f in found {
                        let to = match graph.find(f.cell, f.origin.z, merge) {
                            Some(to) => to,
                            None if f.bad.unwrap_or_else(|| bad(&prober, f.origin)) => continue,
                            None if graph.nodes.len() >= options.max_nodes => {
                                capped = true;
                                continue;
                            }
                            None => {
                                let id = graph.add_node(f.origin, f.cell);
                                marks.centred.push(f.centred);
                                marks.flat_out.push(0);
                                next.push(id);
                                id
                            }
                        };
                        let same_height = graph
                            .nodes
                            .get(to as usize)
                            .is_some_and(|n| (n.origin.z - f.origin.z).abs() < 0.01);
                        if f.flat
                            && same_height
                            && f.dir < DIRS.len()
                            && let Some(m) = marks.flat_out.get_mut(from as usize)
                        {
                            *m |= 1 << f.dir;
                        }
                        let extra = if matches!(f.kind, LinkKind::Drop | LinkKind::Jump) {
                            let origin = graph.nodes.get(to as usize).map_or(f.origin, |n| n.origin);
                            let edgy = *precarious.entry(to).or_insert_with(|| prober.deadly_edge_near(origin, PRECARIOUS_MARGIN));
                            if edgy { PRECARIOUS_PENALTY } else { 0.0 }
                        } else {
                            0.0
                        };
                        link_with(&mut graph, from, to, f.kind, extra);
                    }
                }
                frontier = next;
            }
        },
    );
    link_off_centre(&prober, &mut graph, &marks);
    Flood {
        graph,
        seeds_used,
        capped,
        hazards: met_hazard.load(Ordering::Relaxed),
    }
}

/// Probes into every off-centre node (a seed whose cell centre the box
/// does not fit) from the nodes around it: the flood's probes aim at cell
/// centres and never land on such a node, which would leave it a source
/// with no way in (an item tucked into a corner).
fn link_off_centre(prober: &Prober<'_>, graph: &mut GraphBuilder, marks: &Marks) {
    let lonely: Vec<u32> = (0..graph.nodes.len() as u32)
        .filter(|&n| marks.centred.get(n as usize) == Some(&false))
        .collect();
    let reach = prober.agent.jump_height + prober.agent.step_height;
    for n in lonely {
        let Some(target) = graph.nodes.get(n as usize).copied() else {
            continue;
        };
        let mut found = Vec::new();
        for d in DIRS.iter().chain(std::iter::once(&[0, 0])) {
            let cell = [target.cell[0] + d[0], target.cell[1] + d[1]];
            for &m in graph.columns.get(&cell).map(Vec::as_slice).unwrap_or(&[]) {
                let Some(from) = graph.nodes.get(m as usize) else {
                    continue;
                };
                if m == n || (from.origin.z - target.origin.z).abs() > reach {
                    continue;
                }
                if let Some(step) = prober.try_step(from.origin, target.origin.truncate())
                    && (step.origin.z - target.origin.z).abs() <= prober.agent.step_height
                {
                    found.push((m, step.kind));
                }
            }
        }
        for (m, kind) in found {
            link(graph, m, n, kind);
        }
    }
}

/// Adds the link `from -> to` of `kind`, costed by length plus the kind's penalty.
fn link(graph: &mut GraphBuilder, from: u32, to: u32, kind: LinkKind) {
    link_with(graph, from, to, kind, 0.0);
}

/// [`link`] with `extra` cost on top.
fn link_with(graph: &mut GraphBuilder, from: u32, to: u32, kind: LinkKind, extra: f32) {
    let (Some(a), Some(b)) = (graph.nodes.get(from as usize), graph.nodes.get(to as usize)) else {
        return;
    };
    let penalty = match kind {
        LinkKind::Drop => DROP_PENALTY,
        LinkKind::Jump => JUMP_PENALTY,
        _ => 0.0,
    };
    let cost = a.origin.distance(b.origin) + penalty + extra;
    graph.link(
        from,
        Link {
            to: NodeId(to),
            cost,
            kind,
            entity: None,
            near_mover: false,
        },
    );
}

/// The directions node `n` need not probe: a centred neighbour at the same
/// height whose flat probe already landed on `n` (the reverse flat sweep
/// covers the same volume, so it succeeds too). Pushes the inferred links.
fn infer_flat_walks(
    graph: &GraphBuilder,
    marks: &Marks,
    n: u32,
    inferred: &mut Vec<(u32, u32)>,
) -> u8 {
    let Some(node) = graph.nodes.get(n as usize) else {
        return 0;
    };
    if !marks.centred.get(n as usize).copied().unwrap_or(false) {
        return 0;
    }
    let mut skip = 0u8;
    for (d, dir) in DIRS.iter().enumerate() {
        let cell = [node.cell[0] + dir[0], node.cell[1] + dir[1]];
        let back = 1u8 << ((d + 4) % 8);
        let Some(ids) = graph.columns.get(&cell) else {
            continue;
        };
        for &b in ids {
            let (Some(other), Some(&flat), Some(&centred)) = (
                graph.nodes.get(b as usize),
                marks.flat_out.get(b as usize),
                marks.centred.get(b as usize),
            ) else {
                continue;
            };
            if centred && flat & back != 0 && (other.origin.z - node.origin.z).abs() < 0.01 {
                skip |= 1 << d;
                inferred.push((n, b));
            }
        }
    }
    skip
}

/// `floor` moved to the centre of its cell when the box can walk there on
/// the same floor (and `true`), else `floor` itself (a seed tucked
/// against a wall).
fn centred(prober: &Prober<'_>, floor: Vec3, centre: Vec2) -> (Vec3, bool) {
    let start = floor + Vec3::Z * GROUND_OFFSET;
    let across = prober.sweep(start, centre.extend(start.z));
    if across.hit() || across.start_solid {
        return (floor, false);
    }
    let step = prober.agent.step_height;
    match prober.fall(across.end, GROUND_OFFSET + step) {
        Some(p) if (p.z - floor.z).abs() <= step => (p, true),
        _ => (floor, false),
    }
}

/// Every step out of the node standing at `origin` in `cell`, except the
/// directions in `skip`: one probe per neighbour; where that finds no
/// usable floor (a pit, the void, lava) or only a drop, running jumps to
/// cells further along the same direction that land higher than the drop
/// would (across a gap, or down onto a platform across a void).
fn probe_node(
    p: &Prober<'_>,
    grid: &Grid,
    origin: Vec3,
    cell: [i32; 2],
    skip: u8,
    gap_cells: i32,
    bad: &(dyn Fn(&Prober<'_>, Vec3) -> bool + Sync),
) -> Vec<Found> {
    let mut out = Vec::with_capacity(8);
    // Neighbour centres lie a cell away on each axis; nudged ones a third of a cell aside.
    p.focus(origin, grid.size * 4.0 / 3.0);
    let centred_here = origin.truncate() == grid.centre(cell);
    for (dir, d) in DIRS.iter().enumerate() {
        if skip & (1 << dir) != 0 {
            continue;
        }
        let to = [cell[0] + d[0], cell[1] + d[1]];
        let centre = grid.centre(to);
        let mut step = p.try_step(origin, centre);
        // From a cell's centre the gap jumps' targets lie further along
        // the same line: a jump-height sweep stopped short of the nearest
        // cell stops them all.
        let jumps_blocked = centred_here && p.last_jump_blocked();
        // A passage a little wider than the box may miss the cell centre:
        // when a straight step got some way before it was stopped, try
        // the target cell a third of a cell to either side.
        let mut nudged = false;
        if step.is_none() && d[0] * d[1] == 0 && p.last_reach() >= NUDGE_MIN_REACH {
            let side = Vec2::new(-d[1] as f32, d[0] as f32) * (grid.size / 3.0);
            for off in [side, -side] {
                if let Some(s) = p.try_step(origin, centre + off) {
                    step = Some(Step { flat: false, ..s });
                    nudged = true;
                    break;
                }
            }
        }
        // Only a fall can land in a pit of lava; a level step is checked when merged.
        let step_bad =
            step.map(|s| (s.origin.z < origin.z - p.agent.step_height).then(|| bad(p, s.origin)));
        if let Some(s) = step {
            out.push(Found {
                dir,
                cell: to,
                origin: s.origin,
                kind: s.kind,
                flat: s.flat,
                centred: !nudged,
                bad: step_bad.flatten(),
            });
        }
        // Where walking off this way lands, if anywhere usable: a running
        // jump across the gap must land higher than that to be worth a link.
        let below = match (step, step_bad.flatten()) {
            (Some(_), Some(true)) | (None, _) => f32::NEG_INFINITY,
            (Some(s), _) if s.kind == LinkKind::Drop => s.origin.z,
            (Some(_), _) => continue,
        };
        let gap_cells = if jumps_blocked { 1 } else { gap_cells };
        for k in 2..=gap_cells {
            let far = [cell[0] + d[0] * k, cell[1] + d[1] * k];
            let target = grid.centre(far);
            if (target - origin.truncate()).length() > p.gap_jump_range() {
                break;
            }
            match p.gap_jump(origin, target) {
                GapJump::Landed(s) if s.origin.z > below + p.agent.step_height && !bad(p, s.origin) => {
                    out.push(Found {
                        dir: usize::MAX,
                        cell: far,
                        origin: s.origin,
                        kind: LinkKind::Jump,
                        flat: false,
                        centred: true,
                        bad: Some(false),
                    });
                    break;
                }
                GapJump::NoRoom => break,
                // From a cell's centre the further targets lie on the same
                // line, behind whatever blocked this one.
                GapJump::Blocked if centred_here => break,
                _ => {}
            }
        }
    }
    out
}
