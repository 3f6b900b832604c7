//! String pulling: from a chain of nodes to a short list of corners.
//!
//! From node `i`, look ahead at most [`PULL_LOOKAHEAD`] nodes, cut at the
//! first link that is not a walk. If the very next link is not a walk,
//! emit its entry node (unless it is already the last corner) and its
//! exit node with that link's type and entity, and move on by one. Else
//! move to the furthest node `j` such that the straight line `i -> j` is
//! walkable (a box sweep clear and the ground under it never more than a
//! step below: no shortcut over a pit), stopping at the first failure.
//!
//! So every jump, drop, pad and teleport keeps both its entry and exit
//! corners, including when it is the route's first link. A second pass
//! then drops any walk corner the previous corner (or the start) can walk
//! past straight to the next walk corner, so a long open floor is one
//! line rather than a corner every eight nodes. A route whose first corner
//! cannot be walked to from the start gets the start node as its first
//! corner.

use glam::Vec3;

use super::{Corner, PULL_LOOKAHEAD};
use crate::generate::probe::Prober;
use crate::error::RouteError;
use crate::graph::{LinkKind, NodeId};
use crate::mesh::NavMesh;

impl NavMesh {
    /// The corners of the path through `nodes` (with `links[i]` from
    /// `nodes[i]` to `nodes[i + 1]`), from `start` to `goal`.
    pub(crate) fn string_pull(
        &self,
        prober: &Prober<'_>,
        nodes: &[u32],
        links: &[u32],
        start: Vec3,
        goal: Vec3,
    ) -> Result<Vec<Corner>, RouteError> {
        let corner_at = |n: u32, kind: LinkKind, entity| {
            self.graph.nodes.get(n as usize).map(|node| Corner {
                origin: node.origin,
                kind,
                entity,
                node: Some(NodeId(n)),
            })
        };
        let link = |i: usize| {
            links
                .get(i)
                .and_then(|&li| self.graph.links.get(li as usize))
        };
        let mut corners: Vec<Corner> = Vec::new();
        let last = nodes.len().saturating_sub(1);
        let mut i = 0;
        while i < last {
            let Some(next) = link(i) else {
                return Err(RouteError::NoPath);
            };
            if next.kind != LinkKind::Walk {
                let (Some(&a), Some(&b)) = (nodes.get(i), nodes.get(i + 1)) else {
                    break;
                };
                if corners.last().and_then(|c| c.node) != Some(NodeId(a)) {
                    corners.extend(corner_at(a, LinkKind::Walk, None));
                }
                corners.extend(corner_at(b, next.kind, next.entity));
                i += 1;
                continue;
            }
            let mut reach = i + 1;
            while reach < (i + PULL_LOOKAHEAD).min(last)
                && link(reach).is_some_and(|l| l.kind == LinkKind::Walk)
            {
                reach += 1;
            }
            let origin = |k: usize| {
                nodes
                    .get(k)
                    .and_then(|&n| self.graph.nodes.get(n as usize))
                    .map(|n| n.origin)
            };
            let mut j = i + 1;
            if let Some(a) = origin(i) {
                for cand in i + 2..=reach {
                    match origin(cand) {
                        Some(b) if prober.walkable_line(a, b) => j = cand,
                        _ => break,
                    }
                }
            }
            let Some(&nj) = nodes.get(j) else { break };
            corners.extend(corner_at(nj, LinkKind::Walk, None));
            i = j;
        }
        let first_node = nodes.first().copied();
        let end = corners.last().map_or_else(
            || {
                first_node
                    .and_then(|n| self.graph.nodes.get(n as usize))
                    .map(|n| n.origin)
            },
            |c| Some(c.origin),
        );
        match end {
            Some(e) if e.distance(goal) <= 1.0 => {}
            Some(e) if prober.walkable_line(e, goal) => {
                corners.push(Corner {
                    origin: goal,
                    kind: LinkKind::Walk,
                    entity: None,
                    node: None,
                });
            }
            _ => return Err(RouteError::GoalNotReached),
        }
        let mut corners = merge_walks(prober, start, corners);
        if let (Some(first), Some(n0)) = (corners.first(), first_node)
            && first.node != Some(NodeId(n0))
            && !prober.walkable_line(start, first.origin)
        {
            let c0 = corner_at(n0, LinkKind::Walk, None);
            corners.splice(0..0, c0);
        }
        Ok(corners)
    }
}

/// Second pass: drops a walk corner whenever the corner before it (or the
/// start) walks straight to the one after it, and that one is also reached
/// by walking, so open floor pulls to one straight line however long.
/// Corners reached by a special link, and the entries of special links
/// (the corner before one), are never dropped.
fn merge_walks(prober: &Prober<'_>, start: Vec3, corners: Vec<Corner>) -> Vec<Corner> {
    drop_walk_corners((start, None), corners, |(a, _), (b, _)| prober.walkable_line(a, b))
}

/// Drops a walk corner whenever `joins(before, after)` says the corner
/// before it (or `start`) reaches the one after it in a straight line (each
/// a point with its node when known), and that one is also reached by
/// walking. Corners reached by a special link, and the entries of special
/// links, are never dropped.
pub(super) fn drop_walk_corners(
    start: (Vec3, Option<NodeId>),
    corners: Vec<Corner>,
    mut joins: impl FnMut((Vec3, Option<NodeId>), (Vec3, Option<NodeId>)) -> bool,
) -> Vec<Corner> {
    let mut out: Vec<Corner> = Vec::with_capacity(corners.len());
    for c in corners {
        while c.kind == LinkKind::Walk && out.last().is_some_and(|l| l.kind == LinkKind::Walk) {
            let before = out.len().checked_sub(2).and_then(|i| out.get(i)).map_or(start, |b| (b.origin, b.node));
            if !joins(before, (c.origin, c.node)) {
                break;
            }
            out.pop();
        }
        out.push(c);
    }
    out
}
