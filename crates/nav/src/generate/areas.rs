//! Areas: connected components of the graph with links taken as
//! undirected (weak components).
//!
//! Used only as a negative test: two nodes in different areas can never
//! reach each other, so such a query fails without a search. Two nodes in
//! one area may still not reach each other (a one-way drop joins the floors
//! it connects); directed reachability needs the search.

use crate::graph::Graph;

/// Assigns `graph.nodes[i].area` (areas numbered by their lowest node) and
/// returns each area's node count.
pub(crate) fn assign_areas(graph: &mut Graph) -> Vec<u32> {
    let n = graph.nodes.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for (li, link) in graph.links.iter().enumerate() {
        let from = graph.source.get(li).copied().unwrap_or(0);
        union(&mut parent, from, link.to.0);
    }
    let mut area_of_root = vec![u32::MAX; n];
    let mut sizes = Vec::new();
    for i in 0..n as u32 {
        let root = find(&mut parent, i) as usize;
        let area = match area_of_root.get(root).copied() {
            Some(a) if a != u32::MAX => a,
            _ => {
                let a = sizes.len() as u32;
                if let Some(slot) = area_of_root.get_mut(root) {
                    *slot = a;
                }
                sizes.push(0);
                a
            }
        };
        if let Some(s) = sizes.get_mut(area as usize) {
            *s += 1;
        }
        if let Some(node) = graph.nodes.get_mut(i as usize) {
            node.area = area;
        }
    }
    sizes
}

/// Strongly connected components (Kosaraju, iterative): each node's
/// component id and each component's size. Nodes outside their area's
/// largest component are pockets a bot can enter but not leave (or leave
/// but not enter): the bottom of a one-way drop, the middle of a teleporter.
pub(crate) fn strong_components(graph: &Graph) -> (Vec<u32>, Vec<u32>) {
    let n = graph.nodes.len();
    // Pass 1: finish order of an iterative DFS over outgoing links.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if seen.get(root as usize).copied().unwrap_or(true) {
            continue;
        }
        seen[root as usize] = true;
        stack.push((root, 0));
        while let Some((v, i)) = stack.pop() {
            let links = graph.links_from(v).1;
            match links.get(i) {
                Some(l) => {
                    stack.push((v, i + 1));
                    if let Some(s) = seen.get_mut(l.to.index())
                        && !*s
                    {
                        *s = true;
                        stack.push((l.to.0, 0));
                    }
                }
                None => order.push(v),
            }
        }
    }
    // Pass 2: reverse finish order over incoming links.
    let mut comp = vec![u32::MAX; n];
    let mut sizes = Vec::new();
    let mut todo = Vec::new();
    for &root in order.iter().rev() {
        if comp.get(root as usize).is_none_or(|&c| c != u32::MAX) {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0;
        comp[root as usize] = id;
        todo.push(root);
        while let Some(v) = todo.pop() {
            size += 1;
            for &li in graph.links_into(v) {
                let Some(&from) = graph.source.get(li as usize) else {
                    continue;
                };
                if let Some(c) = comp.get_mut(from as usize)
                    && *c == u32::MAX
                {
                    *c = id;
                    todo.push(from);
                }
            }
        }
        sizes.push(size);
    }
    (comp, sizes)
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while let Some(&p) = parent.get(x as usize) {
        if p == x {
            break;
        }
        let grand = parent.get(p as usize).copied().unwrap_or(p);
        if let Some(slot) = parent.get_mut(x as usize) {
            *slot = grand;
        }
        x = grand;
    }
    x
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        if let Some(slot) = parent.get_mut(hi as usize) {
            *slot = lo;
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::graph::{GraphBuilder, Link, LinkKind, NodeId};

    #[test]
    fn one_way_links_join_areas_and_islands_stay_apart() {
        let mut b = GraphBuilder::default();
        for i in 0..5 {
            b.add_node(Vec3::X * i as f32, [i, 0]);
        }
        let link = |to| Link {
            to: NodeId(to),
            cost: 1.0,
            kind: LinkKind::Drop,
            entity: None,
            near_mover: false,
        };
        b.link(1, link(0));
        b.link(2, link(1));
        b.link(4, link(3));
        let mut g = b.finish();
        let sizes = assign_areas(&mut g);
        assert_eq!(sizes, vec![3, 2]);
        let areas: Vec<u32> = g.nodes.iter().map(|n| n.area).collect();
        assert_eq!(areas, vec![0, 0, 0, 1, 1]);
        let (comp, sizes) = strong_components(&g);
        assert_eq!(sizes, vec![1; 5], "one-way links only: every node alone");
        assert_eq!(
            comp.iter().collect::<std::collections::BTreeSet<_>>().len(),
            5
        );
    }

    #[test]
    fn a_cycle_is_one_strong_component() {
        let mut b = GraphBuilder::default();
        for i in 0..4 {
            b.add_node(Vec3::X * i as f32, [i, 0]);
        }
        let link = |to| Link {
            to: NodeId(to),
            cost: 1.0,
            kind: LinkKind::Walk,
            entity: None,
            near_mover: false,
        };
        for (a, c) in [(0, 1), (1, 2), (2, 0), (2, 3)] {
            b.link(a, link(c));
        }
        let (comp, sizes) = strong_components(&b.finish());
        assert_eq!(comp[0], comp[1]);
        assert_eq!(comp[1], comp[2]);
        assert_ne!(comp[2], comp[3]);
        let mut s = sizes.clone();
        s.sort_unstable();
        assert_eq!(s, vec![1, 3]);
    }
}
