//! Cover: the nearest standing spot a threat cannot see, for a bot that
//! breaks contact (a retreat, a fight it cannot win at this range).
//!
//! A breadth-first walk over the mesh from the node nearest the bot, along
//! links a player can take both ways on foot (walk, crouch), nearest nodes
//! first; each node reached at least [`MIN_MOVE`] away (route distance)
//! that does not bring the bot closer to the threat is tested with lines
//! from the threat's eye to the chest and both sides of a player standing
//! there (the side lines only once the chest is hidden). The
//! first one hidden wins. Only nodes on a coarser grid ([`SAMPLE_SPACING`])
//! are tested: neighbours are seen or hidden together. Both the walk and
//! the lines are bounded, so a query costs a few dozen traces at most.

use std::collections::VecDeque;

use glam::Vec3;
use quarry_map::{Contents, Trace};

use crate::graph::{LinkKind, NodeId};
use crate::mesh::NavMesh;

/// A cover spot is at least this far along the mesh, units (standing where
/// one is seen is no cover).
pub const MIN_MOVE: f32 = 96.0;
/// Nodes the walk visits at most.
pub const MAX_VISITS: usize = 4096;
/// Lines of sight tested at most.
pub const MAX_LINES: usize = 64;
/// Candidates are spaced about this far apart (nodes on a coarser grid):
/// neighbouring nodes are seen or hidden together, units.
const SAMPLE_SPACING: f32 = 64.0;
/// How high above a node's origin the line aims: a standing player's
/// chest, units.
pub(crate) const CHEST: f32 = 8.0;
/// Half a player's width: the lines to both sides of the body must be
/// blocked too, units.
const HALF_WIDTH: f32 = 15.0;
/// A candidate may be at most this much closer to the threat than the bot
/// is now, units.
const CLOSER_SLACK: f32 = 32.0;

/// The answer to a cover query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cover {
    /// Where to stand.
    pub spot: Vec3,
    /// Its distance along the mesh from the bot, units.
    pub distance: f32,
    /// Lines of sight the query spent.
    pub lines: usize,
}

impl NavMesh {
    /// The nearest spot within `max_distance` (along the mesh) of `from`
    /// that a player whose eye is at `threat_eye` cannot see, and that is
    /// no nearer the threat than `from`; `None` when none was found within
    /// the bounds ([`MAX_VISITS`], [`MAX_LINES`]). `world` is the live world.
    pub fn cover_spot(&self, world: &dyn Trace, from: Vec3, threat_eye: Vec3, max_distance: f32) -> Option<Cover> {
        let start = self.nearest_node(world, from, crate::route::snap::DEFAULT_SNAP_RADIUS)?;
        let from_threat = from.distance(threat_eye);
        let mut seen: rustc_hash::FxHashSet<u32> = rustc_hash::FxHashSet::default();
        let mut queue: VecDeque<(NodeId, f32)> = VecDeque::new();
        queue.push_back((start, 0.0));
        seen.insert(start.0);
        let stride = (SAMPLE_SPACING / self.cell_size()).ceil().max(1.0) as i32;
        let mut lines = 0;
        let mut visits = 0;
        while let Some((id, dist)) = queue.pop_front() {
            visits += 1;
            if visits > MAX_VISITS || lines >= MAX_LINES {
                break;
            }
            let Some(node) = self.node(id) else { continue };
            let sampled = node.cell[0].rem_euclid(stride) == 0 && node.cell[1].rem_euclid(stride) == 0;
            if sampled && dist >= MIN_MOVE && node.origin.distance(threat_eye) + CLOSER_SLACK >= from_threat {
                let chest = node.origin + Vec3::Z * CHEST;
                let across = (chest - threat_eye).cross(Vec3::Z).normalize_or_zero() * HALF_WIDTH;
                let mut hidden = true;
                for aim in [chest, chest + across, chest - across] {
                    lines += 1;
                    let tr = world.trace(threat_eye, aim, Vec3::ZERO, Vec3::ZERO, Contents::MASK_SHOT);
                    if tr.fraction >= 1.0 || tr.end.distance(aim) <= 1.0 {
                        hidden = false;
                        break;
                    }
                }
                if hidden {
                    return Some(Cover { spot: node.origin, distance: dist, lines });
                }
            }
            for link in self.links_from(id) {
                if !matches!(link.kind, LinkKind::Walk | LinkKind::Crouch | LinkKind::Drop) {
                    continue;
                }
                let d = dist + link.cost;
                if d > max_distance || !seen.insert(link.to.0) {
                    continue;
                }
                queue.push_back((link.to, d));
            }
        }
        None
    }
}
