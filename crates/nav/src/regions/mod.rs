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
//!   from its source node to its destination node with its real cost. A
//!   ledge gives a drop per cell; of the links of one kind from one region
//!   into another, a few spread along their line are kept.
//!
//! Built with the regions, a **distance table** ([`table`]) holds, for
//! every pair of regions, the cost between them and the first crossing of
//! the cheapest way. A route reads its corridor from the table (searching
//! the regions only when a link near a mover turned out stale, [`search`]),
//! then pulls a string through the corridor ([`funnel`]) with no probes at
//! all. Reachability is exactly
//! the cell graph's: every cell link is inside a rectangle (whose nodes
//! all reach each other) or is a crossing.

pub(crate) mod build;
pub(crate) mod funnel;
pub(crate) mod quality;
pub(crate) mod search;
pub(crate) mod table;

use glam::Vec3;

use table::DistanceTable;

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
    /// Its south-west cell.
    pub(crate) corner: [i32; 2],
    /// Its width and height in cells (1 by 1 for a one-node region).
    pub(crate) size: [i32; 2],
    /// Where its nodes start in [`Regions::members`], row by row from the
    /// south-west corner.
    pub(crate) first_member: u32,
    /// Where its sides start in [`Regions::sides`].
    pub(crate) first_side: u32,
}

impl Region {
    /// The index of `cell` among the region's members, when the region's
    /// block holds it.
    #[inline]
    pub(crate) fn member_index(&self, cell: [i32; 2]) -> Option<usize> {
        let (x, y) = (cell[0] - self.corner[0], cell[1] - self.corner[1]);
        ((0..self.size[0]).contains(&x) && (0..self.size[1]).contains(&y))
            .then(|| self.first_member as usize + (y * self.size[0] + x) as usize)
    }

    /// The index in [`Regions::sides`] of the neighbour across the side
    /// left by stepping from `inside` (a cell of the region) one cell in
    /// direction `dir` (0 east, 1 north, 2 west, 3 south).
    #[inline]
    fn side_index(&self, inside: [i32; 2], dir: usize) -> usize {
        let [w, h] = self.size;
        let (row, column) = (inside[1] - self.corner[1], inside[0] - self.corner[0]);
        let at = match dir {
            0 => row,
            1 => h + column,
            2 => h + w + row,
            _ => 2 * h + w + column,
        };
        self.first_side as usize + at.max(0) as usize
    }
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
        /// Its source's and destination's origins.
        at: [Vec3; 2],
        /// Its cost.
        cost: f32,
    },
}

/// A directed edge of the region graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    /// The region entered.
    pub(crate) to: u32,
    /// How.
    pub(crate) crossing: Crossing,
}

/// The region layer of a mesh.
#[derive(Debug, Clone, Default)]
pub(crate) struct Regions {
    /// Node -> region.
    pub(crate) region_of: Vec<u32>,
    /// Every region.
    pub(crate) regions: Vec<Region>,
    /// Every region's nodes, region by region (see [`Region::first_member`]).
    pub(crate) members: Vec<u32>,
    /// Per region, the node across each cell of its east, north, west and
    /// south sides (in that order, rows and columns from the south-west
    /// corner) joined by walk links both ways, away from movers, if any
    /// ([`NONE`]): where a straight line leaving the region steps next.
    pub(crate) sides: Vec<u32>,
    /// `edges[first[r]..first[r + 1]]` leave region `r`.
    pub(crate) first: Vec<u32>,
    /// Every edge, grouped by the region it leaves.
    pub(crate) edges: Vec<Edge>,
    /// `entering[first_entering[r]..first_entering[r + 1]]` are the
    /// edges entering region `r`.
    pub(crate) first_entering: Vec<u32>,
    /// The index of each edge and the region it leaves, grouped by the
    /// region it enters.
    pub(crate) entering: Vec<(u32, u32)>,
    /// Rectangles among the regions.
    pub(crate) rectangles: usize,
    /// Region-to-region distances and next hops: the corridors routes
    /// follow, and the repairing search's heuristic.
    pub(crate) table: DistanceTable,
}

impl Regions {
    /// The edges leaving region `r`, with the index of the first.
    #[inline]
    pub(crate) fn edges_from(&self, r: u32) -> (usize, &[Edge]) {
        let a = self.first.get(r as usize).copied().unwrap_or(0) as usize;
        let b = self.first.get(r as usize + 1).copied().unwrap_or(0) as usize;
        (a, self.edges.get(a..b.max(a)).unwrap_or(&[]))
    }

    /// The edges entering region `r`: each one's index and the region it leaves.
    #[inline]
    pub(crate) fn edges_into(&self, r: u32) -> &[(u32, u32)] {
        let a = self.first_entering.get(r as usize).copied().unwrap_or(0) as usize;
        let b = self.first_entering.get(r as usize + 1).copied().unwrap_or(0) as usize;
        self.entering.get(a..b.max(a)).unwrap_or(&[])
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

    /// The node of rectangle-or-single region `r` standing in `cell`, if
    /// its block holds that cell.
    #[inline]
    pub(crate) fn member_at(&self, r: u32, cell: [i32; 2]) -> Option<u32> {
        let i = self.regions.get(r as usize)?.member_index(cell)?;
        self.members.get(i).copied()
    }

    /// The node a straight line steps onto when it leaves region `r` from
    /// its cell `inside` in direction `dir` (0 east, 1 north, 2 west, 3
    /// south), if a walk joins them both ways.
    #[inline]
    pub(crate) fn across(&self, r: u32, inside: [i32; 2], dir: usize) -> Option<u32> {
        let i = self.regions.get(r as usize)?.side_index(inside, dir);
        self.sides.get(i).copied().filter(|&n| n != NONE)
    }

    /// Approximate heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.region_of.capacity() * 4
            + self.regions.capacity() * size_of::<Region>()
            + self.members.capacity() * 4
            + self.sides.capacity() * 4
            + self.first.capacity() * 4
            + self.edges.capacity() * size_of::<Edge>()
            + self.first_entering.capacity() * 4
            + self.entering.capacity() * 8
            + self.table.memory_bytes()
    }
}
