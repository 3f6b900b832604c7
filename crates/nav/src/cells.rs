//! The grid: cell arithmetic ([`Grid`]) and the dense index from a cell to
//! the nodes standing in its column ([`CellGrid`]), which nearest-node
//! queries walk ring by ring.

use glam::{Vec2, Vec3};

use crate::graph::Node;

/// The grid: cell size and the cell arithmetic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grid {
    pub(crate) size: f32,
}

impl Grid {
    /// The cell containing `p`.
    pub(crate) fn cell(&self, p: Vec3) -> [i32; 2] {
        [
            (p.x / self.size).floor() as i32,
            (p.y / self.size).floor() as i32,
        ]
    }

    /// The centre of `cell`.
    pub(crate) fn centre(&self, cell: [i32; 2]) -> Vec2 {
        Vec2::new(
            (cell[0] as f32 + 0.5) * self.size,
            (cell[1] as f32 + 0.5) * self.size,
        )
    }
}

/// A dense grid over the nodes' cells: cell -> the nodes in its column.
#[derive(Debug, Clone, Default)]
pub(crate) struct CellGrid {
    min: [i32; 2],
    size: [i32; 2],
    start: Vec<u32>,
    ids: Vec<u32>,
}

impl CellGrid {
    /// Indexes `nodes` by cell.
    pub(crate) fn new(nodes: &[Node]) -> CellGrid {
        let Some(first) = nodes.first() else {
            return CellGrid::default();
        };
        let (mut lo, mut hi) = (first.cell, first.cell);
        for n in nodes {
            lo = [lo[0].min(n.cell[0]), lo[1].min(n.cell[1])];
            hi = [hi[0].max(n.cell[0]), hi[1].max(n.cell[1])];
        }
        let size = [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1];
        let cells = (size[0] as usize) * (size[1] as usize);
        let mut counts = vec![0u32; cells + 1];
        let mut grid = CellGrid {
            min: lo,
            size,
            start: Vec::new(),
            ids: vec![0; nodes.len()],
        };
        for n in nodes {
            if let Some(c) = grid.slot(n.cell) {
                counts[c + 1] += 1;
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        for (i, n) in nodes.iter().enumerate() {
            if let Some(c) = grid.slot(n.cell) {
                grid.ids[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        grid.start = counts;
        grid
    }

    fn slot(&self, cell: [i32; 2]) -> Option<usize> {
        let (x, y) = (cell[0] - self.min[0], cell[1] - self.min[1]);
        (x >= 0 && y >= 0 && x < self.size[0] && y < self.size[1])
            .then(|| y as usize * self.size[0] as usize + x as usize)
    }

    /// Node ids in `cell`'s column.
    pub(crate) fn nodes_in(&self, cell: [i32; 2]) -> &[u32] {
        let Some(c) = self.slot(cell) else { return &[] };
        let (a, b) = (
            self.start.get(c).copied().unwrap_or(0),
            self.start.get(c + 1).copied().unwrap_or(0),
        );
        self.ids.get(a as usize..b as usize).unwrap_or(&[])
    }

    /// Approximate heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.start.capacity() + self.ids.capacity()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_grid_finds_columns() {
        let nodes: Vec<Node> = [[0, 0], [3, -2], [0, 0], [1, 5]]
            .iter()
            .map(|&cell| Node {
                origin: Vec3::ZERO,
                cell,
                area: 0,
            })
            .collect();
        let grid = CellGrid::new(&nodes);
        assert_eq!(grid.nodes_in([0, 0]), &[0, 2]);
        assert_eq!(grid.nodes_in([3, -2]), &[1]);
        assert!(grid.nodes_in([9, 9]).is_empty());
        assert!(CellGrid::new(&[]).nodes_in([0, 0]).is_empty());
    }

    #[test]
    fn cells_and_centres() {
        let g = Grid { size: 24.0 };
        assert_eq!(g.cell(Vec3::new(-1.0, 47.9, 0.0)), [-1, 1]);
        assert_eq!(g.centre([0, -1]), Vec2::new(12.0, -12.0));
    }
}
