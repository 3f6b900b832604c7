//! Snapping a point to the mesh: project an airborne point onto the floor
//! below it, then find the nearest node the point can provably walk to (or,
//! for a goal, that walks to the point), spending a bounded number of
//! probes.
//!
//! The search visits the grid in square rings around the point's cell,
//! only each ring's shell, nearest candidates first, and stops once the
//! best node found is closer than anything a further ring can hold.

use glam::Vec3;
use quarry_map::Trace;

use crate::generate::probe::Prober;
use crate::graph::NodeId;
use crate::mesh::NavMesh;

/// Most walkability proofs one snap may spend (the reference's
/// `NAV_MAX_WALKABLE_PROBES`): a bot somewhere unusual falls back to
/// wandering rather than stalling the tick.
pub const MAX_SNAP_PROOFS: u32 = 48;
/// Default snap radius in units.
pub const DEFAULT_SNAP_RADIUS: f32 = 256.0;

/// Which way the straight line to the node must be walkable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Toward {
    /// From the point to the node (a route's start).
    Node,
    /// From the node to the point (a route's goal).
    Point,
}

impl NavMesh {
    /// The node nearest `point` that the agent standing at `point` can walk
    /// straight to, within `max_radius`; an airborne point is first
    /// projected onto the floor below it. `world` is the live world.
    pub fn nearest_node(&self, world: &dyn Trace, point: Vec3, max_radius: f32) -> Option<NodeId> {
        let prober = self.prober(world);
        self.snap_end(&prober, point, Toward::Node, max_radius)
            .map(|(n, _)| NodeId(n))
    }

    /// Where a route end meets the mesh: its node and the point actually
    /// routed from or to. The point is projected onto the floor and snapped
    /// with a walkability proof; a point where the box cannot stand at all
    /// (an item origin tucked into a corner or on the floor plane, as
    /// Quake 1 places them) instead takes the nearest node whose box touches
    /// it, and is replaced by that node's origin.
    pub(crate) fn snap_end(
        &self,
        prober: &Prober<'_>,
        point: Vec3,
        toward: Toward,
        radius: f32,
    ) -> Option<(u32, Vec3)> {
        let p = self.project(prober, point);
        if let Some(n) = self.snap(prober, p, toward, radius) {
            return Some((n, p));
        }
        if !p.is_finite() || prober.fits(p) {
            return None;
        }
        let n = self.touching_node(p)?;
        self.graph
            .nodes
            .get(n as usize)
            .map(|node| (n, node.origin))
    }

    /// The nearest node whose standing box touches a point-sized item box at
    /// `p` (within two half-widths across and a box height up or down).
    fn touching_node(&self, p: Vec3) -> Option<u32> {
        let reach = 2.0 * self.agent.half_width + 2.0;
        let (lo, hi) = (
            self.cell_of(p - Vec3::splat(reach)),
            self.cell_of(p + Vec3::splat(reach)),
        );
        let mut best: Option<(u32, f32)> = None;
        self.cells.for_each_in_rect(lo, hi, |ids| {
            for &id in ids {
                let Some(n) = self.graph.nodes.get(id as usize) else {
                    continue;
                };
                let d = n.origin - p;
                let touches =
                    d.x.abs() <= reach && d.y.abs() <= reach && d.z.abs() <= self.agent.height();
                if touches && best.is_none_or(|(_, bd)| d.length() < bd) {
                    best = Some((id, d.length()));
                }
            }
        });
        best.map(|(id, _)| id)
    }

    /// `point` moved onto the floor below it if it is more than a step
    /// above a floor within the agent's drop (a jumping or falling bot, an
    /// item floating over its base); else `point`.
    pub(crate) fn project(&self, prober: &Prober<'_>, point: Vec3) -> Vec3 {
        if !point.is_finite() {
            return point;
        }
        let tr = prober.sweep(point, point - Vec3::Z * self.agent.max_drop);
        if tr.start_solid {
            return prober
                .ground_below(point, self.agent.step_height * 2.0)
                .unwrap_or(point);
        }
        if tr.hit() && point.z - tr.end.z > self.agent.step_height {
            tr.end
        } else {
            point
        }
    }

    /// The nearest node within `radius` joined to `point` by a walkable
    /// straight line in direction `toward`.
    pub(crate) fn snap(
        &self,
        prober: &Prober<'_>,
        point: Vec3,
        toward: Toward,
        radius: f32,
    ) -> Option<u32> {
        if !point.is_finite() || self.graph.nodes.is_empty() {
            return None;
        }
        let cs = self.cell_size();
        let home = self.cell_of(point);
        let rings = ((radius / cs).ceil().max(0.0) as i32).saturating_add(1);
        let rings = rings.min(self.rings_to_cover(home));
        let by_ring = self.nodes_by_ring(home, rings);
        let (slope, step) = (self.agent.slope_tan(), self.agent.step_height);
        let mut best: Option<(u32, f32)> = None;
        let mut proofs = 0;
        let mut candidates: Vec<(u32, f32)> = Vec::new();
        let ring_numbers: Box<dyn Iterator<Item = i32>> = match &by_ring {
            None => Box::new(0..=rings),
            Some(list) => {
                let mut numbers: Vec<i32> = list.iter().map(|&(r, _)| r).collect();
                numbers.dedup();
                Box::new(numbers.into_iter())
            }
        };
        for r in ring_numbers {
            if best.is_some_and(|(_, d)| d <= (r - 1).max(0) as f32 * cs) {
                break;
            }
            candidates.clear();
            let ids: Box<dyn Iterator<Item = u32> + '_> = match &by_ring {
                None => Box::new(
                    ring(home, r).flat_map(|cell| self.cells.nodes_in(cell).iter().copied()),
                ),
                Some(list) => {
                    let from = list.partition_point(|&(q, _)| q < r);
                    let to = list.partition_point(|&(q, _)| q <= r);
                    Box::new(list.get(from..to).unwrap_or(&[]).iter().map(|&(_, id)| id))
                }
            };
            for id in ids {
                let Some(n) = self.graph.nodes.get(id as usize) else {
                    continue;
                };
                let d = n.origin.distance(point);
                let flat = (n.origin - point).truncate().length();
                let climb = (n.origin.z - point.z).abs();
                if d <= radius
                    && climb <= flat * slope + step + 2.0
                    && best.is_none_or(|(_, bd)| d < bd)
                {
                    candidates.push((id, d));
                }
            }
            candidates.sort_by(|a, b| a.1.total_cmp(&b.1));
            for &(id, d) in &candidates {
                if best.is_some_and(|(_, bd)| d >= bd) {
                    break;
                }
                if proofs >= MAX_SNAP_PROOFS {
                    return best.map(|(id, _)| id);
                }
                proofs += 1;
                let Some(node) = self.graph.nodes.get(id as usize) else {
                    continue;
                };
                // Standing on the node itself needs no proof.
                let ok = d < 1.0
                    || match toward {
                        Toward::Node => prober.walkable_line(point, node.origin),
                        Toward::Point => prober.walkable_line(node.origin, point),
                    };
                if ok {
                    best = Some((id, d));
                    break;
                }
            }
        }
        best.map(|(id, _)| id)
    }
}

impl NavMesh {
    /// Rings around `home` past which no node stands (the Chebyshev
    /// distance in cells to the farthest occupied cell).
    fn rings_to_cover(&self, home: [i32; 2]) -> i32 {
        let Some((lo, hi)) = self.cells.bounds() else {
            return 0;
        };
        let far = |a: i32, b: i32| (i64::from(a) - i64::from(b)).abs();
        let d = far(home[0], lo[0])
            .max(far(home[0], hi[0]))
            .max(far(home[1], lo[1]))
            .max(far(home[1], hi[1]));
        i32::try_from(d).unwrap_or(i32::MAX)
    }

    /// When the square of `rings` rings around `home` holds more cells
    /// than the mesh has occupied, every node with its ring, sorted by
    /// ring: the snap then visits occupied cells only, so its cost is
    /// bounded by the node count however large the radius or the map.
    /// `None` when walking the rings is cheaper.
    fn nodes_by_ring(&self, home: [i32; 2], rings: i32) -> Option<Vec<(i32, u32)>> {
        let side = 2 * i64::from(rings) + 1;
        if side.saturating_mul(side) <= self.cells.occupied_count() as i64 {
            return None;
        }
        let mut list: Vec<(i32, u32)> = self
            .cells
            .occupied()
            .filter_map(|(c, ids)| {
                let d = (i64::from(c[0]) - i64::from(home[0]))
                    .abs()
                    .max((i64::from(c[1]) - i64::from(home[1])).abs());
                let d = i32::try_from(d).ok().filter(|&d| d <= rings)?;
                Some(ids.iter().map(move |&id| (d, id)))
            })
            .flatten()
            .collect();
        list.sort_unstable();
        Some(list)
    }
}

/// The cells on the shell of the square of radius `r` around `c`.
fn ring(c: [i32; 2], r: i32) -> impl Iterator<Item = [i32; 2]> {
    let at = move |x: i32, y: i32| [c[0].saturating_add(x), c[1].saturating_add(y)];
    let side = (-r..=r).flat_map(move |i| [at(i, -r), at(i, r)]);
    let rest = (-r + 1..r).flat_map(move |j| [at(-r, j), at(r, j)]);
    let all: Box<dyn Iterator<Item = [i32; 2]>> = if r == 0 {
        Box::new(std::iter::once(c))
    } else {
        Box::new(side.chain(rest))
    };
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_are_shells() {
        assert_eq!(ring([0, 0], 0).count(), 1);
        assert_eq!(ring([5, 5], 1).count(), 8);
        let two: Vec<_> = ring([0, 0], 2).collect();
        assert_eq!(two.len(), 16);
        assert!(two.iter().all(|c| c[0].abs() == 2 || c[1].abs() == 2));
    }
}
