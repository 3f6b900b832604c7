//! Live validation: the links of a chosen route that a mover can reach are
//! re-checked against the live world with the same probe that generated
//! them (lift, cross, fall toward the destination cell), so a platform
//! that moved away or a door that closed makes its link stale. Only links
//! the build flagged as near a mover are re-probed: the static world does
//! not change, and re-probing every link would cost more than the search.
//!
//! Touch-open doors never make a link stale (the door opens when the bot
//! gets there): the prober sees through them. Jump pads and teleporters are
//! static triggers in Quarry and are always valid; so is a lift's ride (a
//! plat away at the top comes back down; the bot waits for it).

use super::memo::LinkMemo;
use crate::generate::probe::Prober;
use crate::mesh::NavMesh;

impl NavMesh {
    /// The link indices among `links` that the live world no longer allows
    /// (remembered in `memo` while their movers stand still).
    pub(crate) fn stale_links(&self, prober: &Prober<'_>, links: &[u32], memo: &mut LinkMemo) -> Vec<u32> {
        links
            .iter()
            .copied()
            .filter(|&li| !memo.traversable(self, prober, li))
            .collect()
    }

    /// The stale links among `links` and every other stale link of the
    /// movers they are near: a closed door bars all its links at once, so
    /// rejecting them together lets one repair find the way round (one link
    /// at a time, a wide door would use up the repairs).
    pub(crate) fn stale_links_grouped(&self, prober: &Prober<'_>, links: &[u32], memo: &mut LinkMemo) -> Vec<u32> {
        let mut stale = self.stale_links(prober, links, memo);
        if stale.is_empty() {
            return stale;
        }
        let seeds = stale.clone();
        for (_, list) in &self.graph.mover_links {
            // Each list is in link order.
            if !seeds.iter().any(|s| list.binary_search(s).is_ok()) {
                continue;
            }
            stale.extend(list.iter().copied().filter(|l| !seeds.contains(l) && !memo.traversable(self, prober, *l)));
        }
        stale.sort_unstable();
        stale.dedup();
        stale
    }

    /// Whether every mover link `li` passes near is a door that opens to
    /// the prober's touch (a key door whose key the player carries, or a
    /// gate the planner assumes open): then nothing there can bar it, even
    /// a node inside the closed door's bounds, where a probe starts in solid.
    fn only_near_doors_seen_through(&self, prober: &Prober<'_>, li: u32) -> bool {
        let mut near = self.graph.mover_links.iter().filter(|(_, list)| list.binary_search(&li).is_ok()).peekable();
        near.peek().is_some() && near.all(|(entity, _)| prober.opens_to_touch(*entity))
    }

    /// Whether link `li` can still be travelled in the prober's world.
    pub(crate) fn link_traversable(&self, prober: &Prober<'_>, li: u32) -> bool {
        let graph = &self.graph;
        let Some(link) = graph.links.get(li as usize) else {
            return false;
        };
        if !link.near_mover || !link.kind.is_probed() {
            return true;
        }
        let from = graph
            .source
            .get(li as usize)
            .and_then(|&s| graph.nodes.get(s as usize));
        let (Some(from), Some(to)) = (from, graph.nodes.get(link.to.index())) else {
            return false;
        };
        // The node's own spot: the centre of its cell, or where an
        // off-centre seed node stands (what the flood probed toward).
        let target = to.origin.truncate();
        let adjacent =
            (from.cell[0] - to.cell[0]).abs() <= 1 && (from.cell[1] - to.cell[1]).abs() <= 1;
        let step = if adjacent {
            prober.try_step(from.origin, target)
        } else {
            prober.try_gap_jump(from.origin, target)
        };
        step.is_some_and(|s| (s.origin.z - to.origin.z).abs() <= self.agent.step_height)
            || self.only_near_doors_seen_through(prober, li)
    }
}
