//! The grid: cell arithmetic ([`Grid`]) and the sparse index from a cell to
//! the nodes standing in its column ([`CellGrid`]), which nearest-node
//! queries walk ring by ring.

use glam::{Vec2, Vec3};

use crate::graph::Node;

/// The grid: cell size and the cell arithmetic.
/// `v` rounded down to an integer, saturating (NaN gives 0), as
/// `v.floor() as i32` but without a call into the maths library (which
/// the baseline x86-64 target makes of `floor`).
#[inline]
pub(crate) fn floor_i32(v: f32) -> i32 {
    let i = v as i32;
    if (i as f32) > v { i.saturating_sub(1) } else { i }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grid {
    pub(crate) size: f32,
}

impl Grid {
    /// The cell containing `p`.
    pub(crate) fn cell(&self, p: Vec3) -> [i32; 2] {
        [floor_i32(p.x / self.size), floor_i32(p.y / self.size)]
    }

    /// The centre of `cell`.
    pub(crate) fn centre(&self, cell: [i32; 2]) -> Vec2 {
        Vec2::new(
            (cell[0] as f32 + 0.5) * self.size,
            (cell[1] as f32 + 0.5) * self.size,
        )
    }
}

/// The cell index: cell -> the nodes standing in its column.
///
/// Sparse: only occupied cells are stored, sorted, and found by binary
/// search, so memory is proportional to the node count whatever the map's
/// extent (a dense grid over the bounding box of two far-apart floors
/// would need gigabytes).
#[derive(Debug, Clone, Default)]
pub(crate) struct CellGrid {
    /// Occupied cells, sorted.
    cells: Vec<[i32; 2]>,
    /// `ids[start[i]..start[i + 1]]` are the nodes of `cells[i]`.
    start: Vec<u32>,
    /// Node ids grouped by cell, ascending within a cell.
    ids: Vec<u32>,
    /// Bounds of the occupied cells (inclusive), `None` when empty.
    bounds: Option<([i32; 2], [i32; 2])>,
}

impl CellGrid {
    /// Indexes `nodes` by cell.
    pub(crate) fn new(nodes: &[Node]) -> CellGrid {
        // Sorted by cell, ascending ids within a cell (the pair's second key).
        let mut keyed: Vec<([i32; 2], u32)> = nodes.iter().zip(0u32..).map(|(n, i)| (n.cell, i)).collect();
        keyed.sort_unstable();
        let ids: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
        let mut grid = CellGrid {
            cells: Vec::new(),
            start: Vec::new(),
            ids,
            bounds: None,
        };
        for (k, &i) in grid.ids.iter().enumerate() {
            let Some(cell) = nodes.get(i as usize).map(|n| n.cell) else {
                continue;
            };
            if grid.cells.last() != Some(&cell) {
                grid.cells.push(cell);
                grid.start.push(k as u32);
            }
            grid.bounds = Some(match grid.bounds {
                None => (cell, cell),
                Some((lo, hi)) => (
                    [lo[0].min(cell[0]), lo[1].min(cell[1])],
                    [hi[0].max(cell[0]), hi[1].max(cell[1])],
                ),
            });
        }
        grid.start.push(grid.ids.len() as u32);
        grid.cells.shrink_to_fit();
        grid.start.shrink_to_fit();
        grid
    }

    /// Node ids in `cell`'s column.
    pub(crate) fn nodes_in(&self, cell: [i32; 2]) -> &[u32] {
        let Ok(c) = self.cells.binary_search(&cell) else {
            return &[];
        };
        let (a, b) = (
            self.start.get(c).copied().unwrap_or(0),
            self.start.get(c + 1).copied().unwrap_or(0),
        );
        self.ids.get(a as usize..b as usize).unwrap_or(&[])
    }

    /// Every occupied cell with its nodes, in cell order.
    pub(crate) fn occupied(&self) -> impl Iterator<Item = ([i32; 2], &[u32])> + '_ {
        self.cells.iter().map(|&c| (c, self.nodes_in(c)))
    }

    /// How many cells hold nodes.
    pub(crate) fn occupied_count(&self) -> usize {
        self.cells.len()
    }

    /// Bounds of the occupied cells (inclusive), `None` when empty.
    pub(crate) fn bounds(&self) -> Option<([i32; 2], [i32; 2])> {
        self.bounds
    }

    /// Calls `f` with the nodes of every occupied cell in the inclusive
    /// rectangle `lo..=hi`. Costs the smaller of the rectangle's area and
    /// the occupied cell count (clipped to the occupied bounds first), so a
    /// huge rectangle never walks empty cells.
    pub(crate) fn for_each_in_rect(&self, lo: [i32; 2], hi: [i32; 2], mut f: impl FnMut(&[u32])) {
        let Some((blo, bhi)) = self.bounds else {
            return;
        };
        let lo = [lo[0].max(blo[0]), lo[1].max(blo[1])];
        let hi = [hi[0].min(bhi[0]), hi[1].min(bhi[1])];
        if lo[0] > hi[0] || lo[1] > hi[1] {
            return;
        }
        let area = (i64::from(hi[0]) - i64::from(lo[0]) + 1)
            .saturating_mul(i64::from(hi[1]) - i64::from(lo[1]) + 1);
        if area <= self.cells.len() as i64 {
            for x in lo[0]..=hi[0] {
                for y in lo[1]..=hi[1] {
                    f(self.nodes_in([x, y]));
                }
            }
        } else {
            for (c, ids) in self.occupied() {
                if (lo[0]..=hi[0]).contains(&c[0]) && (lo[1]..=hi[1]).contains(&c[1]) {
                    f(ids);
                }
            }
        }
    }

    /// Approximate heap bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.cells.capacity() * 8 + (self.start.capacity() + self.ids.capacity()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_i32_rounds_down_and_saturates() {
        for v in [-2.5f32, -2.0, -0.5, -0.0, 0.0, 0.5, 1.0, 7.99, 1e12, -1e12] {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
        assert_eq!(floor_i32(f32::NAN), 0);
    }

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
        let mut seen = Vec::new();
        grid.for_each_in_rect([0, -5], [3, 0], |ids| seen.extend_from_slice(ids));
        seen.sort_unstable();
        assert_eq!(seen, vec![0, 1, 2]);
    }

    #[test]
    fn far_apart_cells_cost_memory_by_node_count() {
        let node = |cell| Node {
            origin: Vec3::ZERO,
            cell,
            area: 0,
        };
        let nodes = vec![
            node([i32::MIN, i32::MIN]),
            node([i32::MAX, i32::MAX]),
            node([0, 0]),
        ];
        let grid = CellGrid::new(&nodes);
        assert!(grid.memory_bytes() < 1024, "{} bytes", grid.memory_bytes());
        assert_eq!(grid.nodes_in([i32::MAX, i32::MAX]), &[1]);
        assert_eq!(grid.occupied_count(), 3);
        // The whole plane: walks the three occupied cells, not 2^64 empty ones.
        let mut seen = Vec::new();
        grid.for_each_in_rect([i32::MIN, i32::MIN], [i32::MAX, i32::MAX], |ids| {
            seen.extend_from_slice(ids)
        });
        seen.sort_unstable();
        assert_eq!(seen, vec![0, 1, 2]);
    }

    #[test]
    fn cells_and_centres() {
        let g = Grid { size: 24.0 };
        assert_eq!(g.cell(Vec3::new(-1.0, 47.9, 0.0)), [-1, 1]);
        assert_eq!(g.centre([0, -1]), Vec2::new(12.0, -12.0));
    }
}
