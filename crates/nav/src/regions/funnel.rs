//! String pulling through a corridor of regions with the funnel algorithm
//! (Lee and Preparata; the "simple stupid funnel" Detour uses), in the
//! horizontal plane: no probes, because straight lines inside a rectangle
//! and across a portal are walkable by construction.
//!
//! The corridor is a list of gates: a portal is a segment to pass through,
//! a node is a point (a one-node region, the ends of a diagonal walk). A
//! special link (drop, jump, pad, teleporter) ends a funnel at its source
//! node; its destination starts the next, so both ends are corners, as the
//! cell router keeps them.

use glam::{Vec2, Vec3};

/// A gate: pass between `left` and `right` (equal for a point), with the
/// nodes beside each end when known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Gate {
    pub(crate) left: Vec3,
    pub(crate) right: Vec3,
    pub(crate) left_node: Option<u32>,
    pub(crate) right_node: Option<u32>,
}

impl Gate {
    /// A point gate.
    pub(crate) fn point(p: Vec3, node: Option<u32>) -> Gate {
        Gate { left: p, right: p, left_node: node, right_node: node }
    }

    /// A segment gate crossed in direction `dir` (seen from above): `left`
    /// is the end on the left of it.
    pub(crate) fn segment(a: Vec3, b: Vec3, a_node: u32, b_node: u32, dir: Vec3) -> Gate {
        let mid = (a + b) * 0.5;
        if dir.truncate().perp_dot((a - mid).truncate()) >= 0.0 {
            Gate { left: a, right: b, left_node: Some(a_node), right_node: Some(b_node) }
        } else {
            Gate { left: b, right: a, left_node: Some(b_node), right_node: Some(a_node) }
        }
    }

    /// The middle of the gate.
    pub(crate) fn middle(&self) -> Vec3 {
        (self.left + self.right) * 0.5
    }
}

/// Twice the signed area of the triangle `a`, `b`, `c` seen from above:
/// positive when `c` is left of the ray `a` -> `b`.
fn cross(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// The corner points of the shortest path from `start` through `gates` to
/// `goal`, with the node beside each when known; `start` itself is not
/// included, `goal` is last.
pub(crate) fn pull(start: Vec3, gates: &[Gate], goal: Vec3) -> Vec<(Vec3, Option<u32>)> {
    let mut all = Vec::with_capacity(gates.len() + 2);
    all.push(Gate::point(start, None));
    all.extend_from_slice(gates);
    all.push(Gate::point(goal, None));
    let flat = |v: Vec3| v.truncate();
    let mut out: Vec<(Vec3, Option<u32>)> = Vec::with_capacity(8);
    let (mut apex, mut left, mut right) = (0usize, 0usize, 0usize);
    let mut i = 1;
    let mut guard = 0usize;
    while i < all.len() {
        guard += 1;
        if guard > all.len() * all.len() + 16 {
            break;
        }
        let (a, l, r, g) = (all[apex].left, all[left].left, all[right].right, all[i]);
        let (a2, l2, r2) = (flat(a), flat(l), flat(r));
        // Tighten the right side.
        if cross(a2, r2, flat(g.right)) >= 0.0 {
            if a2 == r2 || cross(a2, l2, flat(g.right)) < 0.0 {
                right = i;
            } else {
                // The right side crossed the left: the left point is a corner.
                out.push((l, all[left].left_node));
                apex = left;
                set_apex(&mut all, apex, true);
                left = apex;
                right = apex;
                i = apex + 1;
                continue;
            }
        }
        // Tighten the left side.
        let r2 = flat(all[right].right);
        if cross(a2, l2, flat(g.left)) <= 0.0 {
            if a2 == l2 || cross(a2, r2, flat(g.left)) > 0.0 {
                left = i;
            } else {
                out.push((all[right].right, all[right].right_node));
                apex = right;
                set_apex(&mut all, apex, false);
                left = apex;
                right = apex;
                i = apex + 1;
                continue;
            }
        }
        i += 1;
    }
    if out.last().is_none_or(|(p, _)| p.distance(goal) > 1e-3) {
        out.push((goal, None));
    }
    out
}

/// Makes gate `at` the point it was passed at (its left or right end), so
/// the funnel restarts from there.
fn set_apex(all: &mut [Gate], at: usize, left_end: bool) {
    if let Some(g) = all.get_mut(at) {
        let (p, n) = if left_end { (g.left, g.left_node) } else { (g.right, g.right_node) };
        *g = Gate::point(p, n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_corridor_pulls_to_one_line() {
        let gates: Vec<Gate> = (1..5)
            .map(|i| Gate::segment(Vec3::new(i as f32 * 100.0, -50.0, 0.0), Vec3::new(i as f32 * 100.0, 50.0, 0.0), 0, 0, Vec3::X))
            .collect();
        let path = pull(Vec3::ZERO, &gates, Vec3::new(500.0, 0.0, 0.0));
        assert_eq!(path.len(), 1, "{path:?}");
    }

    #[test]
    fn a_corner_is_hugged() {
        // East along y = 0, then north: the gates force a turn at (200, 50).
        let g1 = Gate::segment(Vec3::new(200.0, -50.0, 0.0), Vec3::new(200.0, 50.0, 0.0), 1, 2, Vec3::X);
        let g2 = Gate::segment(Vec3::new(200.0, 50.0, 0.0), Vec3::new(300.0, 50.0, 0.0), 3, 4, Vec3::Y);
        let path = pull(Vec3::ZERO, &[g1, g2], Vec3::new(250.0, 400.0, 0.0));
        assert_eq!(path.len(), 2, "{path:?}");
        assert!(path[0].0.distance(Vec3::new(200.0, 50.0, 0.0)) < 1e-3, "{path:?}");
    }

    #[test]
    fn point_gates_are_passed_through() {
        let gates = [Gate::point(Vec3::new(100.0, 100.0, 0.0), Some(7))];
        let path = pull(Vec3::ZERO, &gates, Vec3::new(200.0, 0.0, 0.0));
        assert_eq!(path.len(), 2);
        assert_eq!(path[0].1, Some(7));
    }
}

#[cfg(test)]
mod u_turn {
    use super::*;

    /// East, north, then back west: the path must turn twice round the
    /// inner wall's end, not cut straight back to the goal.
    #[test]
    fn a_u_turn_goes_round_the_wall_end() {
        let v = |x: f32, y: f32| Vec3::new(x, y, 0.0);
        let mut gates = Vec::new();
        for (a, b, dir) in [(v(200.0, -50.0), v(200.0, 50.0), Vec3::X), (v(150.0, 100.0), v(250.0, 100.0), Vec3::Y), (v(200.0, 150.0), v(200.0, 250.0), -Vec3::X)] {
            gates.push(Gate::segment(a, b, 0, 0, dir));
        }
        let path = pull(v(0.0, 0.0), &gates, v(0.0, 200.0));
        assert!(path.len() >= 3, "{path:?}");
    }
}
