//! The coarse layer: the cell nodes merged into rectangles, with the
//! region-to-region crossings a route can take.
//!
//! A **rectangle** is a full block of grid cells, one node each, every
//! node joined to its four neighbours inside the block by walk links both
//! ways, none of them near a mover. The flood proved each of those links
//! with a box sweep between cell centres, and the sweeps of a full block
//! cover every box placed on a straight line between two of its nodes, so
//! a straight line inside a rectangle is walkable without a probe: the
//! layer is convex where it matters, as Detour's polygons are.
//!
//! Nodes that cannot join a rectangle (a link of theirs passes near a
//! mover, so it is re-checked against the live world) are regions of one
//! node.
//!
//! **Crossings** leave a region:
//! - a **portal**: a run of neighbouring rows (or columns) where two
//!   rectangles meet side to side, every row joined by walk links both
//!   ways; a route may cross anywhere along it;
//! - a **link**: any other cell link that leaves the region (a diagonal
//!   or one-node walk, a drop, a jump, a jump pad, a teleporter), taken
//!   from its source node to its destination node with its real cost.
//!
//! A route searches the regions ([`search`]), then pulls a string through
//! the corridor ([`funnel`]) with no probes at all. Reachability is exactly
//! the cell graph's: every cell link is inside a rectangle (whose nodes
//! all reach each other) or is a crossing.

pub(crate) mod build;
pub(crate) mod funnel;
pub(crate) mod quality;
pub(crate) mod search;

use glam::Vec3;

/// No region, node or edge.
pub(crate) const NONE: u32 = u32::MAX;
/// The longest side of a rectangle, in cells: a bound on the detour a
/// route can make inside one (its crossing point is chosen per portal).
pub(crate) const MAX_SIDE: i32 = 24;

/// One region.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Region {
    /// The area (weak component) of its nodes.
    pub(crate) area: u32,
    /// The node of a one-node region; [`NONE`] for a rectangle.
    pub(crate) single: u32,
}

/// How a route crosses from one region to the next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Crossing {
    /// Across the side two rectangles share, anywhere between the first
    /// and the last row of the run: out of the region left through the
    /// segment between its nodes `near[0]`–`near[1]` (on its edge), across
    /// the gap, into the region entered through `far[0]`–`far[1]`. The
    /// sweeps of the run's links cover the gap between the two segments.
    Portal {
        /// The first and last row's nodes on the side left.
        near: [u32; 2],
        /// The first and last row's nodes on the side entered.
        far: [u32; 2],
        /// Their origins (`near[0]`, `near[1]`, `far[0]`, `far[1]`), kept
        /// here so a search reads one edge, not four nodes.
        at: [Vec3; 4],
    },
    /// The cell link with this index, from its source node to its
    /// destination node.
    Link {
        /// Index into the graph's links.
        link: u32,
    },
}

/// A directed edge of the region graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    /// The region entered.
    pub(crate) to: u32,
    /// How.
    pub(crate) crossing: Crossing,
    /// A node where the route enters the region (the middle of a portal's
    /// far side, a link's destination), for the heuristic.
    pub(crate) entry_node: u32,
}

/// The region layer of a mesh.
#[derive(Debug, Clone, Default)]
pub(crate) struct Regions {
    /// Node -> region.
    pub(crate) region_of: Vec<u32>,
    /// Every region.
    pub(crate) regions: Vec<Region>,
    /// `edges[first[r]..first[r + 1]]` leave region `r`.
    pub(crate) first: Vec<u32>,
    /// Every edge, grouped by the region it leaves.
    pub(crate) edges: Vec<Edge>,
    /// Rectangles among the regions.
    pub(crate) rectangles: usize,
    /// Landmark bounds per region, `2k` numbers each (k landmarks): the
    /// largest distance from each landmark to any of its nodes, then the
    /// smallest distance from any of its nodes to each landmark. With them
    /// the landmark (ALT) bound holds for every point of the region, so a
    /// search computes it once per region.
    pub(crate) landmark_bounds: Vec<f32>,
}

impl Regions {
    /// The edges leaving region `r`, with the index of the first.
    #[inline]
    pub(crate) fn edges_from(&self, r: u32) -> (usize, &[Edge]) {
        let a = self.first.get(r as usize).copied().unwrap_or(0) as usize;
        let b = self.first.get(r as usize + 1).copied().unwrap_or(0) as usize;
        (a, self.edges.get(a..b.max(a)).unwrap_or(&[]))
    }

    /// The region of node `n`.
    #[inline]
    pub(crate) fn of(&self, n: u32) -> u32 {
        self.region_of.get(n as usize).copied().unwrap_or(NONE)
    }

    /// Whether region `r` is a rectangle (straight lines inside it are walkable).
    #[inline]
    pub(crate) fn is_rectangle(&self, r: u32) -> bool {
        self.regions.get(r as usize).is_some_and(|g| g.single == NONE)
    }

    /// The landmark bounds of region `r` (forward maxima, backward minima).
    pub(crate) fn bounds(&self, r: u32, landmarks: usize) -> (&[f32], &[f32]) {
        let w = 2 * landmarks;
        let row = self.landmark_bounds.get(r as usize * w..(r as usize + 1) * w).unwrap_or(&[]);
        row.split_at(row.len() / 2)
    }

    /// Approximate heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.region_of.capacity() * 4
            + self.regions.capacity() * size_of::<Region>()
            + self.first.capacity() * 4
            + self.edges.capacity() * size_of::<Edge>()
            + self.landmark_bounds.capacity() * 4
    }
}
