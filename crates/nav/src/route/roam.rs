//! Roaming: a random point the bot can really reach from where it stands.
//!
//! The directed closure of the start node (every node reachable over
//! outgoing links) is collected by a breadth-first walk that reuses the
//! search serial tags; candidates are drawn uniformly from it *without
//! replacement*, and each is proven with a full route query (movers may
//! block what the graph allows). The first that routes wins.

use glam::Vec3;
use quarry_map::Trace;
use rand::{Rng, RngExt};

use super::astar::SearchScratch;
use super::snap::Toward;
use super::{MAX_ROUTE_REPAIRS, Route, RouteOptions};
use crate::mesh::NavMesh;

impl NavMesh {
    /// A random node reachable from `origin` and a route to it, or `None`
    /// when `origin` is off the mesh or nothing else is reachable. At most
    /// [`MAX_ROUTE_REPAIRS`] candidates are tried. Draws from `rng` only
    /// (seed it from the match seed and the bot's slot).
    pub fn random_reachable_point<R: Rng + ?Sized>(
        &self,
        world: &dyn Trace,
        scratch: &mut SearchScratch,
        origin: Vec3,
        rng: &mut R,
        options: &RouteOptions,
    ) -> Option<(Vec3, Route)> {
        let prober = self.prober_with_keys(world, options.keys);
        let start = self.snap(
            &prober,
            self.project(&prober, origin),
            Toward::Node,
            options.snap_radius,
        )?;
        let mut closure = self.closure(scratch, start);
        let tries = (closure.len().saturating_sub(1)).min(MAX_ROUTE_REPAIRS as usize);
        let mut drawn = 0;
        for _ in 0..tries {
            let Some(pick) = draw(&mut closure, &mut drawn, rng) else {
                break;
            };
            if pick == start {
                continue;
            }
            let Some(goal) = self.graph.nodes.get(pick as usize).map(|n| n.origin) else {
                continue;
            };
            if let Ok(route) = self.route(world, scratch, origin, goal, options) {
                return Some((goal, route));
            }
        }
        None
    }

    /// Every node reachable from `start` over outgoing links, `start` first.
    pub(crate) fn closure(&self, scratch: &mut SearchScratch, start: u32) -> Vec<u32> {
        scratch.begin(self.graph.nodes.len());
        let mut out = Vec::new();
        if scratch.visit(start) {
            out.push(start);
        }
        let mut i = 0;
        while let Some(&n) = out.get(i) {
            i += 1;
            for l in self.graph.links_from(n).1 {
                if scratch.visit(l.to.0) {
                    out.push(l.to.0);
                }
            }
        }
        out
    }
}

/// Draws one of `items[*drawn..]` uniformly and moves it to `items[*drawn]`
/// (a partial Fisher-Yates shuffle: sampling without replacement).
fn draw<R: Rng + ?Sized>(items: &mut [u32], drawn: &mut usize, rng: &mut R) -> Option<u32> {
    let n = items.len();
    if *drawn >= n {
        return None;
    }
    let k = rng.random_range(*drawn..n);
    items.swap(*drawn, k);
    let pick = items.get(*drawn).copied();
    *drawn += 1;
    pick
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn draws_without_replacement() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut items: Vec<u32> = (0..10).collect();
        let mut drawn = 0;
        let mut seen: Vec<u32> =
            std::iter::from_fn(|| draw(&mut items, &mut drawn, &mut rng)).collect();
        assert_eq!(seen.len(), 10);
        seen.sort_unstable();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
    }
}
