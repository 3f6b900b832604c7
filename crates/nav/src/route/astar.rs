//! A* over the mesh with a binary heap.
//!
//! Heap entries carry their own key (scores are never re-read while
//! comparing); a node may be pushed more than once and stale entries are
//! skipped when popped, by the closed tag. The per-node scratch (cost so
//! far, parent link, open and closed tags) lives in a [`SearchScratch`]
//! the caller keeps between queries and is never cleared: each search takes
//! a new serial number and a node's entries count only when its tag equals
//! the current serial, so a query costs only the nodes it touches.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::heuristic::{Estimate, Heuristic};
use crate::mesh::NavMesh;

/// Serial at which the tags are zeroed and numbering restarts (the
/// reference's 0x7ffffffe, halved: a tag holds the serial and one state
/// bit), long before `u32` wraps.
const SERIAL_LIMIT: u32 = 0x3fff_fffe;
const NONE: u32 = u32::MAX;

/// One node's search state, packed so relaxing a neighbour touches one
/// cache line: cost so far, heuristic (computed once, when first opened),
/// parent link, and a tag that is `2 * serial` while open and
/// `2 * serial + 1` once closed in the current search (anything else:
/// untouched by it).
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    g: f32,
    h: f32,
    parent: u32,
    tag: u32,
}

/// Reusable search memory for one querying thread (one per bot system or
/// worker), with what live validation of links near movers found on its
/// earlier routes. Sized to the mesh on first use; keep it across queries.
#[derive(Debug, Clone, Default)]
pub struct SearchScratch {
    slots: Vec<Slot>,
    serial: u32,
    heap: BinaryHeap<Reverse<u128>>,
    /// The region layer's search memory.
    pub(crate) regions: crate::regions::search::RegionScratch,
    /// What live validation learnt on earlier routes.
    pub(crate) memo: crate::route::memo::LinkMemo,
    /// Which straight lines between nodes straightening proved.
    pub(crate) lines: crate::route::memo::LineMemo,
}

impl SearchScratch {
    /// Empty scratch; it grows to the mesh's size on the first query.
    pub fn new() -> SearchScratch {
        SearchScratch::default()
    }

    /// Starts a search over `n` nodes: a fresh serial, an empty heap.
    pub(crate) fn begin(&mut self, n: usize) -> u32 {
        if self.slots.len() != n {
            self.slots = vec![Slot::default(); n];
            self.serial = 0;
        }
        self.serial += 1;
        if self.serial >= SERIAL_LIMIT {
            self.slots.iter_mut().for_each(|s| s.tag = 0);
            self.serial = 1;
        }
        self.heap.clear();
        self.serial
    }

    /// Marks `n` visited in the current serial; false if it already was.
    pub(crate) fn visit(&mut self, n: u32) -> bool {
        let closed = self.serial * 2 + 1;
        match self.slots.get_mut(n as usize) {
            Some(slot) if slot.tag != closed => {
                slot.tag = closed;
                true
            }
            _ => false,
        }
    }
}

/// A path found by [`astar`]: its cost and the link indices along it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Path {
    pub(crate) cost: f32,
    pub(crate) links: Vec<u32>,
}

/// What one search did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Search {
    pub(crate) path: Option<Path>,
    /// Nodes expanded (popped and closed).
    pub(crate) expansions: u32,
}

/// Cheapest path from `start` to `goal` avoiding the link indices in `rejected`.
pub(crate) fn astar(
    mesh: &NavMesh,
    s: &mut SearchScratch,
    start: u32,
    goal: u32,
    heuristic: Heuristic,
    rejected: &[u32],
) -> Search {
    astar_weighted(mesh, s, start, goal, heuristic, rejected, 0.0)
}

/// [`astar`] with each link's cost multiplied by `1 + exposure_weight ×`
/// the exposure of the node it enters when `exposure_weight > 0` (the
/// path's cost is then the weighted one). A weight of 0 (or below, or
/// NaN) adds nothing: the unweighted sums, bit for bit. Costs only grow,
/// so the heuristic stays admissible and consistent.
pub(crate) fn astar_weighted(
    mesh: &NavMesh,
    s: &mut SearchScratch,
    start: u32,
    goal: u32,
    heuristic: Heuristic,
    rejected: &[u32],
    exposure_weight: f32,
) -> Search {
    let weighted = exposure_weight > 0.0;
    // Only a weighted search reads (and may wait for) the exposure.
    let exposure: &[f32] = if weighted { mesh.exposures() } else { &[] };
    let graph = &mesh.graph;
    let serial = s.begin(graph.nodes.len());
    let (open, closed) = (serial * 2, serial * 2 + 1);
    let est = Estimate::new(mesh, heuristic, goal);
    let mut expansions = 0;
    let h0 = est.h(start);
    if let Some(slot) = s.slots.get_mut(start as usize)
        && h0.is_finite()
    {
        *slot = Slot {
            g: 0.0,
            h: h0,
            parent: NONE,
            tag: open,
        };
        s.heap.push(Reverse(entry(h0, 0.0, start)));
    }
    while let Some(Reverse(item)) = s.heap.pop() {
        let (g_at_push, node) = (f32::from_bits(u32::MAX - (item >> 32) as u32), item as u32);
        let Some(slot) = s.slots.get_mut(node as usize) else {
            continue;
        };
        if slot.tag == closed || g_at_push > slot.g {
            continue;
        }
        slot.tag = closed;
        let g = slot.g;
        expansions += 1;
        if node == goal {
            return Search {
                path: Some(Path {
                    cost: g,
                    links: trace_back(mesh, s, start, goal),
                }),
                expansions,
            };
        }
        let (base, links) = graph.hot_from(node);
        for (i, &(to, cost)) in links.iter().enumerate() {
            let Some(next) = s.slots.get_mut(to as usize) else {
                continue;
            };
            if next.tag == closed {
                continue;
            }
            let li = (base + i) as u32;
            if !rejected.is_empty() && rejected.contains(&li) {
                continue;
            }
            let ng = if weighted {
                g + cost * (1.0 + exposure_weight * exposure.get(to as usize).copied().unwrap_or(0.0))
            } else {
                g + cost
            };
            if next.tag == open {
                if ng >= next.g {
                    continue;
                }
            } else {
                *next = Slot {
                    g: f32::INFINITY,
                    h: est.h(to),
                    parent: NONE,
                    tag: open,
                };
            }
            if !next.h.is_finite() {
                continue;
            }
            next.g = ng;
            next.parent = li;
            let f = ng + next.h;
            s.heap.push(Reverse(entry(f, ng, to)));
        }
    }
    Search {
        path: None,
        expansions,
    }
}

/// A heap entry packed so integer order is: smallest `f` first, then
/// largest `g` (deeper nodes first among equals: fewer expansions on grids
/// full of equal-cost paths), then node. Non-negative `f32` bit patterns
/// sort like their values.
#[inline]
fn entry(f: f32, g: f32, node: u32) -> u128 {
    (u128::from(f.max(0.0).to_bits()) << 64)
        | (u128::from(u32::MAX - g.max(0.0).to_bits()) << 32)
        | u128::from(node)
}

/// The link indices from `start` to `goal` by parent links.
fn trace_back(mesh: &NavMesh, s: &SearchScratch, start: u32, goal: u32) -> Vec<u32> {
    let mut links = Vec::new();
    let mut at = goal;
    while at != start && links.len() <= mesh.graph.nodes.len() {
        let Some(li) = s.slots.get(at as usize).map(|slot| slot.parent) else {
            break;
        };
        let Some(&from) = mesh.graph.source.get(li as usize) else {
            break;
        };
        links.push(li);
        at = from;
    }
    links.reverse();
    links
}
