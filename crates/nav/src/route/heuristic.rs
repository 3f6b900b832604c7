//! A* heuristics: scaled Euclidean distance and ALT (landmarks).
//!
//! Both are admissible and consistent on the mesh:
//!
//! - **Euclid**: straight-line distance times the mesh's smallest
//!   cost-per-distance over all links. A cheap long teleporter drives that
//!   scale far below 1, and the search degrades toward Dijkstra on such
//!   maps (the reference design's stated limit).
//! - **ALT**: by the triangle inequality, for each landmark `L`,
//!   `d(v, t) >= d(v, L) - d(t, L)` and `d(v, t) >= d(L, t) - d(L, v)`;
//!   the heuristic is the largest such bound. It uses true graph
//!   distances, so teleporters and pads are priced in. Where a bound is
//!   infinite (the node cannot reach a landmark the goal reaches, or a
//!   landmark reaches the goal but not the node) the node cannot reach the
//!   goal at all and is pruned.

use std::fmt;
use std::str::FromStr;

use glam::Vec3;
use serde::Serialize;

use crate::graph::Node;
use crate::mesh::NavMesh;

/// Which A* heuristic a query uses (the server's `nav_heuristic` cvar).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Heuristic {
    /// Landmarks and the triangle inequality (falls back to Euclid on a
    /// mesh built without landmarks).
    #[default]
    Alt,
    /// Euclidean distance scaled by the smallest cost per distance.
    Euclid,
    /// No heuristic: Dijkstra's algorithm (the reference for comparisons).
    Dijkstra,
}

impl Heuristic {
    /// Lower-case name, as the cvar takes it.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Alt => "alt",
            Heuristic::Euclid => "euclid",
            Heuristic::Dijkstra => "dijkstra",
        }
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not `alt`, `euclid` or `dijkstra`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic {0:?} (expected alt, euclid or dijkstra)")]
pub struct UnknownHeuristic(pub String);

impl FromStr for Heuristic {
    type Err = UnknownHeuristic;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "alt" => Ok(Heuristic::Alt),
            "euclid" | "euclidean" => Ok(Heuristic::Euclid),
            "dijkstra" | "none" => Ok(Heuristic::Dijkstra),
            _ => Err(UnknownHeuristic(s.to_owned())),
        }
    }
}

/// The heuristic of one query, toward one goal node.
pub(crate) struct Estimate<'a> {
    kind: Heuristic,
    nodes: &'a [Node],
    goal: Vec3,
    scale: f32,
    mesh: &'a NavMesh,
    goal_fwd: &'a [f32],
    goal_bwd: &'a [f32],
}

impl<'a> Estimate<'a> {
    /// The estimate toward `goal` on `mesh`.
    pub(crate) fn new(mesh: &'a NavMesh, kind: Heuristic, goal: u32) -> Estimate<'a> {
        let kind = if kind == Heuristic::Alt && mesh.alt().count() == 0 {
            Heuristic::Euclid
        } else {
            kind
        };
        let nodes = mesh.graph.nodes.as_slice();
        Estimate {
            kind,
            nodes,
            goal: nodes.get(goal as usize).map_or(Vec3::ZERO, |n| n.origin),
            scale: mesh.heuristic_scale,
            mesh,
            goal_fwd: mesh.alt().fwd_row(goal),
            goal_bwd: mesh.alt().bwd_row(goal),
        }
    }

    /// A lower bound on the cost from `v` to the goal; infinite when `v`
    /// provably cannot reach it.
    #[inline]
    pub(crate) fn h(&self, v: u32) -> f32 {
        match self.kind {
            Heuristic::Dijkstra => 0.0,
            Heuristic::Euclid => self
                .nodes
                .get(v as usize)
                .map_or(0.0, |n| n.origin.distance(self.goal) * self.scale),
            Heuristic::Alt => {
                let row = self.mesh.alt().row(v);
                let (fwd, bwd) = row.split_at(row.len() / 2);
                let mut h = 0.0f32;
                // f32::max ignores NaN (infinity minus infinity: no information).
                for (f, gf) in fwd.iter().zip(self.goal_fwd) {
                    h = h.max(gf - f);
                }
                for (b, gb) in bwd.iter().zip(self.goal_bwd) {
                    h = h.max(b - gb);
                }
                h
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for h in [Heuristic::Alt, Heuristic::Euclid, Heuristic::Dijkstra] {
            assert_eq!(h.name().parse::<Heuristic>(), Ok(h));
        }
        assert_eq!(" EUCLID ".parse::<Heuristic>(), Ok(Heuristic::Euclid));
        assert!("astar".parse::<Heuristic>().is_err());
        assert_eq!(Heuristic::default(), Heuristic::Alt);
    }
}
