//! What live validation has learnt, kept between routes: each link near a
//! mover remembers whether it was travelable, and under which mover
//! positions, so the next route re-probes it only after one of its movers
//! moved. Kept in the querying thread's [`SearchScratch`](crate::SearchScratch)
//! (the mesh itself holds no mutable state), per set of doors seen
//! through (a player's keys change which doors bar it).
//!
//! With it a route also starts out knowing which crossings are barred
//! (a closed gate found so by an earlier route) and, when some are, whether
//! its goal can be reached at all without them: the regions' strongly
//! connected components with those crossings taken out, and which of them
//! reach which, are worked out once per barred set. A route to a goal
//! behind a closed gate fails at once instead of searching and repairing
//! until its repairs run out.
//!
//! A link's probe depends only on the static world, the positions of the
//! movers near it (the build lists them) and the doors seen through, so a
//! remembered answer is the one a new probe would give: routes come out
//! as they would without the memo, except that a repair search may start
//! from barred crossings an earlier route found rather than rediscover them.
//!
//! [`LineMemo`] keeps the straightening's answers for lines between two
//! nodes (static: they depend on the mesh alone).

use glam::Vec3;
use quarry_map::EntityId;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

use crate::generate::probe::Prober;
use crate::mesh::NavMesh;
use crate::regions::Crossing;
use crate::regions::table::DistanceTable;

/// Door sets remembered at once (a player's keys give one of four; gate
/// planning asks with others): past this the oldest is forgotten.
const MAX_DOOR_SETS: usize = 8;
/// Bytes of rows a door set's table without its barred crossings may hold
/// before it starts over empty (a row is 4 bytes a region): every row of
/// a map of up to 700 regions, 256 rows on the largest map a table is made
/// for. With at most [`MAX_DOOR_SETS`] tables, a scratch holds at most
/// 16 MB of them however many goals routes ask for.
const MAX_BARRED_TABLE_BYTES: usize = 2 << 20;
/// Strongly connected components past which which-reaches-which is not
/// tabulated (its cost grows with their square times the crossings): a
/// region graph cut into that many one-way pockets is searched instead.
const MAX_COMPONENTS: usize = 128;

/// What is known of one link near a mover, for one door set.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
enum Known {
    /// Never probed, or its movers have moved since.
    #[default]
    Unknown,
    /// Travelable with its movers where `sig` says.
    Open(u64),
    /// Barred with its movers where `sig` says.
    Barred(u64),
}

/// Which regions reach which with a set of crossings taken out, and the
/// distance table without them.
#[derive(Debug, Clone, Default)]
struct Reach {
    /// The crossings taken out (sorted edge indices).
    barred: Vec<u32>,
    /// The mesh's table without them (rows filled on demand).
    table: DistanceTable,
    /// Each region's strongly connected component.
    component: Vec<u32>,
    /// Per component, a bitset of the components it reaches (itself included).
    reaches: Vec<u64>,
    /// Words per bitset.
    words: usize,
}

/// One door set's memory.
#[derive(Debug, Clone, Default)]
struct DoorSet {
    doors: Vec<EntityId>,
    /// Per near link (by its place in [`LinkMemo::near`]).
    known: Vec<Known>,
    /// Near links last found barred (some may have been opened since).
    barred: Vec<u32>,
    /// A link was found barred (or open again) since `edges` was worked out.
    dirty: bool,
    /// The movers of the links `edges` came from, and where they stood.
    snapshot: Vec<(u32, Option<[u32; 3]>)>,
    /// The region edges crossing links barred as of `snapshot`, sorted.
    edges: Vec<u32>,
    reach: Option<Reach>,
}

/// The memo: see the module docs.
#[derive(Debug, Clone, Default)]
pub(crate) struct LinkMemo {
    /// The mesh it was filled for ([`NavMesh::id`]); another resets it.
    mesh: u64,
    /// Links near movers, sorted.
    near: Vec<u32>,
    /// `movers[movers_first[k]..movers_first[k + 1]]`: the movers (indices
    /// into the graph's mover links) near link `near[k]`.
    movers_first: Vec<u32>,
    movers: Vec<u32>,
    /// The same for the region edges that cross link `near[k]`.
    edges_first: Vec<u32>,
    edges: Vec<u32>,
    sets: Vec<DoorSet>,
    /// The door set of the route under way.
    set: usize,
    /// Mover offsets read this route (bits), by mover index; valid when
    /// the serial matches.
    offsets: Vec<(u32, Option<[u32; 3]>)>,
    serial: u32,
}

impl LinkMemo {
    /// Gets ready for a route on `mesh` seeing through `doors`.
    pub(crate) fn begin(&mut self, mesh: &NavMesh, doors: &[EntityId]) {
        if self.mesh != mesh.id {
            *self = LinkMemo::index(mesh);
        }
        self.serial = self.serial.wrapping_add(1);
        if self.serial == 0 {
            self.offsets.iter_mut().for_each(|o| o.0 = 0);
            self.serial = 1;
        }
        self.set = match self.sets.iter().position(|s| s.doors == doors) {
            Some(i) => i,
            None => {
                if self.sets.len() >= MAX_DOOR_SETS {
                    self.sets.remove(0);
                }
                self.sets.push(DoorSet { doors: doors.to_vec(), known: vec![Known::Unknown; self.near.len()], ..DoorSet::default() });
                self.sets.len() - 1
            }
        };
    }

    /// The memo's indices for `mesh`: its links near movers, their movers
    /// and the region edges crossing them.
    fn index(mesh: &NavMesh) -> LinkMemo {
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (m, (_, list)) in mesh.graph.mover_links.iter().enumerate() {
            pairs.extend(list.iter().map(|&li| (li, m as u32)));
        }
        pairs.sort_unstable();
        let mut memo = LinkMemo { mesh: mesh.id, ..LinkMemo::default() };
        for &(li, m) in &pairs {
            if memo.near.last() != Some(&li) {
                memo.near.push(li);
                memo.movers_first.push(memo.movers.len() as u32);
            }
            memo.movers.push(m);
        }
        memo.movers_first.push(memo.movers.len() as u32);
        let mut crossing: Vec<(u32, u32)> = mesh
            .regions
            .edges
            .iter()
            .enumerate()
            .filter_map(|(ei, e)| match e.crossing {
                Crossing::Link { link, .. } => memo.near.binary_search(&link).ok().map(|k| (k as u32, ei as u32)),
                Crossing::Portal { .. } => None,
            })
            .collect();
        crossing.sort_unstable();
        let mut at = 0;
        for k in 0..memo.near.len() as u32 {
            memo.edges_first.push(memo.edges.len() as u32);
            while let Some(&(kk, ei)) = crossing.get(at)
                && kk == k
            {
                memo.edges.push(ei);
                at += 1;
            }
        }
        memo.edges_first.push(memo.edges.len() as u32);
        memo.offsets = vec![(0, None); mesh.graph.mover_links.len()];
        memo
    }

    /// Entry `k` of a list kept in compressed rows: `list[first[k]..first[k + 1]]`.
    fn part<'l>(first: &[u32], list: &'l [u32], k: usize) -> &'l [u32] {
        let a = first.get(k).copied().unwrap_or(0) as usize;
        let b = first.get(k + 1).copied().unwrap_or(0) as usize;
        list.get(a..b.max(a)).unwrap_or(&[])
    }

    /// Where mover `m` stands now (its offset's bits), read from the world once per route.
    fn offset(&mut self, mesh: &NavMesh, prober: &Prober<'_>, m: u32) -> Option<[u32; 3]> {
        let serial = self.serial;
        let slot = self.offsets.get_mut(m as usize)?;
        if slot.0 != serial {
            let entity = mesh.graph.mover_links.get(m as usize).map(|(e, _)| *e)?;
            *slot = (serial, prober.world().mover_offset_of(entity).map(|o: Vec3| o.to_array().map(f32::to_bits)));
        }
        slot.1
    }

    /// The positions of near link `k`'s movers, hashed; `None` when the
    /// world does not say where one of them is (nothing is remembered then).
    fn signature(&mut self, mesh: &NavMesh, prober: &Prober<'_>, k: usize) -> Option<u64> {
        let mut h = FxHasher::default();
        let (a, b) = (self.movers_first.get(k).copied()?, self.movers_first.get(k + 1).copied()?);
        for i in a..b {
            let m = *self.movers.get(i as usize)?;
            m.hash(&mut h);
            self.offset(mesh, prober, m)?.hash(&mut h);
        }
        Some(h.finish())
    }

    /// Whether link `li` can be travelled in the prober's world: remembered
    /// when its movers have not moved since it was probed, else probed now.
    pub(crate) fn traversable(&mut self, mesh: &NavMesh, prober: &Prober<'_>, li: u32) -> bool {
        let Ok(k) = self.near.binary_search(&li) else {
            return mesh.link_traversable(prober, li);
        };
        let Some(sig) = self.signature(mesh, prober, k) else {
            return mesh.link_traversable(prober, li);
        };
        let Some(set) = self.sets.get_mut(self.set) else {
            return mesh.link_traversable(prober, li);
        };
        match set.known.get(k) {
            Some(Known::Open(s)) if *s == sig => return true,
            Some(Known::Barred(s)) if *s == sig => return false,
            _ => {}
        }
        let ok = mesh.link_traversable(prober, li);
        if let Some(slot) = set.known.get_mut(k) {
            set.dirty |= !ok || matches!(slot, Known::Barred(_));
            *slot = if ok { Known::Open(sig) } else { Known::Barred(sig) };
        }
        if !ok && !set.barred.contains(&(k as u32)) {
            set.barred.push(k as u32);
        }
        ok
    }

    /// The region edges that cross link `li` (none unless it is near a mover).
    pub(crate) fn edges_crossing(&self, li: u32) -> &[u32] {
        match self.near.binary_search(&li) {
            Ok(k) => Self::part(&self.edges_first, &self.edges, k),
            Err(_) => &[],
        }
    }

    /// The region edges known barred now: crossings of links found barred
    /// whose movers still stand where they stood then. Sorted. Worked out
    /// again only when a link was found barred or open since, or one of
    /// their movers moved.
    pub(crate) fn barred_edges(&mut self, mesh: &NavMesh, prober: &Prober<'_>) -> Vec<u32> {
        let Some(set) = self.sets.get(self.set) else {
            return Vec::new();
        };
        if !set.dirty {
            // Every route asks: read the snapshot in place, no copy.
            let mut i = 0;
            let unmoved = loop {
                let Some(&(m, at)) = self.sets.get(self.set).and_then(|s| s.snapshot.get(i)) else { break true };
                if self.offset(mesh, prober, m) != at {
                    break false;
                }
                i += 1;
            };
            if unmoved {
                return self.sets.get(self.set).map(|s| s.edges.clone()).unwrap_or_default();
            }
        }
        let candidates = self.sets.get(self.set).map(|s| s.barred.clone()).unwrap_or_default();
        let mut still = Vec::with_capacity(candidates.len());
        let mut edges = Vec::new();
        let mut movers: Vec<u32> = Vec::new();
        for k in candidates {
            let sig = self.signature(mesh, prober, k as usize);
            let Some(set) = self.sets.get(self.set) else { break };
            if let (Some(sig), Some(Known::Barred(s))) = (sig, set.known.get(k as usize))
                && *s == sig
            {
                still.push(k);
                edges.extend_from_slice(Self::part(&self.edges_first, &self.edges, k as usize));
                movers.extend_from_slice(Self::part(&self.movers_first, &self.movers, k as usize));
            }
        }
        edges.sort_unstable();
        edges.dedup();
        movers.sort_unstable();
        movers.dedup();
        let snapshot = movers.into_iter().map(|m| (m, self.offset(mesh, prober, m))).collect();
        if let Some(set) = self.sets.get_mut(self.set) {
            set.barred = still;
            set.dirty = false;
            set.snapshot = snapshot;
            set.edges = edges.clone();
        }
        edges
    }

    /// Whether region `to` can be reached from region `from` with the
    /// crossings in `barred` (sorted) taken out, and the distance table
    /// without them (`None`: no memory for this door set).
    pub(crate) fn reachable(&mut self, mesh: &NavMesh, barred: &[u32], from: u32, to: u32) -> (bool, Option<DistanceTable>) {
        let Some(set) = self.sets.get_mut(self.set) else { return (true, None) };
        if set.reach.as_ref().is_none_or(|r| r.barred != barred) {
            set.reach = Some(Reach::new(mesh, barred));
        }
        let max_rows = (MAX_BARRED_TABLE_BYTES / (4 * mesh.regions.regions.len().max(1))).max(64);
        if let Some(r) = &mut set.reach
            && r.table.rows_computed() > max_rows
        {
            r.table = mesh.regions.table.without(&mesh.regions, barred);
        }
        match &set.reach {
            Some(r) => (r.reaches(from, to), Some(r.table.clone())),
            None => (true, None),
        }
    }
}

impl Reach {
    /// The components of the region graph without `barred`, and their reach.
    fn new(mesh: &NavMesh, barred: &[u32]) -> Reach {
        let regions = &mesh.regions;
        let n = regions.regions.len();
        let next = |r: u32| {
            let (base, edges) = regions.edges_from(r);
            edges.iter().enumerate().filter(move |(i, _)| barred.binary_search(&((base + i) as u32)).is_err()).map(|(_, e)| e.to)
        };
        let component = strongly_connected(n, &next);
        let count = component.iter().copied().max().map_or(0, |c| c as usize + 1);
        let table = regions.table.without(regions, barred);
        if count > MAX_COMPONENTS {
            // Too many to tabulate who reaches whom: routes search instead.
            return Reach { barred: barred.to_vec(), table, component: Vec::new(), reaches: Vec::new(), words: 0 };
        }
        let words = count.div_ceil(64).max(1);
        let mut reaches = vec![0u64; count * words];
        // Tarjan numbers components in reverse topological order: every
        // component a component leads to has a smaller number, so filling
        // them in number order sees each successor done.
        let mut by_component: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (r, &c) in component.iter().enumerate() {
            if let Some(list) = by_component.get_mut(c as usize) {
                list.push(r as u32);
            }
        }
        for c in 0..count {
            let mut row = vec![0u64; words];
            row[c / 64] |= 1 << (c % 64);
            for &r in &by_component[c] {
                for to in next(r) {
                    let d = component.get(to as usize).copied().unwrap_or(c as u32) as usize;
                    if d != c {
                        for (w, x) in row.iter_mut().zip(&reaches[d * words..(d + 1) * words]) {
                            *w |= x;
                        }
                    }
                }
            }
            reaches[c * words..(c + 1) * words].copy_from_slice(&row);
        }
        Reach { barred: barred.to_vec(), table, component, reaches, words }
    }

    fn reaches(&self, from: u32, to: u32) -> bool {
        let (Some(&a), Some(&b)) = (self.component.get(from as usize), self.component.get(to as usize)) else {
            return true;
        };
        let (a, b) = (a as usize, b as usize);
        self.reaches.get(a * self.words + b / 64).is_none_or(|w| w & (1 << (b % 64)) != 0)
    }
}

/// Tarjan's strongly connected components over `n` vertices whose
/// successors `next` gives, without recursion; components are numbered
/// in the order they complete (a component's successors complete first).
fn strongly_connected<I: Iterator<Item = u32>>(n: usize, next: &impl Fn(u32) -> I) -> Vec<u32> {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut counter = 0u32;
    let mut components = 0u32;
    // The walk: a vertex and its successors still to visit.
    let mut walk: Vec<(u32, I)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN {
            continue;
        }
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        walk.push((root, next(root)));
        while let Some((v, succ)) = walk.last_mut() {
            let v = *v;
            if let Some(w) = succ.next() {
                let wi = w as usize;
                if wi >= n {
                    continue;
                }
                if index[wi] == UNSEEN {
                    index[wi] = counter;
                    low[wi] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    walk.push((w, next(w)));
                } else if on_stack[wi] {
                    low[v as usize] = low[v as usize].min(index[wi]);
                }
                continue;
            }
            walk.pop();
            if let Some((parent, _)) = walk.last() {
                let p = *parent as usize;
                low[p] = low[p].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                while let Some(w) = stack.pop() {
                    on_stack[w as usize] = false;
                    component[w as usize] = components;
                    if w == v {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::strongly_connected;

    #[test]
    fn components_come_out_successors_first() {
        // 0 <-> 1 -> 2 <-> 3, 4 alone, 5 -> 0.
        let succ: Vec<Vec<u32>> = vec![vec![1], vec![0, 2], vec![3], vec![2], vec![], vec![0]];
        let c = strongly_connected(6, &|v: u32| succ[v as usize].clone().into_iter());
        assert_eq!(c[0], c[1]);
        assert_eq!(c[2], c[3]);
        assert_ne!(c[0], c[2]);
        assert!(c[2] < c[0], "the component 0-1 leads to completes after it");
        assert!(c[0] < c[5]);
        assert_eq!(c.iter().collect::<std::collections::BTreeSet<_>>().len(), 4);
    }
}

/// Straight lines between two nodes' origins that straightening proved
/// walkable along the rectangles, or not: the answer depends on the mesh
/// alone, and routes to the same places ask it again and again. Bounded:
/// forgotten wholesale when full.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineMemo {
    mesh: u64,
    lines: rustc_hash::FxHashMap<(u32, u32), bool>,
}

/// Lines a [`LineMemo`] holds at most.
const MAX_LINES: usize = 1 << 16;

impl LineMemo {
    /// The answer for the line from node `key.0`'s origin to node `key.1`'s, if known for `mesh`.
    pub(crate) fn get(&mut self, mesh: &NavMesh, key: (u32, u32)) -> Option<bool> {
        if self.mesh != mesh.id {
            self.mesh = mesh.id;
            self.lines.clear();
        }
        self.lines.get(&key).copied()
    }

    /// Remembers the answer for a line ([`LineMemo::get`] was asked first, for this mesh).
    pub(crate) fn insert(&mut self, key: (u32, u32), joined: bool) {
        if self.lines.len() >= MAX_LINES {
            self.lines.clear();
        }
        self.lines.insert(key, joined);
    }
}
